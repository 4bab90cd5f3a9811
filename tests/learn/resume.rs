//! Batch synthesis from the command line: an interrupted `synth -o` run
//! resumed with `--resume` gives the same rule set as an uninterrupted one
//! (interrupted by truncating its journal inside a round, and by killing
//! the process once round 1 is journaled; a round is a group of entries
//! committed together, which depends on timing); a shard is deterministic, the
//! shards partition the specifications, and `merge` removes duplicates.
//!
//! Sharding changes what each run's counterexample pool holds, so merged
//! shards are not in general the unsharded rule set; that is not tested.
//!
//! Rule files are compared without their header (which names the command
//! and the output); the `# meta:` comments hold nothing that depends on
//! time or on the engine's shared caches, so they are compared too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Specifications that synthesise in about a second each.
const SPECS: &str = "\
8 | .......... | ..######..
7 | ......... | ..#####..
6 | ........ | ..####..
5 | ...... | .####.
9 | .......... | .########.
4 | ...... | ..##..
6 | .......... | ....##....
7 | .......... | ...####...
2 2 | ..... | ..x..
10 | ............ | ..########..
";

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = crate::cli::fresh_dir(name);
    std::fs::write(d.join("specs.lines"), SPECS).unwrap();
    d
}

fn synth(d: &Path, out: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_stratsynth"));
    c.current_dir(ROOT).args(["synth", "--specs"]).arg(d.join("specs.lines")).arg("-o").arg(d.join(out)).args(extra);
    c
}

fn check(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// A rule file without its header.
fn rules_text(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let body = text.split_once("\n\n").map_or("", |(_, b)| b);
    assert!(!body.is_empty(), "{}: no rules", path.display());
    body.to_string()
}

/// The names of the rules of a file.
fn names(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    parse_rules(&text, &path.display().to_string(), &Schema::nonogram()).unwrap().into_iter().map(|r| r.name).collect()
}

/// The journal's text up to and including the line `Round(n)` (the run
/// record alone for round 0).
fn through_round(journal: &str, n: usize) -> String {
    if n == 0 {
        return journal[..journal.find('\n').unwrap() + 1].to_string();
    }
    let marker = format!("\nRound({n})\n");
    let at = journal.find(&marker).unwrap_or_else(|| panic!("no round {n} in the journal"));
    journal[..at + marker.len()].to_string()
}

#[test]
fn an_interrupted_run_resumes_to_the_same_rules() {
    let d = dir("resume");
    check(synth(&d, "full.rules", &[]).output().unwrap());
    let full = rules_text(&d.join("full.rules"));
    let journal = std::fs::read_to_string(d.join("full.rules.journal")).unwrap();
    let records = |text: &str| text.lines().filter(|l| l.starts_with("Done(") || l.starts_with("Skipped(")).count();
    assert_eq!(records(&journal), SPECS.lines().count());

    // interrupted inside round 2 (or inside round 1, if the run committed
    // everything at once): whole rounds, one record of the next, a torn line
    let whole = usize::from(journal.contains("\nRound(2)\n"));
    let kept = through_round(&journal, whole);
    let rest = &journal[kept.len()..];
    let (record, _) = rest.split_once('\n').unwrap();
    let torn = format!("{kept}{record}\n{}", &record[..record.len() / 2]);
    std::fs::write(d.join("cut.rules.journal"), torn).unwrap();
    let out = check(synth(&d, "cut.rules", &["--resume"]).output().unwrap());
    if whole == 1 {
        let replayed = format!("{} specifications in 1 rounds replayed", records(&kept));
        assert!(String::from_utf8_lossy(&out.stderr).contains(&replayed), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(rules_text(&d.join("cut.rules")), full);
    // the journal was cut back to its whole rounds and the rest written again
    let resumed = std::fs::read_to_string(d.join("cut.rules.journal")).unwrap();
    assert!(resumed.starts_with(&kept) && resumed.trim_end().rsplit('\n').next().unwrap().starts_with("Round("));
    assert_eq!(records(&resumed), records(&journal));

    // killed once round 1 is in the journal
    let mut child = synth(&d, "killed.rules", &[]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let journal_path = d.join("killed.rules.journal");
    let started = Instant::now();
    while !std::fs::read_to_string(&journal_path).unwrap_or_default().contains("\nRound(1)\n") {
        assert!(started.elapsed() < Duration::from_secs(120), "round 1 never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // without --resume the journal is not overwritten
    let refused = synth(&d, "killed.rules", &[]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pass --resume"));
    check(synth(&d, "killed.rules", &["--resume"]).output().unwrap());
    assert_eq!(rules_text(&d.join("killed.rules")), full);

    // a journal of other specifications is refused
    std::fs::write(d.join("specs.lines"), SPECS.replace("7 | ......... | ..#####..", "7 | ........ | .######."))
        .unwrap();
    let other = synth(&d, "full.rules", &["--resume"]).output().unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("made by another run"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn shards_are_deterministic_and_merge_deduplicates() {
    let d = dir("shards");
    let shard = |out: &str, s: &str| check(synth(&d, out, &["--shard", s]).output().unwrap());
    shard("s0.rules", "0/2");
    shard("s1.rules", "1/2");
    shard("s0again.rules", "0/2");
    assert_eq!(rules_text(&d.join("s0.rules")), rules_text(&d.join("s0again.rules")));
    // shard i runs the specifications i, i+2, ...: rule names spec<N>_k with N-1 = i mod 2
    for (file, parity) in [("s0.rules", 1), ("s1.rules", 0)] {
        for name in names(&d.join(file)) {
            let n: usize = name.trim_start_matches("spec").split('_').next().unwrap().parse().unwrap();
            assert_eq!(n % 2, parity, "{name} in {file}");
        }
    }
    let merge = |out: &str, inputs: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_stratsynth"));
        c.current_dir(ROOT).arg("merge");
        for i in inputs {
            c.arg(d.join(i));
        }
        check(c.arg("-o").arg(d.join(out)).output().unwrap());
        names(&d.join(out))
    };
    let merged = merge("m.rules", &["s0.rules", "s1.rules"]);
    // merging a shard twice changes nothing
    assert_eq!(merge("m2.rules", &["s0.rules", "s1.rules", "s0.rules"]), merged);
    // every merged rule comes from a shard; equal rules of the two shards are kept once
    let s0 = names(&d.join("s0.rules"));
    let s1 = names(&d.join("s1.rules"));
    assert!(merged.iter().all(|n| s0.contains(n) || s1.contains(n)));
    assert!(merged.len() < s0.len() + s1.len(), "the big-hint rule is found in both shards");
    // merge refuses a file without the bound of every rule
    let bad = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["merge", "rules/nonogram/control.rules", "-o"])
        .arg(d.join("bad.rules"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("has no `# meta:` comment"));
    std::fs::remove_dir_all(&d).unwrap();
}
