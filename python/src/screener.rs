//! `Screener`: the compiled draft screener, its batch call and its pickling.

use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::error::{Ctx, PalisadeError, at_index, guarded, panic_error, raise, to_py};
use crate::types::Report;

/// Below this many drafts a batch is screened on the calling thread: starting threads costs
/// more than it saves.
const MIN_PARALLEL_BATCH: usize = 16;

/// Screens drafted replies before the human approval step.
///
/// Build it once (rule files are read, compiled and their examples run here; every problem
/// is a ``PalisadeError`` naming file, line and rule id), then call ``screen`` from any
/// number of threads: it releases the GIL while it works. ``screen_many`` screens a batch on
/// every core. A ``Screener`` pickles as its construction arguments and is rebuilt in the
/// process that unpickles it (rule file paths must be readable there).
///
/// Args:
///     policy: path of a ``palisade.toml`` (the CLI's policy file): rule files, severities,
///         allow-lists, word and input limits, the foreign-id pattern. The arguments below
///         apply on top of it.
///     rules: paths of extra rule files (the format of ``rules/README.md``).
///     severities: rule id (or kind) -> ``"block"``, ``"notice"`` or ``"off"``.
///     max_words: word limit of a draft (default: the policy's, else 80).
///     max_input_bytes: largest draft accepted, in UTF-8 bytes (default 1 MiB).
#[pyclass(frozen, module = "palisade", name = "Screener")]
pub(crate) struct Screener {
    inner: palisade::Screener,
    policy: Option<(PathBuf, palisade::Policy)>,
    rules: Vec<PathBuf>,
    severities: Vec<(String, String)>,
    max_words: Option<usize>,
    max_input_bytes: Option<usize>,
}

/// The per-draft arguments of `screen` (and of a `screen_many` item).
#[derive(Default)]
struct CtxArgs {
    ticket_id: Option<String>,
    allow_ids: Vec<String>,
    allow_emails: Vec<String>,
    allow_numbers: Vec<String>,
    ticket_text: Option<String>,
    max_words: Option<usize>,
}

/// One draft of a batch, read from its item; its `Context` is built on a worker thread.
struct Job {
    args: CtxArgs,
    draft: PyBackedStr,
}

/// Why a batch item has no report.
enum Failure {
    /// Its arguments make no valid `Context` (a bad id or allowed number).
    Context(palisade::Error),
    /// The library refused the draft (over the input limit).
    Screen(palisade::Error),
    /// A panic caught inside the library.
    Panic(String),
}

/// Items per task of `screen_many`'s pipeline: large enough that a task costs far more
/// than handing it to a worker (about 64 × 3 µs against 1 µs), small enough that the
/// workers start while the calling thread is still reading items.
const CHUNK: usize = 64;

/// What building a `Context` needs of a `Screener`, shareable with worker threads.
#[derive(Clone, Copy)]
struct Defaults<'a> {
    policy: Option<&'a palisade::Policy>,
    max_words: Option<usize>,
}

impl Defaults<'_> {
    /// The `Context` for one draft's arguments (no Python involved, so any thread may call it).
    fn context(self, a: &CtxArgs) -> palisade::Result<palisade::Context> {
        let ticket_id = a.ticket_id.as_deref();
        let mut ctx = match (self.policy, ticket_id) {
            (Some(p), id) => p.context(id)?,
            (None, Some(id)) => palisade::Context::new(id)?,
            (None, None) => palisade::Context::without_ticket(),
        };
        for id in &a.allow_ids {
            ctx = ctx.allow_id(id)?;
        }
        for email in &a.allow_emails {
            ctx = ctx.allow_email(email);
        }
        for number in &a.allow_numbers {
            ctx = ctx.allow_number(number)?;
        }
        if let Some(text) = &a.ticket_text {
            ctx = ctx.ticket_text(text);
        }
        if let Some(n) = a.max_words.or(self.max_words) {
            ctx = ctx.max_words(n);
        }
        Ok(ctx)
    }
}

