//! The studio's Flow routes over HTTP on loopback: `analyze` equals the
//! CLI's `analyze --json` with the learned set (and its control verdict
//! the CLI's with the control set), on bundled puzzles in each layout, on
//! a puzzle with two solutions and on one with none; `explain` equals
//! `explain --json`; `generate` equals `generate flow --json`; a puzzle
//! exported in the three layouts opens back as itself; malformed
//! requests get a 4xx with a message; past its budget the answer says so;
//! `--rules FILE` with a Flow rule file replaces the learned set; `repair`
//! equals `generate flow --from --json`.

use crate::api::{cli_json, Studio};
use serde_json::{json, Value};
use std::path::Path;
use stratsynth::domains::flow::formats::read::parse_flow;
use stratsynth::domains::flow::formats::write::grid_text;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Puzzle `n` (from 1) of a bundled sized file, as grid text without
/// its metadata.
fn bundled(file: &str, n: usize) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let mut p = parse_flow(&text, file).unwrap().remove(n - 1).1;
    (p.title, p.metadata) = (None, vec![]);
    grid_text(&p).unwrap()
}

/// `a` without `keys`.
fn without(mut a: Value, keys: &[&str]) -> Value {
    for k in keys {
        a.as_object_mut().unwrap().remove(*k);
    }
    a
}

