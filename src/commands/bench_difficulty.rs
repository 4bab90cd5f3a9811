//! `bench --boards PUZZLES... --difficulty`: what `analyze`'s difficulty
//! measure (the model player's steps, oracle reveals and bits) costs beside
//! the solve. Each puzzle is analysed as `analyze` does (line player); per
//! puzzle with one solution, the CPU time of the complete solver and of the
//! difficulty measure (each its thread's) and their ratio. A puzzle whose
//! analysis takes under [`AGAIN`] is analysed [`REPEATS`] times and each
//! part's least time kept (at a few hundred microseconds a part, a page
//! fault or a cold cache is most of a single figure). Printed: the puzzles
//! solved in under a second, the worst ratios among them, and those above
//! ten times the solve.

use super::puzzle_set::{read_all, run_all, SolverArgs};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::nonogram::play::analysis::analyse;

/// The ratio the issue allows: the difficulty at most this many times the
/// solve.
const MAX_RATIO: f64 = 10.0;

/// Puzzles solved in under this much CPU are held to [`MAX_RATIO`].
const FAST: Duration = Duration::from_secs(1);

/// Analyses taking less than this are made [`REPEATS`] times.
const AGAIN: Duration = Duration::from_millis(20);

/// Analyses of a fast puzzle.
const REPEATS: usize = 5;

/// Worst ratios listed.
const SHOWN: usize = 10;

/// `bench --boards --difficulty`.
pub fn run(puzzles: &[PathBuf], solver: &SolverArgs) -> CmdResult {
    let set = read_all(puzzles)?;
    let results = run_all(&set, solver.threads, |_, name, p| {
        let mut best = analyse(p, None, solver.limits()).map_err(|e| format!("{name}: {e}"))?;
        for _ in 1..REPEATS {
            if best.search_cpu + best.rating_cpu >= AGAIN {
                break;
            }
            let again = analyse(p, None, solver.limits()).map_err(|e| format!("{name}: {e}"))?;
            best.search_cpu = best.search_cpu.min(again.search_cpu);
            best.rating_cpu = best.rating_cpu.min(again.rating_cpu);
        }
        Ok::<_, String>(best)
    })?;
    let (mut rated, mut unrated, mut slow) = (vec![], vec![], 0);
    let (mut search, mut rating) = (Duration::ZERO, Duration::ZERO);
    for ((name, _), result) in set.iter().zip(results) {
        let a = result?;
        if a.solution_count() != Some(1) {
            continue;
        }
        if a.search_cpu >= FAST {
            slow += 1;
            continue;
        }
        if a.play_stopped.is_some() {
            unrated.push(name.as_str());
            continue;
        }
        search += a.search_cpu;
        rating += a.rating_cpu;
        let ratio = a.rating_cpu.as_secs_f64() / a.search_cpu.as_secs_f64().max(1e-6);
        rated.push((ratio, name.as_str(), a.search_cpu, a.rating_cpu));
    }
    rated.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    println!("{:<40} {:>12} {:>14} {:>8}", "puzzle (worst first)", "solve CPU ms", "difficulty ms", "ratio");
    for (ratio, name, s, r) in rated.iter().take(SHOWN) {
        println!("{name:<40} {:>12.3} {:>14.3} {ratio:>8.2}", s.as_secs_f64() * 1e3, r.as_secs_f64() * 1e3);
    }
    let over = rated.iter().filter(|r| r.0 > MAX_RATIO).count();
    println!(
        "\ndifficulty measure on {} puzzles with one solution solved in under {} s of CPU ({slow} slower left out): \
         solve {:.3} CPU s, difficulty {:.3} CPU s in all; worst ratio {:.2}; {over} above {MAX_RATIO}x",
        rated.len(),
        FAST.as_secs(),
        search.as_secs_f64(),
        rating.as_secs_f64(),
        rated.first().map_or(0.0, |r| r.0)
    );
    for name in &unrated {
        eprintln!("{name}: difficulty unknown: the player stopped before the end of its solve");
    }
    Ok(if over == 0 && unrated.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
