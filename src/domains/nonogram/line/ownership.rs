//! Which hint can own each block and which hints can lie inside each gap,
//! over all solutions of a line (docs/reference/language.md, "Ownership
//! features"), read off the exact line solver's possible placements.
//!
//! A hint's block placed at `[p, p + h)` in some solution lies inside one
//! gap (its cells are not false) and contains whole blocks (the cells just
//! outside it are not true): that placement makes the hint a fit of the
//! gap and an owner of each block inside it. The least and greatest such
//! hints are the features.

use super::model::Line;
use super::solver::{placements, HintRange};

/// The least and greatest index of a hint with some property, or `k` and
/// `-1` (on a line of `k` hints) if none has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extremes {
    /// The least index.
    pub first: i64,
    /// The greatest index.
    pub last: i64,
}

impl Extremes {
    fn none(k: usize) -> Extremes {
        Extremes { first: k as i64, last: -1 }
    }

    fn add(&mut self, i: usize) {
        self.first = self.first.min(i as i64);
        self.last = self.last.max(i as i64);
    }
}

/// What the solutions of a valid line say about its hints, blocks and gaps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ownership {
    /// Each hint's earliest and latest start.
    pub ranges: Vec<HintRange>,
    /// Per block (in order): the hints whose run contains it in some
    /// solution (`first_owner`, `last_owner`).
    pub blocks: Vec<Extremes>,
    /// Per gap (in order): the hints whose run lies inside it in some
    /// solution (`first_fit`, `last_fit`).
    pub gaps: Vec<Extremes>,
}

/// The ownership of `line`'s blocks and gaps, or `None` if no solution
/// extends it.
pub fn ownership(line: &Line) -> Option<Ownership> {
    let (ranges, starts) = placements(line)?;
    let k = line.hints.len();
    let (blocks, gaps) = (line.blocks(), line.gaps());
    // the gap holding each cell; the first block starting at or after each cell
    let mut gap_of = vec![usize::MAX; line.len()];
    for (g, &(s, len)) in gaps.iter().enumerate() {
        gap_of[s..s + len].fill(g);
    }
    let mut block_from = vec![blocks.len(); line.len() + 1];
    for c in (0..line.len()).rev() {
        let next = block_from[c + 1];
        block_from[c] = if next > 0 && blocks[next - 1].0 == c { next - 1 } else { next };
    }
    let mut owners = vec![Extremes::none(k); blocks.len()];
    let mut fits = vec![Extremes::none(k); gaps.len()];
    for (j, p) in starts {
        let end = p + line.hints[j] as usize;
        fits[gap_of[p]].add(j);
        for owner in &mut owners[block_from[p]..block_from[end.min(line.len())]] {
            owner.add(j);
        }
    }
    Some(Ownership { ranges, blocks: owners, gaps: fits })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Ownership {
        ownership(&text.parse().unwrap()).unwrap()
    }

    #[test]
    fn blocks_too_far_apart_for_the_2_and_the_3_belong_to_the_6() {
        let o = of("2 6 3 | ..........#..#x...");
        assert_eq!(o.blocks, vec![Extremes { first: 1, last: 1 }; 2]);
        // the 2 and the 6 lie in the first gap, the 3 in the last
        assert_eq!(o.gaps, vec![Extremes { first: 0, last: 1 }, Extremes { first: 2, last: 2 }]);
        // with room after the cross, the 3 can own the second block
        let o = of("2 6 3 | ..........#..#....");
        assert_eq!(o.blocks, vec![Extremes { first: 1, last: 1 }, Extremes { first: 1, last: 2 }]);
    }

    #[test]
    fn a_gap_no_hint_can_use_has_no_fit() {
        // the 2 cannot lie in the first gap; a line without hints fits nothing
        let o = of("2 | .x...");
        assert_eq!(o.gaps, vec![Extremes { first: 1, last: -1 }, Extremes { first: 0, last: 0 }]);
        let o = of(" | ...");
        assert_eq!(o.gaps, vec![Extremes { first: 0, last: -1 }]);
        assert!(ownership(&"1 | #x#".parse().unwrap()).is_none());
    }
}
