//! JSON lines in, JSON lines out, streaming.
//!
//! A reader thread cuts stdin into chunks of the lines it already holds (one line when input
//! arrives slowly, hundreds in a batch), worker threads answer chunks, and this thread writes
//! the answers in input order, flushing whenever the next answer is not ready yet: a process
//! that writes one line gets its answer before it sends the next. At most [`IN_FLIGHT`]
//! chunks per worker are read ahead, so memory is bounded whatever the input's length.
//!
//! Lines are strict where a mistake could leak: a duplicated key or an unknown field is an
//! error line that names it. A UTF-8 byte-order mark at the start and blank lines are
//! skipped (they produce no output line).

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};

use clap::Args;
use palisade::Kind;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::Fail;

/// Chunks read ahead per worker.
const IN_FLIGHT: usize = 4;
/// Lines and bytes per chunk, at most.
const CHUNK_LINES: usize = 512;
const CHUNK_BYTES: usize = 1 << 20;

#[derive(Args)]
pub(crate) struct StreamOpts {
    /// No progress line on stderr (it is shown only when stderr is a terminal).
    #[arg(long)]
    pub(crate) quiet: bool,
    /// At the end, print counts per kind and the blocked total on stderr.
    #[arg(long)]
    pub(crate) summary: bool,
}

/// What one input line produced.
pub(crate) struct LineResult {
    pub(crate) json: String,
    pub(crate) error: bool,
    pub(crate) blocked: bool,
    pub(crate) kinds: Vec<Kind>,
}

#[derive(Serialize)]
struct LineError<'a> {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RawValue>,
    error: &'a str,
}

impl LineResult {
    pub(crate) fn error(line: usize, id: Option<&RawValue>, error: &str) -> Self {
        let json = serde_json::to_string(&LineError { line, id, error })
            .unwrap_or_else(|_| format!("{{\"line\":{line},\"error\":\"unserialisable error\"}}"));
        LineResult {
            json,
            error: true,
            blocked: false,
            kinds: Vec::new(),
        }
    }
}

/// Answers one well-formed-looking line (1-based number, text without its line break).
pub(crate) type Handler = dyn Fn(usize, &str) -> LineResult + Send + Sync;

/// The kinds of JSON value a field may hold, to name a mistyped field.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    Any,
    Str,
    StrOrNull,
    Strings,
    Count,
}

/// Why a line could not be read into its fields: serde's own message names a duplicated or
/// unknown key; a mistyped value is named here (serde's message does not say which field).
pub(crate) fn explain(line: &str, err: &serde_json::Error, fields: &[(&str, Shape)]) -> String {
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) else {
        return match serde_json::from_str::<Value>(line) {
            Err(e) => format!("malformed JSON: {e}"),
            Ok(_) => "a line must be a JSON object".to_owned(),
        };
    };
    let message = err.to_string();
    if err.is_data()
        && (message.starts_with("invalid type") || message.starts_with("invalid value"))
    {
        for (name, shape) in fields {
            let ok = match (shape, map.get(*name)) {
                (_, None) | (Shape::Any, _) => true,
                (Shape::Str, Some(v)) => v.is_string(),
                (Shape::StrOrNull, Some(v)) => v.is_string() || v.is_null(),
                (Shape::Strings, Some(v)) => {
                    v.is_null() || v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
                }
                (Shape::Count, Some(v)) => v.is_null() || v.is_u64(),
            };
            if !ok {
                let want = match shape {
                    Shape::Str => "a string",
                    Shape::StrOrNull => "a string or null",
                    Shape::Strings => "an array of strings",
                    Shape::Count => "a non-negative integer",
                    Shape::Any => "any value",
                };
                return format!("field \"{name}\" must be {want}");
            }
        }
    }
    err.to_string()
}

