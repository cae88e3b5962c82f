"""Palisade: guardrails where an LLM support agent touches the world.

Fence untrusted ticket text before it goes into a prompt, record injection-shaped text
(NOTICE findings, never a block), and screen drafted replies for credentials, foreign ids,
placeholders, operator-facing intro lines, email addresses, long numbers, promises and
length before a person is asked to approve them. No model, no network: compiled Rust rules,
microseconds per call.

>>> import palisade
>>> block = palisade.fence("Where is my parcel?", "TICKET_BODY", nonce="5eed0f00d5eed0f0")
>>> block.text.splitlines()[-1]
'⟦END UNTRUSTED TICKET_BODY 5eed0f00d5eed0f0⟧'
>>> screener = palisade.Screener()
>>> report = screener.screen("Hi [Customer Name], mail bob@example.org.",
...                          ticket_id="6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")
>>> report.blocked, [f.kind for f in report.findings]
(True, ['placeholder', 'email'])
>>> report.redact()
'Hi [Customer Name], mail [REDACTED:email].'
"""

from palisade._palisade import (
    Cleaned,
    Detector,
    FenceError,
    Fenced,
    Finding,
    Gate,
    InputTooLargeError,
    InvalidIdError,
    InvalidSettingError,
    PalisadeError,
    PolicyError,
    Report,
    RuleFileError,
    Screener,
    UnknownRuleError,
    __version__,
    clean_query,
    fence,
    scan,
)

__all__ = [
    "Cleaned",
    "Detector",
    "FenceError",
    "Fenced",
    "Finding",
    "Gate",
    "InputTooLargeError",
    "InvalidIdError",
    "InvalidSettingError",
    "PalisadeError",
    "PolicyError",
    "Report",
    "RuleFileError",
    "Screener",
    "UnknownRuleError",
    "__version__",
    "clean_query",
    "fence",
    "scan",
]
