//! Which of a lattice walk's live atoms (those true on the specification)
//! hold on which example pairs: one pair's row computed in one pass over
//! compact comparisons ([`LiveAtoms`]), and a node's rows kept by word of
//! pairs ([`Holds`]), so that adding a pair writes its row in atom order
//! instead of one bit in each of tens of thousands of per-atom sets.

use super::bits::Bits;
use super::space::Atom;
use crate::dsl::ast::CmpOp;
use crate::dsl::eval::{Binding, Interpreter};

/// Whether an atom holds on a pair whose term values are `values`.
pub(super) fn holds(atom: &Atom, values: &[i64], interp: &Interpreter<'_>, binding: &Binding) -> bool {
    match atom.cmp {
        Some((op, l, r)) => op.holds(values[l], values[r]),
        None => interp.eval_bool(&atom.expr, binding),
    }
}

/// The live atoms of one walk, ready to be evaluated on a pair from its
/// term values: a comparison as the orderings of its two sides it holds
/// on, any other atom by the interpreter.
pub(super) struct LiveAtoms {
    /// Per live comparison: its place among the live atoms, the orderings
    /// it holds on (bit 0: less, 1: equal, 2: greater) and its two terms.
    cmps: Vec<(u32, u8, u32, u32)>,
    /// Per other live atom: its place among the live atoms and its index.
    others: Vec<(usize, usize)>,
    count: usize,
}

/// The orderings of `l` against `r` on which `op` holds (bit 0: less, 1:
/// equal, 2: greater).
fn orderings(op: CmpOp) -> u8 {
    match op {
        CmpOp::Eq => 0b010,
        CmpOp::Ne => 0b101,
        CmpOp::Ge => 0b110,
        CmpOp::Gt => 0b100,
        CmpOp::Le => 0b011,
        CmpOp::Lt => 0b001,
    }
}

impl LiveAtoms {
    /// The atoms of `atoms` whose indices are `live` (ascending).
    pub(super) fn new(atoms: &[Atom], live: &[usize]) -> LiveAtoms {
        let (mut cmps, mut others) = (vec![], vec![]);
        for (k, &a) in live.iter().enumerate() {
            match atoms[a].cmp {
                Some((op, l, r)) => cmps.push((k as u32, orderings(op), l as u32, r as u32)),
                None => others.push((k, a)),
            }
        }
        LiveAtoms { cmps, others, count: live.len() }
    }

    /// The live atoms (by place) that hold on a pair whose term values
    /// are `values`.
    pub(super) fn row(&self, atoms: &[Atom], values: &[i64], interp: &Interpreter<'_>, binding: &Binding) -> Bits {
        let mut row = Bits(vec![0; self.count.div_ceil(64)]);
        for &(k, mask, l, r) in &self.cmps {
            let (x, y) = (values[l as usize], values[r as usize]);
            let order = (x > y) as u8 * 2 + (x == y) as u8;
            row.0[k as usize / 64] |= (((mask >> order) & 1) as u64) << (k % 64);
        }
        for &(k, a) in &self.others {
            if holds(&atoms[a], values, interp, binding) {
                row.set(k);
            }
        }
        row
    }
}

/// Per live atom, the pairs it holds on, stored by word of pairs: the
/// word of pairs 64w to 64w + 63 of atom k is `words[w][k]`.
#[derive(Clone)]
pub(super) struct Holds {
    atoms: usize,
    words: Vec<Box<[u64]>>,
}

impl Holds {
    /// No pairs yet, over `atoms` live atoms.
    pub(super) fn new(atoms: usize) -> Holds {
        Holds { atoms, words: vec![] }
    }

    /// Pair `pair` holds the atoms of `row` (pairs are added in order).
    pub(super) fn add(&mut self, pair: usize, row: &Bits) {
        let w = pair / 64;
        while self.words.len() <= w {
            self.words.push(vec![0; self.atoms].into());
        }
        let (block, bit) = (&mut self.words[w], 1u64 << (pair % 64));
        for k in row.ones() {
            block[k] |= bit;
        }
    }

    /// The pairs live atom `k` holds on, into `out`.
    pub(super) fn column_into(&self, k: usize, out: &mut Bits) {
        out.0.clear();
        out.0.extend(self.words.iter().map(|block| block[k]));
    }

    /// The pairs live atom `k` holds on.
    pub(super) fn column(&self, k: usize) -> Bits {
        let mut out = Bits::new();
        self.column_into(k, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orderings_are_the_operators() {
        for op in CmpOp::ALL {
            for (x, y) in [(1, 2), (2, 2), (3, 2), (-5, 7), (i64::MIN, i64::MAX)] {
                let order = (x > y) as u8 * 2 + (x == y) as u8;
                assert_eq!((orderings(op) >> order) & 1 == 1, op.holds(x, y), "{op:?} {x} {y}");
            }
        }
    }

    #[test]
    fn columns_are_the_rows_transposed() {
        let rows: Vec<Bits> = (0..150).map(|p| (0..70).filter(|k| (p * 7 + k * 3) % 5 < 2).collect()).collect();
        let mut holds = Holds::new(70);
        for (p, row) in rows.iter().enumerate() {
            holds.add(p, row);
        }
        for k in 0..70 {
            let expected: Bits = (0..150).filter(|&p| rows[p].get(k)).collect();
            assert_eq!(holds.column(k), expected, "atom {k}");
        }
    }
}
