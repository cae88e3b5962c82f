//! JSON lines: answers stream to a coprocess, strict fields, skipped blank lines and BOM,
//! a closed stdout ends quietly, `--summary`.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::cli::{json_lines, palisade, shown};

/// A helper process that writes one line and reads one answer before sending the next: if
/// answers were held until the end of input, the first read would never return.
#[test]
fn a_coprocess_gets_each_answer_before_sending_the_next_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palisade"))
        .args(["screen", "--jsonl", "--no-ticket"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    for (i, text) in ["Thanks, Sam!", "Mail bob@example.org", "All sorted."]
        .iter()
        .enumerate()
    {
        writeln!(stdin, "{{\"id\": {i}, \"text\": \"{text}\"}}").unwrap();
        stdin.flush().unwrap();
        let answer = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no answer to line {i} while stdin is still open"));
        let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["id"], i);
        assert_eq!(v["blocked"], i == 1);
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn strict_fields_and_skipped_blank_lines() {
    let input = concat!(
        "\u{feff}{\"id\": 1, \"ticket_id\": \"#48213\", \"text\": \"Hi\"}\n",
        "\n",
        "   \r\n",
        "{\"id\": 2, \"ticket_id\": \"#48213\", \"text\": \"sk_live_x\", \"text\": \"Hi\"}\n",
        "{\"id\": 3, \"ticket_id\": \"#48213\", \"text\": \"Hi\", \"allow_email\": [\"a@b.example\"]}\n",
        "{\"id\": 4, \"ticket_id\": null, \"text\": \"Order 55012377\", \"ticket_text\": \"my order 5501-2377\"}\n",
        "{\"id\": 5, \"ticket_id\": \"a b\", \"text\": \"Hi\"}\n",
        "{\"id\": 6, \"text\": \"Hi\"}\n",
    );
    let run = palisade(&["screen", "--jsonl"], input.as_bytes());
    assert_eq!(run.code, 2);
    let lines = json_lines(&run.stdout);
    // Blank lines produce nothing; line numbers still count them.
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["blocked"], false);
    assert_eq!(lines[1]["line"], 4);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("duplicate field `text`")
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `allow_email`")
    );
    assert_eq!(lines[3]["blocked"], false);
    assert!(
        lines[4]["error"]
            .as_str()
            .unwrap()
            .contains("field \"ticket_id\"")
    );
    insta::assert_snapshot!(shown(&run));
}

#[test]
fn scan_jsonl_is_strict_too() {
    let input =
        "{\"id\": 1, \"text\": \"a\", \"txt\": \"b\"}\n{\"text\": \"a\", \"text\": \"b\"}\n";
    let run = palisade(&["scan", "--jsonl"], input.as_bytes());
    assert_eq!(run.code, 2);
    insta::assert_snapshot!(shown(&run));
}

#[test]
fn summary_counts_kinds_and_blocked_drafts() {
    let input = concat!(
        "{\"id\": 1, \"text\": \"Mail bob@example.org or amy@example.org\"}\n",
        "{\"id\": 2, \"text\": \"Call +1 415 555 0132\"}\n",
        "{\"id\": 3, \"text\": \"Thanks!\"}\n",
        "{\"id\": 4}\n",
    );
    let run = palisade(
        &["screen", "--jsonl", "--no-ticket", "--summary", "--quiet"],
        input.as_bytes(),
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("4 line(s) answered, 2 blocked, 1 error(s)")
    );
    insta::assert_snapshot!(shown(&run));
}

#[test]
fn an_overlong_line_is_an_error_line_and_the_next_is_read() {
    let long = "x".repeat(70_000);
    let input = format!("{{\"id\": 1, \"text\": \"{long}\"}}\n{{\"id\": 2, \"text\": \"ok\"}}\n");
    let run = palisade(
        &["scan", "--jsonl", "--max-input-bytes", "10"],
        input.as_bytes(),
    );
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("line is over")
    );
    assert_eq!(lines[1]["id"], 2);
}

/// `palisade rules --json | head -1`, and a JSONL batch whose reader goes away: exit 0 and
/// nothing on stderr, as grep does.
#[test]
fn a_closed_stdout_ends_quietly() {
    for args in [&["rules", "--json"][..], &["scan", "--jsonl"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_palisade"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            for i in 0..200_000 {
                if writeln!(stdin, "{{\"id\": {i}, \"text\": \"hello there\"}}").is_err() {
                    return;
                }
            }
        });
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        let _ = writer.join();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}
