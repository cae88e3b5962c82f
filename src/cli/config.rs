//! Where the policy comes from (`--config`, `./palisade.toml`, `--no-config`) and the flags
//! that adjust it per run (`--rules`, `--severity`, `--disable`).

use std::path::{Path, PathBuf};

use clap::Args;
use palisade::{Detector, Level, Policy, ScreenerBuilder, Severity};

use super::Fail;

/// The policy file read when no `--config` is given, if present in the working folder.
const DEFAULT_FILE: &str = "palisade.toml";

#[derive(Args)]
pub(crate) struct ConfigOpts {
    /// Policy file (default: ./palisade.toml when present).
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore ./palisade.toml: use the built-in defaults.
    #[arg(long, global = true)]
    no_config: bool,
}

impl ConfigOpts {
    pub(crate) fn load(&self) -> Result<Policy, Fail> {
        if self.no_config {
            return Ok(Policy::new());
        }
        if let Some(path) = &self.config {
            return Policy::from_file(path).map_err(|e| Fail::new(format!("--config: {e}")));
        }
        if Path::new(DEFAULT_FILE).is_file() {
            return Ok(Policy::from_file(DEFAULT_FILE)?);
        }
        Ok(Policy::new())
    }

    /// Why the policy came from where it did, for `palisade policy`.
    pub(crate) fn describe(&self, policy: &Policy) -> String {
        match policy.file() {
            Some(f) if self.config.is_some() => format!("{} (--config)", f.display()),
            Some(f) => format!("{} (found in the working folder)", f.display()),
            None if self.no_config => "built-in defaults (--no-config)".to_owned(),
            None => format!("built-in defaults (no --config, no ./{DEFAULT_FILE})"),
        }
    }
}

/// `--rules FILE`, for every command that runs rules.
#[derive(Args)]
pub(crate) struct RuleFiles {
    /// An extra rule file (repeatable), after the policy's.
    #[arg(long = "rules", value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
}

/// `RULE=LEVEL` of `--severity`.
#[derive(Clone)]
pub(crate) struct LevelSetting {
    rule: String,
    level: Level,
}

fn parse_level_setting(s: &str) -> Result<LevelSetting, String> {
    let (rule, level) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not RULE=LEVEL (LEVEL: block, notice or off)"))?;
    if rule.is_empty() {
        return Err("the rule id or kind before '=' is empty".to_owned());
    }
    Ok(LevelSetting {
        rule: rule.to_owned(),
        level: level.parse()?,
    })
}

/// `--rules`, `--severity` and `--disable`, for `screen` and `scan`.
#[derive(Args)]
pub(crate) struct Knobs {
    #[command(flatten)]
    pub(crate) rules: RuleFiles,
    /// Set a rule's severity: RULE=block|notice|off; RULE is a rule id or a kind
    /// (repeatable; after the policy's [severity]).
    #[arg(long = "severity", value_name = "RULE=LEVEL", value_parser = parse_level_setting)]
    severity: Vec<LevelSetting>,
    /// Turn a rule off; RULE is a rule id or a kind (repeatable).
    #[arg(long = "disable", value_name = "RULE")]
    disable: Vec<String>,
}

impl Knobs {
    /// `(name, level, flag)`: the `--severity` settings, then the `--disable` ones.
    fn settings(&self) -> impl Iterator<Item = (&str, Level, &'static str)> {
        self.severity
            .iter()
            .map(|s| (s.rule.as_str(), s.level, "--severity"))
            .chain(
                self.disable
                    .iter()
                    .map(|r| (r.as_str(), Level::Off, "--disable")),
            )
    }

    /// The policy's screener with the flags' rule files and levels; a kind stands for the
    /// rules of that kind.
    pub(crate) fn screener(&self, policy: &Policy) -> Result<ScreenerBuilder, Fail> {
        let with_files = |mut b: ScreenerBuilder| {
            for f in &self.rules.files {
                b = b.rules_file(f);
            }
            b
        };
        let probe = if self.settings().any(|(n, _, _)| !n.contains('.')) {
            Some(
                with_files(policy.screener_builder())
                    .build()
                    .map_err(build_error)?,
            )
        } else {
            None
        };
        let mut b = with_files(policy.screener_builder());
        for (name, level, _) in self.settings() {
            let ids = match &probe {
                Some(s) if !name.contains('.') => Policy::rule_ids(s.rules(), name),
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
        Ok(b)
    }
}

/// The detector of the policy's `[scan]` table with `files` added and the knobs' levels.
/// Detection records notices only: `off` turns a rule or kind off, `notice` is what every
/// rule already is, and `block` is refused.
pub(crate) fn detector(
    policy: &Policy,
    files: &[PathBuf],
    knobs: Option<&Knobs>,
    max_input_bytes: Option<usize>,
) -> Result<Detector, Fail> {
    let base = || {
        let mut b = policy.detector_builder();
        for f in files
            .iter()
            .chain(knobs.iter().flat_map(|k| &k.rules.files))
        {
            b = b.rules_file(f);
        }
        if let Some(n) = max_input_bytes {
            b = b.max_input_bytes(n);
        }
        b
    };
    let Some(knobs) = knobs.filter(|k| k.settings().next().is_some()) else {
        return base().build().map_err(build_error);
    };
    let probe = base().build().map_err(build_error)?;
    let mut b = base();
    for (name, level, flag) in knobs.settings() {
        if level == Level::Block {
            return Err(Fail::new(format!(
                "{flag} {name}=block: scan records notices only (use notice or off)"
            )));
        }
        let ids = Policy::rule_ids(probe.rules(), name);
        if ids.is_empty() {
            return Err(Fail::new(format!(
                "{flag}: no rule or kind named {name:?} among the input-side rules"
            )));
        }
        if level == Level::Off {
            for id in ids {
                b = b.disable(id);
            }
        }
    }
    b.build().map_err(build_error)
}

/// A build error from the knobs names the flag that caused it.
pub(crate) fn build_error(e: palisade::Error) -> Fail {
    use palisade::Error;
    // The policy's own rule files and names were checked when it was read: these are a flag's.
    let flag = match &e {
        Error::RuleFileRead { .. } => "--rules: ",
        Error::UnknownRule { setting, .. } if *setting == "severity" => "--severity: ",
        Error::UnknownRule { .. } => "--disable (or --severity RULE=off): ",
        _ => "",
    };
    let s = e.to_string();
    Fail::new(format!("{flag}{s}"))
}
