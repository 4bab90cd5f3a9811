//! The studio's Flow routes: a puzzle from a request (`{"puzzle": TEXT}`,
//! TEXT in any of the three Flow layouts, recognised by its content), and
//! the answers of `analyze --json` (with the learned set as the rules,
//! and both players' verdicts: the learned and the control set), `explain
//! --json`, `generate flow --json` and `generate flow --from --json` (a
//! repair) for it, with the same fields as those commands; a Flow file read into the page's rows, and the page's
//! puzzle written in the three layouts.

use super::budget::{stopped, Budget};
use super::players::{FlowRules, Players};
use super::requests::{parse, within, FlowExplain, FlowGenerate, FlowPuzzle, FlowRepair};
use super::{Answer, ApiError};
use serde_json::{json, Value};
use stratsynth::domains::flow::formats::read::parse_flow;
use stratsynth::domains::flow::formats::write::{counted_text, grid_text, sized_text};
use stratsynth::domains::flow::make::repair::{repair as repair_search, Budget as RepairBudget, Tally};
use stratsynth::domains::flow::make::run::{covers, random_puzzles, Bounds, Shape, Wanted};
use stratsynth::domains::flow::model::grid::MAX_SIDE;
use stratsynth::domains::flow::model::puzzle::{Puzzle, NAMES};
use stratsynth::domains::flow::model::state::Solution;
use stratsynth::domains::flow::play::playthrough::{play_until, Knowledge, PlayError, Playthrough};
use stratsynth::domains::flow::rules::player::Player as FlowPlayer;
use stratsynth::domains::flow::solve::{solve, Limits, Options};
use stratsynth::report::flow::explain::{describe, explain_json, Explained};
use stratsynth::report::flow::generate::Report;
use stratsynth::report::flow::repair::Report as RepairReport;
use stratsynth::report::flow::{json_puzzle, Played};
use stratsynth::report::remedies::Remedies;
use stratsynth::stop::Stop;

/// The complete solver's node budget per request (as `analyze`'s default).
const MAX_NODES: u64 = 1_000_000;

/// The complete solver's node budget per uniqueness check of a generated
/// candidate (as `generate flow`'s default).
const GENERATE_MAX_NODES: u64 = 100_000;

/// Candidates tried for a cover before a generate's colours are refused
/// (as `generate flow`).
const COVER_TRIES: u64 = 64;

/// The name a request's puzzle goes by in answers (`analyze --json`'s `file`).
const NAME: &str = "studio";

/// The one puzzle of a Flow text (`what` names it in messages).
fn one_puzzle(text: &str, what: &str) -> Result<Puzzle, ApiError> {
    let mut puzzles = parse_flow(text, what).map_err(|e| ApiError::unfit(e.to_string()))?;
    if puzzles.len() != 1 {
        return Err(ApiError::unfit(format!("{what} holds {} puzzles; expected exactly one", puzzles.len())));
    }
    Ok(puzzles.remove(0).1)
}

/// The puzzle of a request's body `{"puzzle": TEXT}`.
pub fn puzzle_of(body: &[u8]) -> Result<Puzzle, ApiError> {
    one_puzzle(&parse::<FlowPuzzle>(body)?.puzzle, "`puzzle`")
}

/// The complete solver's limits for a request: two solutions, within the
/// node budget and the request's deadline.
fn limits(budget: &Budget) -> Limits {
    Limits { max_nodes: Some(MAX_NODES), deadline: Some(budget.deadline), ..Limits::solutions(2) }
}

/// A set's solve of `p` toward `solution` within the budget: `None` if the
/// deadline stopped it; an unsound rule is the server's error.
fn played(set: &FlowRules, p: &Puzzle, solution: &Solution, budget: &Budget) -> Result<Option<Playthrough>, ApiError> {
    let player = set.player();
    let knowledge = Knowledge::Rules { player: &player, rules: &set.rules };
    match play_until(p, &knowledge, solution, None, Some(budget.deadline)) {
        Ok(play) => Ok(Some(play)),
        Err(PlayError::OutOfTime) => Ok(None),
        Err(e) => Err(ApiError { status: 500, message: format!("{}: {e}", set.name) }),
    }
}

