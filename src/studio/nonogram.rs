//! The studio's nonogram routes: a puzzle from a request (a picture as
//! `{"width", "height", "goal"}`, or clues as `{"rows", "columns"}`), and
//! the answers of `analyze`, `explain`, `generate nonogram --from`
//! (repair) and `--size` (random) for it, with the same fields as those
//! commands' `--json`; the owners of the blocks of the cells known;
//! opening a picture or clue file and exporting a `.non`.

use super::budget::Budget;
use super::players::Players;
use super::requests::{parse, within, NonogramPuzzle, Owners, Random, Repair};
use super::{Answer, ApiError};
use serde_json::{json, Value};
use stratsynth::domains::nonogram::board::complete::Limits;
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::non::{format_non, metadata, parse_non, Puzzle};
use stratsynth::domains::nonogram::line::bitline::MAX_LINE;
use stratsynth::domains::nonogram::line::model::{Cell, Line};
use stratsynth::domains::nonogram::line::ownership::ownership;
use stratsynth::domains::nonogram::make::accept::range;
use stratsynth::domains::nonogram::make::accept::Wanted;
use stratsynth::domains::nonogram::make::judge::Player;
use stratsynth::domains::nonogram::make::picture::{picture_of_bytes, Picture};
use stratsynth::domains::nonogram::make::random::{Shape, Symmetry};
use stratsynth::domains::nonogram::make::repair::RepairBudget;
use stratsynth::domains::nonogram::make::run::random_puzzles;
use stratsynth::domains::nonogram::play::analysis::{analyse, count, MAX_CELLS};
use stratsynth::domains::nonogram::play::player::{play, Knowledge, PlayError};
use stratsynth::domains::Domain;
use stratsynth::report::nonogram::analyze::json_puzzle;
use stratsynth::report::nonogram::explain::{describe, step_json};
use stratsynth::report::nonogram::generate::{json_report, random_made, repair_report, NamedPlayer, Report};
use stratsynth::report::remedies::Remedies;
use stratsynth::stop::Stop;

/// The complete solver's node budget per request (as `analyze`'s default).
const MAX_NODES: u64 = 1_000_000;

/// The name a request's puzzle goes by in answers (`analyze --json`'s `file`).
const NAME: &str = "studio";

/// A picture's or puzzle's size, checked.
fn size(width: u64, height: u64) -> Result<(usize, usize), ApiError> {
    let (w, h) = (width as usize, height as usize);
    if w * h > MAX_CELLS {
        return Err(ApiError::unfit(format!("{w}x{h} = {} cells: at most {MAX_CELLS} are analysed", w * h)));
    }
    Ok((w, h))
}

/// The picture of a request `{"width", "height", "goal"}`: the goal row by
/// row, `1` filled and `0` empty (whitespace ignored, as in `.non`).
fn picture_of(
    width: Option<u64>,
    height: Option<u64>,
    goal: Option<&str>,
    title: Option<&str>,
) -> Result<Picture, ApiError> {
    let side = 1..=MAX_LINE as u64;
    let (width, height) = size(within("width", width, side.clone(), None)?, within("height", height, side, None)?)?;
    let goal = goal.ok_or_else(|| ApiError::bad("`goal` is missing"))?;
    let cells: Vec<bool> = goal
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            other => Err(ApiError::bad(format!("`goal`: expected `0` (empty) or `1` (filled), found {other:?}"))),
        })
        .collect::<Result<_, _>>()?;
    if cells.len() != width * height {
        return Err(ApiError::unfit(format!(
            "`goal` has {} cells; a {width}x{height} picture has {}",
            cells.len(),
            width * height
        )));
    }
    Ok(Picture { title: title.map(str::to_string), width, height, cells })
}

