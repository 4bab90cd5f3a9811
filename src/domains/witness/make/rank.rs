//! Puzzles made to a difficulty, scored and ranked: Shen's EPCG
//! (Algorithm 4) over every filling of the placeholders, each solvable
//! variant scored by the TSI of the chosen player or by the gap between the
//! local player's TSI and the rule player's (a puzzle that is hard unless
//! one knows the rules); and teaching puzzles, the candidates whose TSI
//! knowing one rule lowers the most.

use super::epcg::Placeholders;
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::{Problem, Puzzle};
use crate::domains::witness::play::players::{evaluate, tsi, Figure, Limits, Progress, Who};
use rayon::prelude::*;

/// What the made puzzles are scored by, largest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// TSI of the last player.
    Tsi,
    /// TSI of the first player (local) minus TSI of the second (the rules).
    Gap,
}

/// One made puzzle with its figures.
#[derive(Clone, Debug)]
pub struct Made {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// What it came from: `variant N` or `candidate #N`.
    pub origin: String,
    /// Its figures for each player.
    pub figures: Vec<Figure>,
    /// The value it is ranked by (`None`: unknown).
    pub score: Option<f64>,
}

/// The score of `figures` by `order`.
fn score(order: Order, figures: &[Figure]) -> Option<f64> {
    match order {
        Order::Tsi => tsi(figures, figures.len() - 1),
        Order::Gap => tsi(figures, 0).zip(tsi(figures, 1)).map(|(a, b)| a - b),
    }
}

/// Sorts by score, largest first; unknown scores last; ties in the order given.
pub fn rank(made: &mut [Made]) {
    made.sort_by(|a, b| match (a.score, b.score) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (x, y) => y.is_some().cmp(&x.is_some()),
    });
}

/// The variants of a filling, ranked.
#[derive(Clone, Debug)]
pub struct Variants {
    /// The solvable variants, ranked (all of them).
    pub made: Vec<Made>,
    /// How many variants are solvable (of those judged).
    pub solvable: usize,
    /// How many variants were not judged: the deadline had passed before
    /// their solvability check began or ended.
    pub not_judged: usize,
}

/// What became of one filling.
enum Variant {
    /// Not solvable.
    Unsolvable,
    /// Not judged: the deadline had passed.
    NotJudged,
    /// Solvable, with its figures.
    Made(Box<Made>),
}

/// Shen's Algorithm 4: every filling of `placeholders` (in parallel), the
/// solvable ones evaluated for `players` (within `limits`, its deadline
/// for the whole run: no filling is judged after it, a solvability check
/// going on stops at it (the filling not judged), and the players'
/// enumerations stop at it; progress told with the variant's rank as
/// index), scored by `order` and ranked. For [`Order::Gap`] the players
/// are local first, then the rules.
pub fn fill_and_rank(
    placeholders: &Placeholders,
    players: &[Who],
    order: Order,
    limits: Limits,
    progress: Progress,
) -> Result<Variants, Problem> {
    let cancel = crate::deadline::current();
    let variants: Vec<Variant> = (0..placeholders.max_rank())
        .into_par_iter()
        .map(|rank| {
            crate::deadline::carry(cancel.as_ref(), || {
                if limits.past_deadline() {
                    return Ok(Variant::NotJudged);
                }
                let puzzle = placeholders.unrank(rank)?;
                let mut oracle = Oracle::new(&puzzle).with_deadline(limits.deadline);
                let solvable = oracle.completable(&Path::new(&puzzle));
                if oracle.stopped() {
                    return Ok(Variant::NotJudged);
                }
                if !solvable {
                    return Ok(Variant::Unsolvable);
                }
                let figures = evaluate(&puzzle, rank, players, limits, progress);
                let score = score(order, &figures);
                Ok(Variant::Made(Box::new(Made { puzzle, origin: format!("variant {rank}"), figures, score })))
            })
        })
        .collect::<Result<_, Problem>>()?;
    let not_judged = variants.iter().filter(|v| matches!(v, Variant::NotJudged)).count();
    let mut made: Vec<Made> = variants
        .into_iter()
        .filter_map(|v| match v {
            Variant::Made(m) => Some(*m),
            Variant::Unsolvable | Variant::NotJudged => None,
        })
        .collect();
    let solvable = made.len();
    rank(&mut made);
    Ok(Variants { made, solvable, not_judged })
}