fn level_of(py: Python<'_>, rule: &str, value: &str) -> PyResult<Option<palisade::Severity>> {
    match value {
        "block" => Ok(Some(palisade::Severity::Block)),
        "notice" => Ok(Some(palisade::Severity::Notice)),
        "off" => Ok(None),
        other => Err(raise::<PalisadeError>(
            py,
            format!("severity of rule {rule}: {other:?} is not \"block\", \"notice\" or \"off\""),
            &[
                Ctx::Str("rule", rule.to_owned()),
                Ctx::Str("setting", "severities".to_owned()),
            ],
        )),
    }
}

impl Screener {
    fn defaults(&self) -> Defaults<'_> {
        Defaults {
            policy: self.policy.as_ref().map(|(_, p)| p),
            max_words: self.max_words,
        }
    }

    fn context(&self, py: Python<'_>, a: &CtxArgs) -> PyResult<palisade::Context> {
        self.defaults().context(a).map_err(|e| to_py(py, e))
    }

    /// Reads one batch item: a mapping with the keywords of `screen` and the draft under
    /// `draft` (or `text`, as in the CLI's JSON lines).
    fn job<'py>(&self, py: Python<'py>, item: &Bound<'py, PyAny>) -> PyResult<Job> {
        // A dict is read with interned keys (their hash is cached) and without raising
        // KeyError for each absent optional key: both cost more than screening a short draft.
        // Once as many keys were found as the dict holds, the others are absent: a plain
        // `{"draft", "ticket_id"}` item costs three lookups instead of nine.
        let dict = item.cast::<PyDict>().ok();
        if dict.is_none() && !item.hasattr(intern!(py, "keys"))? {
            return Err(PyTypeError::new_err("an item must be a mapping (a dict)"));
        }
        let size = dict.map(|d| d.len());
        let found = std::cell::Cell::new(0usize);
        // The value under `key` (`None` when absent), and whether the key is there at all.
        let lookup = |key: &Bound<'py, PyString>| -> PyResult<Option<Bound<'py, PyAny>>> {
            if size.is_some_and(|n| found.get() >= n) {
                return Ok(None);
            }
            let value = match dict {
                Some(d) => d.get_item(key)?,
                None => match item.get_item(key) {
                    Ok(v) => Some(v),
                    Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(py) => None,
                    Err(e) => return Err(e),
                },
            };
            if value.is_some() {
                found.set(found.get() + 1);
            }
            Ok(value)
        };
        let get = |key: &Bound<'py, PyString>| -> PyResult<Option<Bound<'py, PyAny>>> {
            Ok(lookup(key)?.filter(|v| !v.is_none()))
        };
        let ticket = lookup(intern!(py, "ticket_id"))?;
        let draft = match (get(intern!(py, "draft"))?, get(intern!(py, "text"))?) {
            (Some(d), None) | (None, Some(d)) => d.extract::<PyBackedStr>()?,
            (Some(_), Some(_)) => {
                return Err(PyTypeError::new_err(
                    "give the draft as \"draft\" or \"text\", not both",
                ));
            }
            (None, None) => return Err(PyTypeError::new_err("missing key \"draft\"")),
        };
        let Some(ticket) = ticket else {
            return Err(PyTypeError::new_err("missing key \"ticket_id\""));
        };
        let ticket_id: Option<String> = if ticket.is_none() {
            None
        } else {
            Some(ticket.extract()?)
        };
        let list = |key: &Bound<'py, PyString>| -> PyResult<Vec<String>> {
            match get(key)? {
                Some(v) if v.is_instance_of::<PyString>() => Err(PyTypeError::new_err(format!(
                    "\"{key}\" must be a list of strings, not a string"
                ))),
                Some(v) => v.extract(),
                None => Ok(Vec::new()),
            }
        };
        let args = CtxArgs {
            ticket_id,
            allow_ids: list(intern!(py, "allow_ids"))?,
            allow_emails: list(intern!(py, "allow_emails"))?,
            allow_numbers: list(intern!(py, "allow_numbers"))?,
            ticket_text: get(intern!(py, "ticket_text"))?
                .map(|v| v.extract())
                .transpose()?,
            max_words: get(intern!(py, "max_words"))?
                .map(|v| v.extract())
                .transpose()?,
        };
        Ok(Job { args, draft })
    }
}

