//! `learn nonogram --shards N`: the shards and their merge are
//! deterministic (the same merged rule files whatever the order the shards
//! ran in and their thread counts), a merge refuses missing shards before
//! writing anything, and a shard out of range is refused.

use std::path::Path;
use std::process::{Command, Output};

use crate::cli::{fresh_dir as temp, ROOT};

/// The small configuration of `learn nonogram` the shards run on.
const SMALL: [&str; 12] =
    ["--sample", "4", "--max-len", "3", "--seed", "1", "-k", "3", "--augment", "2", "--shards", "2"];

/// `learn nonogram` on a small configuration into `out`, with `extra` options.
fn learn(out: &Path, tests: &Path, extra: &[&str]) -> Output {
    learn_on(&SMALL, out, tests, extra)
}

/// `learn nonogram` with `config` (options) and the test set `tests` into
/// `out`, with `extra` options.
fn learn_on(config: &[&str], out: &Path, tests: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["learn", "nonogram"])
        .args(config)
        .arg("--tests")
        .arg(tests)
        .arg("--out-dir")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn check(out: Output) -> Output {
    assert!(out.status.success(), "learn failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// A rule file without its header (which names the command and the out-dir).
fn body(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split_once("\n\n").map_or(String::new(), |(_, b)| b.to_string())
}

#[test]
fn merged_shards_are_deterministic() {
    let dir = temp("learn-shards");
    let traces = std::fs::read_to_string(Path::new(ROOT).join("specs/nonogram/traces.lines")).unwrap();
    let tests = dir.join("tests.lines");
    std::fs::write(&tests, traces.lines().take(400).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let (a, b) = (dir.join("a"), dir.join("b"));

    // a merge before every shard ran is refused, and writes nothing
    check(learn(&a, &tests, &["--shard", "0", "--threads", "1"]));
    let early = learn(&a, &tests, &["--merge"]);
    assert_eq!(early.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&early.stderr).contains("shard 1 of 2 has not run"),
        "{}",
        String::from_utf8_lossy(&early.stderr)
    );
    assert!(!a.join("learned.journal").exists() && !a.join("learned.rules").exists());
    check(learn(&a, &tests, &["--shard", "1", "--threads", "1"]));
    check(learn(&a, &tests, &["--merge", "--threads", "1"]));

    // the other order, on two threads
    check(learn(&b, &tests, &["--shard", "1", "--threads", "2"]));
    check(learn(&b, &tests, &["--shard", "0", "--threads", "2"]));
    check(learn(&b, &tests, &["--merge", "--threads", "2"]));
    for file in ["shard-0-of-2.rules", "shard-1-of-2.rules", "learned.rules", "top3.rules"] {
        let (x, y) = (body(&a.join(file)), body(&b.join(file)));
        assert!(x.contains("def "), "{file}: no rules");
        assert_eq!(x, y, "{file} differs between the two runs");
    }
    // a merge resumed from its finished journal writes the same rules
    check(learn(&b, &tests, &["--merge", "--resume"]));
    assert_eq!(body(&a.join("learned.rules")), body(&b.join("learned.rules")));

    let out_of_range = learn(&a, &tests, &["--shard", "2"]);
    assert_eq!(out_of_range.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out_of_range.stderr).contains("--shard 2: expected a shard of 0 to 1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` (a journal) with its first rule record's text replaced by
/// `forge` of it and its check recomputed (a checksum, not a signature),
/// so the journal reads back unchanged: what a forger does.
pub(crate) fn forge_first_rule(text: &str, forge: impl Fn(&str) -> String) -> String {
    let at = text.find("rules:[(text:\"").expect("a rule record") + "rules:[(text:\"".len();
    let (rule, end) = ron_string(text, at);
    let tail = &text[end..];
    let fields = tail.find(",check:\"").unwrap();
    let num = |key: &str| tail[..fields].split(key).nth(1).unwrap().split(',').next().unwrap().to_string();
    let (cost, bound) = (num("cost:"), num("bound:"));
    let (_, check_end) = ron_string(tail, fields + ",check:\"".len());
    let forged = forge(&rule);
    let check = stratsynth::pipeline::journal::fingerprint(&[format!("cost {cost}, bound {bound}"), forged.clone()]);
    format!("{}{}{},check:\"{check}{}", &text[..at], ron_literal(&forged), &tail[..fields], &tail[check_end..])
}

/// The text of the RON string starting at `at` (after its quote) and where
/// it ends (at its closing quote).
fn ron_string(line: &str, at: usize) -> (String, usize) {
    let (mut text, mut chars) = (String::new(), line[at..].char_indices());
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (text, at + i),
            '\\' => match chars.next().map(|(_, e)| e) {
                Some('n') => text.push('\n'),
                Some(e) => text.push(e),
                None => break,
            },
            c => text.push(c),
        }
    }
    panic!("unterminated string in {line}")
}

/// The RON string literal of `text`.
fn ron_literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[test]
fn a_merge_proves_every_rule_it_writes() {
    let dir = temp("learn-forged-shard");
    let traces = std::fs::read_to_string(Path::new(ROOT).join("specs/nonogram/traces.lines")).unwrap();
    let tests = dir.join("tests.lines");
    std::fs::write(&tests, traces.lines().take(400).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let out = dir.join("o");
    let tiny = ["--sample", "1", "--max-len", "2", "-k", "1", "--augment", "0", "--shards", "1"];
    let learn = |extra: &[&str]| learn_on(&tiny, &out, &tests, extra);
    check(learn(&["--shard", "0"]));
    // a forger edits a rule's action and recomputes its check (a
    // checksum, not a signature), so the journal reads back unchanged
    let journal = out.join("shard-0-of-1.journal");
    let text = std::fs::read_to_string(&journal).unwrap();
    // sound on every line of the test set (none has a hint of 29), unsound
    // on a hint of 29 in 30 cells that starts at cell 1
    let forged = forge_first_rule(&text, |rule| {
        let name_end = rule.find("def ").expect("a def") + rule[rule.find("def ").unwrap()..].find(":\n").unwrap() + 2;
        format!(
            "{}    with h = arbitrary(hint):\n    if size(h) = 29 and earliest_start(h) = 0:\n    then fill(true, 0, 29)\n",
            &rule[..name_end]
        )
    });
    std::fs::write(&journal, forged).unwrap();
    let merged = learn(&["--merge"]);
    let err = String::from_utf8_lossy(&merged.stderr);
    assert_eq!(merged.status.code(), Some(2), "{err}");
    assert!(err.contains("shard-0-of-1.journal: rule `") && err.contains("is UNSOUND on "), "{err}");
    assert!(err.contains("the merge proves every rule it writes with Z3 and wrote none"), "{err}");
    assert!(!out.join("learned.rules").exists() && !out.join("top1.rules").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
