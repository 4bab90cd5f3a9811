//! Helpers shared by the Witness integration tests.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use stratsynth::domains::witness::{Grid, Puzzle};

/// A random puzzle with no solvability filter (many are unsolvable): start
/// (0, 0), a random border goal, each square holding 1-3 triangles with
/// probability `density`.
pub fn random_puzzle(rng: &mut ChaCha8Rng, w: usize, h: usize, density: f64) -> Puzzle {
    let grid = Grid::new(w, h);
    let border: Vec<_> = (1..grid.num_vertices()).map(|v| grid.vertex(v)).filter(|&v| grid.on_border(v)).collect();
    let goal = border[rng.gen_range(0..border.len())];
    let mut tri = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if rng.gen_bool(density) {
                tri.push((c, r, rng.gen_range(1..=3u8)));
            }
        }
    }
    Puzzle::new(w, h, (0, 0), goal, &tri).unwrap()
}
