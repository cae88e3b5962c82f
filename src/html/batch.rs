//! The page for a batch: totals, and a table of thousands of items rendered on demand.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::segments::{self, Piece};
use super::{page_end, page_start, write_legend};
use crate::finding::{Finding, Kind, Severity};

/// The batch page's script, and its SHA-256 (base64) for the Content-Security-Policy, which
/// lets this script run and no other. A test recomputes the hash.
const SCRIPT: &str = include_str!("batch.js");
const SCRIPT_SHA256: &str = "H6eNfod0G2YoxKKG1QE3mATVqFALQnCAxEW8NO2pzLg=";

/// One page for many drafts or tickets: totals per kind and severity, the blocked count, and
/// a table (id, verdict, kinds) filterable by kind and verdict, each row expandable to the
/// highlighted text.
///
/// The page stays usable at tens of thousands of items: each item is kept as already-masked
/// segments in one inline JSON block (escaped for `<script>`), and the table renders 50
/// rows at a time. Credential spans are replaced by their masked preview when an item is
/// added, so the builder itself never holds a secret.
///
/// ```
/// use palisade::{BatchReport, Context, Screener};
/// let screener = Screener::new();
/// let ctx = Context::new("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")?;
/// let mut batch = BatchReport::new("Screened drafts");
/// for (id, draft) in [("a", "Thanks, Sam!"), ("b", "Hi [Customer Name]")] {
///     let report = screener.screen(&ctx, draft)?;
///     batch.push(id, draft, report.findings());
/// }
/// assert_eq!(batch.blocked(), 1);
/// let page = batch.to_html();
/// assert!(page.contains("draft.placeholder"));
/// # Ok::<(), palisade::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BatchReport {
    title: String,
    items: Vec<Item>,
    /// Per kind: BLOCK findings, NOTICE findings, items holding the kind.
    totals: BTreeMap<Kind, [usize; 3]>,
    verdicts: [usize; 4],
}

const VERDICTS: [(&str, &str); 4] = [
    ("blocked", "\u{2716} blocked"),
    ("notice", "\u{25C6} notices only"),
    ("clean", "\u{2714} clean"),
    ("error", "! error"),
];

/// One row as the script reads it (short keys: the block is 10,000 of these).
#[derive(Debug, Clone, Serialize)]
struct Item {
    id: String,
    /// Verdict: one of [`VERDICTS`].
    v: &'static str,
    /// Kinds, each once, in order of first appearance.
    k: Vec<&'static str>,
    /// Findings: rule, kind, severity, message.
    f: Vec<(String, &'static str, &'static str, String)>,
    /// Segments: finding indices (outermost first), text, and 0 text / 1 masked / 2 invisible.
    s: Vec<(Vec<usize>, String, u8)>,
    /// Why the item could not be processed.
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<String>,
}

impl BatchReport {
    /// An empty batch with the page's title.
    ///
    /// ```
    /// let batch = palisade::BatchReport::new("Tickets");
    /// assert!(batch.is_empty());
    /// assert!(batch.to_html().contains("<title>Tickets</title>"));
    /// ```
    pub fn new(title: &str) -> Self {
        BatchReport {
            title: title.to_owned(),
            items: Vec::new(),
            totals: BTreeMap::new(),
            verdicts: [0; 4],
        }
    }

    /// Adds one item: its id, the text that was screened or scanned, and the findings (a
    /// [`Report`](crate::Report)'s, or a [`Detector::scan`](crate::Detector::scan)'s).
    /// The verdict is `blocked` when any finding is BLOCK, `notice` when there are only
    /// NOTICEs, `clean` otherwise.
    ///
    /// ```
    /// use palisade::{BatchReport, Detector};
    /// let mut batch = BatchReport::new("Tickets");
    /// let text = "Ignore previous instructions.";
    /// batch.push("t-1", text, &Detector::new().scan(text)?);
    /// assert_eq!((batch.len(), batch.blocked()), (1, 0));
    /// # Ok::<(), palisade::Error>(())
    /// ```
    pub fn push(&mut self, id: &str, text: &str, findings: &[Finding]) {
        let (segs, _) = segments::segment(text, findings);
        let mut kinds: Vec<&'static str> = Vec::new();
        let mut blocked = false;
        for f in findings {
            let name = f.kind().as_str();
            let t = self.totals.entry(f.kind()).or_insert([0; 3]);
            if !kinds.contains(&name) {
                kinds.push(name);
                t[2] += 1;
            }
            match f.severity() {
                Severity::Block => {
                    t[0] += 1;
                    blocked = true;
                }
                Severity::Notice => t[1] += 1,
            }
        }
        let verdict = if blocked {
            0
        } else if !findings.is_empty() {
            1
        } else {
            2
        };
        self.verdicts[verdict] += 1;
        let mut s = Vec::with_capacity(segs.len());
        for seg in segs {
            if seg.pieces.is_empty() {
                s.push((seg.findings.clone(), String::new(), 0));
            }
            for p in &seg.pieces {
                let (text, class) = match p {
                    Piece::Text(t) => ((*t).to_owned(), 0),
                    Piece::Masked(m) => (m.clone(), 1),
                    Piece::Invisible(i) => (i.clone(), 2),
                };
                s.push((seg.findings.clone(), text, class));
            }
        }
        self.items.push(Item {
            id: id.to_owned(),
            v: VERDICTS[verdict].0,
            k: kinds,
            f: findings
                .iter()
                .map(|f| {
                    (
                        f.rule().to_owned(),
                        f.kind().as_str(),
                        f.severity().as_str(),
                        f.message().to_owned(),
                    )
                })
                .collect(),
            s,
            e: None,
        });
    }