/// The teaching puzzles of rule player `r` (figures index `r + 1`; index 0
/// is the local player): of `candidates`, those whose TSI the rule lowers,
/// ranked by how much, each with the local and the rule player's figures.
pub fn teaching(candidates: &[Puzzle], figures: &[Vec<Figure>], r: usize) -> Vec<Made> {
    let mut made: Vec<Made> = candidates
        .iter()
        .zip(figures)
        .enumerate()
        .map(|(i, (p, f))| Made {
            puzzle: p.clone(),
            origin: format!("candidate #{i}"),
            figures: vec![f[0].clone(), f[r + 1].clone()],
            score: score(Order::Gap, &[f[0].clone(), f[r + 1].clone()]),
        })
        .filter(|m| m.score.is_some_and(|s| s > 0.0))
        .collect();
    rank(&mut made);
    made
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::board::oracle::solve;
    use crate::domains::witness::formats::puzzle::parse_puzzles;
    use crate::domains::witness::play::players::{evaluate_all, RulePlayer};
    use crate::domains::witness::synthesis::testing::{puzzles, rules, STARVED};

    fn quiet(_: usize, _: &str, _: u64, _: f64) {}

    /// Every filling is tried; the solvable ones are kept, ranked by score
    /// largest first, each score the gap of its own figures; the ranking
    /// is the same run after run.
    #[test]
    fn epcg_keeps_the_solvable_fillings_ranked_by_gap() {
        let (domain, starved) = rules(STARVED);
        let rules = RulePlayer::new("r".into(), &domain, starved);
        let base = parse_puzzles(
            "[(width: 3, height: 3, start: (0, 0), goal: (3, 3), triangles: [(2, 0, 1), (0, 2, 3)])]",
            "test",
        )
        .unwrap()
        .remove(0);
        let placeholders = Placeholders::new(base, vec![(1, 1), (2, 2)]).unwrap();
        let players = [Who::Local, Who::Rules(&rules)];
        let v = fill_and_rank(&placeholders, &players, Order::Gap, Limits::nodes(1 << 20), &quiet).unwrap();
        let solvable = (0..16).filter(|&r| solve(&placeholders.unrank(r).unwrap()).is_some()).count();
        assert_eq!((v.solvable, v.made.len(), v.not_judged), (solvable, solvable, 0));
        assert!(solvable > 1 && solvable < 16, "{solvable}");
        for w in v.made.windows(2) {
            assert!(w[0].score.unwrap() >= w[1].score.unwrap());
        }
        for m in &v.made {
            assert_eq!(m.score, Some(tsi(&m.figures, 0).unwrap() - tsi(&m.figures, 1).unwrap()));
            assert!(m.score.unwrap() >= -1e-9, "a sound rule never makes a puzzle harder");
        }
        let again = fill_and_rank(&placeholders, &players, Order::Gap, Limits::nodes(1 << 20), &quiet).unwrap();
        let origins = |v: &Variants| v.made.iter().map(|m| m.origin.clone()).collect::<Vec<_>>();
        assert_eq!(origins(&v), origins(&again));
        let by_tsi = fill_and_rank(&placeholders, &players, Order::Tsi, Limits::nodes(1 << 20), &quiet).unwrap();
        assert!(by_tsi.made.iter().all(|m| m.score == tsi(&m.figures, 1)));
        // past the deadline no filling is judged
        let past = Limits { deadline: Some(std::time::Instant::now()), ..Limits::nodes(1 << 20) };
        let none = fill_and_rank(&placeholders, &players, Order::Gap, past, &quiet).unwrap();
        assert_eq!((none.made.len(), none.solvable, none.not_judged), (0, 0, 16));
    }

    /// Teaching puzzles are those the rule makes easier, most first.
    #[test]
    fn teaching_puzzles_are_those_the_rule_makes_easier() {
        let (domain, starved) = rules(STARVED);
        let file = RulePlayer::new("r".into(), &domain, starved);
        let single = file.single(0);
        let candidates = puzzles("3x3", 1, 20);
        let figures =
            evaluate_all(&candidates, &[Who::Local, Who::Rules(&single)], &|_| Limits::nodes(1 << 20), &quiet);
        let made = teaching(&candidates, &figures, 0);
        let easier = figures.iter().filter(|f| tsi(f, 0).zip(tsi(f, 1)).is_some_and(|(a, b)| a - b > 0.0)).count();
        assert_eq!(made.len(), easier);
        assert!(easier > 0);
        assert!(made.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(made.iter().all(|m| m.origin.starts_with("candidate #") && m.figures.len() == 2));
    }
}
