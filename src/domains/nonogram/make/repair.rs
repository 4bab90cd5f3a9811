//! Repairing a picture: the fewest changed cells that make its puzzle one
//! the player solves without guessing (or, for uniqueness alone, one with
//! a single solution). The player is seen only through a function giving
//! the cells it leaves undecided in a picture (none: the picture is fine);
//! changes are tried near those cells (the undecided cells and their four
//! neighbours), in stages, stopping at the first that finds a repair:
//!
//! 1. every single changed cell near the undecided region;
//! 2. every pair of such cells (if there are more pairs than the budget,
//!    every pair among the singles that leave the fewest cells undecided);
//! 3. a beam search: from the best states found so far, one more changed
//!    cell near each state's own undecided region, keeping the states that
//!    leave the fewest cells undecided, until a repair, the largest number
//!    of changes, or the evaluation budget; if it finds none, again four
//!    times as wide (a picture is judged once), while the budget lasts and
//!    the beam was full at some step;
//! 4. a greedy descent from the states judged so far, best first: one
//!    more changed cell per step, taking the best of the first batch of
//!    [`BATCH`] that leaves fewer cells undecided, backtracking from a
//!    state no change improves ([`Search::descend`]). It finds a repair,
//!    not the fewest changes: each step removes about one of a picture's
//!    independent ambiguities, where stages 1-3 would have to try every
//!    combination of them.
//!
//! [`RepairBudget::fewest_stages`] says how many of stages 1-3 run before
//! the descent (all three unless told), and a picture judged with at
//! least [`RepairBudget::descend_from`] undecided cells goes to it
//! straight (never unless told).
//!
//! Candidates are judged in parallel, in chunks of a fixed size in a fixed
//! order, each stage stopping after the first chunk that holds a repair,
//! and kept in a fixed order (by number of undecided cells, then changed
//! cells), so the result does not depend on the thread count. A deadline stops the search between two judged
//! pictures (what was judged is kept); a [`Tally`] tells a watcher how far
//! it got.

use crate::stop::Stop;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Pictures judged side by side: the search stops after the first chunk
/// holding a repair (a fixed number, so what is judged does not depend on
/// the thread count).
const CHUNK: usize = 64;

/// Pictures judged side by side per batch of the descent (stage 4): a
/// step takes the best of the first batch holding an improvement (a fixed
/// number, so the step taken does not depend on the thread count).
const BATCH: usize = 8;

/// Batches a step of the descent judges at most before it gives its state
/// up: a state left with one ambiguity that its first changes do not
/// remove seldom loses it to later ones (each change removing it tends to
/// make another).
const STEP: usize = 4;

/// How far the search may go.
#[derive(Clone, Copy, Debug)]
pub struct RepairBudget {
    /// Pairs tried at most in stage 2.
    pub pairs: usize,
    /// States kept per step of the beam search.
    pub beam: usize,
    /// Changed cells at most.
    pub max_changes: usize,
    /// Pictures judged at most, over all stages.
    pub evaluations: usize,
    /// No picture is judged after this.
    pub deadline: Option<Instant>,
    /// A picture with at least this many undecided cells goes straight to
    /// the descent (stage 4); `usize::MAX`: never.
    pub descend_from: usize,
    /// The stages of the search for the fewest changes run before the
    /// descent: 1 (single cells) to 3 (all).
    pub fewest_stages: usize,
}

impl Default for RepairBudget {
    fn default() -> RepairBudget {
        RepairBudget {
            pairs: 20_000,
            beam: 8,
            max_changes: 8,
            evaluations: 200_000,
            deadline: None,
            descend_from: usize::MAX,
            fewest_stages: 3,
        }
    }
}

impl RepairBudget {
    /// The changed cells a repair may have unless told: 8, or 32 for
    /// uniqueness alone (`bits`, the guessing allowed, past 0), whose
    /// descent changes a cell per ambiguity of pictures with many.
    pub fn max_changes_for(bits: &std::ops::RangeInclusive<f64>) -> usize {
        if *bits.end() > 0.0 {
            32
        } else {
            RepairBudget::default().max_changes
        }
    }
}

/// How far a search got, for a watcher on another thread.
#[derive(Debug, Default)]
pub struct Tally {
    judged: AtomicUsize,
    stage: AtomicUsize,
    /// Fewest undecided cells of a judged picture, plus one (0: none yet).
    best: AtomicUsize,
}

impl Tally {
    /// Pictures judged so far.
    pub fn judged(&self) -> usize {
        self.judged.load(Ordering::Relaxed)
    }

    /// The stage the search is in (1 to 4; 0 before it starts).
    pub fn stage(&self) -> usize {
        self.stage.load(Ordering::Relaxed)
    }

    /// The fewest cells a judged picture leaves undecided, if any was judged.
    pub fn best(&self) -> Option<usize> {
        self.best.load(Ordering::Relaxed).checked_sub(1)
    }

