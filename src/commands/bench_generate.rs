//! `bench --generate`: the speed of `generate nonogram`, measured in one
//! run with the command's own code: random 15x15 puzzles for the line
//! player (puzzles per second), then the repair of each picture (seconds).

use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use stratsynth::domains::nonogram::make::accept::Wanted;
use stratsynth::domains::nonogram::make::judge::Player;
use stratsynth::domains::nonogram::make::picture::read_picture;
use stratsynth::domains::nonogram::make::random::{Shape, Symmetry};
use stratsynth::domains::nonogram::make::repair::{RepairBudget, Tally};
use stratsynth::domains::nonogram::make::run::{random_puzzles, repair_picture};
use stratsynth::files::bundled;

/// The pictures repaired by default: two bundled 25x25 pictures whose
/// puzzles the line solver cannot finish.
pub const DEFAULT_PICTURES: [&str; 2] = ["specs/puzzles/jacop-data091.non", "specs/puzzles/hakank-p200.non"];

/// `bench --generate [--puzzles N] [--seed S] [--picture P]...`.
pub fn run(puzzles: usize, seed: u64, pictures: &[PathBuf]) -> CmdResult {
    let wanted =
        Wanted { player: Player::Line, steps: None, bits: 0.0..=0.0, stuck: None, max_nodes: 100_000, deadline: None };
    let shape = Shape { width: 15, height: 15, density: 0.5, symmetry: Symmetry::None };
    let threads = rayon::current_num_threads();
    let started = Instant::now();
    let (made, judged) =
        random_puzzles(&shape, seed, puzzles, u64::MAX, &wanted, None, |_, _| true).map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "random 15x15 puzzles for the line player (density 0.5, seed {seed}): {} of {judged} candidates kept in {seconds:.3} s wall, {:.1} puzzles/s ({threads} threads)",
        made.len(),
        made.len() as f64 / seconds.max(1e-9)
    );
    let defaults: Vec<PathBuf> = DEFAULT_PICTURES.iter().map(|p| bundled(p.as_ref())).collect::<Result<_, _>>()?;
    for path in if pictures.is_empty() { &defaults } else { pictures } {
        let picture = read_picture(path).map_err(|e| e.to_string())?;
        let started = Instant::now();
        let repaired = repair_picture(&picture, &wanted, RepairBudget::default(), &Tally::default())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let seconds = started.elapsed().as_secs_f64();
        let changes =
            repaired.repairs.first().map_or("no repair".to_string(), |(c, _)| format!("{} changed cells", c.len()));
        println!(
            "repair of {} ({}x{}, {} cells undecided by the line player): {changes}, {} repairs, stage {}, {} pictures judged, {seconds:.3} s wall ({threads} threads)",
            path.display(),
            picture.width,
            picture.height,
            repaired.undecided,
            repaired.repairs.len(),
            repaired.stage,
            repaired.evaluations
        );
    }
    Ok(ExitCode::SUCCESS)
}