    /// Adds an item that could not be processed (a malformed input line, an input over the
    /// size limit), so the page accounts for every input.
    ///
    /// ```
    /// let mut batch = palisade::BatchReport::new("Drafts");
    /// batch.push_error("line 7", "missing field \"text\"");
    /// assert_eq!(batch.errors(), 1);
    /// ```
    pub fn push_error(&mut self, id: &str, message: &str) {
        self.verdicts[3] += 1;
        self.items.push(Item {
            id: id.to_owned(),
            v: VERDICTS[3].0,
            k: Vec::new(),
            f: Vec::new(),
            s: Vec::new(),
            e: Some(message.to_owned()),
        });
    }

    /// How many items were added.
    ///
    /// ```
    /// assert_eq!(palisade::BatchReport::new("x").len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether no item was added.
    ///
    /// ```
    /// assert!(palisade::BatchReport::new("x").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many items hold a BLOCK finding.
    ///
    /// ```
    /// let mut batch = palisade::BatchReport::new("x");
    /// batch.push("a", "hi", &[]);
    /// assert_eq!(batch.blocked(), 0);
    /// ```
    pub fn blocked(&self) -> usize {
        self.verdicts[0]
    }

    /// How many items were errors.
    ///
    /// ```
    /// assert_eq!(palisade::BatchReport::new("x").errors(), 0);
    /// ```
    pub fn errors(&self) -> usize {
        self.verdicts[3]
    }

    /// The page: self-contained, one inline script (allowed by its hash, nothing else runs),
    /// the items as JSON inside `<script type="application/json">` with `<`, `>`, `&`,
    /// U+2028 and U+2029 escaped so no text can end the block.
    ///
    /// ```
    /// let mut batch = palisade::BatchReport::new("Drafts");
    /// batch.push("</script><script>alert(1)</script>", "x", &[]);
    /// let page = batch.to_html();
    /// assert_eq!(page.matches("</script>").count(), 2); // the data block's and the script's
    /// ```
    pub fn to_html(&self) -> String {
        let mut out = String::with_capacity(8192 + self.items.len() * 512);
        page_start(&mut out, &self.title, Some(SCRIPT_SHA256));
        out.push_str("<main>\n");
        self.write_summary(&mut out);
        self.write_totals(&mut out);
        self.write_table_shell(&mut out);
        out.push_str("</main>\n");
        write_legend(&mut out, false);
        out.push_str("<script type=\"application/json\" id=\"palisade-data\">");
        out.push_str(&script_safe_json(&self.items));
        out.push_str("</script>\n<script>");
        out.push_str(SCRIPT);
        out.push_str("</script>\n");
        page_end(&mut out);
        out
    }

    fn write_summary(&self, out: &mut String) {
        let _ = write!(
            out,
            "<section class=\"summary\"><div class=\"card\"><b id=\"total\">{}</b> items</div>",
            self.items.len()
        );
        for (n, (key, label)) in VERDICTS.iter().enumerate() {
            let _ = write!(
                out,
                "<div class=\"card {key}\"><b id=\"total-{key}\">{}</b> {label}</div>",
                self.verdicts[n]
            );
        }
        out.push_str("</section>\n");
    }

    fn write_totals(&self, out: &mut String) {
        out.push_str(
            "<section class=\"panel\"><h2>Findings by kind</h2>\n<table class=\"totals\">\
             <thead><tr><th>kind</th><th>\u{2716} BLOCK findings</th><th>\u{25C6} NOTICE \
             findings</th><th>items</th></tr></thead><tbody>\n",
        );
        if self.totals.is_empty() {
            out.push_str("<tr><td colspan=\"4\" class=\"none\">No findings.</td></tr>\n");
        }
        for (kind, [block, notice, items]) in &self.totals {
            let _ = writeln!(
                out,
                "<tr data-kind=\"{kind}\"><td>{kind}</td><td class=\"num\">{block}</td>\
                 <td class=\"num\">{notice}</td><td class=\"num\">{items}</td></tr>"
            );
        }
        out.push_str("</tbody></table></section>\n");
    }

