//! Choosing a condition as a covering problem over example pairs.
//!
//! A candidate condition is a conjunction of atoms. On the known bad pairs
//! (state, binding) where the action is wrong, the condition must be false,
//! so every bad pair must be *excluded* by some atom. Among the conjunctions
//! that exclude them all, [`cheapest`] finds the cheapest (iterative
//! deepening becomes branch and bound over atom costs) and [`widest`] the
//! one true on the most good pairs (condition generalisation). Both break
//! ties by a fixed total order on atom sets, so that the answer does not
//! depend on which bad pairs happen to be known: a condition that is truly
//! sound excludes every bad pair, so CEGIS ends on the first truly sound
//! condition in that order whatever the counterexample pool held.

use super::bits::Bits;
use std::rc::Rc;

/// An atom as the covering problem sees it.
#[derive(Clone, Debug)]
pub struct Choice {
    /// Its cost.
    pub cost: u32,
    /// Its place in the fixed order of atoms (ties between equal-cost sets
    /// go to the lexicographically smaller list of keys).
    pub key: usize,
    /// The bad pairs it excludes (is false on).
    pub excludes: Bits,
    /// The good pairs it is true on (only [`widest`] reads it).
    pub keeps: Bits,
}

/// The search gives up after this many steps and keeps the best so far.
const STEPS: usize = 400_000;

struct Best {
    cost: u32,
    kept: usize,
    keys: Vec<usize>,
    picks: Vec<usize>,
}

impl Best {
    /// Whether (kept, cost, keys) beats the best: more kept, then cheaper,
    /// then lexicographically smaller keys.
    fn beaten_by(&self, kept: usize, cost: u32, keys: &[usize]) -> bool {
        (std::cmp::Reverse(kept), cost, keys) < (std::cmp::Reverse(self.kept), self.cost, self.keys.as_slice())
    }
}

struct Search<'a> {
    choices: &'a [Choice],
    /// The choices in (cost, key) order.
    order: Vec<usize>,
    /// Per bad pair, its excluders' walk, once met.
    excluders: Vec<Option<Excluders>>,
    max_atoms: usize,
    budget: u32,
    steps: usize,
    best: Option<Best>,
    /// Whether coverage of good pairs counts (widest) or not (cheapest).
    widest: bool,
    min_kept: usize,
    /// Per depth, the bad pairs no picked atom excludes yet.
    uncovered: Vec<Bits>,
    /// Per depth, the good pairs every picked atom keeps (widest only).
    kept: Vec<Bits>,
    /// Choices an earlier sibling branch (or an ancestor's) already took:
    /// every conjunction holding one was searched there.
    banned: Vec<bool>,
    /// The choices banned by the nodes on the current path, in order.
    ban_stack: Vec<usize>,
    /// Per bad pair, how many choices exclude it (branching order only).
    reach: Vec<u32>,
    /// Per choice, whether an earlier one outdoes it, once known (see
    /// [`Search::excluder`]).
    outdone: Vec<Option<bool>>,
    /// Per choice, how many pairs it excludes and keeps, and the words of
    /// each set or-ed together: a set is a subset of another only if
    /// these are (most comparisons end on them). Computed when the choice
    /// is first compared (most never are).
    sketch: Vec<Option<[u64; 4]>>,
}

/// The choices that exclude one bad pair, cheapest first, and how far
/// the search has decided which of them are outdone: branches break off
/// at the first too costly excluder, so most are never decided.
struct Excluders {
    /// Every choice that excludes the pair, in (cost, key) order.
    all: Rc<[usize]>,
    /// How many of `all` are decided.
    decided: usize,
    /// The decided ones no earlier choice outdoes.
    kept: Vec<usize>,
}