/// One line's clue from JSON: positive numbers whose blocks fit `length` cells.
fn clue(v: &[u64], which: &str, i: usize, length: usize) -> Result<Vec<u32>, ApiError> {
    let bad = |why: String| ApiError::unfit(format!("{which} {}: {why}", i + 1));
    let hints: Vec<u32> = v
        .iter()
        .map(|&n| Some(n).filter(|&n| n >= 1 && n <= length as u64).map(|n| n as u32))
        .collect::<Option<_>>()
        .ok_or_else(|| bad(format!("expected numbers from 1 to {length}, found {v:?}")))?;
    let need = hints.iter().map(|&h| h as usize).sum::<usize>() + hints.len().saturating_sub(1);
    if need > length {
        return Err(bad(format!("the blocks {v:?} need {need} cells; the line has {length}")));
    }
    Ok(hints)
}

/// The puzzle of a request: a picture, or `{"rows", "columns"}` (lists of
/// lists of numbers; `[]` is an empty line).
pub fn puzzle_of<'a>(body: &'a NonogramPuzzle) -> Result<Puzzle, ApiError> {
    if let Some(wrong) = body.contradiction() {
        return Err(wrong);
    }
    if let Some(goal) = &body.goal {
        let picture = picture_of(body.width, body.height, Some(goal), body.title.as_deref())?;
        return Ok(picture.puzzle(body.title.clone()));
    }
    let lines = |key: &str, lines: &'a Option<Vec<Vec<u64>>>| -> Result<&'a Vec<Vec<u64>>, ApiError> {
        match lines {
            Some(a) if !a.is_empty() && a.len() <= MAX_LINE => Ok(a),
            Some(a) => {
                Err(ApiError::unfit(format!("`{key}`: expected a list of 1 to {MAX_LINE} clues, found {}", a.len())))
            }
            None => Err(ApiError::bad(
                "expected a picture {\"width\", \"height\", \"goal\"} or clues {\"rows\", \"columns\"}",
            )),
        }
    };
    let (rows, columns) = (lines("rows", &body.rows)?, lines("columns", &body.columns)?);
    let (width, height) = size(columns.len() as u64, rows.len() as u64)?;
    let rows = rows.iter().enumerate().map(|(i, c)| clue(c, "row", i, width)).collect::<Result<_, _>>()?;
    let columns = columns.iter().enumerate().map(|(i, c)| clue(c, "column", i, height)).collect::<Result<_, _>>()?;
    Ok(Puzzle { title: None, width, height, rows, columns, goal: None })
}

/// The complete solver's limits for a request.
fn limits(budget: &Budget) -> Limits {
    let (max_nodes, deadline, max_memory) = (Some(MAX_NODES), Some(budget.deadline), budget.memory);
    Limits { max_nodes, deadline, max_memory, ..Limits::solutions(2) }
}

/// `POST /api/nonogram/analyze`: one element of `analyze --json` with the
/// studio's rule set, and `differ`: the cells (`row`, `column` from 1)
/// where the two solutions found differ.
pub fn analyze(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let puzzle = puzzle_of(&parse(body)?)?;
    let rules = Some((&players.nonogram, players.nonogram_rules.as_slice()));
    let a = analyse(&puzzle, rules, limits(budget)).map_err(|e| ApiError::unfit(e.to_string()))?;
    let mut value =
        serde_json::to_value(json_puzzle(NAME.into(), puzzle.width, puzzle.height, &a, Some(&players.nonogram_rules)))
            .map_err(|e| ApiError { status: 500, message: e.to_string() })?;
    let differ: Vec<Value> = match a.solutions.as_slice() {
        [x, y, ..] => (0..x.len())
            .filter(|&p| x[p] != y[p])
            .map(|p| json!({"row": p / puzzle.width + 1, "column": p % puzzle.width + 1}))
            .collect(),
        _ => vec![],
    };
    value["differ"] = json!(differ);
    value["rules_file"] = json!(players.nonogram_name);
    if a.too_long_for_rules {
        let (longest, most) = (puzzle.width.max(puzzle.height), players.nonogram.schema().file.limits.max_state);
        value["rules_refused"] = json!(format!(
            "the rules are not played on this board: its longest line has {longest} cells, and the rules are \
             proven sound (by Z3) on lines of at most {most} cells"
        ));
    }
    Ok(value)
}