    fn saw(&self, undecided: usize) {
        self.judged.fetch_add(1, Ordering::Relaxed);
        let _ = self.best.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            (b == 0 || undecided + 1 < b).then_some(undecided + 1)
        });
    }
}

/// A repair: the changed cells (grid indices, ascending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The cells whose colour is flipped.
    pub changed: Vec<usize>,
}

impl Repair {
    /// The repaired picture's cells.
    pub fn apply(&self, cells: &[bool]) -> Vec<bool> {
        let mut out = cells.to_vec();
        for &p in &self.changed {
            out[p] = !out[p];
        }
        out
    }
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The repairs with the fewest changes found (empty: none within the
    /// budget), in the search's order.
    pub repairs: Vec<Repair>,
    /// Pictures judged.
    pub evaluations: usize,
    /// The stage that found them (1 to 4), or the last one tried.
    pub stage: usize,
    /// What ran out ([`Stop::Evaluations`] or [`Stop::Timeout`]), if the
    /// search ended on its budget rather than on a repair or on having
    /// tried every change it makes.
    pub stopped: Option<Stop>,
}

/// A state of the search: changed cells and the cells left undecided.
#[derive(Clone, Debug)]
struct State {
    changed: Vec<usize>,
    undecided: Vec<usize>,
}

/// The search over one picture.
struct Search<'a, F> {
    width: usize,
    cells: &'a [bool],
    undecided: &'a F,
    budget: RepairBudget,
    evaluations: usize,
    tally: &'a Tally,
    /// Every set of changes judged, with the cells it leaves undecided.
    seen: HashMap<Vec<usize>, Vec<usize>>,
}