/// Why a required field is absent: missing, or null.
pub(crate) fn missing(line: &str, field: &str, want: &str) -> String {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) if map.contains_key(field) => {
            format!("field \"{field}\" must be {want}")
        }
        _ => format!("missing field \"{field}\""),
    }
}

/// The `id` of a line that could not be read otherwise, for its error line.
pub(crate) fn id_of(line: &str) -> Option<Box<RawValue>> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: Option<Box<RawValue>>,
    }
    serde_json::from_str::<IdOnly>(line).ok().and_then(|i| i.id)
}

struct Chunk {
    index: usize,
    first_line: usize,
    data: Vec<u8>,
    /// End of each line in `data`, and whether it was cut at the length limit.
    lines: Vec<(usize, bool)>,
}

#[derive(Default)]
struct Done {
    out: Vec<u8>,
    /// `(line number, input line, output line)`, kept only for an [`Observer`].
    kept: Vec<(usize, String, String)>,
    lines: u64,
    answered: u64,
    errors: u64,
    blocked: u64,
    kinds: BTreeMap<&'static str, u64>,
}

/// Reads one line into `out`, keeping at most `cap` bytes of it. `None` at end of input;
/// else whether the line was cut.
fn read_line_capped(
    r: &mut impl BufRead,
    out: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    let start = out.len();
    let (mut any, mut cut) = (false, false);
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = cap.saturating_sub(out.len() - start);
        if take <= room {
            out.extend_from_slice(&buf[..take]);
        } else {
            out.extend_from_slice(&buf[..room]);
            cut = true;
        }
        r.consume(take);
        if done {
            return Ok(Some(cut));
        }
    }
}

fn read_chunks(
    input: Box<dyn Read + Send>,
    cap: usize,
    chunks: SyncSender<Chunk>,
    permits: SyncSender<()>,
    failure: Arc<Mutex<Option<String>>>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line_no = 1;
    for index in 0.. {
        let mut chunk = Chunk {
            index,
            first_line: line_no,
            data: Vec::new(),
            lines: Vec::new(),
        };
        let mut eof = false;
        loop {
            match read_line_capped(&mut reader, &mut chunk.data, cap) {
                Ok(Some(cut)) => {
                    chunk.lines.push((chunk.data.len(), cut));
                    line_no += 1;
                }
                Ok(None) => {
                    eof = true;
                    break;
                }
                Err(e) => {
                    if let Ok(mut f) = failure.lock() {
                        *f = Some(format!("reading input: {e}"));
                    }
                    eof = true;
                    break;
                }
            }
            // Send what is here when the next line has not fully arrived: a slow writer gets
            // each answer at once; a batch fills chunks from the read buffer.
            if chunk.lines.len() >= CHUNK_LINES
                || chunk.data.len() >= CHUNK_BYTES
                || memchr::memchr(b'\n', reader.buffer()).is_none()
            {
                break;
            }
        }
        if !chunk.lines.is_empty() && (permits.send(()).is_err() || chunks.send(chunk).is_err()) {
            return;
        }
        if eof {
            return;
        }
    }
}

fn answer(chunk: &Chunk, lossy: bool, cap: usize, keep: bool, handle: &Handler) -> Done {
    let mut done = Done::default();
    let mut start = 0;
    for (k, &(end, cut)) in chunk.lines.iter().enumerate() {
        let number = chunk.first_line + k;
        let mut raw = &chunk.data[start..end];
        start = end;
        done.lines += 1;
        raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if number == 1 {
            raw = raw.strip_prefix("\u{feff}".as_bytes()).unwrap_or(raw);
        }
        let result = if cut {
            LineResult::error(number, None, &format!("line is over {cap} bytes"))
        } else if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            match std::str::from_utf8(raw) {
                Ok(line) => handle(number, line),
                Err(_) if lossy => handle(number, &String::from_utf8_lossy(raw)),
                Err(e) => LineResult::error(
                    number,
                    None,
                    &format!(
                        "line is not valid UTF-8: invalid byte at offset {} (use --lossy to replace)",
                        e.valid_up_to()
                    ),
                ),
            }
        };
        done.answered += 1;
        done.errors += u64::from(result.error);
        done.blocked += u64::from(result.blocked);
        for k in &result.kinds {
            *done.kinds.entry(k.as_str()).or_default() += 1;
        }
        done.out.extend_from_slice(result.json.as_bytes());
        done.out.push(b'\n');
        if keep {
            let input = String::from_utf8_lossy(raw).into_owned();
            done.kept.push((number, input, result.json));
        }
    }
    done
}

