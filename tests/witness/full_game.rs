//! The full Witness semantics (docs/reference/formats.md: triangles, separation squares,
//! stars, dots, edge dots, broken edges): the solution check, the exact
//! oracle and the generator of chosen kinds, against a reference written
//! here straight from the definition (plain searches, no shared code).

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::board::oracle::{count_solutions, enumerate_partial_paths, solve, Oracle};
use stratsynth::domains::witness::formats::puzzle::Constraints;
use stratsynth::domains::witness::make::generate::{Algorithm, Generator, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::make::generate_kinds::Kinds;
use stratsynth::domains::witness::{Grid, Path, Puzzle, Vertex};

/// A random puzzle with every kind of constraint, no solvability filter.
fn random_full(rng: &mut ChaCha8Rng, w: usize, h: usize) -> Puzzle {
    let grid = Grid::new(w, h);
    let border: Vec<_> = (1..grid.num_vertices()).map(|v| grid.vertex(v)).filter(|&v| grid.on_border(v)).collect();
    let goal = border[rng.gen_range(0..border.len())];
    let mut c = Constraints::default();
    for r in 0..h {
        for col in 0..w {
            match rng.gen_range(0..8) {
                0 => c.triangles.push((col, r, rng.gen_range(1..=3))),
                1 | 2 => c.colours.push((col, r, rng.gen_range(1..=2))),
                3 | 4 => c.stars.push((col, r, rng.gen_range(1..=2))),
                _ => {}
            }
        }
    }
    for v in 0..grid.num_vertices() {
        if rng.gen_bool(0.08) {
            c.dots.push(grid.vertex(v));
        }
    }
    for e in 0..grid.num_edges() {
        let (a, b) = grid.edge_ends(e);
        match rng.gen_range(0..14) {
            0 => c.edge_dots.push((grid.vertex(a), grid.vertex(b))),
            1 => c.broken.push((grid.vertex(a), grid.vertex(b))),
            _ => {}
        }
    }
    Puzzle::with_constraints(w, h, (0, 0), goal, &c).unwrap()
}

/// docs/reference/formats.md's solution check on a start-goal vertex sequence.
fn reference_solution(p: &Puzzle, vs: &[Vertex]) -> bool {
    let c = p.constraints();
    let (w, h) = (p.width(), p.height());
    let on_path = |a: Vertex, b: Vertex| vs.windows(2).any(|x| (x[0], x[1]) == (a, b) || (x[0], x[1]) == (b, a));
    // triangles: edges of the square on the path
    let sides = |col: usize, row: usize| {
        let k = [(col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1)];
        (0..4).filter(|&i| on_path(k[i], k[(i + 1) % 4])).count() as u8
    };
    if c.triangles.iter().any(|&(col, row, t)| sides(col, row) != t) {
        return false;
    }
    if c.dots.iter().any(|d| !vs.contains(d)) || c.edge_dots.iter().any(|&(a, b)| !on_path(a, b)) {
        return false;
    }
    // regions: flood fill over squares, crossing edges not on the path
    let mut region = vec![vec![usize::MAX; h]; w];
    let mut next = 0;
    for c0 in 0..w {
        for r0 in 0..h {
            if region[c0][r0] != usize::MAX {
                continue;
            }
            let mut stack = vec![(c0, r0)];
            region[c0][r0] = next;
            while let Some((col, row)) = stack.pop() {
                let mut go = |nc: usize, nr: usize, a: Vertex, b: Vertex| {
                    if region[nc][nr] == usize::MAX && !on_path(a, b) {
                        region[nc][nr] = next;
                        stack.push((nc, nr));
                    }
                };
                if col + 1 < w {
                    go(col + 1, row, (col + 1, row), (col + 1, row + 1));
                }
                if col > 0 {
                    go(col - 1, row, (col, row), (col, row + 1));
                }
                if row + 1 < h {
                    go(col, row + 1, (col, row + 1), (col + 1, row + 1));
                }
                if row > 0 {
                    go(col, row - 1, (col, row), (col + 1, row));
                }
            }
            next += 1;
        }
    }
    let marks: Vec<(usize, u8, bool)> = c
        .colours
        .iter()
        .map(|&(col, row, k)| (region[col][row], k, false))
        .chain(c.stars.iter().map(|&(col, row, k)| (region[col][row], k, true)))
        .collect();
    let seps_ok = marks.iter().all(|&(r, k, star)| star || marks.iter().all(|&(r2, k2, s2)| r2 != r || s2 || k2 == k));
    let stars_ok =
        marks.iter().all(|&(r, k, star)| !star || marks.iter().filter(|&&(r2, k2, _)| r2 == r && k2 == k).count() == 2);
    seps_ok && stars_ok
}

/// Every solution, as vertex sequences, by a plain search over simple
/// paths that never use a broken edge.
fn reference_solutions(p: &Puzzle) -> Vec<Vec<Vertex>> {
    fn go(p: &Puzzle, broken: &[(Vertex, Vertex)], vs: &mut Vec<Vertex>, out: &mut Vec<Vec<Vertex>>) {
        let (x, y) = *vs.last().unwrap();
        if (x, y) == p.goal() {
            if reference_solution(p, vs) {
                out.push(vs.clone());
            }
            return;
        }
        let mut next = vec![];
        if x < p.width() {
            next.push((x + 1, y));
        }
        if y < p.height() {
            next.push((x, y + 1));
        }
        if x > 0 {
            next.push((x - 1, y));
        }
        if y > 0 {
            next.push((x, y - 1));
        }
        for v in next {
            let cut = broken.iter().any(|&(a, b)| (a, b) == ((x, y), v) || (a, b) == (v, (x, y)));
            if !vs.contains(&v) && !cut {
                vs.push(v);
                go(p, broken, vs, out);
                vs.pop();
            }
        }
    }
    let mut out = vec![];
    go(p, &p.constraints().broken, &mut vec![p.start()], &mut out);
    out
}

#[test]
fn oracle_and_solution_check_agree_with_the_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (mut puzzles, mut solvable, mut states) = (0, 0, 0u64);
    for (w, h, n) in [(1, 2, 30), (2, 2, 120), (3, 2, 80), (2, 3, 80), (3, 3, 60)] {
        for _ in 0..n {
            let p = random_full(&mut rng, w, h);
            let solutions = reference_solutions(&p);
            puzzles += 1;
            solvable += usize::from(!solutions.is_empty());
            assert_eq!(count_solutions(&p), solutions.len() as u64, "{}", p.to_ron());
            for s in &solutions {
                assert!(Path::from_vertices(&p, s).unwrap().is_solution(&p), "{}", p.to_ron());
            }
            let prefixes: HashSet<Vec<Vertex>> =
                solutions.iter().flat_map(|s| (1..s.len()).map(|k| s[..k].to_vec())).collect();
            let mut oracle = Oracle::new(&p);
            enumerate_partial_paths(&p, &mut |path| {
                states += 1;
                let vs: Vec<Vertex> = path.vertices().collect();
                assert_eq!(oracle.completable(path), prefixes.contains(&vs), "{} {}", p.to_ron(), path.to_text());
            });
            // every full path the reference rejects, the check rejects too
            if let Some(s) = solve(&p) {
                assert!(reference_solution(&p, &s.vertices().collect::<Vec<_>>()));
            }
        }
    }
    assert!(solvable > 40 && solvable < puzzles - 40, "{solvable} of {puzzles}");
    assert!(states > 10_000, "{states}");
}

