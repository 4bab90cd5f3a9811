//! `bench --boards PUZZLES... [--nonogrid BIN] [--solutions FILE]`: the
//! complete solver's answer (0, 1 or 2+ solutions; `unknown` past its
//! limits) per puzzle and its CPU time, and, in the same run, nonogrid's
//! (an independent Rust solver, `cargo install nonogrid`) on the same
//! puzzles, one process per puzzle, with the CPU ratio and a check that the
//! answers agree.
//!
//! CPU time is user + system time from the kernel: ours over the whole
//! parallel solve (every thread), nonogrid's over its child processes. A
//! nonogrid answer is read from its output; output that is not an answer
//! (junk, a partly solved board, a crash) or a process past its timeout
//! (`--nonogrid-timeout`, else `--timeout`) is reported as such and never
//! counted as agreement; its CPU time up to the kill is counted. nonogrid's
//! processes run on the same worker threads as ours, after ours. Its
//! puzzle files live in a temporary directory removed whatever happens.

use super::puzzle_set::{read_all, run_all, SolverArgs};
use super::CmdResult;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::board::complete::Outcome;
use stratsynth::domains::nonogram::formats::non::{check_goal, Puzzle};
use stratsynth::domains::nonogram::formats::tournament::parse_solutions;
use stratsynth::domains::nonogram::play::analysis::count;

/// User + system CPU time of this process (`RUSAGE_SELF`) or of its waited
/// children (`RUSAGE_CHILDREN`).
fn cpu_time(who: libc::c_int) -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A puzzle in nonogrid's own text format (TOML: one clue per line).
fn nonogrid_text(p: &Puzzle) -> String {
    let clues = |lines: &[Vec<u32>]| {
        lines
            .iter()
            .map(|c| {
                if c.is_empty() {
                    "0".to_string()
                } else {
                    c.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!("[clues]\ncolumns = \"\"\"\n{}\n\"\"\"\nrows = \"\"\"\n{}\n\"\"\"\n", clues(&p.columns), clues(&p.rows))
}

/// What nonogrid said about one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Theirs {
    /// A count: 0, 1, or 2 for two or more.
    Count(usize),
    /// Not an answer (why).
    NoAnswer(String),
}

/// Reads nonogrid's answer from its exit status and output: `Backtracking
/// found N solutions`, one fully solved board (a row of empty cells, `.`
/// only, counts as a row), or an error exit on contradictory clues. A board
/// with unknown cells (`?`) is no answer.
fn read_answer(success: bool, out: &str, err: &str, height: usize) -> Theirs {
    if !success {
        return if err.contains("panicked") || out.trim().is_empty() && err.trim().is_empty() {
            Theirs::NoAnswer("crashed".into())
        } else {
            Theirs::Count(0)
        };
    }
    if let Some(n) = out.lines().find_map(|l| {
        l.strip_prefix("Backtracking found ").and_then(|r| r.split_whitespace().next()?.parse::<usize>().ok())
    }) {
        return Theirs::Count(n.min(2));
    }
    // a board row: its clue (none for an empty row) then its cells; the
    // column clues above the board start with `#`
    let is_row = |l: &&str| {
        !l.starts_with('#') && l.trim_end().ends_with(['■', '.', '?']) && !l.chars().any(|c| c.is_ascii_alphabetic())
    };
    let board: Vec<&str> = out.lines().filter(is_row).collect();
    match board.len() {
        n if n != height => Theirs::NoAnswer("output is not an answer".into()),
        _ if board.iter().any(|l| l.contains('?')) => Theirs::NoAnswer("partly solved board".into()),
        _ => Theirs::Count(1),
    }
}

/// Runs nonogrid on one puzzle (written into `dir`), killed past `timeout`.
fn nonogrid(
    bin: &Path,
    dir: &Path,
    i: usize,
    puzzle: &Puzzle,
    first: bool,
    timeout: Duration,
) -> Result<Theirs, String> {
    let file = dir.join(format!("p{i}.toml"));
    let (out_path, err_path) = (dir.join(format!("p{i}.out")), dir.join(format!("p{i}.err")));
    std::fs::write(&file, nonogrid_text(puzzle)).map_err(|e| format!("{}: {e}", file.display()))?;
    let create = |p: &Path| std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut child = Command::new(bin)
        .args(["-m", if first { "1" } else { "2" }])
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(create(&out_path)?)
        .stderr(create(&err_path)?)
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            child.wait().map_err(|e| e.to_string())?;
            break None;
        }
        std::thread::sleep(Duration::from_micros(200));
    };
    let Some(status) = status else {
        return Ok(Theirs::NoAnswer(format!("no answer within {} s (killed)", timeout.as_secs_f64())));
    };
    let read = |p: &Path| {
        std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()).map_err(|e| format!("{}: {e}", p.display()))
    };
    Ok(read_answer(status.success(), &read(&out_path)?, &read(&err_path)?, puzzle.height))
}

/// The known solutions of a tournament set, by puzzle name.
fn known_solutions(file: Option<&Path>, sets: &[PathBuf]) -> Result<HashMap<String, Vec<bool>>, String> {
    let Some(file) = file else { return Ok(HashMap::new()) };
    let text = stratsynth::files::read_text(file).map_err(|e| e.to_string())?;
    let set = sets.first().ok_or("--solutions needs a puzzle set")?.display().to_string();
    Ok(parse_solutions(&text, &file.display().to_string(), &set).map_err(|e| e.to_string())?.into_iter().collect())
}

