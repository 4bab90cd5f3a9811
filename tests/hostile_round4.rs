//! Hostile input, round four, on the command line: long Witness commands
//! end with their `--timeout` (the exact solvability checks included),
//! and the small defects of the round stay fixed.

use serde_json::json;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_stratsynth");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `stratsynth ARGS` in the source tree: its output and wall time.
fn run(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let out = Command::new(BIN).args(args).current_dir(ROOT).output().unwrap();
    (out, started.elapsed())
}

/// An 8x8 puzzle with a dot on every vertex, the goal at `goal`: with
/// (8, 1) no solution, and proving it is a search of every Hamiltonian path.
fn dots(dir: &std::path::Path, goal: (usize, usize)) -> String {
    let dots: Vec<String> = (0..=8).flat_map(|x| (0..=8).map(move |y| format!("({x}, {y})"))).collect();
    let file = dir.join(format!("dots-{}-{}.ron", goal.0, goal.1));
    let text = format!(
        "[\n    (width: 8, height: 8, start: (0, 0), goal: ({}, {}), dots: [{}]),\n]\n",
        goal.0,
        goal.1,
        dots.join(", ")
    );
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn witness_generate_ends_with_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let base = dots(dir.path(), (8, 1));
    let out = dir.path().join("g.ron");
    let (output, took) = run(&[
        "witness",
        "generate",
        "--base",
        &base,
        "--at",
        "0,0",
        "1,1",
        "--timeout",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("16 not judged within --timeout 2 s"), "{stdout}");
    assert!(took < Duration::from_millis(3000), "--timeout 2 ended after {took:?}");
}

#[test]
fn witness_bench_takes_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dots(dir.path(), (8, 8));
    let args = ["witness", "bench", "--puzzles", &puzzles, "--rules", "rules/witness/learned.rules"];
    let (output, took) = run(&[&args[..], &["--repeat", "1", "--timeout", "2"]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--timeout 2 s ran out: 2 searches stopped"), "{stderr}");
    assert!(took < Duration::from_millis(3000), "--timeout 2 ended after {took:?}");
}

#[test]
fn the_complete_solver_stops_at_its_memory_and_says_memory() {
    let p200 = "specs/puzzles/hakank-p200.non";
    let (output, _) = run(&["analyze", p200, "--memory", "1", "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!((answer[0]["solutions"].clone(), answer[0]["stopped"].clone()), (json!(null), json!("memory")));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the solver stopped (memory)"), "{stderr}");
    // with the default (4096 MB) it ends
    let (output, _) = run(&["analyze", p200, "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((answer[0]["solutions"].clone(), answer[0]["stopped"].clone()), (json!(1), json!(null)));
}

/// Writes `text` to `name` in `dir`; its path.
fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn studio_refuses_an_unsound_nonogram_rule_file() {
    let dir = tempfile::tempdir().unwrap();
    // fills the whole line whatever it is: unsound on a line of 2 cells
    let unsound = "def fills_all:\n    with h = arbitrary(hint):\n    if true:\n    then fill(true, 0, size(h))\n";
    let file = write(dir.path(), "unsound.rules", unsound);
    let (output, _) = run(&["studio", "--port", "0", "--rules", &file]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("rule `fills_all` is unsound: on the line "), "{stderr}");
}

#[test]
fn witness_generate_refuses_top_0_and_one_file_twice() {
    let dir = tempfile::tempdir().unwrap();
    let base = write(dir.path(), "b.ron", "[\n    (width: 2, height: 2, start: (0, 0), goal: (2, 2)),\n]\n");
    let out = dir.path().join("x.ron");
    let out = out.to_str().unwrap();
    let args = ["witness", "generate", "--base", &base, "--at", "0,0"];
    let (output, _) = run(&[&args[..], &["--top", "0", "-o", out]].concat());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--top"));
    let dotted = format!("{}/./x.ron", dir.path().display());
    for html in [out, dotted.as_str()] {
        let (output, _) = run(&[&args[..], &["-o", out, "--html", html]].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("the same file twice"), "{stderr}");
        assert!(!std::path::Path::new(out).exists(), "nothing written");
    }
}

#[test]
fn sat_compare_says_nothing_agrees_when_no_pair_ended() {
    let (output, _) =
        run(&["bench", "--boards", "specs/puzzles/hakank-p200.non", "--sat-compare", "--timeout", "0.001"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("answers agree"), "{stdout}");
    assert!(stdout.contains("answers not compared: no puzzle had two pairs that ended"), "{stdout}");
}

/// A newline in a file name stays inside the header's comment lines of
/// `select` and `mine` (round three: `select` wrote it as a `def` line).
#[test]
fn file_names_with_newlines_stay_in_header_comments() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("t\ndef evil:");
    std::fs::copy(format!("{ROOT}/specs/nonogram/traces.lines"), &lines).unwrap();
    let (lines, out) = (lines.to_str().unwrap(), dir.path().join("s\nx.rules"));
    let out = out.to_str().unwrap();
    let (select, _) =
        run(&["select", "--rules", "rules/nonogram/control.rules", "--lines", lines, "-k", "2", "-o", out]);
    assert!(select.status.success(), "{}", String::from_utf8_lossy(&select.stderr));
    let mined = dir.path().join("m\ndef evil:.lines");
    let (mine, _) = run(&["mine", "nonogram", "--max-len", "3", "-o", mined.to_str().unwrap()]);
    assert!(mine.status.success(), "{}", String::from_utf8_lossy(&mine.stderr));
    // select: the header runs to the first blank line; mine: three lines
    for (file, lines) in [(out.to_string(), None), (mined.to_str().unwrap().to_string(), Some(3))] {
        let text = std::fs::read_to_string(&file).unwrap();
        let header: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).take(lines.unwrap_or(usize::MAX)).collect();
        assert!(header.len() >= 2 && header.iter().all(|l| l.starts_with('#')), "{file:?}: {text:.400}");
        assert!(header[0].contains("\\n"), "the newline is written escaped: {:?}", header[0]);
        assert!(!text.lines().any(|l| l.starts_with("def evil")), "{text:.400}");
    }
}