/// `analyze` past the budget: the count unknown.
pub fn analyze_unknown(_: &Players, budget: &Budget) -> Value {
    json!({"file": NAME, "solutions": null, "stopped": Stop::Timeout.name(), "budget_ms": budget.ms})
}

/// `POST /api/nonogram/explain`: `explain --json`'s list of steps with the
/// studio's rule set, following the picture's goal (else the first
/// solution the complete solver finds).
pub fn explain(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let puzzle = puzzle_of(&parse(body)?)?;
    let solution = match &puzzle.goal {
        Some(goal) => goal.clone(),
        None => {
            let (out, _) = count(&puzzle, limits(budget)).map_err(|e| ApiError::unfit(e.to_string()))?;
            match (out.solutions.into_iter().next(), out.stopped) {
                (Some(s), _) => s,
                (None, Some(_)) => return Ok(super::budget::stopped(players, budget)),
                (None, None) => return Err(ApiError::unfit("the clues contradict each other: no solution")),
            }
        }
    };
    let clues = Clues::from_puzzle(&puzzle);
    let (domain, rules) = (&players.nonogram, players.nonogram_rules.as_slice());
    let played = match play(&clues, Knowledge::Rules { domain, rules }, &solution, Some(budget.deadline)) {
        Ok(played) => played,
        Err(PlayError::OutOfTime) => return Ok(super::budget::stopped(players, budget)),
        Err(e) => return Err(ApiError::unfit(e.to_string())),
    };
    let steps: Vec<Value> = played
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| step_json(s, &describe(i, s, &clues, domain, rules), &clues, domain, rules))
        .collect();
    Ok(Value::Array(steps))
}

/// The player named in a request: `rules` (the studio's rule set, the
/// default), `line` or `probe`; and its name in reports.
fn player<'a>(players: &'a Players, asked: Option<&str>) -> Result<(Player<'a>, String), ApiError> {
    match asked.unwrap_or("rules") {
        "rules" => Ok((
            Player::Rules { domain: &players.nonogram, rules: &players.nonogram_rules },
            players.nonogram_name.clone(),
        )),
        "line" => Ok((Player::Line, "line".into())),
        "probe" => Ok((Player::Probe, "probe".into())),
        other => Err(ApiError::bad(format!("`player`: expected rules, line or probe, found {other:?}"))),
    }
}

/// A report as `generate nonogram --json` (no files written).
fn report_json(report: &Report) -> Value {
    json_report(report, &vec![None; report.made.len()])
}

/// What the repair's summary says when it ran out: the page sets no
/// budget, number of changes or pictures judged, the command line does.
const REPAIR_REMEDIES: Remedies = Remedies {
    time: "the studio's budget ran out; `stratsynth generate nonogram --from PICTURE --timeout N` searches longer",
    changes: "`stratsynth generate nonogram --from PICTURE --max-changes N` tries more",
    judged: "`stratsynth generate nonogram --from PICTURE --max-evaluations N` judges more",
};

/// `POST /api/nonogram/repair`: `generate nonogram --from PICTURE --json`
/// for the request's picture (`player`, `count`, `max_changes`,
/// `max_evaluations` and `bits`, `A..B`, as that command's options: with
/// `bits` past 0, a repair for uniqueness alone).
pub fn repair(players: &Players, body: &[u8], limit: &Budget) -> Answer {
    let body: Repair = parse(body)?;
    let picture = picture_of(body.width, body.height, body.goal.as_deref(), body.title.as_deref())?;
    let (player, name) = player(players, body.player.as_deref())?;
    let count = within("count", body.count, 1..=20, Some(3))? as usize;
    let bits = range("bits", body.bits.as_deref().unwrap_or("0..0")).map_err(ApiError::bad)?;
    let most = RepairBudget::max_changes_for(&bits) as u64;
    let budget = RepairBudget {
        max_changes: within("max_changes", body.max_changes, 1..=32, Some(most))? as usize,
        evaluations: within("max_evaluations", body.max_evaluations, 1..=200_000, Some(20_000))? as usize,
        deadline: Some(limit.deadline),
        ..RepairBudget::default()
    };
    let wanted = Wanted { player, steps: None, bits, stuck: None, max_nodes: 100_000, deadline: None };
    let names = rule_names(players, &player);
    let report = repair_report(
        &picture,
        "picture",
        NamedPlayer { name: &name, rule_names: names },
        &wanted,
        budget,
        count,
        REPAIR_REMEDIES,
    )
    .map_err(ApiError::unfit)?;
    Ok(report_json(&report))
}

