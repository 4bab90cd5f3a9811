//! A whole solve by the model player (see the folder's doc): its knowledge
//! to a standstill, then one slot from the oracle, again and again until
//! every slot is decided.
//!
//! A rule step is what one rule decided in one round of the rule player
//! (its links and cuts; within a round, rules in file order); a
//! propagation step is what the complete solver's propagation decided at
//! once (the `search` player's knowledge). An oracle step reveals one slot
//! and costs `1 + log2(U)` bits, U the open slots then (naming one of U
//! slots and one of 2 statuses), as a nonogram oracle step does; the
//! difficulty is their sum, 0 for a puzzle the knowledge solves alone.

use std::time::Instant;
use thiserror::Error;

use super::oracle::{board_of, propagate, reveal};
use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::player::{Player, Unsound};
use crate::domains::flow::solve::stranded::Stranded;
use crate::dsl::ast::Rule;

/// What the player knows.
pub enum Knowledge<'a> {
    /// A rule set, played in rounds.
    Rules {
        /// Its player.
        player: &'a Player<'a>,
        /// Its rules, in file order.
        rules: &'a [Rule],
    },
    /// The complete solver's propagation (the `search` player).
    Propagation,
}

/// How a step was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// By the rule of this index in the set.
    Rule(usize),
    /// By the complete solver's propagation.
    Propagation,
    /// The oracle's slot, its other status refuted by propagation.
    Probe,
    /// The oracle's slot, guessed.
    Guess,
}

impl How {
    /// `rule`, `propagation`, `probe` or `guess`.
    pub fn name(self) -> &'static str {
        match self {
            How::Rule(_) => "rule",
            How::Propagation => "propagation",
            How::Probe => "probe",
            How::Guess => "guess",
        }
    }
}

/// One step of a solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// How it was found.
    pub how: How,
    /// The rule player's round (from 1, counted over the whole solve), for
    /// a rule step.
    pub round: Option<usize>,
    /// The slots it linked, in slot order.
    pub link: Vec<Slot>,
    /// The slots it cut, in slot order.
    pub cut: Vec<Slot>,
    /// The open slots before it.
    pub open: usize,
    /// Its bits of guessing (0 but for the oracle's steps).
    pub bits: f64,
}

/// A solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Playthrough {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The sum of the steps' bits.
    pub bits: f64,
    /// Whether the solve stopped at the bits allowed, slots still open.
    pub over: bool,
}

impl Playthrough {
    /// The steps of the knowledge (not the oracle's).
    pub fn knowledge_steps(&self) -> usize {
        self.steps.iter().filter(|s| s.bits == 0.0).count()
    }

    /// The oracle's steps.
    pub fn oracle_steps(&self) -> usize {
        self.steps.len() - self.knowledge_steps()
    }

    /// Whether the knowledge alone decided every slot.
    pub fn solved_alone(&self) -> bool {
        !self.over && self.oracle_steps() == 0
    }

    /// The slots each rule of a set of `rules` rules decided.
    pub fn rule_counts(&self, rules: usize) -> Vec<usize> {
        let mut counts = vec![0; rules];
        for s in &self.steps {
            if let How::Rule(r) = s.how {
                counts[r] += s.link.len() + s.cut.len();
            }
        }
        counts
    }
}

/// Why a solve failed: the knowledge is unsound.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// A rule concluded something false.
    #[error(transparent)]
    Unsound(#[from] Unsound),
    /// A rule pruned a state the solution extends.
    #[error("rule `{0}` is unsound: it prunes a state the solution extends")]
    Pruned(String),
    /// The solver's propagation found a contradiction on a state the
    /// solution extends (the solution given is not one).
    #[error("the complete solver's propagation refutes a state the solution extends: it is not a solution")]
    NotASolution,
    /// The deadline passed (or the work was given up) before the solve ended.
    #[error("the solve stopped at its deadline before it ended")]
    OutOfTime,
}

