//! The studio's routes for designers against the library and the CLI: the
//! owners of blocks (`/api/nonogram/owners`) equal the interpreter's
//! ownership features (`first_owner`, `last_owner`) on every line of the
//! bear at steps of its explanation, and on the line where two blocks must
//! be part of the 6; a clue-only `.non` opens with the count `analyze
//! --json` gives and a solution of its clues; export writes the author and
//! title given and open reads them back; a board past the rules' line
//! limit says why the rules are not played; Witness boards up to 8x8 get
//! a count of solutions or a stated lower bound.

use crate::api::{cli_json, picture_request, Studio};
use serde_json::{json, Value};
use stratsynth::domains::nonogram::formats::non::{clues_of, parse_non};
use stratsynth::domains::nonogram::line::model::{Cell, Line};
use stratsynth::domains::nonogram::line::ownership::ownership;

/// What the interpreter says of one line: `None` if no solution extends
/// it, else each block's start, size, first and last owner.
fn interpreter(hints: &[u32], cells: Vec<Cell>) -> Option<Vec<(u64, u64, i64, i64)>> {
    let line = Line::new(hints.to_vec(), cells);
    let owned = ownership(&line)?;
    Some(line.blocks().iter().zip(&owned.blocks).map(|(&(s, n), o)| (s as u64, n as u64, o.first, o.last)).collect())
}

/// The route's answer for one line, as [`interpreter`] gives it.
fn answered(line: &Value) -> Option<Vec<(u64, u64, i64, i64)>> {
    if !line["solvable"].as_bool().unwrap() {
        assert!(line.get("blocks").is_none(), "{line}");
        return None;
    }
    let field = |b: &Value, k: &str| b[k].as_i64().unwrap();
    let blocks = line["blocks"].as_array().unwrap();
    Some(
        blocks
            .iter()
            .map(|b| {
                (field(b, "start") as u64, field(b, "size") as u64, field(b, "first_owner"), field(b, "last_owner"))
            })
            .collect(),
    )
}

#[test]
fn owners_equal_the_interpreter_at_every_fifth_step_of_the_bear() {
    let studio = Studio::start();
    let picture = picture_request("specs/puzzles/hakank-bear.non");
    let (w, h) = (13, 8);
    let goal: Vec<bool> = picture["goal"].as_str().unwrap().chars().map(|c| c == '1').collect();
    let (rows, columns) = clues_of(w, h, &goal);
    let steps = studio.post_json("/api/nonogram/explain", &picture);
    let steps = steps.as_array().unwrap();
    assert!(steps.len() > 40, "{} steps", steps.len());
    let mut known = vec![Cell::Unknown; w * h];
    let (mut certain, mut uncertain) = (0, 0);
    for (k, step) in steps.iter().enumerate() {
        for c in step["cells"].as_array().unwrap() {
            let p = (c["row"].as_u64().unwrap() as usize - 1) * w + c["column"].as_u64().unwrap() as usize - 1;
            known[p] = Cell::from_bool(c["filled"].as_bool().unwrap());
        }
        if k % 5 != 4 && k + 1 != steps.len() {
            continue;
        }
        let text: String = known.iter().map(|c| c.to_char()).collect();
        let answer = studio.post_json("/api/nonogram/owners", &json!({"puzzle": picture, "known": text}));
        let lines = answer["lines"].as_array().unwrap();
        assert_eq!(lines.len(), w + h);
        for line in lines {
            let i = line["index"].as_u64().unwrap() as usize - 1;
            let (hints, cells): (&[u32], Vec<Cell>) = match line["axis"].as_str().unwrap() {
                "row" => (&rows[i], known[i * w..(i + 1) * w].to_vec()),
                _ => (&columns[i], (0..h).map(|r| known[r * w + i]).collect()),
            };
            let want = interpreter(hints, cells);
            assert_eq!(answered(line), want, "step {}: {line}", k + 1);
            for (.., first, last) in want.unwrap_or_default() {
                if first == last {
                    certain += 1;
                } else {
                    uncertain += 1;
                }
            }
        }
    }
    assert!(certain > 0 && uncertain > 0, "{certain} blocks with a certain owner, {uncertain} without");
}

#[test]
fn two_blocks_too_far_from_the_2_and_the_3_are_owned_by_the_6() {
    let studio = Studio::start();
    // one row `2 6 3 | ..........#..#x...` (the columns' clues do not matter here)
    let puzzle = json!({"rows": [[2, 6, 3]], "columns": vec![json!([]); 18]});
    let answer = studio.post_json("/api/nonogram/owners", &json!({"puzzle": puzzle, "known": "..........#..#x..."}));
    let row = &answer["lines"][0];
    assert_eq!(row["axis"], "row");
    assert_eq!(answered(row), Some(vec![(10, 1, 1, 1), (13, 1, 1, 1)]), "{row}");
    // a line no solution extends: a column of one cell, filled, whose clue is empty
    assert_eq!(answer["lines"][11]["solvable"], false, "{}", answer["lines"][11]);
    let (status, answer) = studio
        .post("/api/nonogram/owners", json!({"puzzle": puzzle, "known": "..........#..#x..?"}).to_string().as_bytes());
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("`known`"), "{answer}");
}

