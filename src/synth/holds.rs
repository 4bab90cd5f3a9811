//! Which of a lattice walk's live atoms (those true on the specification)
//! hold on which example pairs: one pair's row computed in one pass over
//! compact comparisons ([`LiveAtoms`]), and a node's rows kept by word of
//! pairs ([`Holds`]), so that adding a pair writes its row in atom order
//! instead of one bit in each of tens of thousands of per-atom sets, and
//! adding many pairs at once writes 64 of them at a time by transposing
//! squares of 64 by 64 bits; and the live atoms grouped by equal columns
//! ([`Groups`]), the groups split as pairs join rather than found again.

use super::bits::Bits;
use super::space::Atom;
use super::table::Space;
use crate::dsl::ast::{CmpOp, Var};
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
/// on, `v is unique where` a comparison as that comparison on the pair
/// and on the bindings that differ from it in `v` alone, any other atom
/// by the interpreter.
pub(super) struct LiveAtoms {
    /// The live comparisons, by runs of consecutive places over the same
    /// two terms (the comparisons of two terms are made together, and
    /// three of their six hold on the specification).
    cmps: Vec<CmpRun>,
    /// Per live `v is unique where (comparison)`: its place, `v`, and the
    /// comparison as in `cmps`.
    uniques: Vec<(u32, Var, u8, u32, u32)>,
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

/// Whether `x` against `y` is one of the orderings of `mask` (as in
/// [`orderings`]).
fn ordered(mask: u8, x: i64, y: i64) -> bool {
    let order = (x > y) as u8 * 2 + (x == y) as u8;
    (mask >> order) & 1 == 1
}

/// Live comparisons of the same two terms at consecutive places: one
/// ordering of the terms decides them all.
struct CmpRun {
    /// The place of the first.
    first: u32,
    left: u32,
    right: u32,
    /// Per ordering of left against right (less, equal, greater), the
    /// comparisons of the run that hold (bit i: the one at `first + i`).
    holding: [u64; 3],
}

/// The live comparisons `(place, orderings, left, right)`, ascending by
/// place, as runs.
fn cmp_runs(cmps: &[(u32, u8, u32, u32)]) -> Vec<CmpRun> {
    let mut runs: Vec<CmpRun> = vec![];
    for &(k, mask, l, r) in cmps {
        let run = match runs.last_mut() {
            Some(run) if (run.left, run.right) == (l, r) && k - run.first < 64 && k == run.first + run.len() => run,
            _ => {
                runs.push(CmpRun { first: k, left: l, right: r, holding: [0; 3] });
                runs.last_mut().expect("just pushed")
            }
        };
        let bit = k - run.first;
        for (order, holding) in run.holding.iter_mut().enumerate() {
            *holding |= u64::from(mask >> order & 1) << bit;
        }
    }
    runs
}

impl CmpRun {
    /// How many comparisons the run has so far (its highest place's
    /// bit in any ordering, plus one: each holds on some ordering).
    fn len(&self) -> u32 {
        64 - (self.holding[0] | self.holding[1] | self.holding[2]).leading_zeros()
    }
}

impl LiveAtoms {
    /// The atoms of `atoms` whose indices are `live` (ascending).
    pub(super) fn new(atoms: &[Atom], live: &[usize]) -> LiveAtoms {
        let (mut cmps, mut uniques, mut others) = (vec![], vec![], vec![]);
        for (k, &a) in live.iter().enumerate() {
            match (atoms[a].cmp, atoms[a].unique) {
                (Some((op, l, r)), _) => cmps.push((k as u32, orderings(op), l as u32, r as u32)),
                (None, Some((v, op, l, r))) => uniques.push((k as u32, v, orderings(op), l as u32, r as u32)),
                (None, None) => others.push((k, a)),
            }
        }
        LiveAtoms { cmps: cmp_runs(&cmps), uniques, others, count: live.len() }
    }

