//! The full-game Witness options end to end: `witness gen --constraints
//! --colours` (only the chosen kinds, every puzzle solvable, same seed same
//! bytes), `witness generate --edge-at --marks` (exactly the solvable
//! fillings, built here independently), `witness generate --teach
//! --constraints`, `witness compare` (what it recovers and misses) and
//! `witness bench` with several rule sets side by side.

use serde_json::Value;
use std::collections::HashSet;
use std::path::Path as FsPath;
use stratsynth::domains::witness::board::oracle::solve;
use stratsynth::domains::witness::formats::puzzle::{parse_puzzles, read_puzzles, Constraints};
use stratsynth::domains::witness::Puzzle;

use crate::cli::{fails, fresh_dir, run, write};

/// Standard output of a successful run.
fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn gen(kinds: &str, colours: &str, sizes: &str, count: &str, seed: &str, out: &FsPath) -> String {
    let out = out.to_str().unwrap();
    let args = [
        "witness",
        "gen",
        "--constraints",
        kinds,
        "--colours",
        colours,
        "--sizes",
        sizes,
        "--count",
        count,
        "--seed",
        seed,
        "-o",
        out,
    ];
    stdout(&run(&args))
}

#[test]
fn gen_places_only_the_chosen_kinds_around_a_solution() {
    let dir = fresh_dir("kinds-gen");
    let (a, b) = (dir.join("a.ron"), dir.join("b.ron"));
    let said = gen("colours,dots", "3", "2x2..4x4", "40", "7", &a);
    assert!(said.starts_with("wrote 40 puzzles (colours,dots, 3 colours, sizes 2x2..4x4, seed 7)"), "{said}");
    gen("colours,dots", "3", "2x2..4x4", "40", "7", &b);
    // the same puzzles byte for byte (the header line names the output)
    let body = |p: &FsPath| std::fs::read_to_string(p).unwrap().split_once('\n').unwrap().1.to_string();
    assert!(body(&a) == body(&b), "same seed, different puzzles");
    let text = std::fs::read_to_string(&a).unwrap();
    assert!(text.starts_with("// stratsynth witness gen --constraints colours,dots --colours 3 --sizes 2x2..4x4"));
    let ps = read_puzzles(&a).unwrap();
    assert_eq!(ps.len(), 40);
    let mut colours = HashSet::new();
    for p in &ps {
        assert!(p.triangles().is_empty() && p.broken().is_empty(), "{}", p.to_ron());
        assert!(p.marks().iter().all(|m| !m.star && (1..=3).contains(&m.colour)), "{}", p.to_ron());
        colours.extend(p.marks().iter().map(|m| m.colour));
        let s = solve(p).unwrap_or_else(|| panic!("unsolvable: {}", p.to_ron()));
        assert!(s.is_solution(p));
    }
    assert_eq!(colours.len(), 3, "three colours drawn from");
    assert!(ps.iter().filter(|p| !p.dots().is_empty()).count() > 10);
    assert!(ps.iter().filter(|p| p.marks().len() >= 2).count() > 10);

    // every kind: each appears, and every puzzle is solvable
    let all = dir.join("all.ron");
    gen("triangles,colours,stars,dots,broken", "2", "3x3..4x4", "30", "1", &all);
    let ps = read_puzzles(&all).unwrap();
    assert!(ps.iter().any(|p| !p.triangles().is_empty()));
    assert!(ps.iter().any(|p| p.marks().iter().any(|m| m.star)));
    assert!(ps.iter().any(|p| p.marks().iter().any(|m| !m.star)));
    assert!(ps.iter().any(|p| !p.dots().is_empty()));
    assert!(ps.iter().any(|p| !p.broken().is_empty()));
    assert!(ps.iter().all(|p| solve(p).is_some_and(|s| s.is_solution(p))));

    let bad = dir.join("bad.ron");
    let bad = bad.to_str().unwrap();
    let base = ["witness", "gen", "--sizes", "3x3", "--count", "2", "-o", bad];
    let with = |extra: &[&'static str]| run(&[&base[..], extra].concat());
    fails(&with(&["--constraints", "colours,circles"]), 2, "unknown constraint kind `circles`");
    fails(&with(&["--constraints", "dots,dots"]), 2, "constraint kind `dots` is listed twice");
    fails(&with(&["--constraints", "colours", "--colours", "0"]), 2, "--colours");
    fails(&with(&["--alg", "3", "--colours", "2"]), 2, "--constraints");
    let teach = ["witness", "generate", "--teach", "rules/witness/shen.rules", "--size", "3x3", "--colours", "2"];
    fails(&run(&teach), 2, "--constraints");
    assert!(!FsPath::new(bad).exists());
}

/// A 3x3 puzzle with no constraint and the given ones.
fn base3(c: &Constraints) -> Puzzle {
    Puzzle::with_constraints(3, 3, (0, 0), (3, 3), c).unwrap()
}

#[test]
fn epcg_with_edge_and_mark_placeholders_keeps_exactly_the_solvable_fillings() {
    let dir = fresh_dir("kinds-epcg");
    let base = write(&dir, "base.ron", format!("[{}]\n", base3(&Constraints::default()).to_ron()));
    let out = dir.join("made.ron");
    let args = [
        "witness",
        "generate",
        "--base",
        &base,
        "--at",
        "0,0",
        "2,2",
        "--edge-at",
        "1,1-2,1",
        "--marks",
        "--json",
        "-o",
        out.to_str().unwrap(),
    ];
    let list: Value = serde_json::from_str(&stdout(&run(&args))).unwrap();
    let made: Vec<Puzzle> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| parse_puzzles(&format!("[{}]", m["puzzle"].as_str().unwrap()), "json").unwrap().remove(0))
        .collect();
    // Shen §5: a base without colours and at least two placeholders gets
    // two new colours; a square takes none, 1-3 triangles, a separation
    // square or a star of either colour; the edge none, a dot or broken
    let mut fills: Vec<Constraints> = vec![Constraints::default()];
    for sq in [(0, 0), (2, 2)] {
        let mut next = vec![];
        for c in &fills {
            next.push(c.clone());
            for t in 1..=3 {
                next.push(Constraints {
                    triangles: [c.triangles.clone(), vec![(sq.0, sq.1, t)]].concat(),
                    ..c.clone()
                });
            }
            for k in 1..=2 {
                next.push(Constraints { colours: [c.colours.clone(), vec![(sq.0, sq.1, k)]].concat(), ..c.clone() });
                next.push(Constraints { stars: [c.stars.clone(), vec![(sq.0, sq.1, k)]].concat(), ..c.clone() });
            }
        }
        fills = next;
    }
    let edge = ((1, 1), (2, 1));
    let variants: Vec<Puzzle> = fills
        .iter()
        .flat_map(|c| {
            [
                c.clone(),
                Constraints { edge_dots: vec![edge], ..c.clone() },
                Constraints { broken: vec![edge], ..c.clone() },
            ]
        })
        .map(|c| base3(&c))
        .collect();
    assert_eq!(variants.len(), 8 * 8 * 3);
    let solvable: HashSet<Puzzle> = variants.into_iter().filter(|p| solve(p).is_some()).collect();
    let kept: HashSet<Puzzle> = made.iter().cloned().collect();
    assert_eq!(kept.len(), made.len(), "each filling once");
    assert_eq!(kept, solvable);
    assert!(solvable.len() < 192 && solvable.iter().any(|p| !p.broken().is_empty()));
    // ranked by the local player's TSI, largest first
    let scores: Vec<f64> = list.as_array().unwrap().iter().map(|m| m["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(&format!("192 variants of {base} (placeholders 0,0 2,2 1,1-2,1), {} solvable", kept.len())));

    // eight mark placeholders make 8^8 variants: refused before any work
    let many: Vec<String> = (0..8).map(|i| format!("{},{}", i % 3, i / 3)).collect();
    let mut args: Vec<&str> = vec!["witness", "generate", "--base", &base, "--marks", "-o", "x.ron", "--at"];
    args.extend(many.iter().map(String::as_str));
    fails(&run(&args), 2, "the placeholders make 16777216 variants: expected at most 65536");
    let args = ["witness", "generate", "--base", &base, "--edge-at", "0,0-1,1", "-o", "x.ron"];
    fails(&run(&args), 2, "--edge-at 0,0-1,1: not an edge of the 3x3 grid");
}

/// A teaching puzzle: local TSI, the rule player's TSI, the gap, the puzzle.
type Taught = (f64, f64, f64, Puzzle);

/// The `--json` report of `witness generate --teach` as (rule, its puzzles).
fn teach(extra: &[&str]) -> Vec<(String, Vec<Taught>)> {
    let mut args = vec!["witness", "generate", "--teach", "rules/witness/shen.rules", "--size", "3x3"];
    args.extend(extra);
    let v: Value = serde_json::from_str(&stdout(&run(&args))).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let made = r["puzzles"].as_array().unwrap().iter().map(|m| {
                let p = parse_puzzles(&format!("[{}]", m["puzzle"].as_str().unwrap()), "json").unwrap().remove(0);
                (m["local_tsi"].as_f64().unwrap(), m["rule_tsi"].as_f64().unwrap(), m["gap"].as_f64().unwrap(), p)
            });
            (r["rule"].as_str().unwrap().to_string(), made.collect())
        })
        .collect()
}

