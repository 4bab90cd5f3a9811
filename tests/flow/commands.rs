//! Flow puzzles end to end: `analyze` (text and `--json`, `--touching`
//! with solutions beside themselves,
//! `--max-nodes` reporting `unknown`), `print` (text and `--html`), `bench
//! --boards`, and bad input refused with a located error and status 2.

use crate::cli::{fails, fresh_dir, repo, run, write};

/// The JSON list `analyze --json` prints.
fn analysed(args: &[&str]) -> Vec<serde_json::Value> {
    let out = run(args);
    assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// The development set: every puzzle unique; 98 also with `--touching`,
/// the two others with where their solutions differ.
#[test]
fn analyze_counts_the_development_set() {
    let dev = repo("specs/flow/dev.flow");
    let strict = analysed(&["analyze", &dev, "--json"]);
    assert_eq!(strict.len(), 100);
    assert!(strict.iter().all(|p| p["solutions"] == 1 && p["stopped"].is_null() && p["differ"].is_null()));
    assert_eq!(strict[0]["file"], format!("{dev}#1"));
    assert!(strict[0]["solution"]["links"].as_array().is_some_and(|l| !l.is_empty()));
    let loose = analysed(&["analyze", &dev, "--json", "--touching"]);
    let several: Vec<&serde_json::Value> = loose.iter().filter(|p| p["solutions"] == 2).collect();
    assert_eq!(several.len(), 2);
    assert!(several.iter().all(|p| p["differ"].as_array().is_some_and(|d| !d.is_empty())));
    let out = run(&["analyze", &dev, "--touching"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("two of its solutions").count(), 2, "{text}");
}

/// Any extension and any layout; past the node budget the answer is
/// `unknown` (status 1).
#[test]
fn analyze_reads_any_layout_and_names_unknown() {
    let dir = fresh_dir("flow-layouts");
    let counted = write(&dir, "c.txt", "2 3 2\n(0, 0) (2, 0)\n(0, 1) (2, 1)\n");
    let out = analysed(&["analyze", &counted, "--json"]);
    assert_eq!((out[0]["solutions"].clone(), out[0]["colours"].clone()), (1.into(), 2.into()));
    let open = write(&dir, "open.flow", "A....\n.....\n.....\n.....\n....A\n");
    let stopped = run(&["analyze", &open, "--touching", "--max-nodes", "2", "--json"]);
    assert_eq!(stopped.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&stopped.stdout).unwrap();
    assert_eq!(
        (json[0]["solutions"].clone(), json[0]["stopped"].clone()),
        (serde_json::Value::Null, "node budget".into())
    );
    assert!(crate::cli::stderr(&stopped).contains("unknown: the solver stopped (node budget)"));
}

/// With `--touching` a puzzle whose only solution runs beside itself is
/// counted and drawn; the players, who reason under the strict
/// convention, give no figures for it (they once failed the command).
#[test]
fn analyze_touching_counts_a_solution_beside_itself() {
    let dir = fresh_dir("flow-touching");
    let beside = write(&dir, "beside.flow", "A..\n..A\n");
    let strict = run(&["analyze", &beside, "--json"]);
    assert_eq!(strict.status.code(), Some(1));
    let rules = repo("rules/flow/control.rules");
    for extra in [vec![], vec!["--rules", rules.as_str()]] {
        let mut args = vec!["analyze", beside.as_str(), "--json", "--touching"];
        args.extend(extra);
        let out = analysed(&args);
        assert_eq!(out[0]["solutions"], 1);
        assert_eq!(out[0]["solution"]["links"].as_array().map(Vec::len), Some(5));
        assert!(out[0]["steps"].is_null() && out[0]["difficulty"].is_null(), "{}", out[0]);
    }
}

/// `print` draws the board, solved with `--solve`, or as an HTML page.
#[test]
fn print_draws_boards() {
    let dir = fresh_dir("flow-print");
    let five = write(&dir, "five.flow", "# title \"Five\"\nR.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n");
    let out = run(&["print", &five, "--solve"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("solutions: 1") && text.contains("R-R B O-O"), "{text}");
    let html = dir.join("five.html").display().to_string();
    assert!(run(&["print", &five, "--solve", "--html", &html]).status.success());
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!((page.matches("<circle").count(), page.matches("<line").count()), (10, 20));
    fails(&run(&["print", &five, "--english"]), 2, "describes nonogram rules");
}

/// `bench --boards` on Flow files: the totals line.
#[test]
fn bench_boards_times_flow_sets() {
    let out = run(&["bench", "--boards", &repo("specs/flow/dev.flow"), "--propagation", "local"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    assert!(text.contains("propagation local): 100 puzzles") && text.contains("solutions: 100 x 1"), "{text}");
}

/// Bad files and options: a located error, status 2, nothing printed.
#[test]
fn bad_input_is_refused_with_its_place() {
    let dir = fresh_dir("flow-bad");
    let cases = [
        ("rows.flow", "A.A\nB.\n", ":2:3: expected a row of 3 cells"),
        ("one.flow", "A.A\nB..\n", ":2:1: colour `B` has one endpoint"),
        ("big.txt", "65 3\n", ":1:1: the grid is past 64x64"),
        ("out.flow", "1 3 2\n(0, 0) (3, 1)\n", ":2:8: (3, 1) is outside the 3x2 grid"),
        ("twice.flow", "2 3 2\n(0, 0) (1, 1)\n(2, 0) (1, 1)\n", ":3:8: a second endpoint on (1, 1)"),
        ("char.flow", "A.%\n", ":1:3: expected `.`, a letter or a digit, found '%'"),
    ];
    for (name, text, message) in cases {
        let path = write(&dir, name, text);
        let out = run(&["analyze", &path]);
        fails(&out, 2, &format!("{path}{message}"));
        assert!(out.stdout.is_empty());
    }
    let ok = write(&dir, "ok.flow", "AA\n");
    fails(&run(&["analyze", &ok, &repo("specs/nonogram/bench30.lines")]), 2, "give one kind at a time");
    fails(&run(&["analyze", &ok, "--sat-solver", "z3"]), 2, "are for nonograms");
}