/// The rule names of a rule player (none for the others).
fn rule_names(players: &Players, player: &Player) -> Vec<String> {
    match player {
        Player::Rules { .. } => players.nonogram_rules.iter().map(|r| r.name.clone()).collect(),
        _ => vec![],
    }
}

/// `POST /api/nonogram/random`: `generate nonogram --size WxH --count 1
/// --json` (`width`, `height`, `player`, `steps` and `bits` as `A..B`,
/// `density`, `seed`, `max_candidates`).
pub fn random(players: &Players, body: &[u8], limit: &Budget) -> Answer {
    let body: Random = parse(body)?;
    let side = 1..=MAX_LINE as u64;
    let (width, height) =
        size(within("width", Some(body.width), side.clone(), None)?, within("height", Some(body.height), side, None)?)?;
    let (player, name) = player(players, body.player.as_deref())?;
    let bits = range("bits", body.bits.as_deref().unwrap_or("0..0")).map_err(ApiError::bad)?;
    let steps = body
        .steps
        .as_deref()
        .map(|s| range::<u32>("steps", s).map(|r| *r.start() as usize..=*r.end() as usize))
        .transpose()
        .map_err(ApiError::bad)?;
    let density = match body.density {
        None => 0.5,
        Some(d) => Some(d).filter(|d| *d > 0.0 && *d < 1.0).ok_or_else(|| {
            ApiError::bad(format!("`density`: expected a chance strictly between 0 and 1, found {d}"))
        })?,
    };
    let seed = body.seed.unwrap_or(0);
    let max_candidates = within("max_candidates", body.max_candidates, 1..=1_000_000, Some(5_000))?;
    let wanted = Wanted { player, steps, bits, stuck: None, max_nodes: 100_000, deadline: None };
    let shape = Shape { width, height, density, symmetry: Symmetry::None };
    let (kept, judged) = random_puzzles(&shape, seed, 1, max_candidates, &wanted, Some(limit.deadline), |_, _| true)
        .map_err(|e| ApiError::unfit(e.to_string()))?;
    let mut made = random_made(kept, seed);
    for m in &mut made {
        m.name = "random-1".into();
    }
    let summary = format!(
        "{} random {width}x{height} puzzle (density {density}, seed {seed}) for the player {name}: {} of {judged} candidates kept",
        made.len(),
        made.len()
    );
    let names = rule_names(players, &player);
    Ok(report_json(&Report { summary, made, rule_names: names, original: None }))
}

