//! Flow's `explain` and `generate flow` end to end on the real binary:
//! explained steps name their rule and its links and cuts (the complete
//! solver's steps named as such), `--html`, `SET#N`; generated puzzles
//! unique, solved by their player, the same for a seed at any thread
//! count, written as files or one set; refusals with status 2.

use crate::cli::{fails, fresh_dir, repo, run, run_in, stderr, write};
use serde_json::Value;

const FIVE: &str = "# title \"Five\"\nR.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n";

/// The JSON a successful run prints.
fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Pairs `[[x, y], [x, y]]` of a JSON list.
fn pairs(v: &Value) -> Vec<Value> {
    v.as_array().unwrap().clone()
}

/// With the control rules every step is a rule's, and the links made are
/// the solution's; with only `full` the complete solver steps in, named
/// as such, and its bits are counted.
#[test]
fn explain_names_each_steps_rule_links_and_cuts() {
    let dir = fresh_dir("flow-explain");
    let five = write(&dir, "five.txt", FIVE);
    let e = json(&["explain", &five, "--rules", &repo("rules/flow/control.rules"), "--json"]);
    assert_eq!(
        (e["solutions"].clone(), e["solved_by_rules"].clone(), e["bits"].clone()),
        (1.into(), true.into(), 0.0.into())
    );
    let steps = pairs(&e["steps"]);
    assert_eq!(steps[0]["rule"], "forced");
    assert!(steps.iter().all(|s| s["how"] == "rule" && s["rule"].is_string()));
    let mut linked: Vec<Value> = steps.iter().flat_map(|s| pairs(&s["link"])).collect();
    let cut: usize = steps.iter().map(|s| pairs(&s["cut"]).len()).sum();
    linked.sort_by_key(|p| p.to_string());
    let mut solution = pairs(&e["solution"]["links"]);
    solution.sort_by_key(|p| p.to_string());
    assert_eq!(linked, solution);
    assert_eq!(linked.len() + cut, 40, "every slot of 5x5 decided once");
    assert_eq!(steps[0]["link"][0], serde_json::json!([[0, 3], [0, 4]]));

    let full = write(&dir, "full.rules", "def full:\n    with c = arbitrary(cell) and d = arbitrary(cell):\n    if need(c) = 0 and neighbours(c, d) and not joined(c, d):\n    then cut(c, d)\n");
    let e = json(&["explain", &five, "--rules", &full, "--json"]);
    let steps = pairs(&e["steps"]);
    let solver: Vec<&Value> = steps.iter().filter(|s| s["how"] == "probe" || s["how"] == "guess").collect();
    assert!(!solver.is_empty() && solver.iter().all(|s| s["rule"].is_null() && s["bits"].as_f64().unwrap() >= 1.0));
    assert_eq!(e["solver_steps"], solver.len());
    assert_eq!(e["solved_by_rules"], false);
    let text = run(&["explain", &five, "--rules", &full]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("(complete solver) — ") && text.contains("rule full") && text.contains("the solution:"),
        "{text}"
    );

    let html = dir.join("five.html").display().to_string();
    let out = run(&["explain", &five, "--rules", &full, "--html", &html]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), steps.len() + 1);
    assert!(page.contains("PROBE (complete solver)") || page.contains("GUESS (complete solver)"));
}

/// `SET#N` names a puzzle of a set; a set without `#N`, a bad file, a
/// nonogram rule file and a puzzle without a solution are refused.
#[test]
fn explain_reads_sets_and_refuses_bad_input() {
    let dir = fresh_dir("flow-explain-bad");
    let control = repo("rules/flow/control.rules");
    let dev = repo("specs/flow/dev.flow");
    let e = json(&["explain", &format!("{dev}#3"), "--rules", &control, "--json"]);
    assert_eq!(
        (e["file"].clone(), e["width"].clone(), e["height"].clone()),
        (format!("{dev}#3").into(), 8.into(), 6.into())
    );
    fails(&run(&["explain", &dev, "--rules", &control]), 2, "the set holds 100 puzzles; name one as");
    fails(&run(&["explain", &format!("{dev}#101"), "--rules", &control]), 2, "the set holds no puzzle #101");
    let rows = write(&dir, "rows.flow", "A.A\nB.\n");
    fails(&run(&["explain", &rows, "--rules", &control]), 2, &format!("{rows}:2:3: expected a row of 3 cells"));
    let five = write(&dir, "five.flow", FIVE);
    fails(&run(&["explain", &five, "--rules", &repo("rules/nonogram/control.rules")]), 2, "flow");
    let none = write(&dir, "none.flow", "AB\nBA\n");
    fails(&run(&["explain", &none, "--rules", &control]), 2, "the puzzle has no solution");
}

