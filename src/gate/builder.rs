//! [`GateBuilder`]: where tool specs and business rules come from, validated once.

use std::path::{Path, PathBuf};

use super::*;

enum Source {
    Path(PathBuf),
    Text(String, String),
}

/// Configures a [`Gate`]; [`build`](Self::build) loads and validates every tool file and runs
/// its examples.
///
/// ```
/// let gate = palisade::Gate::builder()
///     .tools_file("examples/tools.toml")
///     .rule(|_call: &palisade::ProposedCall<'_>| Vec::new())
///     .build()?;
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Default)]
pub struct GateBuilder {
    sources: Vec<Source>,
    rules: Vec<Arc<dyn BusinessRule>>,
    screener: Option<Screener>,
}

impl std::fmt::Debug for GateBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GateBuilder")
            .field("sources", &self.sources.len())
            .finish()
    }
}

impl GateBuilder {
    /// Adds a `tools.toml` file.
    ///
    /// ```
    /// assert!(palisade::Gate::builder().tools_file("no/such.toml").build().is_err());
    /// ```
    pub fn tools_file(mut self, path: impl AsRef<Path>) -> Self {
        self.sources.push(Source::Path(path.as_ref().to_owned()));
        self
    }

    /// Adds tool specs from a string; `name` is used in errors.
    ///
    /// ```
    /// let err = palisade::Gate::builder().tools_toml("mine.toml", "[[tool]]\nname = 'x'\n").build();
    /// assert!(err.unwrap_err().to_string().starts_with("mine.toml:"));
    /// ```
    pub fn tools_toml(mut self, name: impl Into<String>, source: impl Into<String>) -> Self {
        self.sources.push(Source::Text(name.into(), source.into()));
        self
    }

    /// Adds a business rule (run for every tool; look at [`ProposedCall::tool`]).
    ///
    /// ```
    /// let b = palisade::Gate::builder().rule(|_c: &palisade::ProposedCall<'_>| Vec::new());
    /// ```
    pub fn rule(mut self, rule: impl BusinessRule + 'static) -> Self {
        self.rules.push(Arc::new(rule));
        self
    }

    /// Uses this screener's credential and foreign-id rules for the zero-trust checks
    /// (default: [`Screener::new`]).
    ///
    /// ```
    /// let b = palisade::Gate::builder().screener(palisade::Screener::new());
    /// ```
    pub fn screener(mut self, screener: Screener) -> Self {
        self.screener = Some(screener);
        self
    }

    fn load(&self) -> Result<Vec<Tool>> {
        let mut tools: Vec<Tool> = Vec::new();
        for source in &self.sources {
            let (name, text) = match source {
                Source::Path(p) => (
                    p.display().to_string(),
                    std::fs::read_to_string(p).map_err(|e| Error::ToolFileRead {
                        path: p.clone(),
                        reason: e.to_string(),
                    })?,
                ),
                Source::Text(n, t) => (n.clone(), t.clone()),
            };
            for tool in spec::load(&name, &text)? {
                if let Some(first) = tools.iter().find(|t| t.name == tool.name) {
                    return Err(Error::ToolFile {
                        file: name,
                        line: tool.line,
                        key: format!("{}.name", tool.name),
                        reason: format!("duplicate tool (first at {}:{})", first.file, first.line),
                    });
                }
                tools.push(tool);
            }
        }
        Ok(tools)
    }

    fn assemble(self, tools: Vec<Tool>) -> Gate {
        Gate {
            inner: Arc::new(Inner {
                tools,
                rules: self.rules,
                screener: self.screener.unwrap_or_default(),
            }),
        }
    }

    /// Builds the gate; fails on the first invalid spec or failing example.
    ///
    /// ```
    /// let gate = palisade::Gate::builder().build()?; // no tools: every call is rejected
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn build(self) -> Result<Gate> {
        let tools = self.load()?;
        let gate = self.assemble(tools);
        if let Some(p) = gate.example_problems().into_iter().next() {
            return Err(Error::ToolFile {
                file: p.file,
                line: p.line,
                key: format!("{}.example", p.rule),
                reason: p.reason,
            });
        }
        Ok(gate)
    }

    /// Loads like [`build`](Self::build), then runs every tool's examples and returns every
    /// failure instead of the first (what `palisade tools check` prints).
    ///
    /// ```
    /// let problems = palisade::Gate::builder().tools_file("examples/tools.toml").check_examples()?;
    /// assert!(problems.is_empty(), "{problems:?}");
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn check_examples(self) -> Result<Vec<ExampleProblem>> {
        let tools = self.load()?;
        Ok(self.assemble(tools).example_problems())
    }
}
