//! The complete solver end to end on puzzles the test makes: tournament
//! sets (read, named `FILE#N`, truncated and malformed ones rejected with a
//! located error), `--first`, `--timeout` and `--max-nodes` reporting
//! `unknown`, the same output for any thread count, large boards
//! answered within the limit, and `bench --boards` beside another solver
//! (stand-in programs that agree, disagree, print a wrong board or junk,
//! fail, die by a signal or hang).

use crate::cli::{fails, run, stderr, write};
use rand::{Rng, SeedableRng};
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    crate::cli::fresh_dir(&format!("complete-{name}"))
}

fn runs(cells: impl Iterator<Item = bool>) -> Vec<u32> {
    let mut out = vec![];
    let mut run = 0;
    for c in cells.chain(std::iter::once(false)) {
        if c {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

/// A random `side`x`side` picture: its column clues then its row clues.
fn picture(rng: &mut impl Rng, side: usize) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let cells: Vec<bool> = (0..side * side).map(|_| rng.gen_bool(0.5)).collect();
    let cols = (0..side).map(|c| runs((0..side).map(|r| cells[r * side + c]))).collect();
    let rows = (0..side).map(|r| runs((0..side).map(|c| cells[r * side + c]))).collect();
    (cols, rows)
}

fn clue_text(c: &[u32], sep: &str) -> String {
    if c.is_empty() {
        "0".into()
    } else {
        c.iter().map(u32::to_string).collect::<Vec<_>>().join(sep)
    }
}

/// A tournament set of `n` random 25x25 pictures.
fn tournament(seed: u64, n: u32) -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::new();
    for i in 1..=n {
        let (cols, rows) = picture(&mut rng, 25);
        text.push_str(&format!("${i}\n"));
        for c in cols.iter().chain(&rows) {
            text.push_str(&clue_text(c, "\t"));
            text.push('\n');
        }
    }
    text
}

/// A `.non` puzzle from clues.
fn non(cols: &[Vec<u32>], rows: &[Vec<u32>]) -> String {
    let lines = |ls: &[Vec<u32>]| ls.iter().map(|c| clue_text(c, ",")).collect::<Vec<_>>().join("\n");
    format!("width {}\nheight {}\nrows\n{}\ncolumns\n{}\n", cols.len(), rows.len(), lines(rows), lines(cols))
}

fn json(args: &[&str]) -> (Vec<serde_json::Value>, std::process::Output) {
    let out = run(args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", stderr(&out)));
    (v.as_array().unwrap().clone(), out)
}

/// The JSON without the fields that measure time.
fn untimed(list: &[serde_json::Value]) -> Vec<serde_json::Value> {
    list.iter()
        .cloned()
        .map(|mut p| {
            p.as_object_mut().unwrap().remove("search_ms");
            p
        })
        .collect()
}

#[test]
fn a_tournament_set_is_analysed_with_names_and_any_thread_count() {
    let d = dir("set");
    let set = write(&d, "set.txt", tournament(5, 6));
    let (one, out) = json(&["analyze", &set, "--json", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(one.len(), 6);
    for (i, p) in one.iter().enumerate() {
        assert_eq!(p["file"], format!("{set}#{}", i + 1));
        assert!(p["solutions"].as_u64().unwrap() >= 1, "{p}"); // a picture solves its clues
        assert!(p["stopped"].is_null());
    }
    let (two, _) = json(&["analyze", &set, "--json", "--threads", "2"]);
    assert_eq!(untimed(&one), untimed(&two));
    // one puzzle of the set, by name, for the commands reading one puzzle
    let named = format!("{set}#3");
    let out = run(&["solve", &named]);
    assert!(out.status.success() || out.status.code() == Some(1), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
    fails(&run(&["solve", &format!("{set}#9")]), 2, "the set holds no puzzle $9");
    fails(&run(&["solve", &set]), 2, "the set holds 6 puzzles; name one as");
}

#[test]
fn first_stops_at_one_solution() {
    let d = dir("first");
    let set = write(&d, "set.txt", tournament(7, 4));
    let (all, _) = json(&["analyze", &set, "--json"]);
    let (first, out) = json(&["analyze", &set, "--json", "--first"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (a, f) in all.iter().zip(&first) {
        assert_eq!(f["solutions"], 1);
        assert!(a["solutions"].as_u64().unwrap() >= 1);
        assert!(f["search_nodes"].as_u64().unwrap() <= a["search_nodes"].as_u64().unwrap());
    }
    assert!(all.iter().any(|p| p["solutions"] == 2), "the set should hold a puzzle with several solutions");
}

#[test]
fn out_of_time_or_nodes_is_unknown_and_fails() {
    let d = dir("limits");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (cols, rows) = picture(&mut rng, 50);
    let big = write(&d, "big.non", non(&cols, &rows));
    for (flag, value, why) in [("--timeout", "0.000001", "timeout"), ("--max-nodes", "0", "node budget")] {
        let (list, out) = json(&["analyze", &big, "--json", flag, value]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(list[0]["solutions"].is_null(), "{}", list[0]);
        assert_eq!(list[0]["stopped"], why);
        assert!(stderr(&out).contains(&format!("unknown: the solver stopped ({why})")), "{}", stderr(&out));
    }
    // within a limit of seconds: an answer or a clear unknown, and soon
    let started = std::time::Instant::now();
    let (list, _) = json(&["analyze", &big, "--json", "--timeout", "3"]);
    assert!(started.elapsed().as_secs_f64() < 20.0);
    assert!(list[0]["solutions"].as_u64().is_some_and(|n| n >= 1) || list[0]["stopped"] == "timeout", "{}", list[0]);
    // an empty 100x100 board: its one solution at once
    let empty = write(&d, "empty.non", non(&vec![vec![]; 100], &vec![vec![]; 100]));
    let (list, out) = json(&["analyze", &empty, "--json", "--timeout", "10"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(list[0]["solutions"], 1);
}

#[test]
fn bad_sets_are_located_errors() {
    let d = dir("bad");
    let good = tournament(9, 2);
    let cut: String = good.lines().take(40).map(|l| format!("{l}\n")).collect();
    let truncated = write(&d, "cut.txt", &cut);
    fails(&run(&["analyze", &truncated]), 2, &format!("{truncated}:41:1: puzzle $1 has 39 clue lines; expected 50"));
    let bad: String =
        good.lines().enumerate().map(|(i, l)| if i == 1 { "1\t-2\n".to_string() } else { format!("{l}\n") }).collect();
    let malformed = write(&d, "bad.txt", &bad);
    fails(&run(&["analyze", &malformed]), 2, &format!("{malformed}:2:3: expected a clue line"));
    fails(&run(&["bench", "--boards", &malformed]), 2, &format!("{malformed}:2:3"));
}

/// An executable shell script `name` in `dir` standing in for nonogrid.
fn stand_in(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = write(dir, name, format!("#!/bin/sh\n{body}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A board in nonogrid's output format: `clues` (the row clue column, as
/// it prints it) then the cells, `#`/`.` in `rows` printed `■`/`.`.
fn board_text(rows: &[&str], clues: &[&str]) -> String {
    let cells = |r: &str| r.chars().map(|c| if c == '#' { "■" } else { "." }).collect::<Vec<_>>().join(" ");
    rows.iter().zip(clues).map(|(r, c)| format!("{c:>3} {}\n", cells(r))).collect()
}

#[test]
fn bench_trusts_only_answers_of_the_other_solver_and_cleans_up() {
    let d = dir("bench");
    let temp = crate::cli::fresh_dir("bench-tmp");
    let puzzle = crate::cli::repo("specs/puzzles/hakank-bear.non"); // one solution
                                                                    // a 2x3 picture with an empty middle row (one solution), and a 2x2
                                                                    // one with two
    let empty_row = write(&d, "gap.non", "width 2\nheight 3\n\nrows\n1\n0\n1\n\ncolumns\n1,1\n0\n");
    let two = write(&d, "two.non", "width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n");
    let bench = |puzzle: &str, bin: &str| {
        let args = ["bench", "--boards", puzzle, "--nonogrid", bin, "--nonogrid-timeout", "0.5"];
        let out = std::process::Command::new(crate::cli::BIN).env("TMPDIR", &temp).args(args).output().unwrap();
        (String::from_utf8_lossy(&out.stdout).into_owned(), out)
    };
    let goal =
        "00001000000000011000000000111100111100011111111111100001111111100000111111111000111000011110110000000011";
    let bear: Vec<String> =
        goal.as_bytes().chunks(13).map(|r| r.iter().map(|&c| if c == b'1' { '#' } else { '.' }).collect()).collect();
    let bear: Vec<&str> = bear.iter().map(String::as_str).collect();
    let printed = |text: String| format!("cat <<'EOF'\n# # 1\n{text}EOF");
    let solved = printed(board_text(&bear, &["1", "2", "4 4", "12", "8", "9", "3 4", "2 2"]));
    let black = printed(board_text(&["#############"; 8], &[""; 8]));
    let cases = [
        ("agrees", &puzzle, solved.as_str(), Some(0), "answers agree wherever both answered", "0 without an answer"),
        (
            "all black",
            &puzzle,
            black.as_str(),
            Some(1),
            "NONOGRID WRONG: its board does not meet the clues",
            "DIFFER on 1",
        ),
        (
            "claims",
            &puzzle,
            "echo 'Backtracking found 2 solutions'",
            Some(0),
            "none (output is not an answer)",
            "1 without",
        ),
        ("junk", &puzzle, "echo 'not a board'", Some(0), "none (output is not an answer)", "1 without an answer"),
        ("signal", &puzzle, "kill -9 $$", Some(0), "none (killed by signal 9)", "1 without an answer"),
        ("error", &puzzle, "exit 3", Some(0), "none (exited with status 3)", "1 without an answer"),
        (
            "hangs",
            &puzzle,
            "sleep 30",
            Some(0),
            "none (no answer within 0.5 s (killed))",
            "each killed past 0.5 s); 1 without",
        ),
        (
            "empty row",
            &empty_row,
            &printed(board_text(&["#.", "..", "#."], &["1", "", "1"])),
            Some(0),
            "agree",
            "0 without",
        ),
        ("one of two", &two, &printed(board_text(&["#.", ".#"], &["1", "1"])), Some(1), "ANSWERS DIFFER", "0 without"),
        (
            "both of two",
            &two,
            &printed(format!(
                "1-th solution:\n{}2-th solution:\n{}",
                board_text(&["#.", ".#"], &["", ""]),
                board_text(&[".#", "#."], &["", ""])
            )),
            Some(0),
            "answers agree",
            "0 without",
        ),
    ];
    for (name, puzzle, body, status, says, count) in cases {
        let started = std::time::Instant::now();
        let (text, out) = bench(puzzle, &stand_in(&d, &name.replace(' ', "-"), body));
        assert_eq!(out.status.code(), status, "{name}: {text}{}", stderr(&out));
        assert!(text.contains(says) && text.contains(count), "{name}: {text}");
        assert!(text.contains("CPU ratio nonogrid / ours:"), "{text}");
        assert!(started.elapsed().as_secs_f64() < 20.0, "{name} was not killed in time");
    }
    let left: Vec<_> = std::fs::read_dir(&temp).unwrap().collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    fails(
        &run(&["bench", "--boards", &puzzle, "--nonogrid", "/bin/true", "--nonogrid-timeout", "0"]),
        2,
        "expected a positive number of seconds",
    );
}