/// The worker threads of `screen_many`, with the process they were started in.
///
/// They live across calls: the regex engine keeps a warm match cache per thread, and threads
/// started afresh for every batch began each batch with cold ones (in a profile of one batch
/// of 3,000 drafts, a third of the workers' instructions went to rebuilding DFA states), which
/// made `screen_many` no faster than a loop of `screen()` on two cores. After a `fork` the
/// threads do not exist in the child, so a pool made in another process is never used.
static POOL: std::sync::Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = std::sync::Mutex::new(None);

/// This process's worker pool (made on first use); `None` if threads cannot be started.
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    let mut slot = POOL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let pid = std::process::id();
    if let Some((owner, pool)) = slot.as_ref()
        && *owner == pid
    {
        return Some(Arc::clone(pool));
    }
    // A pool inherited through `fork`: its threads are not in this process. Dropping it
    // would signal threads that do not exist, so it is leaked (once per forked child).
    if let Some(stale) = slot.take() {
        std::mem::forget(stale);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("palisade-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    *slot = Some((pid, Arc::clone(&pool)));
    Some(pool)
}

/// One task of the pipeline: builds each job's `Context` and screens it.
fn screen_chunk(
    screener: &palisade::Screener,
    defaults: Defaults<'_>,
    jobs: &[Job],
) -> Vec<Result<palisade::Report, Failure>> {
    jobs.iter()
        .map(|j| screen_job(screener, defaults, j))
        .collect()
}

/// Builds one job's `Context` and screens it; a panic becomes `Failure::Panic`.
fn screen_job(
    screener: &palisade::Screener,
    defaults: Defaults<'_>,
    j: &Job,
) -> Result<palisade::Report, Failure> {
    let out = guarded(|| {
        let ctx = defaults.context(&j.args).map_err(Failure::Context)?;
        screener.screen(&ctx, &j.draft).map_err(Failure::Screen)
    });
    out.unwrap_or_else(|m| Err(Failure::Panic(m)))
}

/// What a batch came to: its jobs in input order, a result for each, and the first item
/// that could not be read (its index and error), after which nothing was read.
type Batch = (
    Vec<Job>,
    Vec<Result<palisade::Report, Failure>>,
    Option<(usize, PyErr)>,
);

/// Screens a batch while it is still being read: each `CHUNK` of jobs goes to the pool as
/// soon as it is read (with the GIL held, so reading cannot move to the workers), and the
/// calling thread waits for the last results with the GIL released. On two cores this keeps
/// both busy while the items are read, which otherwise came before any screening.
fn pipeline(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    screener: &palisade::Screener,
    defaults: Defaults<'_>,
    first: Vec<Job>,
    mut fill: impl FnMut(&mut Vec<Job>, usize) -> Result<bool, (usize, PyErr)>,
) -> Batch {
    type Done = (usize, Vec<Job>, Vec<Result<palisade::Report, Failure>>);
    let mut bad = None;
    let mut done: Vec<Done> = pool.in_place_scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<Done>();
        let mut sent = 0usize;
        let mut start = 0;
        let mut chunk = first;
        let mut finished = false;
        loop {
            if !chunk.is_empty() {
                let tx = tx.clone();
                let n = chunk.len();
                scope.spawn(move |_| {
                    // `screen_job` catches a panic per draft; this catches one anywhere else,
                    // so every task sends and the wait below ends.
                    let results = guarded(|| screen_chunk(screener, defaults, &chunk))
                        .unwrap_or_else(|m| {
                            chunk
                                .iter()
                                .map(|_| Err(Failure::Panic(m.clone())))
                                .collect()
                        });
                    let _ = tx.send((start, chunk, results));
                });
                sent += 1;
                start += n;
            }
            if finished {
                break;
            }
            let mut next = Vec::with_capacity(CHUNK);
            match fill(&mut next, CHUNK) {
                Ok(true) => {}
                Ok(false) => finished = true,
                // The jobs read before the bad item are screened too: a bad context among
                // them is the error to raise.
                Err(e) => {
                    bad = Some(e);
                    finished = true;
                }
            }
            chunk = next;
        }
        drop(tx);
        py.detach(move || rx.iter().take(sent).collect())
    });
    done.sort_unstable_by_key(|d| d.0);
    let mut jobs = Vec::new();
    let mut results = Vec::new();
    for (_, j, r) in done {
        jobs.extend(j);
        results.extend(r);
    }
    (jobs, results, bad)
}

