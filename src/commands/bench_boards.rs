//! `bench --boards PUZZLES... [--nonogrid BIN]`: the complete solver's
//! answer (0, 1 or 2+ solutions) and time per puzzle, and, in the same run,
//! nonogrid's (an independent Rust solver, `cargo install nonogrid
//! --features xml`) on the same puzzles written as webpbn XML, with a check
//! that the answers agree.
//!
//! Our time is the solver alone, in process (the puzzle already read); a
//! nonogrid time is its whole process (start, parse, solve, print) — the
//! time of nonogrid on a 1x1 puzzle is printed as its process overhead.

use super::CmdResult;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::play::analysis::count;
use stratsynth::domains::nonogram::formats::non::Puzzle;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::domains::nonogram::formats::webpbn::write_webpbn;

/// Runs nonogrid on a puzzle (written to `dir` as XML) with `-m 2`: its
/// answer (0, 1 or 2 for two or more) and wall time.
fn nonogrid(bin: &Path, dir: &Path, name: &str, puzzle: &Puzzle) -> Result<(usize, Duration), String> {
    let xml = dir.join(format!("{name}.xml"));
    std::fs::write(&xml, write_webpbn(puzzle)).map_err(|e| format!("{}: {e}", xml.display()))?;
    let started = Instant::now();
    let out = Command::new(bin).arg("-m").arg("2").arg(&xml).output().map_err(|e| format!("{}: {e}", bin.display()))?;
    let time = started.elapsed();
    if !out.status.success() {
        return Ok((0, time)); // nonogrid exits with an error on contradictory clues
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let found = text
        .lines()
        .find_map(|l| l.strip_prefix("Backtracking found ").and_then(|r| r.split_whitespace().next()?.parse::<usize>().ok()));
    Ok((found.unwrap_or(1).min(2), time))
}

/// `bench --boards`.
pub fn run(puzzles: &[PathBuf], bin: Option<&Path>) -> CmdResult {
    let dir = std::env::temp_dir().join(format!("stratsynth-bench-boards-{}", std::process::id()));
    if bin.is_some() {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let show = |n: usize| if n == 2 { "2+".to_string() } else { n.to_string() };
    let (mut ours_total, mut theirs_total) = (Duration::ZERO, Duration::ZERO);
    let mut disagreements = 0;
    println!("{:<52} {:>9} {:>10} {:>9} {:>13}", "puzzle", "solutions", "ours ms", "nonogrid", "nonogrid ms");
    for (i, path) in puzzles.iter().enumerate() {
        let puzzle = read_puzzle(path).map_err(|e| e.to_string())?;
        let (solutions, _, _, time) = count(&puzzle).map_err(|e| format!("{}: {e}", path.display()))?;
        ours_total += time;
        let theirs = bin.map(|b| nonogrid(b, &dir, &format!("p{i}"), &puzzle)).transpose()?;
        let (answer, ms) = match theirs {
            Some((n, t)) => {
                theirs_total += t;
                if n != solutions.len() {
                    disagreements += 1;
                }
                (show(n), format!("{:.2}", t.as_secs_f64() * 1000.0))
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<52} {:>9} {:>10.2} {answer:>9} {ms:>13}",
            path.display(),
            show(solutions.len()),
            time.as_secs_f64() * 1000.0
        );
    }
    println!("\ncomplete solver: {} puzzles in {:.3} s (solver only, one thread)", puzzles.len(), ours_total.as_secs_f64());
    if let Some(b) = bin {
        let one = Puzzle { title: None, width: 1, height: 1, rows: vec![vec![1]], columns: vec![vec![1]], goal: None };
        let (_, overhead) = nonogrid(b, &dir, "one", &one)?;
        println!(
            "nonogrid:        {} puzzles in {:.3} s (whole processes; one process on a 1x1 puzzle takes {:.2} ms)",
            puzzles.len(),
            theirs_total.as_secs_f64(),
            overhead.as_secs_f64() * 1000.0
        );
        println!(
            "ratio nonogrid / ours: {:.2}; answers {}",
            theirs_total.as_secs_f64() / ours_total.as_secs_f64().max(1e-9),
            if disagreements == 0 { "all agree".to_string() } else { format!("DIFFER on {disagreements} puzzles") }
        );
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(if disagreements == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
