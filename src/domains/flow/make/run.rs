//! Random Flow puzzles made to order: candidate `i` of a run is the cover
//! drawn from its own seeded stream (so a run's output is the same for
//! any number of threads), judged by [`Wanted`]: exactly one solution
//! (the complete solver, within its node budget), solved by the player
//! within the bits allowed, and with a needed rule, not solved by the set
//! without it; for a rule player allowed no guessing, only candidates the
//! solver's propagation settles are judged by it ([`made`]). The first
//! candidates that pass are kept, in candidate order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::cover::random_cover;
use crate::domains::flow::model::grid::Grid;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Solution;
use crate::domains::flow::play::oracle::propagate;
use crate::domains::flow::play::playthrough::{play, Knowledge, PlayError, Playthrough};
use crate::domains::flow::solve::board::Board;
use crate::domains::flow::solve::stranded::Stranded;
use crate::domains::flow::solve::{solve, Limits, Options};

/// Candidates judged in parallel per thread before the kept ones are counted.
const BATCH: u64 = 8;

/// The candidates of one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Paths (colours).
    pub colours: usize,
}

/// What a kept puzzle must be.
pub struct Wanted<'a> {
    /// The player.
    pub knowledge: Knowledge<'a>,
    /// Its bits of guessing allowed (`None`: any).
    pub max_bits: Option<f64>,
    /// The player's set without the needed rule, which must not solve it
    /// within the bits.
    pub without: Option<Knowledge<'a>>,
    /// The complete solver's node budget per uniqueness check.
    pub max_nodes: u64,
    /// Whether a random candidate must also be settled by the complete
    /// solver's propagation at its root (every slot decided, no search): a
    /// cheap sieve before the player, for a rule player allowed no
    /// guessing (see [`made`]). The repair search does not read it.
    pub settled: bool,
}

/// A puzzle kept.
#[derive(Clone, Debug)]
pub struct Made {
    /// Its candidate index.
    pub index: u64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its one solution.
    pub solution: Solution,
    /// The player's solve.
    pub play: Playthrough,
}

/// Candidate `i` of `shape` from `seed`: a puzzle and its solution (the
/// cover's), or `None` if no cover was found.
pub fn candidate(shape: &Shape, seed: u64, i: u64) -> Option<(Puzzle, Solution)> {
    let mut key = [0u8; 32];
    for (k, v) in [seed, shape.width as u64, shape.height as u64, shape.colours as u64].into_iter().enumerate() {
        key[8 * k..8 * k + 8].copy_from_slice(&v.to_le_bytes());
    }
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(i);
    let grid = Grid::new(shape.width, shape.height);
    random_cover(&grid, shape.colours, &mut rng).map(|c| c.puzzle(&grid))
}

/// Whether one of the first `tries` candidates of `shape` from `seed` has
/// a cover: `false` says the board cannot be covered by that many paths,
/// or hardly ever.
pub fn covers(shape: &Shape, seed: u64, tries: u64) -> bool {
    (0..tries).into_par_iter().any(|i| candidate(shape, seed, i).is_some())
}

/// Whether the complete solver's propagation (its local rules to a
/// fixpoint, then the stranded colour and area checks) decides every slot
/// of `p` from the start.
pub fn settled(p: &Puzzle) -> bool {
    let mut board = Board::new(p);
    propagate(p, &mut board, &mut Stranded::default()).is_ok() && board.state().decided() == p.grid().slots()
}

/// Candidate `i` of `shape` from `seed`, kept with the player's solve if it
/// is what is `wanted`. With `wanted.settled` the player judges only a
/// candidate the solver's propagation settles: on 10x10 boards with 10
/// colours, 1 candidate in 60 is, the learned rules solve nearly all of
/// those and about 1 in 140 of the others, so the sieve spares the player
/// (the cost of a candidate) nearly every candidate it would reject, at
/// the price of the puzzles where the rules see further than the solver's
/// propagation (docs/guide/flow.md, "Speed").
pub fn made(shape: &Shape, seed: u64, i: u64, wanted: &Wanted) -> Result<Option<Made>, PlayError> {
    let Some((puzzle, solution)) = candidate(shape, seed, i) else { return Ok(None) };
    if wanted.settled && !settled(&puzzle) {
        return Ok(None);
    }
    Ok(judge(wanted, &puzzle, &solution)?.map(|play| Made { index: i, puzzle, solution, play }))
}

/// The player's solve of `p` if `p` is what is `wanted`.
pub fn judge(wanted: &Wanted, p: &Puzzle, solution: &Solution) -> Result<Option<Playthrough>, PlayError> {
    let limits = Limits { max_nodes: Some(wanted.max_nodes), ..Limits::solutions(2) };
    if solve(p, Options::default(), limits).count() != Some(1) {
        return Ok(None);
    }
    let (solved, fine) = played(wanted, p, solution)?;
    Ok(fine.then_some(solved))
}

/// The player's solve of `p` toward its one `solution`, and whether it is
/// what is `wanted`: within the bits, and (with a needed rule) not solved
/// within them by the set without it.
pub fn played(wanted: &Wanted, p: &Puzzle, solution: &Solution) -> Result<(Playthrough, bool), PlayError> {
    let solved = play(p, &wanted.knowledge, solution, wanted.max_bits)?;
    if solved.over {
        return Ok((solved, false));
    }
    if let Some(without) = &wanted.without {
        if !play(p, without, solution, wanted.max_bits)?.over {
            return Ok((solved, false));
        }
    }
    Ok((solved, true))
}

/// Why a run failed: the player is unsound.
#[derive(Debug, thiserror::Error)]
#[error("the player failed on candidate {index}: {error}")]
pub struct MakeError {
    /// The candidate.
    pub index: u64,
    /// What the player did wrong.
    pub error: PlayError,
}

