//! The Witness partial-path domain as the engine sees it: states are a
//! puzzle, a partial path and whether some solution begins with it (the
//! exact oracle's verdict); the view is [`super::view`]; `prune` is sound
//! exactly on incompletable paths; the symbolic encoding is
//! [`super::symbolic`]; the exhaustive table holds every partial path of
//! every puzzle up to a grid side and its solutions, one state per distinct
//! (view, verdict), the region features included (side 2: the 498,768
//! partial paths of 17,392 puzzles), and the sample tier random
//! completable states (solutions included) beyond
//! it; with kinds, the widen states are random incompletable paths
//! beyond it (generalisation's good examples for rules over marks and
//! dots).
//!
//! Rules are applied to a state as it is: there are no images (the grid's
//! symmetries move the start and the (row, column) order of squares, and
//! search never applies rules in them).

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::sample::{puzzle_around_route, random_route};
use super::symbolic::{self, WitnessTerms};
use super::symbolic_marks::EncodedKinds;
use super::view::{view_key, SchemaMismatch, ViewIds};
use crate::domains::witness::board::oracle::{enumerate_solutions, label_partial_paths, Oracle};
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::{Puzzle, RawPuzzle};
use crate::domains::witness::make::generate_kinds::Kinds;
use crate::domains::witness::model::grid::{Grid, Vertex, MAX_SIDE};
use crate::dsl::ast::{ActionId, Rule};
use crate::dsl::eval::{ActionValue, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::Num;
use crate::synth::domain::{BadState, Domain, Encoding, Symbolic};
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

    /// Reads [`show`](Self::show)'s text back (the verdict from a fresh
    /// oracle), saying what is wrong otherwise.
    pub fn parse(text: &str) -> Result<WitnessState, BadState> {
        let bad = |message: String| BadState::new(text, message);
        let (puzzle, path) =
            text.rsplit_once(" path ").ok_or_else(|| bad("expected `PUZZLE path x,y x,y ...`".into()))?;
        let raw: RawPuzzle = ron::from_str(puzzle).map_err(|e| bad(format!("the puzzle: {e}")))?;
        let puzzle = Puzzle::from_raw(&raw).map_err(|e| bad(format!("the puzzle: {e}")))?;
        let mut vertices = vec![];
        for v in path.split_whitespace() {
            let xy = v.split_once(',').map(|(x, y)| (x.parse::<usize>(), y.parse::<usize>()));
            match xy {
                Some((Ok(x), Ok(y))) => vertices.push((x, y)),
                _ => return Err(bad(format!("vertex `{v}`: expected `x,y` with natural numbers"))),
            }
        }
        let path = Path::from_vertices(&puzzle, &vertices).map_err(|e| bad(format!("the path: {e}")))?;
        Ok(WitnessState::new(puzzle, path))
    }
}

/// The Witness partial-path domain.
#[derive(Clone, Debug)]
pub struct Witness {
    schema: Schema,
    ids: ViewIds,
    /// The constraint kinds of sampled states (`None`: triangles only).
    kinds: Option<Kinds>,
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
        Ok(Witness { schema, ids, kinds: None })
    }

    /// This domain, its sampled states drawn with the constraint kinds of
    /// `kinds` ([`super::sample`]) instead of triangles only.
    pub fn with_kinds(self, kinds: Kinds) -> Witness {
        Witness { kinds: Some(kinds), ..self }
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

/// Every partial path of every puzzle up to `side` x `side` squares (the
/// paths that stop before the goal, then the solutions, which begin with
/// themselves), one state per distinct (view, verdict), first found kept
/// (sizes by width then height, puzzles in [`all_puzzles`] order, paths in
/// the oracle's labelling order). Two states with the same view and
/// verdict are the same to every rule and to `prune`, so the table loses
/// nothing.
pub fn table(side: usize) -> Vec<WitnessState> {
    let mut seen: HashSet<(Vec<u8>, bool)> = HashSet::new();
    let mut out = vec![];
    for w in 1..=side {
        for h in 1..=side {
            for puzzle in all_puzzles(w, h) {
                let mut keep = |path: &Path, completable: bool| {
                    if seen.insert((view_key(&puzzle, path), completable)) {
                        out.push(WitnessState { puzzle: puzzle.clone(), path: path.clone(), completable });
                    }
                };
                label_partial_paths(&puzzle, &mut keep);
                enumerate_solutions(&puzzle, &mut |path| keep(path, true));
            }
        }
    }
    out
}

impl Domain for Witness {
    type State = WitnessState;

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn view(&self, state: &WitnessState) -> View {
        self.ids.view(&state.puzzle, &state.path)
    }

    fn is_sound(&self, state: &WitnessState, action: &ActionValue) -> bool {
        action.args.is_empty() && !state.completable
    }

    fn show(&self, state: &WitnessState) -> String {
        state.show()
    }

    fn makes(&self, _state: &WitnessState, deduction: &ActionValue, action: &ActionValue) -> bool {
        deduction.action == action.action
    }

    /// `PUZZLE path x,y x,y ...` as [`show`](Domain::show) writes it.
    fn parse_state(&self, text: &str) -> Result<WitnessState, BadState> {
        WitnessState::parse(text)
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

    /// Only completable states can refute `prune`, so only those are
    /// drawn: width and height uniform (redrawn until one side exceeds
    /// `table`), then a puzzle around a random route and a uniform prefix
    /// of the route (the whole route included). Triangles only (unless the
    /// domain has kinds): a uniform start, a uniform border goal, a random
    /// path between them ([`random_path`]), triangles on a random share of
    /// the squares it touches (as many as it uses, so it is a solution;
    /// every solution touches every triangle square, so every completable
    /// state can be drawn). With kinds, [`puzzle_around_route`] with 1 to
    /// their colours.
    fn sample_states(&self, table: u32, bound: u32, seed: u64, count: usize) -> Vec<WitnessState> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let (puzzle, route) = self.puzzle_around_route(&mut rng, table, bound);
                let length = rng.gen_range(0..route.len());
                let path = prefix(&puzzle, &route, length);
                WitnessState { puzzle, path, completable: true }
            })
            .collect()
    }

    /// With kinds only (the table's triangle puzzles hold incompletable
    /// paths of every triangle feature, but no mark or dot): incompletable
    /// paths, on which `prune` is right. Each is a puzzle drawn as
    /// [`sample_states`](Domain::sample_states) draws it, a uniform prefix
    /// of its route, then a random walk of uniform length off it (a step
    /// to a uniform unvisited neighbour over an edge that is not broken),
    /// kept if the oracle finds no solution beginning with it; at most
    /// `20 * count` tries.
    fn widen_states(&self, table: u32, bound: u32, seed: u64, count: usize) -> Vec<WitnessState> {
        if self.kinds.is_none() {
            return vec![];
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ WIDEN_SEED);
        let mut out = vec![];
        for _ in 0..count.saturating_mul(20) {
            if out.len() == count {
                break;
            }
            let (puzzle, route) = self.puzzle_around_route(&mut rng, table, bound);
            let length = rng.gen_range(0..route.len());
            let mut path = prefix(&puzzle, &route, length);
            let steps = rng.gen_range(1..=route.len());
            for _ in 0..steps {
                let next: Vec<usize> = path.successor_ids().collect();
                if next.is_empty() {
                    break;
                }
                path.push_id(next[rng.gen_range(0..next.len())]);
            }
            let state = WitnessState::new(puzzle, path);
            if !state.completable {
                out.push(state);
            }
        }
        out
    }
}

