//! `analyze` on Flow puzzles grades them as `explain` plays them: with
//! `--rules R` the model player's steps, oracle steps and bits are those
//! of `explain --rules R`, and `rules_solvable` says whether the rules
//! needed no oracle step; without rules the player is the complete
//! solver's propagation. Bad rule files are refused up front.

use crate::cli::{fails, fresh_dir, repo, run, stderr, write};
use serde_json::Value;

/// The JSON a successful run prints.
fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn analyze_grades_each_puzzle_as_explain_plays_it() {
    let dev = repo("specs/flow/dev.flow");
    let control = repo("rules/flow/control.rules");
    // the first three puzzles of the development set, one per file
    let dir = fresh_dir("flow-difficulty");
    let text = std::fs::read_to_string(&dev).unwrap();
    let puzzles: Vec<&str> = text.split("\n\n").skip(1).take(3).collect();
    let all = write(&dir, "three.flow", puzzles.join("\n\n"));
    let a_all = json(&["analyze", &all, "--rules", &control, "--json"]);
    for (n, puzzle) in puzzles.iter().enumerate() {
        let one = write(&dir, &format!("p{n}.flow"), puzzle);
        let e = json(&["explain", &one, "--rules", &control, "--json"]);
        let a = &a_all[n];
        let steps = e["steps"].as_array().unwrap();
        let oracle = steps.iter().filter(|s| s["rule"].is_null()).count();
        assert_eq!(a["steps"], Value::from(steps.len()), "{one}");
        assert_eq!(a["oracle_steps"], Value::from(oracle), "{one}");
        assert_eq!(a["rules_solvable"], Value::from(oracle == 0), "{one}");
        let bits = e["bits"].as_f64().unwrap();
        assert!((a["difficulty"].as_f64().unwrap() - bits).abs() < 0.006, "{one}: {a} vs {bits}");
        let fired: u64 = a["rules_fired"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
        let decided: usize = steps
            .iter()
            .filter(|s| !s["rule"].is_null())
            .map(|s| s["link"].as_array().unwrap().len() + s["cut"].as_array().unwrap().len())
            .sum();
        assert_eq!(fired as usize, decided, "{one}");
    }
    // without rules: the search player, no rules verdict
    let a = json(&["analyze", &all, "--json"]);
    assert!(a[0]["rules_solvable"].is_null() && a[0]["steps"].as_u64().unwrap() > 0, "{a}");
    // the table says how many the rules solve
    let out = run(&["analyze", &all, "--rules", &control]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rules solve") && text.contains("solved by the rules of"), "{text}");
    fails(&run(&["analyze", &all, "--rules", &repo("rules/nonogram/control.rules")]), 2, "nonogram");
}
