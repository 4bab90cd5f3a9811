//! `learn witness` is deterministic: on small configurations it writes
//! the same file with 1 and with 2 worker threads — rules, their ranks and
//! their figures (expansions and modelled time saved on the filter set) —
//! apart from the header lines that name the command, the options and the
//! journals (the file holds no timing). Z3 runs under a resource limit in fresh solvers and the
//! selection's time model counts work instead of timing it. Over marks and
//! dots (`--constraints`, a mix of two lists, with augmentation), every
//! rule written is sound: `verify` proves it again at the stated bound;
//! and a wrong rule planted in the journal (its check recomputed, so the
//! journal reads back unchanged) does not enter the set.

use crate::cli::fresh_dir as scratch;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header lines that name the command, options and journals.
const VARIES: [&str; 4] = ["# Made by:", "# options:", "# synthesis:", "# augmented:"];

/// A small run over marks and dots: 3x3 puzzles, selection by expansions,
/// proofs at bound 3.
const SMALL_MARKS: [&str; 16] = [
    "--constraints",
    "colours,stars,dots",
    "--sizes",
    "3x3",
    "--train",
    "2",
    "--filter",
    "20",
    "--max-specs",
    "2",
    "--select-by",
    "expansions",
    "--bound",
    "3",
    "-k",
    "4",
];

/// Runs `learn witness ARGS --threads N -o OUT` and returns the whole file.
fn learn(args: &[&str], threads: usize, out: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["learn", "witness"])
        .args(args)
        .args(["--threads", &threads.to_string()])
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.success(), "learn witness failed: {}", String::from_utf8_lossy(&output.stderr));
    std::fs::read_to_string(out).unwrap()
}

/// `text` without the run-dependent header lines.
fn steady(text: &str) -> String {
    text.lines().filter(|l| !VARIES.iter().any(|v| l.starts_with(v))).collect::<Vec<_>>().join("\n")
}

/// The files `args` writes with 1 and with 2 threads, in `dir`.
fn both(args: &[&str], dir: &Path) -> (String, String) {
    (learn(args, 1, &dir.join("one.rules")), learn(args, 2, &dir.join("two.rules")))
}

#[test]
fn learn_witness_writes_the_same_file_with_one_and_two_threads() {
    let dir = scratch("witness-learn");
    let args = [
        "--sizes",
        "3x3..4x4",
        "--train",
        "3",
        "--filter",
        "30",
        "--max-specs",
        "8",
        "--rlimit",
        "30000000",
        "-k",
        "3",
    ];
    let (one, two) = both(&args, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
    let (one, two) = (steady(&one), steady(&two));
    // the configuration learns something, so the comparison can fail
    assert!(one.lines().any(|l| l.starts_with("def ")), "no rule to compare:\n{one}");
    assert!(one.contains("filter expansions") && one.contains("(modelled)"), "{one}");
    assert_eq!(one, two, "learn witness writes different files with 1 and 2 threads");
}

/// Over separation squares, stars and dots, with augmentation and
/// selection by expansions: the same file with 1 and 2 threads, a rule
/// over marks among those written (here a star with no partner left,
/// learned from an augmented specification), and every rule proven again
/// by `verify` at the bound the header states.
#[test]
fn learn_witness_over_marks_writes_sound_rules_deterministically() {
    let dir = scratch("witness-learn-marks");
    let args = [&SMALL_MARKS[..], &["--constraints", "colours:3", "--augment", "6"]].concat();
    let (one, two) = both(&args, &dir);
    assert_eq!(steady(&one), steady(&two), "learn witness --constraints writes different files with 1 and 2 threads");
    assert!(one.starts_with("# Learned Witness pruning rules, each proven sound by Z3 for every puzzle up to 3x3."));
    assert!(one.contains("\n# augmented: ") && !one.contains("also saves modelled search time"), "{one}");
    let rules = one.lines().filter(|l| l.starts_with("def ")).count();
    assert!(one.contains("arbitrary(mark)"), "no rule over marks learned:\n{one}");
    let verify = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["verify", "--bound", "3"])
        .arg(dir.join("one.rules"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stdout).to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(verify.status.success(), "{said}{}", String::from_utf8_lossy(&verify.stderr));
    assert_eq!(said.lines().filter(|l| l.ends_with(": sound up to 3")).count(), rules, "{said}");
}

/// A forger rewrites a rule record of the journal to a wrong rule (the
/// path pruned while the goal can still be reached) and recomputes its
/// check, so `--resume` replays it as it reads; it would be selected (it
/// saves expansions by losing every solution), but `learn witness` proves
/// the selection again before writing, so the run fails and writes
/// nothing.
#[test]
fn a_wrong_rule_planted_in_the_journal_does_not_enter_the_set() {
    use crate::shards::forge_first_rule;
    let dir = scratch("witness-learn-planted");
    let out = dir.join("planted.rules");
    let args = SMALL_MARKS;
    let first = learn(&args, 2, &out);
    assert!(!first.contains("goal_reachable = 1"), "{first}");
    let journal = dir.join("planted.rules.journal");
    let text = std::fs::read_to_string(&journal).unwrap();
    let forged = forge_first_rule(&text, |rule| {
        let condition = rule.find("\n    if ").expect("a condition") + 1;
        let then = rule.find("\n    then ").expect("an action");
        format!("{}    if goal_reachable = 1:{}", &rule[..condition], &rule[then..])
    });
    std::fs::write(&journal, forged).unwrap();
    let resumed = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["learn", "witness"])
        .args(args)
        .args(["--threads", "2", "--resume", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(2), "{err}");
    assert!(err.contains("of the selection is unsound at bound 3") && err.contains("nothing written"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first, "the rule file was written");
    assert!(!String::from_utf8_lossy(&resumed.stdout).contains("goal_reachable = 1"));
    std::fs::remove_dir_all(&dir).unwrap();
}
