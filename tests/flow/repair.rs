//! `generate flow --from` end to end on the real binary: a unique puzzle
//! with one endpoint moved (no solution left: under the Numberlink
//! convention a moved endpoint almost never leaves two) repaired with one change, the
//! result unique by the complete solver (`analyze`) and solved by its
//! player (`explain`), written in the drawn puzzle's layout; a puzzle with
//! no solution repaired; puzzles with two solutions or more repaired, the
//! result unique; a puzzle already fine left unchanged; the same
//! answer at 1 and 2 threads; no repair within the changes allowed, or
//! the time, said with status 1; bad input refused with a located error,
//! status 2.

use crate::cli::{fails, fresh_dir, repo, run, stderr, write};
use serde_json::Value;

/// A 5x5 puzzle the control rules solve alone.
const FIVE: &str = "# title \"Five\"\nR.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n";

/// FIVE with the `O` endpoint at (4, 1) moved to (4, 2): no solution.
const MOVED: &str = "# title \"Five, moved\"\nR.G.Y\n..B..\n....O\n.G.Y.\n.RBO.\n";

/// The only 4x4 puzzle of three colours with two solutions or more, up to
/// the eight orientations (found by `analyze` over every placement of
/// three pairs): `B` goes round `A` one way or `A` round `B` the other.
const TWO: &str = "A..B\n.BA.\n.CC.\n....\n";

/// TWO widened by two columns whose paths are forced (`D` and `E` down
/// them): still two solutions, now on 6x4.
const TWO_WIDE: &str = "A..BDE\n.BA...\n.CC...\n....DE\n";

/// The same with two forced rows under it: at one change eight puzzles
/// tie nearest to unique ahead of the first of the two moves (from them
/// the search finds no repair within three changes), so a beam of 8
/// missed the repair of two changes.
const TWO_TALL: &str = "A..B\n.BA.\n.CC.\n....\nD..D\nEEFF\n";

/// Runs `generate flow --from` with `args`, its JSON and exit status.
fn repair(args: &[&str]) -> (Value, i32) {
    let mut v = vec!["generate", "flow", "--json", "--from"];
    v.extend_from_slice(args);
    let out = run(&v);
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "{}", stderr(&out));
    (serde_json::from_slice(&out.stdout).unwrap(), code)
}

/// The solutions `analyze` counts (it exits 1 for none).
fn solutions(file: &str) -> Value {
    let out = run(&["analyze", file, "--json"]);
    serde_json::from_slice::<Value>(&out.stdout).unwrap()[0]["solutions"].clone()
}

#[test]
fn a_moved_endpoint_is_repaired_with_one_change() {
    let dir = fresh_dir("flow-repair");
    let moved = write(&dir, "moved.flow", MOVED);
    let control = repo("rules/flow/control.rules");
    assert_eq!(solutions(&moved), 0);
    let out = dir.join("repaired.flow").display().to_string();
    let (v, code) = repair(&[&moved, "--player", "control", "--rules", &control, "-o", &out]);
    assert_eq!((code, v["solutions"].clone(), v["stopped"].clone()), (0, 0.into(), Value::Null));
    let p = &v["puzzles"][0];
    assert_eq!(
        (p["name"].clone(), p["file"].clone(), p["bits"].clone()),
        ("repair-1".into(), out.clone().into(), 0.0.into())
    );
    let changed = p["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 1, "{v}");
    assert!(["move", "add", "remove"].contains(&changed[0]["change"].as_str().unwrap()));
    // unique by the complete solver, solved by the control rules alone
    assert_eq!(solutions(&out), 1);
    let explained = run(&["explain", &out, "--rules", &control, "--json"]);
    assert!(explained.status.success(), "{}", stderr(&explained));
    assert_eq!(serde_json::from_slice::<Value>(&explained.stdout).unwrap()["solved_by_rules"], true);
    // the grid layout, as drawn, with the drawn puzzle's title and the change
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# title \"Five, moved\"\n# repair \""), "{text}");
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 5, "{text}");
    assert_eq!(p["grid"].as_str().unwrap().lines().last(), text.lines().last());
}

#[test]
fn puzzles_with_two_solutions_are_repaired_to_one() {
    let dir = fresh_dir("flow-repair-two");
    let control = repo("rules/flow/control.rules");
    for (name, text) in [("two.flow", TWO), ("wide.flow", TWO_WIDE), ("tall.flow", TWO_TALL)] {
        let drawn = write(&dir, name, text);
        assert_eq!(solutions(&drawn), 2, "{name}");
        let out = dir.join(format!("fixed-{name}")).display().to_string();
        let args = [&drawn, "--player", "control", "--rules", &control, "--max-changes", "3", "-o", &out];
        let (v, code) = repair(&args);
        assert_eq!((code, v["solutions"].clone(), v["stopped"].clone()), (0, 2.into(), Value::Null), "{v}");
        assert!(v["summary"][0].as_str().unwrap().contains("two solutions or more (two differ in 8 slots)"), "{v}");
        // every single change leaves two solutions or none: two changes
        assert_eq!((v["changes_tried"].clone(), v["puzzles"][0]["changed"].as_array().unwrap().len()), (1.into(), 2));
        assert_eq!(solutions(&out), 1, "{name}: {v}");
        let explained = run(&["explain", &out, "--rules", &control, "--json"]);
        assert!(explained.status.success(), "{}", stderr(&explained));
        assert_eq!(serde_json::from_slice::<Value>(&explained.stdout).unwrap()["solved_by_rules"], true);
    }
}

