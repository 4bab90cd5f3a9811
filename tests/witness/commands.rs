//! The Witness commands end to end (`witness gen|solve|bench`, `mine
//! witness`, `verify` on Witness rules) and search with rule sets: every
//! solution found is valid, pruning with the bundled rule sets never loses
//! a solvable puzzle, bad input exits with 2 and names the file, line and
//! column; `witness analyze` and `witness generate` (figures, EPCG, teaching).

use crate::cli::temp_path as temp;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path as FsPath, PathBuf};
use std::process::{Command, Output};
use stratsynth::domains::witness::board::oracle::Oracle;
use stratsynth::domains::witness::formats::puzzle::{parse_puzzles, read_puzzles};
use stratsynth::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig};
use stratsynth::domains::witness::play::information::{odds, Limits, Player};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::astar::{astar, Mode, SearchConfig};
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::synthesis::mine::{mine, Scope};
use stratsynth::domains::witness::synthesis::specs::read_specs;
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;

use crate::random::random_puzzle;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Exit status 2 and the start of the error message.
fn fails(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    err
}

fn predicate(rules: &str) -> RuleSetPredicate {
    let domain = Witness::new();
    let text = std::fs::read_to_string(FsPath::new(ROOT).join(rules)).unwrap();
    let rules = parse_rules(&text, rules, domain.schema()).unwrap();
    RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules)
}

