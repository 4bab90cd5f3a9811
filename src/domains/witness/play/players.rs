//! The players as `witness analyze` and `witness generate` name them
//! (`uniform`, `local`, a rule file or one of its rules, `perfect`), and
//! each puzzle's [`Odds`] for each of them, puzzles in parallel. A rule
//! player is kept as its rules, from which each thread makes its own
//! predicate (a [`RuleSetPredicate`] memoises, so it is not shared).

pub use super::information::Limits;
use super::information::{odds, Odds, OutOfBudget, Player};
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::rules::ruleset::RuleSetPredicate;
use crate::domains::witness::synthesis::domain::Witness;
use crate::domains::witness::synthesis::view::ViewIds;
use crate::domains::Domain;
use crate::dsl::ast::{FeatureId, Rule};
use crate::stop::Stop;
use rayon::prelude::*;
use std::time::Instant;

/// A rule player: local constraint checking plus a list of rules.
pub struct RulePlayer {
    /// The player's name: the rule file's path as given, or a rule's name.
    pub name: String,
    ids: ViewIds,
    size: FeatureId,
    /// The rules.
    pub rules: Vec<Rule>,
}

impl RulePlayer {
    /// The player `name` playing `rules` of `domain`.
    pub fn new(name: String, domain: &Witness, rules: Vec<Rule>) -> RulePlayer {
        RulePlayer { name, ids: domain.ids(), size: domain.schema().size_feature, rules }
    }

    /// The player of rule `i` alone, named by the rule.
    pub fn single(&self, i: usize) -> RulePlayer {
        RulePlayer {
            name: self.rules[i].name.clone(),
            ids: self.ids,
            size: self.size,
            rules: vec![self.rules[i].clone()],
        }
    }

    fn predicate(&self) -> RuleSetPredicate {
        RuleSetPredicate::new(self.ids, self.size, self.rules.clone())
    }
}

/// A player as the commands name it.
pub enum Who<'a> {
    /// Every move equally likely.
    Uniform,
    /// Local constraint checking.
    Local,
    /// Local constraint checking and rules.
    Rules(&'a RulePlayer),
    /// Moves no solution begins with are forbidden.
    Perfect,
}

impl Who<'_> {
    /// `uniform`, `local`, the rule player's name, `perfect`.
    pub fn name(&self) -> &str {
        match self {
            Who::Uniform => "uniform",
            Who::Local => "local",
            Who::Rules(r) => &r.name,
            Who::Perfect => "perfect",
        }
    }
}

/// One player's figures on one puzzle.
#[derive(Clone, Debug)]
pub enum Figure {
    /// The odds, enumerated to the end.
    Known(Odds),
    /// Out of the budget of expanded states, or of time: what ran out.
    Unknown(Stop),
    /// A rule player that reached fewer goal states than the local or
    /// perfect player, which reach every solution: a rule pruned a path
    /// some solution begins with, so the odds it gave are wrong.
    Unsound {
        /// Goal states the rule player reached.
        reached: u64,
        /// Solutions (goal states the local or perfect player reached).
        solutions: u64,
    },
}

impl Figure {
    /// The odds, if known and sound.
    pub fn odds(&self) -> Option<&Odds> {
        match self {
            Figure::Known(o) => Some(o),
            Figure::Unknown(_) | Figure::Unsound { .. } => None,
        }
    }

    /// What ran out, if the figure is unknown.
    pub fn ran_out(&self) -> Option<Stop> {
        match self {
            Figure::Unknown(why) => Some(*why),
            Figure::Known(_) | Figure::Unsound { .. } => None,
        }
    }

    /// Whether this is an unsound player's figure.
    pub fn is_unsound(&self) -> bool {
        matches!(self, Figure::Unsound { .. })
    }
}