/// How far a run may go.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Puzzles to keep.
    pub count: usize,
    /// Candidates judged at most.
    pub max_candidates: u64,
    /// No candidate is judged after this instant.
    pub deadline: Option<Instant>,
}

/// The first `bounds.count` candidates of `shape` from `seed` that are
/// what is `wanted`, in candidate order, and the number of candidates
/// judged (the judging threads carry the caller's cancellation,
/// [`crate::deadline::carry`]). Past the deadline the puzzles
/// kept are those among the candidates before the first one not judged,
/// so they are what a run without the deadline begins with. `progress` is
/// told the candidates judged and the puzzles kept after each batch.
pub fn random_puzzles(
    shape: &Shape,
    seed: u64,
    wanted: &Wanted,
    bounds: Bounds,
    mut progress: impl FnMut(u64, usize),
) -> Result<(Vec<Made>, u64), MakeError> {
    let batch = BATCH * rayon::current_num_threads() as u64;
    let unjudged = AtomicU64::new(u64::MAX);
    let failed: Mutex<Option<MakeError>> = Mutex::new(None);
    let (mut kept, mut next) = (vec![], 0);
    let cancel = crate::deadline::current();
    while kept.len() < bounds.count && next < bounds.max_candidates && unjudged.load(Ordering::Relaxed) == u64::MAX {
        let end = (next + batch).min(bounds.max_candidates);
        let found: Vec<Made> = (next..end)
            .into_par_iter()
            .filter_map(|i| {
                crate::deadline::carry(cancel.as_ref(), || {
                    if crate::deadline::past(bounds.deadline) {
                        unjudged.fetch_min(i, Ordering::Relaxed);
                        return None;
                    }
                    match made(shape, seed, i, wanted) {
                        Ok(made) => made,
                        Err(error) => {
                            let mut slot = failed.lock().unwrap_or_else(|e| e.into_inner());
                            slot.get_or_insert(MakeError { index: i, error });
                            None
                        }
                    }
                })
            })
            .collect();
        kept.extend(found);
        next = end;
        if let Some(e) = failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
        progress(next, kept.len().min(bounds.count));
    }
    let cut = unjudged.into_inner();
    kept.retain(|m| m.index < cut);
    kept.truncate(bounds.count);
    let judged = match kept.last() {
        Some(m) if kept.len() == bounds.count => m.index + 1,
        _ => next.min(cut),
    };
    Ok((kept, judged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::model::check::check;
    use crate::domains::flow::rules::player::Player;
    use crate::dsl::ast::Rule;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::schema::Schema;

    fn control() -> Vec<Rule> {
        parse_rules(include_str!("../../../../rules/flow/control.rules"), "c", &Schema::flow()).unwrap()
    }

    /// The puzzles kept are unique, solved by the control rules alone, the
    /// same at 1 and 2 threads; a needed rule is one the rest cannot do without.
    #[test]
    fn kept_puzzles_are_unique_solved_and_independent_of_threads() {
        let (schema, rules) = (Schema::flow(), control());
        let player = Player::new(&rules, &schema, "c").unwrap();
        let shape = Shape { width: 5, height: 5, colours: 4 };
        let wanted = Wanted {
            knowledge: Knowledge::Rules { player: &player, rules: &rules },
            max_bits: Some(0.0),
            without: None,
            max_nodes: 10_000,
            settled: false,
        };
        let bounds = Bounds { count: 3, max_candidates: 500, deadline: None };
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| random_puzzles(&shape, 5, &wanted, bounds, |_, _| {}).unwrap())
        };
        let (one, judged) = run(1);
        let (two, _) = run(2);
        assert_eq!(one.len(), 3);
        assert_eq!(judged, one[2].index + 1);
        for (a, b) in one.iter().zip(&two) {
            assert_eq!((a.index, &a.puzzle, &a.solution), (b.index, &b.puzzle, &b.solution));
            assert_eq!(solve(&a.puzzle, Options::default(), Limits::solutions(2)).count(), Some(1));
            assert_eq!(check(&a.puzzle, &a.solution, false), Ok(()));
            assert!(a.play.solved_alone() && a.puzzle.colours() == 4);
        }
        // needing `forced`: the set without it solves none of them alone
        let rest: Vec<Rule> = rules.iter().filter(|r| r.name != "forced").cloned().collect();
        let stuck = Player::new(&rest, &schema, "c").unwrap();
        let needs = Wanted { without: Some(Knowledge::Rules { player: &stuck, rules: &rest }), ..wanted };
        let (taught, _) = random_puzzles(&shape, 5, &needs, bounds, |_, _| {}).unwrap();
        assert!(!taught.is_empty());
        for m in &taught {
            assert!(play(&m.puzzle, needs.without.as_ref().unwrap(), &m.solution, Some(0.0)).unwrap().over);
        }
        // the sieve: only puzzles the solver's propagation settles, all the
        // more quickly found among the candidates
        let sieved = Wanted {
            knowledge: Knowledge::Rules { player: &player, rules: &rules },
            max_bits: Some(0.0),
            without: None,
            max_nodes: 10_000,
            settled: true,
        };
        let (kept, _) = random_puzzles(&shape, 5, &sieved, bounds, |_, _| {}).unwrap();
        assert_eq!(kept.len(), 3);
        assert!(kept.iter().all(|m| settled(&m.puzzle) && m.play.solved_alone()));
        // no cover of 3x1 by two paths
        assert!(!covers(&Shape { width: 3, height: 1, colours: 2 }, 0, 8));
        assert!(covers(&shape, 0, 8));
    }
}