/// Builds each job's `Context` and screens it, in order, on up to `threads` threads.
fn run_jobs(
    screener: &palisade::Screener,
    defaults: Defaults<'_>,
    jobs: &[Job],
    threads: usize,
) -> Vec<Result<palisade::Report, Failure>> {
    let one = |j: &Job| screen_job(screener, defaults, j);
    if threads <= 1 || jobs.len() < MIN_PARALLEL_BATCH {
        return jobs.iter().map(one).collect();
    }
    if let Some(pool) = pool(threads) {
        // `one` catches panics; `guarded` here is for the pool itself failing.
        let out = guarded(|| pool.install(|| jobs.par_iter().map(one).collect::<Vec<_>>()));
        return out.unwrap_or_else(|m| {
            jobs.iter()
                .map(|_| Err(Failure::Panic(m.clone())))
                .collect()
        });
    }
    let per = jobs.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(per)
            .map(|chunk| s.spawn(move || chunk.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .zip(jobs.chunks(per))
            .flat_map(|(h, chunk)| match h.join() {
                Ok(v) => v,
                // `one` catches panics; this arm is for a thread that could not finish at all.
                Err(_) => chunk
                    .iter()
                    .map(|_| {
                        Err(Failure::Panic(
                            "internal error in palisade: worker thread failed".to_owned(),
                        ))
                    })
                    .collect(),
            })
            .collect()
    })
}

#[pymethods]
impl Screener {
    #[new]
    #[pyo3(signature = (*, policy = None, rules = Vec::new(), severities = None, max_words = None, max_input_bytes = None))]
    fn new(
        py: Python<'_>,
        policy: Option<PathBuf>,
        rules: Vec<PathBuf>,
        severities: Option<Bound<'_, PyDict>>,
        max_words: Option<usize>,
        max_input_bytes: Option<usize>,
    ) -> PyResult<Self> {
        let mut pairs = Vec::new();
        if let Some(map) = severities {
            for (k, v) in map.iter() {
                pairs.push((k.extract::<String>()?, v.extract::<String>()?));
            }
        }
        let policy = match policy {
            Some(path) => {
                let p = py
                    .detach(|| guarded(|| palisade::Policy::from_file(&path)))
                    .map_err(|m| panic_error(py, m))?
                    .map_err(|e| to_py(py, e))?;
                Some((path, p))
            }
            None => None,
        };
        let mut builder = match &policy {
            Some((_, p)) => p.screener_builder(),
            None => palisade::Screener::builder(),
        };
        for path in &rules {
            builder = builder.rules_file(path);
        }
        for (rule, value) in &pairs {
            // The library's builder disables before it sets severities, so a rule the policy
            // gives a severity cannot be turned off here; say so instead of "unknown rule".
            if value == "off"
                && let Some((path, p)) = &policy
                && p.severities().any(|(name, _)| name == rule.as_str())
            {
                return Err(raise::<PalisadeError>(
                    py,
                    format!(
                        "severities: {rule} is set in {}; turn it off there",
                        path.display()
                    ),
                    &[
                        Ctx::Str("rule", rule.clone()),
                        Ctx::Str("setting", "severities".to_owned()),
                    ],
                ));
            }
            builder = match level_of(py, rule, value)? {
                Some(severity) => builder.severity(rule.clone(), severity),
                None => builder.disable(rule.clone()),
            };
        }
        if let Some(n) = max_input_bytes {
            builder = builder.max_input_bytes(n);
        }
        let plain = policy.is_none() && rules.is_empty() && pairs.is_empty();
        let inner = if plain && max_input_bytes.is_none() {
            palisade::Screener::new()
        } else {
            py.detach(|| guarded(|| builder.build()))
                .map_err(|m| panic_error(py, m))?
                .map_err(|e| to_py(py, e))?
        };
        // Pickles carry absolute paths, so a worker started in another folder finds them.
        let absolute = |p: PathBuf| std::path::absolute(&p).unwrap_or(p);
        Ok(Screener {
            inner,
            policy: policy.map(|(path, p)| (absolute(path), p)),
            rules: rules.into_iter().map(absolute).collect(),
            severities: pairs,
            max_words,
            max_input_bytes,
        })
    }