/// Sees every answered line after it is written, in input order: `(line number, input line,
/// output line)`. A batch report (an HTML page of the run) hooks in here.
pub(crate) type Observer<'o> = &'o mut dyn FnMut(usize, &str, &str);

/// Runs `handle` over every line of stdin and writes the answers to stdout. Exit code: 2 if
/// any line was an error, else 1 if any draft was blocked, else 0.
pub(crate) fn run(
    opts: &StreamOpts,
    lossy: bool,
    max_input_bytes: usize,
    handle: Arc<Handler>,
) -> Result<u8, Fail> {
    let settings = Settings {
        opts,
        lossy,
        max_input_bytes,
    };
    run_with(
        Box::new(io::stdin()),
        &mut io::stdout().lock(),
        &settings,
        handle,
        None,
    )
}

/// How [`run_with`] reads and reports.
pub(crate) struct Settings<'a> {
    pub(crate) opts: &'a StreamOpts,
    pub(crate) lossy: bool,
    pub(crate) max_input_bytes: usize,
}

/// [`run`] over any input and output, with an optional [`Observer`].
pub(crate) fn run_with(
    input: Box<dyn Read + Send>,
    output: &mut dyn Write,
    settings: &Settings<'_>,
    handle: Arc<Handler>,
    mut observer: Option<Observer<'_>>,
) -> Result<u8, Fail> {
    let (opts, lossy, max_input_bytes) = (settings.opts, settings.lossy, settings.max_input_bytes);
    let keep = observer.is_some();
    // A line holds the text JSON-escaped (up to six bytes a character) and other fields.
    let cap = max_input_bytes.saturating_mul(6).saturating_add(1 << 16);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (chunk_tx, chunk_rx) = sync_channel::<Chunk>(workers * IN_FLIGHT);
    let (permit_tx, permit_rx) = sync_channel::<()>(workers * IN_FLIGHT);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(usize, Done)>();
    let failure = Arc::new(Mutex::new(None));
    {
        let failure = Arc::clone(&failure);
        std::thread::spawn(move || read_chunks(input, cap, chunk_tx, permit_tx, failure));
    }
    let chunk_rx = Arc::new(Mutex::new(chunk_rx));
    for _ in 0..workers {
        let (rx, tx, handle) = (Arc::clone(&chunk_rx), done_tx.clone(), Arc::clone(&handle));
        std::thread::spawn(move || {
            loop {
                let next = match rx.lock() {
                    Ok(guard) => guard.recv(),
                    Err(_) => return,
                };
                let Ok(chunk) = next else { return };
                let done = answer(&chunk, lossy, cap, keep, &*handle);
                if tx.send((chunk.index, done)).is_err() {
                    return;
                }
            }
        });
    }
    drop(done_tx);
    let totals = write_in_order(output, &done_rx, &permit_rx, opts, &mut observer)?;
    if let Ok(f) = failure.lock()
        && let Some(message) = f.as_ref()
    {
        return Err(Fail::new(message.clone()));
    }
    if opts.summary {
        write_summary(&totals)?;
    }
    Ok(if totals.errors > 0 {
        2
    } else if totals.blocked > 0 {
        1
    } else {
        0
    })
}

fn progress_bar(opts: &StreamOpts) -> Option<indicatif::ProgressBar> {
    if opts.quiet || !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} {human_pos} lines, {rate} lines/s")
    {
        bar.set_style(style.with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        ));
    }
    Some(bar)
}