/// The rule player's steps from `state`: one per round and rule.
fn rule_steps(
    p: &Puzzle,
    player: &Player,
    rules: &[Rule],
    state: &mut State,
    solution: &Solution,
    rounds: &mut usize,
    deadline: Option<Instant>,
) -> Result<Vec<Step>, PlayError> {
    let play = player.play_until(p, state, Some(solution), deadline)?;
    if play.stopped {
        return Err(PlayError::OutOfTime);
    }
    if let Some(r) = play.pruned {
        return Err(PlayError::Pruned(rules[r].name.clone()));
    }
    let mut open = state.statuses().iter().filter(|&&s| s == Status::Open).count();
    let mut steps: Vec<Step> = vec![];
    let mut sorted = play.steps.clone();
    sorted.sort_by_key(|s| (s.round, s.rule, s.slot));
    for s in sorted {
        let round = Some(*rounds + s.round);
        if !steps.last().is_some_and(|l| l.round == round && l.how == How::Rule(s.rule)) {
            if let Some(last) = steps.last() {
                open -= last.link.len() + last.cut.len();
            }
            steps.push(Step { how: How::Rule(s.rule), round, link: vec![], cut: vec![], open, bits: 0.0 });
        }
        let step = steps.last_mut().expect("pushed");
        if s.status == Status::Linked {
            step.link.push(s.slot);
        } else {
            step.cut.push(s.slot);
        }
    }
    *rounds += play.rounds;
    *state = play.state;
    Ok(steps)
}

/// The complete solver's propagation from `state`: one step, if it decides a slot.
fn propagation_step(p: &Puzzle, state: &mut State) -> Result<Option<Step>, PlayError> {
    let mut board = board_of(p, state).map_err(|_| PlayError::NotASolution)?;
    propagate(p, &mut board, &mut Stranded::default()).map_err(|_| PlayError::NotASolution)?;
    let after = board.state();
    let changed = |st: Status| -> Vec<Slot> {
        (0..after.statuses().len()).filter(|&s| state.status(s) == Status::Open && after.status(s) == st).collect()
    };
    let (link, cut) = (changed(Status::Linked), changed(Status::Cut));
    let open = state.statuses().iter().filter(|&&s| s == Status::Open).count();
    *state = after;
    Ok((!link.is_empty() || !cut.is_empty()).then_some(Step {
        how: How::Propagation,
        round: None,
        link,
        cut,
        open,
        bits: 0.0,
    }))
}

/// Solves `p` toward `solution` with `knowledge`, stopping once the bits
/// would pass `max_bits` if given.
pub fn play(
    p: &Puzzle,
    knowledge: &Knowledge,
    solution: &Solution,
    max_bits: Option<f64>,
) -> Result<Playthrough, PlayError> {
    play_until(p, knowledge, solution, max_bits, None)
}