#[test]
fn teaching_puzzles_for_shens_rules_need_marks_and_dots() {
    // triangle candidates: none of Shen's rules ever fires, none teaches
    let plain = teach(&["--count", "10", "--seed", "1", "--json"]);
    assert_eq!(plain.len(), 4);
    assert!(plain.iter().all(|(_, made)| made.is_empty()), "{plain:?}");
    let full = teach(&["--constraints", "colours,stars,dots", "--count", "12", "--seed", "1", "--top", "2", "--json"]);
    let names: Vec<&str> = full.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["separation", "must_cross", "along_the_path_star", "completed_region_star"]);
    for (rule, made) in &full {
        assert!(made.len() <= 2);
        for (local, with, gap, p) in made {
            assert!(*gap > 0.0 && (local - with - gap).abs() < 1e-9, "{rule}: {local} {with} {gap}");
            let needs_dots = rule == "must_cross";
            assert!(if needs_dots { !p.dots().is_empty() } else { p.has_marks() }, "{rule}: {}", p.to_ron());
        }
    }
    let separation = &full[0].1;
    assert!(!separation.is_empty(), "separation makes some 3x3 puzzle with colours easier");
    assert!(separation.windows(2).all(|w| w[0].2 >= w[1].2));
}

/// The lines of `witness compare --learned L` on drawn puzzles of `kinds`.
fn compare(learned: &str, kinds: &str) -> String {
    let args = [
        "witness",
        "compare",
        "--learned",
        learned,
        "--constraints",
        kinds,
        "--sizes",
        "3x3",
        "--count",
        "25",
        "--seed",
        "2",
    ];
    stdout(&run(&args))
}

