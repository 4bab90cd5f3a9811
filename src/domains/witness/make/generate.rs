//! Random puzzle generators of Stevens' Appendix D: Algorithm 3 (random
//! triangles, regenerated until solvable) and Algorithm 4 (triangles read
//! off a random path). Seeded with `ChaCha8Rng`, hence deterministic.
//!
//! This module owns puzzle *creation*; it uses the exact oracle to test
//! solvability and knows nothing about predicates or rules.
//!
//! Choices where the thesis is vague (all documented here):
//! - **Sizes**: width and height are sampled independently and uniformly
//!   from the given ranges (§5.1: "sampled the length and width uniformly
//!   at random between 2 and a maximum size"), width first.
//! - **Start**: always the bottom-left corner (0, 0) (Appendix D, Alg. 3;
//!   Alg. 4 is assumed to use the same placement).
//! - **Goal**: uniform over the border vertices ("peripheral", degree < 4)
//!   other than the start, listed by vertex id (row by row from the bottom).
//! - **Alg. 3** `k ~ U{1..max(1, ⌊wh/2⌋)}` squares chosen uniformly without
//!   replacement, each with `U{1,2,3}` triangles. Solvability is decided
//!   with the exact oracle instead of "Algorithm 1 with π_baseline": both
//!   are exact, so the accepted puzzles (and the random stream) are the
//!   same; the oracle is just faster. The repeat loop keeps the sampled
//!   size (Algorithm 3 takes m, n as input) and redraws goal and triangles.
//! - **Alg. 4 random path**: a self-avoiding random walk from start that
//!   moves to a uniformly chosen unvisited neighbour *from which the goal is
//!   still reachable* through unvisited vertices, until it steps onto the
//!   goal. It never dead-ends, so it needs no backtracking. (The thesis does
//!   not say how its paths were drawn; this is not uniform over paths.)
//! - **Distinct puzzles**: with `distinct` (the default) a generator never
//!   returns the same puzzle twice; a duplicate is discarded and a new
//!   puzzle (new size) is drawn. §5.1's size table (few 2x2 instances)
//!   suggests the thesis sets were de-duplicated.

use std::collections::HashSet;
use std::str::FromStr;

use rand::seq::index;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use super::generate_kinds::{from_random_path_kinds, Kinds, Mix};
use super::walk::random_goal;
pub use super::walk::random_path;
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::{Problem, Puzzle};
use crate::domains::witness::model::grid::{size_limit, Grid, MAX_SIDE};

/// Which generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Algorithm 3: random triangles, regenerated until solvable.
    RandomTriangles,
    /// Algorithm 4: triangles counted along a random start-goal path.
    FromPath,
    /// The chosen kinds of constraint, consistent with a random hidden
    /// path (see `generate_kinds`).
    Kinds(Kinds),
    /// As `Kinds`, the i-th puzzle returned with the kinds of the mix's
    /// part i mod its parts.
    Mix(Mix),
}

impl Algorithm {
    /// The generator of `mix`: `Kinds` for one part (the same puzzles as
    /// before mixes), else `Mix`.
    pub fn of_mix(mix: Mix) -> Algorithm {
        match mix.parts() {
            [one] => Algorithm::Kinds(*one),
            _ => Algorithm::Mix(mix),
        }
    }
}

/// An inclusive range of puzzle sizes `WxH..WxH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeRange {
    /// Smallest (width, height).
    pub min: (usize, usize),
    /// Largest (width, height).
    pub max: (usize, usize),
}

/// Errors of the generators.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GenError {
    /// A size range that cannot be parsed or is empty.
    #[error("bad size range `{text}`: {reason} (expected `WxH` or `WxH..WxH`; {})", size_limit())]
    BadSizeRange {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Too many attempts without producing a new acceptable puzzle.
    #[error("gave up after {attempts} attempts without a new solvable puzzle")]
    Exhausted {
        /// Attempts made.
        attempts: u64,
    },
    /// An internal inconsistency (a generated puzzle failed validation).
    #[error("generated an invalid puzzle: {0}")]
    Invalid(#[from] Problem),
}

impl SizeRange {
    /// A validated range.
    pub fn new(min: (usize, usize), max: (usize, usize)) -> Result<SizeRange, GenError> {
        let bad = |reason: &str| GenError::BadSizeRange {
            text: format!("{}x{}..{}x{}", min.0, min.1, max.0, max.1),
            reason: reason.to_string(),
        };
        if min.0 < 1 || min.1 < 1 || max.0 > MAX_SIDE || max.1 > MAX_SIDE {
            return Err(bad("sizes out of range"));
        }
        if min.0 > max.0 || min.1 > max.1 {
            return Err(bad("minimum larger than maximum"));
        }
        Ok(SizeRange { min, max })
    }
}

impl FromStr for SizeRange {
    type Err = GenError;

    fn from_str(s: &str) -> Result<SizeRange, GenError> {
        let bad = |reason: &str| GenError::BadSizeRange { text: s.to_string(), reason: reason.to_string() };
        let one = |t: &str| -> Result<(usize, usize), GenError> {
            let (w, h) = t.trim().split_once(['x', 'X']).ok_or_else(|| bad("missing `x`"))?;
            let n = |v: &str| v.trim().parse::<usize>().map_err(|_| bad("not a number"));
            Ok((n(w)?, n(h)?))
        };
        let (lo, hi) = match s.split_once("..") {
            Some((a, b)) => (one(a)?, one(b)?),
            None => {
                let v = one(s)?;
                (v, v)
            }
        };
        SizeRange::new(lo, hi).map_err(|e| match e {
            GenError::BadSizeRange { reason, .. } => bad(&reason),
            other => other,
        })
    }
}

/// Generator settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorConfig {
    /// Sizes to sample from.
    pub sizes: SizeRange,
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// Never return the same puzzle twice.
    pub distinct: bool,
    /// Attempts allowed per returned puzzle before giving up.
    pub max_attempts: u64,
}

