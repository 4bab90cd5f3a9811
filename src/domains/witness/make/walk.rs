//! Random walks for the generators: a goal drawn among the border
//! vertices, and a random simple path from the start to it (Stevens'
//! Algorithm 4 as `generate` documents it).

use rand::Rng;

use crate::domains::witness::model::grid::Grid;

/// A goal uniformly among the border vertices other than the start (0, 0).
pub fn random_goal<R: Rng>(rng: &mut R, grid: Grid) -> (usize, usize) {
    let border: Vec<usize> = (1..grid.num_vertices()).filter(|&v| grid.on_border(grid.vertex(v))).collect();
    grid.vertex(border[rng.gen_range(0..border.len())])
}

/// A random simple path from `start` to `goal` (vertex ids) on `grid`: at
/// each step a uniformly chosen unvisited neighbour from which the goal is
/// still reachable through unvisited vertices.
pub fn random_path<R: Rng>(rng: &mut R, grid: Grid, start: usize, goal: usize) -> Vec<usize> {
    let mut visited = vec![false; grid.num_vertices()];
    visited[start] = true;
    let mut path = vec![start];
    let mut head = start;
    let mut stack = Vec::new();
    let mut seen = vec![false; grid.num_vertices()];
    while head != goal {
        let options: Vec<usize> = grid
            .neighbours(head)
            .filter(|&u| !visited[u])
            .filter(|&u| {
                // Is the goal reachable from u avoiding visited vertices?
                if u == goal {
                    return true;
                }
                seen.copy_from_slice(&visited);
                seen[u] = true;
                stack.clear();
                stack.push(u);
                while let Some(v) = stack.pop() {
                    for x in grid.neighbours(v) {
                        if x == goal {
                            return true;
                        }
                        if !seen[x] {
                            seen[x] = true;
                            stack.push(x);
                        }
                    }
                }
                false
            })
            .collect();
        // Invariant: the goal is reachable from the head, so `options` is
        // never empty; stop defensively if it were.
        if options.is_empty() {
            break;
        }
        head = options[rng.gen_range(0..options.len())];
        visited[head] = true;
        path.push(head);
    }
    path
}
