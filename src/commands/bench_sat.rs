//! `bench --boards PUZZLES... --sat-compare`: the SAT fallback's two
//! solvers, CaDiCaL and Z3, measured against each other on the same
//! formulas. Each puzzle is solved twice on the same worker thread, once
//! with each solver; the search before the handover is deterministic, so
//! both get the same board, encoded the same way (`cnf`), the whole root
//! board at once (no cube and conquer). Per puzzle
//! handed over: each solver's CPU time in the fallback (its thread's,
//! formula included) and the answers, which must agree; then the totals
//! and their ratio.

use super::puzzle_set::{read_all, run_all, SolverArgs};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::complete::{Limits, Outcome};
use stratsynth::domains::nonogram::board::sat::SatSolver;
use stratsynth::domains::nonogram::formats::non::check_goal;
use stratsynth::domains::nonogram::play::analysis::count;

/// An answer as printed: the count, or `unknown`.
fn show(out: &Outcome) -> String {
    out.count().map_or("unknown".into(), |n| n.to_string())
}

/// `bench --boards --sat-compare`.
pub fn run(puzzles: &[PathBuf], solver: &SolverArgs) -> CmdResult {
    let set = read_all(puzzles)?;
    let by = [SatSolver::Cadical, SatSolver::Z3];
    let results = run_all(&set, solver.threads, |_, name, p| {
        by.iter()
            .map(|&sat_solver| {
                count(p, Limits { sat_solver, cube_conflicts: None, ..solver.limits() })
                    .map(|r| r.0)
                    .map_err(|e| format!("{name}: {e}"))
            })
            .collect::<Result<Vec<Outcome>, String>>()
    })?;
    println!("{:<40} {:>9} {:>12} {:>9} {:>12} {:>8}", "puzzle", "CaDiCaL", "CPU s", "Z3", "CPU s", "Z3/CaD");
    let (mut handed, mut differ, mut wrong, mut totals) = (0, 0, 0, [0.0f64; 2]);
    for ((name, puzzle), result) in set.iter().zip(results) {
        let outs = result?;
        if !outs.iter().any(|o| o.by_sat) {
            continue;
        }
        handed += 1;
        let secs: Vec<f64> = outs.iter().map(|o| o.sat_time.as_secs_f64()).collect();
        totals[0] += secs[0];
        totals[1] += secs[1];
        let mut note = String::new();
        if let (Some(a), Some(b)) = (outs[0].count(), outs[1].count()) {
            if a != b {
                differ += 1;
                note.push_str("  ANSWERS DIFFER");
            }
        }
        if let Some(bad) = outs.iter().flat_map(|o| &o.solutions).find_map(|s| check_goal(puzzle, s).err()) {
            wrong += 1;
            note.push_str(&format!("  WRONG: a solution found is not one: {bad}"));
        }
        println!(
            "{name:<40} {:>9} {:>12.3} {:>9} {:>12.3} {:>8.2}{note}",
            show(&outs[0]),
            secs[0],
            show(&outs[1]),
            secs[1],
            secs[1] / secs[0].max(1e-9)
        );
    }
    println!(
        "\nSAT fallback on {handed} of {} puzzles (the same formula each): CaDiCaL {:.3} CPU s, Z3 {:.3} CPU s \
         (each its thread's, formula included; threads: {}); Z3 / CaDiCaL = {:.2}; answers {}",
        set.len(),
        totals[0],
        totals[1],
        solver.threads.unwrap_or_else(rayon::current_num_threads),
        totals[1] / totals[0].max(1e-9),
        if differ + wrong == 0 { "agree".to_string() } else { format!("DIFFER on {differ}, {wrong} WRONG") }
    );
    Ok(if differ + wrong == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
