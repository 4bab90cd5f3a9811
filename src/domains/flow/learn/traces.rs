//! Solution traces of Flow puzzles: the states a model player meets
//! solving a puzzle toward its solution (`play::playthrough` with a rule
//! set, the oracle stepping in where the rules are stuck), each with the
//! slots the next step decides and how. What learning mines its
//! specifications from ([`super::windows`]) and scores rules on
//! ([`super::coverage`]).

use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::play::playthrough::{play, How, Knowledge, PlayError};

/// One state met on a trace and the step taken from it.
#[derive(Clone, Debug)]
pub struct Met {
    /// The state before the step.
    pub state: State,
    /// The slots the step decided, with their status, in slot order.
    pub decided: Vec<(Slot, Status)>,
    /// How the step was found.
    pub how: How,
}

/// A puzzle, its solution and the states met solving it.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The puzzle's name in its file.
    pub name: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The solution played toward.
    pub solution: Solution,
    /// Every state met, the start first, each with its step.
    pub met: Vec<Met>,
}

/// The trace of `p` solved toward `solution` with `knowledge`: the state
/// before each step of the playthrough, with what the step decided.
pub fn trace(name: &str, p: &Puzzle, solution: &Solution, knowledge: &Knowledge) -> Result<Trace, PlayError> {
    let played = play(p, knowledge, solution, None)?;
    let mut state = State::start(p.grid());
    let mut met = vec![];
    for step in &played.steps {
        let mut decided: Vec<(Slot, Status)> = step.link.iter().map(|&s| (s, Status::Linked)).collect();
        decided.extend(step.cut.iter().map(|&s| (s, Status::Cut)));
        decided.sort_unstable_by_key(|&(s, _)| s);
        met.push(Met { state: state.clone(), decided: decided.clone(), how: step.how });
        for (s, status) in decided {
            state.set(s, status);
        }
    }
    Ok(Trace { name: name.to_string(), puzzle: p.clone(), solution: solution.clone(), met })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::rules::player::Player;
    use crate::domains::flow::solve::{solve, Limits, Options};
    use crate::dsl::parse::parse_rules;
    use crate::dsl::schema::Schema;

    /// Each state met is the one before it with its step's slots decided
    /// as the solution has them, from the start; the steps decide every slot.
    #[test]
    fn a_trace_replays_its_steps() {
        let schema = Schema::flow();
        let rules = parse_rules("def full:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if need(c) = 0 and neighbours(c, d) and not joined(c, d):\n then cut(c, d)\n", "t", &schema).unwrap();
        let player = Player::new(&rules, &schema, "f").unwrap();
        let p = parse_flow("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n", "t").unwrap().remove(0).1;
        let solution = solve(&p, Options::default(), Limits::solutions(1)).solutions.remove(0);
        let t = trace("five", &p, &solution, &Knowledge::Rules { player: &player, rules: &rules }).unwrap();
        assert_eq!(t.met[0].state, State::start(p.grid()));
        let mut state = State::start(p.grid());
        for m in &t.met {
            assert_eq!(m.state, state);
            for &(s, status) in &m.decided {
                assert_eq!(solution.links().binary_search(&s).is_ok(), status == Status::Linked);
                state.set(s, status);
            }
        }
        assert_eq!(state.decided(), p.grid().slots());
        assert!(t.met.iter().any(|m| m.how == How::Rule(0)) && t.met.iter().any(|m| m.how != How::Rule(0)));
    }
}