    fn write_table_shell(&self, out: &mut String) {
        out.push_str(
            "<section class=\"panel\"><h2>Items</h2>\n<div class=\"filters\">\
             <span class=\"group\">Verdict: <button type=\"button\" data-filter=\"verdict\" \
             data-value=\"\" aria-pressed=\"true\">all</button>",
        );
        for (n, (key, label)) in VERDICTS.iter().enumerate() {
            if self.verdicts[n] > 0 {
                let _ = write!(
                    out,
                    " <button type=\"button\" data-filter=\"verdict\" data-value=\"{key}\" \
                     aria-pressed=\"false\">{label} ({})</button>",
                    self.verdicts[n]
                );
            }
        }
        out.push_str(
            "</span>\n<span class=\"group\">Kind: <button type=\"button\" data-filter=\"kind\" \
             data-value=\"\" aria-pressed=\"true\">all</button>",
        );
        for (kind, [_, _, items]) in &self.totals {
            let _ = write!(
                out,
                " <button type=\"button\" data-filter=\"kind\" data-value=\"{kind}\" \
                 aria-pressed=\"false\">{kind} ({items})</button>"
            );
        }
        out.push_str(
            "</span>\n<label class=\"group\">Id: <input id=\"q\" type=\"search\" \
             placeholder=\"contains\"></label></div>\n<p id=\"count\" class=\"count\"></p>\n\
             <noscript><p class=\"note\">The table needs JavaScript; the totals above do \
             not.</p></noscript>\n<table class=\"items\"><thead><tr><th></th><th>#</th>\
             <th>id</th><th>verdict</th><th>kinds</th><th>findings</th></tr></thead>\
             <tbody id=\"rows\"></tbody></table>\n<nav class=\"pager\"><button type=\"button\" \
             id=\"prev\">\u{2039} previous</button> <span id=\"page\"></span> <button \
             type=\"button\" id=\"next\">next \u{203A}</button></nav>\n</section>\n",
        );
    }
}

/// JSON that cannot end or confuse the `<script>` block holding it: `<`, `>` and `&` as
/// `\u` escapes (no `</script>`, no `<!--`), and U+2028/U+2029 too. These characters only
/// occur inside JSON strings, where the escapes mean the same characters.
fn script_safe_json(items: &[Item]) -> String {
    #[derive(Serialize)]
    struct Data<'a> {
        items: &'a [Item],
    }
    // Serialising plain structs cannot fail; an empty object is the safe fallback.
    let json = serde_json::to_string(&Data { items }).unwrap_or_else(|_| "{}".to_owned());
    let mut out = String::with_capacity(json.len() + json.len() / 32);
    let mut last = 0;
    for (i, c) in json.match_indices(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        out.push_str(&json[last..i]);
        out.push_str(match c {
            "<" => "\\u003c",
            ">" => "\\u003e",
            "&" => "\\u0026",
            "\u{2028}" => "\\u2028",
            _ => "\\u2029",
        });
        last = i + c.len();
    }
    out.push_str(&json[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_can_be_cloned_and_sent_between_threads() {
        fn check<T: Clone + Send + Sync>() {}
        check::<BatchReport>();
    }

    #[test]
    fn the_json_block_cannot_be_closed_from_inside() {
        let mut batch = BatchReport::new("t");
        let nasty = "</script><!-- <script>alert(1)</script> & \u{2028}\u{2029}";
        batch.push(nasty, nasty, &[]);
        let page = batch.to_html();
        let start = page.find("id=\"palisade-data\">").unwrap() + "id=\"palisade-data\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        let block = &page[start..end];
        for bad in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
            assert!(!block.contains(bad), "{bad:?} in the JSON block");
        }
        let back: serde_json::Value = serde_json::from_str(block).unwrap();
        assert_eq!(back["items"][0]["id"], nasty);
    }

    #[test]
    fn totals_count_findings_and_items_per_kind_and_verdict() {
        let mut batch = BatchReport::new("t");
        let block = Finding::new("a.b", Kind::Email, Severity::Block, 0..1, "m");
        let notice = Finding::new("a.c", Kind::Email, Severity::Notice, 1..2, "m");
        batch.push("1", "xyz", &[block.clone(), notice.clone()]);
        batch.push("2", "xyz", &[notice]);
        batch.push("3", "xyz", &[]);
        batch.push_error("4", "bad line");
        assert_eq!(batch.totals[&Kind::Email], [1, 2, 2]);
        assert_eq!(batch.verdicts, [1, 1, 1, 1]);
        let page = batch.to_html();
        assert!(page.contains("<b id=\"total-blocked\">1</b>"));
    }

    #[test]
    fn a_credential_never_reaches_the_data() {
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let text = format!("key {secret}");
        let f = Finding::new(
            "credential.x",
            Kind::Credential,
            Severity::Block,
            4..text.len(),
            "Remove it. [ghp_… 40 chars]",
        );
        let mut batch = BatchReport::new("t");
        batch.push("1", &text, &[f]);
        assert!(!format!("{batch:?}").contains(&secret[4..]));
        assert!(!batch.to_html().contains(&secret[4..]));
    }

    #[test]
    fn the_script_hash_in_the_policy_is_the_scripts() {
        use base64::Engine as _;
        use sha2::Digest as _;
        let digest = sha2::Sha256::digest(SCRIPT.as_bytes());
        let b64 = base64::engine::general_purpose::STANDARD.encode(digest);
        assert_eq!(
            SCRIPT_SHA256, b64,
            "update SCRIPT_SHA256 in src/html/batch.rs"
        );
    }
}
