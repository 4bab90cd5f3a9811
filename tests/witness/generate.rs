//! Generators: determinism, sizes, solvability, and A* solutions on them.

use stratsynth::domains::witness::board::oracle::Oracle;
use stratsynth::domains::witness::formats::puzzle::{parse_puzzles, puzzles_to_ron};
use stratsynth::domains::witness::make::generate::{generate, Algorithm, GenError, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::search::astar::{astar, SearchConfig};
use stratsynth::domains::witness::search::predicates::baseline;
use stratsynth::domains::witness::Path;

fn config(sizes: &str, algorithm: Algorithm) -> GeneratorConfig {
    GeneratorConfig::new(sizes.parse().unwrap(), algorithm)
}

#[test]
fn size_ranges_parse_and_validate() {
    let r: SizeRange = "2x2..5x4".parse().unwrap();
    assert_eq!((r.min, r.max), ((2, 2), (5, 4)));
    let r: SizeRange = "3x3".parse().unwrap();
    assert_eq!((r.min, r.max), ((3, 3), (3, 3)));
    for bad in ["", "3", "2x2..", "0x2..3x3", "4x4..3x3", "2x2..11x2", "axb"] {
        assert!(matches!(bad.parse::<SizeRange>(), Err(GenError::BadSizeRange { .. })), "{bad}");
    }
}

#[test]
fn generators_are_deterministic_for_a_seed() {
    for alg in [Algorithm::RandomTriangles, Algorithm::FromPath] {
        let c = config("2x2..5x5", alg);
        let a = generate(&c, 7, 40).unwrap();
        let b = generate(&c, 7, 40).unwrap();
        assert_eq!(a, b);
        let other = generate(&c, 8, 40).unwrap();
        assert_ne!(a, other);
        // Round trip through the file format.
        assert_eq!(parse_puzzles(&puzzles_to_ron(&a), "mem").unwrap(), a);
    }
}

#[test]
fn generated_puzzles_respect_the_thesis_shape() {
    for alg in [Algorithm::RandomTriangles, Algorithm::FromPath] {
        let c = config("2x2..4x5", alg);
        let ps = generate(&c, 1, 100).unwrap();
        let distinct: std::collections::HashSet<_> = ps.iter().collect();
        assert_eq!(distinct.len(), ps.len());
        for p in &ps {
            assert!((2..=4).contains(&p.width()) && (2..=5).contains(&p.height()));
            assert_eq!(p.start(), (0, 0));
            assert!(p.grid().on_border(p.goal()));
            let k = p.triangles().len();
            assert!(k >= 1);
            if alg == Algorithm::RandomTriangles {
                assert!(k <= p.width() * p.height() / 2);
            }
        }
    }
}

#[test]
fn generated_puzzles_are_solvable_and_search_solves_them() {
    for alg in [Algorithm::RandomTriangles, Algorithm::FromPath] {
        let ps = generate(&config("2x2..4x4", alg), 3, 60).unwrap();
        for p in &ps {
            assert!(Oracle::new(p).completable(&Path::new(p)), "{}", p.to_ron());
            let r = astar(p, &baseline, &SearchConfig::default());
            let sol = r.solution().expect("baseline pruning is complete");
            assert!(sol.is_solution(p));
        }
    }
}

#[test]
fn distinct_generation_gives_up_when_the_space_is_exhausted() {
    // 1x1 puzzles: 3 goals x 3 counts, at most 9 distinct puzzles.
    let mut c = config("1x1", Algorithm::RandomTriangles);
    c.max_attempts = 2_000;
    assert!(matches!(generate(&c, 0, 20), Err(GenError::Exhausted { .. })));
}