#[test]
fn generated_puzzles_hold_the_chosen_kinds_and_are_solvable() {
    for (kinds, colours) in [("triangles,colours,stars,dots,broken", 3), ("colours,dots,broken", 2), ("stars", 2)] {
        let k = Kinds::parse(kinds, colours).unwrap();
        assert_eq!(k.names(), kinds);
        let config = GeneratorConfig::new(SizeRange::new((2, 2), (4, 4)).unwrap(), Algorithm::Kinds(k));
        let ps = Generator::new(config.clone(), 7).generate(40).unwrap();
        assert_eq!(ps, Generator::new(config, 7).generate(40).unwrap(), "deterministic");
        let mut seen = Constraints::default();
        for p in &ps {
            let s = solve(p).expect("a generated puzzle is solvable");
            assert!(reference_solution(p, &s.vertices().collect::<Vec<_>>()), "{}", p.to_ron());
            let c = p.constraints();
            assert!(k.triangles || c.triangles.is_empty());
            assert!(k.colours || c.colours.is_empty());
            assert!(k.stars || c.stars.is_empty());
            assert!(k.dots || (c.dots.is_empty() && c.edge_dots.is_empty()));
            assert!(k.broken || c.broken.is_empty());
            assert!(c.colours.iter().chain(&c.stars).all(|m| (1..=colours).contains(&m.2)));
            seen.triangles.extend(c.triangles);
            seen.colours.extend(c.colours);
            seen.stars.extend(c.stars);
            seen.dots.extend(c.dots);
            seen.broken.extend(c.broken);
        }
        // every chosen kind shows up somewhere in the set
        assert_eq!(!seen.triangles.is_empty(), k.triangles, "{kinds}");
        assert_eq!(!seen.colours.is_empty(), k.colours, "{kinds}");
        assert_eq!(!seen.stars.is_empty(), k.stars, "{kinds}");
        assert_eq!(!seen.dots.is_empty(), k.dots, "{kinds}");
        assert_eq!(!seen.broken.is_empty(), k.broken, "{kinds}");
    }
    assert!(Kinds::parse("triangles,squares", 2).is_err());
    assert!(Kinds::parse("dots,dots", 2).is_err());
    assert!(Kinds::parse("dots", 0).is_err());
}