#[test]
fn a_puzzle_with_no_solution_is_repaired_in_its_layout() {
    let dir = fresh_dir("flow-repair-none");
    // one colour cannot fill 3x3 without running beside itself; counted layout
    let none = write(&dir, "none.txt", "1 3 3\n(0, 0) (2, 2)\n");
    assert_eq!(solutions(&none), 0);
    let out = dir.join("fixed.txt").display().to_string();
    let (v, code) = repair(&[&none, "--player", "search", "-o", &out]);
    assert_eq!((code, v["solutions"].clone()), (0, 0.into()));
    assert!(!v["puzzles"][0]["changed"].as_array().unwrap().is_empty());
    assert_eq!(solutions(&out), 1);
    let text = std::fs::read_to_string(&out).unwrap();
    let counted = text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert_eq!(counted.split_whitespace().count(), 3, "{text}");
}

#[test]
fn repairs_are_the_same_at_any_thread_count_and_fine_puzzles_unchanged() {
    let dir = fresh_dir("flow-repair-threads");
    let moved = write(&dir, "moved.flow", MOVED);
    let control = repo("rules/flow/control.rules");
    let answer = |threads: &str| {
        let (v, _) = repair(&[&moved, "--player", "control", "--rules", &control, "--threads", threads]);
        (v["puzzles"][0]["changed"].clone(), v["puzzles"][0]["grid"].clone(), v["judged"].clone())
    };
    assert_eq!(answer("1"), answer("2"));
    let five = write(&dir, "five.flow", FIVE);
    let (v, code) = repair(&[&five, "--player", "control", "--rules", &control]);
    assert_eq!((code, v["solutions"].clone(), v["judged"].clone()), (0, 1.into(), 1.into()));
    assert_eq!(v["puzzles"][0]["name"], "unchanged");
    assert!(v["puzzles"][0]["changed"].as_array().unwrap().is_empty());
    assert!(v["summary"][0].as_str().unwrap().ends_with("nothing to change"), "{v}");
}

#[test]
fn no_repair_within_the_changes_allowed_is_said_with_status_1() {
    let dir = fresh_dir("flow-repair-short");
    // one change is not enough here (every single change is tried)
    let none = write(&dir, "none.txt", "1 3 3\n(0, 0) (2, 2)\n");
    let control = repo("rules/flow/control.rules");
    let (v, code) = repair(&[&none, "--player", "control", "--rules", &control, "--max-changes", "1"]);
    assert_eq!((code, v["puzzles"].as_array().unwrap().len()), (1, 0), "{v}");
    assert!(v["summary"][0].as_str().unwrap().contains("no repair found within 1 change ("), "{v}");
    assert_eq!(v["changes_tried"], 1);
}

#[test]
fn the_search_stops_at_its_timeout() {
    let dir = fresh_dir("flow-repair-timeout");
    // one colour between opposite corners of 30x30: no solution, and
    // hundreds of thousands of single changes to judge
    let big = write(&dir, "big.txt", "1 30 30\n(0, 0) (29, 29)\n");
    let started = std::time::Instant::now();
    let (v, code) = repair(&[&big, "--player", "search", "--timeout", "1"]);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!((code, v["stopped"].clone(), v["changes_tried"].clone()), (1, "timeout".into(), 0.into()), "{v}");
    assert!(v["summary"][0].as_str().unwrap().contains("no repair found within 1 s ("), "{v}");
}

#[test]
fn bad_input_is_refused_with_a_located_error() {
    let dir = fresh_dir("flow-repair-bad");
    let bad = write(&dir, "bad.flow", "A.B\n..\nA.B\n");
    let g = |extra: &[&str]| {
        let mut v = vec!["generate", "flow", "--player", "search"];
        v.extend_from_slice(extra);
        run(&v)
    };
    fails(&g(&["--from", &bad]), 2, &format!("{bad}:2:"));
    let missing = dir.join("missing.flow").display().to_string();
    fails(&g(&["--from", &missing]), 2, "missing.flow");
    let five = write(&dir, "five.flow", FIVE);
    fails(&g(&["--from", &five, "--size", "5x5"]), 2, "cannot be used with");
    fails(&g(&["--from", &five, "--max-changes", "0"]), 2, "--max-changes must be at least 1");
    let set = write(&dir, "set.flow", "3 1\nA.A\n\n3 1\nB.B\n");
    fails(&g(&["--from", &set]), 2, "the set holds 2 puzzles");
}
