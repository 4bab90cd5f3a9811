//! The exact line solver on bit masks: the same answer as `solver` (the
//! maximal transition of a line, or no solution) for lines of at most
//! [`MAX_LINE`] cells held as two `u128` masks, computed with a handful of
//! word operations per hint instead of a table per (hint, cell).
//!
//! The dynamic program is the same one, run on sets of positions: a line
//! gets one extra cell at its end that must be empty (so every block is
//! followed by an empty cell), and a *boundary* `b` (0..=n+1) is the point
//! before cell `b`.
//! - forward, `A[j]`: the boundaries `b` such that cells `[0, b)` can hold
//!   exactly the first `j` blocks, with cell `b-1` empty (or `b = 0`);
//! - backward, `R[m]`: the boundaries `b` such that cells `[b, n+1)` can hold
//!   exactly the last `m` blocks, with cell `b` empty or a block's start;
//! - block `j` can start at `s` in some solution iff `s` is in `A[j]`, its
//!   cells may be filled, the cell after it may be empty and the boundary
//!   after that cell is in `R[k-1-j]`.
//!
//! A cell may be filled iff some block placement covers it; it may be empty
//! iff it separates a placed block from what follows, or is a free cell
//! between the `j`-th and `j+1`-th blocks. Moving a set of boundaries along
//! runs of cells that may be empty is done by doubling (7 steps for 128
//! bits), so the whole line costs O(k + n) word operations.

/// The longest line the bit solver holds: two of the 128 bits are the
/// padding cell and the boundary after it.
pub const MAX_LINE: usize = 126;

/// One line's known cells (bit `i` is cell `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Masks {
    /// Cells known filled.
    pub fill: u128,
    /// Cells known empty.
    pub empty: u128,
}

impl Masks {
    /// The cells known either way.
    #[inline]
    pub fn known(self) -> u128 {
        self.fill | self.empty
    }
}

/// The mask of the first `n` bits.
#[inline]
fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The boundaries reachable from `seeds` by stepping forward over cells in
/// `free` (boundary `b` to `b+1` over cell `b`).
#[inline]
fn smear_forward(seeds: u128, free: u128) -> u128 {
    let (mut reach, mut step) = (seeds, free);
    for s in [1, 2, 4, 8, 16, 32, 64] {
        reach |= (reach & step) << s;
        step &= step >> s;
    }
    reach
}

/// The boundaries reachable from `seeds` by stepping backward over cells in
/// `free` (boundary `b` to `b-1` over cell `b-1`).
#[inline]
fn smear_backward(seeds: u128, free: u128) -> u128 {
    // stepping from b to b-1 needs cell b-1 free: `free << 1` holds bit b
    let (mut reach, mut step) = (seeds, free << 1);
    for s in [1, 2, 4, 8, 16, 32, 64] {
        reach |= (reach & step) >> s;
        step &= step << s;
    }
    reach
}

/// The starts `s` where `h` cells from `s` all lie in `cells`.
#[inline]
fn fits(cells: u128, h: usize) -> u128 {
    let mut out = cells;
    for i in 1..h {
        out &= cells >> i;
    }
    out
}

