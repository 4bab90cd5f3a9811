//! The exact oracle against brute-force enumeration on small grids.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::board::oracle::{
    count_solutions, enumerate_partial_paths, enumerate_solutions, label_partial_paths, Oracle,
};
use stratsynth::domains::witness::{Path, Puzzle};

use crate::random::random_puzzle;

#[test]
fn oracle_agrees_with_brute_force_labelling() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0u64;
    let mut completable = 0u64;
    for (w, h, n) in [(1, 3, 20), (2, 2, 60), (2, 3, 60), (3, 2, 30), (3, 3, 40)] {
        for _ in 0..n {
            let p = random_puzzle(&mut rng, w, h, 0.45);
            let mut shared = Oracle::new(&p);
            let mut solutions = 0u64;
            enumerate_solutions(&p, &mut |s| {
                assert!(s.is_solution(&p));
                solutions += 1;
            });
            assert_eq!(count_solutions(&p), solutions, "{}", p.to_ron());
            label_partial_paths(&p, &mut |path, truth| {
                checked += 1;
                completable += u64::from(truth);
                assert_eq!(shared.completable(path), truth, "{} {}", p.to_ron(), path.to_text());
                if truth {
                    let s = shared.find_completion(path).unwrap();
                    assert!(s.is_solution(&p));
                    assert!(s.vertices().zip(path.vertices()).all(|(a, b)| a == b));
                    assert!(shared.count_completions(path) >= 1);
                } else {
                    assert_eq!(shared.count_completions(path), 0);
                }
            });
        }
    }
    assert!(completable > 100 && checked > 10 * completable, "{completable}/{checked}");
}

#[test]
fn fresh_and_shared_oracles_agree_on_4x4() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..3 {
        let p = random_puzzle(&mut rng, 4, 4, 0.45);
        let mut shared = Oracle::new(&p);
        let mut n = 0;
        enumerate_partial_paths(&p, &mut |path| {
            n += 1;
            if n % 97 == 0 {
                assert_eq!(shared.completable(path), Oracle::new(&p).completable(path));
            }
        });
    }
}

/// A memo held to a small budget empties itself and answers as an
/// unbounded one: completability and counts, on every 13th partial path
/// of random 4x4 puzzles, with the tables never over the budget.
#[test]
fn a_bounded_memo_stays_within_its_budget_and_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut emptied, mut beyond) = (false, 0);
    for _ in 0..8 {
        let p = random_puzzle(&mut rng, 4, 4, 0.45);
        let mut bounded = Oracle::new(&p).with_memo_budget(64);
        let mut unbounded = Oracle::new(&p);
        let (mut n, mut before) = (0, 0);
        enumerate_partial_paths(&p, &mut |path| {
            n += 1;
            if n % 13 == 0 {
                assert_eq!(bounded.completable(path), unbounded.completable(path));
                assert_eq!(bounded.count_completions(path), unbounded.count_completions(path));
                assert!(bounded.memo_len() <= 64);
                emptied |= bounded.memo_len() < before;
                before = bounded.memo_len();
            }
        });
        beyond += usize::from(unbounded.memo_len() > 64);
    }
    // puzzles whose unbounded memo outgrew the budget, so the bounded one emptied
    assert!(beyond >= 3 && emptied, "{beyond}");
}

#[test]
fn completed_and_overshooting_paths() {
    let p = Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap();
    let mut o = Oracle::new(&p);
    let sol = Path::from_vertices(&p, &[(0, 0), (1, 0), (2, 0), (2, 1)]).unwrap();
    assert!(o.completable(&sol));
    assert_eq!(o.count_completions(&sol), 1);
    let wrong = Path::from_vertices(&p, &[(0, 0), (1, 0), (1, 1), (2, 1)]).unwrap();
    assert!(!o.completable(&wrong));
    let through = Path::from_vertices(&p, &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 0)]).unwrap();
    assert!(!o.completable(&through));
    assert_eq!(o.count_completions(&through), 0);
}