/// Per bad pair (`words` words of them), how many of `sets` hold it:
/// eight pairs at a time, as the eight byte counters of a word (each
/// byte of a set's word spread to one bit per byte and added), moved to
/// the totals before a byte can overflow.
fn counts<'a>(sets: impl Iterator<Item = &'a Bits>, words: usize) -> Vec<u32> {
    const SPREAD: [u64; 256] = {
        let mut table = [0u64; 256];
        let mut b = 0;
        while b < 256 {
            let mut i = 0;
            while i < 8 {
                table[b] |= ((b as u64 >> i) & 1) << (8 * i);
                i += 1;
            }
            b += 1;
        }
        table
    };
    let mut totals = vec![0u32; words * 64];
    let mut lanes = vec![0u64; words * 8];
    let flush = |lanes: &mut [u64], totals: &mut [u32]| {
        for (j, lane) in lanes.iter_mut().enumerate() {
            for (i, byte) in lane.to_le_bytes().into_iter().enumerate() {
                totals[j * 8 + i] += u32::from(byte);
            }
            *lane = 0;
        }
    };
    for (n, set) in sets.enumerate() {
        for (w, &word) in set.0.iter().take(words).enumerate() {
            for (j, lane) in lanes[w * 8..w * 8 + 8].iter_mut().enumerate() {
                *lane += SPREAD[(word >> (8 * j)) as usize & 255];
            }
        }
        if n % 255 == 254 {
            flush(&mut lanes, &mut totals);
        }
    }
    flush(&mut lanes, &mut totals);
    totals
}

/// `[excluded count, excluded words or-ed, kept count, kept words or-ed]`.
fn sketch(c: &Choice) -> [u64; 4] {
    let or = |b: &Bits| b.0.iter().fold(0, |acc, w| acc | w);
    [c.excludes.count() as u64, or(&c.excludes), c.keeps.count() as u64, or(&c.keeps)]
}