#[test]
fn gen_is_deterministic_and_is_the_library_generator() {
    let (a, b) = (temp("gen-a.ron"), temp("gen-b.ron"));
    for alg in ["3", "4"] {
        for (path, seed) in [(&a, "5"), (&b, "5")] {
            stdout(&run(&[
                "witness",
                "gen",
                "--alg",
                alg,
                "--sizes",
                "2x2..4x3",
                "--count",
                "40",
                "--seed",
                seed,
                "-o",
                path.to_str().unwrap(),
            ]));
        }
        let text = std::fs::read_to_string(&a).unwrap();
        assert_eq!(
            text.replace(a.to_str().unwrap(), ""),
            std::fs::read_to_string(&b).unwrap().replace(b.to_str().unwrap(), "")
        );
        assert!(text
            .starts_with(&format!("// stratsynth witness gen --alg {alg} --sizes 2x2..4x3 --count 40 --seed 5 -o ")));
        let algorithm = if alg == "3" { Algorithm::RandomTriangles } else { Algorithm::FromPath };
        let expected = generate(&GeneratorConfig::new("2x2..4x3".parse().unwrap(), algorithm), 5, 40).unwrap();
        assert_eq!(read_puzzles(&a).unwrap(), expected);
    }
    stdout(&run(&[
        "witness",
        "gen",
        "--alg",
        "3",
        "--sizes",
        "2x2..4x3",
        "--count",
        "40",
        "--seed",
        "6",
        "-o",
        b.to_str().unwrap(),
    ]));
    assert_ne!(read_puzzles(&a).unwrap(), read_puzzles(&b).unwrap());
    for p in [a, b] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn solve_writes_valid_solutions() {
    let (puzzles, out) = (temp("solve.ron"), temp("solve.txt"));
    stdout(&run(&[
        "witness",
        "gen",
        "--alg",
        "3",
        "--sizes",
        "2x2..4x4",
        "--count",
        "60",
        "--seed",
        "1",
        "-o",
        puzzles.to_str().unwrap(),
    ]));
    let ps = read_puzzles(&puzzles).unwrap();
    for extra in [
        &[][..],
        &["--rules", "rules/witness/handwritten.rules"][..],
        &["--rules", "rules/witness/baseline.rules", "--sort"][..],
    ] {
        let mut args =
            vec!["witness", "solve", "--puzzles", puzzles.to_str().unwrap(), "--solutions-out", out.to_str().unwrap()];
        args.extend(extra);
        let report = stdout(&run(&args));
        assert!(report.starts_with("solved 60 of 60 puzzles"), "{report}");
        let lines: Vec<String> = std::fs::read_to_string(&out).unwrap().lines().map(str::to_string).collect();
        assert_eq!(lines.len(), ps.len());
        for (p, line) in ps.iter().zip(&lines) {
            let vertices: Vec<(usize, usize)> = line
                .split(' ')
                .map(|v| {
                    let (x, y) = v.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            assert!(Path::from_vertices(p, &vertices).unwrap().is_solution(p), "{} {line}", p.to_ron());
        }
    }
    for p in [puzzles, out] {
        std::fs::remove_file(p).unwrap();
    }
}

/// Pruning with each bundled rule set (the learned one included) never
/// loses a solution: on 590 small puzzles (random, Algorithm 4 and
/// Algorithm 3) search finds a solution exactly when the completion oracle
/// says one exists, every solution is valid, and sorting expands the same
/// paths (Stevens' Theorem 3).
#[test]
fn pruning_with_the_bundled_rules_never_loses_a_solution() {
    let preds = [
        predicate("rules/witness/baseline.rules"),
        predicate("rules/witness/handwritten.rules"),
        predicate("rules/witness/learned.rules"),
        predicate("rules/witness/region.rules"),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut puzzles: Vec<Puzzle> = vec![];
    for (w, h, n) in [(2, 2, 100), (2, 3, 100), (3, 3, 80), (3, 4, 40)] {
        puzzles.extend((0..n).map(|_| random_puzzle(&mut rng, w, h, 0.45)));
    }
    puzzles.extend(generate(&GeneratorConfig::new("3x3..4x4".parse().unwrap(), Algorithm::FromPath), 3, 60).unwrap());
    // Algorithm 3, as learning and the benchmark generate them (a seed neither uses)
    puzzles.extend(
        generate(&GeneratorConfig::new("2x2..4x4".parse().unwrap(), Algorithm::RandomTriangles), 13, 150).unwrap(),
    );
    let (mut solvable, mut fewer, mut learned_fewer) = (0, 0, 0);
    for p in &puzzles {
        let truth = Oracle::new(p).completable(&Path::new(p));
        solvable += usize::from(truth);
        let plain = astar(p, &|_: &Puzzle, _: &Path| false, &SearchConfig::default());
        assert_eq!(plain.solution().is_some(), truth);
        for pred in &preds {
            let r = astar(p, pred, &SearchConfig::default());
            assert_eq!(r.solution().is_some(), truth, "{}", p.to_ron());
            if let Some(s) = r.solution() {
                assert!(s.is_solution(p));
            }
            assert!(r.expansions <= plain.expansions);
            if truth {
                // Stevens' Theorem 3: a sound predicate expands the same paths sorting
                let sorted = astar(p, pred, &SearchConfig::default().with_mode(Mode::Sort));
                assert_eq!(sorted.expansions, r.expansions);
            }
        }
        let base = astar(p, &|pz: &Puzzle, path: &Path| preds[0].flags(pz, path), &SearchConfig::default());
        let hand = astar(p, &|pz: &Puzzle, path: &Path| preds[1].flags(pz, path), &SearchConfig::default());
        assert!(hand.expansions <= base.expansions);
        fewer += usize::from(hand.expansions < base.expansions);
        let learned = astar(p, &|pz: &Puzzle, path: &Path| preds[2].flags(pz, path), &SearchConfig::default());
        assert!(learned.expansions <= base.expansions);
        learned_fewer += usize::from(learned.expansions < base.expansions);
    }
    assert!(solvable > 300 && solvable < puzzles.len(), "{solvable}");
    assert!(fewer > 50 && learned_fewer > 100, "{fewer} {learned_fewer}");
}

#[test]
fn bench_reports_the_speedups_as_json() {
    let (small, large) = (temp("bench.ron"), temp("bench-large.ron"));
    stdout(&run(&[
        "witness",
        "gen",
        "--alg",
        "3",
        "--sizes",
        "2x2..3x4",
        "--count",
        "30",
        "--seed",
        "2",
        "-o",
        small.to_str().unwrap(),
    ]));
    stdout(&run(&[
        "witness",
        "gen",
        "--alg",
        "4",
        "--sizes",
        "5x5..6x6",
        "--count",
        "3",
        "--seed",
        "2",
        "-o",
        large.to_str().unwrap(),
    ]));
    let out = stdout(&run(&[
        "witness",
        "bench",
        "--puzzles",
        small.to_str().unwrap(),
        "--rules",
        "rules/witness/handwritten.rules",
        "--json",
        "--large",
        large.to_str().unwrap(),
        "--budget-ms",
        "40",
    ]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "puzzles",
        "baseline_expansions",
        "rules_expansions",
        "expansion_speedup",
        "time_speedup",
        "solved_baseline",
        "solved_rules",
        "trace_coverage",
        "sizes",
        "large",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {out}");
    }
    assert_eq!(v["puzzles"], 30);
    assert_eq!((v["solved_baseline"].as_u64(), v["solved_rules"].as_u64()), (Some(30), Some(30)));
    let (b, r) = (v["baseline_expansions"].as_f64().unwrap(), v["rules_expansions"].as_f64().unwrap());
    assert!(r <= b && (v["expansion_speedup"].as_f64().unwrap() - b / r).abs() < 1e-9);
    let coverage = v["trace_coverage"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&coverage) && coverage > 0.0);
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes.iter().map(|s| s["puzzles"].as_u64().unwrap()).sum::<u64>(), 30);
    assert_eq!(v["large"]["puzzles"], 3);
    assert!(v["large"]["solved_rules"].as_u64().unwrap() <= 3);
    let text = stdout(&run(&[
        "witness",
        "bench",
        "--puzzles",
        small.to_str().unwrap(),
        "--rules",
        "rules/witness/baseline.rules",
    ]));
    assert!(text.lines().any(|l| l.starts_with("all ") && l.contains(" 1.00 ")), "{text}");
    for p in [small, large] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn mine_writes_readable_specifications() {
    let out = temp("specs.ron");
    let report = stdout(&run(&[
        "mine",
        "witness",
        "--sizes",
        "2x2..3x3",
        "--count",
        "20",
        "--seed",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]));
    let specs = read_specs(&out).unwrap();
    assert!(report.starts_with(&format!("{} specifications", specs.len())), "{report}");
    let ps = generate(&GeneratorConfig::new("2x2..3x3".parse().unwrap(), Algorithm::RandomTriangles), 4, 20).unwrap();
    let base = predicate("rules/witness/baseline.rules");
    let expected = mine(&ps, &|p: &Puzzle, path: &Path| base.flags(p, path), Scope::Frontier);
    assert_eq!(specs, expected);
    assert!(specs.len() > 20);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("// stratsynth mine witness --sizes 2x2..3x3 --count 20 --seed 4 -o "));
    stdout(&run(&[
        "mine",
        "witness",
        "--sizes",
        "2x2..3x3",
        "--count",
        "20",
        "--seed",
        "4",
        "--rules",
        "rules/witness/handwritten.rules",
        "-o",
        out.to_str().unwrap(),
    ]));
    let fewer = read_specs(&out).unwrap();
    assert!(fewer.len() < specs.len() && fewer.iter().all(|s| specs.contains(s)));
    std::fs::remove_file(out).unwrap();
}

#[test]
fn verify_judges_witness_rules() {
    let out = stdout(&run(&["verify", "rules/witness/handwritten.rules", "--bound", "3"]));
    assert_eq!(out.lines().filter(|l| l.ends_with(": sound up to 3")).count(), 3, "{out}");
    let bad = temp("bad.rules");
    std::fs::write(&bad, "def pi_without_head:\n    with s = arbitrary(square):\n    if triangles(s) = 3 and used(s) = 1:\n    then prune\n").unwrap();
    let out = run(&["verify", bad.to_str().unwrap(), "--bound", "3", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v[0]["name"].as_str(), v[0]["verdict"].as_str(), v[0]["bound"].as_u64()),
        (Some("pi_without_head"), Some("unsound"), Some(3))
    );
    // the counterexample is a puzzle and a path on it that some solution begins with
    let cx = v[0]["counterexample"].as_str().unwrap();
    let (puzzle, path) = cx.split_once(" path ").unwrap();
    let p = parse_puzzles(&format!("[{puzzle}]"), "cx").unwrap().remove(0);
    let vertices: Vec<(usize, usize)> = path
        .split(' ')
        .map(|v| v.split_once(',').map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap())).unwrap())
        .collect();
    assert!(Oracle::new(&p).completable(&Path::from_vertices(&p, &vertices).unwrap()));
    let text = String::from_utf8(run(&["verify", bad.to_str().unwrap(), "--bound", "3"]).stdout).unwrap();
    assert!(text.starts_with("pi_without_head: UNSOUND on (width: "), "{text}");
    std::fs::remove_file(bad).unwrap();
}

#[test]
fn bad_input_exits_2_with_a_position() {
    let bad = temp("bad-puzzles.ron");
    std::fs::write(&bad, "[\n  (width: 2, height: 2, start: (0, 0), goal: (1, 1), triangles: []),\n]\n").unwrap();
    let shown = bad.display().to_string();
    let unused = temp("unused-solutions.txt").display().to_string();
    let err = fails(&run(&["witness", "solve", "--puzzles", &shown, "--solutions-out", &unused]));
    assert!(err.contains(&format!("{shown}:2:3: puzzle #0: goal (1, 1) is not on the border")), "{err}");
    std::fs::write(&bad, "[\n  (width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 4)]),\n]\n")
        .unwrap();
    let err = fails(&run(&["witness", "bench", "--puzzles", &shown, "--rules", "rules/witness/baseline.rules"]));
    assert!(err.contains(&format!("{shown}:2:3:")), "{err}");
    std::fs::write(&bad, "[\n  (width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 1)],\n]\n")
        .unwrap();
    let err = fails(&run(&["witness", "solve", "--puzzles", &shown, "--solutions-out", &unused]));
    assert!(err.contains(&format!("{shown}:3:1:")), "{err}");
    let good = temp("good-puzzles.ron");
    std::fs::write(&good, "[(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])]")
        .unwrap();
    std::fs::write(&bad, "def r:\n    with s = arbitrary(square):\n    if used(s) > triangle(s):\n    then prune\n")
        .unwrap();
    let err = fails(&run(&[
        "witness",
        "solve",
        "--puzzles",
        good.to_str().unwrap(),
        "--rules",
        &shown,
        "--solutions-out",
        &unused,
    ]));
    assert!(err.contains(&format!("{shown}:3:")), "{err}");
    let err = fails(&run(&[
        "witness",
        "solve",
        "--puzzles",
        good.to_str().unwrap(),
        "--rules",
        "rules/nonogram/control.rules",
        "--solutions-out",
        &unused,
    ]));
    assert!(err.contains("nonogram rules"), "{err}");
    std::fs::remove_file(good).unwrap();
    let err = fails(&run(&["witness", "gen", "--alg", "3", "--sizes", "2x", "--count", "1", "-o", &shown]));
    assert!(err.contains("--sizes"), "{err}");
    let err = fails(&run(&["witness", "gen", "--alg", "3", "--sizes", "9x9", "--count", "1", "-o", &shown]));
    assert!(err.contains("--sizes"), "{err}");
    std::fs::remove_file(bad).unwrap();
}

// `witness analyze` and `witness generate`: the JSON contract (per puzzle
// `solutions` and `players`, `null` for +∞) and the library's values, EPCG
// output that reads back ranked and is the same for any thread count,
// teaching puzzles, and bad input located with nothing written.

const PUZZLES: &str = "[
    (width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)]),
    (width: 1, height: 1, start: (0, 0), goal: (1, 1), triangles: [(0, 0, 1)]),
    (width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(1, 1, 3), (0, 2, 1), (2, 0, 2)]),
]";