/// The row of control rule `name`: its fields split on whitespace.
fn row<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    text.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap().split_whitespace().collect()
}

#[test]
fn compare_says_which_control_rules_a_learned_set_recovers() {
    let same = compare("rules/witness/shen.rules", "colours,stars,dots");
    assert!(same.contains("recovered 4 of 4 control rules"), "{same}");
    for name in ["separation", "must_cross", "along_the_path_star", "completed_region_star"] {
        assert_eq!(row(&same, name)[2], "exact", "{same}");
    }
    assert!(same.contains("beyond: 0 states the learned set prunes and no control rule does; 0 the control set"));
    // must_cross renamed and its conditions swapped is still it; on
    // puzzles with colours only the star rules prune nothing, and nothing
    // learned prunes what separation prunes
    let dir = fresh_dir("kinds-compare");
    let lost =
        "def lost_dot:\n    with d = arbitrary(dot):\n    if not reachable(d) and not crossed(d):\n    then prune\n";
    let learned = write(&dir, "lost.rules", lost);
    let text = compare(&learned, "colours");
    assert!(text.contains("recovered 1 of 4 control rules"), "{text}");
    assert_eq!(&row(&text, "must_cross")[2..4], ["exact", "lost_dot"], "{text}");
    assert_eq!(row(&text, "along_the_path_star")[2], "uncovered", "{text}");
    let sep = row(&text, "separation");
    assert_eq!(sep[2], "none", "{text}");
    let states: usize = sep[1].parse().unwrap();
    assert!(states > 0);
    assert!(
        text.contains(&format!(
            "beyond: 0 states the learned set prunes and no control rule does; {states} the control"
        )),
        "{text}"
    );
}

