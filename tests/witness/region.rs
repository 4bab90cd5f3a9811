//! The region features of `board::region` (R, `free`, `live`,
//! `goal_reachable`, incremental steps) against their definitions in
//! docs/reference/language.md, computed by a plain search over vertex ids, on every partial
//! path of small puzzles with and without broken edges.

use stratsynth::domains::witness::board::oracle::enumerate_partial_paths;
use stratsynth::domains::witness::board::path::Path;
use stratsynth::domains::witness::board::region::{Masks, Region};
use stratsynth::domains::witness::formats::puzzle::{Constraints, Puzzle};

/// The definitions, by a plain breadth-first search over vertex ids.
fn reference(puzzle: &Puzzle, path: &Path) -> (Vec<(u8, u8)>, bool) {
    let grid = puzzle.grid();
    let goal = grid.vertex_id(puzzle.goal());
    let head = path.head_id();
    let unvisited = |v: usize| !path.visited().contains(v);
    let mut region = vec![false; grid.num_vertices()];
    let mut stack = vec![];
    if unvisited(goal) {
        region[goal] = true;
        stack.push(goal);
    }
    while let Some(v) = stack.pop() {
        for u in grid.neighbours(v) {
            let broken = puzzle.is_broken(grid.edge_between(u, v).unwrap());
            if unvisited(u) && !region[u] && !broken {
                region[u] = true;
                stack.push(u);
            }
        }
    }
    let per_square = (0..grid.num_squares())
        .map(|s| {
            let (c, e) = (grid.square_corners(s), grid.square_edges(s));
            let sides = |ok: &dyn Fn(usize) -> bool| {
                (0..4).filter(|&k| ok(c[k]) && ok(c[(k + 1) % 4]) && !puzzle.is_broken(e[k])).count() as u8
            };
            (sides(&|v| unvisited(v) || v == head), sides(&|v| region[v] || v == head))
        })
        .collect();
    let reachable = head == goal
        || grid.neighbours(head).any(|u| region[u] && !puzzle.is_broken(grid.edge_between(u, head).unwrap()));
    (per_square, reachable)
}

#[test]
fn region_features_match_their_definitions() {
    let mut states = 0;
    let broken = vec![((1, 0), (1, 1)), ((1, 1), (2, 1)), ((0, 2), (1, 2))];
    let cases = [(2, 2, (0, 0), (2, 2)), (3, 2, (1, 1), (0, 2)), (3, 3, (1, 1), (3, 1))];
    for ((w, h, start, goal), broken) in cases.into_iter().flat_map(|c| [(c, vec![]), (c, broken.clone())]) {
        let constraints = Constraints { broken, ..Constraints::default() };
        let puzzle = Puzzle::with_constraints(w, h, start, goal, &constraints).unwrap();
        let masks = Masks::new(&puzzle);
        enumerate_partial_paths(&puzzle, &mut |path| {
            states += 1;
            let region = Region::new(&masks, &puzzle, path);
            let ids: Vec<usize> = path.vertex_ids().collect();
            if let [.., before, head] = ids[..] {
                let mut parent = path.clone();
                parent.pop();
                let parent_region = Region::new(&masks, &puzzle, &parent);
                assert_eq!(parent_region.step(&masks, head), region);
                assert_eq!(region.unstep(&masks, before), parent_region);
            }
            let (per_square, reachable) = reference(&puzzle, path);
            assert_eq!(region.goal_reachable(&masks), reachable, "{}", path.to_text());
            for (s, &(free, live)) in per_square.iter().enumerate() {
                assert_eq!(
                    (region.free(&masks, s), region.live(&masks, s)),
                    (free, live),
                    "square {s}, {}",
                    path.to_text()
                );
            }
        });
    }
    assert!(states > 500, "{states}");
}
