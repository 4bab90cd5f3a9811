//! `learn witness` is deterministic: on a small configuration it writes
//! the same file with 1 and with 2 worker threads — rules, their ranks and
//! their figures (expansions and modelled time saved on the filter set) —
//! apart from the header lines that name the command, the options and the
//! journal (the file holds no timing). Z3 runs under a resource limit in fresh solvers and the
//! selection's time model counts work instead of timing it.

use std::path::PathBuf;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the small configuration with `threads` worker threads and returns
/// the output file without its run-dependent header lines.
fn learn(threads: usize) -> String {
    let dir: PathBuf = std::env::temp_dir().join(format!("stratsynth-{}-witness-learn-{threads}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("learned.rules");
    let output = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args([
            "learn",
            "witness",
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
        ])
        .args(["--threads", &threads.to_string()])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "learn witness failed: {}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let varies = ["# Made by:", "# options:", "# synthesis:"];
    text.lines().filter(|l| !varies.iter().any(|v| l.starts_with(v))).collect::<Vec<_>>().join("\n")
}

#[test]
fn learn_witness_writes_the_same_file_with_one_and_two_threads() {
    let one = learn(1);
    let two = learn(2);
    // the configuration learns something, so the comparison can fail
    assert!(one.lines().any(|l| l.starts_with("def ")), "no rule to compare:\n{one}");
    assert!(one.contains("filter expansions") && one.contains("(modelled)"), "{one}");
    assert_eq!(one, two, "learn witness writes different files with 1 and 2 threads");
}
