//! A deployment's settings in one file, `palisade.toml`, applied to the builders: the layer
//! above the screener, detector and fence, below the command line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::detect::{Detector, DetectorBuilder};
use crate::error::{Error, Result};
use crate::fence::Fence;
use crate::finding::Severity;
use crate::rules::RuleInfo;
use crate::screen::context_defaults::DEFAULT_MAX_WORDS;
use crate::screen::{Context, IdPattern, Screener, ScreenerBuilder};

/// What a policy does to a rule (or every rule of a kind): its severity, or `off`.
///
/// ```
/// assert_eq!(serde_json::to_string(&palisade::Level::Off)?, "\"off\"");
/// assert_eq!("notice".parse::<palisade::Level>(), Ok(palisade::Level::Notice));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The rule's findings hold the draft back.
    Block,
    /// The rule's findings travel with the draft.
    Notice,
    /// The rule does not run.
    Off,
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "block" => Ok(Level::Block),
            "notice" => Ok(Level::Notice),
            "off" => Ok(Level::Off),
            other => Err(format!(
                "unknown level {other:?} (use block, notice or off)"
            )),
        }
    }
}

/// The file as written: every key optional, unknown keys refused.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    #[serde(default)]
    screen: ScreenSection,
    #[serde(default)]
    scan: ScanSection,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Level>,
    #[serde(default)]
    fence: FenceSection,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ScreenSection {
    max_words: Option<usize>,
    foreign_id_pattern: Option<Spanned<String>>,
    #[serde(default)]
    allow_emails: Vec<String>,
    #[serde(default)]
    allow_numbers: Vec<Spanned<String>>,
    #[serde(default)]
    allow_ids: Vec<Spanned<String>>,
    allow_from_ticket: Option<bool>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    max_input_bytes: Option<usize>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ScanSection {
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    max_input_bytes: Option<usize>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FenceSection {
    source: Option<Spanned<String>>,
}

/// The effective settings of the `[screen]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct ScreenPolicy {
    max_words: usize,
    foreign_id_pattern: Option<String>,
    #[serde(skip)]
    foreign_ids: Option<IdPattern>,
    allow_emails: Vec<String>,
    allow_numbers: Vec<String>,
    allow_ids: Vec<String>,
    allow_from_ticket: bool,
    rules: Vec<PathBuf>,
    max_input_bytes: Option<usize>,
}

/// The effective settings of the `[scan]` table (the input side: scan, fence, query).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct ScanPolicy {
    rules: Vec<PathBuf>,
    max_input_bytes: Option<usize>,
}

/// The effective settings of the `[fence]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct FencePolicy {
    source: Option<String>,
}

/// A deployment's policy: limits, allow-lists, the foreign-id shape, extra rule files,
/// severities, and who wrote fenced text. Read from TOML with [`Policy::from_file`] or
/// [`Policy::from_toml`]; applied to the builders with [`screener_builder`](Self::screener_builder),
/// [`detector_builder`](Self::detector_builder), [`fence`](Self::fence) and
/// [`context`](Self::context). Every problem (an unknown key, a bad value, a rule or kind
/// that does not exist) is an error naming the file, line and key.
///
/// ```
/// use palisade::{Policy, Severity};
/// let policy = Policy::from_toml(r##"
/// [screen]
/// max_words = 120
/// foreign_id_pattern = '#\d{5,}'
/// allow_emails = ["help@shop.example", "*@shop.example"]
/// allow_numbers = ["0800 123 4567"]
/// [severity]
/// "draft.promise" = "notice"
/// [fence]
/// source = "a customer"
/// "##)?;
/// let screener = policy.screener_builder().build()?;
/// let ctx = policy.context(Some("#48213"))?;
/// let report = screener.screen(&ctx, "Call 0800 123 4567 about #48213, not #55120.")?;
/// assert_eq!(report.findings().len(), 1); // the foreign #55120
/// assert!(policy.fence("TICKET_BODY")?.begin_line().contains("written by a customer"));
///
/// let err = Policy::from_toml("[screen]\nallow_email = []\n").unwrap_err();
/// assert!(err.to_string().contains(":2:1:") && err.to_string().contains("allow_email"));
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Policy {
    /// The file it was read from, if any (shown beside the policy, not in it).
    #[serde(skip)]
    file: Option<PathBuf>,
    screen: ScreenPolicy,
    scan: ScanPolicy,
    /// Rule ids or kinds, in file order.
    severity: BTreeMap<String, Level>,
    fence: FencePolicy,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            file: None,
            screen: ScreenPolicy {
                max_words: DEFAULT_MAX_WORDS,
                foreign_id_pattern: None,
                foreign_ids: None,
                allow_emails: Vec::new(),
                allow_numbers: Vec::new(),
                allow_ids: Vec::new(),
                allow_from_ticket: true,
                rules: Vec::new(),
                max_input_bytes: None,
            },
            scan: ScanPolicy {
                rules: Vec::new(),
                max_input_bytes: None,
            },
            severity: BTreeMap::new(),
            fence: FencePolicy { source: None },
        }
    }
}

