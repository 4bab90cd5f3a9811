//! Long-running work stays bounded (issue 30, items 7, 8, 9 and 11),
//! driving the binary: a Witness search or benchmark that would outgrow
//! memory stops at its node budget and says `stopped`, not `none`;
//! generating and mining 8x8 puzzles show progress in bounded memory;
//! `select` needs little more memory than `cover` on the same test set,
//! and none for repeated transitions; `explain --html` draws each
//! step's line, so the page grows with steps × side, not steps × cells;
//! and the misleading messages of item 11 say what happened.

use crate::cli::{fails, repo, run, stderr, write};
use serde_json::json;
use std::process::Command;

/// Peak resident memory in KB and the output of `args` run under
/// `/usr/bin/time`.
fn peak_kb(args: &[&str]) -> (u64, std::process::Output) {
    let out = Command::new("/usr/bin/time").args(["-f", "peak %M"]).arg(crate::cli::BIN).args(args).output().unwrap();
    let err = stderr(&out);
    let kb = err.lines().rev().find_map(|l| l.strip_prefix("peak ")).and_then(|n| n.trim().parse().ok()).expect(&err);
    (kb, out)
}

/// An 8x8 puzzle whose every square holds 2 triangles: a legal puzzle no
/// local check prunes early, so the search grows without end.
fn all_twos() -> String {
    let triangles: Vec<String> = (0..8).flat_map(|r| (0..8).map(move |c| format!("({c}, {r}, 2)"))).collect();
    format!("[(width: 8, height: 8, start: (0, 0), goal: (8, 8), triangles: [{}])]\n", triangles.join(", "))
}

#[test]
fn a_witness_search_stops_at_its_node_budget() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = write(dir.path(), "twos.ron", all_twos());
    let solutions = dir.path().join("s.txt").display().to_string();
    let started = std::time::Instant::now();
    let (kb, out) =
        peak_kb(&["witness", "solve", "--puzzles", &puzzles, "--max-nodes", "1000000", "--solutions-out", &solutions]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&solutions).unwrap(), "stopped (node budget: memory)\n");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("solved 0 of 1 puzzles, 1 stopped by a budget"));
    assert!(stderr(&out).contains("puzzle 1 of 1 (8x8): stopped (node budget: memory) after"), "{}", stderr(&out));
    // a million paths of ~32 bytes, whatever the vectors' growth adds
    assert!(kb < 150_000, "peak {kb} KB");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    // a puzzle with no solution is still `none`
    let none = write(
        dir.path(),
        "none.ron",
        "[(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 3), (1, 1, 3), (1, 0, 3)])]\n",
    );
    let out = run(&["witness", "solve", "--puzzles", &none, "--solutions-out", &solutions]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&solutions).unwrap(), "none\n");
}

/// `witness bench` on the same puzzle stops both searches at the node
/// budget, says so in text and JSON, and does not trace the puzzle (each
/// exact completability query there can take exponential time; it ran for
/// over ten minutes before).
#[test]
fn witness_bench_stops_at_its_node_budget() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = write(dir.path(), "twos.ron", all_twos());
    let rules = repo("rules/witness/learned.rules");
    let args = ["witness", "bench", "--puzzles", &puzzles, "--rules", &rules, "--repeat", "1", "--max-nodes", "300000"];
    let started = std::time::Instant::now();
    let (kb, out) = peak_kb(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("baseline solved 0, rules solved 0, 0 invalid, 0 lost (solved by the baseline, none with the rules), 2 searches stopped by a budget, 1 puzzles not traced"), "{text}");
    assert!(kb < 120_000, "peak {kb} KB");
    assert!(started.elapsed().as_secs() < 25, "{:?}", started.elapsed());
    let json = run(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (v["stopped_searches"].as_u64(), v["untraced_puzzles"].as_u64(), v["solved_baseline"].as_u64()),
        (Some(2), Some(1), Some(0))
    );
}

/// Runs `args` until a line of its standard error contains `wanted`, then
/// stops it: that line, the process's peak resident memory so far in KB
/// (VmHWM) and the time it took.
fn until_said(args: &[&str], wanted: &str) -> (String, u64, std::time::Duration) {
    use std::io::BufRead;
    let started = std::time::Instant::now();
    let mut child = Command::new(crate::cli::BIN)
        .current_dir(crate::cli::ROOT)
        .args(args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = vec![];
    for line in std::io::BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.contains(wanted) {
            let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
            let kb = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap();
            child.kill().unwrap();
            child.wait().unwrap();
            return (line, kb, started.elapsed());
        }
        said.push(line);
    }
    child.wait().unwrap();
    panic!("{args:?} ended without saying {wanted:?}: {}", said.join("\n"));
}

