//! The studio's Witness routes: a puzzle from a request (`{"puzzle": RON}`,
//! one puzzle as in a `.ron` file, with any of the five kinds of
//! constraint), and the answers of `witness analyze` (the uniform, local
//! and rule players) and `witness generate --base` (EPCG, square and edge
//! placeholders) for it, with the same fields as their `--json`; its
//! solutions one by one; a `.ron` file read into the page's form, and the
//! page's puzzle written as a `.ron` file.

use super::budget::Budget;
use super::players::Players;
use super::requests::{parse, within, Generate, Solutions, WitnessPuzzle};
use super::{Answer, ApiError};
use serde_json::{json, Value};
use std::time::Instant;
use stratsynth::domains::witness::board::oracle::Oracle;
use stratsynth::domains::witness::formats::puzzle::{parse_puzzles, puzzles_to_ron};
use stratsynth::domains::witness::make::epcg::Placeholders;
use stratsynth::domains::witness::make::rank::{fill_and_rank, Order};
use stratsynth::domains::witness::play::players::{evaluate_each, Figure, Limits, Who};
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::report::witness::solutions as solution_count;
use stratsynth::report::witness::{made_json, players_json, progress_line, stopped, DEFAULT_MAX_NODES};
use stratsynth::stop::Stop;

/// The puzzle of a request's `puzzle`: one puzzle in RON, alone or as a
/// list of one.
pub fn puzzle_of(text: &str) -> Result<Puzzle, ApiError> {
    let mut puzzles = puzzles_of(text, "puzzle")?;
    if puzzles.len() != 1 {
        return Err(ApiError::unfit(format!("`puzzle` holds {} puzzles; expected exactly one", puzzles.len())));
    }
    Ok(puzzles.remove(0))
}

/// The puzzles of a RON text (`file` names it in messages): a list, or
/// one puzzle alone (either after `//` comment lines).
fn puzzles_of(text: &str, file: &str) -> Result<Vec<Puzzle>, ApiError> {
    let first = text.lines().map(str::trim_start).find(|l| !l.is_empty() && !l.starts_with("//"));
    let list = if first.is_some_and(|l| l.starts_with('[')) { text.to_string() } else { format!("[{text}\n]") };
    parse_puzzles(&list, file).map_err(|e| ApiError::unfit(e.to_string()))
}

/// A puzzle as the page takes it: the fields of its RON form, each
/// position a list (`[x, y]`, `[column, row, n]`, an edge `[[x1, y1], [x2,
/// y2]]`), every list present, and `ron`, the puzzle in one line.
fn puzzle_json(p: &Puzzle) -> Value {
    let c = p.constraints();
    json!({
        "width": p.width(), "height": p.height(), "start": p.start(), "goal": p.goal(),
        "triangles": c.triangles, "colours": c.colours, "stars": c.stars,
        "dots": c.dots, "edge_dots": c.edge_dots, "broken": c.broken, "ron": p.to_ron(),
    })
}

/// `POST /api/witness/open`: the body is a `.ron` file (a list of puzzles,
/// or one); the answer `{"puzzles": [...]}`, each as [`puzzle_json`] says.
pub fn open(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let text =
        std::str::from_utf8(body).map_err(|e| ApiError::unfit(format!("the opened file is not UTF-8 text: {e}")))?;
    let puzzles = puzzles_of(text, "the opened file")?;
    if puzzles.is_empty() {
        return Err(ApiError::unfit("the opened file holds no puzzle"));
    }
    Ok(json!({"puzzles": puzzles.iter().map(puzzle_json).collect::<Vec<_>>()}))
}

/// `POST /api/witness/export`: the request's puzzle as a `.ron` file of
/// one puzzle (`{"ron": text}`), as `witness gen` writes puzzles.
pub fn export(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let puzzle = puzzle_of(&parse::<WitnessPuzzle>(body)?.puzzle)?;
    Ok(json!({"ron": puzzles_to_ron(&[puzzle])}))
}

/// The players of `witness analyze --rules FILE`: uniform, local, the rules.
fn analyze_players(players: &Players) -> Vec<Who<'_>> {
    vec![Who::Uniform, Who::Local, Who::Rules(&players.witness)]
}

