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
//! a lookup is cheaper than interpreting the rules.
//! [`RuleSetPredicate::forget`] empties the memo, so timed searches can
//! start cold.
//!
//! This module owns the evaluation order, the memo and the reuse of the
//! view buffer; the rule semantics are the generic interpreter's.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::domains::witness::board::path::Path;
use crate::domains::witness::board::region::{Masks, Region};
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::model::grid::{BitSet, Grid};
use crate::domains::witness::search::astar::Predicate;
use crate::domains::witness::search::predicates::baseline;
use crate::domains::witness::synthesis::view::{write_view_key, RegionOf, ViewIds};
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
    /// Whether every rule is square-local (then a step is judged on the
    /// squares it changed).
    incremental: bool,
    /// Whether some rule reads `goal_reachable`.
    reads_goal_reachable: bool,
    /// Per rule, whether its condition names no square
    /// ([`ViewIds::names_no_square`]): one binding decides it.
    global: Vec<bool>,
    /// The order rules are evaluated in: those naming no square first.
    order: Vec<usize>,
    /// The region of the last parent judged a step from: siblings share it.
    parent: RefCell<Option<(ParentKey, Region)>>,
    /// The masks of the last grid and broken edges seen.
    masks: RefCell<Option<((Grid, BitSet), Masks)>>,
    /// The view of the last path judged (its allocations are reused).
    view: RefCell<View>,
    /// The key of the last path judged (its allocation is reused).
    key: RefCell<Vec<u8>>,
    /// Whether some rule fires, per view key.
    memo: RefCell<Memo>,
    /// The work done so far.
    work: Cell<Work>,
}

/// Deterministic counts of the work a rule-set predicate does beyond local
/// constraint checking (a search's time is about linear in them and in its
/// expansions; see `learn::TimeModel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Paths the rules judged (memoised or not).
    pub judged: u64,
    /// Rule bindings whose condition was evaluated.
    pub bindings: u64,
    /// Goal regions computed (flood fills, whole or stepped).
    pub regions: u64,
}

/// Largest number of memoised views (the memo is emptied when full).
const MEMO_LIMIT: usize = 1 << 20;

/// A multiplicative hash for the short view keys: they are a few words,
/// hashed on every step of the search, and need no protection against
/// adversarial keys, so std's SipHash would only cost time.
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

/// A parent path's region depends on its visited vertices, its head, the
/// goal and the grid.
type ParentKey = (BitSet, usize, usize, Grid);

type Memo = HashMap<Vec<u8>, bool, BuildHasherDefault<KeyHasher>>;

impl RuleSetPredicate {
    /// The predicate of `rules` (Witness rules laid out by `ids`; `size` is
    /// the schema's size feature).
    pub fn new(ids: ViewIds, size: FeatureId, rules: Vec<Rule>) -> RuleSetPredicate {
        RuleSetPredicate {
            ids,
            size,
            region: ids.uses_region(&rules),
            incremental: rules.iter().all(|r| ids.square_local(r)),
            reads_goal_reachable: ids.reads_global(&rules, ids.goal_reachable),
            global: rules.iter().map(|r| ids.names_no_square(r)).collect(),
            order: {
                let mut order: Vec<usize> = (0..rules.len()).collect();
                order.sort_by_key(|&i| !ids.names_no_square(&rules[i]));
                order
            },
            masks: RefCell::new(None),
            parent: RefCell::new(None),
            rules,
            view: RefCell::new(ids.empty()),
            key: RefCell::new(vec![]),
            memo: RefCell::new(Memo::default()),
            work: Cell::new(Work::default()),
        }
    }

    /// The rules, in evaluation order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Whether some rule reads a region feature (`free`, `live` or
    /// `goal_reachable`).
    pub fn reads_region(&self) -> bool {
        self.region
    }

    /// Whether some rule reads the global `path_length`.
    pub fn reads_path_length(&self) -> bool {
        self.ids.reads_global(&self.rules, self.ids.path_length)
    }