#[test]
fn bench_measures_rule_sets_side_by_side_on_one_baseline() {
    let dir = fresh_dir("kinds-bench");
    let ps = dir.join("p.ron");
    gen("colours,stars,dots", "2", "2x2..3x3", "20", "3", &ps);
    let ps = ps.to_str().unwrap();
    let bench = |rules: &[&str], json: bool| {
        let mut args = vec!["witness", "bench", "--puzzles", ps, "--repeat", "1"];
        for r in rules {
            args.extend(["--rules", r]);
        }
        if json {
            args.push("--json");
        }
        stdout(&run(&args))
    };
    let (shen, local) = ("rules/witness/shen.rules", "rules/witness/baseline.rules");
    let v: Value = serde_json::from_str(&bench(&[shen, local], true)).unwrap();
    let sets = v["rule_sets"].as_array().unwrap();
    assert_eq!(sets.len(), 2);
    assert_eq!((sets[0]["rules"].as_str(), sets[1]["rules"].as_str()), (Some(shen), Some(local)));
    let n = |s: &Value, k: &str| s[k].as_u64().unwrap();
    // one baseline search, shared; the first set's figures are the top level's
    assert_eq!(n(&sets[0], "baseline_expansions"), n(&sets[1], "baseline_expansions"));
    assert_eq!(n(&v, "rules_expansions"), n(&sets[0], "rules_expansions"));
    // local checking's own rules add nothing to local checking
    assert_eq!(n(&sets[1], "rules_expansions"), n(&sets[1], "baseline_expansions"));
    assert_eq!(n(&sets[1], "trace_pruned"), 0);
    let s = &sets[0];
    assert!(n(s, "rules_expansions") < n(s, "baseline_expansions") && n(s, "trace_pruned") > 0, "{s}");
    assert_eq!((n(s, "solved_rules"), n(s, "lost_solutions"), n(s, "invalid_solutions")), (20, 0, 0));
    // the same figures as the set measured alone
    let alone: Value = serde_json::from_str(&bench(&[shen], true)).unwrap();
    assert_eq!(alone["rule_sets"].as_array().unwrap().len(), 1);
    for k in ["baseline_expansions", "rules_expansions", "perfect_expansions", "trace_incompletable", "trace_pruned"] {
        assert_eq!(n(&alone, k), n(s, k), "{k}");
    }
    let text = bench(&[shen, local], false);
    let side = text.split("side by side").nth(1).expect("a side-by-side table");
    let lines: Vec<&str> = side.lines().skip(2).collect();
    assert!(lines[0].starts_with("local constraint checking"));
    assert!(lines[1].starts_with(shen) && lines[2].starts_with(local) && lines[3].starts_with("perfect pruning"));
    let speedup = |l: &str| l.split_whitespace().nth(2).unwrap().parse::<f64>().unwrap();
    let expected = n(s, "baseline_expansions") as f64 / n(s, "rules_expansions") as f64;
    assert!((speedup(lines[1]) - expected).abs() < 0.006, "{side}");
    assert_eq!(speedup(lines[2]), 1.0);
}
