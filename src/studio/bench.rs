//! `studio --bench`: the time of the page's update after a change on 25x25
//! nonograms: the `analyze` route's whole work (the JSON request read, the
//! complete solver's count, the line and rule players, the JSON answer),
//! in this process, on each bundled 25x25 puzzle's picture and on the
//! picture with one cell flipped (ten cells per puzzle, seeded), as a
//! designer's stroke leaves it; with a budget, how many answers it left
//! with the count or a difficulty unknown.

use super::budget::Budget;
use super::nonogram::analyze;
use super::players::Players;
use crate::commands::bundled;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;

/// The bundled 25x25 pictures.
const PICTURES: &[&str] = &[
    "specs/puzzles/hakank-p200.non",
    "specs/puzzles/jacop-data005.non",
    "specs/puzzles/jacop-data016.non",
    "specs/puzzles/jacop-data085.non",
    "specs/puzzles/jacop-data091.non",
    "specs/puzzles/jacop-data144.non",
];

/// Cells flipped one at a time per picture.
const FLIPS: usize = 10;

/// Runs the benchmark and prints its table and summary.
pub fn run(players: &Players, budget_ms: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut times = vec![];
    println!(
        "{:<36} {:>7} {:>9} {:>9} {:>13} {:>18}",
        "picture", "updates", "median ms", "max ms", "count unknown", "difficulty unknown"
    );
    for file in PICTURES {
        let puzzle = read_puzzle(&bundled(Path::new(file))?).map_err(|e| e.to_string())?;
        let goal = puzzle.goal.ok_or_else(|| format!("{file}: no goal"))?;
        let mut pictures = vec![goal.clone()];
        for _ in 0..FLIPS {
            let mut flipped = goal.clone();
            let p = rng.gen_range(0..flipped.len());
            flipped[p] = !flipped[p];
            pictures.push(flipped);
        }
        let mut mine = vec![];
        let (mut unknown, mut unrated) = (0, 0);
        for cells in &pictures {
            let text: String = cells.iter().map(|&b| if b { '1' } else { '0' }).collect();
            let body = json!({"width": puzzle.width, "height": puzzle.height, "goal": text}).to_string();
            let started = Instant::now();
            let answer = analyze(players, body.as_bytes(), &Budget::from_ms(budget_ms)).map_err(|e| e.message)?;
            mine.push(started.elapsed().as_secs_f64() * 1000.0);
            unknown += usize::from(answer["solutions"].is_null());
            unrated += usize::from(!answer["difficulty_stopped"].is_null());
        }
        mine.sort_by(f64::total_cmp);
        println!(
            "{file:<36} {:>7} {:>9.1} {:>9.1} {unknown:>13} {unrated:>18}",
            mine.len(),
            mine[mine.len() / 2],
            mine[mine.len() - 1]
        );
        times.extend(mine);
    }
    times.sort_by(f64::total_cmp);
    let within = times.iter().filter(|&&t| t <= 100.0).count();
    println!(
        "{} updates of 25x25 pictures (each bundled one, and with one cell flipped, {FLIPS} cells each; budget {budget_ms} ms): median {:.1} ms, 90th percentile {:.1} ms, max {:.1} ms; {within} of {} within 100 ms",
        times.len(),
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        times[times.len() - 1],
        times.len()
    );
    Ok(())
}