/// [`play`], given up with [`PlayError::OutOfTime`] once past `deadline`
/// ([`crate::deadline::past`], read before each round of the rules and
/// after each step of the oracle).
pub fn play_until(
    p: &Puzzle,
    knowledge: &Knowledge,
    solution: &Solution,
    max_bits: Option<f64>,
    deadline: Option<Instant>,
) -> Result<Playthrough, PlayError> {
    let mut state = State::start(p.grid());
    let mut out = Playthrough { steps: vec![], bits: 0.0, over: false };
    let mut rounds = 0;
    loop {
        if crate::deadline::past(deadline) {
            return Err(PlayError::OutOfTime);
        }
        match knowledge {
            Knowledge::Rules { player, rules } => {
                out.steps.extend(rule_steps(p, player, rules, &mut state, solution, &mut rounds, deadline)?)
            }
            Knowledge::Propagation => out.steps.extend(propagation_step(p, &mut state)?),
        }
        let open = state.statuses().iter().filter(|&&s| s == Status::Open).count();
        if open == 0 {
            return Ok(out);
        }
        let bits = 1.0 + (open as f64).log2();
        if max_bits.is_some_and(|m| out.bits + bits > m) {
            out.over = true;
            return Ok(out);
        }
        let r = reveal(p, &state, solution).map_err(|_| PlayError::NotASolution)?;
        state.set(r.slot, r.status);
        let (link, cut) = if r.status == Status::Linked { (vec![r.slot], vec![]) } else { (vec![], vec![r.slot]) };
        let how = if r.refuted { How::Probe } else { How::Guess };
        out.steps.push(Step { how, round: None, link, cut, open, bits });
        out.bits += bits;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::model::check::check;
    use crate::domains::flow::solve::{solve, Limits, Options};
    use crate::dsl::parse::parse_rules;
    use crate::dsl::schema::Schema;

    const FIVE: &str = "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n";

    fn puzzle(text: &str) -> (Puzzle, Solution) {
        let p = parse_flow(text, "t").unwrap().remove(0).1;
        let solution = solve(&p, Options::default(), Limits::solutions(1)).solutions.remove(0);
        (p, solution)
    }

    /// The links and cuts of every step, applied in order, give the solution.
    fn replayed(p: &Puzzle, play: &Playthrough) -> Solution {
        let links: Vec<Slot> = play.steps.iter().flat_map(|s| s.link.iter().copied()).collect();
        let decided: usize = play.steps.iter().map(|s| s.link.len() + s.cut.len()).sum();
        assert_eq!(decided, p.grid().slots());
        Solution::new(links)
    }

    /// The control rules solve a small board alone: rule steps only, one per
    /// round and rule, no bits, every slot decided once.
    #[test]
    fn the_control_rules_solve_alone() {
        let schema = Schema::flow();
        let rules = parse_rules(include_str!("../../../../rules/flow/control.rules"), "c", &schema).unwrap();
        let player = Player::new(&rules, &schema, "f").unwrap();
        let (p, solution) = puzzle(FIVE);
        let play = play(&p, &Knowledge::Rules { player: &player, rules: &rules }, &solution, Some(0.0)).unwrap();
        assert!(play.solved_alone() && play.bits == 0.0 && play.oracle_steps() == 0);
        assert_eq!(replayed(&p, &play), solution);
        let keys: Vec<(Option<usize>, How)> = play.steps.iter().map(|s| (s.round, s.how)).collect();
        let mut sorted = keys.clone();
        sorted.dedup();
        assert_eq!(keys, sorted, "one step per round and rule");
        assert_eq!(play.rule_counts(rules.len()).iter().sum::<usize>(), p.grid().slots());
        assert_eq!(play.steps[0].open, p.grid().slots());
    }

    /// Past its deadline a solve is given up, by the rules or the oracle;
    /// before it, the solve is the one without a deadline.
    #[test]
    fn past_its_deadline_a_solve_stops() {
        let schema = Schema::flow();
        let rules = parse_rules(include_str!("../../../../rules/flow/control.rules"), "c", &schema).unwrap();
        let player = Player::new(&rules, &schema, "f").unwrap();
        let (p, solution) = puzzle(FIVE);
        let past = Some(std::time::Instant::now());
        for knowledge in [Knowledge::Rules { player: &player, rules: &rules }, Knowledge::Propagation] {
            assert_eq!(play_until(&p, &knowledge, &solution, None, past), Err(PlayError::OutOfTime));
            let later = Some(std::time::Instant::now() + std::time::Duration::from_secs(600));
            assert_eq!(play_until(&p, &knowledge, &solution, None, later), play(&p, &knowledge, &solution, None));
        }
    }

    /// With no rules every step is the oracle's, each costing 1 + log2(U)
    /// bits; a cap on the bits stops the solve; the search player's
    /// propagation decides what it can first.
    #[test]
    fn the_oracle_steps_in_where_knowledge_stalls() {
        let schema = Schema::flow();
        let none: Vec<Rule> = vec![];
        let player = Player::new(&none, &schema, "f").unwrap();
        let (p, solution) = puzzle(FIVE);
        assert_eq!(check(&p, &solution, false), Ok(()));
        let knowledge = Knowledge::Rules { player: &player, rules: &none };
        let all = play(&p, &knowledge, &solution, None).unwrap();
        assert_eq!(replayed(&p, &all), solution);
        assert!(all.steps.iter().all(|s| matches!(s.how, How::Probe | How::Guess) && s.round.is_none()));
        let sum: f64 = all.steps.iter().map(|s| 1.0 + (s.open as f64).log2()).sum();
        assert!((all.bits - sum).abs() < 1e-9 && all.oracle_steps() == all.steps.len());
        // the first reveal is a probe: some wrong status is refuted at once
        assert_eq!(all.steps[0].how, How::Probe);
        let capped = play(&p, &knowledge, &solution, Some(all.bits - 1.0)).unwrap();
        assert!(capped.over && capped.bits < all.bits);
        let searched = play(&p, &Knowledge::Propagation, &solution, None).unwrap();
        assert_eq!(searched.steps[0].how, How::Propagation);
        assert_eq!(replayed(&p, &searched), solution);
    }
}
