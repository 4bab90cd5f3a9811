//! Random pictures and the search for acceptable ones. Candidate `i` of a
//! seed is drawn from its own ChaCha8 stream (seed `seed`, stream `i`), so
//! it is the same whatever else is drawn; candidates are judged in parallel
//! in batches and kept in index order, so the puzzles found are the first
//! acceptable candidates by index, for any thread count.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::picture::Picture;

/// Mirror symmetry of a random picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// None.
    None,
    /// Each row reads the same from the right (mirror across the middle column).
    Horizontal,
    /// Each column reads the same from the bottom (mirror across the middle row).
    Vertical,
}

impl Symmetry {
    /// Every symmetry, by name (as `--symmetry` takes it).
    pub const NAMES: [(&'static str, Symmetry); 3] =
        [("none", Symmetry::None), ("horizontal", Symmetry::Horizontal), ("vertical", Symmetry::Vertical)];

    /// The symmetry's name.
    pub fn name(self) -> &'static str {
        Symmetry::NAMES.iter().find(|(_, s)| *s == self).map_or("none", |(n, _)| n)
    }
}

impl std::str::FromStr for Symmetry {
    type Err = String;

    fn from_str(text: &str) -> Result<Symmetry, String> {
        Symmetry::NAMES
            .iter()
            .find(|(n, _)| *n == text)
            .map(|(_, s)| *s)
            .ok_or_else(|| format!("expected none, horizontal or vertical, found {text:?}"))
    }
}

/// What random pictures look like.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The chance that a cell is black.
    pub density: f64,
    /// Mirror symmetry.
    pub symmetry: Symmetry,
}

/// Candidate `index` of `seed`: each free cell black with the shape's
/// density, the mirrored cells copied.
pub fn random_picture(shape: &Shape, seed: u64, index: u64) -> Picture {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let (w, h) = (shape.width, shape.height);
    let mut cells = vec![false; w * h];
    for r in 0..h {
        for c in 0..w {
            let source = match shape.symmetry {
                Symmetry::Horizontal if c >= w.div_ceil(2) => Some(r * w + (w - 1 - c)),
                Symmetry::Vertical if r >= h.div_ceil(2) => Some((h - 1 - r) * w + c),
                _ => None,
            };
            cells[r * w + c] = match source {
                Some(p) => cells[p],
                None => rng.gen_bool(shape.density),
            };
        }
    }
    Picture { title: None, width: w, height: h, cells }
}

/// Candidates judged per batch (per thread, about).
const BATCH: u64 = 64;

/// The first `count` candidates (by index, below `max_candidates`) that
/// `accept` keeps, each with its index; and the number of candidates
/// judged. `progress` is told the candidates judged and kept after each
/// batch, and stops the search by returning `false`.
pub fn first_accepted<T: Send>(
    shape: &Shape,
    seed: u64,
    count: usize,
    max_candidates: u64,
    accept: impl Fn(u64, &Picture) -> Option<T> + Sync,
    mut progress: impl FnMut(u64, usize) -> bool,
) -> (Vec<(u64, Picture, T)>, u64) {
    let batch = BATCH * rayon::current_num_threads() as u64;
    let mut kept = vec![];
    let mut next = 0;
    let mut going = true;
    while going && kept.len() < count && next < max_candidates {
        let end = (next + batch).min(max_candidates);
        let cancel = crate::deadline::current();
        let found: Vec<(u64, Picture, T)> = (next..end)
            .into_par_iter()
            .filter_map(|i| {
                let picture = random_picture(shape, seed, i);
                crate::deadline::carry(cancel.as_ref(), || accept(i, &picture)).map(|t| (i, picture, t))
            })
            .collect();
        kept.extend(found);
        next = end;
        going = progress(next, kept.len().min(count));
    }
    // the judged candidates past the count-th kept one change nothing
    kept.truncate(count);
    let judged = kept.last().filter(|_| kept.len() == count).map_or(next, |(i, _, _)| i + 1);
    (kept, judged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_symmetric_and_independent_of_threads() {
        let shape = Shape { width: 5, height: 4, density: 0.5, symmetry: Symmetry::Horizontal };
        let p = random_picture(&shape, 3, 7);
        for r in 0..4 {
            let row = &p.cells[r * 5..(r + 1) * 5];
            assert!(row.iter().eq(row.iter().rev()), "row {r} of {:?}", p.cells);
        }
        let vertical = random_picture(&Shape { symmetry: Symmetry::Vertical, ..shape }, 3, 7);
        assert_eq!(vertical.cells[0..5], vertical.cells[15..20]);
        assert_ne!(random_picture(&shape, 3, 7), random_picture(&shape, 3, 8));
        // keep candidates with an even number of black cells
        let even = |_: u64, p: &Picture| (p.cells.iter().filter(|&&b| b).count() % 2 == 0).then_some(());
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| first_accepted(&shape, 1, 5, 10_000, even, |_, _| true))
        };
        let (one, judged) = run(1);
        let (three, _) = run(3);
        assert_eq!(one.len(), 5);
        assert_eq!(one.iter().map(|k| k.0).collect::<Vec<_>>(), three.iter().map(|k| k.0).collect::<Vec<_>>());
        assert_eq!(judged, one[4].0 + 1);
    }
}
