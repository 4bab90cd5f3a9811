//! What Flow rule sets decide, measured two ways:
//!
//! - on traces ([`TraceCoverage`]): per rule, the (state met, slot) pairs
//!   it decides in one round of the player from each state met on the
//!   traces; the greedy selection's objective is the number of pairs the
//!   chosen rules decide together ([`Covered`]);
//! - on whole puzzles ([`SetScore`]): the rule player from each puzzle's
//!   start to its standstill: slots decided and puzzles solved without
//!   search (what `learn flow` compares the learned and control sets by).
//!
//! A rule deciding a slot against the trace's solution (or out of range,
//! or against the state) is unsound: it is shown so, and decides nothing
//! (on puzzles: an error naming it, never a score).

use super::traces::Trace;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::player::{Player, Round, Unsound};
use crate::dsl::ast::Rule;
use crate::dsl::schema::Schema;
use crate::select::Objective;
use rayon::prelude::*;
use std::sync::Arc;

/// Per rule, the (state met, slot) pairs it decides on traces, or the
/// first fault that shows it unsound there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceCoverage {
    /// Per rule, the pairs it decides (ids ascending; none for a rule
    /// shown unsound).
    pub decided: Vec<Vec<u32>>,
    /// Per rule, the first fault on the traces (in trace and state
    /// order) that shows it unsound: a conclusion out of range, against
    /// the state, or against the trace's solution.
    pub refuted: Vec<Option<Unsound>>,
    /// The pairs of (state met, open slot) on the traces.
    pub open: usize,
}

impl TraceCoverage {
    /// What each of `rules` decides on the states met on `traces`.
    pub fn new(rules: &[Rule], schema: &Schema, traces: &[Trace]) -> TraceCoverage {
        let player = Player::new(rules, schema, "learned").expect("the Flow schema");
        // each state met with the id of its first slot
        let mut states = vec![];
        let mut next = 0u32;
        for t in traces {
            for m in &t.met {
                states.push((t, &m.state, next));
                next += t.puzzle.grid().slots() as u32;
            }
        }
        let rounds: Vec<Round> = states.par_iter().map(|&(t, state, _)| player.round(&t.puzzle, state)).collect();
        let mut decided = vec![vec![]; rules.len()];
        let mut refuted: Vec<Option<Unsound>> = vec![None; rules.len()];
        for (&(t, _, first), round) in states.iter().zip(rounds) {
            for (i, (slots, unsound)) in round.decided.into_iter().zip(round.unsound).enumerate() {
                if refuted[i].is_none() {
                    refuted[i] = unsound.or_else(|| {
                        slots.iter().find_map(|&(s, status)| against(&rules[i], (&t.puzzle, &t.solution), s, status))
                    });
                }
                decided[i].extend(slots.iter().map(|&(s, _)| first + s as u32));
            }
        }
        for (d, r) in decided.iter_mut().zip(&refuted) {
            if r.is_some() {
                d.clear();
            }
        }
        let open = states.iter().map(|(_, st, _)| st.statuses().iter().filter(|&&s| s == Status::Open).count()).sum();
        TraceCoverage { decided, refuted, open }
    }

    /// The pairs the rules of `chosen` decide together.
    pub fn together(&self, chosen: &[usize]) -> usize {
        let mut ids: Vec<u32> = chosen.iter().flat_map(|&i| self.decided[i].iter().copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }

    /// The greedy selection's objective over these rules, none chosen.
    pub fn objective(self: Arc<Self>) -> Covered {
        let len = self.decided.iter().flatten().max().map_or(0, |&m| m as usize + 1);
        Covered { coverage: self, have: vec![false; len], score: 0 }
    }
}

/// The fault of a rule deciding slot `s` of `p` as `status` against
/// `solution`, if it does.
fn against(rule: &Rule, (p, solution): (&Puzzle, &Solution), s: usize, status: Status) -> Option<Unsound> {
    (solution.links().binary_search(&s).is_ok() != (status == Status::Linked)).then(|| Unsound {
        rule: rule.name.clone(),
        what: "it disagrees with the solution".into(),
        slot: Some(s),
        cells: p.grid().ends(s).map(|c| p.grid().xy(c)),
    })
}

/// The pairs decided by a chosen set of rules: the selection's objective.
pub struct Covered {
    coverage: Arc<TraceCoverage>,
    have: Vec<bool>,
    score: usize,
}

impl Objective for Covered {
    type Error = std::convert::Infallible;

