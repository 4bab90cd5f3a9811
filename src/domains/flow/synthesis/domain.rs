//! The Flow domain as the engine sees it ([`Domain`], [`Symbolic`]): states
//! are [`FlowCase`]s, the view is the rules' ([`Layout::view`]), the
//! oracle judges an action against every solution extending the state, and
//! the symbolic side encodes every consistent state of every puzzle on the
//! board sizes the domain proves on ([`super::boards`]).
//!
//! A domain proves on every board up to the bound (`w`, `h` from 1 to the
//! bound) or on one board size ([`Flow::at`]); `verify` proves a rule size
//! by size, each size its own query. The engine's concrete checks see
//! every consistent state of the boards of up to [`TABLE_CELLS`] cells
//! (the table) and random states of larger boards up to the screening
//! bound (the sample).

use super::boards::{self, FlowTerms};
use super::case::FlowCase;
use super::terms::Needs;
use crate::domains::flow::model::check::check;
use crate::domains::flow::model::grid::Grid;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::State;
use crate::domains::flow::model::state::{Solution, Status};
use crate::domains::flow::rules::brute::{
    every_state, puzzles, random_puzzle, random_state, show_state, solutions, state, MAX_SLOTS,
};
use crate::domains::flow::rules::view::{Conclusion, Layout, NotFlow};
use crate::domains::{BadState, Domain, Encoding, Symbolic};
use crate::dsl::ast::{ActionId, Rule};
use crate::dsl::eval::{ActionValue, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::Num;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
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
    /// Every solution of each puzzle the oracle judged an action on (slot
    /// bit sets), by the puzzle's text: the engine asks about the same
    /// table states again and again.
    solved: Arc<Mutex<HashMap<String, Arc<Vec<u64>>>>>,
}

impl Flow {
    /// The domain of `schema` (the Flow DSL file, read from `path`),
    /// proving on every board up to the bound.
    pub fn with_schema(schema: Schema, path: &str) -> Result<Flow, NotFlow> {
        let layout = Layout::new(&schema, path)?;
        Ok(Flow { schema, layout, board: None, solved: Arc::default() })
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

    /// Every solution of `p` (at most [`MAX_SLOTS`] slots), found once.
    fn solutions(&self, p: &Puzzle) -> Arc<Vec<u64>> {
        let key = show_state(p, &State::start(p.grid()));
        if let Some(known) = self.solved.lock().expect("solutions memo").get(&key) {
            return known.clone();
        }
        let found = Arc::new(solutions(p));
        self.solved.lock().expect("solutions memo").entry(key).or_insert(found).clone()
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
        let links: Vec<Vec<usize>> = self
            .solutions(p)
            .iter()
            .copied()
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

    /// Every consistent state of every puzzle with a solution on every
    /// board up to `size` x `size` with at most [`TABLE_CELLS`] cells (on
    /// 3x3 alone there are 354,860), each with a solution extending it.
    fn small_states(&self, size: u32) -> Vec<FlowCase> {
        let side = size as usize;
        let mut out = vec![];
        for (w, h) in (1..=side).flat_map(|w| (1..=side).map(move |h| (w, h))) {
            if w * h > TABLE_CELLS {
                continue;
            }
            for puzzle in puzzles(w, h) {
                let sols = solutions(&puzzle);
                for (linked, cut) in every_state(&puzzle, &sols) {
                    out.push(case(&puzzle, &sols, (linked, cut)));
                }
            }
        }
        out
    }

    /// `count` random consistent states of random puzzles with a solution
    /// on the boards up to `bound` x `bound` that the table leaves out
    /// (more than `table` cells a side or [`TABLE_CELLS`] cells), a board
    /// size drawn for each puzzle, [`PER_PUZZLE`] states each.
    fn sample_states(&self, table: u32, bound: u32, seed: u64, count: usize) -> Vec<FlowCase> {
        let (table, bound) = (table as usize, bound as usize);
        let sizes: Vec<(usize, usize)> = (1..=bound)
            .flat_map(|w| (1..=bound).map(move |h| (w, h)))
            .filter(|&(w, h)| (w > table || h > table || w * h > TABLE_CELLS) && w * h >= 2)
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = vec![];
        while out.len() < count && !sizes.is_empty() {
            let (w, h) = sizes[rng.gen_range(0..sizes.len())];
            let (puzzle, sols) = random_puzzle(&Grid::new(w, h), &mut rng);
            for _ in 0..PER_PUZZLE.min(count - out.len()) {
                out.push(case(&puzzle, &sols, random_state(puzzle.grid().slots(), &sols, &mut rng)));
            }
        }
        out
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

/// Most cells of a board of the exhaustive table.
pub const TABLE_CELLS: usize = 6;

/// Random states drawn per random puzzle of the sample.
pub const PER_PUZZLE: usize = 8;

/// The case of puzzle `p` (solutions `sols`) in state (linked, cut), with
/// the first solution extending it as its witness.
fn case(p: &Puzzle, sols: &[u64], (linked, cut): (u64, u64)) -> FlowCase {
    let g = p.grid();
    let witness = sols
        .iter()
        .find(|&&m| linked & !m == 0 && cut & m == 0)
        .map(|&m| Solution::new((0..g.slots()).filter(|&s| m >> s & 1 == 1).collect()));
    FlowCase { puzzle: p.clone(), state: state(g, linked, cut), witness }
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

    /// One part per board size, smaller boards first (as `verify` asks):
    /// each size alone is far faster in Z3 than all of them in one query.
    fn parts(&self, bound: u32) -> usize {
        self.sizes(bound).len()
    }

    /// A prune over a flow or an area is proven one slot of it at a time
    /// (`dsl/flow.ron`, `limits.split`): Z3 then sees one colour's heads
    /// and areas instead of a choice over every colour's.
    fn split_always(&self) -> bool {
        true
    }

    fn encode_part(&self, bound: u32, rule: &Rule, part: usize) -> Encoding<FlowTerms> {
        boards::encode(&self.layout, &self.sizes(bound)[part..=part], Needs::of(rule, &self.layout))
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
