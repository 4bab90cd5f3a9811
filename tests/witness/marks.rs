//! The `mark` and `dot` features and the region features the view computes
//! mean what docs/reference/language.md says: on random partial paths of random puzzles with
//! every constraint kind (1x1 to 5x5), each value equals the one computed
//! here straight from the definitions, written independently: R by
//! iterating "an unvisited vertex joined to R by an edge that is not
//! broken" to a fixpoint, usable and sealed edges edge by edge, joined
//! squares and open areas as the transitive closure of a square relation
//! (not a flood fill).

use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::board::path::Path;
use stratsynth::domains::witness::formats::puzzle::{Constraints, Dot, Mark, Puzzle};
use stratsynth::domains::witness::synthesis::domain::Witness;

/// A random puzzle: each square empty, 1-3 triangles, a separation square
/// or a star (colours 1-3); dots on some vertices; each edge plain, dotted
/// or broken.
fn random_puzzle(rng: &mut ChaCha8Rng) -> Puzzle {
    let (w, h) = (rng.gen_range(1..=5usize), rng.gen_range(1..=5usize));
    let start = (rng.gen_range(0..=w), rng.gen_range(0..=h));
    let goal = loop {
        let g = match rng.gen_range(0..4) {
            0 => (0, rng.gen_range(0..=h)),
            1 => (w, rng.gen_range(0..=h)),
            2 => (rng.gen_range(0..=w), 0),
            _ => (rng.gen_range(0..=w), h),
        };
        if g != start {
            break g;
        }
    };
    let mut c = Constraints::default();
    let marks = rng.gen_range(0.0..0.8);
    for r in 0..h {
        for col in 0..w {
            match rng.gen_range(0..10) {
                0 => c.triangles.push((col, r, rng.gen_range(1..=3))),
                k if k < 9 && rng.gen_bool(marks) => {
                    let colour = rng.gen_range(1..=3);
                    if k % 2 == 0 {
                        c.stars.push((col, r, colour))
                    } else {
                        c.colours.push((col, r, colour))
                    }
                }
                _ => {}
            }
        }
    }
    for y in 0..=h {
        for x in 0..=w {
            if rng.gen_bool(0.1) {
                c.dots.push((x, y));
            }
            for next in [(x + 1, y), (x, y + 1)] {
                if next.0 > w || next.1 > h {
                    continue;
                }
                match rng.gen_range(0..10) {
                    0 => c.edge_dots.push(((x, y), next)),
                    1 | 2 => c.broken.push(((x, y), next)),
                    _ => {}
                }
            }
        }
    }
    Puzzle::with_constraints(w, h, start, goal, &c).expect("a valid random puzzle")
}

/// A random walk from the start over edges that are not broken.
fn random_path(rng: &mut ChaCha8Rng, p: &Puzzle) -> Path {
    let grid = p.grid();
    let mut path = Path::new(p);
    let steps = rng.gen_range(0..grid.num_vertices());
    for _ in 0..steps {
        let h = path.head_id();
        let next: Vec<usize> = grid
            .neighbours(h)
            .filter(|&v| !path.visited().contains(v) && !p.is_broken(grid.edge_between(h, v).unwrap()))
            .collect();
        if next.is_empty() || path.head() == p.goal() {
            break;
        }
        path.push_id(next[rng.gen_range(0..next.len())]);
    }
    path
}

/// The transitive closure of `link` (square pairs), reflexive.
fn closure(n: usize, link: impl Fn(usize, usize) -> bool) -> Vec<Vec<bool>> {
    let mut m: Vec<Vec<bool>> = (0..n).map(|s| (0..n).map(|t| s == t || link(s, t)).collect()).collect();
    for k in 0..n {
        for s in 0..n {
            for t in 0..n {
                if m[s][k] && m[k][t] {
                    m[s][t] = true;
                }
            }
        }
    }
    m
}