/// A picture's cells as a request's `goal`.
fn goal_text(cells: &[bool]) -> String {
    cells.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

/// `POST /api/nonogram/open`: the body is a picture file (PNG, plain PBM
/// or `.non` with a goal); the answer is the picture as a request takes it
/// (with the file's `by`, if any, as `author`). A `.non` with clues and no goal
/// is answered with its clues (`rows`, `columns`), its count of solutions
/// as `analyze` gives it (`solutions`: 0, 1, 2 for two or more, or null
/// with `stopped`) and, if it has one, a solution as `goal` (the only
/// one when `solutions` is 1).
pub fn open(_: &Players, body: &[u8], budget: &Budget) -> Answer {
    let text = std::str::from_utf8(body).ok();
    let author = text.and_then(|t| metadata(t, "by"));
    if let Some(puzzle) = text.and_then(|t| parse_non(t, "the opened file").ok()).filter(|p| p.goal.is_none()) {
        let (out, _) = count(&puzzle, limits(budget)).map_err(|e| ApiError::unfit(e.to_string()))?;
        let solutions = out.stopped.is_none().then_some(out.solutions.len());
        let mut answer = json!({"title": puzzle.title, "width": puzzle.width, "height": puzzle.height,
            "rows": puzzle.rows, "columns": puzzle.columns, "solutions": solutions,
            "stopped": out.stopped.map(|s| s.name())});
        if let Some(first) = out.solutions.first() {
            answer["goal"] = json!(goal_text(first));
        }
        return Ok(with_author(answer, author));
    }
    let picture = picture_of_bytes(body, "the opened file").map_err(|e| ApiError::unfit(e.to_string()))?;
    let goal = goal_text(&picture.cells);
    let answer = json!({"title": picture.title, "width": picture.width, "height": picture.height, "goal": goal});
    Ok(with_author(answer, author))
}

/// An open answer with the file's `by` as `author`, if it has one (so a
/// picture without it is the request the other routes take as it is).
fn with_author(mut answer: Value, author: Option<&str>) -> Value {
    if let Some(author) = author {
        answer["author"] = json!(author);
    }
    answer
}

/// `POST /api/nonogram/export`: the request's puzzle as a `.non` file
/// (`{"non": text}`), with its goal when it is a picture and its
/// `author` as `by` (else `by "stratsynth studio"`).
pub fn export(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let body: NonogramPuzzle = parse(body)?;
    let puzzle = puzzle_of(&body)?;
    let by = body.author.as_deref().unwrap_or("stratsynth studio");
    Ok(json!({"non": format_non(&puzzle, &[("by", by)])}))
}

/// `POST /api/nonogram/owners`: for the cells `known` of a puzzle (row by
/// row: `#` filled, `x` crossed out, `.` unknown), every line's blocks
/// (`start` and `size`, cells from 0 along the line) with `first_owner`
/// and `last_owner`: the least and greatest index (from 0) of a hint whose
/// run contains the block in some solution of the line alone, as the rule
/// language defines them (the hint is certain when they are equal). A
/// line no solution extends is `"solvable": false`, without blocks.
pub fn owners(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let body: Owners = parse(body)?;
    let puzzle = puzzle_of(&body.puzzle)?;
    let (w, h) = (puzzle.width, puzzle.height);
    let known: Vec<Cell> = body
        .known
        .chars()
        .map(|c| {
            Cell::from_char(c).ok_or_else(|| {
                ApiError::bad(format!(
                    "`known`: expected `#` (filled), `x` (crossed out) or `.` (unknown), found {c:?}"
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if known.len() != w * h {
        return Err(ApiError::unfit(format!("`known` has {} cells; a {w}x{h} puzzle has {}", known.len(), w * h)));
    }
    let mut lines = vec![];
    for (axis, clues, along) in [("row", &puzzle.rows, w), ("column", &puzzle.columns, h)] {
        for (i, hints) in clues.iter().enumerate() {
            let cells = (0..along).map(|j| if axis == "row" { known[i * w + j] } else { known[j * w + i] }).collect();
            let line = Line::new(hints.clone(), cells);
            let mut answer = json!({"axis": axis, "index": i + 1, "solvable": false});
            if let Some(owned) = ownership(&line) {
                let blocks: Vec<Value> = line
                    .blocks()
                    .iter()
                    .zip(&owned.blocks)
                    .map(|(&(start, size), o)| {
                        json!({"start": start, "size": size, "first_owner": o.first, "last_owner": o.last})
                    })
                    .collect();
                answer = json!({"axis": axis, "index": i + 1, "solvable": true, "blocks": blocks});
            }
            lines.push(answer);
        }
    }
    Ok(json!({"lines": lines}))
}
