//! The bundled puzzle set (specs/puzzles): every file parses, line solving
//! agrees with the manifest, solution traces replay to the goal, and the
//! complete solver finds exactly one solution (the goal, where given).

use std::path::{Path, PathBuf};

use stratsynth::domains::nonogram::board::complete::{Limits, Search};
use stratsynth::domains::nonogram::board::grid::Board;
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::board::trace::trace_seeded;
use stratsynth::domains::nonogram::formats::non::{read_non_file, Puzzle};

fn puzzle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/puzzles")
}

fn all_puzzles() -> Vec<(String, Puzzle)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzle_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "non"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let puzzle = read_non_file(p).unwrap_or_else(|e| panic!("{e}"));
            (name, puzzle)
        })
        .collect()
}

/// manifest.csv: file -> (line_solvable, fraction_solved).
fn manifest() -> Vec<(String, bool, f64)> {
    let text = std::fs::read_to_string(puzzle_dir().join("manifest.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f = split_csv(l);
            (f[0].to_string(), f[9] == "yes", f[10].parse().unwrap())
        })
        .collect()
}

/// Splits one CSV record (double-quoted fields may hold commas).
fn split_csv(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

#[test]
fn all_96_parse_and_line_solving_matches_the_manifest() {
    let puzzles = all_puzzles();
    assert_eq!(puzzles.len(), 96);
    let manifest = manifest();
    assert_eq!(manifest.len(), 96);
    let mut solvable = 0;
    for ((name, p), (mname, line_solvable, fraction)) in puzzles.iter().zip(&manifest) {
        assert_eq!(name, mname);
        assert!(p.title.is_some(), "{name}: title");
        let goal = p.goal.as_ref().unwrap_or_else(|| panic!("{name}: goal"));
        let mut b = Board::from_puzzle(p);
        let r = b.solve_exact().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.solved, *line_solvable, "{name}");
        assert!(b.agrees_with(goal), "{name}");
        let got = r.known as f64 / r.total as f64;
        assert!((got - fraction).abs() < 0.001, "{name}: fraction {got} vs {fraction}");
        solvable += r.solved as usize;
    }
    assert_eq!(solvable, 70);
}

#[test]
fn traces_replay_to_the_goal() {
    let mut steps = 0;
    for (i, (name, p)) in all_puzzles().iter().enumerate() {
        let board = Board::from_puzzle(p);
        let mut exact = board.clone();
        let fix = exact.solve_exact().unwrap();
        let trace = trace_seeded(&board, i as u64).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(trace.solved, fix.solved, "{name}");
        let filled: usize = trace.transitions.iter().map(|t| t.new_cells()).sum();
        assert_eq!(filled, fix.known, "{name}: the rollout reaches the same fixpoint");
        let goal = p.goal.as_ref().unwrap();
        for t in &trace.transitions {
            assert!(t.is_maximal(), "{name}");
            assert!(t.new_cells() > 0, "{name}");
        }
        // Every target agrees with the goal along its line.
        let mut replay = board.clone();
        assert_eq!(trace.lines.len(), trace.transitions.len());
        for (t, &id) in trace.transitions.iter().zip(&trace.lines) {
            assert_eq!(replay.line(id), t.start, "{name}");
            replay.apply::<()>(id, &t.target).unwrap();
        }
        assert!(replay.agrees_with(goal), "{name}");
        assert_eq!(replay, exact, "{name}");
        steps += trace.transitions.len();
    }
    assert!(steps > 2000, "{steps} transitions");
}

#[test]
fn every_bundled_puzzle_has_exactly_one_solution() {
    let all = all_puzzles();
    assert_eq!(all.len(), 96);
    for (name, p) in all {
        let clues = Clues::from_puzzle(&p);
        let out = Search::new(&clues, Limits::solutions(2)).run();
        assert_eq!(out.solutions.len(), 1, "{name}");
        if let Some(goal) = &p.goal {
            assert_eq!(&out.solutions[0], goal, "{name}");
        }
    }
}