    fn score(&self) -> usize {
        self.score
    }

    fn score_with(&self, i: usize) -> Result<usize, Self::Error> {
        Ok(self.score + self.coverage.decided[i].iter().filter(|&&id| !self.have[id as usize]).count())
    }

    fn choose(&mut self, i: usize) -> Result<(), Self::Error> {
        self.score = self.score_with(i)?;
        for &id in &self.coverage.decided[i] {
            self.have[id as usize] = true;
        }
        Ok(())
    }
}

/// What a rule set does on a set of puzzles, played from each start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetScore {
    /// Rules in the set.
    pub rules: usize,
    /// Slots the rules decided.
    pub decided: usize,
    /// Slots of the puzzles.
    pub slots: usize,
    /// Puzzles the rules solved alone (every slot decided, no search).
    pub solved: usize,
    /// Puzzles.
    pub puzzles: usize,
}

/// `rules` played on each of `puzzles` (each with its solution, which a
/// rule deciding against it shows unsound) from its start.
pub fn score_set(rules: &[Rule], schema: &Schema, puzzles: &[(Puzzle, Solution)]) -> Result<SetScore, Unsound> {
    let player = Player::new(rules, schema, "rules").expect("the Flow schema");
    let plays: Vec<(usize, bool)> = puzzles
        .par_iter()
        .map(|(p, solution)| {
            let play = player.play(p, &State::start(p.grid()), Some(solution))?;
            Ok((play.decided(), play.solved()))
        })
        .collect::<Result<_, Unsound>>()?;
    Ok(SetScore {
        rules: rules.len(),
        decided: plays.iter().map(|p| p.0).sum(),
        slots: puzzles.iter().map(|(p, _)| p.grid().slots()).sum(),
        solved: plays.iter().filter(|p| p.1).count(),
        puzzles: puzzles.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::traces::trace;
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::play::playthrough::Knowledge;
    use crate::domains::flow::solve::{solve, Limits, Options};
    use crate::dsl::parse::parse_rules;
    use crate::select::greedy;

    /// The greedy objective counts the pairs the chosen rules decide
    /// together; a rule set's score on puzzles is the player's.
    #[test]
    fn coverage_of_rules_on_traces_and_puzzles() {
        let schema = Schema::flow();
        let control = parse_rules(include_str!("../../../../rules/flow/control.rules"), "c", &schema).unwrap();
        let p = parse_flow("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n", "t").unwrap().remove(0).1;
        let solution = solve(&p, Options::default(), Limits::solutions(1)).solutions.remove(0);
        let none: Vec<Rule> = vec![];
        let player = Player::new(&none, &schema, "f").unwrap();
        let t = trace("five", &p, &solution, &Knowledge::Rules { player: &player, rules: &none }).unwrap();
        let coverage = Arc::new(TraceCoverage::new(&control, &schema, std::slice::from_ref(&t)));
        assert!(coverage.refuted.iter().all(|r| r.is_none()));
        assert_eq!(coverage.decided.len(), control.len());
        let mut objective = coverage.clone().objective();
        let picks = greedy(control.len(), crate::select::Selection::top(3), |_| 1, &mut objective).unwrap();
        let chosen: Vec<usize> = picks.iter().map(|p| p.index).collect();
        assert_eq!(picks.last().unwrap().score, coverage.together(&chosen));
        assert!(coverage.together(&(0..control.len()).collect::<Vec<_>>()) <= coverage.open);
        let score = score_set(&control, &schema, &[(p.clone(), solution.clone())]).unwrap();
        assert_eq!(
            (score.decided, score.slots, score.solved, score.puzzles),
            (p.grid().slots(), p.grid().slots(), 1, 1)
        );
        // a rule cutting every slot is caught against the solution
        let cut_all = parse_rules("def cut_all:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if neighbours(c, d):\n then cut(c, d)\n", "t", &schema).unwrap();
        let refuted = TraceCoverage::new(&cut_all, &schema, &[t]);
        assert_eq!(refuted.refuted[0].as_ref().map(|u| u.rule.as_str()), Some("cut_all"));
        assert!(refuted.decided[0].is_empty());
        assert!(score_set(&cut_all, &schema, &[(p, solution)]).is_err());
    }
}
