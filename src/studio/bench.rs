//! `studio --bench`: the time of the page's update after a change on 25x25
//! nonograms: the `analyze` route's whole work (the JSON request read, the
//! complete solver's count, the line and rule players, the JSON answer
//! written out), in this process, on each bundled 25x25 puzzle's picture
//! and on the picture with one cell flipped (ten cells per puzzle, seeded),
//! as a designer's stroke leaves it; with a budget, how many answers it
//! left with the count or a difficulty unknown. Then the same for Flow
//! (the count and both rule sets' solves) on 10x10 and 14x14 puzzles made
//! by our generator (`generate flow --player search`, seed 0), each as
//! made (one solution, played to the end by both sets) and with one
//! endpoint moved to an empty cell (ten per puzzle, seeded). Each update is timed by
//! the clock (what the designer waits) and by its thread's CPU time (what
//! it cost, whatever else the machine runs), with the times the thread was
//! preempted, so an answer past the budget can be told apart: work that
//! overran, or a thread that waited for a core.

use super::budget::Budget;
use super::nonogram::analyze;
use super::players::Players;
use super::Answer;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use stratsynth::domains::flow::formats::write::grid_text;
use stratsynth::domains::flow::make::run::{random_puzzles, Bounds, Shape, Wanted};
use stratsynth::domains::flow::play::playthrough::Knowledge;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::files::bundled;
use stratsynth::usage::{thread_cpu_time, thread_preemptions};

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

/// One update's measures.
#[derive(Clone, Copy)]
struct Update {
    /// Milliseconds by the clock, request read to answer written.
    wall: f64,
    /// Milliseconds of the thread's CPU time.
    cpu: f64,
    /// Times the thread was preempted meanwhile.
    preempted: u64,
}

/// One update: `work` (a route's) on `body`, timed; its answer.
fn timed(work: impl FnOnce(&[u8]) -> Answer, body: &str) -> Result<(Update, serde_json::Value), String> {
    let (cpu, preempted, started) = (thread_cpu_time(), thread_preemptions(), Instant::now());
    let answer = work(body.as_bytes()).map_err(|e| e.message)?;
    let written = answer.to_string();
    let update = Update {
        wall: started.elapsed().as_secs_f64() * 1000.0,
        cpu: thread_cpu_time().saturating_sub(cpu).as_secs_f64() * 1000.0,
        preempted: thread_preemptions() - preempted,
    };
    std::hint::black_box(written);
    Ok((update, answer))
}

/// The pictures of `file`: its goal, then the goal with one cell flipped,
/// [`FLIPS`] times (cells drawn by `rng`).
fn pictures(file: &str, rng: &mut ChaCha8Rng) -> Result<(usize, usize, Vec<String>), String> {
    let puzzle = read_puzzle(&bundled(Path::new(file))?).map_err(|e| e.to_string())?;
    let goal = puzzle.goal.ok_or_else(|| format!("{file}: no goal"))?;
    let text = |cells: &[bool]| cells.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>();
    let mut out = vec![text(&goal)];
    for _ in 0..FLIPS {
        let mut flipped = goal.clone();
        let p = rng.gen_range(0..flipped.len());
        flipped[p] = !flipped[p];
        out.push(text(&flipped));
    }
    Ok((puzzle.width, puzzle.height, out))
}

/// The `q`-quantile of sorted `xs` (nearest rank).
fn quantile(xs: &[f64], q: f64) -> f64 {
    xs[((xs.len() as f64 * q).ceil() as usize).clamp(1, xs.len()) - 1]
}

/// Median, 90th and 99th percentiles and maximum of `xs`, in words.
fn spread(mut xs: Vec<f64>) -> String {
    xs.sort_by(f64::total_cmp);
    format!(
        "median {:.1} ms, 90th percentile {:.1}, 99th {:.1}, max {:.1}",
        quantile(&xs, 0.5),
        quantile(&xs, 0.9),
        quantile(&xs, 0.99),
        quantile(&xs, 1.0)
    )
}

