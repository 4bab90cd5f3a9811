//! `learn nonogram --shards N`: the shards and their merge are
//! deterministic (the same merged rule files whatever the order the shards
//! ran in and their thread counts), a merge refuses missing shards before
//! writing anything, and a shard out of range is refused.

use std::path::Path;
use std::process::{Command, Output};

mod cli;

use cli::{fresh_dir as temp, ROOT};

/// `learn nonogram` on a small configuration into `out`, with `extra` options.
fn learn(out: &Path, tests: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args([
            "learn",
            "nonogram",
            "--sample",
            "4",
            "--max-len",
            "3",
            "--seed",
            "1",
            "-k",
            "3",
            "--augment",
            "2",
            "--shards",
            "2",
        ])
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
