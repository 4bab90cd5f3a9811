//! `bench --boards PUZZLES... --sat-compare`: the SAT fallback's two
//! encodings of the formula (regular, block starts) and two solvers
//! (CaDiCaL, Z3), the four pairs measured against each other on the same
//! boards. Each puzzle is solved four times on the same worker thread,
//! once with each pair; the search before the handover is deterministic,
//! so every pair gets the same board, the whole root board at once (no
//! cube and conquer). Per puzzle handed over: each pair's CPU time in the
//! fallback (its thread's, formula included) and the answer, which must
//! agree; then each pair's total, and the total of the per-puzzle least.

use super::puzzle_set::{read_all, run_all, SolverArgs};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::complete::{Limits, Outcome};
use stratsynth::domains::nonogram::board::encoding::Encoding;
use stratsynth::domains::nonogram::board::sat::SatSolver;
use stratsynth::domains::nonogram::formats::non::check_goal;
use stratsynth::domains::nonogram::play::analysis::count;

/// An answer as printed: the count, or `unknown`.
fn show(out: &Outcome) -> String {
    out.count().map_or("unknown".into(), |n| n.to_string())
}

/// The four pairs of encoding and solver, in the columns' order.
fn pairs() -> Vec<(Encoding, SatSolver)> {
    Encoding::ALL.into_iter().flat_map(|e| SatSolver::ALL.map(|s| (e, s))).collect()
}

/// A pair's column heading.
fn heading((encoding, by): (Encoding, SatSolver)) -> String {
    format!("{}/{}", encoding.name(), by.name())
}

/// `bench --boards --sat-compare`.
pub fn run(puzzles: &[PathBuf], solver: &SolverArgs) -> CmdResult {
    let set = read_all(puzzles)?;
    let pairs = pairs();
    let results = run_all(&set, solver.threads, |_, name, p| {
        pairs
            .iter()
            .map(|&(sat_encoding, sat_solver)| {
                let (sat_encoding, sat_solver) = (Some(sat_encoding), Some(sat_solver));
                count(p, Limits { sat_encoding, sat_solver, cube_conflicts: None, ..solver.limits() })
                    .map(|r| r.0)
                    .map_err(|e| format!("{name}: {e}"))
            })
            .collect::<Result<Vec<Outcome>, String>>()
    })?;
    print!("{:<40} {:>8}", "puzzle", "answer");
    for &pair in &pairs {
        print!(" {:>15}", heading(pair));
    }
    println!("  (fallback CPU s)");
    let (mut handed, mut differ, mut wrong, mut compared) = (0, 0, 0, 0);
    let (mut totals, mut least, mut fastest) = (vec![0.0f64; pairs.len()], 0.0, vec![0usize; pairs.len()]);
    for ((name, puzzle), result) in set.iter().zip(results) {
        let outs = result?;
        if !outs.iter().any(|o| o.by_sat) {
            continue;
        }
        handed += 1;
        let secs: Vec<f64> = outs.iter().map(|o| o.sat_time.as_secs_f64()).collect();
        totals.iter_mut().zip(&secs).for_each(|(t, s)| *t += s);
        let best = (0..secs.len()).min_by(|&a, &b| secs[a].total_cmp(&secs[b])).expect("four pairs");
        least += secs[best];
        fastest[best] += 1;
        let answers: Vec<String> = outs.iter().map(show).collect();
        let known: Vec<usize> = outs.iter().filter_map(|o| o.count()).collect();
        compared += usize::from(known.len() >= 2);
        let mut note = String::new();
        if known.windows(2).any(|w| w[0] != w[1]) {
            differ += 1;
            note.push_str(&format!("  ANSWERS DIFFER: {}", answers.join(" ")));
        }
        if let Some(bad) = outs.iter().flat_map(|o| &o.solutions).find_map(|s| check_goal(puzzle, s).err()) {
            wrong += 1;
            note.push_str(&format!("  WRONG: a solution found is not one: {bad}"));
        }
        let answer = known.first().map_or("unknown".to_string(), |n| n.to_string());
        print!("{name:<40} {answer:>8}");
        for s in &secs {
            print!(" {s:>15.3}");
        }
        println!("{note}");
    }
    println!(
        "\nSAT fallback on {handed} of {} puzzles (the same board each; CPU s, each its thread's, formula included; \
         threads: {}):",
        set.len(),
        solver.threads.unwrap_or_else(rayon::current_num_threads)
    );
    for (i, &pair) in pairs.iter().enumerate() {
        println!(
            "  {:<16} {:>10.3} CPU s  ({:.2} x the least pair's; fastest on {} puzzles)",
            heading(pair),
            totals[i],
            totals[i] / totals.iter().copied().fold(f64::INFINITY, f64::min).max(1e-9),
            fastest[i]
        );
    }
    println!(
        "  per-puzzle least {least:>10.3} CPU s; answers {}",
        match (differ + wrong, compared) {
            (0, 0) => "not compared: no puzzle had two pairs that ended (raise --timeout)".to_string(),
            (0, _) => format!("agree (on the {compared} puzzles where two or more pairs ended)"),
            _ => format!("DIFFER on {differ}, {wrong} WRONG"),
        }
    );
    Ok(if differ + wrong == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
