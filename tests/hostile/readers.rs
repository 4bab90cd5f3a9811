//! Hostile input to the readers (issue 30, items 3, 4, 6 and the input
//! cap of item 11), driving the binary: CR-only and CRLF files read as LF
//! ones; a rule file without rules is an error for `check`, `verify` and
//! `cover`; an expression too large for exact 64-bit arithmetic is refused
//! where it starts, and one just inside is evaluated exactly; webpbn entity
//! declarations are refused; an endless input is cut off, not read whole.

use crate::cli::{fails, repo, run, stderr, write};
use std::process::Command;

/// An unsound rule (a hint of any size fills the whole line's start).
const UNSOUND: &str = "# fills too much\ndef too_much:\n    with h = arbitrary(hint):\n    if size(h) > 0:\n    then fill(true, 0, line_size)\n";

#[test]
fn cr_crlf_and_lf_rule_files_read_alike() {
    let dir = tempfile::tempdir().unwrap();
    let lines = repo("specs/nonogram/traces.lines");
    for (name, ending) in [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")] {
        let path = write(dir.path(), &format!("{name}.rules"), UNSOUND.replace('\n', ending));
        let check = run(&["check", &path, "--max-n", "4"]);
        assert_eq!(check.status.code(), Some(1), "{name}: {}", stderr(&check));
        assert!(String::from_utf8_lossy(&check.stdout).contains("too_much: UNSOUND"), "{name}");
        let verify = run(&["verify", &path, "--bound", "4"]);
        assert_eq!(verify.status.code(), Some(1), "{name}: {}", stderr(&verify));
        fails(&run(&["cover", "--rules", &path, "--lines", &lines]), 2, "rule `too_much` is unsound");
    }
    // a CR-only puzzle and test set too
    let heart = std::fs::read_to_string(repo("specs/puzzles/nonny-heart.non")).unwrap();
    let puzzle = write(dir.path(), "heart.non", heart.replace('\n', "\r"));
    let solved = run(&["solve", &puzzle]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let tests =
        write(dir.path(), "t.lines", "# HINTS | START | TARGET\r8 | .......... | ..######..\r3 | ..... | ..#..\r");
    let covered = run(&["cover", "--rules", &repo("rules/nonogram/control.rules"), "--lines", &tests]);
    assert!(String::from_utf8_lossy(&covered.stdout).starts_with("2 transitions"), "{}", stderr(&covered));
}

#[test]
fn a_file_without_rules_is_an_error_where_rules_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let lines = repo("specs/nonogram/traces.lines");
    for text in ["", "# only a comment\n", "# a comment run on by CRs\r\rdef"[..18].to_string().as_str()] {
        let path = write(dir.path(), "none.rules", text);
        for args in [
            vec!["check", &path, "--max-n", "4"],
            vec!["verify", &path],
            vec!["cover", "--rules", &path, "--lines", &lines],
        ] {
            fails(&run(&args), 2, "none.rules: no rules in this file; nothing to check");
        }
    }
}

/// `k * (k * (... x ...))`, `depth` times.
fn nested(k: &str, depth: usize, x: &str) -> String {
    (0..depth).fold(x.to_string(), |inner, _| format!("{k} * ({inner})"))
}

#[test]
fn integer_expressions_are_bounded_for_exact_arithmetic() {
    let dir = tempfile::tempdir().unwrap();
    // 2^40 * (2^31 - 1): wrapped, the first condition was false and the
    // second true, so an unsound rule passed and a false condition fired
    let huge = nested("2", 40, "2147483647");
    for (name, cond) in [("wraps", format!("{huge} < 0")), ("mirror", format!("0 - {huge} > 0"))] {
        let rule =
            format!("def {name}:\n    with h = arbitrary(hint):\n    if {cond}:\n    then fill(true, 0, line_size)\n");
        let path = write(dir.path(), &format!("{name}.rules"), rule);
        // refused at the outermost `2 * (` of the first 2^32 * (2^31 - 1)
        let column = if name == "wraps" { 8 } else { 12 } + 8 * "2 * (".len();
        let message = format!(
            "{name}.rules:3:{column}: integer expression too large: it may reach 2^63 in magnitude (at most 2^62"
        );
        for args in [vec!["check", &path, "--max-n", "6"], vec!["verify", &path], vec!["print", &path]] {
            fails(&run(&args), 2, &message);
        }
    }
    // 2^62 exactly is read, and evaluated exactly: the condition holds, so
    // the unsound fill is found by the interpreter and by Z3 alike
    let edge = format!(
        "def edge:\n    with h = arbitrary(hint):\n    if {} > 0:\n    then fill(true, 0, line_size)\n",
        nested("2", 32, "1073741824")
    );
    let path = write(dir.path(), "edge.rules", edge);
    for args in [vec!["check", &path, "--max-n", "4"], vec!["verify", &path, "--bound", "4"]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(String::from_utf8_lossy(&out.stdout).contains("edge: UNSOUND"), "{args:?}");
    }
    // a feature counts as 2^31: (2^31 - 1) * size(h) is read, twice it is not
    let scaled = "def scaled:\n    with h = arbitrary(hint):\n    if 2147483647 * size(h) + 2147483647 * size(h) > 0:\n    then fill(true, 0, 0)\n";
    fails(
        &run(&["print", &write(dir.path(), "scaled.rules", scaled)]),
        2,
        "scaled.rules:3:8: integer expression too large",
    );
}

#[test]
fn webpbn_entity_declarations_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(50_000);
    let refs = "&e;".repeat(50_000);
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE pbn [\n  <!ENTITY e \"{long}\">\n]>\n<puzzleset><puzzle><title>{refs}</title></puzzle></puzzleset>\n"
    );
    let path = write(dir.path(), "bomb.xml", xml);
    let started = std::time::Instant::now();
    fails(&run(&["analyze", &path]), 2, "bomb.xml:3:3: entity declarations are not read");
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn an_endless_input_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    // the device numbers of /dev/zero, on a node made here (needs root)
    let zero = dir.path().join("zero");
    if !Command::new("mknod").arg(&zero).args(["c", "1", "5"]).status().is_ok_and(|s| s.success()) {
        crate::cli::skipped("not root: the endless-device case");
        return;
    }
    let out = run(&["print", &zero.display().to_string()]);
    fails(&out, 2, "zero: larger than 268435456 bytes, the most the tool reads from one input");
}