/// The figures of `players` from their enumerations' `odds`: a rule
/// player that reached fewer goal states than a player that reaches every
/// solution (local, perfect) is [`Figure::Unsound`].
fn figures(players: &[Who], odds: Vec<Result<Odds, OutOfBudget>>) -> Vec<Figure> {
    let solutions = players
        .iter()
        .zip(&odds)
        .filter(|(who, _)| matches!(who, Who::Local | Who::Perfect))
        .filter_map(|(_, o)| o.as_ref().ok().map(|o| o.goals))
        .max();
    players
        .iter()
        .zip(odds)
        .map(|(who, o)| match (who, o, solutions) {
            (Who::Rules(_), Ok(o), Some(solutions)) if o.goals < solutions => {
                Figure::Unsound { reached: o.goals, solutions }
            }
            (_, Ok(o), _) => Figure::Known(o),
            (_, Err(e), _) => Figure::Unknown(e.ran_out),
        })
        .collect()
}

/// Told, about every second once a player takes more than a second on a
/// puzzle: the puzzle's index, the player's name, the states expanded so
/// far and the seconds spent.
pub type Progress<'a> = &'a (dyn Fn(usize, &str, u64, f64) + Sync);

/// The figures of `puzzle` (index `index`, for `progress`) for each player,
/// one after the other ([`Figure::Unknown`]: out of `limits`' expanded
/// states, past its deadline, which every player's enumeration counts
/// against, or past its memory).
pub fn evaluate(puzzle: &Puzzle, index: usize, players: &[Who], limits: Limits, progress: Progress) -> Vec<Figure> {
    evaluate_each(puzzle, index, players, &mut |_| limits, progress)
}

/// [`evaluate`] with the limits of each player from `limits_of(i)`, asked
/// when player `i` starts (so a deadline can be a share of the time left).
pub fn evaluate_each(
    puzzle: &Puzzle,
    index: usize,
    players: &[Who],
    limits_of: &mut dyn FnMut(usize) -> Limits,
    progress: Progress,
) -> Vec<Figure> {
    let results = players
        .iter()
        .enumerate()
        .map(|(i, who)| {
            let predicate = match who {
                Who::Rules(r) => Some(r.predicate()),
                _ => None,
            };
            let player = match (who, &predicate) {
                (Who::Uniform, _) => Player::Uniform,
                (Who::Local, _) => Player::Local,
                (Who::Perfect, _) => Player::Perfect,
                (Who::Rules(_), p) => Player::Rules(p.as_ref().expect("made above")),
            };
            let started = Instant::now();
            let mut shown = 0.0;
            let mut tell = |nodes: u64| {
                let secs = started.elapsed().as_secs_f64();
                if secs >= shown + 1.0 {
                    shown = secs;
                    progress(index, who.name(), nodes, secs);
                }
            };
            odds(puzzle, &player, &limits_of(i), &mut tell)
        })
        .collect();
    figures(players, results)
}

/// [`evaluate`] on each of `puzzles`, in parallel, in order, each within
/// the limits `limits(i)` gives when puzzle `i` starts (a deadline per
/// puzzle, or one for all).
pub fn evaluate_all(
    puzzles: &[Puzzle],
    players: &[Who],
    limits: &(dyn Fn(usize) -> Limits + Sync),
    progress: Progress,
) -> Vec<Vec<Figure>> {
    let cancel = crate::deadline::current();
    puzzles
        .par_iter()
        .enumerate()
        .map(|(i, p)| crate::deadline::carry(cancel.as_ref(), || evaluate(p, i, players, limits(i), progress)))
        .collect()
}

