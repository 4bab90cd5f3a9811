//! The designer's workbench end to end: `analyze --json`, `explain --html`
//! (and ownership steps in words),
//! `print --english`, and bad input (contradictory
//! clues, malformed and multicolour webpbn, an oversized board, a rule set
//! that fills a wrong cell) exiting non-zero with a clear message.

use crate::cli::temp_path as temp;
use crate::cli::{run, stderr};
use std::path::PathBuf;
use std::process::Output;

#[test]
fn analyze_json_has_the_documented_fields() {
    let out = run(&[
        "analyze",
        "specs/puzzles/nonny-heart.non",
        "specs/puzzles/hakank-difficult.non",
        "--rules",
        "rules/nonogram/control.rules",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 2);
    for p in list {
        assert_eq!(p["solutions"], 1);
        assert!(p["rules_solvable"].is_boolean());
        assert!(p["steps"].as_u64().unwrap() > 0);
        assert!(p["difficulty"].as_f64().unwrap() >= 0.0);
    }
    // hakank-difficult is not line-solvable: the player needs the oracle
    assert_eq!(list[1]["line_solvable"], false);
    assert!(list[1]["line_difficulty"].as_f64().unwrap() > 0.0);
    // the rules are weaker than the exact line solver: never easier
    assert!(list[0]["difficulty"].as_f64().unwrap() >= list[0]["line_difficulty"].as_f64().unwrap());
    assert!(list[0]["rules_fired"]["simple_boxes"].as_u64().unwrap() > 0);
    // without rules: rules_solvable is null
    let out = run(&["analyze", "specs/puzzles/nonny-heart.non", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v[0]["rules_solvable"].is_null());
    assert_eq!(v[0]["line_solvable"], true);
    assert_eq!(v[0]["difficulty"], 0.0);
}

#[test]
fn explain_draws_each_steps_line_and_the_board_once() {
    let html = temp("heart.html");
    let out = run(&[
        "explain",
        "specs/puzzles/nonny-heart.non",
        "--rules",
        "rules/nonogram/control.rules",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let steps = text.lines().filter(|l| l.starts_with("Step ")).count();
    assert!(steps > 10);
    assert!(text.contains("rule simple_boxes"));
    let page = std::fs::read_to_string(&html).unwrap();
    // one drawing of its line per step, and the board once at the end
    assert_eq!(page.matches("<section id=\"step-").count(), steps);
    assert_eq!(page.matches("<svg").count(), steps + 1);
    std::fs::remove_file(html).unwrap();
}

/// Writes `text` to a temporary file and runs `args` with `{}` replaced by its path.
fn run_on(name: &str, text: &str, args: &[&str]) -> Output {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    let shown = path.display().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("{}", &shown)).collect();
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::remove_file(path).unwrap();
    out
}

#[test]
fn bad_input_is_a_clear_error() {
    let rules = "rules/nonogram/control.rules";
    // contradictory clues: analyze reports 0 solutions and exits 1; explain refuses
    let contra = "width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n";
    let out = run_on("contra.non", contra, &["analyze", "{}", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the clues contradict each other"), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["solutions"], 0);
    let out = run_on("contra2.non", contra, &["explain", "{}", "--rules", rules]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no solution"), "{}", stderr(&out));
    // malformed webpbn: file, line and column
    let out = run_on("bad.xml", "<puzzleset>\n<puzzle>\n<clues type=\"rows\">\n</puzzleset>", &["analyze", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.xml:4:1: malformed XML"), "{}", stderr(&out));
    // multicolour webpbn
    let multi = "<puzzleset><puzzle>\n<clues type=\"columns\"><line><count>1</count></line></clues>\n\
                 <clues type=\"rows\"><line><count color=\"red\">1</count></line></clues></puzzle></puzzleset>";
    let out = run_on("multi.xml", multi, &["analyze", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("multi.xml:3:26: multicolour puzzles are not supported"), "{}", stderr(&out));
    // oversized board
    let big = format!("width 1000\nheight 1000\nrows\n{}columns\n{}", "0\n".repeat(1000), "0\n".repeat(1000));
    let out = run_on("big.non", &big, &["analyze", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at most 10000 are analysed"), "{}", stderr(&out));
    // a rule set that fills a wrong cell
    let bad = "def fill_first:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, 1)\n";
    let out = run_on("bad.rules", bad, &["explain", "specs/puzzles/nonny-heart.non", "--rules", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("rule `fill_first` is unsound"), "{}", stderr(&out));
    let out = run_on("bad2.rules", bad, &["analyze", "specs/puzzles/nonny-heart.non", "--rules", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("rule `fill_first` is unsound"), "{}", stderr(&out));
}

#[test]
fn print_english_puts_each_sentence_first_once() {
    // learned rules already carry their sentence as their comment
    let out = run(&["print", "--english", "rules/nonogram/top10.rules"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split("# cost ").skip(1).collect();
    let rules =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/nonogram/top10.rules")).unwrap();
    let count = rules.lines().filter(|l| l.starts_with("def ")).count();
    assert!(count >= 5, "only {count} rules in top10.rules");
    assert_eq!(blocks.len(), count);
    for block in blocks {
        let first = block.lines().nth(1).unwrap();
        assert!(first.starts_with("# For "), "{block}");
        assert_eq!(block.lines().filter(|l| *l == first).count(), 1, "{block}");
    }
    // hand-written rules get the sentence added
    let out = run(&["print", "--english", "rules/nonogram/control.rules"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.split("# cost ").skip(1).all(|b| b.lines().nth(1).unwrap().starts_with("# For ")));
}

/// `explain` names ownership steps in plain words: the hint a block must be
/// part of, a gap no hint can lie in.
#[test]
fn explain_names_ownership_steps_in_plain_words() {
    let rules = temp("ownership.rules");
    let text = [
        std::fs::read_to_string("rules/nonogram/control.rules").unwrap(),
        std::fs::read_to_string("rules/nonogram/ownership.rules").unwrap(),
    ]
    .join("\n");
    std::fs::write(&rules, text).unwrap();
    let out = run(&["explain", "specs/puzzles/hakank-bear.non", "--rules", rules.to_str().unwrap()]);
    let _ = std::fs::remove_file(&rules);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.contains("rule owned_block_complete")), "{text}");
    assert!(
        text.lines().any(|l| l.contains("binding: b = block at cells ") && l.contains(": it must be part of the ")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.contains("binding: g = gap at cells ") && l.contains(": no hint can lie in it")));
}
