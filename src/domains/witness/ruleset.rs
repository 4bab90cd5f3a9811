//! A rule set as a search predicate: a partial path is flagged
//! incompletable when local constraint checking (Stevens' π_baseline,
//! §2.3) flags it or some rule of the set has an application on its view.
//!
//! Search always checks local constraints, as Stevens evaluates a learned
//! predicate (§5.2: "π_baseline or the learned predicate"), so a rule set
//! never does worse than the baseline and need not restate it; the rules
//! are evaluated only when the hand-coded check passes. This module owns
//! the evaluation order and the reuse of one view buffer per predicate; the
//! rule semantics are the generic interpreter's.

use std::cell::RefCell;

use super::path::Path;
use super::predicates::baseline;
use super::puzzle::Puzzle;
use super::view::ViewIds;
use crate::dsl::ast::{FeatureId, Rule};
use crate::dsl::eval::{Interpreter, View};

/// Local constraint checking plus a set of rules.
pub struct RuleSetPredicate {
    ids: ViewIds,
    size: FeatureId,
    rules: Vec<Rule>,
    /// The view of the last path judged (its allocations are reused).
    view: RefCell<View>,
}

impl RuleSetPredicate {
    /// The predicate of `rules` (Witness rules laid out by `ids`; `size` is
    /// the schema's size feature).
    pub fn new(ids: ViewIds, size: FeatureId, rules: Vec<Rule>) -> RuleSetPredicate {
        RuleSetPredicate { ids, size, rules, view: RefCell::new(ids.empty()) }
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
        let mut view = self.view.borrow_mut();
        self.ids.fill(&mut view, puzzle, path);
        self.rules.iter().any(|rule| {
            let interp = Interpreter::new(rule, &view, self.size);
            let mut fired = false;
            interp.for_each_binding(|b| fired = fired || interp.eval_bool(&rule.condition, b));
            fired
        })
    }

    /// Whether `path` is flagged: local constraint checking, then the rules.
    pub fn flags(&self, puzzle: &Puzzle, path: &Path) -> bool {
        baseline(puzzle, path) || self.rules_fire(puzzle, path)
    }
}