/// The TSI of the player at `i` in `figures`, if known and finite.
pub fn tsi(figures: &[Figure], i: usize) -> Option<f64> {
    figures[i].odds().and_then(Odds::tsi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::formats::puzzle::parse_puzzles;
    use crate::domains::witness::synthesis::testing::{rules, STARVED};

    /// Each player's figures in the order given: the local player reaches
    /// every solution, a sound rule player as many with no more
    /// information needed, the perfect player needs none.
    #[test]
    fn players_are_evaluated_in_order() {
        let (domain, rules) = rules(STARVED);
        let file = RulePlayer::new("file".into(), &domain, rules);
        let single = file.single(0);
        assert_eq!(single.name, "starved_square");
        let players = [Who::Uniform, Who::Local, Who::Rules(&single), Who::Perfect];
        let text = "[(width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(0, 0, 2), (1, 1, 3)])]";
        let puzzle = parse_puzzles(text, "test").unwrap().remove(0);
        let quiet = |_: usize, _: &str, _: u64, _: f64| {};
        let all = evaluate_all(std::slice::from_ref(&puzzle), &players, &|_| Limits::nodes(1 << 20), &quiet);
        let f = &all[0];
        let goals: Vec<_> = f.iter().map(|o| o.odds().unwrap().goals).collect();
        assert!(goals[0] == goals[1] && goals[1] == goals[2] && goals[2] == goals[3], "{goals:?}");
        let (local, rules, perfect) = (tsi(f, 1).unwrap(), tsi(f, 2).unwrap(), tsi(f, 3).unwrap());
        assert!(perfect.abs() < 1e-9 && rules <= local && local > 0.0, "{local} {rules} {perfect}");
    }

    /// A rule player that prunes a path a solution begins with reaches
    /// fewer goals than the local player: its figures are marked unsound,
    /// never given as figures; a sound one's are known.
    #[test]
    fn a_rule_player_that_loses_solutions_is_unsound() {
        let (domain, used_any) =
            rules("def used_any:\n    with s = arbitrary(square):\n    if used(s) > 1:\n    then prune\n");
        let unsound = RulePlayer::new("u".into(), &domain, used_any);
        let (domain, starved) = rules(STARVED);
        let sound = RulePlayer::new("s".into(), &domain, starved);
        let text = "[(width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(0, 0, 2), (1, 1, 3)])]";
        let puzzle = parse_puzzles(text, "test").unwrap().remove(0);
        let quiet = |_: usize, _: &str, _: u64, _: f64| {};
        let players = [Who::Local, Who::Rules(&unsound), Who::Rules(&sound)];
        let f = evaluate(&puzzle, 0, &players, Limits::nodes(1 << 20), &quiet);
        let solutions = f[0].odds().unwrap().goals;
        match f[1] {
            Figure::Unsound { reached, solutions: s } => assert!(reached < solutions && s == solutions),
            ref other => panic!("{other:?}"),
        }
        assert!(tsi(&f, 1).is_none() && f[1].is_unsound());
        assert_eq!(f[2].odds().unwrap().goals, solutions);
    }

    /// Past the deadline every player is unknown and says the time ran
    /// out (a small puzzle too: the deadline holds at any size); out of
    /// states, the states; past the process's memory, the memory.
    #[test]
    fn unknown_figures_name_what_ran_out() {
        let text = "[(width: 6, height: 6, start: (0, 0), goal: (6, 6), triangles: [(0, 0, 2)])]";
        let puzzle = parse_puzzles(text, "test").unwrap().remove(0);
        let quiet = |_: usize, _: &str, _: u64, _: f64| {};
        let players = [Who::Uniform, Who::Local];
        let past = Limits { deadline: Some(Instant::now()), ..Limits::nodes(1 << 20) };
        let f = evaluate(&puzzle, 0, &players, past, &quiet);
        assert!(f.iter().all(|f| f.ran_out() == Some(Stop::Timeout) && f.odds().is_none()), "{f:?}");
        let f = evaluate(&puzzle, 0, &players, Limits::nodes(10), &quiet);
        assert!(f.iter().all(|f| f.ran_out() == Some(Stop::Nodes)), "{f:?}");
        let held = Limits { max_memory: Some(1 << 20), ..Limits::nodes(1 << 20) };
        let f = evaluate(&puzzle, 0, &players, held, &quiet);
        assert!(f.iter().all(|f| f.ran_out() == Some(Stop::Memory)), "{f:?}");
    }
}