/// Rule ids hold a dot (`draft.promise`); kinds do not (`promise`).
fn is_kind(name: &str) -> bool {
    !name.contains('.')
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Policy {
    /// The built-in defaults (what runs with no policy file).
    ///
    /// ```
    /// let p = palisade::Policy::new();
    /// assert_eq!(p.file(), None);
    /// let s = p.screener_builder().build()?;
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn new() -> Self {
        Policy::default()
    }

    /// Reads a policy file. Relative rule paths in it are resolved against the file's folder.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("palisade-policy-doc");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("palisade.toml"), "[screen]\nmax_words = 50\n").unwrap();
    /// let p = palisade::Policy::from_file(dir.join("palisade.toml"))?;
    /// assert_eq!(p.max_words(), 50);
    /// assert!(palisade::Policy::from_file(dir.join("missing.toml")).is_err());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::PolicyFileRead {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        let mut policy = Policy::parse(&path.display().to_string(), &text, base)?;
        policy.file = Some(path.to_owned());
        Ok(policy)
    }

    /// Reads a policy from TOML text; relative rule paths are resolved against the current
    /// folder, and errors name the file `palisade.toml`.
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[screen]\nmax_words = 150\n")?;
    /// assert_eq!(p.max_words(), 150);
    /// assert!(palisade::Policy::from_toml("[screen]\nmax_words = -1\n").is_err());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn from_toml(text: &str) -> Result<Self> {
        Policy::parse("palisade.toml", text, Path::new(""))
    }

    fn parse(name: &str, text: &str, base: &Path) -> Result<Self> {
        let at = |offset: usize, reason: String| {
            let (line, column) = line_column(text, offset);
            Error::PolicySyntax {
                file: name.to_owned(),
                line,
                column,
                reason,
            }
        };
        let raw: PolicyFile = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            at(offset, e.message().trim().to_owned())
        })?;
        let resolve = |paths: &[Spanned<String>]| -> Vec<PathBuf> {
            paths
                .iter()
                .map(|p| {
                    let p = Path::new(p.get_ref());
                    if p.is_absolute() {
                        p.to_owned()
                    } else {
                        base.join(p)
                    }
                })
                .collect()
        };
        // A rule file that cannot be found is named by the line that lists it.
        for (table, list) in [("screen", &raw.screen.rules), ("scan", &raw.scan.rules)] {
            for (given, path) in list.iter().zip(resolve(list)) {
                if !path.is_file() {
                    return Err(at(
                        given.span().start,
                        format!("{table}.rules: no rule file at {}", path.display()),
                    ));
                }
            }
        }
        let mut policy = Policy::default();
        let s = &raw.screen;
        if let Some(n) = s.max_words {
            policy.screen.max_words = n;
        }
        policy.screen.allow_emails.clone_from(&s.allow_emails);
        for (key, list) in [
            ("allow_numbers", &s.allow_numbers),
            ("allow_ids", &s.allow_ids),
        ] {
            // Each entry is checked now, so a bad one names its line.
            for v in list {
                let checked = if key == "allow_numbers" {
                    Context::without_ticket()
                        .allow_number(v.get_ref())
                        .map(drop)
                } else {
                    Context::without_ticket().allow_id(v.get_ref()).map(drop)
                };
                checked.map_err(|e| match e {
                    Error::InvalidSetting { .. } => at(v.span().start, format!("screen.{e}")),
                    _ => at(v.span().start, format!("screen.{key}: {e}")),
                })?;
            }
        }
        policy.screen.allow_numbers = s
            .allow_numbers
            .iter()
            .map(|v| v.get_ref().clone())
            .collect();
        policy.screen.allow_ids = s.allow_ids.iter().map(|v| v.get_ref().clone()).collect();
        policy.screen.allow_from_ticket = s.allow_from_ticket.unwrap_or(true);
        policy.screen.rules = resolve(&s.rules);
        policy.screen.max_input_bytes = s.max_input_bytes;
        if let Some(p) = &s.foreign_id_pattern {
            let compiled = IdPattern::new(p.get_ref())
                .map_err(|e| at(p.span().start, format!("screen.{e}")))?;
            policy.screen.foreign_id_pattern = Some(p.get_ref().clone());
            policy.screen.foreign_ids = Some(compiled);
        }
        policy.scan.rules = resolve(&raw.scan.rules);
        policy.scan.max_input_bytes = raw.scan.max_input_bytes;
        if let Some(src) = &raw.fence.source {
            Fence::new("T")
                .and_then(|f| f.with_source(src.get_ref()))
                .map_err(|e| at(src.span().start, format!("fence.{e}")))?;
            policy.fence.source = Some(src.get_ref().clone());
        }
        // Every rule id or kind in [severity] must name a rule of the screener (which holds
        // the input-side rules too), with the policy's rule files loaded.
        if !raw.severity.is_empty() {
            let mut builder = Screener::builder();
            let mut files: Vec<&PathBuf> = policy.screen.rules.iter().collect();
            for f in &policy.scan.rules {
                if !files.contains(&f) {
                    files.push(f);
                }
            }
            for f in files {
                builder = builder.rules_file(f);
            }
            let screener = builder.build()?;
            for (name, level) in &raw.severity {
                let known = screener
                    .rules()
                    .any(|r| r.id == *name.get_ref() || r.kind.as_str() == name.get_ref());
                if !known {
                    return Err(at(
                        name.span().start,
                        format!("severity: no rule or kind named {:?}", name.get_ref()),
                    ));
                }
                policy.severity.insert(name.get_ref().clone(), *level);
            }
        }
        Ok(policy)
    }

    /// The file the policy was read from (`None` for [`Policy::new`] and
    /// [`Policy::from_toml`]).
    ///
    /// ```
    /// assert_eq!(palisade::Policy::new().file(), None);
    /// ```
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The word limit drafts get from [`context`](Self::context).
    ///
    /// ```
    /// assert_eq!(palisade::Policy::new().max_words(), palisade::DEFAULT_MAX_WORDS);
    /// ```
    pub fn max_words(&self) -> usize {
        self.screen.max_words
    }

    /// The fence source, if the policy names one.
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[fence]\nsource = \"a tool\"\n")?;
    /// assert_eq!(p.fence_source(), Some("a tool"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn fence_source(&self) -> Option<&str> {
        self.fence.source.as_deref()
    }

    /// The policy's severities and `off` entries, in name order (for printing).
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[severity]\npromise = \"off\"\n")?;
    /// assert_eq!(p.severities().collect::<Vec<_>>(), vec![("promise", palisade::Level::Off)]);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn severities(&self) -> impl Iterator<Item = (&str, Level)> {
        self.severity.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// A screener builder with the policy's rule files, severities, foreign-id pattern and
    /// input limit; more settings may be added before `build`.
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[severity]\nlength = \"off\"\n")?;
    /// let s = p.screener_builder().build()?;
    /// assert!(!s.rules().any(|r| r.id == "draft.length"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn screener_builder(&self) -> ScreenerBuilder {
        let mut b = Screener::builder();
        for f in &self.screen.rules {
            b = b.rules_file(f);
        }
        // A kind stands for its rules: they are listed from the same files, without the
        // severities (a failure here shows again, with its reason, in `build`).
        let probe = if self.severity.keys().any(|n| is_kind(n)) {
            let mut p = Screener::builder();
            for f in &self.screen.rules {
                p = p.rules_file(f);
            }
            p.build().ok()
        } else {
            None
        };
        for (name, level) in self.ordered_levels() {
            let ids = match &probe {
                Some(s) if is_kind(name) => Policy::rule_ids(s.rules(), name),
                _ => Vec::new(),
            };
            let names = if ids.is_empty() {
                vec![name.to_owned()]
            } else {
                ids
            };
            for n in names {
                b = match level {
                    Level::Off => b.disable(n),
                    Level::Block => b.severity(n, Severity::Block),
                    Level::Notice => b.severity(n, Severity::Notice),
                };
            }
        }
        if let Some(n) = self.screen.max_input_bytes {
            b = b.max_input_bytes(n);
        }
        b
    }

    /// A detector builder with the `[scan]` rule files and input limit, and the `off`
    /// entries that name input-side rules (injection, fence markers, hidden text); detection
    /// records notices only, so other levels do not apply to it.
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[severity]\n\"draft.promise\" = \"off\"\n")?;
    /// let d = p.detector_builder().build()?; // a draft rule's entry does not reach it
    /// let p = palisade::Policy::from_toml("[severity]\ninjection = \"off\"\n")?;
    /// assert_eq!(p.detector_builder().build()?.rules().filter(|r| r.kind.as_str() == "injection").count(), 0);
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn detector_builder(&self) -> DetectorBuilder {
        let mut b = Detector::builder();
        for f in &self.scan.rules {
            b = b.rules_file(f);
        }
        let off: Vec<&str> = self
            .ordered_levels()
            .filter(|(_, l)| *l == Level::Off)
            .map(|(n, _)| n)
            .collect();
        if !off.is_empty() {
            // Only names of input-side rules reach the detector; the screener holds the rest.
            let mut p = Detector::builder();
            for f in &self.scan.rules {
                p = p.rules_file(f);
            }
            if let Ok(probe) = p.build() {
                for name in off {
                    for id in Policy::rule_ids(probe.rules(), name) {
                        b = b.disable(id);
                    }
                }
            }
        }
        if let Some(n) = self.scan.max_input_bytes {
            b = b.max_input_bytes(n);
        }
        b
    }

    /// The ids of the rules `name` stands for among `rules`: the rule with that id, or every
    /// rule of the kind `name`; empty when there is none. The command line uses it for
    /// `--disable` and `--severity`.
    ///
    /// ```
    /// use palisade::{Policy, Screener};
    /// let s = Screener::new();
    /// assert_eq!(Policy::rule_ids(s.rules(), "draft.promise"), vec!["draft.promise"]);
    /// assert!(Policy::rule_ids(s.rules(), "credential").len() > 10);
    /// assert!(Policy::rule_ids(s.rules(), "nothing").is_empty());
    /// ```
    pub fn rule_ids<'r>(rules: impl Iterator<Item = &'r RuleInfo>, name: &str) -> Vec<String> {
        let mut ids = Vec::new();
        for r in rules {
            if r.id == name {
                return vec![r.id.clone()];
            }
            if r.kind.as_str() == name {
                ids.push(r.id.clone());
            }
        }
        ids
    }

    /// The `[severity]` entries, kinds before rule ids, so an entry for one rule overrides
    /// one for its kind.
    fn ordered_levels(&self) -> impl Iterator<Item = (&str, Level)> {
        let kinds = self.severities().filter(|(n, _)| is_kind(n));
        kinds.chain(self.severities().filter(|(n, _)| !is_kind(n)))
    }

    /// A fence with this label and the policy's source.
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[fence]\nsource = \"the order system\"\n")?;
    /// assert!(p.fence("TOOL_RESULT")?.begin_line().contains("written by the order system"));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn fence(&self, label: &str) -> Result<Fence> {
        let fence = Fence::new(label)?;
        match &self.fence.source {
            Some(s) => fence.with_source(s),
            None => Ok(fence),
        }
    }

    /// A context for a draft: the ticket id (`None`: no ticket) with the policy's
    /// allow-lists, word limit and `allow_from_ticket`. Add the ticket text with
    /// [`Context::ticket_text`].
    ///
    /// ```
    /// let p = palisade::Policy::from_toml("[screen]\nallow_emails = [\"*@shop.example\"]\n")?;
    /// let ctx = p.context(Some("ORD-31415"))?;
    /// assert!(ctx.email_allowed("help@shop.example"));
    /// assert!(p.context(None)?.ticket_id().is_none());
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn context(&self, ticket_id: Option<&str>) -> Result<Context> {
        let mut ctx = match ticket_id {
            Some(id) => Context::new(id)?,
            None => Context::without_ticket(),
        };
        for id in &self.screen.allow_ids {
            ctx = ctx.allow_id(id)?;
        }
        for e in &self.screen.allow_emails {
            ctx = ctx.allow_email(e);
        }
        for n in &self.screen.allow_numbers {
            ctx = ctx.allow_number(n)?;
        }
        if let Some(p) = &self.screen.foreign_ids {
            ctx = ctx.foreign_ids(p);
        }
        Ok(ctx
            .max_words(self.screen.max_words)
            .allow_from_ticket(self.screen.allow_from_ticket))
    }

    /// The effective policy as TOML (defaults filled in), for `palisade policy`.
    ///
    /// ```
    /// let text = palisade::Policy::new().to_toml();
    /// assert!(text.contains("max_words = 80"));
    /// ```
    pub fn to_toml(&self) -> String {
        #[derive(Serialize)]
        struct Shown<'a> {
            screen: &'a ScreenPolicy,
            scan: &'a ScanPolicy,
            severity: &'a BTreeMap<String, Level>,
            fence: &'a FencePolicy,
        }
        toml::to_string(&Shown {
            screen: &self.screen,
            scan: &self.scan,
            severity: &self.severity,
            fence: &self.fence,
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_is_cheap_to_share() {
        fn shareable<T: Send + Sync + Clone>() {}
        shareable::<Policy>();
        shareable::<Context>();
    }

    #[test]
    fn unknown_keys_name_file_line_and_key() {
        let err = Policy::from_toml("[screen]\nmax_words = 10\n\n[fence]\nsorce = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("palisade.toml:5:1:"), "{err}");
        assert!(err.contains("sorce"), "{err}");
    }

    #[test]
    fn bad_values_name_their_key_and_line() {
        for (text, want) in [
            ("[screen]\nforeign_id_pattern = '('\n", "palisade.toml:2:"),
            ("[severity]\n\"draft.nope\" = \"off\"\n", "draft.nope"),
            ("[severity]\n\"draft.promise\" = \"loud\"\n", "loud"),
            ("[fence]\nsource = \"a⟧\"\n", "fence.source"),
            (
                "[screen]\nallow_numbers = [\"none\"]\n",
                "screen.allow_numbers",
            ),
            ("[screen]\nallow_ids = [\"a b\"]\n", "screen.allow_ids"),
        ] {
            let err = Policy::from_toml(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn relative_rule_paths_follow_the_policy_file() {
        let dir = std::env::temp_dir().join(format!("palisade-policy-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("rules")).unwrap();
        std::fs::write(dir.join("rules/none.toml"), "").unwrap();
        std::fs::write(
            dir.join("p.toml"),
            "[screen]\nrules = [\"rules/none.toml\"]\n",
        )
        .unwrap();
        let p = Policy::from_file(dir.join("p.toml")).unwrap();
        assert_eq!(p.screen.rules, vec![dir.join("rules/none.toml")]);
        assert!(p.screener_builder().build().is_ok());
    }
}