/// Generating and mining an 8x8 puzzle (the largest) says how far it got
/// within seconds, and the exact oracle's memo stays within its budget:
/// its tables alone held about 300 MB before.
#[test]
fn witness_mining_shows_progress_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.ron").display().to_string();
    let (line, kb, took) =
        until_said(&["mine", "witness", "--sizes", "8x8..8x8", "--count", "1", "-o", &out], "paths so far");
    assert_eq!(line, "mining puzzle 1 of 1: 262144 paths so far, 1401 specifications");
    assert!(kb < 180_000, "peak {kb} KB");
    assert!(took.as_secs() < 25, "{took:?}");
    let rules = dir.path().join("w.rules").display().to_string();
    let args = ["learn", "witness", "--sizes", "8x8..8x8", "--train", "1", "--filter", "1", "-o", &rules];
    let (line, kb, took) = until_said(&args, "paths so far");
    assert!(line.starts_with("mining puzzle 1 of 1: 262144 paths so far, "), "{line}");
    assert!(kb < 180_000, "peak {kb} KB");
    assert!(took.as_secs() < 25, "{took:?}");
}

/// Generating 8x8 puzzles says how far it got every few seconds when
/// standard error is not a terminal (no bar is drawn), in `witness gen`
/// and in `learn witness`, whose generation said nothing before.
#[test]
fn witness_generation_shows_progress_when_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.ron").display().to_string();
    let (line, kb, took) = until_said(
        &["witness", "gen", "--alg", "3", "--sizes", "8x8..8x8", "--count", "40", "-o", &out],
        "generating puzzles:",
    );
    assert!(line.starts_with("generating puzzles: ") && line.contains(" of 40 made, 5 s"), "{line}");
    assert!(kb < 180_000, "peak {kb} KB");
    assert!(took.as_secs() < 15, "{took:?}");
    let rules = dir.path().join("w.rules").display().to_string();
    let (line, _, took) = until_said(
        &["learn", "witness", "--sizes", "8x8..8x8", "--train", "1", "--filter", "20", "-o", &rules],
        "generating",
    );
    assert_eq!(line, "generating 1 training and 20 filter puzzles (8x8..8x8): 5 s");
    assert!(took.as_secs() < 15, "{took:?}");
}

/// `select` keeps identical test transitions once, with their count: the
/// bundled traces eight times (54,664 transitions) need about what they
/// need once, beyond reading the file (it was about 6 KB per transition
/// with the learned rules, 2.6 KB with these).
#[test]
fn select_memory_does_not_grow_with_repeated_transitions() {
    let dir = tempfile::tempdir().unwrap();
    let traces = std::fs::read_to_string(repo("specs/nonogram/traces.lines")).unwrap();
    let body: String = traces.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let control = repo("rules/nonogram/control.rules");
    let out = dir.path().join("top.rules").display().to_string();
    let mut peaks = vec![];
    for copies in [1, 8] {
        let lines = write(dir.path(), &format!("t{copies}.lines"), body.repeat(copies));
        let (kb, select) = peak_kb(&["select", "--rules", &control, "--lines", &lines, "-k", "5", "-o", &out]);
        assert!(select.status.success(), "{}", stderr(&select));
        let text = String::from_utf8_lossy(&select.stdout).into_owned();
        assert!(text.starts_with("5 of 13 rules chosen greedily"), "{text}");
        peaks.push((
            kb,
            text.lines().skip(2).map(|l| l.split_whitespace().nth(1).unwrap().to_string()).collect::<Vec<_>>(),
        ));
    }
    assert_eq!(peaks[0].1, peaks[1].1, "the same rules");
    // reading 54,664 transitions takes about 20 MB; per-transition state
    // for them all would be 140 MB more
    assert!(peaks[1].0 < peaks[0].0 + 40_000, "{} KB once, {} KB eight times", peaks[0].0, peaks[1].0);
}

/// `select` on 20,499 transitions (the bundled traces three times) keeps
/// per transition only which rules act on the states it met: its peak is
/// within 50 MB of `cover`'s on the same file (it was 82 MB above, about
/// 4 KB per transition; now about 30 MB).
#[test]
fn select_needs_little_more_memory_than_cover() {
    let dir = tempfile::tempdir().unwrap();
    let traces = std::fs::read_to_string(repo("specs/nonogram/traces.lines")).unwrap();
    let body: String = traces.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let lines = write(dir.path(), "t.lines", body.repeat(3));
    let control = repo("rules/nonogram/control.rules");
    let (cover_kb, cover) = peak_kb(&["cover", "--rules", &control, "--lines", &lines]);
    assert!(cover.status.success(), "{}", stderr(&cover));
    assert!(String::from_utf8_lossy(&cover.stdout).starts_with("20499 transitions, 13 rules"));
    let out = dir.path().join("top.rules").display().to_string();
    let (select_kb, select) = peak_kb(&["select", "--rules", &control, "--lines", &lines, "-k", "3", "-o", &out]);
    assert!(select.status.success(), "{}", stderr(&select));
    assert!(select_kb < cover_kb + 50_000, "select {select_kb} KB, cover {cover_kb} KB");
}