/// Where [`Witness::widen_states`]'s random stream starts apart from the
/// sample tier's (the two take the same seed).
const WIDEN_SEED: u64 = 0x3ade;

/// The path of the first `length` steps of `route` on `puzzle`.
fn prefix(puzzle: &Puzzle, route: &[usize], length: usize) -> Path {
    let mut path = Path::new(puzzle);
    for &v in &route[1..=length] {
        path.push_id(v);
    }
    path
}

impl Witness {
    /// A random puzzle larger than the table's side `table` and up to
    /// `bound` around a random route, and the route: width and height
    /// uniform (redrawn until one side exceeds `table`); triangles only
    /// unless the domain has kinds ([`triangles_around_route`]), else
    /// [`puzzle_around_route`] with 1 to their colours.
    fn puzzle_around_route(&self, rng: &mut ChaCha8Rng, table: u32, bound: u32) -> (Puzzle, Vec<usize>) {
        let low = table as usize + 1;
        let high = (bound as usize).max(low).min(MAX_SIDE);
        let (w, h) = loop {
            let (w, h) = (rng.gen_range(1..=high), rng.gen_range(1..=high));
            if w.max(h) >= low {
                break (w, h);
            }
        };
        match self.kinds {
            None => triangles_around_route(rng, w, h),
            Some(kinds) => {
                let colour_count = rng.gen_range(1..=kinds.colour_count);
                puzzle_around_route(rng, w, h, Kinds { colour_count, ..kinds })
            }
        }
    }
}

/// A `w` x `h` triangle puzzle around a random route, and the route (as
/// [`Witness::sample_states`] draws it without kinds).
fn triangles_around_route(rng: &mut ChaCha8Rng, w: usize, h: usize) -> (Puzzle, Vec<usize>) {
    let grid = Grid::new(w, h);
    let route = random_route(rng, grid);
    let mut used = vec![0u8; grid.num_squares()];
    for pair in route.windows(2) {
        for s in grid.edge_squares(pair[0], pair[1]) {
            used[s] += 1;
        }
    }
    let share = rng.gen_range(0.2..=1.0);
    let tri: Vec<(usize, usize, u8)> = (0..used.len())
        .filter(|&s| used[s] > 0 && rng.gen_bool(share))
        .map(|s| (grid.square(s).0, grid.square(s).1, used[s]))
        .collect();
    let (start, goal) = (grid.vertex(route[0]), grid.vertex(route[route.len() - 1]));
    let puzzle = Puzzle::new(w, h, start, goal, &tri).expect("a path's puzzle is valid");
    (puzzle, route)
}

impl Symbolic for Witness {
    type Extra = WitnessTerms;

    fn encode(&self, bound: u32) -> Encoding<WitnessTerms> {
        symbolic::encode(&self.ids, bound as usize, EncodedKinds::ALL)
    }

    /// Without the marks when `rule` declares no `mark`, without the dots
    /// when it declares no `dot`. A state the rule fires on wrongly stays
    /// one when its puzzle loses the marks (or dots) the rule does not see:
    /// the solution that begins with the path satisfies fewer constraints,
    /// and every feature of the squares, the other kind and the globals is
    /// unchanged (none of them reads a mark or a dot).
    fn encode_for(&self, bound: u32, rule: &Rule) -> Encoding<WitnessTerms> {
        let declares = |t| rule.decls.iter().any(|d| d.ty == t);
        let kinds = EncodedKinds { marks: declares(self.ids.mark), dots: declares(self.ids.dot) };
        symbolic::encode(&self.ids, bound as usize, kinds)
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
}