/// The players' limits within a request's budget.
fn limits(budget: &Budget) -> Limits {
    Limits { max_nodes: DEFAULT_MAX_NODES, deadline: Some(budget.deadline), max_memory: budget.memory }
}

/// `POST /api/witness/analyze`: one element of `witness analyze --json
/// --rules FILE` with the studio's Witness rules: `solutions`, `stopped`
/// and per player `{player, msi, tsi, stopped}` (a player whose
/// enumeration the budget stopped is `unknown`, `"stopped": Stop::Timeout.name()`).
/// Each player has an equal share of the players' time left when it
/// starts (so one player's long enumeration leaves the others theirs),
/// the players' time being the budget but [`COUNT_SHARE`] of it; when the
/// local player has not counted the solutions, a search of their own
/// counts them with the time left: `solutions` then is its count if it
/// ended, else `unknown`, and `solutions_at_least` the solutions counted.
pub fn analyze(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let puzzle = puzzle_of(&parse::<WitnessPuzzle>(body)?.puzzle)?;
    let who = analyze_players(players);
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("studio: witness analyze: puzzle #", (i, 1), &puzzle, who, nodes, secs)
    };
    let left = budget.deadline.saturating_duration_since(Instant::now());
    let players_end = Instant::now() + left.mul_f64(1.0 - COUNT_SHARE);
    let mut limits_of = |i: usize| {
        let share = players_end.saturating_duration_since(Instant::now()) / (who.len() - i) as u32;
        Limits { deadline: Some(Instant::now() + share), ..limits(budget) }
    };
    let figures = evaluate_each(&puzzle, 0, &who, &mut limits_of, &tell);
    let mut answer = json!({"solutions": solution_count(&figures[1]), "stopped": stopped(&figures), "players": players_json(&who, &figures)});
    if answer["solutions"] == "unknown" {
        let count = Search::new(&puzzle, budget.deadline, 0, true).run();
        answer["solutions"] = json!(count.count);
        if !count.complete {
            answer["solutions"] = json!("unknown");
            answer["solutions_at_least"] = json!(count.count);
        }
    }
    if answer["stopped"] == Stop::Timeout.name() {
        answer["budget_ms"] = json!(budget.ms);
    }
    Ok(answer)
}

/// The least share of a `witness/analyze` request's time kept for the
/// count of its solutions when the local player does not end.
const COUNT_SHARE: f64 = 0.3;

/// `witness analyze` past the budget: everything unknown, each player
/// named with its time run out.
pub fn analyze_unknown(players: &Players, budget: &Budget) -> Value {
    let who = analyze_players(players);
    let figures = vec![Figure::Unknown(Stop::Timeout); who.len()];
    json!({"solutions": "unknown", "stopped": Stop::Timeout.name(), "players": players_json(&who, &figures), "budget_ms": budget.ms})
}

/// `POST /api/witness/solutions`: the first `max` (default 50) solutions in
/// depth-first order, each a list of vertices `[x, y]`; `complete` tells
/// whether they are all of them; stopped by the deadline (the search and
/// its completability checks read it), those found, `"stopped":
/// "timeout"` and `budget_ms`.
pub fn solutions(_: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body: Solutions = parse(body)?;
    let puzzle = puzzle_of(&body.puzzle)?;
    let max = within("max", body.max, 1..=1000, Some(50))? as usize;
    let found = Search::new(&puzzle, budget.deadline, max, false).run();
    if found.stopped || (!found.complete && found.paths.len() < max) {
        return Ok(json!({"paths": found.paths, "complete": false, "stopped": "timeout", "budget_ms": budget.ms}));
    }
    Ok(json!({"paths": found.paths, "complete": found.complete}))
}

/// What a [`Search`] found.
struct Found {
    /// The first solutions, each a list of vertices.
    paths: Vec<Vec<(usize, usize)>>,
    /// The solutions counted.
    count: u64,
    /// Whether they are all of them.
    complete: bool,
    /// Whether the deadline stopped it.
    stopped: bool,
}