    /// Screens one drafted reply.
    ///
    /// Args:
    ///     draft: the reply the model wrote.
    ///     ticket_id: this ticket's id (a UUID, any form); ``None`` makes every UUID foreign.
    ///     allow_ids: other ids that belong to this ticket (linked tickets, the order).
    ///     allow_emails: addresses (``support@example.com``) or domains (``@example.com``)
    ///         the draft may contain.
    ///     allow_numbers: numbers the draft may contain (a hotline), compared by digits.
    ///     ticket_text: the ticket the draft answers: numbers, ids and addresses the customer
    ///         wrote there may be repeated (not Luhn-valid cards or IBANs).
    ///
    /// Returns a ``Report``. Raises ``InvalidIdError`` for an empty id or one with
    /// whitespace and ``InputTooLargeError`` for a draft over the input limit.
    #[pyo3(signature = (draft, *, ticket_id, allow_ids = Vec::new(), allow_emails = Vec::new(), allow_numbers = Vec::new(), ticket_text = None))]
    #[allow(clippy::too_many_arguments)]
    fn screen(
        &self,
        py: Python<'_>,
        draft: PyBackedStr,
        ticket_id: Option<String>,
        allow_ids: Vec<String>,
        allow_emails: Vec<String>,
        allow_numbers: Vec<String>,
        ticket_text: Option<String>,
    ) -> PyResult<Report> {
        let args = CtxArgs {
            ticket_id,
            allow_ids,
            allow_emails,
            allow_numbers,
            ticket_text,
            max_words: None,
        };
        let ctx = self.context(py, &args)?;
        let screener = &self.inner;
        let out = py.detach(|| guarded(|| screener.screen(&ctx, &draft)));
        let report = out
            .map_err(|m| panic_error(py, m))?
            .map_err(|e| to_py(py, e))?;
        Ok(Report::new(report, draft))
    }