#[test]
fn a_clue_only_non_opens_with_the_cli_count_and_a_solution_of_its_clues() {
    let studio = Studio::start();
    let file = "specs/puzzles/nonny-heart.non";
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let clues_only: String = text.lines().filter(|l| !l.starts_with("goal")).map(|l| format!("{l}\n")).collect();
    let two = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n";
    let cli = cli_json(&["analyze", file, "--json"]);
    for (text, want) in [(clues_only.as_str(), cli[0]["solutions"].clone()), (two, json!(2))] {
        let puzzle = parse_non(text, "test").unwrap();
        assert!(puzzle.goal.is_none());
        let (status, answer) = studio.post("/api/nonogram/open", text.as_bytes());
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["solutions"], want, "{answer}");
        assert_eq!((answer["rows"].clone(), answer["columns"].clone()), (json!(puzzle.rows), json!(puzzle.columns)));
        let goal: Vec<bool> = answer["goal"].as_str().unwrap().chars().map(|c| c == '1').collect();
        assert_eq!(clues_of(puzzle.width, puzzle.height, &goal), (puzzle.rows, puzzle.columns), "{answer}");
    }
}

#[test]
fn export_writes_the_author_and_open_reads_it_back() {
    let studio = Studio::start();
    let mut picture = picture_request("specs/puzzles/nonny-heart.non");
    picture["title"] = json!("Heart, redrawn");
    picture["author"] = json!("A. Designer");
    let non = studio.post_json("/api/nonogram/export", &picture)["non"].as_str().unwrap().to_string();
    assert!(non.contains("by \"A. Designer\"\n") && non.contains("title \"Heart, redrawn\"\n"), "{non}");
    let (status, opened) = studio.post("/api/nonogram/open", non.as_bytes());
    assert_eq!(status, 200, "{opened}");
    assert_eq!(
        (&opened["title"], &opened["author"], &opened["goal"]),
        (&picture["title"], &picture["author"], &picture["goal"])
    );
}

#[test]
fn past_the_rules_line_limit_the_answer_says_why() {
    let studio = Studio::start();
    let black = |n: usize| json!({"width": n, "height": n, "goal": "1".repeat(n * n)});
    let inside = studio.post_json("/api/nonogram/analyze", &black(30));
    assert_eq!((inside["rules_solvable"].clone(), inside.get("rules_refused")), (json!(true), None), "{inside}");
    let past = studio.post_json("/api/nonogram/analyze", &black(31));
    assert_eq!(past["rules_solvable"], Value::Null, "{past}");
    let why = past["rules_refused"].as_str().unwrap();
    assert!(why.contains("longest line has 31 cells") && why.contains("at most 30 cells"), "{why}");
}

#[test]
fn witness_boards_up_to_8x8_get_a_count_or_a_stated_lower_bound() {
    let studio = Studio::start();
    let empty = |n: u32| format!("(width: {n}, height: {n}, start: (0, 0), goal: ({n}, {n}))");
    let triangles =
        "(width: 6, height: 6, start: (0, 0), goal: (6, 6), triangles: [(1, 1, 3), (4, 1, 2), (1, 4, 1), (4, 4, 2)])";
    for puzzle in [empty(6), empty(7), empty(8), triangles.to_string(), empty(5)] {
        let body = json!({"puzzle": puzzle}).to_string();
        let (status, a) = studio.post("/api/witness/analyze?budget_ms=1500", body.as_bytes());
        assert_eq!(status, 200, "{puzzle}: {a}");
        let (exact, bound) = (a["solutions"].as_u64(), a["solutions_at_least"].as_u64());
        let counted = match (exact, bound) {
            (Some(n), None) => n,
            (None, Some(n)) => {
                assert_eq!(a["solutions"], json!("unknown"), "{puzzle}: {a}");
                n
            }
            _ => panic!("{puzzle}: neither a count nor a lower bound: {a}"),
        };
        assert!(counted > 0, "{puzzle}: {a}");
        // the corner-to-corner self-avoiding walks of the empty 5x5 (OEIS A007764)
        if puzzle == empty(5) {
            assert!(counted <= 1_262_816, "{a}");
        }
        for p in a["players"].as_array().unwrap() {
            if p["msi"] == json!("unknown") {
                assert!(p["stopped"].is_string(), "{puzzle}: an unknown figure without its reason: {a}");
            }
        }
    }
}
