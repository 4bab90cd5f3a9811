//! The studio's Witness routes: a puzzle from a request (`{"puzzle": RON}`,
//! one puzzle as in a `.ron` file), and the answers of `witness analyze`
//! (the uniform, local and rule players) and `witness generate --base`
//! (EPCG) for it, with the same fields as their `--json`; and its
//! solutions one by one.

use super::budget::Budget;
use super::players::Players;
use super::{json_body, kind, string, uint, Answer, ApiError};
use crate::commands::witness_generate::made_json;
use crate::commands::witness_info::{players_json, progress_line, solutions as solution_count, DEFAULT_MAX_NODES};
use serde_json::{json, Map, Value};
use std::time::Instant;
use stratsynth::domains::witness::make::epcg::Placeholders;
use stratsynth::domains::witness::make::rank::{fill_and_rank, Order};
use stratsynth::domains::witness::model::oracle::Oracle;
use stratsynth::domains::witness::model::puzzle::parse_puzzles;
use stratsynth::domains::witness::play::players::{evaluate, Who};
use stratsynth::domains::witness::{Path, Puzzle};

/// The puzzle of a request's `puzzle`: one puzzle in RON, alone or as a
/// list of one.
pub fn puzzle_of(body: &Map<String, Value>) -> Result<Puzzle, ApiError> {
    let text = string(body, "puzzle", None)?;
    let list = if text.trim_start().starts_with('[') { text.to_string() } else { format!("[{text}]") };
    let mut puzzles = parse_puzzles(&list, "puzzle").map_err(|e| ApiError::unfit(e.to_string()))?;
    if puzzles.len() != 1 {
        return Err(ApiError::unfit(format!("`puzzle` holds {} puzzles; expected exactly one", puzzles.len())));
    }
    Ok(puzzles.remove(0))
}

/// The players of `witness analyze --rules FILE`: uniform, local, the rules.
fn analyze_players(players: &Players) -> Vec<Who<'_>> {
    vec![Who::Uniform, Who::Local, Who::Rules(&players.witness)]
}

/// `POST /api/witness/analyze`: one element of `witness analyze --json
/// --rules FILE` with the studio's Witness rules: `solutions` and per
/// player `{player, msi, tsi}`.
pub fn analyze(players: &Players, body: &[u8], _: &Budget) -> Answer {
    let puzzle = puzzle_of(&json_body(body, &["puzzle"])?)?;
    let who = analyze_players(players);
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("studio: witness analyze: puzzle #", i, &puzzle, who, nodes, secs)
    };
    let figures = evaluate(&puzzle, 0, &who, DEFAULT_MAX_NODES, &tell);
    Ok(json!({"solutions": solution_count(&figures[1]), "players": players_json(&who, &figures)}))
}

/// `witness analyze` past the budget: everything unknown.
pub fn analyze_unknown(budget: &Budget) -> Value {
    json!({"solutions": "unknown", "stopped": "timeout", "budget_ms": budget.ms})
}

/// `POST /api/witness/solutions`: the first `max` (default 50) solutions in
/// depth-first order, each a list of vertices `[x, y]`; `complete` tells
/// whether they are all of them.
pub fn solutions(_: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body = json_body(body, &["puzzle", "max"])?;
    let puzzle = puzzle_of(&body)?;
    let max = uint(&body, "max", 1..=1000, Some(50))? as usize;
    let mut found = vec![];
    let mut oracle = Oracle::new(&puzzle);
    let goal = puzzle.grid().vertex_id(puzzle.goal());
    let mut path = Path::new(&puzzle);
    let complete = if oracle.completable(&path) {
        Search { puzzle: &puzzle, oracle: &mut oracle, goal, max, deadline: budget.deadline }.go(&mut path, &mut found)
    } else {
        true
    };
    Ok(json!({"paths": found, "complete": complete}))
}

/// A depth-first search for solutions that only enters completable paths.
struct Search<'a, 'p> {
    puzzle: &'p Puzzle,
    oracle: &'a mut Oracle<'p>,
    goal: usize,
    max: usize,
    deadline: Instant,
}

impl Search<'_, '_> {
    /// Adds the solutions extending `path` to `found`; false if it stopped
    /// early (at `max` solutions or the deadline).
    fn go(&mut self, path: &mut Path, found: &mut Vec<Vec<(usize, usize)>>) -> bool {
        let next: Vec<usize> = path.successor_ids().collect();
        for u in next {
            if found.len() >= self.max || Instant::now() > self.deadline {
                return false;
            }
            path.push_id(u);
            let complete = if u == self.goal {
                if path.satisfies(self.puzzle) {
                    found.push(path.vertices().collect());
                }
                true
            } else {
                !self.oracle.completable(path) || self.go(path, found)
            };
            path.pop();
            if !complete {
                return false;
            }
        }
        true
    }
}

/// `POST /api/witness/generate`: `witness generate --base PUZZLE --at C,R...
/// --rules FILE --json` with the studio's Witness rules (`at`: a list of
/// `[column, row]`; `order`: `tsi` or `gap`; `top`: how many, default 20).
pub fn generate(players: &Players, body: &[u8], _: &Budget) -> Answer {
    let body = json_body(body, &["puzzle", "at", "order", "top"])?;
    let base = puzzle_of(&body)?;
    let at = match body.get("at") {
        Some(Value::Array(a)) => a,
        Some(v) => return Err(ApiError::bad(format!("`at`: expected a list of [column, row], found {}", kind(v)))),
        None => return Err(ApiError::bad("`at` is missing: the placeholder squares, a list of [column, row]")),
    };
    let squares = at
        .iter()
        .map(|v| match v.as_array().map(|a| a.iter().map(Value::as_u64).collect::<Vec<_>>()).as_deref() {
            Some([Some(c), Some(r)]) => Ok((*c as usize, *r as usize)),
            _ => Err(ApiError::bad(format!("`at`: expected [column, row], found {v}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let order = match string(&body, "order", Some("tsi"))? {
        "tsi" => Order::Tsi,
        "gap" => Order::Gap,
        other => return Err(ApiError::bad(format!("`order`: expected tsi or gap, found {other:?}"))),
    };
    let top = uint(&body, "top", 1..=65_536, Some(20))? as usize;
    let placeholders = Placeholders::new(base, squares).map_err(|e| ApiError::unfit(e.to_string()))?;
    let who = vec![Who::Local, Who::Rules(&players.witness)];
    let base = placeholders.base();
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("studio: witness generate: variant ", i, base, who, nodes, secs)
    };
    let mut made = fill_and_rank(&placeholders, &who, order, DEFAULT_MAX_NODES, &tell)
        .map_err(|e| ApiError::unfit(e.to_string()))?
        .made;
    made.truncate(top);
    Ok(Value::Array(made.iter().map(|m| made_json(m, &who)).collect()))
}
