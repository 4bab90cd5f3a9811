//! `witness analyze` and `witness generate` end to end: the JSON contract
//! (per puzzle `solutions` and `players`, `null` for +∞) and the library's
//! values, EPCG output that reads back ranked and is the same for any
//! thread count, teaching puzzles, and bad input exiting with 2 and a
//! located message, with nothing written.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use stratsynth::domains::witness::information::{odds, Player};
use stratsynth::domains::witness::puzzle::{parse_puzzles, read_puzzles};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stratsynth-analyze-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn fails(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    err
}

const PUZZLES: &str = "[
    (width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)]),
    (width: 1, height: 1, start: (0, 0), goal: (1, 1), triangles: [(0, 0, 1)]),
    (width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(1, 1, 3), (0, 2, 1), (2, 0, 2)]),
]";

#[test]
fn analyze_json_is_the_contract_and_the_library_values() {
    let file = temp("three.ron");
    std::fs::write(&file, PUZZLES).unwrap();
    let out = stdout(&run(&["witness", "analyze", file.to_str().unwrap(), "--rules", "rules/witness/learned.rules", "--json"]));
    let list: Value = serde_json::from_str(&out).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3);
    let puzzles = parse_puzzles(PUZZLES, "x").unwrap();
    for (entry, puzzle) in list.iter().zip(&puzzles) {
        let players = entry["players"].as_array().unwrap();
        let names: Vec<&str> = players.iter().map(|p| p["player"].as_str().unwrap()).collect();
        assert_eq!(names, ["uniform", "local", "rules/witness/learned.rules"]);
        for (p, player) in players.iter().zip([Player::Uniform, Player::Local]) {
            let o = odds(puzzle, &player, 0, &mut |_| {}).unwrap();
            assert_eq!(entry["solutions"], o.goals);
            for (field, value) in [("msi", o.msi()), ("tsi", o.tsi())] {
                match value {
                    Some(v) => assert!((p[field].as_f64().unwrap() - v).abs() < 1e-12),
                    None => assert!(p[field].is_null()),
                }
            }
        }
    }
    // Fig. 2.1 by hand: uniform 1/4, local 1/2; the unsolvable square is +∞
    assert_eq!(list[0]["players"][0]["tsi"], 2.0);
    assert_eq!(list[0]["players"][1]["msi"], 1.0);
    assert!(list[1]["players"].as_array().unwrap().iter().all(|p| p["msi"].is_null() && p["tsi"].is_null()));
    assert_eq!(list[1]["solutions"], 0);
    let text = stdout(&run(&["witness", "analyze", file.to_str().unwrap(), "--perfect"]));
    assert!(text.contains("puzzle #1: 1x1, 0 solutions") && text.contains("perfect"), "{text}");
}