/// Checks our answer: every solution found is one, and a count of 1 is the
/// known solution (or the puzzle's goal). `Some(why)` if wrong.
fn check(puzzle: &Puzzle, out: &Outcome, known: Option<&Vec<bool>>) -> Option<String> {
    if let Some(bad) = out.solutions.iter().find_map(|s| check_goal(puzzle, s).err()) {
        return Some(format!("a solution found is not one: {bad}"));
    }
    let known = known.or(puzzle.goal.as_ref())?;
    match out.count() {
        Some(0) => Some("no solution found, but one is known".into()),
        Some(1) if out.solutions[0] != *known && out.solutions.len() == 1 => {
            Some("the one solution found is not the known one".into())
        }
        _ => None,
    }
}

/// `bench --boards`.
/// `nonogrid` is the other binary and the time each of its processes may
/// take; its processes run on the same `--threads` workers as ours.
pub fn run(
    puzzles: &[PathBuf],
    nonogrid_bin: Option<(&Path, Duration)>,
    solutions: Option<&Path>,
    solver: &SolverArgs,
) -> CmdResult {
    let set = read_all(puzzles)?;
    let known = known_solutions(solutions, puzzles)?;
    let show = |n: Option<usize>| match n {
        None => "unknown".to_string(),
        Some(n) if n == 2 || (n == 1 && solver.first) => format!("{n}+"),
        Some(n) => n.to_string(),
    };
    let (cpu0, wall) = (cpu_time(libc::RUSAGE_SELF), Instant::now());
    let ours = run_all(&set, solver.threads, |_, _, p| count(p, solver.limits()))?;
    let (ours_cpu, ours_wall) = (cpu_time(libc::RUSAGE_SELF) - cpu0, wall.elapsed());
    let dir = tempfile::Builder::new().prefix("stratsynth-bench-boards-").tempdir().map_err(|e| e.to_string())?;
    let children0 = cpu_time(libc::RUSAGE_CHILDREN);
    let theirs_all = match nonogrid_bin {
        Some((bin, timeout)) => {
            run_all(&set, solver.threads, |i, _, p| nonogrid(bin, dir.path(), i, p, solver.first, timeout).map(Some))?
        }
        None => set.iter().map(|_| Ok(None)).collect(),
    };
    let theirs_cpu = cpu_time(libc::RUSAGE_CHILDREN) - children0;
    let (mut wrong, mut unknown, mut differ, mut no_answer, mut by_sat) = (0, 0, 0, 0, 0);
    println!("{:<40} {:>9} {:>10} {:>9}", "puzzle", "solutions", "ours ms", "nonogrid");
    for (((name, puzzle), result), theirs) in set.iter().zip(ours).zip(theirs_all) {
        let (out, time) = result.map_err(|e| format!("{name}: {e}"))?;
        let theirs = theirs?;
        let mut note = String::new();
        if let Some(why) = check(puzzle, &out, known.get(name)) {
            wrong += 1;
            note = format!("  WRONG: {why}");
        }
        unknown += usize::from(out.stopped.is_some());
        by_sat += usize::from(out.by_sat);
        let answer = match &theirs {
            None => "-".to_string(),
            Some(Theirs::Count(n)) => {
                if out.count().is_some_and(|c| c != *n) {
                    differ += 1;
                    note.push_str("  ANSWERS DIFFER");
                }
                show(Some(*n))
            }
            Some(Theirs::NoAnswer(why)) => {
                no_answer += 1;
                format!("none ({why})")
            }
        };
        println!("{name:<40} {:>9} {:>10.2} {answer:>9}{note}", show(out.count()), time.as_secs_f64() * 1000.0);
    }
    println!(
        "\ncomplete solver: {} puzzles, {:.3} CPU s (user+sys, threads: {}, {:.3} s wall); {unknown} unknown; {by_sat} passed to the SAT fallback",
        set.len(),
        ours_cpu.as_secs_f64(),
        solver.threads.unwrap_or_else(rayon::current_num_threads),
        ours_wall.as_secs_f64()
    );
    if !known.is_empty() || set.iter().any(|(_, p)| p.goal.is_some()) {
        println!(
            "checked against the known solutions: {}",
            if wrong == 0 { "all right".to_string() } else { format!("{wrong} WRONG") }
        );
    }
    if let Some((_, timeout)) = nonogrid_bin {
        println!(
            "nonogrid:        {} puzzles, {:.3} CPU s (user+sys of its processes, each killed past {} s); {no_answer} without an answer",
            set.len(),
            theirs_cpu.as_secs_f64(),
            timeout.as_secs_f64()
        );
        println!(
            "CPU ratio nonogrid / ours: {:.2}; answers {}",
            theirs_cpu.as_secs_f64() / ours_cpu.as_secs_f64().max(1e-9),
            if differ == 0 {
                "agree wherever both answered".to_string()
            } else {
                format!("DIFFER on {differ} puzzles")
            }
        );
    }
    dir.close().map_err(|e| e.to_string())?;
    Ok(if wrong == 0 && differ == 0 && unknown == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved board with an empty row (no clue, no filled cell) is an
    /// answer; one with an unknown cell is not; a count line is read.
    #[test]
    fn reads_boards_with_empty_rows() {
        let out = "# # # 1 1\n# # # 1 1\n  2 \u{25a0} \u{25a0}\n    . .\n  2 \u{25a0} \u{25a0}\n";
        assert_eq!(read_answer(true, out, "", 3), Theirs::Count(1));
        assert_eq!(read_answer(true, out, "", 4), Theirs::NoAnswer("output is not an answer".into()));
        let partly = out.replace(". .", "? .");
        assert_eq!(read_answer(true, &partly, "", 3), Theirs::NoAnswer("partly solved board".into()));
        assert_eq!(read_answer(true, "Backtracking found 5 solutions.\n", "", 3), Theirs::Count(2));
    }
}
