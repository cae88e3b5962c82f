//! The draft checks through the public API: what each flags, the tricky near misses it must
//! leave alone, spans into the original (obfuscated) text, and the notes in the messages.

// The helpers below are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use palisade::{Context, Finding, Kind, Screener};

const TICKET: &str = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
const OTHER: &str = "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9";

fn ctx() -> Context {
    Context::new(TICKET)
        .unwrap()
        .allow_email("support@example.com")
}

fn screen_with(ctx: &Context, draft: &str) -> Vec<Finding> {
    Screener::new()
        .screen(ctx, draft)
        .unwrap()
        .findings()
        .to_vec()
}

/// The original text of each finding of `kind`.
fn hits(kind: Kind, draft: &str) -> Vec<String> {
    hits_with(&ctx(), kind, draft)
}

fn hits_with(ctx: &Context, kind: Kind, draft: &str) -> Vec<String> {
    screen_with(ctx, draft)
        .iter()
        .filter(|f| f.kind() == kind)
        .map(|f| draft[f.span()].to_owned())
        .collect()
}

fn messages(kind: Kind, draft: &str) -> Vec<String> {
    screen_with(&ctx(), draft)
        .iter()
        .filter(|f| f.kind() == kind)
        .map(|f| f.message().to_owned())
        .collect()
}