impl Search<'_> {
    fn new<'a>(
        choices: &'a [Choice],
        budget: u32,
        max_atoms: usize,
        widest: bool,
        bad: &Bits,
        good: &Bits,
    ) -> Search<'a> {
        let depths =
            |first: &Bits| std::iter::once(first.clone()).chain(std::iter::repeat_n(Bits::new(), max_atoms)).collect();
        let (uncovered, kept) = (depths(bad), depths(good));
        let mut order: Vec<usize> = (0..choices.len()).collect();
        order.sort_by_key(|&i| (choices[i].cost, choices[i].key));
        Search {
            choices,
            order,
            excluders: (0..bad.0.len() * 64).map(|_| None).collect(),
            max_atoms,
            budget,
            steps: 0,
            best: None,
            widest,
            min_kept: 0,
            uncovered,
            kept,
            banned: vec![false; choices.len()],
            ban_stack: vec![],
            reach: counts(choices.iter().map(|c| &c.excludes), bad.0.len()),
            outdone: vec![None; choices.len()],
            sketch: vec![None; choices.len()],
        }
    }

    /// Whether choice `d` outdoes choice `c` as far as their sets go (the
    /// order is the caller's).
    fn outdoes(&mut self, d: usize, c: usize) -> bool {
        let (sc, sd) = (self.sketch_of(c), self.sketch_of(d));
        let fits = |i: usize| sc[i] <= sd[i] && sc[i + 1] & !sd[i + 1] == 0;
        let (c, d) = (&self.choices[c], &self.choices[d]);
        fits(0)
            && (!self.widest || fits(2))
            && c.excludes.is_subset(&d.excludes)
            && (!self.widest || c.keeps.is_subset(&d.keeps))
    }

    /// The sketch of choice `i`, computed on first use.
    fn sketch_of(&mut self, i: usize) -> [u64; 4] {
        let choices = self.choices;
        *self.sketch[i].get_or_insert_with(|| sketch(&choices[i]))
    }

    /// The `n`th choice, cheapest first, that excludes bad pair `p` and
    /// that no other of them outdoes: one that excludes all it excludes
    /// (and, for widest, keeps all it keeps) and comes first in (cost,
    /// key) order. Swapping the outdone choice for it in any conjunction
    /// excludes as much, keeps as much, costs no more and sorts no later,
    /// so the answer is unchanged. `None` past the last, or if it is yet
    /// to be decided and costs more than `ceiling` (costs only grow along
    /// the list, so the caller would stop there).
    fn excluder(&mut self, p: usize, n: usize, ceiling: u32) -> Option<usize> {
        let choices = self.choices;
        let order = &self.order;
        let list = self.excluders[p].get_or_insert_with(|| Excluders {
            all: order.iter().copied().filter(|&i| choices[i].excludes.get(p)).collect(),
            decided: 0,
            kept: vec![],
        });
        if let Some(&i) = list.kept.get(n) {
            return Some(i);
        }
        let (all, mut decided, mut kept) = (list.all.clone(), list.decided, std::mem::take(&mut list.kept));
        // Whether a choice is outdone does not depend on the pair: one that
        // outdoes it excludes every pair it excludes, and by transitivity a
        // kept one of the list outdoes it if any earlier choice does. So it
        // is decided once, against the kept choices of the first list it
        // is met in.
        while kept.len() <= n && decided < all.len() && choices[all[decided]].cost <= ceiling {
            let i = all[decided];
            decided += 1;
            let outdone = match self.outdone[i] {
                Some(known) => known,
                None => {
                    let known = kept.iter().any(|&j| self.outdoes(j, i));
                    self.outdone[i] = Some(known);
                    known
                }
            };
            if !outdone {
                kept.push(i);
            }
        }
        let found = kept.get(n).copied();
        let list = self.excluders[p].as_mut().expect("made above");
        (list.decided, list.kept) = (decided, kept);
        found
    }

    /// The uncovered bad pair at `depth` excluded by the fewest choices
    /// (every cover takes one of its excluders), or `None` if all are
    /// excluded.
    fn branch_pair(&self, depth: usize) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        let words = self.uncovered[depth].0.len();
        for w in 0..words {
            let mut word = self.uncovered[depth].0[w];
            while word != 0 {
                let p = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let n = self.reach[p] as usize;
                if best.is_none_or(|(_, m)| n < m) {
                    best = Some((p, n));
                    if n <= 1 {
                        return Some(p);
                    }
                }
            }
        }
        best.map(|(p, _)| p)
    }

    /// Branch and bound from `depth` atoms picked; the pairs still to
    /// exclude and the good pairs kept are `self.uncovered[depth]` and
    /// `self.kept[depth]` (per-depth buffers: no allocation per step).
    /// Every cover excludes the branch pair by some excluder; the branches
    /// take them in order, each banning those before it, so every
    /// conjunction is met once.
    fn dfs(&mut self, depth: usize, picks: &mut Vec<usize>, cost: u32) {
        self.steps += 1;
        if self.steps > STEPS {
            return;
        }
        let kept_count = if self.widest { self.kept[depth].count() } else { 0 };
        if self.widest && kept_count < self.min_kept {
            return;
        }
        let Some(p) = self.branch_pair(depth) else {
            let mut keys: Vec<usize> = picks.iter().map(|&i| self.choices[i].key).collect();
            keys.sort_unstable();
            if self.best.as_ref().is_none_or(|b| b.beaten_by(kept_count, cost, &keys)) {
                self.best = Some(Best { cost, kept: kept_count, keys, picks: picks.clone() });
            }
            return;
        };
        if picks.len() == self.max_atoms {
            return;
        }
        // another atom keeps no more and costs more: no completion can
        // beat a best that keeps as much at no more cost
        if let Some(b) = &self.best {
            if self.widest && (kept_count < b.kept || (kept_count == b.kept && cost >= b.cost)) {
                return;
            }
        }
        let mark = self.ban_stack.len();
        for n in 0.. {
            // the costliest atom a branch may add: the loop breaks at the first past it
            let best_cost = self.best.as_ref().filter(|_| !self.widest).map_or(u32::MAX, |b| b.cost);
            let ceiling = self.budget.min(best_cost).saturating_sub(cost);
            let Some(i) = self.excluder(p, n, ceiling) else { break };
            if self.banned[i] {
                continue;
            }
            let choice = &self.choices[i];
            let c = cost + choice.cost;
            if c > self.budget {
                break;
            }
            if let Some(b) = &self.best {
                // cheapest: prune on cost (ties may still win on keys)
                if !self.widest && c > b.cost {
                    break;
                }
                if self.widest && self.kept[depth].and_count(&choice.keeps) < b.kept {
                    self.ban(i);
                    continue;
                }
            }
            // the last atom must exclude every pair still uncovered
            if picks.len() + 1 == self.max_atoms && !self.uncovered[depth].is_subset(&choice.excludes) {
                self.ban(i);
                continue;
            }
            {
                let (here, next) = self.uncovered.split_at_mut(depth + 1);
                here[depth].minus_into(&choice.excludes, &mut next[0]);
                if self.widest {
                    let (here, next) = self.kept.split_at_mut(depth + 1);
                    here[depth].and_into(&choice.keeps, &mut next[0]);
                }
            }
            picks.push(i);
            self.dfs(depth + 1, picks, c);
            picks.pop();
            self.ban(i);
        }
        for i in self.ban_stack.drain(mark..) {
            self.banned[i] = false;
        }
    }

    fn ban(&mut self, i: usize) {
        self.banned[i] = true;
        self.ban_stack.push(i);
    }
}

