//! Sets of small integers as bit words: the pairs of a lattice node's
//! examples (bad, good, those an atom holds on) and of the table's pairs,
//! intersected and compared word by word.

/// A set of small integers (pair indices); grows as bits are set, and
/// treats every bit beyond its words as clear. Equality and hashing are of
/// the set: trailing empty words (left by `and`, `minus`) do not count.
#[derive(Clone, Debug, Default)]
pub struct Bits(pub(crate) Vec<u64>);

impl Bits {
    /// The words up to the last non-empty one.
    fn significant(&self) -> &[u64] {
        let len = self.0.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        &self.0[..len]
    }
}

impl PartialEq for Bits {
    fn eq(&self, other: &Bits) -> bool {
        self.significant() == other.significant()
    }
}

impl Eq for Bits {}

impl std::hash::Hash for Bits {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.significant().hash(state);
    }
}

impl Bits {
    /// The empty set.
    pub fn new() -> Bits {
        Bits(vec![])
    }

    /// Adds `i`.
    pub fn set(&mut self, i: usize) {
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether `i` is in the set.
    pub fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// How many elements.
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The elements, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            // lowest set bit first, cleared as it is yielded
            let mut w = word;
            std::iter::from_fn(move || {
                let b = (w != 0).then(|| w.trailing_zeros() as usize)?;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }

    /// `self ∩ other`
    pub fn and(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    /// `self \ other`
    pub fn minus(&self, other: &Bits) -> Bits {
        Bits(self.0.iter().enumerate().map(|(i, a)| a & !other.0.get(i).copied().unwrap_or(0)).collect())
    }

    /// `out = self \ other`, reusing `out`'s storage.
    pub fn minus_into(&self, other: &Bits, out: &mut Bits) {
        out.0.clear();
        out.0.extend(self.0.iter().enumerate().map(|(i, a)| a & !other.0.get(i).copied().unwrap_or(0)));
    }

    /// `out = self ∩ other`, reusing `out`'s storage.
    pub fn and_into(&self, other: &Bits, out: &mut Bits) {
        out.0.clear();
        out.0.extend(self.0.iter().zip(&other.0).map(|(a, b)| a & b));
    }

    /// `|self ∩ other|`
    pub fn and_count(&self, other: &Bits) -> usize {
        self.0.iter().zip(&other.0).map(|(a, b)| (a & b).count_ones() as usize).sum()
    }

    /// `self ∪ other`
    pub fn union(&self, other: &Bits) -> Bits {
        let (long, short) = if self.0.len() >= other.0.len() { (self, other) } else { (other, self) };
        let mut out = long.clone();
        out.0.iter_mut().zip(&short.0).for_each(|(a, b)| *a |= b);
        out
    }

    /// Whether `self ⊆ other`.
    pub fn is_subset(&self, other: &Bits) -> bool {
        self.0.iter().enumerate().all(|(i, a)| a & !other.0.get(i).copied().unwrap_or(0) == 0)
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(items: I) -> Bits {
        let mut b = Bits::new();
        items.into_iter().for_each(|i| b.set(i));
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(set: &[usize]) -> Bits {
        set.iter().copied().collect()
    }

    #[test]
    fn unions_and_sets_with_trailing_empty_words_compare_as_sets() {
        use std::hash::BuildHasher;
        let (a, b) = (bits(&[1, 70]), bits(&[3]));
        assert_eq!(a.union(&b), bits(&[1, 3, 70]));
        assert_eq!(b.union(&a), bits(&[1, 3, 70]));
        // {3} reached by intersecting with a longer set keeps an empty word
        let mut meet = Bits::new();
        bits(&[3, 70]).and_into(&bits(&[3, 100]), &mut meet);
        assert_eq!(meet.0.len(), 2);
        assert_eq!(meet, b);
        let hasher = rustc_hash::FxBuildHasher;
        assert_eq!(hasher.hash_one(&meet), hasher.hash_one(&b));
        let empty = bits(&[130]).minus(&bits(&[130]));
        assert_eq!(empty, Bits::new());
        assert_eq!(hasher.hash_one(&empty), hasher.hash_one(Bits::new()));
        assert_ne!(meet, bits(&[3, 64]));
    }
}
