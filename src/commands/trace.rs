//! `trace PUZZLES --seed S -o OUT`: random-rollout solution traces of
//! nonogram puzzles, written as test transitions.

use super::{check_output, CmdResult};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::grid::Board;
use stratsynth::domains::nonogram::board::trace::trace_puzzle;
use stratsynth::domains::nonogram::formats::lines::write_lines_file;
use stratsynth::domains::nonogram::formats::non::read_non_file;

/// Options of `trace`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct TraceArgs {
    /// `.non` puzzles.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output `.lines` file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `trace PUZZLES --seed S -o OUT`: random-rollout solution traces.
pub fn trace(args: &TraceArgs) -> CmdResult {
    let (puzzles, seed, output) = (&args.puzzles, args.seed, args.output.as_path());
    let inputs: Vec<&Path> = puzzles.iter().map(|p| p.as_path()).collect();
    check_output(output, &inputs)?;
    let limit = stratsynth::dsl::schema::Schema::nonogram().file.limits.max_state as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut transitions = vec![];
    let mut traced = 0;
    for path in puzzles {
        let puzzle = read_non_file(path).map_err(|e| e.to_string())?;
        if puzzle.width.max(puzzle.height) > limit {
            eprintln!("skipping {}: lines longer than {limit} cells", path.display());
            continue;
        }
        let board = Board::from_puzzle(&puzzle);
        let trace = trace_puzzle(&board, &mut rng).map_err(|e| format!("{}: {e}", path.display()))?;
        transitions.extend(trace.transitions);
        traced += 1;
    }
    write_lines_file(output, &transitions).map_err(|e| e.to_string())?;
    let skipped = match puzzles.len() - traced {
        0 => String::new(),
        n => format!(" ({n} skipped)"),
    };
    eprintln!("wrote {} transitions from {traced} puzzles{skipped} to {}", transitions.len(), output.display());
    Ok(ExitCode::SUCCESS)
}