    /// The live atoms (by place) that hold on a pair whose term values
    /// (of `space`'s terms) are `values`.
    pub(super) fn row(&self, space: &Space, values: &[i64], interp: &Interpreter<'_>, binding: &Binding) -> Bits {
        let mut row = Bits(vec![0; self.count.div_ceil(64)]);
        for run in &self.cmps {
            let (x, y) = (values[run.left as usize], values[run.right as usize]);
            let holding = run.holding[(x > y) as usize * 2 + (x == y) as usize];
            let (word, shift) = (run.first as usize / 64, run.first % 64);
            row.0[word] |= holding << shift;
            if shift > 0 {
                if let Some(next) = row.0.get_mut(word + 1) {
                    *next |= holding >> (64 - shift);
                }
            }
        }
        // per variable, the term values of the bindings that differ from
        // this one in it alone (computed when first needed)
        let mut alternatives: Vec<Option<Vec<Vec<i64>>>> = vec![None; binding.len()];
        for &(k, v, mask, l, r) in &self.uniques {
            let (l, r) = (l as usize, r as usize);
            if !ordered(mask, values[l], values[r]) {
                continue;
            }
            let others = alternatives[v as usize].get_or_insert_with(|| {
                let mut other = binding.clone();
                (0..interp.elements(v))
                    .filter(|&e| e != binding[v as usize])
                    .map(|e| {
                        other[v as usize] = e;
                        space.term_values(interp, &other)
                    })
                    .collect()
            });
            if others.iter().all(|o| !ordered(mask, o[l], o[r])) {
                row.set(k as usize);
            }
        }
        for &(k, a) in &self.others {
            if holds(&space.atoms[a], values, interp, binding) {
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

    /// Pairs `first`, `first + 1`, ... hold the atoms of `rows`, in order
    /// (pairs are added in order): the pairs of a word at a time by
    /// transposing squares of 64 by 64 bits where the word gets at least
    /// [`TRANSPOSE_FROM`] of them, one pair at a time by its row's atoms
    /// otherwise.
    pub(super) fn extend(&mut self, first: usize, rows: &[&Bits]) {
        let end = first + rows.len();
        while self.words.len() * 64 < end {
            self.words.push(vec![0; self.atoms].into());
        }
        let mut pair = first;
        while pair < end {
            let w = pair / 64;
            let upto = end.min((w + 1) * 64);
            let these = &rows[pair - first..upto - first];
            if these.len() >= TRANSPOSE_FROM {
                transpose_into(&mut self.words[w], pair % 64, these);
            } else {
                for (i, row) in these.iter().enumerate() {
                    let bit = 1u64 << ((pair + i) % 64);
                    for k in row.ones() {
                        self.words[w][k] |= bit;
                    }
                }
            }
            pair = upto;
        }
    }

    /// The word of pairs `64w` to `64w + 63` of live atom `k`.
    pub(super) fn word(&self, w: usize, k: usize) -> u64 {
        self.words.get(w).map_or(0, |block| block[k])
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

/// The live atoms (by place) grouped by equal columns over a node's
/// pairs, each group ascending: groups only split as pairs join, so each
/// new word of pairs splits them further.
#[derive(Clone)]
pub(super) struct Groups {
    /// The pairs the groups are over.
    pairs: usize,
    groups: Vec<Vec<u32>>,
}

impl Groups {
    /// One group of `atoms` live atoms, over no pairs.
    pub(super) fn new(atoms: usize) -> Groups {
        Groups { pairs: 0, groups: if atoms == 0 { vec![] } else { vec![(0..atoms as u32).collect()] } }
    }

    /// The pairs the groups are over.
    pub(super) fn pairs(&self) -> usize {
        self.pairs
    }

    /// The groups over the first `pairs` pairs of `holds` (at least as
    /// many as last time).
    pub(super) fn refine(&mut self, holds: &Holds, pairs: usize) -> &[Vec<u32>] {
        // the word the last pairs ended in is read again whole: its older
        // bits are equal within a group
        for w in self.pairs / 64..pairs.div_ceil(64) {
            let mut split = Vec::with_capacity(self.groups.len());
            for group in self.groups.drain(..) {
                if group.len() == 1 {
                    split.push(group);
                    continue;
                }
                let mut keyed: Vec<(u64, u32)> = group.iter().map(|&k| (holds.word(w, k as usize), k)).collect();
                keyed.sort_unstable();
                split.extend(keyed.chunk_by(|x, y| x.0 == y.0).map(|run| run.iter().map(|&(_, k)| k).collect()));
            }
            self.groups = split;
        }
        self.pairs = pairs;
        &self.groups
    }
}

/// Whether live atom `k` of `holds` holds on each of its first `pairs`
/// pairs.
pub(super) fn holds_on_all(holds: &Holds, k: usize, pairs: usize) -> bool {
    (0..pairs.div_ceil(64)).all(|w| {
        let width = (pairs - w * 64).min(64);
        let full = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        holds.word(w, k) & full == full
    })
}

/// The fewest pairs of a word that [`Holds::extend`] writes by
/// transposing (below it, setting each row's atoms' bits is cheaper).
const TRANSPOSE_FROM: usize = 8;

/// Sets, in `block` (a word of pairs per atom), bit `offset + i` of atom
/// `k` where `rows[i]` holds atom `k` (`offset + rows.len()` at most 64).
fn transpose_into(block: &mut [u64], offset: usize, rows: &[&Bits]) {
    let mut square = [0u64; 64];
    for (j, atoms) in block.chunks_mut(64).enumerate() {
        for (i, row) in rows.iter().enumerate() {
            square[offset + i] = row.0.get(j).copied().unwrap_or(0);
        }
        transpose(&mut square);
        for (word, column) in atoms.iter_mut().zip(&square) {
            *word |= column;
        }
        square = [0; 64];
    }
}

/// Transposes a square of 64 by 64 bits in place (bit `c` of word `r`
/// goes to bit `r` of word `c`), by swapping off-diagonal blocks of
/// halving sizes.
fn transpose(square: &mut [u64; 64]) {
    let (mut size, mut mask) = (32, 0x0000_0000_FFFF_FFFFu64);
    while size != 0 {
        let mut r = 0;
        while r < 64 {
            let t = ((square[r] >> size) ^ square[r + size]) & mask;
            square[r] ^= t << size;
            square[r + size] ^= t;
            r = (r + size + 1) & !size;
        }
        size >>= 1;
        mask ^= mask << size;
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

    /// On the nonogram space over a hint and a block (three of each, with
    /// features far apart), every atom as live: each pair's row is what
    /// the interpreter says of each atom, `unique where` ones included.
    #[test]
    fn a_row_is_what_the_interpreter_says() {
        use crate::dsl::schema::Schema;
        use crate::synth::space::{atoms, hint_and_block_view, int_terms, TermPlan};
        let s = Schema::nonogram();
        let types = [s.type_id("hint").unwrap(), s.type_id("block").unwrap()];
        let terms = int_terms(&s, &types, 5);
        let space = Space { plan: TermPlan::new(&terms), atoms: atoms(&s, &types, &terms, 2, 7), terms, table: None };
        let uniques = space.atoms.iter().filter(|a| a.unique.is_some()).count();
        assert!(uniques > 100, "{uniques}");
        // three elements of each type, with few feature values (ties)
        let (rule, view) = hint_and_block_view(&s, &types, 3, (13, 4));
        let interp = Interpreter::new(&rule, &view, s.size_feature);
        let all: Vec<usize> = (0..space.atoms.len()).collect();
        let live = LiveAtoms::new(&space.atoms, &all);
        let mut held = 0;
        for binding in (0..3).flat_map(|h| (0..3).map(move |b| vec![h, b])) {
            let row = live.row(&space, &space.term_values(&interp, &binding), &interp, &binding);
            for (k, atom) in space.atoms.iter().enumerate() {
                assert_eq!(row.get(k), interp.eval_bool(&atom.expr, &binding), "{:?} {binding:?}", atom.expr);
                held += usize::from(row.get(k) && atom.unique.is_some());
            }
        }
        assert!(held > 50, "{held}");
    }

    /// Pairs added one at a time and in batches of every size (both ways
    /// of writing a word, words shared by batches) give the columns of
    /// the rows.
    #[test]
    fn columns_are_the_rows_transposed() {
        let rows: Vec<Bits> =
            (0..300).map(|p| (0..150).filter(|k| (p * 7 + k * 3 + p * k) % 5 < 2).collect()).collect();
        for batch in [1, 2, 7, 8, 9, 63, 64, 65, 100, 300] {
            let mut holds = Holds::new(150);
            for (b, chunk) in rows.chunks(batch).enumerate() {
                holds.extend(b * batch, &chunk.iter().collect::<Vec<&Bits>>());
            }
            for k in 0..150 {
                let expected: Bits = (0..300).filter(|&p| rows[p].get(k)).collect();
                assert_eq!(holds.column(k), expected, "atom {k}, batches of {batch}");
            }
        }
    }

    /// Groups refined word by word as pairs join are the atoms with equal
    /// columns, whatever the batches.
    #[test]
    fn groups_are_the_equal_columns() {
        let rows: Vec<Bits> = (0..200).map(|p| (0..90).filter(|k| (p * k % 7 + k % 3) % 4 == 0).collect()).collect();
        let mut holds = Holds::new(90);
        let mut groups = Groups::new(90);
        let mut added = 0;
        for batch in [1, 3, 60, 70, 66] {
            holds.extend(added, &rows[added..added + batch].iter().collect::<Vec<&Bits>>());
            added += batch;
            let mut got = groups.refine(&holds, added).to_vec();
            got.sort();
            let mut expect: Vec<Vec<u32>> = vec![];
            for k in 0..90u32 {
                match expect.iter_mut().find(|g| holds.column(g[0] as usize) == holds.column(k as usize)) {
                    Some(g) => g.push(k),
                    None => expect.push(vec![k]),
                }
            }
            assert_eq!(got, expect, "after {added} pairs");
            for k in 0..90 {
                assert_eq!(holds_on_all(&holds, k, added), holds.column(k).count() == added, "{k} {added}");
            }
        }
    }

    #[test]
    fn transposes_a_square() {
        let mut square = [0u64; 64];
        for (r, word) in square.iter_mut().enumerate() {
            *word = (r as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let original = square;
        transpose(&mut square);
        for (r, row) in original.iter().enumerate() {
            for (c, column) in square.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "{r} {c}");
            }
        }
    }
}