/// One player's verdict: `player`, `rules_file`, `rules_solvable`,
/// `steps`, `oracle_steps`, `difficulty` (bits, to 0.01), and `stopped`
/// when the budget ran out before its solve ended (`play` is `None`, the
/// figures null).
fn verdict(player: &str, set: &FlowRules, play: Option<&Playthrough>, stopped: bool) -> Value {
    let mut v = json!({
        "player": player,
        "rules_file": set.name,
        "rules_solvable": play.map(Playthrough::solved_alone),
        "steps": play.map(|d| d.steps.len()),
        "oracle_steps": play.map(Playthrough::oracle_steps),
        "difficulty": play.map(|d| (d.bits * 100.0).round() / 100.0),
    });
    if stopped {
        v["stopped"] = json!(Stop::Timeout.name());
    }
    v
}

/// `POST /api/flow/analyze`: one element of `analyze --rules
/// rules/flow/learned.rules --json` (the studio's learned Flow set):
/// `solutions` (0, 1, 2 for two or more; null with `stopped`), the
/// `solution` found, `differ` (the links in exactly one of two solutions
/// found), the learned set's `rules_solvable`, `steps`, `oracle_steps`,
/// `difficulty` and `rules_fired`; with `rules_file`, and `players`: the
/// learned (`rules`) and the control set's verdicts ([`verdict`]). A
/// solve the budget stopped leaves its figures null and says
/// `difficulty_stopped`.
pub fn analyze(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let p = puzzle_of(body)?;
    let out = solve(&p, Options::default(), limits(budget));
    let (learned, control) = match out.solutions.first() {
        Some(s) => (played(&players.flow, &p, s, budget)?, played(&players.flow_control, &p, s, budget)?),
        None => (None, None),
    };
    let shown = learned.as_ref().map(|play| Played { play, rules: Some(players.flow.rules.as_slice()) });
    let mut value = serde_json::to_value(json_puzzle(NAME, &p, &out, false, shown.as_ref()))
        .map_err(|e| ApiError { status: 500, message: e.to_string() })?;
    let solved = !out.solutions.is_empty();
    let (learned_stopped, control_stopped) = (solved && learned.is_none(), solved && control.is_none());
    value["rules_file"] = json!(players.flow.name);
    value["players"] = json!([
        verdict("rules", &players.flow, learned.as_ref(), learned_stopped),
        verdict("control", &players.flow_control, control.as_ref(), control_stopped),
    ]);
    if learned_stopped || control_stopped {
        value["difficulty_stopped"] = json!(Stop::Timeout.name());
    }
    if out.stopped.is_some() || learned_stopped || control_stopped {
        value["budget_ms"] = json!(budget.ms);
    }
    Ok(value)
}

/// `analyze` past the budget: the count unknown.
pub fn analyze_unknown(_: &Players, budget: &Budget) -> Value {
    json!({"file": NAME, "solutions": null, "stopped": Stop::Timeout.name(), "budget_ms": budget.ms})
}

/// The rule set a request names: `rules` (the learned set, the default)
/// or `control`.
fn rule_set<'a>(players: &'a Players, asked: Option<&str>) -> Result<&'a FlowRules, ApiError> {
    match asked.unwrap_or("rules") {
        "rules" => Ok(&players.flow),
        "control" => Ok(&players.flow_control),
        other => Err(ApiError::bad(format!("`player`: expected rules or control, found {other:?}"))),
    }
}

/// `POST /api/flow/explain`: `explain --json` with the studio's learned
/// set (`"player": "control"`: the control set): the solve toward the
/// first solution found, each step its `rule` (null for the complete
/// solver's), `how` (`rule`, `probe`, `guess`), `link` and `cut` as
/// `[[x, y], [x, y]]` pairs; `solutions` null when the budget stopped the
/// count after one solution; and `headings`, each step in words as
/// `explain` prints it (the complete solver's steps named as such).
pub fn explain(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body: FlowExplain = parse(body)?;
    let p = one_puzzle(&body.puzzle, "`puzzle`")?;
    let set = rule_set(players, body.player.as_deref())?;
    let out = solve(&p, Options::default(), limits(budget));
    let Some(solution) = out.solutions.first() else {
        return match out.stopped {
            Some(_) => Ok(stopped(players, budget)),
            None => Err(ApiError::unfit("the puzzle has no solution (no path joins every pair with every cell used)")),
        };
    };
    let Some(play) = played(set, &p, solution, budget)? else { return Ok(stopped(players, budget)) };
    let e = Explained {
        file: NAME,
        puzzle: &p,
        rules_file: &set.name,
        rules: &set.rules,
        solutions: out.solutions.len(),
        solution,
        play: &play,
    };
    let mut value = explain_json(&e);
    if out.stopped.is_some() {
        value["solutions"] = Value::Null;
    }
    let headings: Vec<Value> = play
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (heading, notes) = describe(i, s, &p, &set.rules);
            json!({"heading": heading, "notes": notes})
        })
        .collect();
    value["headings"] = json!(headings);
    Ok(value)
}

