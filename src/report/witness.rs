//! The Witness commands' answers (`witness analyze`, `witness generate`,
//! and the studio's Witness routes): each player's figures (MSI, TSI in
//! Shannon) as text rows and JSON, the solutions, what ran out, a made
//! puzzle as JSON, and the progress line of a long evaluation.

use crate::domains::witness::make::rank::Made;
use crate::domains::witness::play::information::Odds;
use crate::domains::witness::play::players::{Figure, Who};
use crate::domains::witness::Puzzle;
use crate::stop::Stop;
use serde_json::{json, Value};
use std::io::Write as _;

/// Default budget of expanded states per player for puzzles beyond 5x5.
pub const DEFAULT_MAX_NODES: u64 = 5_000_000;

/// The progress line of an evaluation on stderr: `{label}{index} of
/// {count} (WxH), player P: N states, S s`, the puzzle `p`.
pub fn progress_line(label: &str, (index, count): (usize, usize), p: &Puzzle, player: &str, nodes: u64, secs: f64) {
    let _ = writeln!(
        std::io::stderr(),
        "{label}{index} of {count} ({}x{}), player {player}: {nodes} states, {secs:.1} s",
        p.width(),
        p.height()
    );
}

/// One figure in Shannon as text: two decimals, `inf`, `unknown` (out of
/// the budget) or `unsound` (the player lost solutions).
pub fn sh(figure: &Figure, value: fn(&Odds) -> Option<f64>) -> String {
    match figure {
        Figure::Known(o) => value(o).map_or("inf".into(), |x| format!("{x:.2}")),
        Figure::Unknown(_) => "unknown".into(),
        Figure::Unsound { .. } => "unsound".into(),
    }
}

/// The figures of one puzzle as the JSON list of `{player, msi, tsi,
/// stopped}` (`stopped`: what ran out when the figures are `"unknown"`,
/// `"timeout"` or `"node budget"`, else null).
pub fn players_json(players: &[Who], figures: &[Figure]) -> Value {
    players
        .iter()
        .zip(figures)
        .map(|(who, f)| {
            json!({"player": who.name(), "msi": sh_json(f, Odds::msi), "tsi": sh_json(f, Odds::tsi), "stopped": f.ran_out().map(Stop::name)})
        })
        .collect()
}

/// What ran out on a puzzle, for its `stopped` field: the time if any
/// player's did, else the states if any player's did, else nothing.
pub fn stopped(figures: &[Figure]) -> Option<&'static str> {
    figures.iter().filter_map(Figure::ran_out).max().map(Stop::name)
}

/// One figure in Shannon for JSON: a number, `null` for +∞, `"unknown"`,
/// `"unsound"`.
fn sh_json(figure: &Figure, value: fn(&Odds) -> Option<f64>) -> Value {
    match figure {
        Figure::Known(o) => value(o).map_or(Value::Null, |x| json!(x)),
        Figure::Unknown(_) => json!("unknown"),
        Figure::Unsound { .. } => json!("unsound"),
    }
}

/// The number of solutions: the goals a sound player reaches (the local
/// player's), or `unknown`.
pub fn solutions(local: &Figure) -> Value {
    local.odds().map_or(json!("unknown"), |o| json!(o.goals))
}

/// [`solutions`] as text (`unknown` unquoted).
pub fn solutions_text(local: &Figure) -> String {
    local.odds().map_or("unknown".into(), |o| o.goals.to_string())
}
/// The figures of one puzzle as (player, MSI, TSI) text rows.
pub fn rows(players: &[Who], figures: &[Figure]) -> Vec<[String; 3]> {
    players.iter().zip(figures).map(|(who, f)| [who.name().to_string(), sh(f, Odds::msi), sh(f, Odds::tsi)]).collect()
}

/// One made puzzle as an element of `witness generate --json`: `origin`,
/// `puzzle` (RON), `score`, `solutions`, `stopped` (what ran out if a
/// figure is unknown) and `players`.
pub fn made_json(m: &Made, players: &[Who]) -> Value {
    json!({"origin": m.origin, "puzzle": m.puzzle.to_ron(), "score": m.score, "solutions": solutions(&m.figures[0]), "stopped": stopped(&m.figures), "players": players_json(players, &m.figures)})
}