/// Writes `text` to a fresh file named `name`; its path.
fn written(name: &str, text: &str) -> String {
    let path = crate::cli::temp_path(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The two solutions' puzzle (4x4, every cell used, no path beside itself)
/// and one with none.
const TWO: &str = "A..B\n.BA.\n.CC.\n....\n";
const NONE: &str = "A..\n...\n..A\n";

#[test]
fn flow_answers_equal_the_cli() {
    let studio = Studio::start();
    let mut puzzles: Vec<String> = [1, 9, 22].iter().map(|&n| bundled("specs/flow/made.flow", n)).collect();
    puzzles.push(bundled("specs/flow/dev.flow", 1));
    puzzles.extend([TWO.to_string(), NONE.to_string()]);
    for (i, grid) in puzzles.iter().enumerate() {
        let file = written(&format!("flow-{i}.flow"), grid);
        let learned = cli_json(&["analyze", "--rules", "rules/flow/learned.rules", "--json", &file]);
        let control = cli_json(&["analyze", "--rules", "rules/flow/control.rules", "--json", &file]);
        let answer = studio.post_json("/api/flow/analyze", &json!({"puzzle": grid}));
        let studio_only = ["file", "search_ms", "players", "rules_file"];
        assert_eq!(
            without(answer.clone(), &studio_only),
            without(learned[0].clone(), &["file", "search_ms"]),
            "{grid}"
        );
        assert_eq!(answer["rules_file"], "rules/flow/learned.rules");
        let players = answer["players"].as_array().unwrap();
        for (verdict, cli, name) in [(&players[0], &learned[0], "rules"), (&players[1], &control[0], "control")] {
            assert_eq!(verdict["player"], name);
            for key in ["rules_solvable", "steps", "oracle_steps", "difficulty"] {
                assert_eq!(verdict[key], cli[key], "{name} {key}: {grid}");
            }
        }
    }
    let two = studio.post_json("/api/flow/analyze", &json!({"puzzle": TWO}));
    assert_eq!(two["solutions"], 2);
    assert!(two["differ"].as_array().is_some_and(|d| !d.is_empty()), "{two}");
    let none = studio.post_json("/api/flow/analyze", &json!({"puzzle": NONE}));
    assert_eq!((none["solutions"].clone(), none["solution"].clone()), (json!(0), Value::Null));
    // the same puzzle in the counted and the sized layouts: the same answer
    let grid = &puzzles[0];
    let exported = studio.post_json("/api/flow/export", &json!({"puzzle": grid}));
    let first = without(studio.post_json("/api/flow/analyze", &json!({"puzzle": grid})), &["search_ms"]);
    for layout in ["counted", "sized"] {
        let text = exported[layout].as_str().unwrap();
        let answer = studio.post_json("/api/flow/analyze", &json!({"puzzle": text}));
        assert_eq!(without(answer, &["search_ms"]), first, "{layout}");
    }
}

#[test]
fn flow_explain_and_generate_equal_the_cli() {
    let studio = Studio::start();
    let grid = bundled("specs/flow/made.flow", 9);
    let file = written("explain.flow", &grid);
    for (player, rules) in [(None, "rules/flow/learned.rules"), (Some("control"), "rules/flow/control.rules")] {
        let cli = cli_json(&["explain", &file, "--rules", rules, "--json"]);
        let mut body = json!({"puzzle": grid});
        if let Some(p) = player {
            body["player"] = json!(p);
        }
        let answer = studio.post_json("/api/flow/explain", &body);
        let headings = answer["headings"].as_array().unwrap().clone();
        assert_eq!(without(answer, &["file", "headings"]), without(cli.clone(), &["file"]), "{rules}");
        assert_eq!(headings.len(), cli["steps"].as_array().unwrap().len());
        let rule = cli["steps"][0]["rule"].as_str().unwrap();
        assert!(headings[0]["heading"].as_str().unwrap().ends_with(&format!("rule {rule}")), "{:?}", headings[0]);
    }
    for (player, seed) in [("rules", 3), ("control", 5), ("search", 7)] {
        let cli = cli_json(&[
            "generate",
            "flow",
            "--size",
            "6x6",
            "--count",
            "1",
            "--player",
            player,
            "--seed",
            &seed.to_string(),
            "--json",
        ]);
        let answer =
            studio.post_json("/api/flow/generate", &json!({"width": 6, "height": 6, "player": player, "seed": seed}));
        assert_eq!(answer["puzzles"], cli["puzzles"], "{player}");
        let made = answer["puzzles"][0]["grid"].as_str().unwrap();
        let analysed = studio.post_json("/api/flow/analyze", &json!({"puzzle": made}));
        assert_eq!(analysed["solutions"], 1, "{made}");
    }
}

#[test]
fn flow_files_open_and_export_in_the_three_layouts() {
    let studio = Studio::start();
    let grid = format!("# title \"a test\"\n{}", bundled("specs/flow/made.flow", 1));
    let exported = studio.post_json("/api/flow/export", &json!({"puzzle": grid}));
    assert_eq!(exported["grid"], json!(grid));
    let rows: Vec<&str> = grid.lines().skip(1).collect();
    for layout in ["grid", "counted", "sized"] {
        let text = exported[layout].as_str().unwrap();
        assert!(text.starts_with("# title \"a test\"\n"), "{layout}: {text}");
        let (status, opened) = studio.post("/api/flow/open", text.as_bytes());
        assert_eq!(status, 200, "{layout}: {opened}");
        let p = &opened["puzzles"][0];
        assert_eq!((p["title"].clone(), p["rows"].clone()), (json!("a test"), json!(rows)), "{layout}");
    }
    let two = format!("{}\n{}", exported["sized"].as_str().unwrap(), exported["sized"].as_str().unwrap());
    let (status, opened) = studio.post("/api/flow/open", two.as_bytes());
    assert_eq!((status, opened["puzzles"].as_array().map(Vec::len)), (200, Some(2)), "{opened}");
}

#[test]
fn malformed_flow_requests_get_4xx_with_a_reason() {
    let studio = Studio::start();
    let bad: &[(&str, &str, &str)] = &[
        ("analyze", "{}", "missing field `puzzle`"),
        ("analyze", "{\"puzzle\": 5}", "`puzzle`"),
        ("analyze", "{\"puzzle\": \"A.\\n..\\n\"}", "`puzzle`:"),
        ("analyze", "{\"puzzle\": \"A.B\\n..\\n\"}", "`puzzle`:2:"),
        ("analyze", "{\"puzzle\": \"\"}", "expected a puzzle"),
        ("analyze", "{\"puzzle\": \"A.A\", \"touching\": true}", "unknown field `touching`"),
        ("explain", "{\"puzzle\": \"A.A\\n\", \"player\": \"oracle\"}", "expected rules or control"),
        ("explain", "{\"puzzle\": \"A..\\n...\\n..A\\n\"}", "no solution"),
        ("generate", "{\"width\": 0, \"height\": 5}", "`width`"),
        ("generate", "{\"width\": 4, \"height\": 4, \"colours\": 9}", "`colours`"),
        ("generate", "{\"width\": 4, \"height\": 4, \"player\": \"oracle\"}", "expected rules, control or search"),
        ("generate", "{\"width\": 4, \"height\": 4, \"max_bits\": -1}", "`max_bits`"),
        ("generate", "{\"width\": 1, \"height\": 1}", "one cell"),
        ("export", "{\"puzzle\": \"3 2 2\\n(0, 0) (1, 0)\\n\"}", "`puzzle`:"),
    ];
    for (route, body, reason) in bad {
        let (status, answer) = studio.post(&format!("/api/flow/{route}"), body.as_bytes());
        assert!((400..500).contains(&status), "{route} {body}: {status} {answer}");
        let message = answer["error"].as_str().unwrap_or("");
        assert!(message.contains(reason), "{route} {body}: {message:?} lacks {reason:?}");
    }
    let (status, answer) = studio.post("/api/flow/open", b"\xff\xfe not text");
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = studio.post("/api/flow/open", b"A.B\n...\n");
    assert!(status == 422 && answer["error"].as_str().unwrap().starts_with("the opened file:"), "{answer}");
    // the server goes on
    assert_eq!(studio.post_json("/api/flow/analyze", &json!({"puzzle": TWO}))["solutions"], 2);
}

/// A 12x12 puzzle with a budget of 1 ms: answered at once, what did not
/// end named `timeout` with the budget.
#[test]
fn past_its_budget_a_flow_answer_says_what_is_unknown() {
    let studio = Studio::start();
    let grid = bundled("specs/flow/made.flow", 49);
    assert_eq!(grid.lines().count(), 12, "{grid}");
    let started = std::time::Instant::now();
    let (status, answer) = studio.post("/api/flow/analyze?budget_ms=1", json!({"puzzle": grid}).to_string().as_bytes());
    assert_eq!(status, 200, "{answer}");
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(answer["budget_ms"], 1, "{answer}");
    let unknown = answer["solutions"].is_null() && answer["stopped"] == "timeout";
    assert!(unknown || answer["difficulty_stopped"] == "timeout", "{answer}");
    if !unknown {
        assert!(answer["players"].as_array().unwrap().iter().any(|p| p["stopped"] == "timeout"), "{answer}");
    }
}

/// `studio --rules rules/flow/top10.rules`: the Flow rule set named at
/// start and in the answers, played as the `rules` player (the CLI's
/// figures with that file), the control set beside it.
#[test]
fn a_flow_rule_file_replaces_the_learned_set() {
    let studio = Studio::start_with(&["--rules", "rules/flow/top10.rules"]);
    let grid = bundled("specs/flow/made.flow", 9);
    let file = written("rules.flow", &grid);
    let cli = cli_json(&["analyze", "--rules", "rules/flow/top10.rules", "--json", &file]);
    let answer = studio.post_json("/api/flow/analyze", &json!({"puzzle": grid}));
    assert_eq!(answer["rules_file"], "rules/flow/top10.rules");
    assert_eq!(answer["players"][0]["rules_file"], "rules/flow/top10.rules");
    assert_eq!(answer["players"][1]["rules_file"], "rules/flow/control.rules");
    assert_eq!(
        without(answer, &["file", "search_ms", "players", "rules_file"]),
        without(cli[0].clone(), &["file", "search_ms"])
    );
}

/// `POST /api/rules` names each domain's rule file as the answers name
/// it, the Flow one replaced by `--rules`: the page's header names every
/// set before any panel has asked.
#[test]
fn the_rule_sets_are_named_before_any_panel_asks() {
    let studio = Studio::start_with(&["--rules", "rules/flow/top10.rules"]);
    let named = studio.post_json("/api/rules", &json!({}));
    let grid = bundled("specs/flow/made.flow", 9);
    let analysed = studio.post_json("/api/flow/analyze", &json!({"puzzle": grid}));
    assert_eq!(named["Flow"], analysed["rules_file"]);
    assert_eq!(named["Flow"], "rules/flow/top10.rules");
    assert_eq!(named["nonogram"], "rules/nonogram/top10.rules");
    assert_eq!(named["Witness"], "rules/witness/learned-game.rules");
}

/// A repair not found within the changes allowed says what searches
/// further: the page sets no number of changes, so the studio names the
/// command, where the command names its flag.
#[test]
fn a_repair_not_found_names_what_searches_further() {
    let studio = Studio::start();
    let file = written("short.flow", TWO);
    let cli = cli_json(&["generate", "flow", "--from", &file, "--max-changes", "1", "--json"]);
    let answer = studio.post_json("/api/flow/repair", &json!({"puzzle": TWO, "max_changes": 1}));
    assert!(answer["puzzles"].as_array().unwrap().is_empty(), "{answer}");
    let said = |a: &Value| a["summary"][0].as_str().unwrap().to_string();
    assert!(said(&cli).ends_with("raise --max-changes"), "{cli}");
    assert!(said(&answer).ends_with("`stratsynth generate flow --from FILE --max-changes N` tries more"), "{answer}");
}

/// The two-solution puzzle repaired as `generate flow --from FILE --json`
/// repairs it (but for the name and the time in the summary): the repaired
/// puzzle has one solution.
#[test]
fn flow_repair_equals_the_cli() {
    let studio = Studio::start();
    let file = written("repair.flow", TWO);
    let cli = cli_json(&["generate", "flow", "--from", &file, "--json"]);
    let answer = studio.post_json("/api/flow/repair", &json!({"puzzle": TWO}));
    let kept = |a: &Value| without(a.clone(), &["summary"]);
    assert_eq!(kept(&answer), kept(&cli), "{answer}");
    assert_eq!(answer["solutions"], 2);
    let repaired = answer["puzzles"][0]["grid"].as_str().unwrap();
    assert!(!answer["puzzles"][0]["changed"].as_array().unwrap().is_empty(), "{answer}");
    assert_eq!(studio.post_json("/api/flow/analyze", &json!({"puzzle": repaired}))["solutions"], 1);
    let (status, bad) =
        studio.post("/api/flow/repair", json!({"puzzle": TWO, "max_changes": 0}).to_string().as_bytes());
    assert!(status == 400 && bad["error"].as_str().unwrap().contains("`max_changes`"), "{bad}");
}
