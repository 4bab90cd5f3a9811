//! `learn nonogram` is deterministic: on a small configuration (a few
//! short training lines, a slice of the bundled traces as the test set) it
//! writes byte-identical rule text, comment lines aside, with 1 and with 2
//! worker threads, even where Z3 runs out of its resource limit. Z3 runs with a resource limit in fresh solvers, so the
//! answers depend only on the queries, not on timing or thread schedule.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh directory in the temporary directory.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stratsynth-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The rule text of a rule file: every line but comments.
fn rule_text(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n")
}

/// Runs the small learning configuration with `threads` worker threads
/// and returns the rule text of `learned.rules` and `top3.rules`.
fn learn(tests: &Path, threads: usize) -> (String, String) {
    let out = temp(&format!("learn-threads-{threads}"));
    let output = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        // a low resource limit: some proofs run out (and are lost) the same way every time
        .args(["learn", "nonogram", "--sample", "3", "--max-len", "4", "--seed", "1", "-k", "3", "--all-specs", "--rlimit", "30000000"])
        .arg("--tests")
        .arg(tests)
        .arg("--out-dir")
        .arg(&out)
        .args(["--threads", &threads.to_string()])
        .output()
        .unwrap();
    assert!(output.status.success(), "learn failed: {}", String::from_utf8_lossy(&output.stderr));
    let texts = (rule_text(&out.join("learned.rules")), rule_text(&out.join("top3.rules")));
    std::fs::remove_dir_all(&out).unwrap();
    texts
}

#[test]
fn learn_writes_the_same_rules_with_one_and_two_threads() {
    let dir = temp("learn-tests");
    let traces = std::fs::read_to_string(Path::new(ROOT).join("specs/nonogram/traces.lines")).unwrap();
    let tests = dir.join("tests.lines");
    std::fs::write(&tests, traces.lines().take(400).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let one = learn(&tests, 1);
    let two = learn(&tests, 2);
    std::fs::remove_dir_all(&dir).unwrap();
    // the configuration learns something, so the comparison can fail
    assert!(one.0.lines().filter(|l| l.starts_with("def ")).count() >= 2, "too few rules to compare:\n{}", one.0);
    assert_eq!(one.0, two.0, "learned.rules differs between 1 and 2 threads");
    assert_eq!(one.1, two.1, "top3.rules differs between 1 and 2 threads");
}