/// `POST /api/flow/generate`: `generate flow --size WxH --count 1 --json`
/// (`colours`, default one per 10 cells; `player`: `rules`, the default,
/// `control` or `search`; `max_bits`, default 0 for rule players and any
/// for search; `seed`, default 0; `max_candidates`, default 100000),
/// within the budget: `{"summary", "puzzles"}` as that command's, or past
/// the budget with none kept, `{"stopped", "budget_ms", "judged"}`.
pub fn generate(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body: FlowGenerate = parse(body)?;
    let side = 1..=MAX_SIDE as u64;
    let width = within("width", Some(body.width), side.clone(), None)? as usize;
    let height = within("height", Some(body.height), side, None)? as usize;
    if width * height < 2 {
        return Err(ApiError::unfit("a board of one cell has no room for a path"));
    }
    let default_colours = ((width * height + 5) / 10).max(1) as u64;
    let most = (width * height / 2).min(NAMES.len()) as u64;
    let colours = within("colours", body.colours, 1..=most, Some(default_colours.min(most)))? as usize;
    let (set, max_bits) = maker(players, body.player.as_deref(), body.max_bits)?;
    let seed = body.seed.unwrap_or(0);
    let max_candidates = within("max_candidates", body.max_candidates, 1..=1_000_000, Some(100_000))?;
    let shape = Shape { width, height, colours };
    if !covers(&shape, seed, COVER_TRIES) {
        return Err(ApiError::unfit(format!(
            "{colours} colours: none of {COVER_TRIES} tries covered the {width}x{height} board by that many paths \
             that never run beside themselves; give another number of colours"
        )));
    }
    let player = set.map(FlowRules::player);
    let settled = set.is_some() && max_bits == Some(0.0);
    let wanted = Wanted { settled, ..wanted(set, player.as_ref(), max_bits) };
    let bounds = Bounds { count: 1, max_candidates, deadline: Some(budget.deadline) };
    let (made, judged) =
        random_puzzles(&shape, seed, &wanted, bounds, |_, _| {}).map_err(|e| ApiError::unfit(e.to_string()))?;
    if made.is_empty() {
        if stratsynth::deadline::past(Some(budget.deadline)) {
            return Ok(json!({"stopped": Stop::Timeout.name(), "budget_ms": budget.ms, "judged": judged}));
        }
        return Err(ApiError::unfit(format!(
            "none of {judged} candidates is unique and solved by the player within the bits: \
             give more candidates, more bits, fewer colours or another player"
        )));
    }
    let name =
        set.map_or("search".to_string(), |s| format!("{} ({})", body.player.as_deref().unwrap_or("rules"), s.name));
    let summary = vec![format!(
        "1 random {width}x{height} puzzle with {colours} colours (seed {seed}) for the player {name}: \
         candidate {} of {judged} judged",
        made[0].index
    )];
    let report = Report { summary, made, rule_names: rule_names(set), player: name, seed };
    report.json(&[None]).map_err(|e| ApiError::unfit(e.to_string()))
}

/// The maker's player a request names (`rules`, the default, `control`;
/// `None` for `search`) and its bits allowed (default 0 for a rule
/// player, any for search), as `generate flow`'s options.
fn maker<'a>(
    players: &'a Players,
    asked: Option<&str>,
    max_bits: Option<f64>,
) -> Result<(Option<&'a FlowRules>, Option<f64>), ApiError> {
    let set = match asked {
        Some("search") => None,
        asked => Some(rule_set(players, asked).map_err(|_| {
            ApiError::bad(format!("`player`: expected rules, control or search, found {:?}", asked.unwrap_or("")))
        })?),
    };
    let max_bits = match max_bits {
        Some(b) if b.is_nan() || b < 0.0 => {
            return Err(ApiError::bad(format!("`max_bits`: expected a number of bits, 0 or more, found {b}")))
        }
        Some(b) => Some(b),
        None => set.map(|_| 0.0),
    };
    Ok((set, max_bits))
}

/// What the maker's player must do: solve within `max_bits`, the puzzle
/// unique within the generator's node budget.
fn wanted<'a>(set: Option<&'a FlowRules>, player: Option<&'a FlowPlayer<'a>>, max_bits: Option<f64>) -> Wanted<'a> {
    let knowledge = match (player, set) {
        (Some(player), Some(set)) => Knowledge::Rules { player, rules: &set.rules },
        _ => Knowledge::Propagation,
    };
    Wanted { knowledge, max_bits, without: None, max_nodes: GENERATE_MAX_NODES, settled: false }
}