/// Asserts each `(draft, expected spans)` case and collects every failure before failing.
fn table(kind: Kind, cases: &[(&str, &[&str])]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(draft, want)| {
            let got = hits(kind, draft);
            (got != *want).then(|| format!("{draft:?}: want {want:?}, got {got:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn none(kind: Kind, drafts: &[&str]) {
    let cases: Vec<(&str, &[&str])> = drafts.iter().map(|d| (*d, &[][..])).collect();
    table(kind, &cases);
}

// ---------------------------------------------------------------------------------------------
// foreign_id
// ---------------------------------------------------------------------------------------------

#[test]
fn foreign_ids_are_found_in_every_form() {
    let upper = OTHER.to_uppercase();
    let simple = OTHER.replace('-', "");
    let braced = format!("{{{upper}}}");
    let urn = format!("urn:uuid:{OTHER}");
    let cases = [
        (
            format!("Your other case {OTHER} is closed."),
            OTHER.to_owned(),
        ),
        (format!("Your other case {upper} is closed."), upper.clone()),
        (format!("See {braced} for details."), braced.clone()),
        (format!("Reference {urn} please."), urn.clone()),
        (format!("Case {simple} was merged."), simple.clone()),
        (
            format!("Case {} was merged.", simple.to_uppercase()),
            simple.to_uppercase(),
        ),
    ];
    for (draft, want) in cases {
        assert_eq!(hits(Kind::ForeignId, &draft), vec![want], "{draft}");
    }
}

#[test]
fn the_note_names_the_form() {
    let msg = |d: &str| messages(Kind::ForeignId, d).join("|");
    assert!(msg(&format!("case {OTHER}")).contains("(hyphenated form)"));
    assert!(msg(&format!("case {{{OTHER}}}")).contains("(braced form)"));
    assert!(msg(&format!("case URN:UUID:{OTHER}")).contains("(urn:uuid: form)"));
    assert!(
        msg(&format!("case {}", OTHER.replace('-', "")))
            .contains("(32 hex digits without hyphens)")
    );
    assert!(msg(&format!("case {}", OTHER.to_uppercase())).contains("upper case"));
}

#[test]
fn the_tickets_own_id_is_never_flagged() {
    let simple = TICKET.replace('-', "");
    let drafts = [
        format!("Your ticket {TICKET} is open."),
        format!("Your ticket {} is open.", TICKET.to_uppercase()),
        format!("Your ticket {{{TICKET}}} is open."),
        format!("Your ticket {{{}}} is open.", TICKET.to_uppercase()),
        format!("Your ticket urn:uuid:{TICKET} is open."),
        format!("Your ticket URN:UUID:{} is open.", TICKET.to_uppercase()),
        format!("Your ticket {simple} is open."),
        format!("Your ticket {} is open.", simple.to_uppercase()),
    ];
    for draft in &drafts {
        assert_eq!(
            hits(Kind::ForeignId, draft),
            Vec::<String>::new(),
            "{draft}"
        );
    }
    // A ticket given in another form is the same ticket.
    let ctx = Context::new(&format!("{{{}}}", TICKET.to_uppercase())).unwrap();
    assert!(hits_with(&ctx, Kind::ForeignId, &drafts[0]).is_empty());
}

#[test]
fn allowed_ids_and_contexts_without_a_ticket() {
    let draft = format!("Linked: {OTHER}, {TICKET}.");
    let ctx = ctx().allow_id(&OTHER.to_uppercase()).unwrap();
    assert!(hits_with(&ctx, Kind::ForeignId, &draft).is_empty());
    let ctx = Context::without_ticket();
    assert_eq!(hits_with(&ctx, Kind::ForeignId, &draft).len(), 2);
}

#[test]
fn hashes_are_not_foreign_ids() {
    none(
        Kind::ForeignId,
        &[
            "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it.",
            "Checksum 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 ok.",
            // 32 hex digits but no UUID version nibble: an MD5 digest.
            "The MD5 is 9e107d9d372bb6826bd81d3542a419d6.",
            // A UUID-shaped 32-hex stretch inside a longer hex run.
            "Build ff0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9 is ready.",
            "Build 0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9ff is ready.",
            "Value 0x0b5a3c2e9d8f4e7ab6c5d4e3f2a1b0c9.",
        ],
    );
}

#[test]
fn an_obfuscated_id_is_found_with_its_original_span() {
    // A zero-width space inside and fullwidth digits: still the same id.
    let draft = "Case 0b5a3c2e-9d8f\u{200B}-4e7a-b6c5-d4e3f2a1b0c\u{FF19} closed.";
    assert_eq!(
        hits(Kind::ForeignId, draft),
        vec!["0b5a3c2e-9d8f\u{200B}-4e7a-b6c5-d4e3f2a1b0c\u{FF19}"]
    );
}

// ---------------------------------------------------------------------------------------------
// placeholder
// ---------------------------------------------------------------------------------------------

#[test]
fn placeholders_are_found() {
    table(
        Kind::Placeholder,
        &[
            ("Dear [Customer's Name], thanks.", &["[Customer's Name]"]),
            ("Best regards,\n[Your Name]", &["[Your Name]"]),
            ("It ships on [insert date].", &["[insert date]"]),
            ("Thanks,\n[Agent Name]", &["[Agent Name]"]),
            ("Hi {first_name}, ok.", &["{first_name}"]),
            ("Hi {{customer.name}}, ok.", &["{{customer.name}}"]),
            ("Hi <NAME>, ok.", &["<NAME>"]),
            ("Hi <<name>>, ok.", &["<<name>>"]),
            ("Card ending in XXXX.", &["XXXX"]),
            ("Code xxxx-xxxx.", &["xxxx-xxxx"]),
            ("Card [XXX] declined.", &["[XXX]"]),
            ("Welcome to [Company].", &["[Company]"]),
            ("It arrives on [Date].", &["[Date]"]),
            ("Order [Order Number] shipped.", &["[Order Number]"]),
            ("Sign: ______ please.", &["______"]),
            (
                "Hi [Customer Name], order [Order Number] ships [Date].",
                &["[Customer Name]", "[Order Number]", "[Date]"],
            ),
        ],
    );
}

#[test]
fn links_asides_checkboxes_citations_and_tags_are_not_placeholders() {
    none(
        Kind::Placeholder,
        &[
            "You can [track your order](https://example.com/track) any time.",
            "Read [our guide][1] and [the FAQ][faq].",
            "The charge [the one from May] has been reversed.",
            "- [x] refund issued\n- [ ] label sent\n- [X] done",
            "This is covered in our policy [1] and [2, 3].",
            "Line one<br>line two, <b>bold</b>, <BR> and <p>text</p>.",
            "Visit <https://example.com/help>.",
            "Your card XXXX-XXXX-XXXX-1234 was refunded.",
            "We have XXL and XXXL shirts.",
            "Thanks!\n___\nAcme Support",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// intro_line
// ---------------------------------------------------------------------------------------------

#[test]
fn operator_preambles_are_found_as_the_first_line() {
    table(
        Kind::IntroLine,
        &[
            (
                "Here is a friendly reply to the customer:\n\nHi Sam, thanks for waiting.",
                &["Here is a friendly reply to the customer:"],
            ),
            (
                "Sure! Here's the response:\nHi Sam,",
                &["Sure! Here's the response:"],
            ),
            (
                "Certainly, here is a polite reply:\nHi Sam,",
                &["Certainly, here is a polite reply:"],
            ),
            (
                "Below is a draft you can send.\nHi Sam,",
                &["Below is a draft you can send."],
            ),
            (
                "I've drafted a reply below.\nHi Sam,",
                &["I've drafted a reply below."],
            ),
            ("Draft reply:\nHi Sam,", &["Draft reply:"]),
            (
                "Of course! Here's a reply you can send:\nHi Sam,",
                &["Of course! Here's a reply you can send:"],
            ),
            (
                "\n\n  Here's a polite email to the customer:  \nHi Sam,",
                &["Here's a polite email to the customer:"],
            ),
            (
                "Sure!\n\nHere's the response:\nHi Sam,",
                &["Sure!\n\nHere's the response:"],
            ),
        ],
    );
}

#[test]
fn customer_facing_openings_are_not_intro_lines() {
    none(
        Kind::IntroLine,
        &[
            "Hi Sam,\nHere is your tracking number: ORD-48213.",
            "Here is your tracking number: ORD-48213.",
            "Here is your refund confirmation, Sam. It went out today.",
            "Hello! Below you will find the steps to reset your router.",
            "Here is the email we sent you on Monday.",
            "Hi Sam,\nHere is a friendly reply to the customer:",
            "Response time: about a day.",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// email
// ---------------------------------------------------------------------------------------------

#[test]
fn email_addresses_are_found_unless_allowed() {
    table(
        Kind::Email,
        &[
            (
                "Write to jane.doe+billing@mail.example.org for help.",
                &["jane.doe+billing@mail.example.org"],
            ),
            (
                "Contact bob@corp.example.co.uk.",
                &["bob@corp.example.co.uk"],
            ),
            (
                "Write to support+vip@example.com.",
                &["support+vip@example.com"],
            ),
            ("Reach us at support@example.com.", &[]),
            ("Reach us at SUPPORT@Example.COM.", &[]),
            (
                "Write to jane at example dot com.",
                &["jane at example dot com"],
            ),
            ("Write to support (at) example (dot) com.", &[]),
            ("Mention @support on the forum.", &[]),
        ],
    );
}

#[test]
fn an_allowed_domain_covers_its_subdomains() {
    let ctx = Context::new(TICKET).unwrap().allow_email("@example.com");
    assert!(hits_with(&ctx, Kind::Email, "Mail help@eu.example.com.").is_empty());
    assert_eq!(
        hits_with(&ctx, Kind::Email, "Mail help@example.com.evil.io."),
        vec!["help@example.com.evil.io"]
    );
}

#[test]
fn an_obfuscated_address_is_found_in_the_original() {
    let draft = "Mail ｂｏｂ＠ｅｘａｍｐｌｅ．ｏｒｇ today";
    assert_eq!(
        hits(Kind::Email, draft),
        vec!["ｂｏｂ＠ｅｘａｍｐｌｅ．ｏｒｇ"]
    );
}

// ---------------------------------------------------------------------------------------------
// long_number
// ---------------------------------------------------------------------------------------------

#[test]
fn long_numbers_are_found() {
    table(
        Kind::LongNumber,
        &[
            ("Call +1 (415) 555-0132 tomorrow.", &["+1 (415) 555-0132"]),
            (
                "The card 4111 1111 1111 1111 was charged.",
                &["4111 1111 1111 1111"],
            ),
            ("Our line is 0800 123 4567.", &["0800 123 4567"]),
            ("Account 12345678 is closed.", &["12345678"]),
            ("UK: +44 (0)20 7946 0958.", &["+44 (0)20 7946 0958"]),
            ("Account ０１２３４５６７ closed.", &["０１２３４５６７"]),
        ],
    );
}

#[test]
fn amounts_dates_times_addresses_versions_and_references_are_not_long_numbers() {
    none(
        Kind::LongNumber,
        &[
            "We refunded $1,250.00 on 2024-05-01 at 10:30.",
            "It was sent on 2024-05-01 10:30:15 and on 01-05-2024.",
            "Order ORD-12345 and extension 555-0132.",
            "Order ORD-12345678 and ORD12345678.",
            "Update to version 10.2.3.4 or connect to 192.168.100.200.",
            "We refunded 12345678.90 and 1,234,567,890.",
            "Follow steps 1 2 3 4 5 6 7 8 9.",
        ],
    );
}

#[test]
fn card_numbers_that_pass_luhn_say_so() {
    let msg = messages(
        Kind::LongNumber,
        "The card 4111 1111 1111 1111 was charged.",
    );
    assert_eq!(msg.len(), 1);
    assert!(
        msg[0].contains("passes the Luhn check: looks like a card number"),
        "{}",
        msg[0]
    );
    let msg = messages(
        Kind::LongNumber,
        "The card 4111 1111 1111 1112 was charged.",
    );
    assert!(!msg[0].contains("Luhn"), "{}", msg[0]);
    let msg = messages(Kind::LongNumber, "Call +1 (415) 555-0132.");
    assert!(msg[0].contains("11 digits"), "{}", msg[0]);
    // The message never repeats the number.
    assert!(!msg[0].contains("555"), "{}", msg[0]);
}

// ---------------------------------------------------------------------------------------------
// promise
// ---------------------------------------------------------------------------------------------

#[test]
fn promises_are_found_with_the_span_on_the_phrase() {
    table(
        Kind::Promise,
        &[
            ("We guarantee a full refund.", &["guarantee"]),
            ("We cannot guarantee delivery by Friday.", &["guarantee"]),
            ("I promise it will be fixed.", &["promise"]),
            ("You will hear back within 24 hours.", &["within 24 hours"]),
            (
                "It should arrive within 3-5 business days.",
                &["within 3-5 business days"],
            ),
            (
                "Expect a reply within 24-48 hours.",
                &["within 24-48 hours"],
            ),
            ("Expect a call within an hour.", &["within an hour"]),
            ("We will reply within a few days.", &["within a few days"]),
            (
                "Your money will be refunded today.",
                &["will be refunded today"],
            ),
            ("We'll ship it immediately.", &["We'll ship it immediately"]),
            (
                "You'll have it by tomorrow.",
                &["You'll have it by tomorrow"],
            ),
            (
                "We will process it right away.",
                &["will process it right away"],
            ),
            (
                "It will go out by end of day.",
                &["will go out by end of day"],
            ),
            (
                "We guarantee it will arrive within 2 days.",
                &["guarantee", "within 2 days"],
            ),
        ],
    );
}

#[test]
fn time_words_that_commit_us_to_nothing_are_not_promises() {
    none(
        Kind::Promise,
        &[
            "Thanks for contacting us today.",
            "Please contact your bank immediately.",
            "What happened today?",
            "You can change this within the app.",
            "You will need to contact your bank immediately.",
            "If you reply today, we can help.",
            "Your refund was processed today.",
            "We won't be able to ship today.",
        ],
    );
}

#[test]
fn the_promise_note_names_what_was_promised() {
    let m = messages(Kind::Promise, "We cannot guarantee it.");
    assert!(m[0].contains("negated"), "{}", m[0]);
    let m = messages(Kind::Promise, "We reply within 2 days.");
    assert!(m[0].contains("deadline"), "{}", m[0]);
}

// ---------------------------------------------------------------------------------------------
// length
// ---------------------------------------------------------------------------------------------

#[test]
fn an_overlong_draft_spans_the_whole_draft_with_count_and_limit() {
    // Runs of spaces, tabs and a trailing newline: the span is still the whole original.
    let draft = format!("  {}\t\t\n", vec!["word"; 93].join("  "));
    let findings: Vec<Finding> = screen_with(&ctx(), &draft)
        .into_iter()
        .filter(|f| f.kind() == Kind::Length)
        .collect();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].span(), 0..draft.len());
    assert!(
        findings[0].message().contains("93 words, limit 80"),
        "{}",
        findings[0].message()
    );
}

/// The count a screen reports (made from the prefilter's masks, block by block) is the
/// definition's on texts of several blocks: tokens between blanks with a letter or digit of
/// any script, whatever they start with.
#[test]
fn the_word_count_of_a_screen_is_the_definition_across_blocks() {
    let words = [
        "the",
        "Refund",
        "42",
        "x1",
        "(and",
        "\"Hi",
        "$5",
        "--",
        "...",
        "caf\u{e9}",
        "\u{6771}\u{4eac}",
        "\u{1F44D}",
        "\u{2014}",
        "it's",
        "_",
    ];
    let seps = [" ", " ", " ", "\n", "  ", "\t", "\r\n", "\n\n"];
    let ctx = ctx().max_words(1);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..300 {
        let target = next(4_000);
        let mut draft = String::new();
        while draft.len() < target {
            draft.push_str(words[next(words.len())]);
            draft.push_str(seps[next(seps.len())]);
        }
        let want = draft
            .split(|c: char| c <= ' ')
            .filter(|t| t.chars().any(char::is_alphanumeric))
            .count();
        let got: Vec<String> = screen_with(&ctx, &draft)
            .iter()
            .filter(|f| f.kind() == Kind::Length)
            .map(|f| f.message().to_owned())
            .collect();
        if want > 1 {
            assert_eq!(got.len(), 1, "round {round}");
            assert!(
                got[0].contains(&format!("({want} words, limit 1)")),
                "round {round}: want {want}: {}",
                got[0]
            );
        } else {
            assert!(got.is_empty(), "round {round}");
        }
    }
}

#[test]
fn the_limit_comes_from_the_context_and_punctuation_is_not_a_word() {
    let draft = ["word"; 10].join(" ");
    assert!(hits(Kind::Length, &draft).is_empty());
    let ctx = ctx().max_words(9);
    assert_eq!(hits_with(&ctx, Kind::Length, &draft), vec![draft.clone()]);
    let ctx = ctx.max_words(10);
    assert!(hits_with(&ctx, Kind::Length, &format!("{draft} - & -- !")).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Whole drafts
// ---------------------------------------------------------------------------------------------

#[test]
fn realistic_clean_drafts_have_no_findings() {
    let drafts = [
        "Hi Sam,\n\nThanks for getting in touch. I've checked your order ORD-48213 and it left \
         our warehouse on 2024-05-01. You can [track your order](https://example.com/track) at \
         any time. If anything looks wrong, reply here or write to support@example.com.\n\n\
         Best,\nAna",
        "Hello Priya,\n\nSorry about the double charge. We refunded $1,250.00 to the card you \
         used; banks usually show it after a few days. Please contact your bank immediately if \
         you notice anything else. Thanks for contacting us today.\n\nKind regards,\nLeo",
        "Hi there,\n\nHere is what happened: version 10.2.3 of the app had a sync bug. Update to \
         10.2.4 from the store, then sign out and back in (Settings > Account). Call us on \
         555-0132 if it persists.\n\nThanks,\nMaya",
    ];
    for draft in drafts {
        let report = Screener::new().screen(&ctx(), draft).unwrap();
        assert!(
            report.findings().is_empty(),
            "{draft}\n{:?}",
            report.findings()
        );
    }
}

#[test]
fn a_bad_draft_reports_each_check_once() {
    let draft = format!(
        "Sure! Here's the response:\nHi [Customer Name], case {OTHER} is linked. Write to \
         bob@example.org or call +1 (415) 555-0132. We guarantee a refund within 24 hours."
    );
    let report = Screener::new().screen(&ctx(), &draft).unwrap();
    assert!(report.is_blocked());
    let mut kinds = report.kinds();
    kinds.sort();
    kinds.dedup();
    let mut want = vec![
        Kind::IntroLine,
        Kind::Placeholder,
        Kind::ForeignId,
        Kind::Email,
        Kind::LongNumber,
        Kind::Promise,
    ];
    want.sort();
    assert_eq!(kinds, want);
    assert_eq!(
        report
            .findings()
            .iter()
            .filter(|f| f.kind() == Kind::Promise)
            .count(),
        2
    );
}

#[test]
fn without_an_allowed_address_even_the_support_address_is_flagged() {
    let ctx = Context::new(TICKET).unwrap();
    assert_eq!(
        hits_with(&ctx, Kind::Email, "Write to support@example.com."),
        vec!["support@example.com"]
    );
}
