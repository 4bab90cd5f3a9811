//! `learn flow` is deterministic and resumable: on a small configuration
//! (three training puzzles of `specs/flow/made.flow`, three held-out ones
//! of `specs/flow/dev.flow`) it writes the same `learned.rules` and
//! `top10.rules` with 1 and with 2 worker threads, apart from the header
//! lines that name the command, the options and the journal (and the
//! out-dir, which the top-K file names); run again
//! with `--resume` on its finished journal it writes the same files
//! without synthesising anything; and the rules it writes are proven
//! again by `verify` at the bound the header states. With `--stuck` it
//! mines more slots (the open ones where the control rules are stuck)
//! and says so in its header.

use crate::cli::fresh_dir as scratch;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header lines that name the command, options and journal.
const VARIES: [&str; 3] = ["# stratsynth learn", "# options:", "# synthesis:"];

/// The first `n` puzzles of a bundled `.flow` file (its blocks between
/// blank lines; `skip` blocks of comments first), as a file in `dir`.
fn first(file: &str, skip: usize, n: usize, dir: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    let path = dir.join(name);
    std::fs::write(&path, blocks[skip..skip + n].join("\n\n") + "\n").unwrap();
    path.display().to_string()
}

/// Runs `learn flow ARGS --threads N --out-dir OUT`: its standard output
/// and the two rule files.
fn learn(args: &[&str], threads: usize, out: &Path) -> (String, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["learn", "flow"])
        .args(args)
        .args(["--threads", &threads.to_string()])
        .arg("--out-dir")
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.success(), "learn flow failed: {}", String::from_utf8_lossy(&output.stderr));
    // the top-K file names the learned file by its path: the out-dir read as `OUT`
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap().replace(&out.display().to_string(), "OUT");
    (String::from_utf8_lossy(&output.stdout).into_owned(), read("learned.rules"), read("top10.rules"))
}

/// `text` without the run-dependent header lines.
fn steady(text: &str) -> String {
    text.lines().filter(|l| !VARIES.iter().any(|v| l.starts_with(v))).collect::<Vec<_>>().join("\n")
}

#[test]
fn learn_flow_writes_the_same_files_with_one_and_two_threads_and_resumes() {
    let dir = scratch("flow-learn");
    let train = first("specs/flow/made.flow", 0, 3, &dir, "train.flow");
    let test = first("specs/flow/dev.flow", 1, 3, &dir, "test.flow");
    let args =
        ["--train", &train, "--test", &test, "--max-specs", "3", "--window", "3", "--bound", "3", "--screen", "3"];
    let (_, learned, top) = learn(&args, 1, &dir.join("one"));
    let (_, learned2, top2) = learn(&args, 2, &dir.join("two"));
    // the configuration learns something, so the comparison can fail
    assert!(learned.lines().any(|l| l.starts_with("def ")), "no rule to compare:\n{learned}");
    assert!(top.contains("control") && top.contains("learned top 10"), "{top}");
    assert_eq!(steady(&learned), steady(&learned2), "learned.rules differs with 1 and 2 threads");
    assert_eq!(steady(&top), steady(&top2), "top10.rules differs with 1 and 2 threads");
    // resumed on the finished journal: nothing synthesised, the same files
    let resumed: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let (out, learned3, top3) = learn(&resumed, 2, &dir.join("two"));
    assert!(out.contains("synthesis this process: 0 in"), "{out}");
    assert_eq!(steady(&learned3), steady(&learned2));
    assert_eq!(steady(&top3), steady(&top2));
    // every rule written is proven again by `verify` at the stated bound
    assert!(learned.contains("sound on every Flow board up to 3x3"), "{learned}");
    let verify = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .arg("verify")
        .arg(dir.join("one/learned.rules"))
        .args(["--bound", "3"])
        .output()
        .unwrap();
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The slots mined, from the header line of the mined specifications.
fn mined(learned: &str) -> usize {
    let line = learned.lines().find(|l| l.starts_with("# window specifications")).expect("the mined line");
    let tried = line.split(" states met, ").nth(1).unwrap().split(' ').next().unwrap();
    tried.parse().unwrap()
}

#[test]
fn learn_flow_stuck_also_mines_the_open_slots_where_the_rules_are_stuck() {
    let dir = scratch("flow-learn-oracle-states");
    let train = first("specs/flow/made.flow", 0, 2, &dir, "train.flow");
    let test = first("specs/flow/dev.flow", 1, 2, &dir, "test.flow");
    let args =
        ["--train", &train, "--test", &test, "--max-specs", "2", "--window", "3", "--bound", "3", "--screen", "3"];
    let (_, plain, _) = learn(&args, 2, &dir.join("plain"));
    let stuck_args: Vec<&str> = args.iter().copied().chain(["--stuck"]).collect();
    let (_, stuck, _) = learn(&stuck_args, 2, &dir.join("stuck"));
    assert!(!plain.contains("stuck:") && !plain.contains("where the rules were stuck"), "{plain}");
    assert!(stuck.contains("stuck:true") && stuck.contains("or open where the rules were stuck"), "{stuck}");
    // the second training puzzle needs the oracle (76.86 bits): its stuck
    // states have many open slots besides the ones the oracle revealed
    assert!(mined(&stuck) > mined(&plain) + 50, "{} {}", mined(&stuck), mined(&plain));
    std::fs::remove_dir_all(&dir).unwrap();
}