/// Per mark (colour, star, joined_same, joined_other, reach_same, closed),
/// per dot (crossed, reachable), per triangle square (free, live), and
/// goal_reachable: from the definitions.
#[allow(clippy::type_complexity)]
fn direct(p: &Puzzle, path: &Path) -> (Vec<[i64; 6]>, Vec<[i64; 2]>, Vec<[i64; 2]>, i64) {
    let grid = p.grid();
    let vs: Vec<usize> = path.vertex_ids().collect();
    let head = *vs.last().unwrap();
    let visited = |v: usize| vs.contains(&v);
    let on_path = |e: usize| vs.windows(2).any(|w| grid.edge_between(w[0], w[1]) == Some(e));
    let step = |a: usize, b: usize| grid.edge_between(a, b).is_some_and(|e| !p.is_broken(e));
    let goal = grid.vertex_id(p.goal());
    let mut in_r = vec![false; grid.num_vertices()];
    in_r[goal] = !visited(goal);
    loop {
        let add: Vec<usize> = (0..grid.num_vertices())
            .filter(|&v| !in_r[v] && !visited(v) && (0..grid.num_vertices()).any(|u| in_r[u] && step(u, v)))
            .collect();
        if add.is_empty() {
            break;
        }
        add.into_iter().for_each(|v| in_r[v] = true);
    }
    let live = |v: usize| v == head || in_r[v];
    let open_end = |v: usize| v == head || !visited(v);
    let edge = |a: (usize, usize), b: (usize, usize)| grid.edge_between(grid.vertex_id(a), grid.vertex_id(b)).unwrap();
    let ends = |e: usize| {
        let all: Vec<(usize, usize)> = (0..grid.num_vertices())
            .flat_map(|a| grid.neighbours(a).map(move |b| (a, b)))
            .filter(|&(a, b)| a < b && grid.edge_between(a, b) == Some(e))
            .collect();
        all[0]
    };
    let usable = |e: usize| !p.is_broken(e) && !on_path(e) && live(ends(e).0) && live(ends(e).1);
    let sealed = |e: usize| !on_path(e) && !usable(e);
    // the shared edge of two side-adjacent squares
    let shared = |s: usize, t: usize| {
        let ((c1, r1), (c2, r2)) = (grid.square(s), grid.square(t));
        if r1 == r2 && c1.abs_diff(c2) == 1 {
            let c = c1.max(c2);
            Some(edge((c, r1), (c, r1 + 1)))
        } else if c1 == c2 && r1.abs_diff(r2) == 1 {
            let r = r1.max(r2);
            Some(edge((c1, r), (c1 + 1, r)))
        } else {
            None
        }
    };
    let n = grid.num_squares();
    let joined = closure(n, |s, t| shared(s, t).is_some_and(sealed));
    let open = closure(n, |s, t| shared(s, t).is_some_and(|e| !on_path(e)));
    let marks = p.marks();
    let mark_rows = marks
        .iter()
        .map(|x| {
            let count = |rel: &Vec<Vec<bool>>, want: &dyn Fn(&&Mark) -> bool| {
                marks.iter().filter(|y| y.square != x.square && rel[x.square][y.square]).filter(want).count() as i64
            };
            let same = |y: &&Mark| y.colour == x.colour;
            let other = |y: &&Mark| !y.star && y.colour != x.colour;
            let closed = (0..n).all(|t| !open[x.square][t] || joined[x.square][t]);
            [
                i64::from(x.colour),
                i64::from(x.star),
                count(&joined, &same),
                if x.star { 0 } else { count(&joined, &other) },
                count(&open, &same),
                i64::from(closed),
            ]
        })
        .collect();
    let dot_rows = p
        .dots()
        .iter()
        .map(|d| match *d {
            Dot::Vertex(v) => [i64::from(visited(v)), i64::from(live(v))],
            Dot::Edge(e) => [i64::from(on_path(e)), i64::from(on_path(e) || usable(e))],
        })
        .collect();
    let square_rows = p
        .constrained_squares()
        .iter()
        .map(|&s| {
            let sides = grid.square_edges(s);
            let within = |end: &dyn Fn(usize) -> bool| {
                sides.iter().filter(|&&e| !p.is_broken(e) && !on_path(e) && end(ends(e).0) && end(ends(e).1)).count()
                    as i64
            };
            [within(&open_end), within(&live)]
        })
        .collect();
    let reachable = head == goal || (0..grid.num_vertices()).any(|u| in_r[u] && step(u, head));
    (mark_rows, dot_rows, square_rows, i64::from(reachable))
}

#[test]
fn mark_dot_and_region_features_match_their_definitions() {
    let domain = Witness::new();
    let ids = domain.ids();
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (mut marks_seen, mut dots_seen, mut closed_seen, mut joined_seen) = (0, 0, 0, 0);
    for _ in 0..1500 {
        let p = random_puzzle(&mut rng);
        let path = random_path(&mut rng, &p);
        let view = ids.view(&p, &path);
        let (marks, dots, squares, reachable) = direct(&p, &path);
        let at = format!("{} path {}", p.to_ron(), path.to_text());
        let table = view.table(ids.mark);
        assert_eq!(table.len(), marks.len(), "{at}");
        let mark_features = [ids.colour, ids.star, ids.joined_same, ids.joined_other, ids.reach_same, ids.closed];
        for (i, row) in marks.iter().enumerate() {
            for (f, want) in mark_features.iter().zip(row) {
                assert_eq!(table.get(i, *f), *want, "mark {i} feature {f:?} of {at}");
            }
            closed_seen += usize::from(row[5] == 1);
            joined_seen += usize::from(row[2] > 0 || row[3] > 0);
        }
        let table = view.table(ids.dot);
        assert_eq!(table.len(), dots.len(), "{at}");
        for (i, row) in dots.iter().enumerate() {
            assert_eq!([table.get(i, ids.crossed), table.get(i, ids.reachable)], *row, "dot {i} of {at}");
        }
        let table = view.table(ids.square);
        for (i, row) in squares.iter().enumerate() {
            assert_eq!([table.get(i, ids.free), table.get(i, ids.live)], *row, "square {i} of {at}");
        }
        assert_eq!(view.globals[ids.goal_reachable.0 as usize], reachable, "{at}");
        marks_seen += marks.len();
        dots_seen += dots.len();
    }
    assert!(marks_seen > 2000 && dots_seen > 1000, "{marks_seen} marks, {dots_seen} dots");
    assert!(closed_seen > 200 && joined_seen > 200, "{closed_seen} closed, {joined_seen} joined");
}
