//! The terms an encoding of one board size is made of
//! ([`super::symbolic`], [`super::colours`]): which groups of features it
//! builds ([`Needs`]), the unknowns rules do not see ([`BoardTerms`]), and
//! the constraints as they are gathered ([`Asserts`]).

use super::labels::c;
use crate::domains::flow::model::grid::Grid;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::view::{Layout, Meaning};
use crate::dsl::ast::{FeatureId, Rule};
use crate::dsl::symbolic::{Num, NumOps, SymTable};
use z3::ast::Bool;

/// The groups of features an encoding builds (the others are 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// `chain`.
    pub chain: bool,
    /// `colour` and heads (for `done`, areas and `meets` too).
    pub colour: bool,
    /// The `flow` table (`done`, and `meets` if `areas`).
    pub flows: bool,
    /// Areas: the `area` table and `meets`.
    pub areas: bool,
    /// With areas: which colours have both heads touching an area (`flows`, `meets`).
    pub two_heads: bool,
}

impl Needs {
    /// Every feature.
    pub const ALL: Needs = Needs { chain: true, colour: true, flows: true, areas: true, two_heads: true };

    /// What `rule` reads: its features, and the tables of the types it declares.
    pub fn of(rule: &Rule, layout: &Layout) -> Needs {
        let reads = |m: Meaning| {
            let mut ids = layout.meanings().iter().enumerate();
            ids.any(|(f, &g)| g == m && rule.uses_feature(FeatureId(f as u8)))
        };
        let [_, flow, area] = layout.types();
        let declares = |t| rule.decls.iter().any(|d| d.ty == t);
        let flows = declares(flow);
        let areas = declares(area) || (flows && reads(Meaning::Meets));
        let colour = areas || flows || reads(Meaning::Colour);
        let two_heads = reads(Meaning::Flows) || (flows && reads(Meaning::Meets));
        Needs { chain: reads(Meaning::Chain), colour, flows, areas, two_heads }
    }
}

/// The terms of an encoding that rules do not see directly.
pub struct BoardTerms {
    pub(super) grid: Grid,
    /// Per cell: an endpoint.
    pub(super) endpoint: Vec<Bool>,
    /// Per cell: its colour in the solution.
    pub(super) colour: Vec<Num>,
    /// The number of colours.
    pub(super) colours: Num,
    /// Per slot: in the solution.
    pub(super) solution: Vec<Bool>,
    /// Per slot: linked, cut.
    pub(super) linked: Vec<Bool>,
    pub(super) cut: Vec<Bool>,
    /// The definition of the states (without the implied constraints).
    pub(super) base: Bool,
    /// Facts true of every state, stated so that Z3 need not derive them
    /// by induction along a path in every proof.
    pub(super) implied: Vec<Bool>,
}

impl BoardTerms {
    /// The board's grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The definition of the states, without the implied constraints.
    pub fn base(&self) -> &Bool {
        &self.base
    }

    /// The implied constraints: `base` implies each (tests prove it with
    /// Z3 on small boards; docs/design/flow-rules.md says why on all).
    pub fn implied(&self) -> &[Bool] {
        &self.implied
    }

    /// The formula saying the encoding's puzzle, state and solution are
    /// `p`, `st` and `sol` (on this board size).
    pub fn fix(&self, p: &Puzzle, st: &State, sol: &Solution) -> Bool {
        let mut parts = vec![self.colours.same(&c(p.colours() as i64))];
        for x in 0..self.grid.cells() {
            let e = self.endpoint[x].clone();
            parts.push(if p.endpoint(x) > 0 { e } else { e.not() });
        }
        for s in 0..self.grid.slots() {
            let on = sol.links().binary_search(&s).is_ok();
            parts.push(if on { self.solution[s].clone() } else { self.solution[s].not() });
            let (l, k) = (st.status(s) == Status::Linked, st.status(s) == Status::Cut);
            parts.push(if l { self.linked[s].clone() } else { self.linked[s].not() });
            parts.push(if k { self.cut[s].clone() } else { self.cut[s].not() });
        }
        Bool::and(&parts)
    }
}

/// The constraints of an encoding: the definition of the states, and
/// facts true of every state.
pub(super) struct Asserts {
    pub(super) base: Vec<Bool>,
    pub(super) implied: Vec<Bool>,
    /// Definitions of names for terms that exist given the implied
    /// constraints (a colour's two heads).
    pub(super) defs: Vec<Bool>,
}

/// A table without elements.
pub(super) fn empty() -> SymTable {
    SymTable { count: c(0), slots: vec![], sparse: None }
}