fn write_in_order(
    output: &mut dyn Write,
    done_rx: &Receiver<(usize, Done)>,
    permits: &Receiver<()>,
    opts: &StreamOpts,
    observer: &mut Option<Observer<'_>>,
) -> Result<Done, Fail> {
    let mut out = BufWriter::with_capacity(1 << 16, output);
    let bar = progress_bar(opts);
    let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
    let mut totals = Done::default();
    let mut next = 0;
    loop {
        let done = loop {
            if let Some(d) = pending.remove(&next) {
                break Some(d);
            }
            let got = match done_rx.try_recv() {
                Ok(got) => Some(got),
                Err(TryRecvError::Empty) => {
                    // Nothing ready: what is written goes out now (a coprocess waits for it).
                    out.flush()?;
                    done_rx.recv().ok()
                }
                Err(TryRecvError::Disconnected) => None,
            };
            match got {
                Some((i, d)) => {
                    pending.insert(i, d);
                }
                None => break None,
            }
        };
        let Some(done) = done else { break };
        out.write_all(&done.out)?;
        if let Some(observe) = observer.as_mut() {
            for (number, input, output) in &done.kept {
                observe(*number, input, output);
            }
        }
        next += 1;
        let _ = permits.recv();
        if let Some(bar) = &bar {
            bar.inc(done.lines);
        }
        totals.lines += done.lines;
        totals.answered += done.answered;
        totals.errors += done.errors;
        totals.blocked += done.blocked;
        for (k, n) in done.kinds {
            *totals.kinds.entry(k).or_default() += n;
        }
    }
    out.flush()?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(totals)
}

fn write_summary(t: &Done) -> io::Result<()> {
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "summary: {} line(s) answered, {} blocked, {} error(s)",
        t.answered, t.blocked, t.errors
    )?;
    for (kind, n) in &t.kinds {
        writeln!(err, "  {kind:<14} {n}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(n: usize, line: &str) -> LineResult {
        LineResult {
            json: format!("{{\"n\":{n},\"len\":{}}}", line.len()),
            error: false,
            blocked: line.contains("block"),
            kinds: Vec::new(),
        }
    }

    /// Every non-blank line is answered once, in order, and an observer sees each input line
    /// beside its answer.
    #[test]
    fn answers_in_order_and_shows_each_pair_to_an_observer() {
        let lines: String = (0..3000)
            .map(|i| {
                if i % 7 == 3 {
                    "\n".to_owned()
                } else {
                    format!("line {i} block\n")
                }
            })
            .collect();
        let opts = StreamOpts {
            quiet: true,
            summary: false,
        };
        let settings = Settings {
            opts: &opts,
            lossy: false,
            max_input_bytes: 1 << 20,
        };
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let mut observe = |n: usize, input: &str, output: &str| {
            seen.push((n, input.to_owned(), output.to_owned()));
        };
        let code = run_with(
            Box::new(std::io::Cursor::new(lines.into_bytes())),
            &mut out,
            &settings,
            Arc::new(echo),
            Some(&mut observe),
        )
        .unwrap_or(99);
        assert_eq!(code, 1);
        let text = String::from_utf8(out).unwrap_or_default();
        let answered: Vec<&str> = text.lines().collect();
        let want: Vec<usize> = (1..=3000).filter(|n| (n - 1) % 7 != 3).collect();
        assert_eq!(answered.len(), want.len());
        assert_eq!(seen.len(), want.len());
        for ((line, n), (seen_n, input, output)) in answered.iter().zip(&want).zip(&seen) {
            assert!(line.starts_with(&format!("{{\"n\":{n},")), "{line}");
            assert_eq!((seen_n, output.as_str()), (n, *line));
            assert_eq!(*input, format!("line {} block", n - 1));
        }
    }
}
