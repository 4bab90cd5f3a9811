//! The exact oracle against brute-force enumeration on small grids.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::oracle::{
    count_solutions, enumerate_partial_paths, enumerate_solutions, label_partial_paths,
    Oracle,
};
use stratsynth::domains::witness::{Path, Puzzle};

mod common;
use common::random_puzzle;

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
                assert_eq!(
                    shared.completable(path),
                    Oracle::new(&p).completable(path)
                );
            }
        });
    }
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