#[test]
fn generate_ranks_every_solvable_filling_the_same_for_any_thread_count() {
    let (a, b, html) = (temp("gen-a.ron"), temp("gen-b.ron"), temp("gen.html"));
    let args = |out: &PathBuf| {
        vec!["witness", "generate", "--base", "docs/witness-epcg-base.ron", "--at", "1,1", "2,2", "--rules", "rules/witness/learned.rules", "--order", "gap", "-o"]
            .into_iter()
            .map(String::from)
            .chain([out.to_str().unwrap().to_string(), "--html".into(), html.to_str().unwrap().into()])
            .collect::<Vec<_>>()
    };
    let with_threads = |n: &str, out: &PathBuf| {
        let a = args(out);
        Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).env("RAYON_NUM_THREADS", n).args(&a).output().unwrap()
    };
    let text = stdout(&with_threads("1", &a));
    stdout(&with_threads("2", &b));
    let (ta, tb) = (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
    assert_eq!(ta.replace(a.to_str().unwrap(), ""), tb.replace(b.to_str().unwrap(), ""));
    assert!(text.starts_with("16 variants of docs/witness-epcg-base.ron"), "{text}");
    let made = read_puzzles(&a).unwrap();
    assert!(!made.is_empty() && made.len() <= 16);
    // ranked: each puzzle's gap (local TSI minus rule TSI) is no larger than the one before
    let gaps: Vec<f64> = ta.lines().filter_map(|l| l.trim().strip_prefix("// variant")).map(|l| l.split("score ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap()).collect();
    assert_eq!(gaps.len(), made.len());
    assert!(gaps.windows(2).all(|w| w[0] >= w[1]), "{gaps:?}");
    for p in &made {
        assert_eq!(p.triangles().iter().filter(|t| (t.0, t.1) == (0, 3) || (t.0, t.1) == (3, 0)).count(), 2, "the base's triangles stay");
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), made.len());
}

#[test]
fn teach_names_each_rule_and_how_much_it_lowers_tsi() {
    let out = temp("teach.ron");
    let text = stdout(&run(&["witness", "generate", "--teach", "rules/witness/learned.rules", "--size", "3x3", "--count", "20", "--seed", "2", "--top", "2", "-o", out.to_str().unwrap()]));
    assert!(text.contains("rule learned_1: makes ") && text.contains("rule learned_2: makes "), "{text}");
    assert!(text.contains(" -> "), "{text}");
    let made = read_puzzles(&out).unwrap();
    assert!(!made.is_empty() && made.len() <= 4);
}

#[test]
fn bad_input_is_located_and_nothing_is_written() {
    let bad = temp("bad.ron");
    std::fs::write(&bad, "[\n  (width: 2, height: 2, start: (0, 0), goal: (1, 1)),\n]").unwrap();
    let err = fails(&run(&["witness", "analyze", bad.to_str().unwrap()]));
    assert!(err.contains(&format!("{}:2:3", bad.display())) && err.contains("not on the border"), "{err}");
    let big = temp("big.ron");
    std::fs::write(&big, "[(width: 9, height: 9, start: (0, 0), goal: (9, 9))]").unwrap();
    let err = fails(&run(&["witness", "analyze", big.to_str().unwrap()]));
    assert!(err.contains("puzzle #0 is 9x9") && err.contains("up to 8x8"), "{err}");
    let rules = temp("bad.rules");
    std::fs::write(&rules, "def r:\n    with s = arbitrary(square):\n    if used(s) > colour(s):\n    then prune\n").unwrap();
    let good = temp("good.ron");
    std::fs::write(&good, PUZZLES).unwrap();
    let err = fails(&run(&["witness", "analyze", good.to_str().unwrap(), "--rules", rules.to_str().unwrap()]));
    assert!(err.contains(&format!("{}:3:", rules.display())), "{err}");

    let out = temp("never.ron");
    let base = "docs/witness-epcg-base.ron";
    for (args, expected) in [
        (vec!["--at", "4,0"], "--at 4,0: the square is outside the 4x4 grid"),
        (vec!["--at", "1;1"], "--at 1;1: expected a square `column,row`"),
        (vec!["--at", "1,1", "1,1"], "given twice"),
        (vec!["--at", "1,1", "--order", "gap"], "--order gap needs --rules"),
    ] {
        let mut all = vec!["witness", "generate", "--base", base, "-o", out.to_str().unwrap()];
        all.extend(args);
        let err = fails(&run(&all));
        assert!(err.contains(expected), "{err}");
        assert!(!out.exists());
    }
    let err = fails(&run(&["witness", "generate", "--base", good.to_str().unwrap(), "--at", "0,0", "-o", out.to_str().unwrap()]));
    assert!(err.contains("holds 3 puzzles; --base expects exactly one"), "{err}");
    let nowhere = temp("missing-dir").join("out.ron");
    let err = fails(&run(&["witness", "generate", "--base", base, "--at", "1,1", "-o", nowhere.to_str().unwrap()]));
    assert!(err.contains("no such directory"), "{err}");
    // an output that is an input is refused before any work
    let err = fails(&run(&["witness", "analyze", good.to_str().unwrap(), "--html", good.to_str().unwrap()]));
    assert!(err.contains("the output is also an input"), "{err}");
    assert_eq!(std::fs::read_to_string(&good).unwrap(), PUZZLES);
}