/// The cheapest conjunction of at most `max_atoms` choices, of cost at most
/// `budget`, that excludes all `bad` pairs (indices into `choices`;
/// empty = `true`). `None` if there is none.
pub fn cheapest(choices: &[Choice], bad: &Bits, budget: u32, max_atoms: usize) -> Option<Vec<usize>> {
    let mut search = Search::new(choices, budget, max_atoms, false, bad, &Bits::new());
    search.dfs(0, &mut vec![], 0);
    search.best.map(|b| b.picks)
}

/// The conjunction of at most `max_atoms` choices, of cost at most
/// `budget`, that excludes all `bad` pairs and keeps the most of the
/// `good` pairs, more than `at_least`; then the cheapest. Choices are
/// expected to keep every pair the condition being generalised keeps.
pub fn widest(
    choices: &[Choice],
    bad: &Bits,
    good: &Bits,
    at_least: usize,
    budget: u32,
    max_atoms: usize,
) -> Option<Vec<usize>> {
    let mut search = Search::new(choices, budget, max_atoms, true, bad, good);
    search.min_kept = at_least + 1;
    search.dfs(0, &mut vec![], 0);
    search.best.map(|b| b.picks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(set: &[usize]) -> Bits {
        set.iter().copied().collect()
    }

    fn choice(cost: u32, key: usize, excludes: &[usize], keeps: &[usize]) -> Choice {
        Choice { cost, key, excludes: bits(excludes), keeps: bits(keeps) }
    }

    #[test]
    fn cheapest_cover_is_exact_and_tie_broken_by_keys() {
        let choices = vec![
            choice(3, 0, &[0, 1], &[]),
            choice(3, 1, &[2, 3], &[]),
            choice(5, 2, &[0, 1, 2, 3], &[]),
            choice(2, 3, &[0, 1, 2], &[]),
            choice(2, 4, &[3], &[]),
        ];
        // {3, 4} costs 4; {2} costs 5; {0, 1} costs 6
        assert_eq!(
            cheapest(&choices, &(0..4).collect::<Bits>(), 10, 3).map(|mut v| {
                v.sort();
                v
            }),
            Some(vec![3, 4])
        );
        assert_eq!(cheapest(&choices, &(0..4).collect::<Bits>(), 10, 1), Some(vec![2]));
        assert_eq!(cheapest(&choices, &(0..4).collect::<Bits>(), 3, 3), None);
        // nothing to exclude: `true`
        assert_eq!(cheapest(&choices, &Bits::new(), 10, 3), Some(vec![]));
        // equal cost: smaller keys win
        let tied = vec![choice(2, 7, &[0, 1, 2, 3], &[]), choice(2, 5, &[0, 1, 2, 3], &[])];
        assert_eq!(cheapest(&tied, &(0..4).collect::<Bits>(), 10, 3), Some(vec![1]));
    }

    #[test]
    fn counts_by_byte_lanes_equal_counting_one_by_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let sets: Vec<Bits> = (0..1100).map(|_| (0..200).filter(|_| rng.gen_bool(0.7)).collect::<Bits>()).collect();
        let words = 4;
        let want: Vec<u32> = (0..words * 64).map(|p| sets.iter().filter(|s| s.get(p)).count() as u32).collect();
        assert_eq!(counts(sets.iter(), words), want);
        assert!(want.iter().any(|&n| n > 510), "a count goes on past two moves of its byte to the totals");
    }

    #[test]
    fn widest_cover_keeps_the_most_good_pairs() {
        let choices = vec![
            choice(1, 0, &[0, 1, 2, 3], &[0]),
            choice(4, 1, &[0, 1], &[0, 1, 2]),
            choice(4, 2, &[2, 3], &[0, 1, 2]),
            choice(1, 3, &[2, 3], &[0, 1]),
        ];
        // {1, 2} keeps 3 good pairs; {1, 3} keeps 2; {0} keeps 1
        let mut w = widest(&choices, &(0..4).collect::<Bits>(), &(0..3).collect::<Bits>(), 1, 20, 3).unwrap();
        w.sort();
        assert_eq!(w, vec![1, 2]);
        // must keep more than 3: impossible
        assert_eq!(widest(&choices, &(0..4).collect::<Bits>(), &(0..3).collect::<Bits>(), 3, 20, 3), None);
    }

    /// Every conjunction of at most `max_atoms` choices within `budget`
    /// that excludes all of `bad`: (kept good pairs, cost, sorted keys,
    /// sorted choice indices).
    fn all_covers(
        choices: &[Choice],
        bad: &Bits,
        good: &Bits,
        budget: u32,
        max_atoms: usize,
    ) -> Vec<(usize, u32, Vec<usize>, Vec<usize>)> {
        let mut out = vec![];
        for mask in 0u32..1 << choices.len() {
            let set: Vec<usize> = (0..choices.len()).filter(|&i| mask >> i & 1 == 1).collect();
            let cost: u32 = set.iter().map(|&i| choices[i].cost).sum();
            if set.len() > max_atoms
                || cost > budget
                || !bad.ones().all(|p| set.iter().any(|&i| choices[i].excludes.get(p)))
            {
                continue;
            }
            let kept = good.ones().filter(|&g| set.iter().all(|&i| choices[i].keeps.get(g))).count();
            let mut keys: Vec<usize> = set.iter().map(|&i| choices[i].key).collect();
            keys.sort_unstable();
            out.push((kept, cost, keys, set));
        }
        out
    }

    #[test]
    fn searches_equal_brute_force_on_random_instances() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..600 {
            let (n, pairs, goods) = (rng.gen_range(1..11), rng.gen_range(0..9), rng.gen_range(0..9));
            let mut keys: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                keys.swap(i, rng.gen_range(0..=i));
            }
            let choices: Vec<Choice> = (0..n)
                .map(|i| {
                    let excludes: Vec<usize> = (0..pairs).filter(|_| rng.gen_bool(0.35)).collect();
                    let keeps: Vec<usize> = (0..goods).filter(|_| rng.gen_bool(0.6)).collect();
                    choice(rng.gen_range(1..6), keys[i], &excludes, &keeps)
                })
                .collect();
            let (bad, good) = ((0..pairs).collect::<Bits>(), (0..goods).collect::<Bits>());
            let (budget, max_atoms) = (rng.gen_range(3..16), rng.gen_range(1..5));
            let covers = all_covers(&choices, &bad, &good, budget, max_atoms);
            let sorted = |v: Option<Vec<usize>>| {
                v.map(|mut v| {
                    v.sort_unstable();
                    v
                })
            };
            let want = covers.iter().min_by_key(|c| (c.1, c.2.clone())).map(|c| c.3.clone());
            assert_eq!(sorted(cheapest(&choices, &bad, budget, max_atoms)), want, "cheapest, round {round}");
            let at_least = rng.gen_range(0..3);
            let want = covers
                .iter()
                .filter(|c| c.0 > at_least)
                .min_by_key(|c| (std::cmp::Reverse(c.0), c.1, c.2.clone()))
                .map(|c| c.3.clone());
            assert_eq!(
                sorted(widest(&choices, &bad, &good, at_least, budget, max_atoms)),
                want,
                "widest, round {round}"
            );
        }
    }
}
