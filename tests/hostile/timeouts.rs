//! Long runs end with their `--timeout` (issue 45, items 3 and 7, and
//! round four), driving the binary: a repair search is bounded by
//! `--timeout` (60 s by default), says its progress every few seconds,
//! starts where two solutions of the picture's clues differ, and ends with
//! an honest "no repair within the budget" naming what ran out; random
//! generation stops at `--timeout` and says so; long Witness commands
//! (`analyze`, `generate`, `solve`, `bench`, the exact solvability checks
//! included) end with theirs.

use crate::cli::{fails, fresh_dir, run, stderr, write};
use std::path::Path;
use std::time::{Duration, Instant};

/// A plain PBM of a `width` x `height` picture of seeded random cells.
fn random_pbm(width: usize, height: usize, seed: u64) -> String {
    let mut state = seed;
    let mut text = format!("P1\n{width} {height}\n");
    for _ in 0..height {
        for _ in 0..width {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            text.push(if state >> 33 & 1 == 1 { '1' } else { '0' });
        }
        text.push('\n');
    }
    text
}

#[test]
fn a_probe_repair_of_a_two_solution_picture_is_bounded_and_says_so() {
    let dir = fresh_dir("long-repair");
    // 35x35: the best repair left about 500 cells undecided after 5 s of
    // a release build (a 25x25 one is repaired within the budget)
    let picture = write(&dir, "p.pbm", random_pbm(35, 35, 2));
    let started = Instant::now();
    let out = run(&["generate", "nonogram", "--from", &picture, "--player", "probe", "--timeout", "7"]);
    let seconds = started.elapsed().as_secs_f64();
    fails(&out, 1, "no repair within the budget: the time ran out after ");
    let err = stderr(&out);
    assert!(err.contains("raise --timeout"), "{err}");
    assert!(err.contains("the clues have two solutions differing in "), "{err}");
    assert!(err.contains("p.pbm: repair search, 5 s: stage "), "no progress line: {err}");
    // the deadline stops the search between two judged pictures
    assert!(seconds < 20.0, "{seconds} s");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_generation_stops_at_its_timeout() {
    let started = Instant::now();
    let out =
        run(&["generate", "nonogram", "--size", "25x25", "--count", "1000", "--player", "probe", "--timeout", "2"]);
    fails(&out, 1, "puzzles asked for within --timeout 2 s (");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

/// An 8x8 Witness puzzle: millions of states per player.
const WITNESS_8X8: &str = "[(width: 8, height: 8, start: (0, 0), goal: (8, 8), triangles: [(0, 0, 1), (7, 7, 2)])]";

#[test]
fn witness_analyze_counts_every_player_against_its_timeout_and_names_what_ran_out() {
    let dir = fresh_dir("witness-timeout");
    let puzzle = write(&dir, "p8.ron", WITNESS_8X8);
    let started = Instant::now();
    let out = run(&["witness", "analyze", &puzzle, "--timeout", "2"]);
    let seconds = started.elapsed().as_secs_f64();
    fails(&out, 1, "p8.ron puzzle #0: unknown: --timeout 2 s ran out in the players uniform, local");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("puzzle #0: 8x8, unknown solutions"), "{text}");
    assert!(text.contains("unknown: --timeout 2 s ran out in the players uniform, local;"), "{text}");
    // the first player spends the budget; the second starts past it
    assert!(seconds < 10.0, "{seconds} s");
    let out = run(&["witness", "analyze", &puzzle, "--timeout", "1", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["solutions"], "unknown");
    assert_eq!(json[0]["stopped"], "timeout");
    for p in json[0]["players"].as_array().unwrap() {
        assert_eq!((&p["msi"], &p["tsi"], &p["stopped"]), (&"unknown".into(), &"unknown".into(), &"timeout".into()));
    }
    // the states, not the time, ran out: named as such
    let out = run(&["witness", "analyze", &puzzle, "--max-nodes", "1000", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["stopped"], "node budget");
    assert!(stderr(&out).contains("--max-nodes 1000 states ran out in the players uniform, local"), "{}", stderr(&out));
    fails(&run(&["witness", "analyze", &puzzle, "--timeout", "0"]), 2, "expected a positive number of seconds");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn witness_generate_stops_judging_variants_at_its_timeout_and_says_so() {
    let dir = fresh_dir("witness-generate-timeout");
    let base = write(&dir, "base.ron", WITNESS_8X8);
    let out_ron = dir.join("g.ron").display().to_string();
    let started = Instant::now();
    let out = run(&["witness", "generate", "--base", &base, "--at", "1,1", "2,2", "--timeout", "2", "-o", &out_ron]);
    let seconds = started.elapsed().as_secs_f64();
    fails(&out, 1, "--timeout 2 s ran out");
    let err = stderr(&out);
    assert!(err.contains("variants were judged (solvable or not); raise --timeout"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not judged within --timeout 2 s"), "{text}");
    assert!(seconds < 15.0, "{seconds} s");
    // what was judged is written, its unknown figures said
    let written = std::fs::read_to_string(&out_ron).unwrap();
    assert!(written.contains("not judged within --timeout 2 s"), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn witness_solve_stops_the_whole_run_at_its_timeout() {
    let dir = fresh_dir("witness-solve-timeout");
    // three 8x8 puzzles with 2 triangles in every square: no local check
    // prunes early, each search runs to its node budget (~20 s)
    let twos: Vec<String> = (0..8).flat_map(|r| (0..8).map(move |c| format!("({c}, {r}, 2)"))).collect();
    let one = format!("(width: 8, height: 8, start: (0, 0), goal: (8, 8), triangles: [{}])", twos.join(", "));
    let puzzles = write(&dir, "twos.ron", format!("[{one}, {one}, {one}]"));
    let solutions = dir.join("s.txt").display().to_string();
    let started = Instant::now();
    let out = run(&["witness", "solve", "--puzzles", &puzzles, "--timeout", "2", "--solutions-out", &solutions]);
    let seconds = started.elapsed().as_secs_f64();
    fails(&out, 1, "--timeout 2 s ran out: 3 of the 3 puzzles were not searched to the end");
    assert_eq!(std::fs::read_to_string(&solutions).unwrap(), "stopped (time budget)\n".repeat(3));
    assert!(seconds < 10.0, "{seconds} s");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An 8x8 puzzle with a dot on every vertex, the goal at `goal`, in `dir`:
/// with (8, 1) no solution, and proving it is a search of every Hamiltonian path.
fn dots(dir: &Path, goal: (usize, usize)) -> String {
    let dots: Vec<String> = (0..=8).flat_map(|x| (0..=8).map(move |y| format!("({x}, {y})"))).collect();
    let text = format!(
        "[\n    (width: 8, height: 8, start: (0, 0), goal: ({}, {}), dots: [{}]),\n]\n",
        goal.0,
        goal.1,
        dots.join(", ")
    );
    write(dir, &format!("dots-{}-{}.ron", goal.0, goal.1), text)
}

#[test]
fn witness_generate_ends_with_its_timeout() {
    let dir = fresh_dir("dots-generate");
    let base = dots(&dir, (8, 1));
    let out = dir.join("g.ron").display().to_string();
    let started = Instant::now();
    let output = run(&["witness", "generate", "--base", &base, "--at", "0,0", "1,1", "--timeout", "2", "-o", &out]);
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("16 not judged within --timeout 2 s"), "{stdout}");
    assert!(took < Duration::from_millis(3000), "--timeout 2 ended after {took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn witness_bench_takes_a_timeout() {
    let dir = fresh_dir("dots-bench");
    let puzzles = dots(&dir, (8, 8));
    let args = ["witness", "bench", "--puzzles", &puzzles, "--rules", "rules/witness/learned.rules"];
    let started = Instant::now();
    let output = run(&[&args[..], &["--repeat", "1", "--timeout", "2"]].concat());
    let took = started.elapsed();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("--timeout 2 s ran out: 2 searches stopped"), "{err}");
    assert!(took < Duration::from_millis(3000), "--timeout 2 ended after {took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
