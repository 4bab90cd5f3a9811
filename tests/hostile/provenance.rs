//! Provenance and concurrency (issue 30, items 2 and 5), driving the
//! binary: `merge` proves the rules it writes instead of trusting their
//! `# meta:` comments, and a second run on a journal another run holds is
//! refused instead of corrupting it.

use crate::cli::{fails, run, stderr, write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A `# meta:` comment claiming a proof up to 30 cells.
const META: &str = "# meta: (spec:\"3 | ..... | ..#..\",cost:9,bound:30,time_ms:1)";

#[test]
fn merge_proves_what_a_comment_claims() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.rules").display().to_string();
    // a hand-written comment before an unsound rule
    let forged = format!(
        "{META}\ndef fills_all:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, size(h))\n"
    );
    let forged = write(dir.path(), "forged.rules", forged);
    fails(&run(&["merge", &forged, "-o", &out]), 2, "forged.rules: rule `fills_all` is UNSOUND on ");
    assert!(!dir.path().join("m.rules").exists());
    // a real synth output with one fill edited
    let synth = dir.path().join("s.rules").display().to_string();
    let made = run(&["synth", "--spec", "8 | .......... | ..######..", "--bound", "12", "-o", &synth]);
    assert!(made.status.success(), "{}", stderr(&made));
    let text = std::fs::read_to_string(&synth).unwrap();
    let ok = run(&["merge", &synth, "-o", &out]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let then = text.lines().find(|l| l.trim_start().starts_with("then fill(true")).expect("a fill").to_string();
    let edited = write(dir.path(), "edited.rules", text.replace(&then, "    then fill(true, 0, line_size)"));
    fails(&run(&["merge", &edited, "-o", &out]), 2, "edited.rules: rule `");
    assert!(stderr(&run(&["merge", &edited, "-o", &out])).contains("is UNSOUND on"));
}

#[test]
fn a_journal_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let specs = write(
        dir.path(),
        "specs.lines",
        "8 | .......... | ..######..\n7 | ......... | ..#####..\n6 | ........ | ..####..\n5 | ...... | .####.\n9 | .......... | .########.\n",
    );
    let out = dir.path().join("o.rules").display().to_string();
    let journal = dir.path().join("o.rules.journal");
    let mut first = Command::new(crate::cli::BIN)
        .args(["synth", "--specs", &specs, "-o", &out, "--resume"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !journal.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = run(&["synth", "--specs", &specs, "-o", &out, "--resume"]);
    let finished_first = first.try_wait().unwrap().is_some();
    let _ = first.kill();
    first.wait().unwrap();
    if finished_first {
        crate::cli::skipped("the first run ended before the second started: nothing to test on this machine");
        return;
    }
    fails(&second, 2, "o.rules.journal is in use by another run (it holds the journal's lock)");
    // the lock goes with the killed run: resuming now works and finishes
    let resumed = run(&["synth", "--specs", &specs, "-o", &out, "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
}
