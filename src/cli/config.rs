//! Where the policy comes from (`--config`, `./palisade.toml`, `--no-config`) and the flags
//! that adjust it per run (`--rules`, `--severity`, `--disable`).

use std::path::{Path, PathBuf};

use clap::Args;
use palisade::{DetectorBuilder, Level, Policy, ScreenerBuilder, Severity};

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
    fn settings(&self) -> impl Iterator<Item = (&str, Level)> {
        self.severity
            .iter()
            .map(|s| (s.rule.as_str(), s.level))
            .chain(self.disable.iter().map(|r| (r.as_str(), Level::Off)))
    }

    pub(crate) fn screener(&self, mut b: ScreenerBuilder) -> ScreenerBuilder {
        for f in &self.rules.files {
            b = b.rules_file(f);
        }
        for (rule, level) in self.settings() {
            b = match level {
                Level::Off => b.disable(rule),
                Level::Block => b.severity(rule, Severity::Block),
                Level::Notice => b.severity(rule, Severity::Notice),
            };
        }
        b
    }

    /// Detection records notices only: `off` turns a rule off, `notice` is what every rule
    /// already is, and `block` is refused.
    pub(crate) fn detector(&self, mut b: DetectorBuilder) -> Result<DetectorBuilder, Fail> {
        for f in &self.rules.files {
            b = b.rules_file(f);
        }
        for (rule, level) in self.settings() {
            match level {
                Level::Off => b = b.disable(rule),
                Level::Notice => {}
                Level::Block => {
                    return Err(Fail::new(format!(
                        "--severity {rule}=block: scan records notices only (use notice or off)"
                    )));
                }
            }
        }
        Ok(b)
    }
}

/// A build error from the knobs names the flag that caused it.
pub(crate) fn build_error(e: palisade::Error) -> Fail {
    let s = e.to_string();
    // The policy's own rule files were checked when it was read: a missing one is a flag's.
    let flag = if matches!(e, palisade::Error::RuleFileRead { .. }) {
        "--rules: "
    } else if s.contains("in severity") {
        "--severity: "
    } else if s.contains("in disable") {
        "--disable (or --severity RULE=off): "
    } else {
        ""
    };
    Fail::new(format!("{flag}{s}"))
}
