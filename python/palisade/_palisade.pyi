"""Type stubs for the native module ``palisade._palisade`` (re-exported by ``palisade``)."""

from os import PathLike
from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Union, final

__version__: str

Severity = Literal["block", "notice"]

class PalisadeError(ValueError):
    """Base class of every Palisade error. Attributes are None when the error has no such context."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    rule: Optional[str]
    setting: Optional[str]
    size: Optional[int]
    limit: Optional[int]
    path: Optional[str]
    index: Optional[int]

class RuleFileError(PalisadeError):
    """A rule file could not be read, parsed or validated (``file``, ``line``, ``column``, ``rule``)."""

class PolicyError(PalisadeError):
    """A policy file could not be read, or has an unknown key or a bad value (``file``, ``line``, ``column``, ``path``)."""

class InvalidSettingError(PalisadeError):
    """A setting has a bad value (a fence source, an allowed number, a foreign-id pattern); ``setting`` names it."""

class UnknownRuleError(PalisadeError):
    """A setting names a rule id that is not loaded (``rule``, ``setting``)."""

class InputTooLargeError(PalisadeError):
    """A text is over the input limit (``size`` and ``limit`` in UTF-8 bytes)."""

class FenceError(PalisadeError):
    """A fence label or nonce is not acceptable."""

class InvalidIdError(PalisadeError):
    """A ticket id or allowed id is empty or holds whitespace."""

@final
class Finding:
    """One problem found in a text. ``text[f.start:f.end]`` is its span; it never holds the matched text."""

    @property
    def rule(self) -> str:
        """The stable rule id, such as ``"credential.github-classic-token"``."""
    @property
    def kind(self) -> str:
        """The class of problem: ``"credential"``, ``"email"``, ``"injection"``, ..."""
    @property
    def severity(self) -> Severity:
        """``"block"`` or ``"notice"``."""
    @property
    def start(self) -> int:
        """Start of the span as an index into the Python ``str``."""
    @property
    def end(self) -> int:
        """End of the span (exclusive) as an index into the Python ``str``."""
    @property
    def byte_start(self) -> int:
        """Start of the span in UTF-8 bytes (as the CLI reports it)."""
    @property
    def byte_end(self) -> int:
        """End of the span in UTF-8 bytes (exclusive)."""
    @property
    def message(self) -> str:
        """The message for the model and the reviewer."""
    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Report:
    """The outcome of screening one draft."""

    @property
    def blocked(self) -> bool:
        """Whether any finding is a BLOCK."""
    @property
    def findings(self) -> list[Finding]:
        """The findings, in span order."""
    def feedback(self) -> str:
        """One rewrite instruction for the model, built from rule messages only ("" if nothing to fix)."""
    def redact(self) -> str:
        """A log-safe copy of the screened draft (sensitive spans replaced by ``[REDACTED:<kind>]``)."""
    def to_html(self) -> str:
        """A self-contained HTML review page of the draft (credentials only as masked previews)."""
    def to_dict(self) -> dict[str, Any]:
        """``{"blocked": bool, "findings": [dict, ...]}``; no draft text."""
    def __len__(self) -> int: ...

@final
class Fenced:
    """A fenced block of untrusted text and what was found in it."""

    @property
    def text(self) -> str:
        """The whole block: BEGIN line, cleaned text, END line."""
    @property
    def findings(self) -> list[Finding]:
        """NOTICE findings with spans into the text that was fenced."""
    def to_dict(self) -> dict[str, Any]:
        """``{"fenced": str, "findings": [dict, ...]}``."""

@final
class Cleaned:
    """Text cleaned for a search query and what was found in it."""

    @property
    def text(self) -> str:
        """The cleaned text."""
    @property
    def findings(self) -> list[Finding]:
        """NOTICE findings with spans into the text that was cleaned."""
    def to_dict(self) -> dict[str, Any]:
        """``{"text": str, "findings": [dict, ...]}``."""

@final
class Screener:
    """Screens drafted replies; build once, call from any thread. Pickles by its construction arguments."""

    def __new__(
        cls,
        *,
        policy: Union[str, PathLike[str], None] = None,
        rules: Sequence[Union[str, PathLike[str]]] = (),
        severities: Optional[dict[str, Literal["block", "notice", "off"]]] = None,
        max_words: Optional[int] = None,
        max_input_bytes: Optional[int] = None,
    ) -> Screener: ...
    def screen(
        self,
        draft: str,
        *,
        ticket_id: Optional[str],
        allow_ids: Sequence[str] = (),
        allow_emails: Sequence[str] = (),
        allow_numbers: Sequence[str] = (),
        ticket_text: Optional[str] = None,
    ) -> Report:
        """Screens one draft (GIL released while it works)."""
    def screen_many(self, items: Iterable[Mapping[str, Any]]) -> list[Report]:
        """Screens many drafts on every core; reports in input order."""
    def _time_screen(self, draft: str, *, ticket_id: Optional[str], n: int) -> float:
        """For the benchmark: seconds to screen ``draft`` ``n`` times inside Rust."""
    def rules(self) -> list[dict[str, str]]:
        """The loaded rules: ``id``, ``kind``, ``severity``, ``status``, ``description``."""

@final
class Gate:
    """The tool-call gate: checks proposed calls against tools.toml and records them in a SQLite ledger."""

    def __new__(
        cls,
        tools: Union[str, "PathLike[str]"],
        *,
        db: str = ...,
        rules: Sequence[Any] = ...,
    ) -> "Gate": ...
    def check(
        self, run_id: str, tool: str, args: Any, *, context: Optional[Any] = None
    ) -> dict[str, Any]:
        """Decides one proposed call: ``call_id``, ``key``, ``status``, ``reasons``, ``replayed``."""
    def approve(self, call_id: str, by: str) -> dict[str, Any]:
        """A person approves a waiting call (business rules run again first)."""
    def reject(self, call_id: str, by: str, reason: str) -> dict[str, Any]:
        """A person rejects a waiting call."""
    def done(self, call_id: str, result: Any) -> dict[str, Any]:
        """Records the result of an executed call."""

@final
class Detector:
    """The input side (scan, fence, clean_query) with your own injection rules, a policy and limits. Pickles by its arguments."""

    def __new__(
        cls,
        *,
        policy: Union[str, PathLike[str], None] = None,
        rules: Sequence[Union[str, PathLike[str]]] = (),
        disable: Sequence[str] = (),
        max_input_bytes: Optional[int] = None,
    ) -> Detector: ...
    def scan(self, text: str) -> list[Finding]:
        """Scans untrusted text (NOTICEs only)."""
    def fence(
        self, text: str, label: str, *, nonce: Union[str, bool, None] = None, source: Optional[str] = None
    ) -> Fenced:
        """Fences untrusted text; ``source`` defaults to the policy's."""
    def clean_query(self, text: str) -> Cleaned:
        """Cleans text for use as a search query."""

def fence(
    text: str, label: str, *, nonce: Union[str, bool, None] = None, source: Optional[str] = None
) -> Fenced:
    """Wraps untrusted text in BEGIN/END lines it cannot forge or close."""

def clean_query(text: str) -> Cleaned:
    """Cleans text for use as a search query (no fence lines)."""

def scan(text: str) -> list[Finding]:
    """Scans untrusted text for injection-shaped and hidden text (NOTICEs only)."""