    /// The masks of `puzzle`'s grid and broken edges (cached for the last
    /// ones seen).
    fn masks(&self, puzzle: &Puzzle) -> Masks {
        let seen = (puzzle.grid(), *puzzle.broken());
        let mut masks = self.masks.borrow_mut();
        match &*masks {
            Some((g, m)) if *g == seen => *m,
            _ => masks.insert((seen, Masks::new(puzzle))).1,
        }
    }

    /// The work done since the predicate was made.
    pub fn work(&self) -> Work {
        self.work.get()
    }

    /// Counts `judged` paths, `bindings` evaluated and `regions` computed.
    fn count(&self, judged: u64, bindings: u64, regions: u64) {
        let w = self.work.get();
        self.work.set(Work {
            judged: w.judged + judged,
            bindings: w.bindings + bindings,
            regions: w.regions + regions,
        });
    }

    /// Whether some rule fires on the view `view` (with `step`, only the
    /// rules that name a square: the others read globals alone, which the
    /// caller knows did not change since a path they did not fire on).
    fn fire(&self, view: &View, step: bool) -> bool {
        let mut bindings = 0;
        let fired = self.order.iter().any(|&i| {
            let (rule, global) = (&self.rules[i], self.global[i]);
            if step && global {
                return false;
            }
            let interp = Interpreter::new(rule, view, self.size);
            let (mut fired, mut decided) = (false, false);
            interp.for_each_binding(|b| {
                if !decided {
                    bindings += 1;
                    fired = interp.eval_bool(&rule.condition, b);
                    // a condition naming no square is the same on every binding
                    decided = fired || global;
                }
            });
            fired
        });
        self.count(0, bindings, 0);
        fired
    }

    /// Whether some rule has an application on `path` (local constraint
    /// checking not included).
    pub fn rules_fire(&self, puzzle: &Puzzle, path: &Path) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let masks = self.masks(puzzle);
        let region = self.region.then(|| Region::new(&masks, puzzle, path));
        self.count(1, 0, u64::from(self.region));
        let region_of = || region.as_ref().map(|region| RegionOf { masks: &masks, region });
        let mut key = self.key.borrow_mut();
        write_view_key(puzzle, path, region_of(), &mut key);
        let mut memo = self.memo.borrow_mut();
        if let Some(&fired) = memo.get(key.as_slice()) {
            return fired;
        }
        let mut view = self.view.borrow_mut();
        self.ids.fill(&mut view, puzzle, path, region_of());
        let fired = self.fire(&view, false);
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key.clone(), fired);
        fired
    }

    /// [`RuleSetPredicate::rules_fire`] on a path whose parent (the path
    /// without its head) no rule fires on: when every rule is
    /// square-local ([`ViewIds::square_local`]) and `goal_reachable` (if
    /// read) did not change, only the squares whose features the last step
    /// changed can make a rule fire — those with a corner at the old or
    /// new head, or at a vertex the step cut off from the goal region — so
    /// only they are evaluated, and rules naming no square (globals alone,
    /// unchanged) are not.
    pub fn rules_fire_step(&self, puzzle: &Puzzle, path: &Path) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let v = path.head_id();
        let (Some(h), true) = (path.previous_id(), self.incremental) else {
            return self.rules_fire(puzzle, path);
        };
        self.count(1, 0, 0);
        let masks = self.masks(puzzle);
        let grid = puzzle.grid();
        let mut changed = 1u128 << h | 1u128 << v;
        let mut view = self.view.borrow_mut();
        if self.region {
            let goal = grid.vertex_id(puzzle.goal());
            let mut visited = *path.visited();
            visited.remove(v);
            let mut cache = self.parent.borrow_mut();
            let parent = match &*cache {
                Some((key, r)) if *key == (visited, h, goal, grid) => *r,
                _ => {
                    self.count(0, 0, 1);
                    let unvisited = visited.iter().fold(masks.all(), |acc, u| acc & !(1u128 << u));
                    let r = Region::from_sets(&masks, unvisited, h, goal);
                    cache.insert(((visited, h, goal, grid), r)).1
                }
            };
            let child = parent.step(&masks, v);
            self.count(0, 0, 1);
            if self.reads_goal_reachable && child.goal_reachable(&masks) != parent.goal_reachable(&masks) {
                self.ids.fill(&mut view, puzzle, path, Some(RegionOf { masks: &masks, region: &child }));
                return self.fire(&view, false);
            }
            changed |= parent.goal_region & !child.goal_region;
            let touched = |s: usize| grid.square_corners(s).iter().any(|&c| changed >> c & 1 == 1);
            self.ids.fill_some(&mut view, puzzle, path, Some(RegionOf { masks: &masks, region: &child }), touched);
        } else {
            let touched = |s: usize| grid.square_corners(s).iter().any(|&c| changed >> c & 1 == 1);
            self.ids.fill_some(&mut view, puzzle, path, None, touched);
        }
        self.fire(&view, true)
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