/// Generated puzzles: unique by `analyze`, solved by the control rules
/// with no bits, the same files for a seed at 1 and 2 threads, one set
/// file in the sized layout; the search player keeps any unique puzzle.
#[test]
fn generate_makes_unique_puzzles_for_the_player() {
    let dir = fresh_dir("flow-generate");
    let one = dir.join("one").display().to_string();
    let two = dir.join("two").display().to_string();
    let args = |out: &str, threads: &str| {
        let v = ["generate", "flow", "--size", "6x6", "--colours", "5", "--player", "control", "--count", "3"];
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.extend(["--seed", "4", "--threads", threads, "-o", out].map(String::from));
        v
    };
    let first = run(&args(&one, "1").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(first.status.success(), "{}", stderr(&first));
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        text.contains("3 random 6x6 puzzles with 5 colours (seed 4) for the player control")
            && text.contains("wrote 3 puzzles"),
        "{text}"
    );
    assert!(run(&args(&two, "2").iter().map(String::as_str).collect::<Vec<_>>()).status.success());
    for k in 1..=3 {
        let name = format!("random-{k}.flow");
        let a = std::fs::read_to_string(dir.join("one").join(&name)).unwrap();
        let b = std::fs::read_to_string(dir.join("two").join(&name)).unwrap();
        // the files differ only in the command line of their metadata
        let body = |t: &str| t.lines().filter(|l| !l.starts_with("# source")).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&a), body(&b));
        let file = dir.join("one").join(&name).display().to_string();
        let analysed = json(&["analyze", &file, "--json"]);
        assert_eq!((analysed[0]["solutions"].clone(), analysed[0]["colours"].clone()), (1.into(), 5.into()));
        let e = json(&["explain", &file, "--rules", &repo("rules/flow/control.rules"), "--json"]);
        assert_eq!(e["solved_by_rules"], true);
    }
    let set = dir.join("set.flow").display().to_string();
    let made =
        json(&["generate", "flow", "--size", "5x5,6x6", "--player", "search", "--count", "2", "--json", "-o", &set]);
    let puzzles = pairs(&made["puzzles"]);
    assert_eq!(puzzles.len(), 4);
    assert_eq!((puzzles[3]["file"].clone(), puzzles[3]["width"].clone()), (format!("{set}#4").into(), 6.into()));
    let analysed = json(&["analyze", &set, "--json"]);
    assert_eq!(analysed.as_array().unwrap().len(), 4);
    assert!(analysed.as_array().unwrap().iter().all(|p| p["solutions"] == 1));
    let taught = json(&[
        "generate",
        "flow",
        "--size",
        "5x5",
        "--colours",
        "4",
        "--player",
        "control",
        "--needs",
        "forced",
        "--count",
        "1",
        "--json",
    ]);
    assert_eq!(pairs(&taught["puzzles"])[0]["rules"]["forced"].as_u64().map(|k| k > 0), Some(true));
}

/// Options that cannot be met are refused before any work (status 2), or
/// after the bound given (status 1).
#[test]
fn generate_refuses_what_cannot_be_made() {
    let g = |extra: &[&str]| {
        let mut v = vec!["generate", "flow", "--count", "1"];
        v.extend_from_slice(extra);
        run(&v)
    };
    // the default player's learned set, missing where the command runs
    let elsewhere = fresh_dir("flow-generate-elsewhere");
    let missing = run_in(&elsewhere, &["generate", "flow", "--count", "1", "--size", "5x5"]);
    fails(&missing, 2, "rules/flow/learned.rules, which does not exist");
    std::fs::remove_dir_all(&elsewhere).unwrap();
    fails(&g(&["--size", "5x5", "--player", "control", "--colours", "13"]), 2, "a 5x5 board has 1 to 12 colours");
    fails(
        &g(&["--size", "10x10", "--player", "search", "--colours", "1"]),
        2,
        "none of 64 tries covered the 10x10 board",
    );
    fails(&g(&["--size", "5x5", "--player", "control", "--needs", "nothing"]), 2, "no rule of that name");
    fails(&g(&["--size", "5x5", "--player", "search", "--needs", "forced"]), 2, "the search player has no rules");
    fails(&g(&["--size", "5x0", "--player", "search"]), 2, "expected WxH");
    // a full-sized 8x8 board with 6 colours, no guessing, needing no_square: not within 20 candidates
    let out = g(&[
        "--size",
        "8x8",
        "--colours",
        "6",
        "--player",
        "control",
        "--needs",
        "no_square",
        "--max-candidates",
        "20",
    ]);
    fails(&out, 1, "only 0 of the 1 puzzles asked for within --max-candidates 20");
}

/// The bundled `specs/flow/made.flow` is exactly what its documented
/// command writes (run in a fresh directory, so the `-o` path and the
/// metadata naming the command are the same), and every puzzle is unique.
#[test]
fn the_bundled_set_is_what_its_command_writes() {
    let dir = fresh_dir("flow-made");
    std::fs::create_dir_all(dir.join("specs/flow")).unwrap();
    let command = "generate flow --size 6x6,7x7,8x8,9x9,10x10,11x11,12x12 --player search --count 7 --seed 1 -o specs/flow/made.flow";
    let out = run_in(&dir, &command.split(' ').collect::<Vec<_>>());
    assert!(out.status.success(), "{}", stderr(&out));
    let made = std::fs::read_to_string(dir.join("specs/flow/made.flow")).unwrap();
    assert_eq!(made, std::fs::read_to_string(repo("specs/flow/made.flow")).unwrap());
    let readme = std::fs::read_to_string(repo("specs/flow/README.md")).unwrap();
    assert!(readme.contains(&format!("stratsynth {command}")));
    let analysed = json(&["analyze", &repo("specs/flow/made.flow"), "--json"]);
    assert_eq!(analysed.as_array().unwrap().len(), 49);
    assert!(analysed.as_array().unwrap().iter().all(|p| p["solutions"] == 1));
}
