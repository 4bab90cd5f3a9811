//! `bench --boards PUZZLES... [--nonogrid BIN] [--solutions FILE]`: the
//! complete solver's answer (0, 1 or 2+ solutions; `unknown` past its
//! limits) per puzzle and its CPU time, and, in the same run, nonogrid's
//! (an independent Rust solver, `cargo install nonogrid`) on the same
//! puzzles, one process per puzzle, with the CPU ratio and a check that the
//! answers agree.
//!
//! CPU time is user + system time from the kernel: ours over the whole
//! parallel solve (every thread), nonogrid's over its child processes. A
//! nonogrid answer is read from its output, every board it prints checked
//! against the clues (a board that does not meet them is a wrong answer);
//! output that is not an answer (junk, a partly solved board, an error
//! exit, a death by a signal) or a process past its timeout
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
use stratsynth::usage::cpu_time;

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
    /// A count of the boards it printed, each checked against the clues:
    /// 1, or 2 for two or more distinct ones.
    Count(usize),
    /// It printed a full board that does not meet the clues (why).
    Wrong(String),
    /// Not an answer (why).
    NoAnswer(String),
}

/// The cells at the end of a line of nonogrid's output, if it ends in
/// `width` cell symbols (`■`/`⬛` filled, `.` empty, `?` unknown), spaces
/// between them or not: `Some(None)` for each unknown cell.
fn board_row(line: &str, width: usize) -> Option<Vec<Option<bool>>> {
    let mut cells = vec![];
    for c in line.trim_end().chars().rev().filter(|c| !c.is_whitespace()) {
        if cells.len() == width {
            break;
        }
        cells.push(match c {
            '■' | '⬛' => Some(true),
            '.' => Some(false),
            '?' => None,
            _ => return None,
        });
    }
    cells.reverse();
    (cells.len() == width).then_some(cells)
}

/// The boards in nonogrid's output: each run of `height` lines ending in a
/// row of `width` cells (the clue columns before them ignored).
fn boards(out: &str, width: usize, height: usize) -> Vec<Vec<Option<bool>>> {
    let mut found = vec![];
    let mut run: Vec<Vec<Option<bool>>> = vec![];
    for line in out.lines().chain([""]) {
        match board_row(line, width) {
            Some(row) => run.push(row),
            None => {
                if run.len() == height {
                    found.push(run.concat());
                }
                run.clear();
            }
        }
    }
    found
}

/// Reads nonogrid's answer from how it ended and its output: every full
/// board it printed (the solved board, or each `N-th solution:`) is
/// checked against `puzzle`'s clues and the distinct ones counted; a board
/// with unknown cells (`?`) alone is no answer, and so is an error exit or
/// a death by a signal (never a count: nonogrid has no "no solution"
/// output to read).
fn read_answer(status: std::process::ExitStatus, out: &str, puzzle: &Puzzle) -> Theirs {
    if !status.success() {
        use std::os::unix::process::ExitStatusExt;
        return Theirs::NoAnswer(match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => "crashed".into(),
        });
    }
    let all = boards(out, puzzle.width, puzzle.height);
    let full: Vec<Vec<bool>> = all.iter().filter_map(|b| b.iter().copied().collect::<Option<Vec<bool>>>()).collect();
    if let Some(why) = full.iter().find_map(|b| check_goal(puzzle, b).err()) {
        return Theirs::Wrong(format!("its board does not meet the clues: {why}"));
    }
    let mut distinct = full;
    distinct.sort();
    distinct.dedup();
    match (distinct.len(), all.len()) {
        (0, 0) => Theirs::NoAnswer("output is not an answer".into()),
        (0, _) => Theirs::NoAnswer("partly solved board".into()),
        (n, _) => Theirs::Count(n.min(2)),
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
    let out_path = dir.join(format!("p{i}.out"));
    std::fs::write(&file, nonogrid_text(puzzle)).map_err(|e| format!("{}: {e}", file.display()))?;
    let create = |p: &Path| std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut child = Command::new(bin)
        .args(["-m", if first { "1" } else { "2" }])
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(create(&out_path)?)
        .stderr(Stdio::null())
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
    Ok(read_answer(status, &read(&out_path)?, puzzle))
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
            Some(Theirs::Wrong(why)) => {
                differ += 1;
                note.push_str(&format!("  NONOGRID WRONG: {why}"));
                "wrong".to_string()
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
