//! A* (Algorithm 1) with the reference predicates: completeness of pruning,
//! sort = prune in expansions for sound predicates, and soundness of π°.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::board::oracle::{label_partial_paths, Oracle};
use stratsynth::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig};
use stratsynth::domains::witness::search::astar::{astar, Mode, Outcome, SearchConfig};
use stratsynth::domains::witness::search::predicates::{baseline, baseline_or_stevens, never, stevens};
use stratsynth::domains::witness::{Grid, Path, Puzzle};

use crate::random::random_puzzle;

/// Every 2x2 puzzle with start (0, 0): 7 goals x 4^4 triangle layouts.
fn all_2x2() -> Vec<Puzzle> {
    let grid = Grid::new(2, 2);
    let mut out = Vec::new();
    for g in 1..grid.num_vertices() {
        let goal = grid.vertex(g);
        if !grid.on_border(goal) {
            continue;
        }
        for code in 0..256u32 {
            let tri: Vec<_> = (0..4)
                .filter_map(|s| {
                    let t = (code >> (2 * s) & 3) as u8;
                    (t > 0).then_some((s % 2, s / 2, t))
                })
                .collect();
            out.push(Puzzle::new(2, 2, (0, 0), goal, &tri).unwrap());
        }
    }
    out
}

#[test]
fn pruning_with_the_baseline_never_loses_solvability() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut solvable = 0;
    for (w, h, n) in [(2, 2, 80), (2, 3, 80), (3, 3, 80), (3, 4, 40)] {
        for _ in 0..n {
            let p = random_puzzle(&mut rng, w, h, 0.4);
            let truth = Oracle::new(&p).completable(&Path::new(&p));
            solvable += usize::from(truth);
            for pred in [baseline as fn(&Puzzle, &Path) -> bool, baseline_or_stevens] {
                let prune = astar(&p, &pred, &SearchConfig::default());
                let sort = astar(&p, &pred, &SearchConfig::default().with_mode(Mode::Sort));
                match &prune.outcome {
                    Outcome::Solved(s) => assert!(s.is_solution(&p)),
                    Outcome::NoSolution => {}
                    other => panic!("{other:?}"),
                }
                assert_eq!(prune.solution().is_some(), truth, "{}", p.to_ron());
                assert_eq!(sort.solution().is_some(), truth);
                if truth {
                    // Theorem 3: a sound predicate expands the same nodes when sorting.
                    assert_eq!(prune.expansions, sort.expansions);
                    assert_eq!(prune.solution(), sort.solution());
                }
            }
        }
    }
    assert!(solvable > 40, "{solvable}");
}

#[test]
fn stevens_predicate_never_expands_more_than_the_baseline() {
    let c = GeneratorConfig::new("2x2..4x4".parse().unwrap(), Algorithm::RandomTriangles);
    for p in generate(&c, 9, 80).unwrap() {
        let b = astar(&p, &baseline, &SearchConfig::default());
        let s = astar(&p, &baseline_or_stevens, &SearchConfig::default());
        assert!(s.expansions <= b.expansions);
        assert_eq!(b.solution(), s.solution());
        let plain = astar(&p, &never, &SearchConfig::default());
        assert!(plain.solution().is_some_and(|x| x.is_solution(&p)));
    }
}

fn assert_sound(pred: fn(&Puzzle, &Path) -> bool, puzzles: &[Puzzle]) -> (u64, u64) {
    let (mut fired, mut incompletable) = (0, 0);
    for p in puzzles {
        label_partial_paths(p, &mut |path, completable| {
            let f = pred(p, path);
            assert!(!(f && completable), "false positive on {} at {}", p.to_ron(), path.to_text());
            fired += u64::from(f);
            incompletable += u64::from(!completable);
        });
    }
    (fired, incompletable)
}

#[test]
fn stevens_predicate_is_sound_on_all_2x2_and_random_3x3() {
    let mut puzzles = all_2x2();
    assert_eq!(puzzles.len(), 7 * 256);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    puzzles.extend((0..150).map(|_| random_puzzle(&mut rng, 3, 3, 0.4)));
    let (fired, incompletable) = assert_sound(stevens, &puzzles);
    assert!(fired > 1000 && fired < incompletable, "{fired}/{incompletable}");
    assert_sound(baseline, &puzzles);
}

#[test]
fn a_predicate_with_false_positives_is_caught() {
    // Appendix C's second clause: a length-1 path whose head does not touch
    // some square with triangles. It has false positives (Figure C.1).
    fn pi_ex2(p: &Puzzle, path: &Path) -> bool {
        path.len() == 1 && p.constrained_squares().iter().any(|&s| !path.touches_head_of(s))
    }
    let puzzles = all_2x2();
    let caught = std::panic::catch_unwind(|| assert_sound(pi_ex2, &puzzles));
    assert!(caught.is_err());
}

#[test]
fn time_budget_stops_the_search() {
    let c = GeneratorConfig::new("6x6".parse().unwrap(), Algorithm::FromPath);
    let p = &generate(&c, 1, 1).unwrap()[0];
    let r = astar(p, &never, &SearchConfig::default().with_time_limit(std::time::Duration::ZERO));
    assert!(matches!(r.outcome, Outcome::Stopped(_)));
}
