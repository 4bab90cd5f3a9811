//! The Witness partial-path domain as the engine sees it: states are a
//! puzzle, a partial path and whether some solution begins with it (the
//! exact oracle's verdict); the view is [`super::view`]; `prune` is sound
//! exactly on incompletable paths; the symbolic encoding is
//! [`super::symbolic`]; the exhaustive table holds every partial path of
//! every puzzle up to a grid side, one state per distinct (view, verdict).
//!
//! Rules are applied to a state as it is: there are no images (the grid's
//! symmetries move the start and the (row, column) order of squares, and
//! search never applies rules in them).

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

use super::grid::{Grid, Vertex};
use super::oracle::{label_partial_paths, Oracle};
use super::path::Path;
use super::puzzle::Puzzle;
use super::symbolic::{self, WitnessTerms};
use super::view::{view_key, SchemaMismatch, ViewIds};
use crate::domains::{Domain, Encoding};
use crate::dsl::ast::ActionId;
use crate::dsl::eval::{ActionValue, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::Num;
use z3::ast::Bool;
use z3::Model;

/// A puzzle, a partial path on it, and the oracle's verdict on the path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WitnessState {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A partial path (begins at the start; may not yet reach the goal).
    pub path: Path,
    /// Whether some solution of the puzzle begins with the path.
    pub completable: bool,
}

impl WitnessState {
    /// The state of `path` on `puzzle`, judged by a fresh oracle.
    pub fn new(puzzle: Puzzle, path: Path) -> WitnessState {
        let completable = Oracle::new(&puzzle).completable(&path);
        WitnessState { puzzle, path, completable }
    }

    /// The state as text: the puzzle in RON and the path's vertices,
    /// `(width: 2, ...) path 0,0 1,0`.
    pub fn show(&self) -> String {
        format!("{} path {}", self.puzzle.to_ron(), self.path.to_text())
    }
}

/// The Witness partial-path domain.
#[derive(Clone, Debug)]
pub struct Witness {
    schema: Schema,
    ids: ViewIds,
}

impl Witness {
    /// The domain with the bundled `dsl/witness.ron`.
    pub fn new() -> Witness {
        Witness::with_schema(Schema::witness(), "dsl/witness.ron").expect("bundled schema fits the domain")
    }

    /// The domain with a designer's schema: it must name exactly the types,
    /// features, globals and actions this domain provides (costs are free).
    pub fn with_schema(schema: Schema, path: &str) -> Result<Witness, SchemaMismatch> {
        let ids = ViewIds::new(&schema, path)?;
        Ok(Witness { schema, ids })
    }

    /// Where the domain's names live in the schema.
    pub fn ids(&self) -> ViewIds {
        self.ids
    }
}

impl Default for Witness {
    fn default() -> Witness {
        Witness::new()
    }
}

/// Every puzzle of exactly `w` x `h` squares: every start vertex, every
/// border goal other than the start, every assignment of 0-3 triangles to
/// the squares (triangle codes in base 4, square 0 least significant).
pub fn all_puzzles(w: usize, h: usize) -> impl Iterator<Item = Puzzle> {
    let grid = Grid::new(w, h);
    let squares = grid.num_squares();
    let vertices: Vec<Vertex> = (0..grid.num_vertices()).map(|v| grid.vertex(v)).collect();
    let pairs: Vec<(Vertex, Vertex)> = vertices
        .iter()
        .flat_map(|&s| vertices.iter().filter(move |&&g| g != s && grid.on_border(g)).map(move |&g| (s, g)))
        .collect();
    pairs.into_iter().flat_map(move |(start, goal)| {
        (0..1u32 << (2 * squares)).map(move |code| {
            let tri: Vec<(usize, usize, u8)> = (0..squares)
                .filter_map(|s| {
                    let t = (code >> (2 * s) & 3) as u8;
                    let (c, r) = grid.square(s);
                    (t > 0).then_some((c, r, t))
                })
                .collect();
            Puzzle::new(w, h, start, goal, &tri).expect("enumerated puzzles are valid")
        })
    })
}

/// Every partial path of every puzzle up to `side` x `side` squares, one
/// state per distinct (view, verdict), first found kept (sizes by width
/// then height, puzzles in [`all_puzzles`] order, paths in the oracle's
/// labelling order). Two states with the same view and verdict are the
/// same to every rule and to `prune`, so the table loses nothing.
pub fn table(side: usize) -> Vec<WitnessState> {
    let mut seen: HashSet<(Vec<u8>, bool)> = HashSet::new();
    let mut out = vec![];
    for w in 1..=side {
        for h in 1..=side {
            for puzzle in all_puzzles(w, h) {
                label_partial_paths(&puzzle, &mut |path, completable| {
                    if seen.insert((view_key(&puzzle, path), completable)) {
                        out.push(WitnessState { puzzle: puzzle.clone(), path: path.clone(), completable });
                    }
                });
            }
        }
    }
    out
}

impl Domain for Witness {
    type State = WitnessState;
    type Extra = WitnessTerms;

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn view(&self, state: &WitnessState) -> View {
        self.ids.view(&state.puzzle, &state.path)
    }

    fn is_sound(&self, state: &WitnessState, action: &ActionValue) -> bool {
        action.args.is_empty() && !state.completable
    }

    fn encode(&self, bound: u32) -> Encoding<WitnessTerms> {
        symbolic::encode(&self.ids, bound as usize)
    }

    fn wrong(&self, _enc: &Encoding<WitnessTerms>, _action: ActionId, _args: &[Num]) -> Bool {
        // The encoding's states are prefixes of a solution: pruning any of
        // them is wrong.
        Bool::from_bool(true)
    }

    fn decode(&self, enc: &Encoding<WitnessTerms>, model: &Model) -> Option<WitnessState> {
        let (puzzle, path) = symbolic::decode(&enc.extra, model)?;
        Some(WitnessState::new(puzzle, path))
    }

    fn show(&self, state: &WitnessState) -> String {
        state.show()
    }

    fn makes(&self, _state: &WitnessState, deduction: &ActionValue, action: &ActionValue) -> bool {
        deduction.action == action.action
    }

    fn productive(&self, _state: &WitnessState, _action: &ActionValue) -> bool {
        true
    }

    fn images(&self, state: &WitnessState, deduction: &ActionValue) -> Vec<(WitnessState, ActionValue)> {
        vec![(state.clone(), deduction.clone())]
    }

    fn small_states(&self, size: u32) -> Vec<WitnessState> {
        // Built once per process and side (it does not depend on the schema).
        static TABLES: Mutex<BTreeMap<u32, Arc<Vec<WitnessState>>>> = Mutex::new(BTreeMap::new());
        let cached = TABLES.lock().map(|t| t.get(&size).cloned()).unwrap_or(None);
        let states = cached.unwrap_or_else(|| {
            let built = Arc::new(table(size as usize));
            if let Ok(mut t) = TABLES.lock() {
                t.insert(size, built.clone());
            }
            built
        });
        states.as_ref().clone()
    }
}
