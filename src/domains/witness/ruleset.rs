//! A rule set as a search predicate: a partial path is flagged
//! incompletable when local constraint checking (Stevens' π_baseline,
//! §2.3) flags it or some rule of the set has an application on its view.
//!
//! Search always checks local constraints, as Stevens evaluates a learned
//! predicate (§5.2: "π_baseline or the learned predicate"), so a rule set
//! never does worse than the baseline and need not restate it; the rules
//! are evaluated only when the hand-coded check passes.
//!
//! Rules see only a path's view, so their verdict is memoised per view
//! (its compact key, [`write_view_key`]): search meets the same view again
//! and again (paths that differ only away from every triangle square), and
//! a lookup is cheaper than interpreting the rules (measured: the rule-set
//! search 2x faster). [`RuleSetPredicate::forget`] empties the memo, so
//! timed searches can start cold.
//! This module owns the evaluation order, the memo and the reuse of the
//! view buffer; the rule semantics are the generic interpreter's.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::path::Path;
use super::predicates::baseline;
use super::puzzle::Puzzle;
use super::region::{Masks, Region};
use super::view::{write_view_key, RegionOf, ViewIds};
use crate::dsl::ast::{FeatureId, Rule};
use crate::dsl::eval::{Interpreter, View};

/// Local constraint checking plus a set of rules.
pub struct RuleSetPredicate {
    ids: ViewIds,
    size: FeatureId,
    rules: Vec<Rule>,
    /// Whether some rule names a region feature (then each judged path
    /// costs one flood fill).
    region: bool,
    /// The masks of the last grid seen.
    masks: RefCell<Option<(super::grid::Grid, Masks)>>,
    /// The view of the last path judged (its allocations are reused).
    view: RefCell<View>,
    /// The key of the last path judged (its allocation is reused).
    key: RefCell<Vec<u8>>,
    /// Whether some rule fires, per view key.
    memo: RefCell<Memo>,
}

/// Largest number of memoised views (the memo is emptied when full).
const MEMO_LIMIT: usize = 1 << 20;

/// A multiplicative hash for the short view keys (std's SipHash was
/// measured as 7% of search time).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Memo = HashMap<Vec<u8>, bool, BuildHasherDefault<KeyHasher>>;

impl RuleSetPredicate {
    /// The predicate of `rules` (Witness rules laid out by `ids`; `size` is
    /// the schema's size feature).
    pub fn new(ids: ViewIds, size: FeatureId, rules: Vec<Rule>) -> RuleSetPredicate {
        RuleSetPredicate {
            ids,
            size,
            region: ids.uses_region(&rules),
            masks: RefCell::new(None),
            rules,
            view: RefCell::new(ids.empty()),
            key: RefCell::new(vec![]),
            memo: RefCell::new(Memo::default()),
        }
    }

    /// The rules, in evaluation order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Whether some rule has an application on `path` (local constraint
    /// checking not included).
    pub fn rules_fire(&self, puzzle: &Puzzle, path: &Path) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let grid = puzzle.grid();
        let mut masks = self.masks.borrow_mut();
        let masks = match &*masks {
            Some((g, m)) if *g == grid => *m,
            _ => masks.insert((grid, Masks::new(grid))).1,
        };
        let region = self.region.then(|| Region::new(&masks, puzzle, path));
        let region_of = || region.as_ref().map(|region| RegionOf { masks: &masks, region });
        let mut key = self.key.borrow_mut();
        write_view_key(puzzle, path, region_of(), &mut key);
        let mut memo = self.memo.borrow_mut();
        if let Some(&fired) = memo.get(key.as_slice()) {
            return fired;
        }
        let mut view = self.view.borrow_mut();
        self.ids.fill(&mut view, puzzle, path, region_of());
        let fired = self.rules.iter().any(|rule| {
            let interp = Interpreter::new(rule, &view, self.size);
            let mut fired = false;
            interp.for_each_binding(|b| fired = fired || interp.eval_bool(&rule.condition, b));
            fired
        });
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key.clone(), fired);
        fired
    }

    /// Forgets the memoised verdicts (so that a search's time does not
    /// depend on the searches before it).
    pub fn forget(&self) {
        self.memo.borrow_mut().clear();
    }

    /// Whether `path` is flagged: local constraint checking, then the rules.
    pub fn flags(&self, puzzle: &Puzzle, path: &Path) -> bool {
        baseline(puzzle, path) || self.rules_fire(puzzle, path)
    }
}
