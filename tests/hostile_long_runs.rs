//! Hostile input, round three (issue 45, items 3 and 7), driving the
//! binary: a repair search is bounded by `--timeout` (60 s by default),
//! says its progress every few seconds, starts where two solutions of the
//! picture's clues differ, and ends with an honest "no repair within the
//! budget" naming what ran out; random generation stops at `--timeout`
//! and says so.

mod cli;

use cli::{fails, fresh_dir, run, stderr, write};
use std::time::Instant;

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