/// The maker's player as `generate flow` names it: `rules (FILE)`,
/// `control (FILE)` or `search`.
fn player_name(set: Option<&FlowRules>, asked: Option<&str>) -> String {
    set.map_or("search".to_string(), |s| format!("{} ({})", asked.unwrap_or("rules"), s.name))
}

/// The rules' names of the maker's player (none for search).
fn rule_names(set: Option<&FlowRules>) -> Vec<String> {
    set.iter().flat_map(|s| s.rules.iter().map(|r| r.name.clone())).collect()
}

/// What the repair's summary says when it ran out: the page sets no budget
/// and no number of changes, the command line does.
const REPAIR_REMEDIES: Remedies = Remedies {
    time: "the studio's budget ran out; `stratsynth generate flow --from FILE --timeout N` searches longer",
    changes: "`stratsynth generate flow --from FILE --max-changes N` tries more",
    judged: "`stratsynth generate flow --from FILE` judges without a limit of puzzles",
};

/// `POST /api/flow/repair`: `generate flow --from FILE --json` for the
/// request's puzzle (`player` and `max_bits` as for generate, `max_changes`
/// 1 to 8, default 3), the search stopped by the request's deadline:
/// `summary`, `solutions` (the drawn puzzle's), `judged`, `changes_tried`,
/// `stopped` and `puzzles`: the repaired one, if found, with its
/// `changed` endpoints, `grid` and `solution`.
pub fn repair(players: &Players, body: &[u8], budget: &Budget) -> Answer {
    let body: FlowRepair = parse(body)?;
    let drawn = one_puzzle(&body.puzzle, "`puzzle`")?;
    let (set, max_bits) = maker(players, body.player.as_deref(), body.max_bits)?;
    let max_changes = within("max_changes", body.max_changes, 1..=8, Some(3))? as usize;
    let player = set.map(FlowRules::player);
    let wanted = wanted(set, player.as_ref(), max_bits);
    let started = std::time::Instant::now();
    let limits = RepairBudget { max_changes, deadline: Some(budget.deadline) };
    let found = repair_search(&drawn, &wanted, limits, &Tally::default())
        .map_err(|e| ApiError { status: 500, message: e.to_string() })?;
    let report = RepairReport {
        shown: NAME.into(),
        drawn,
        found,
        player: player_name(set, body.player.as_deref()),
        rule_names: rule_names(set),
        max_bits,
        max_changes,
        timeout: budget.ms as f64 / 1000.0,
        seconds: started.elapsed().as_secs_f64(),
        remedies: REPAIR_REMEDIES,
    };
    report.json(None).map_err(|e| ApiError::unfit(e.to_string()))
}

/// A puzzle as the page takes it: `title`, `width`, `height`, `colours`
/// and `rows`, the grid row by row (`.` an empty cell, an endpoint its
/// colour's character).
fn puzzle_json(p: &Puzzle) -> Result<Value, ApiError> {
    let mut bare = p.clone();
    (bare.title, bare.metadata) = (None, vec![]);
    let grid = grid_text(&bare).map_err(|e| ApiError::unfit(e.to_string()))?;
    Ok(json!({"title": p.title, "width": p.width(), "height": p.height(), "colours": p.colours(),
        "rows": grid.lines().collect::<Vec<_>>()}))
}

/// `POST /api/flow/open`: the body is a Flow file in any of the three
/// layouts (a sized file may hold several puzzles); the answer
/// `{"puzzles": [...]}`, each as [`puzzle_json`] says.
pub fn open(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let text =
        std::str::from_utf8(body).map_err(|e| ApiError::unfit(format!("the opened file is not UTF-8 text: {e}")))?;
    let puzzles = parse_flow(text, "the opened file").map_err(|e| ApiError::unfit(e.to_string()))?;
    let shown: Result<Vec<Value>, ApiError> = puzzles.iter().map(|(_, p)| puzzle_json(p)).collect();
    Ok(json!({"puzzles": shown?}))
}

/// `POST /api/flow/export`: the request's puzzle in the three layouts
/// (`{"grid", "counted", "sized"}`), with its metadata.
pub fn export(_: &Players, body: &[u8], _: &Budget) -> Answer {
    let p = puzzle_of(body)?;
    let unfit = |e: stratsynth::domains::flow::formats::write::WriteError| ApiError::unfit(e.to_string());
    Ok(
        json!({"grid": grid_text(&p).map_err(unfit)?, "counted": counted_text(&p), "sized": sized_text(&[&p]).map_err(unfit)?}),
    )
}