impl<F: Fn(&[bool]) -> Vec<usize> + Sync> Search<'_, F> {
    /// The cells near `undecided`: themselves and their four neighbours.
    fn near(&self, undecided: &[usize]) -> Vec<usize> {
        let (w, h) = (self.width, self.cells.len() / self.width);
        let mut near = vec![false; self.cells.len()];
        for &p in undecided {
            let (r, c) = (p / w, p % w);
            near[p] = true;
            if r > 0 {
                near[p - w] = true;
            }
            if r + 1 < h {
                near[p + w] = true;
            }
            if c > 0 {
                near[p - 1] = true;
            }
            if c + 1 < w {
                near[p + 1] = true;
            }
        }
        (0..near.len()).filter(|&p| near[p]).collect()
    }

    /// The cells a step of the descent tries, in order: `undecided`
    /// (ascending), then the other cells near them, then the other cells
    /// of their rows and columns (each changes a clue of theirs), nearest
    /// to an undecided cell first (then ascending).
    fn around(&self, undecided: &[usize]) -> Vec<usize> {
        let w = self.width;
        let near = self.near(undecided);
        // each cell's distance along a row or column to an undecided cell
        // in it (usize::MAX: none)
        let mut away = vec![usize::MAX; self.cells.len()];
        for &p in undecided {
            let (r, c) = (p / w, p % w);
            for (q, d) in away.iter_mut().enumerate() {
                let (qr, qc) = (q / w, q % w);
                if qr == r {
                    *d = (*d).min(qc.abs_diff(c));
                } else if qc == c {
                    *d = (*d).min(qr.abs_diff(r));
                }
            }
        }
        let mut lines: Vec<usize> =
            (0..away.len()).filter(|&q| away[q] < usize::MAX && near.binary_search(&q).is_err()).collect();
        lines.sort_by_key(|&q| (away[q], q));
        let mut order = undecided.to_vec();
        order.extend(near.iter().filter(|p| undecided.binary_search(p).is_err()));
        order.extend(lines);
        order
    }

    /// Judges each set of changes not judged before (in parallel, in
    /// chunks of [`CHUNK`] in order), within the budget and before the
    /// deadline, stopping after the first chunk with a repair (every set
    /// given has as many changes, so the repairs found are still the
    /// smallest); the states of those judged, now or before, in the order
    /// given.
    fn judge(&mut self, changes: Vec<Vec<usize>>) -> Vec<State> {
        let room = self.budget.evaluations.saturating_sub(self.evaluations);
        let (cells, undecided, tally, deadline) = (self.cells, self.undecided, self.tally, self.budget.deadline);
        let mut fresh: Vec<Vec<usize>> = changes.iter().filter(|c| !self.seen.contains_key(*c)).cloned().collect();
        fresh.sort_unstable();
        fresh.dedup();
        fresh.truncate(room);
        let cancel = crate::deadline::current();
        for chunk in fresh.chunks(CHUNK) {
            let judged: Vec<State> = chunk
                .par_iter()
                .filter_map(|changed| {
                    crate::deadline::carry(cancel.as_ref(), || {
                        if crate::deadline::past(deadline) {
                            return None;
                        }
                        let picture = Repair { changed: changed.clone() }.apply(cells);
                        let state = State { undecided: undecided(&picture), changed: changed.clone() };
                        tally.saw(state.undecided.len());
                        Some(state)
                    })
                })
                .collect();
            self.evaluations += judged.len();
            let repaired = judged.iter().any(|s| s.undecided.is_empty());
            self.seen.extend(judged.into_iter().map(|s| (s.changed, s.undecided)));
            if repaired {
                break;
            }
        }
        changes
            .into_iter()
            .filter_map(|changed| self.seen.get(&changed).map(|u| State { undecided: u.clone(), changed }))
            .collect()
    }

    /// A beam search of `width` states from `seeds` (ranked best first):
    /// one more changed cell near each state's undecided cells per step,
    /// keeping the best `width`, until a repair, the most changes, a dead
    /// end or the budget. The repairs found (empty if none), and whether
    /// any step had more states than the width (else a wider beam would
    /// search the same).
    fn beam(&mut self, seeds: &[State], width: usize) -> (Vec<Repair>, bool) {
        let mut beam: Vec<State> = seeds.iter().take(width).cloned().collect();
        let mut narrowed = seeds.len() > width;
        while beam.first().is_some_and(|s| s.changed.len() < self.budget.max_changes) && self.stopped().is_none() {
            let mut next: Vec<Vec<usize>> = vec![];
            for state in &beam {
                for p in self.near(&state.undecided) {
                    if let Err(at) = state.changed.binary_search(&p) {
                        let mut changed = state.changed.clone();
                        changed.insert(at, p);
                        next.push(changed);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            let mut states = self.judge(next);
            let found = repairs(&states);
            if !found.is_empty() {
                return (found, narrowed);
            }
            rank(&mut states);
            narrowed |= states.len() > width;
            states.truncate(width);
            if states.is_empty() {
                break;
            }
            beam = states;
        }
        (vec![], narrowed)
    }

    /// The greedy descent from the states `from` (best first): per step
    /// one more changed cell, the cells of [`Search::around`] the state's
    /// undecided cells tried in that order, in batches of [`BATCH`], at
    /// most [`STEP`] of them, the step taking the best state of the first
    /// batch that leaves fewer cells undecided. If none does, the states
    /// tried that leave as many cells undecided but other ones are taken
    /// instead (the ambiguity left moved: the new one may be removable).
    /// A state with nothing to take (or at the most changes) is left for
    /// the next best of its step, and so back (a depth-first search, best
    /// first), a state whose undecided cells were met before skipped.
    /// Until a repair (the states of the batch holding it are returned),
    /// the budget, or no state left (none returned).
    fn descend(&mut self, mut from: Vec<State>) -> Vec<State> {
        // each step's states not yet descended from, best last
        from.reverse();
        let mut path: Vec<Vec<State>> = vec![from];
        let mut met: HashSet<Vec<usize>> = HashSet::new();
        while self.stopped().is_none() {
            let at = match path.last_mut().map(Vec::pop) {
                Some(Some(at)) => at,
                Some(None) => {
                    path.pop();
                    continue;
                }
                None => break,
            };
            if at.changed.len() >= self.budget.max_changes || !met.insert(at.undecided.clone()) {
                continue;
            }
            let tries: Vec<Vec<usize>> = self
                .around(&at.undecided)
                .into_iter()
                .filter_map(|p| {
                    let i = at.changed.binary_search(&p).err()?;
                    let mut changed = at.changed.clone();
                    changed.insert(i, p);
                    Some(changed)
                })
                .take(STEP * BATCH)
                .collect();
            let (left, states) = match self.first_better(&at, &tries) {
                Some(states) if states[0].undecided.is_empty() => return states,
                Some(states) => (at.undecided.len() - 1, states),
                None => {
                    let mut states = self.judge(tries);
                    rank(&mut states);
                    (at.undecided.len(), states)
                }
            };
            let mut next: Vec<State> =
                states.into_iter().filter(|s| s.undecided.len() <= left && s.undecided != at.undecided).collect();
            next.reverse();
            path.push(next);
        }
        vec![]
    }

    /// The states of the first batch of [`BATCH`] of `candidates` holding
    /// one that leaves fewer cells undecided than `at`, best first.
    fn first_better(&mut self, at: &State, candidates: &[Vec<usize>]) -> Option<Vec<State>> {
        for batch in candidates.chunks(BATCH) {
            if self.stopped().is_some() {
                break;
            }
            let mut states = self.judge(batch.to_vec());
            rank(&mut states);
            if states.first().is_some_and(|s| s.undecided.len() < at.undecided.len()) {
                return Some(states);
            }
        }
        None
    }

    /// What ran out, if anything did.
    fn stopped(&self) -> Option<Stop> {
        if crate::deadline::past(self.budget.deadline) {
            Some(Stop::Timeout)
        } else if self.evaluations >= self.budget.evaluations {
            Some(Stop::Evaluations)
        } else {
            None
        }
    }

    /// The search's answer at `stage`: the repairs among `states`, or none
    /// and what ran out (if it ran out).
    fn found(&self, states: &[State], stage: usize) -> Found {
        let repairs = repairs(states);
        let stopped = if repairs.is_empty() { self.stopped() } else { None };
        Found { repairs, evaluations: self.evaluations, stage, stopped }
    }
}

/// Sorts states best first: fewest undecided cells, then changed cells.
fn rank(states: &mut [State]) {
    states.sort_by(|a, b| a.undecided.len().cmp(&b.undecided.len()).then_with(|| a.changed.cmp(&b.changed)));
}

/// The repairs among `states` (no undecided cell) with the fewest changes.
fn repairs(states: &[State]) -> Vec<Repair> {
    let fine = states.iter().filter(|s| s.undecided.is_empty());
    let fewest = fine.clone().map(|s| s.changed.len()).min();
    fine.filter(|s| Some(s.changed.len()) == fewest).map(|s| Repair { changed: s.changed.clone() }).collect()
}

/// Repairs of the picture `cells` (`width` columns), the search starting
/// near `start` (not empty: the cells the player leaves undecided, or
/// where two solutions differ), `undecided` judging any picture; `tally`
/// told of every picture judged.
pub fn repair(
    width: usize,
    cells: &[bool],
    start: Vec<usize>,
    undecided: &(impl Fn(&[bool]) -> Vec<usize> + Sync),
    budget: RepairBudget,
    tally: &Tally,
) -> Found {
    let mut search = Search { width, cells, undecided, budget, evaluations: 0, tally, seen: HashMap::new() };
    if budget.max_changes == 0 {
        return Found { repairs: vec![], evaluations: 0, stage: 1, stopped: None };
    }
    if start.len() >= budget.descend_from {
        // stage 4 straight from the picture: too many undecided cells for
        // the fewest changes
        tally.stage.store(4, Ordering::Relaxed);
        let at = State { changed: vec![], undecided: start };
        let states = search.descend(vec![at]);
        return search.found(&states, 4);
    }
    let near = search.near(&start);
    // stage 1: single cells
    tally.stage.store(1, Ordering::Relaxed);
    let mut singles = search.judge(near.iter().map(|&p| vec![p]).collect());
    let found = search.found(&singles, 1);
    if !found.repairs.is_empty() || found.stopped.is_some() || budget.max_changes == 1 {
        return found;
    }
    if budget.fewest_stages < 2 {
        return descend_from_best(&mut search);
    }
    // stage 2: pairs, among the best singles if there are too many
    tally.stage.store(2, Ordering::Relaxed);
    rank(&mut singles);
    let mut pool: Vec<usize> = singles.iter().map(|s| s.changed[0]).collect();
    while pool.len() > 1 && pool.len() * (pool.len() - 1) / 2 > budget.pairs {
        pool.pop();
    }
    pool.sort_unstable();
    let pairs: Vec<Vec<usize>> = (0..pool.len())
        .flat_map(|i| {
            (i + 1..pool.len()).map({
                let pool = &pool;
                move |j| vec![pool[i], pool[j]]
            })
        })
        .collect();
    let mut beam = search.judge(pairs);
    let found = search.found(&beam, 2);
    if !found.repairs.is_empty() || found.stopped.is_some() || budget.max_changes == 2 {
        return found;
    }
    // stage 3: beam searches, each four times as wide as the one before
    // (the pictures judged before are not judged again), until a repair,
    // the budget, or a beam that was never full
    tally.stage.store(3, Ordering::Relaxed);
    beam.extend(singles);
    rank(&mut beam);
    let mut width = budget.beam.max(1);
    loop {
        let (repairs, narrowed) = search.beam(&beam, width);
        if !repairs.is_empty() {
            return Found { repairs, evaluations: search.evaluations, stage: 3, stopped: None };
        }
        if !narrowed || search.stopped().is_some() {
            break;
        }
        width = width.saturating_mul(4);
    }
    if search.stopped().is_some() {
        return search.found(&[], 3);
    }
    descend_from_best(&mut search)
}

/// Stage 4 from the states judged so far, best first.
fn descend_from_best<F: Fn(&[bool]) -> Vec<usize> + Sync>(search: &mut Search<F>) -> Found {
    search.tally.stage.store(4, Ordering::Relaxed);
    let mut judged: Vec<State> =
        search.seen.iter().map(|(c, u)| State { changed: c.clone(), undecided: u.clone() }).collect();
    rank(&mut judged);
    let states = search.descend(judged);
    search.found(&states, 4)
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