/// Runs the benchmark and prints its table and summary.
pub fn run(players: &Players, budget_ms: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut all: Vec<Update> = vec![];
    println!(
        "{:<36} {:>7} {:>9} {:>9} {:>10} {:>13} {:>18}",
        "picture", "updates", "median ms", "max ms", "max CPU ms", "count unknown", "difficulty unknown"
    );
    for file in PICTURES {
        let (width, height, pictures) = pictures(file, &mut rng)?;
        let mut mine = vec![];
        let (mut unknown, mut unrated) = (0, 0);
        for goal in &pictures {
            let body = json!({"width": width, "height": height, "goal": goal}).to_string();
            let (update, answer) = timed(|b| analyze(players, b, &Budget::from_ms(budget_ms)), &body)?;
            mine.push(update);
            unknown += usize::from(answer["solutions"].is_null());
            unrated += usize::from(!answer["difficulty_stopped"].is_null());
        }
        let mut walls: Vec<f64> = mine.iter().map(|u| u.wall).collect();
        walls.sort_by(f64::total_cmp);
        let max_cpu = mine.iter().map(|u| u.cpu).fold(0.0, f64::max);
        println!(
            "{file:<36} {:>7} {:>9.1} {:>9.1} {max_cpu:>10.1} {unknown:>13} {unrated:>18}",
            walls.len(),
            quantile(&walls, 0.5),
            quantile(&walls, 1.0),
        );
        all.extend(mine);
    }
    let budget = budget_ms as f64;
    let past: Vec<&Update> = all.iter().filter(|u| u.wall > budget).collect();
    println!(
        "{} updates of 25x25 pictures (each bundled one, and with one cell flipped, {FLIPS} cells each; budget {budget_ms} ms):\n  by the clock: {}; {} of {} within 100 ms, {} within the budget\n  CPU time:     {}",
        all.len(),
        spread(all.iter().map(|u| u.wall).collect()),
        all.iter().filter(|u| u.wall <= 100.0).count(),
        all.len(),
        all.len() - past.len(),
        spread(all.iter().map(|u| u.cpu).collect()),
    );
    if let Some(worst) = past.iter().max_by(|a, b| a.wall.total_cmp(&b.wall)) {
        println!(
            "  past the budget: {} answers, the latest {:.1} ms past it ({:.1} ms of CPU, preempted {} times); preempted {:.1} times on average",
            past.len(),
            worst.wall - budget,
            worst.cpu,
            worst.preempted,
            past.iter().map(|u| u.preempted as f64).sum::<f64>() / past.len() as f64
        );
    }
    flow(players, budget_ms)
}

/// Flow boards timed: size and colours (one per 10 cells, as `generate flow`).
const FLOW_SHAPES: &[(usize, usize, usize)] = &[(10, 10, 10), (14, 14, 20)];

/// Flow puzzles made per size.
const FLOW_PUZZLES: usize = 3;

/// The Flow puzzles of `shape`: [`FLOW_PUZZLES`] made by our generator
/// (one solution, proven by the complete solver), each as grid text.
fn flow_puzzles(shape: &Shape) -> Result<Vec<String>, String> {
    let wanted =
        Wanted { knowledge: Knowledge::Propagation, max_bits: None, without: None, max_nodes: 100_000, settled: false };
    let bounds = Bounds { count: FLOW_PUZZLES, max_candidates: 10_000, deadline: None };
    let (made, _) = random_puzzles(shape, 0, &wanted, bounds, |_, _| {}).map_err(|e| e.to_string())?;
    made.iter().map(|m| grid_text(&m.puzzle).map_err(|e| e.to_string())).collect()
}

/// `grid` with one endpoint moved to an empty cell, both drawn by `rng`.
fn moved(grid: &str, rng: &mut ChaCha8Rng) -> String {
    let mut cells: Vec<char> = grid.chars().collect();
    let (ends, empty): (Vec<usize>, Vec<usize>) =
        (0..cells.len()).filter(|&i| cells[i] != '\n').partition(|&i| cells[i] != '.');
    let (from, to) = (ends[rng.gen_range(0..ends.len())], empty[rng.gen_range(0..empty.len())]);
    cells.swap(from, to);
    cells.into_iter().collect()
}

/// The Flow rows: per size, the updates on the puzzles as made and with
/// one endpoint moved.
fn flow(players: &Players, budget_ms: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    println!(
        "\nFlow (puzzles made by generate flow --player search --seed 0; both rule sets played; budget {budget_ms} ms):\n{:<44} {:>7} {:>9} {:>9} {:>10} {:>13} {:>18}",
        "puzzles", "updates", "median ms", "max ms", "max CPU ms", "count unknown", "difficulty unknown"
    );
    for &(width, height, colours) in FLOW_SHAPES {
        let made = flow_puzzles(&Shape { width, height, colours })?;
        let variants: Vec<String> =
            made.iter().flat_map(|g| (0..FLIPS).map(|_| moved(g, &mut rng)).collect::<Vec<_>>()).collect();
        for (what, grids) in [("as made (one solution)", &made), ("one endpoint moved", &variants)] {
            let (mut walls, mut max_cpu, mut unknown, mut unrated) = (vec![], 0.0f64, 0, 0);
            for grid in grids {
                let body = json!({ "puzzle": grid }).to_string();
                let (update, answer) = timed(|b| super::flow::analyze(players, b, &Budget::from_ms(budget_ms)), &body)?;
                walls.push(update.wall);
                max_cpu = max_cpu.max(update.cpu);
                unknown += usize::from(answer["solutions"].is_null());
                unrated += usize::from(!answer["difficulty_stopped"].is_null());
            }
            walls.sort_by(f64::total_cmp);
            println!(
                "{:<44} {:>7} {:>9.1} {:>9.1} {max_cpu:>10.1} {unknown:>13} {unrated:>18}",
                format!("{width}x{height}, {colours} colours, {what}"),
                walls.len(),
                quantile(&walls, 0.5),
                quantile(&walls, 1.0),
            );
        }
    }
    Ok(())
}