impl GeneratorConfig {
    /// Defaults: distinct puzzles, 100 000 attempts per puzzle.
    pub fn new(sizes: SizeRange, algorithm: Algorithm) -> GeneratorConfig {
        GeneratorConfig { sizes, algorithm, distinct: true, max_attempts: 100_000 }
    }
}

/// A deterministic stream of puzzles for a seed.
pub struct Generator {
    config: GeneratorConfig,
    rng: ChaCha8Rng,
    seen: HashSet<Puzzle>,
    /// Puzzles returned so far.
    made: usize,
}

impl Generator {
    /// A generator with `config` seeded by `seed`.
    pub fn new(config: GeneratorConfig, seed: u64) -> Generator {
        Generator { config, rng: ChaCha8Rng::seed_from_u64(seed), seen: HashSet::new(), made: 0 }
    }

    /// The next puzzle.
    pub fn next_puzzle(&mut self) -> Result<Puzzle, GenError> {
        let mut attempts = 0;
        while attempts < self.config.max_attempts {
            let s = self.config.sizes;
            let w = self.rng.gen_range(s.min.0..=s.max.0);
            let h = self.rng.gen_range(s.min.1..=s.max.1);
            let remaining = self.config.max_attempts - attempts;
            let (puzzle, used) = match self.config.algorithm {
                Algorithm::RandomTriangles => random_triangles(&mut self.rng, w, h, remaining)?,
                Algorithm::FromPath => (from_random_path(&mut self.rng, w, h)?, 1),
                Algorithm::Kinds(kinds) => (from_random_path_kinds(&mut self.rng, w, h, kinds)?, 1),
                Algorithm::Mix(mix) => (from_random_path_kinds(&mut self.rng, w, h, mix.part(self.made))?, 1),
            };
            attempts += used;
            if !self.config.distinct || self.seen.insert(puzzle.clone()) {
                self.made += 1;
                return Ok(puzzle);
            }
        }
        Err(GenError::Exhausted { attempts })
    }

    /// The next `n` puzzles.
    pub fn generate(&mut self, n: usize) -> Result<Vec<Puzzle>, GenError> {
        (0..n).map(|_| self.next_puzzle()).collect()
    }
}

/// `n` puzzles from a fresh generator (`config`, `seed`).
pub fn generate(config: &GeneratorConfig, seed: u64, n: usize) -> Result<Vec<Puzzle>, GenError> {
    Generator::new(config.clone(), seed).generate(n)
}

/// Algorithm 3 for a `w` x `h` grid: returns the first solvable puzzle and
/// the number of attempts used, or [`GenError::Exhausted`] after
/// `max_attempts` unsolvable ones.
pub fn random_triangles<R: Rng>(rng: &mut R, w: usize, h: usize, max_attempts: u64) -> Result<(Puzzle, u64), GenError> {
    let grid = Grid::new(w, h);
    for attempt in 1..=max_attempts {
        let goal = random_goal(rng, grid);
        let n = grid.num_squares();
        let k = rng.gen_range(1..=(n / 2).max(1));
        let squares = index::sample(rng, n, k);
        let tri: Vec<(usize, usize, u8)> = squares
            .iter()
            .map(|s| {
                let (c, r) = grid.square(s);
                (c, r, rng.gen_range(1..=3u8))
            })
            .collect();
        let p = Puzzle::new(w, h, (0, 0), goal, &tri)?;
        if Oracle::new(&p).completable(&Path::new(&p)) {
            return Ok((p, attempt));
        }
    }
    Err(GenError::Exhausted { attempts: max_attempts })
}

/// Algorithm 4 for a `w` x `h` grid: triangles read off a random path, so
/// the path is a solution.
pub fn from_random_path<R: Rng>(rng: &mut R, w: usize, h: usize) -> Result<Puzzle, GenError> {
    let grid = Grid::new(w, h);
    let goal = random_goal(rng, grid);
    let ids = random_path(rng, grid, 0, grid.vertex_id(goal));
    let mut used = vec![0u8; grid.num_squares()];
    for pair in ids.windows(2) {
        for s in grid.edge_squares(pair[0], pair[1]) {
            used[s] += 1;
        }
    }
    let touched: Vec<usize> = (0..used.len()).filter(|&s| used[s] > 0).collect();
    let k = rng.gen_range(1..=touched.len().max(1)).min(touched.len());
    let tri: Vec<(usize, usize, u8)> = index::sample(rng, touched.len(), k)
        .iter()
        .map(|i| {
            let s = touched[i];
            let (c, r) = grid.square(s);
            (c, r, used[s])
        })
        .collect();
    Ok(Puzzle::new(w, h, (0, 0), goal, &tri)?)
}