#[test]
fn explain_html_grows_with_steps_times_side() {
    let dir = tempfile::tempdir().unwrap();
    // 60x60, every line empty: 120 steps of 60 cells each
    let side = 60;
    let zeros = vec!["0"; side].join("\n");
    let puzzle = write(
        dir.path(),
        "empty.non",
        format!("title \"empty\"\nwidth {side}\nheight {side}\n\nrows\n{zeros}\n\ncolumns\n{zeros}\n"),
    );
    let page = dir.path().join("page.html");
    let started = std::time::Instant::now();
    let (kb, out) = peak_kb(&[
        "explain",
        &puzzle,
        "--rules",
        &repo("rules/nonogram/control.rules"),
        "--html",
        &page.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("lines longer than the 30 cells rules are applied to (and proven for): the rules do not apply"),
        "{}",
        stderr(&out)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let steps = html.matches("<section id=\"step-").count();
    assert!(steps >= side, "{steps} steps");
    // a board per step would be ~steps x 3600 cells; a line is 60
    assert!(html.len() < 2_000 * steps + 400_000, "{} bytes for {steps} steps", html.len());
    assert_eq!(html.matches("<section id=\"board\"").count(), 1);
    assert!(kb < 200_000, "peak {kb} KB");
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn misleading_messages_say_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    // a byte order mark before the first key is not part of it
    let heart = std::fs::read_to_string(repo("specs/puzzles/nonny-heart.non")).unwrap();
    let bom = write(dir.path(), "bom.non", format!("\u{feff}{heart}"));
    let out = run(&["solve", &bom]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Heart\n"));
    // escape sequences in a title are shown, not sent to the terminal
    let evil =
        write(dir.path(), "evil.non", heart.replace("title \"Heart\"", "title \"\u{1b}]0;pwned\u{7}Heart\u{1b}[2J\""));
    for args in [vec!["solve", &evil], vec!["explain", &evil, "--rules", &repo("rules/nonogram/control.rules")]] {
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{args:?}");
        assert!(text.contains("\\u{1b}]0;pwned\\u{7}Heart\\u{1b}[2J"), "{args:?}: {text}");
    }
    // --out-dir naming a file
    let file = write(dir.path(), "afile", "x");
    fails(
        &run(&["learn", "nonogram", "--out-dir", &file]),
        2,
        "afile: not a directory (it names a file); give a directory",
    );
    // an empty --spec
    fails(&run(&["synth", "--spec", ""]), 2, "--spec: no specification given (expected a line HINTS | START | TARGET)");
    // a specification repeated in the file is synthesised once
    let specs = write(dir.path(), "dup.lines", "3 | ..... | ..#..\n3 | ..... | ..#..\n");
    let out = run(&["synth", "--specs", &specs, "--bound", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let once = run(&["synth", "--spec", "3 | ..... | ..#..", "--bound", "8"]);
    let rules = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).lines().filter(|l| !l.starts_with("# meta")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(rules(&out), rules(&once));
    assert_eq!(String::from_utf8_lossy(&out.stdout).matches("# meta: (spec:").count(), 1);
    let help = String::from_utf8_lossy(&run(&["learn", "nonogram", "--help"]).stdout).into_owned();
    assert!(help.contains("created, with its parents, if it does not exist"), "{help}");
}

#[test]
fn the_complete_solver_stops_at_its_memory_and_says_memory() {
    let p200 = "specs/puzzles/hakank-p200.non";
    let output = run(&["analyze", p200, "--memory", "1", "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!((answer[0]["solutions"].clone(), answer[0]["stopped"].clone()), (json!(null), json!("memory")));
    let err = stderr(&output);
    assert!(err.contains("the solver stopped (memory)"), "{err}");
    // with the default (4096 MB) it ends
    let output = run(&["analyze", p200, "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((answer[0]["solutions"].clone(), answer[0]["stopped"].clone()), (json!(1), json!(null)));
}

#[test]
fn the_witness_players_stop_at_their_memory_and_say_memory() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle =
        write(dir.path(), "6x6.ron", "[(width: 6, height: 6, start: (0, 0), goal: (6, 6), triangles: [(0, 0, 2)])]");
    let output = run(&["witness", "analyze", &puzzle, "--memory", "1", "--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((answer[0]["solutions"].clone(), answer[0]["stopped"].clone()), (json!("unknown"), json!("memory")));
    let players = answer[0]["players"].as_array().unwrap();
    assert!(players.iter().all(|p| p["stopped"] == json!("memory") && p["tsi"] == json!("unknown")), "{players:?}");
    assert!(stderr(&output).contains("--memory 1 MB ran out in the players uniform, local"), "{}", stderr(&output));
}