/// The maximal transition of the line of `n` cells with `hints` and known
/// cells `m`: the known cells after the exact line solver, or `None` if no
/// solution extends the line. `n` is at most [`MAX_LINE`]; a zero hint has
/// no solution.
pub fn solve(hints: &[u32], n: usize, m: Masks) -> Option<Masks> {
    debug_assert!(n <= MAX_LINE);
    if hints.contains(&0) {
        return None;
    }
    let cells = low(n);
    // cells that may be empty (the padding cell n among them) or filled
    let may_empty = (!m.fill & cells) | 1 << n;
    let may_fill = !m.empty & cells;
    let k = hints.len();
    let mut forward = [0u128; 64];
    let mut forward_vec;
    let a: &mut [u128] = if k < 64 {
        &mut forward[..=k]
    } else {
        forward_vec = vec![0u128; k + 1];
        &mut forward_vec
    };
    a[0] = smear_forward(1, may_empty);
    for (j, &h) in hints.iter().enumerate() {
        let h = h as usize;
        if h > n {
            return None;
        }
        let starts = a[j] & fits(may_fill, h);
        a[j + 1] = smear_forward(((starts << h) & may_empty) << 1, may_empty);
    }
    if a[k] >> (n + 1) & 1 == 0 {
        return None;
    }
    let (mut can_fill, mut can_empty) = (0u128, 0u128);
    let mut r = smear_backward(1 << (n + 1), may_empty);
    for j in (0..=k).rev() {
        // r = R[k - j]: free cells between blocks j-1 and j
        can_empty |= a[j] & may_empty & (r >> 1);
        if j == 0 {
            break;
        }
        let h = hints[j - 1] as usize;
        let starts = ((may_empty & (r >> 1)) >> h) & fits(may_fill, h);
        let placed = a[j - 1] & starts;
        can_empty |= placed << h;
        for i in 0..h {
            can_fill |= placed << i;
        }
        r = smear_backward(starts, may_empty);
    }
    Some(Masks { fill: cells & !can_empty, empty: cells & !can_fill })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::{hints_of, solutions_by_hints, Cell, Line};
    use crate::domains::nonogram::line::solver::LineSolver;
    use rand::{Rng, SeedableRng};

    fn masks_of(cells: &[Cell]) -> Masks {
        let mut m = Masks::default();
        for (i, c) in cells.iter().enumerate() {
            match c {
                Cell::True => m.fill |= 1 << i,
                Cell::False => m.empty |= 1 << i,
                Cell::Unknown => {}
            }
        }
        m
    }

    /// The same answer as the table-based solver on one line.
    fn agree(solver: &mut LineSolver, hints: &[u32], cells: &[Cell]) {
        let expect = solver.solve(&Line::new(hints.to_vec(), cells.to_vec())).map(|c| masks_of(&c));
        assert_eq!(solve(hints, cells.len(), masks_of(cells)), expect, "{hints:?} {cells:?}");
    }

    /// Every hint sequence that fits (and some that do not) and every cell
    /// state, up to 8 cells.
    #[test]
    fn exhaustive_against_the_table_solver() {
        let mut solver = LineSolver::new();
        let mut checked = 0;
        for n in 0..=8usize {
            let mut by_hints = solutions_by_hints(n);
            by_hints.entry(vec![n as u32 + 1]).or_default();
            by_hints.entry(vec![1; n.div_ceil(2) + 1]).or_default();
            for hints in by_hints.keys() {
                for code in 0..3usize.pow(n as u32) {
                    let cells: Vec<Cell> = (0..n)
                        .map(|i| [Cell::Unknown, Cell::True, Cell::False][code / 3usize.pow(i as u32) % 3])
                        .collect();
                    agree(&mut solver, hints, &cells);
                    checked += 1;
                }
            }
        }
        assert!(checked > 300_000, "checked {checked}");
    }

    /// Random long lines (up to the longest) from random fillings, with
    /// cells revealed and sometimes flipped.
    #[test]
    fn long_random_lines_against_the_table_solver() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut solver = LineSolver::new();
        for _ in 0..3000 {
            let n = rng.gen_range(1..=MAX_LINE);
            let density = rng.gen_range(0.2..0.8);
            let sol: Vec<bool> = (0..n).map(|_| rng.gen_bool(density)).collect();
            let hints = hints_of(&sol);
            let reveal = rng.gen_range(0.0..0.6);
            let cells: Vec<Cell> = sol
                .iter()
                .map(|&v| if rng.gen_bool(reveal) { Cell::from_bool(v ^ rng.gen_bool(0.02)) } else { Cell::Unknown })
                .collect();
            agree(&mut solver, &hints, &cells);
        }
        agree(&mut solver, &[0], &[Cell::Unknown; 3]);
        agree(&mut solver, &[1; 64], &[Cell::Unknown; 126]);
    }
}