#[test]
fn analyze_json_is_the_contract_and_the_library_values() {
    let file = temp("three.ron");
    std::fs::write(&file, PUZZLES).unwrap();
    let out = stdout(&run(&[
        "witness",
        "analyze",
        file.to_str().unwrap(),
        "--rules",
        "rules/witness/learned.rules",
        "--json",
    ]));
    let list: Value = serde_json::from_str(&out).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3);
    let puzzles = parse_puzzles(PUZZLES, "x").unwrap();
    for (entry, puzzle) in list.iter().zip(&puzzles) {
        let players = entry["players"].as_array().unwrap();
        let names: Vec<&str> = players.iter().map(|p| p["player"].as_str().unwrap()).collect();
        assert_eq!(names, ["uniform", "local", "rules/witness/learned.rules"]);
        for (p, player) in players.iter().zip([Player::Uniform, Player::Local]) {
            let o = odds(puzzle, &player, &Limits::nodes(0), &mut |_| {}).unwrap();
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
    // nothing ran out: `stopped` is null for each puzzle and player
    assert!(list.iter().all(|e| e["stopped"].is_null()));
    assert!(list.iter().flat_map(|e| e["players"].as_array().unwrap()).all(|p| p["stopped"].is_null()));
    let text = stdout(&run(&["witness", "analyze", file.to_str().unwrap(), "--perfect"]));
    assert!(text.contains("puzzle #1: 1x1, 0 solutions") && text.contains("perfect"), "{text}");
}

#[test]
fn a_long_evaluation_tells_its_progress_with_the_count_of_puzzles() {
    // an empty 6x6 keeps a player busy until the timeout (its paths are
    // far too many for 3 s): a progress line each second, saying which
    // puzzle of how many
    let file = temp("progress.ron");
    std::fs::write(
        &file,
        "[(width: 6, height: 6, start: (0, 0), goal: (6, 6)), (width: 1, height: 1, start: (0, 0), goal: (1, 1))]",
    )
    .unwrap();
    let out = run(&["witness", "analyze", file.to_str().unwrap(), "--timeout", "3"]);
    let err = String::from_utf8_lossy(&out.stderr);
    let wanted = format!("witness analyze: {} puzzle #0 of 2 (6x6), player ", file.display());
    assert!(err.lines().any(|l| l.starts_with(&wanted) && l.ends_with(" s")), "{err}");
}

#[test]
fn generate_ranks_every_solvable_filling_the_same_for_any_thread_count() {
    let (a, b, html) = (temp("gen-a.ron"), temp("gen-b.ron"), temp("gen.html"));
    let args = |out: &PathBuf| {
        vec![
            "witness",
            "generate",
            "--base",
            "specs/witness/epcg-base.ron",
            "--at",
            "1,1",
            "2,2",
            "--rules",
            "rules/witness/learned.rules",
            "--order",
            "gap",
            "-o",
        ]
        .into_iter()
        .map(String::from)
        .chain([out.to_str().unwrap().to_string(), "--html".into(), html.to_str().unwrap().into()])
        .collect::<Vec<_>>()
    };
    let with_threads = |n: &str, out: &PathBuf| {
        let a = args(out);
        Command::new(env!("CARGO_BIN_EXE_stratsynth"))
            .current_dir(ROOT)
            .env("RAYON_NUM_THREADS", n)
            .args(&a)
            .output()
            .unwrap()
    };
    let text = stdout(&with_threads("1", &a));
    stdout(&with_threads("2", &b));
    let (ta, tb) = (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
    assert_eq!(ta.replace(a.to_str().unwrap(), ""), tb.replace(b.to_str().unwrap(), ""));
    assert!(text.starts_with("16 variants of specs/witness/epcg-base.ron"), "{text}");
    let made = read_puzzles(&a).unwrap();
    assert!(!made.is_empty() && made.len() <= 16);
    // ranked: each puzzle's gap (local TSI minus rule TSI) is no larger than the one before
    let gaps: Vec<f64> = ta
        .lines()
        .filter_map(|l| l.trim().strip_prefix("// variant"))
        .map(|l| l.split("score ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(gaps.len(), made.len());
    assert!(gaps.windows(2).all(|w| w[0] >= w[1]), "{gaps:?}");
    for p in &made {
        assert_eq!(
            p.triangles().iter().filter(|t| (t.0, t.1) == (0, 3) || (t.0, t.1) == (3, 0)).count(),
            2,
            "the base's triangles stay"
        );
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), made.len());
}

/// `witness generate` plays the whole game's learned set unless told
/// otherwise: without `--rules` its figures are those of `--rules
/// rules/witness/learned-game.rules`, from any directory (the set is built
/// in); `--no-rules` judges by local checking alone.
#[test]
fn generate_plays_the_whole_game_set_by_default() {
    let base = format!("{ROOT}/specs/witness/epcg-base.ron");
    let generate = |extra: &[&str], dir: &str| {
        let out = temp(&format!("default-{}.ron", extra.len()));
        let mut args = vec!["witness", "generate", "--base", &base, "--at", "1,1", "2,2", "--order", "tsi", "--json"];
        args.extend(extra);
        let output = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
            .current_dir(dir)
            .args(&args)
            .args(["-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        stdout(&output)
    };
    let elsewhere = std::env::temp_dir();
    let default = generate(&[], elsewhere.to_str().unwrap());
    let named = generate(&["--rules", "rules/witness/learned-game.rules"], ROOT);
    assert_eq!(default, named);
    assert!(default.contains("rules/witness/learned-game.rules"), "{default}");
    let local = generate(&["--no-rules"], ROOT);
    assert!(!local.contains("learned-game"), "{local}");
    assert_ne!(local, default);
}

#[test]
fn teach_names_each_rule_and_how_much_it_lowers_tsi() {
    let out = temp("teach.ron");
    let text = stdout(&run(&[
        "witness",
        "generate",
        "--teach",
        "rules/witness/learned.rules",
        "--size",
        "3x3",
        "--count",
        "20",
        "--seed",
        "2",
        "--top",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]));
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
    assert!(
        err.contains(&format!("{}:1:2:", big.display())) && err.contains("grid size 9x9") && err.contains("up to 8x8"),
        "{err}"
    );
    let rules = temp("bad.rules");
    std::fs::write(&rules, "def r:\n    with s = arbitrary(square):\n    if used(s) > colour(s):\n    then prune\n")
        .unwrap();
    let good = temp("good.ron");
    std::fs::write(&good, PUZZLES).unwrap();
    let err = fails(&run(&["witness", "analyze", good.to_str().unwrap(), "--rules", rules.to_str().unwrap()]));
    assert!(err.contains(&format!("{}:3:", rules.display())), "{err}");

    let out = temp("never.ron");
    let base = "specs/witness/epcg-base.ron";
    for (args, expected) in [
        (vec!["--at", "4,0"], "--at 4,0: the square is outside the 4x4 grid"),
        (vec!["--at", "1;1"], "--at 1;1: expected a square `column,row`"),
        (vec!["--at", "1,1", "1,1"], "given twice"),
        (vec!["--at", "1,1", "--no-rules", "--order", "gap"], "--order gap needs a rule player"),
    ] {
        let mut all = vec!["witness", "generate", "--base", base, "-o", out.to_str().unwrap()];
        all.extend(args);
        let err = fails(&run(&all));
        assert!(err.contains(expected), "{err}");
        assert!(!out.exists());
    }
    let err = fails(&run(&[
        "witness",
        "generate",
        "--base",
        good.to_str().unwrap(),
        "--at",
        "0,0",
        "-o",
        out.to_str().unwrap(),
    ]));
    assert!(err.contains("holds 3 puzzles; --base expects exactly one"), "{err}");
    let nowhere = temp("missing-dir").join("out.ron");
    let err = fails(&run(&["witness", "generate", "--base", base, "--at", "1,1", "-o", nowhere.to_str().unwrap()]));
    assert!(err.contains("no such directory"), "{err}");
    // an output that is an input is refused before any work
    let err = fails(&run(&["witness", "analyze", good.to_str().unwrap(), "--html", good.to_str().unwrap()]));
    assert!(err.contains("the output is also an input"), "{err}");
    assert_eq!(std::fs::read_to_string(&good).unwrap(), PUZZLES);
}