impl Predicate for RuleSetPredicate {
    fn flags(&self, puzzle: &Puzzle, path: &Path) -> bool {
        RuleSetPredicate::flags(self, puzzle, path)
    }

    fn flags_step(&self, puzzle: &Puzzle, path: &Path, parent_clear: bool) -> bool {
        baseline(puzzle, path)
            || if parent_clear { self.rules_fire_step(puzzle, path) } else { self.rules_fire(puzzle, path) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::board::oracle::enumerate_partial_paths;
    use crate::domains::witness::synthesis::domain::Witness;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;

    const RULES: &str = "
def walled_off:
    with s = arbitrary(square):
    if goal_reachable = 0:
    then prune
def starved:
    with s = arbitrary(square):
    if live(s) < triangles(s) - used(s):
    then prune
def three_left_behind:
    with s = arbitrary(square):
    if triangles(s) = 3 and used(s) > 0 and used(s) < 3 and not touches_head(s):
    then prune
def loose:
    with s = arbitrary(square) and t = arbitrary(square):
    if free(s) = 2 and used(s) = 1:
    then prune
def walled_off_pair:
    with s = arbitrary(square) and t = arbitrary(square):
    if goal_reachable = 0:
    then prune
def walled_off_first:
    with s = constant(square, 0):
    if goal_reachable = 0:
    then prune
";

    /// On every path whose parent no rule fires on, the incremental verdict
    /// is the full one, for rule sets with and without region features.
    #[test]
    fn a_step_is_judged_as_the_whole_path() {
        let domain = Witness::new();
        let all = parse_rules(RULES, "test", domain.schema()).unwrap();
        let sets = [
            all.clone(),
            all[2..3].to_vec(),
            all[1..4].to_vec(),
            vec![all[3].clone()],
            vec![all[4].clone(), all[2].clone()],
            vec![all[5].clone(), all[1].clone()],
        ];
        let puzzles = [
            Puzzle::new(3, 3, (0, 0), (3, 3), &[(0, 0, 2), (1, 1, 3), (2, 2, 1), (2, 0, 2)]).unwrap(),
            Puzzle::new(3, 2, (1, 1), (0, 2), &[(0, 0, 3), (2, 1, 2), (1, 0, 1)]).unwrap(),
        ];
        for rules in sets {
            let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules);
            assert!(pred.incremental);
            let (mut steps, mut fired) = (0, 0);
            for p in &puzzles {
                enumerate_partial_paths(p, &mut |path| {
                    let mut parent = path.clone();
                    if parent.pop().is_none() || pred.rules_fire(p, &parent) {
                        return;
                    }
                    steps += 1;
                    let full = pred.rules_fire(p, path);
                    fired += usize::from(full);
                    assert_eq!(pred.rules_fire_step(p, path), full, "{}", path.to_text());
                });
            }
            assert!(steps > 100 && fired > 5, "{steps} {fired}");
        }
    }
}
