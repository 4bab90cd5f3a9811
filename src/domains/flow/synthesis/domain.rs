//! The Flow domain as the engine sees it ([`Domain`], [`Symbolic`]): states
//! are [`FlowCase`]s, the view is the rules' ([`Layout::view`]), the
//! oracle judges an action against every solution extending the state, and
//! the symbolic side encodes every consistent state of every puzzle on the
//! board sizes the domain proves on ([`super::boards`]).
//!
//! A domain proves on every board up to the bound (`w`, `h` from 1 to the
//! bound) or on one board size ([`Flow::at`]); `verify` proves a rule size
//! by size, each size its own query.

use super::boards::{self, FlowTerms};
use super::case::FlowCase;
use super::terms::Needs;
use crate::domains::flow::model::check::check;
use crate::domains::flow::model::state::{Solution, Status};
use crate::domains::flow::rules::brute::{solutions, MAX_SLOTS};
use crate::domains::flow::rules::view::{Conclusion, Layout, NotFlow};
use crate::domains::{BadState, Domain, Encoding, Symbolic};
use crate::dsl::ast::{ActionId, Rule};
use crate::dsl::eval::{ActionValue, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::Num;
use z3::ast::Bool;
use z3::Model;

/// The Flow domain.
#[derive(Clone, Debug)]
pub struct Flow {
    schema: Schema,
    layout: Layout,
    /// The one board size proofs cover (`w`, `h`), or `None`: every board
    /// up to the bound.
    board: Option<(usize, usize)>,
}

impl Flow {
    /// The domain of `schema` (the Flow DSL file, read from `path`),
    /// proving on every board up to the bound.
    pub fn with_schema(schema: Schema, path: &str) -> Result<Flow, NotFlow> {
        let layout = Layout::new(&schema, path)?;
        Ok(Flow { schema, layout, board: None })
    }

    /// The same domain proving on the `w` x `h` board only.
    pub fn at(&self, w: usize, h: usize) -> Flow {
        Flow { board: Some((w, h)), ..self.clone() }
    }

    /// The schema's Flow names.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The board sizes an encoding up to `bound` covers.
    fn sizes(&self, bound: u32) -> Vec<(usize, usize)> {
        let b = bound.max(1) as usize;
        match self.board {
            Some(size) => vec![size],
            None => (1..=b).flat_map(|w| (1..=b).map(move |h| (w, h))).collect(),
        }
    }

    /// Whether `sol` is a solution of the case's puzzle extending its state.
    fn extends(case: &FlowCase, sol: &Solution) -> bool {
        let on = |s: usize| sol.links().binary_search(&s).is_ok();
        check(&case.puzzle, sol, false).is_ok()
            && (0..case.puzzle.grid().slots()).all(|s| match case.state.status(s) {
                Status::Linked => on(s),
                Status::Cut => !on(s),
                Status::Open => true,
            })
    }
}

impl Domain for Flow {
    type State = FlowCase;

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn view(&self, case: &FlowCase) -> View {
        self.layout.view(&case.puzzle, &case.state)
    }

    /// In range and agreeing with every solution extending the state: the
    /// witness (when it is a solution extending the state) refutes an
    /// action at once; otherwise every solution of the puzzle is
    /// enumerated, which boards of more than 64 slots are too large for:
    /// there an action the witness does not refute is not counted sound.
    fn is_sound(&self, case: &FlowCase, action: &ActionValue) -> bool {
        let p = &case.puzzle;
        if self.layout.conclusion(p, action).is_none() {
            return false;
        }
        if let Some(sol) = case.witness.as_ref().filter(|sol| Flow::extends(case, sol)) {
            if !self.layout.holds(p, action, &[sol.links()]) {
                return false;
            }
        }
        if p.grid().slots() > MAX_SLOTS {
            return false;
        }
        let g = p.grid();
        let (linked, cut) = (0..g.slots()).fold((0u64, 0u64), |(l, k), s| match case.state.status(s) {
            Status::Linked => (l | 1 << s, k),
            Status::Cut => (l, k | 1 << s),
            Status::Open => (l, k),
        });
        let links: Vec<Vec<usize>> = solutions(p)
            .into_iter()
            .filter(|&m| linked & !m == 0 && cut & m == 0)
            .map(|m| (0..g.slots()).filter(|&s| m >> s & 1 == 1).collect())
            .collect();
        let extending: Vec<&[usize]> = links.iter().map(|l| &l[..]).collect();
        self.layout.holds(p, action, &extending)
    }

    /// The same action on the same slot (either way round), or both prunes.
    fn makes(&self, case: &FlowCase, deduction: &ActionValue, action: &ActionValue) -> bool {
        let p = &case.puzzle;
        match (self.layout.conclusion(p, deduction), self.layout.conclusion(p, action)) {
            (Some(Conclusion::Prune), Some(Conclusion::Prune)) => true,
            (Some(Conclusion::Link(a, b)), Some(Conclusion::Link(c, d)))
            | (Some(Conclusion::Cut(a, b)), Some(Conclusion::Cut(c, d))) => [a, b] == [c, d] || [a, b] == [d, c],
            _ => false,
        }
    }

    fn show(&self, case: &FlowCase) -> String {
        case.show()
    }

    fn parse_state(&self, text: &str) -> Result<FlowCase, BadState> {
        FlowCase::parse(text)
    }

    /// Slots linked or cut: one per slot decided.
    fn gain(&self, case: &FlowCase, actions: &[ActionValue]) -> usize {
        let g = case.puzzle.grid();
        let mut slots: Vec<usize> = actions
            .iter()
            .filter_map(|a| match self.layout.conclusion(&case.puzzle, a)? {
                Conclusion::Link(c, d) | Conclusion::Cut(c, d) => g.slot_between(c, d),
                Conclusion::Prune => Some(usize::MAX),
            })
            .filter(|&s| s == usize::MAX || case.state.status(s) == Status::Open)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        slots.len()
    }
}

impl Symbolic for Flow {
    type Extra = FlowTerms;

    fn encode(&self, bound: u32) -> Encoding<FlowTerms> {
        boards::encode(&self.layout, &self.sizes(bound), Needs::ALL)
    }

    /// Without the groups of features `rule` does not read ([`Needs::of`]):
    /// those features are 0 in the view, which the rule never sees, and
    /// the states are the same.
    fn encode_for(&self, bound: u32, rule: &Rule) -> Encoding<FlowTerms> {
        boards::encode(&self.layout, &self.sizes(bound), Needs::of(rule, &self.layout))
    }

    fn wrong(&self, enc: &Encoding<FlowTerms>, action: ActionId, args: &[Num]) -> Bool {
        boards::wrong(&self.layout, &enc.extra, action, args)
    }

    fn decode(&self, enc: &Encoding<FlowTerms>, model: &Model) -> Option<FlowCase> {
        let (puzzle, state, witness) = boards::decode(&enc.extra, model)?;
        let case = FlowCase { puzzle, state, witness: Some(witness) };
        case.witness.as_ref().is_some_and(|w| Flow::extends(&case, w)).then_some(case)
    }
}