    /// Screens many drafts on every core, with the GIL released, and returns the reports
    /// in input order.
    ///
    /// ``items`` is an iterable of mappings with the keywords of ``screen``: ``draft`` (or
    /// ``text``, as in the CLI's JSON lines), ``ticket_id``, and optionally ``allow_ids``,
    /// ``allow_emails``, ``allow_numbers``, ``ticket_text`` and ``max_words``. The first bad
    /// item raises and no report is returned; the exception's ``index`` names the item.
    fn screen_many<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let defaults = self.defaults();
        let screener = &self.inner;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut iter = items.try_iter()?;
        let mut read = 0usize;
        // Reads up to `n` more items into `into`; false once the iterable is exhausted.
        let mut fill = |into: &mut Vec<Job>, n: usize| -> Result<bool, (usize, PyErr)> {
            for _ in 0..n {
                let Some(item) = iter.next() else {
                    return Ok(false);
                };
                let i = read;
                let job = item
                    .and_then(|item| self.job(py, &item))
                    .map_err(|e| (i, e))?;
                into.push(job);
                read += 1;
            }
            Ok(true)
        };
        let mut jobs = Vec::new();
        let first = fill(&mut jobs, CHUNK);
        let pool = if threads > 1 { pool(threads) } else { None };
        let (jobs, mut results, bad) = match (first, pool) {
            // A full first chunk and a pool: the rest is read while the workers screen.
            (Ok(true), Some(pool)) => pipeline(py, &pool, screener, defaults, jobs, fill),
            (first, _) => {
                let mut bad = first.err();
                if bad.is_none()
                    && let Err(e) = fill(&mut jobs, usize::MAX)
                {
                    bad = Some(e);
                }
                if let Some((i, e)) = bad {
                    // Only the contexts are needed to find an earlier bad item.
                    let earlier = jobs
                        .iter()
                        .enumerate()
                        .find_map(|(k, j)| defaults.context(&j.args).err().map(|e| (k, e)));
                    return Err(match earlier {
                        Some((k, e)) => at_index(py, to_py(py, e), k),
                        None => at_index(py, e, i),
                    });
                }
                let results = py.detach(|| run_jobs(screener, defaults, &jobs, threads));
                (jobs, results, None)
            }
        };
        // The first bad item raises, whether its arguments failed to read or to make a context.
        let first_context = results
            .iter()
            .position(|r| matches!(r, Err(Failure::Context(_))));
        if let Some((i, e)) = bad
            && first_context.is_none_or(|k| k > i)
        {
            return Err(at_index(py, e, i));
        }
        if let Some(i) = first_context
            && let Err(Failure::Context(e)) = results.swap_remove(i)
        {
            return Err(at_index(py, to_py(py, e), i));
        }
        let mut reports = Vec::with_capacity(results.len());
        for (i, (result, job)) in results.into_iter().zip(jobs).enumerate() {
            let report = match result {
                Ok(r) => r,
                Err(Failure::Panic(m)) => return Err(at_index(py, panic_error(py, m), i)),
                Err(Failure::Screen(e) | Failure::Context(e)) => {
                    return Err(at_index(py, to_py(py, e), i));
                }
            };
            reports.push(Report::new(report, job.draft));
        }
        PyList::new(py, reports)
    }

    /// For the benchmark: screens ``draft`` ``n`` times inside Rust (no Python in the loop,
    /// GIL released) and returns the seconds taken, so the binding's own cost per call is the
    /// Python-side time minus this.
    #[pyo3(signature = (draft, *, ticket_id, n))]
    fn _time_screen(
        &self,
        py: Python<'_>,
        draft: PyBackedStr,
        ticket_id: Option<String>,
        n: usize,
    ) -> PyResult<f64> {
        let args = CtxArgs {
            ticket_id,
            ..CtxArgs::default()
        };
        let ctx = self.context(py, &args)?;
        let screener = &self.inner;
        let out = py.detach(|| {
            guarded(|| {
                let start = std::time::Instant::now();
                for _ in 0..n {
                    std::hint::black_box(screener.screen(&ctx, std::hint::black_box(&draft))?);
                }
                Ok::<_, palisade::Error>(start.elapsed().as_secs_f64())
            })
        });
        out.map_err(|m| panic_error(py, m))?
            .map_err(|e| to_py(py, e))
    }

    /// The loaded rules as dicts: ``id``, ``kind``, ``severity``, ``status``, ``description``.
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for r in self.inner.rules() {
            let d = PyDict::new(py);
            d.set_item("id", &r.id)?;
            d.set_item("kind", r.kind.as_str())?;
            d.set_item("severity", r.severity.as_str())?;
            d.set_item("status", format!("{:?}", r.status).to_lowercase())?;
            d.set_item("description", &r.description)?;
            list.append(d)?;
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        format!(
            "Screener(policy={:?}, rules={}, severities={}, max_words={:?})",
            self.policy.as_ref().map(|(p, _)| p.display().to_string()),
            self.rules.len(),
            self.severities.len(),
            self.max_words
        )
    }

    /// Pickles as the construction arguments; unpickling rebuilds (and re-validates) it.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let kwargs = PyDict::new(py);
        if let Some((path, _)) = &self.policy {
            kwargs.set_item("policy", path.to_string_lossy())?;
        }
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        kwargs.set_item("rules", rules)?;
        let sev = PyDict::new(py);
        for (k, v) in &self.severities {
            sev.set_item(k, v)?;
        }
        kwargs.set_item("severities", sev)?;
        kwargs.set_item("max_words", self.max_words)?;
        kwargs.set_item("max_input_bytes", self.max_input_bytes)?;
        let rebuild = py.import("palisade._palisade")?.getattr("_screener")?;
        Ok((rebuild, PyTuple::new(py, [kwargs])?))
    }
}

/// Rebuilds a pickled `Screener` from its construction arguments.
#[pyfunction]
pub(crate) fn _screener<'py>(
    py: Python<'py>,
    kwargs: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    py.get_type::<Screener>().call((), Some(&kwargs))
}