/// A depth-first search for solutions that only enters completable paths,
/// keeping the first `keep` and stopped there, or, with `count_all`,
/// counting them all.
struct Search<'p> {
    puzzle: &'p Puzzle,
    oracle: Oracle<'p>,
    goal: usize,
    keep: usize,
    count_all: bool,
    deadline: Instant,
    found: Found,
}

impl<'p> Search<'p> {
    fn new(puzzle: &'p Puzzle, deadline: Instant, keep: usize, count_all: bool) -> Search<'p> {
        let oracle = Oracle::new(puzzle).with_deadline(Some(deadline));
        let goal = puzzle.grid().vertex_id(puzzle.goal());
        let found = Found { paths: vec![], count: 0, complete: false, stopped: false };
        Search { puzzle, oracle, goal, keep, count_all, deadline, found }
    }

    /// Searches from the start.
    fn run(mut self) -> Found {
        let mut path = Path::new(self.puzzle);
        self.found.complete = if self.oracle.completable(&path) { self.go(&mut path) } else { !self.oracle.stopped() };
        self.found.stopped |= self.oracle.stopped();
        self.found
    }

    /// Finds the solutions extending `path`; false if it stopped early
    /// (at `keep` solutions unless counting all, or the deadline).
    fn go(&mut self, path: &mut Path) -> bool {
        let next: Vec<usize> = path.successor_ids().collect();
        for u in next {
            if !self.count_all && self.found.paths.len() >= self.keep {
                return false;
            }
            if stratsynth::deadline::past(Some(self.deadline)) {
                self.found.stopped = true;
                return false;
            }
            path.push_id(u);
            let complete = if u == self.goal {
                if path.satisfies(self.puzzle) {
                    self.found.count += 1;
                    if self.found.paths.len() < self.keep {
                        self.found.paths.push(path.vertices().collect());
                    }
                }
                true
            } else {
                let completable = self.oracle.completable(path);
                !self.oracle.stopped() && (!completable || self.go(path))
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
/// --edge-at X1,Y1-X2,Y2... [--marks] --rules FILE --json` with the
/// studio's Witness rules (`at`: a list of `[column, row]`; `edge_at`: a
/// list of edges `[[x1, y1], [x2, y2]]`; `marks`: square placeholders also
/// take separation squares and stars; `order`: `tsi` or `gap`; `top`: how
/// many, default 20). When the budget ran out before every variant was
/// judged: `{"stopped": Stop::Timeout.name(), "budget_ms", "not_judged": N,
/// "variants": [...]}`, the variants judged.
pub fn generate(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body: Generate = parse(body)?;
    let base = puzzle_of(&body.puzzle)?;
    let squares = body.at.unwrap_or_default();
    let edges = body.edge_at.unwrap_or_default();
    let marks = body.marks.unwrap_or(false);
    let order = match body.order.as_deref().unwrap_or("tsi") {
        "tsi" => Order::Tsi,
        "gap" => Order::Gap,
        other => return Err(ApiError::bad(format!("`order`: expected tsi or gap, found {other:?}"))),
    };
    let top = within("top", body.top, 1..=65_536, Some(20))? as usize;
    let placeholders =
        Placeholders::with_kinds(base, squares, edges, marks).map_err(|e| ApiError::unfit(e.to_string()))?;
    let who = vec![Who::Local, Who::Rules(&players.witness)];
    let (base, variants_count) = (placeholders.base(), placeholders.max_rank());
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("studio: witness generate: variant ", (i, variants_count), base, who, nodes, secs)
    };
    let variants =
        fill_and_rank(&placeholders, &who, order, limits(budget), &tell).map_err(|e| ApiError::unfit(e.to_string()))?;
    let mut made = variants.made;
    made.truncate(top);
    let list = Value::Array(made.iter().map(|m| made_json(m, &who)).collect());
    if variants.not_judged == 0 {
        return Ok(list);
    }
    Ok(
        json!({"stopped": Stop::Timeout.name(), "budget_ms": budget.ms, "not_judged": variants.not_judged, "variants": list}),
    )
}
