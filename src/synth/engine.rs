//! Synthesis of sound rules for one specification (Butler et al. 2017,
//! §6.2), generic over a [`Domain`].
//!
//! For each number of pattern variables (fewest first), each image of the
//! specification (its symmetries) and each set of that many of the state's
//! elements, the pattern lattice is climbed from the most specific
//! patterns ([`lattice`](super::lattice)), moving to the parent whose rule
//! applies to the most states of a fixed generality sample of the table.
//! At a lattice node:
//! - the candidate actions are the argument expressions (terms enumerated
//!   by cost, one per egg class) whose values make the deduction on the
//!   specification: the cheapest, and the most general (those sound and
//!   productive on the most pairs of the node's coverage sample by
//!   themselves, one per behaviour);
//! - for each, a condition (a conjunction of atoms true on the
//!   specification) that is false on every known bad example pair is found
//!   as a covering problem ([`cover`](super::cover)): the cheapest, or for
//!   the most general actions the one keeping the most good pairs within a
//!   slack of the cheapest; then it is checked concretely: CEGIS on the
//!   node's examples (its coverage sample — table states its patterns bind
//!   on — and the shared counterexample pool), the exhaustive table of
//!   small states and random larger states; each failing state joins the
//!   node;
//! - the most general survivor (most coverage-sample states covered), then
//!   the cheapest, goes to Z3 at the *screening* bound (much faster than
//!   the full bound); Z3's counterexamples join the node and the search
//!   goes on.
//!
//! At the node the climb ends on, the condition is generalised while Z3
//! proves a wider condition sound and implied by the current one, and the
//! rule is rewritten to its cheapest equal form (egg). Of a
//! specification's rules, those another one outdoes on the table are
//! dropped; the rest must be proven sound by Z3 at the full bound to be
//! returned.
//!
//! Determinism: a run depends only on its specification and on the pool as
//! published ([`Engine::publish`]) before it started; the screening queries
//! run in fresh solvers, so caches shared across runs do not change answers.
//! (The full-bound verifier is incremental for speed: a rare full-bound
//! counterexample may then depend on earlier queries.) A Z3 timeout skips a
//! candidate, which a loaded machine can make happen where a quiet one
//! would not.

use super::cover::{self, Bits, Choice};
use super::lattice;
use super::space::{atoms, int_terms, Atom, Term};
use super::verify::{Verdict, Verifier};
use crate::domains::Domain;
use crate::dsl::ast::{Action, ActionArg, ActionId, BoolExpr, Decl, Rule, TypeId};
use crate::dsl::cost::{cost, decl_cost};
use crate::dsl::eval::{ActionValue, Binding, Interpreter, View};
use crate::dsl::print::print_rule;
use crate::dsl::schema::{ParamKind, Schema};
use crate::rewrite::Simplifier;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a specification asks for: on `state`, a rule must make `deduction`.
#[derive(Clone, Debug)]
pub struct Spec<S> {
    /// The state.
    pub state: S,
    /// The deduction (an action value the oracle confirms).
    pub deduction: ActionValue,
}

/// Knobs of the search; [`Config::new`] takes the schema's defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// Soundness bound (the schema's `limits.bound`).
    pub bound: u32,
    /// Z3 time limit per query, in milliseconds; a timeout makes the
    /// candidate unknown (skipped), never sound.
    pub timeout_ms: u32,
    /// The search decides soundness at this smaller bound (much faster in
    /// Z3); every returned rule is then proven at the full `bound`.
    pub screen_bound: u32,
    /// Size of the exhaustive table of small states.
    pub table: u32,
    /// Most expensive integer expression in an action argument.
    pub max_term_cost: u32,
    /// Most expensive left side of a comparison.
    pub max_left_cost: u32,
    /// Most expensive condition atom.
    pub max_atom_cost: u32,
    /// Most atoms in a condition.
    pub max_atoms: usize,
    /// Most expensive rule.
    pub max_rule_cost: u32,
    /// How much more than the cheapest condition a generalised one may cost.
    pub generalise_slack: u32,
    /// Random states beyond the table's size, up to the screening bound
    /// (where the search's Z3 queries would find their counterexamples),
    /// checked after it.
    pub sample: usize,
    /// States of a lattice node's table scope (the states its patterns
    /// bind on) sampled as the good examples its candidates are ranked by
    /// and generalisation tries to cover.
    pub coverage_sample: usize,
    /// Table states sampled to compare the generality of rules of
    /// different lattice nodes (how many of them a rule gains on).
    pub generality_sample: usize,
    /// Keep trying larger element sets after one size gave rules.
    pub all_sizes: bool,
}

impl Config {
    /// The defaults for a schema.
    pub fn new(schema: &Schema) -> Config {
        Config {
            bound: schema.file.limits.bound,
            timeout_ms: 10_000,
            screen_bound: schema.file.synthesis.screen,
            table: schema.file.synthesis.table,
            max_term_cost: 5,
            max_left_cost: 2,
            max_atom_cost: 6,
            max_atoms: 3,
            max_rule_cost: 30,
            generalise_slack: 3,
            sample: 10_000,
            coverage_sample: 150,
            generality_sample: 4000,
            all_sizes: false,
        }
    }
}

/// A rule found for a specification, proven sound up to `bound`.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The rule.
    pub rule: Rule,
    /// Its cost.
    pub cost: u32,
    /// The bound Z3 proved it sound up to.
    pub bound: u32,
}

/// Counters of one synthesis run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Lattice nodes (pattern sets) tried.
    pub patterns_tried: u64,
    /// Candidate rules proposed (each consistent with every known
    /// counterexample).
    pub candidates: u64,
    /// Candidates rejected on the exhaustive table of small states.
    pub rejected_by_table: u64,
    /// Candidates settled by an earlier identical query (cache).
    pub cached: u64,
    /// Z3 queries (soundness and implication).
    pub z3_calls: u64,
    /// Z3 soundness queries made (cache hits excluded).
    pub z3_soundness: u64,
    /// Z3 soundness queries that found a counterexample.
    pub z3_unsound: u64,
    /// Z3 queries without an answer (candidate skipped).
    pub z3_unknown: u64,
    /// Time spent in Z3.
    pub z3_time: Duration,
    /// Rules sound at the screening bound but not at the full bound.
    pub rejected_at_full_bound: u64,
    /// Maximal rules dropped before the full-bound proof because another
    /// rule of the specification makes all they make on the table states.
    pub dominated: u64,
}

impl Stats {
    /// Adds another run's counters.
    pub fn add(&mut self, o: &Stats) {
        self.patterns_tried += o.patterns_tried;
        self.candidates += o.candidates;
        self.rejected_by_table += o.rejected_by_table;
        self.cached += o.cached;
        self.z3_calls += o.z3_calls;
        self.z3_soundness += o.z3_soundness;
        self.z3_unsound += o.z3_unsound;
        self.z3_unknown += o.z3_unknown;
        self.z3_time += o.z3_time;
        self.rejected_at_full_bound += o.rejected_at_full_bound;
        self.dominated += o.dominated;
    }
}

/// The rules found for one specification and how they were found.
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    /// Maximally general rules, cheapest first, no two printing alike.
    pub rules: Vec<Learned>,
    /// Counters.
    pub stats: Stats,
    /// Wall time.
    pub time: Duration,
    /// States on which candidates were refuted (for [`Engine::publish`]).
    pub counterexamples: Vec<S>,
}

/// Counterexample states shared by all runs.
struct Pool<S> {
    examples: Vec<Arc<Example<S>>>,
    /// `show` of every state held.
    keys: HashSet<String>,
}

/// A state with its view.
struct Example<S> {
    state: S,
    view: View,
}

/// A cached soundness verdict.
#[derive(Clone)]
enum Known<S> {
    Sound,
    Unsound(S),
    Unknown,
}

/// Shared by every specification and thread of a run.
pub struct Engine<'d, D: Domain> {
    domain: &'d D,
    config: Config,
    table: Vec<Arc<Example<D::State>>>,
    /// The states rules of different nodes are compared on.
    basis: Vec<Arc<Example<D::State>>>,
    pool: Mutex<Pool<D::State>>,
    verdicts: Mutex<HashMap<String, Known<D::State>>>,
    /// Table states (first few) each checked rule is wrong on.
    refuted: Mutex<HashMap<String, Vec<usize>>>,
    spaces: Mutex<HashMap<Vec<TypeId>, Arc<Space>>>,
}

/// Terms and atoms over one list of variable types.
struct Space {
    terms: Vec<Term>,
    atoms: Vec<Atom>,
}

/// The seed of the random states beyond the table.
const SAMPLE_SEED: u64 = 0x5eed;
/// How many pool states a lattice node starts from.
const POOL_START: usize = 256;
/// How many failing table states one check reports.
const TABLE_FAILURES: usize = 4;
/// How often a rule refuted at the full bound is searched again.
const FULL_RETRIES: usize = 3;
/// Table states checked in parallel at a time.
const TABLE_CHUNK: usize = 4096;
/// Most action candidates tried at one node, cheapest first.
const MAX_ACTIONS: usize = 24;
/// Most actions tried at one node for their generality.
const MAX_GENERAL_ACTIONS: usize = 6;
/// The cheapest actions among which the most general are looked for.
const MAX_GENERALITY_POOL: usize = 2048;

impl<'d, D: Domain> Engine<'d, D> {
    /// An engine for `domain`; builds the exhaustive table.
    pub fn new(domain: &'d D, config: Config) -> Engine<'d, D> {
        let mut states = domain.small_states(config.table);
        states.extend(domain.sample_states(config.table, config.screen_bound.min(config.bound), SAMPLE_SEED, config.sample));
        let table: Vec<Arc<Example<D::State>>> = states
            .into_iter()
            .map(|state| Arc::new(Example { view: domain.view(&state), state }))
            .collect();
        let step = (table.len() / config.generality_sample.max(1)).max(1);
        let basis = table.iter().step_by(step).take(config.generality_sample).cloned().collect();
        Engine {
            domain,
            config,
            table,
            basis,
            pool: Mutex::new(Pool { examples: vec![], keys: HashSet::new() }),
            verdicts: Mutex::new(HashMap::new()),
            refuted: Mutex::new(HashMap::new()),
            spaces: Mutex::new(HashMap::new()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn space(&self, types: &[TypeId]) -> Arc<Space> {
        if let Some(s) = self.spaces.lock().expect("space cache").get(types) {
            return s.clone();
        }
        let schema = self.domain.schema();
        let terms = int_terms(schema, types, self.config.max_term_cost);
        let atoms = atoms(schema, types, &terms, self.config.max_left_cost, self.config.max_atom_cost);
        let space = Arc::new(Space { terms, atoms });
        self.spaces.lock().expect("space cache").insert(types.to_vec(), space.clone());
        space
    }

    /// Adds the counterexamples of finished runs to the shared pool, in
    /// the order given, skipping states it already holds. Runs started
    /// before see the pool as it was (so a batch that publishes each round
    /// of specifications in their order is deterministic).
    pub fn publish(&self, outcomes: &[&Outcome<D::State>]) {
        let mut pool = self.pool.lock().expect("pool");
        for outcome in outcomes {
            for state in &outcome.counterexamples {
                let key = self.domain.show(state);
                if pool.keys.insert(key) {
                    pool.examples.push(self.example(state.clone()));
                }
            }
        }
    }

    /// How many counterexample states the shared pool holds.
    pub fn pool_len(&self) -> usize {
        self.pool.lock().expect("pool").examples.len()
    }

    /// Which of a specification's rules to keep: a rule is dropped when
    /// another makes everything it gains on every table state (each of its
    /// productive applications is made by one of the other's on the same
    /// state), unless the two gain alike and it is the cheaper (or, at
    /// equal cost, the earlier) one.
    fn undominated(&self, settled: &[Settled<D::State>]) -> Vec<bool> {
        use rayon::prelude::*;
        let schema = self.domain.schema();
        let domain = self.domain;
        // per rule, per table state, its productive applications
        let gains: Vec<Vec<Vec<ActionValue>>> = settled
            .iter()
            .map(|s| {
                self.table
                    .par_iter()
                    .map(|ex| {
                        let interp = Interpreter::new(&s.rule, &ex.view, schema.size_feature);
                        interp.applications().into_iter().map(|(_, a)| a).filter(|a| domain.productive(&ex.state, a)).collect()
                    })
                    .collect()
            })
            .collect();
        let outdoes = |b: usize, a: usize| {
            self.table.iter().enumerate().all(|(t, ex)| gains[a][t].iter().all(|x| gains[b][t].iter().any(|y| domain.makes(&ex.state, x, y))))
        };
        let rank = |i: usize| (cost(&settled[i].rule, schema), i);
        (0..settled.len())
            .map(|a| !(0..settled.len()).any(|b| b != a && outdoes(b, a) && (!outdoes(a, b) || rank(b) < rank(a))))
            .collect()
    }

    /// How many states of the generality sample `rule` gains on.
    fn generality(&self, rule: &Rule) -> usize {
        use rayon::prelude::*;
        let size = self.domain.schema().size_feature;
        self.basis
            .par_iter()
            .filter(|ex| Interpreter::new(rule, &ex.view, size).applications().iter().any(|(_, a)| self.domain.productive(&ex.state, a) && self.domain.is_sound(&ex.state, a)))
            .count()
    }

    fn example(&self, state: D::State) -> Arc<Example<D::State>> {
        Arc::new(Example { view: self.domain.view(&state), state })
    }

    /// Synthesises the maximally general rules for `spec` (with a fresh Z3
    /// verifier in this thread's context).
    pub fn synthesize(&self, spec: &Spec<D::State>) -> Outcome<D::State> {
        let started = Instant::now();
        let screen_bound = self.config.screen_bound.min(self.config.bound);
        let mut screen = Verifier::isolated(self.domain, screen_bound, self.config.timeout_ms);
        let mut full = Verifier::new(self.domain, self.config.bound, self.config.timeout_ms);
        let mut stats = Stats::default();
        let mut found: Vec<Learned> = vec![];
        let mut counterexamples = vec![];
        let schema = self.domain.schema();
        let images: Vec<_> = self
            .domain
            .images(&spec.state, &spec.deduction)
            .into_iter()
            .map(|(state, deduction)| {
                let ex = self.example(state);
                let elements = lattice::elements(&ex.view, schema);
                (ex, deduction, elements)
            })
            .collect();
        // fewest bindings first, in every image, until some size gives rules
        for size in 1..=schema.file.synthesis.max_decls {
            let mut settled = vec![];
            for (spec_ex, deduction, elements) in &images {
                for set in lattice::subsets(elements, size) {
                    let mut run = Run { engine: self, screen: &mut screen, full: &mut full, stats: Stats::default(), found: vec![] };
                    let maximal = lattice::climb(&set, schema, |decls, binding| run.solve_node(spec_ex, deduction, decls, binding), |s| (s.general, std::cmp::Reverse(s.cost)));
                    settled.extend(maximal.map(|solved| run.settle(solved.node, solved.cand, solved.picks)));
                    stats.add(&run.stats);
                    counterexamples.extend(run.found);
                }
            }
            // only rules no other one outdoes are worth the full-bound proof
            let keep = self.undominated(&settled);
            for (i, candidate) in settled.into_iter().enumerate() {
                if !keep[i] {
                    stats.dominated += 1;
                    continue;
                }
                let mut run = Run { engine: self, screen: &mut screen, full: &mut full, stats: Stats::default(), found: vec![] };
                found.extend(run.prove_full(candidate));
                stats.add(&run.stats);
                counterexamples.extend(run.found);
            }
            if !found.is_empty() && !self.config.all_sizes {
                break;
            }
        }
        stats.z3_calls = screen.calls() + full.calls();
        let mut seen = HashSet::new();
        let mut rules: Vec<Learned> = found
            .into_iter()
            .filter(|l| seen.insert(print_rule(&Rule { name: String::new(), ..l.rule.clone() }, schema)))
            .collect();
        rules.sort_by_key(|l| l.cost);
        Outcome { rules, stats, time: started.elapsed(), counterexamples }
    }
}

/// One specification's search state.
struct Run<'e, 'd, 'v, D: Domain> {
    engine: &'e Engine<'d, D>,
    /// Z3 at the screening bound: decides the search.
    screen: &'v mut Verifier<'d, D>,
    /// Z3 at the full bound: confirms every returned rule.
    full: &'v mut Verifier<'d, D>,
    stats: Stats,
    /// Counterexamples found (published when the run is over).
    found: Vec<D::State>,
}

/// Examples of one lattice node: states, their bindings (pairs), and what
/// the node's terms and atoms are on each pair.
struct Pairs {
    /// (example index, binding)
    pairs: Vec<(usize, Binding)>,
    /// Per pair, the value of every term.
    values: Vec<Vec<i64>>,
    /// Per live atom, the pairs it holds on.
    holds: Vec<Bits>,
}

/// A lattice node with the sound rule found there.
pub struct Solved<S> {
    node: Node<S>,
    cand: Candidate,
    picks: Vec<usize>,
    /// How many states of the generality sample the rule gains on.
    general: usize,
    /// The rule's cost.
    cost: u32,
}

/// A maximal node's final rule, sound at the screening bound, awaiting
/// the full-bound proof (with the node, should that find a counterexample).
pub struct Settled<S> {
    node: Node<S>,
    cand: Candidate,
    rule: Rule,
}

/// A candidate rule at a node: an action, its cheapest condition that
/// survives the concrete checks, and how it ranks.
struct Ranked {
    cand: Candidate,
    picks: Vec<usize>,
    /// Rule cost.
    cost: u32,
    /// Sample states covered.
    covered: usize,
    /// Place of the action in the cheapest-first order.
    order: usize,
}

impl Ranked {
    fn new<D: Domain>(node: &Node<D::State>, cand: Candidate, picks: Vec<usize>, order: usize, decl_cost: u32, domain: &D) -> Ranked {
        let cost = decl_cost + cand.cost + node.condition_cost(&picks, domain.schema());
        let covered = node.covered_states(&cand, &picks, domain);
        Ranked { cand, picks, cost, covered, order }
    }

    /// Most general first, then cheapest, then first enumerated.
    fn rank(&self) -> (std::cmp::Reverse<usize>, u32, usize) {
        (std::cmp::Reverse(self.covered), self.cost, self.order)
    }
}

/// A node's candidate action: arguments and cost.
#[derive(Clone, Debug)]
struct Candidate {
    id: ActionId,
    /// Per parameter: a boolean or a term index.
    args: Vec<ArgChoice>,
    cost: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum ArgChoice {
    Bool(bool),
    Term(usize),
}

impl<'d, D: Domain> Run<'_, 'd, '_, D> {
    fn remember(&mut self, ex: &Arc<Example<D::State>>) {
        self.found.push(ex.state.clone());
    }

    /// The most general sound rule (sample coverage, then cost) of one
    /// lattice node, if any, with the node's search state.
    fn solve_node(&mut self, spec: &Arc<Example<D::State>>, deduction: &ActionValue, decls: &[Decl], binding: &Binding) -> Option<Solved<D::State>> {
        self.stats.patterns_tried += 1;
        let engine = self.engine;
        let schema = engine.domain.schema();
        let types: Vec<TypeId> = decls.iter().map(|d| d.ty).collect();
        let space = engine.space(&types);
        let skeleton = Rule {
            name: String::new(),
            description: vec![],
            decls: decls.to_vec(),
            condition: BoolExpr::True,
            action: Action { id: ActionId(0), args: vec![] },
        };
        let interp = Interpreter::new(&skeleton, &spec.view, schema.size_feature);
        let spec_values: Vec<i64> = space.terms.iter().map(|t| interp.eval_int(&t.expr, binding)).collect();
        let live: Vec<usize> = (0..space.atoms.len())
            .filter(|&a| holds(&space.atoms[a], &spec_values, &interp, binding))
            .collect();
        let candidates = self.actions(&space.terms, &spec_values, spec, deduction, MAX_GENERALITY_POOL);
        if candidates.is_empty() {
            return None;
        }
        let decl_cost: u32 = decls.iter().map(|d| decl_cost(d, schema)).sum();
        let live_count = live.len();
        let mut node = Node {
            skeleton,
            space: space.clone(),
            live,
            examples: vec![],
            sample: 0,
            scope: None,
            pairs: Pairs { pairs: vec![], values: vec![], holds: vec![Bits::new(); live_count] },
        };
        // the coverage sample first (candidates are ranked on it): table
        // states the patterns bind on, evenly spread; then the most recent
        // counterexamples of the pool
        let scope = node.table_scope(&engine.table, schema);
        let step = (scope.len() / engine.config.coverage_sample.max(1)).max(1);
        let coverage: Vec<_> = scope.iter().step_by(step).take(engine.config.coverage_sample).map(|&i| engine.table[i].clone()).collect();
        node.sample = coverage.len();
        let start: Vec<_> = {
            let pool = engine.pool.lock().expect("pool");
            pool.examples.iter().rev().take(POOL_START).cloned().collect()
        };
        for ex in coverage.into_iter().chain(start) {
            node.add_example(ex, schema);
        }
        // Candidates: per action (cheapest first), the cheapest condition
        // that survives the concrete checks. The cheapest such rule fixes a
        // cost ceiling (plus the slack); under it, the most general rule
        // (most sample states covered), then the cheapest, goes to Z3 first.
        // The actions most often sound and productive on the sample by
        // themselves compete too, whatever their cost: a general action
        // made of costlier terms is what makes a widely applicable rule.
        let slack = engine.config.generalise_slack;
        let max_cost = engine.config.max_rule_cost;
        let general = node.most_general(&candidates, MAX_GENERAL_ACTIONS, engine.domain);
        let mut ceiling: Option<u32> = None;
        let mut ranked: Vec<Ranked> = vec![];
        for (order, cand) in candidates.iter().enumerate().take(MAX_ACTIONS) {
            let budget = ceiling.map_or(max_cost, |c| c + slack);
            if decl_cost + cand.cost > budget {
                break;
            }
            if let Some(picks) = self.table_condition(&mut node, cand, budget - decl_cost - cand.cost) {
                let r = Ranked::new(&node, cand.clone(), picks, order, decl_cost, engine.domain);
                ceiling = Some(ceiling.map_or(r.cost, |c| c.min(r.cost)));
                ranked.push(r);
            }
        }
        let limit = ceiling.unwrap_or(max_cost) + slack;
        ranked.retain(|r| r.cost <= limit);
        for order in general {
            let cand = &candidates[order];
            // (one already ranked with its cheapest condition competes
            // again with its widest)
            if decl_cost + cand.cost > max_cost {
                continue;
            }
            if let Some(picks) = self.widest_condition(&mut node, cand, max_cost - decl_cost - cand.cost) {
                ranked.push(Ranked::new(&node, cand.clone(), picks, order, decl_cost, engine.domain));
            }
        }
        let best = loop {
            ranked.sort_by_key(|r| r.rank());
            if ranked.is_empty() {
                return None;
            }
            let r = ranked.remove(0);
            // counterexamples found since it was chosen may refute it
            if !node.consistent(&r.cand, &r.picks, engine.domain) {
                let budget = limit.max(r.cost) - decl_cost - r.cand.cost;
                if let Some(picks) = self.table_condition(&mut node, &r.cand, budget) {
                    ranked.push(Ranked::new(&node, r.cand, picks, r.order, decl_cost, engine.domain));
                }
                continue;
            }
            let rule = node.rule(&r.cand, &r.picks);
            match self.prove(&mut node, &rule) {
                Known::Sound => break r,
                Known::Unknown => continue,
                Known::Unsound(_) => {
                    let budget = limit.max(r.cost) - decl_cost - r.cand.cost;
                    if let Some(picks) = self.table_condition(&mut node, &r.cand, budget) {
                        ranked.push(Ranked::new(&node, r.cand, picks, r.order, decl_cost, engine.domain));
                    }
                }
            }
        };
        let general = engine.generality(&node.rule(&best.cand, &best.picks));
        Some(Solved { node, cand: best.cand, picks: best.picks, general, cost: best.cost })
    }

    /// A maximal node's rule made final: its condition generalised, then
    /// rewritten to the cheapest equal form (kept only if Z3 agrees it is
    /// sound at the screening bound).
    fn settle(&mut self, mut node: Node<D::State>, cand: Candidate, picks: Vec<usize>) -> Settled<D::State> {
        let schema = self.engine.domain.schema();
        let general = self.generalise(&mut node, &cand, picks);
        let rule = node.rule(&cand, &general);
        let simple = Simplifier::new(schema).rule(&rule);
        let rule = if simple != rule && matches!(self.check(&simple), Known::Sound) { simple } else { rule };
        Settled { node, cand, rule }
    }

    /// Returns a settled rule only once Z3 proves it sound at the full
    /// bound; a counterexample there sends the node back to the search (a
    /// few times).
    fn prove_full(&mut self, mut settled: Settled<D::State>) -> Option<Learned> {
        let schema = self.engine.domain.schema();
        for _ in 0..FULL_RETRIES {
            match self.check_at(&settled.rule, true) {
                Known::Sound => {
                    let rule = settled.rule;
                    return Some(Learned { cost: cost(&rule, schema), rule, bound: self.engine.config.bound });
                }
                Known::Unknown => return None,
                Known::Unsound(state) => {
                    let Settled { mut node, cand, .. } = settled;
                    let ex = self.engine.example(state);
                    self.remember(&ex);
                    node.add_example(ex, schema);
                    self.stats.rejected_at_full_bound += 1;
                    let budget = self.engine.config.max_rule_cost;
                    let picks = self.sound_condition(&mut node, &cand, budget)?;
                    settled = self.settle(node, cand, picks);
                }
            }
        }
        None
    }

    /// The cheapest condition for `cand` that Z3 proves sound at the
    /// screening bound.
    fn sound_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32) -> Option<Vec<usize>> {
        loop {
            let picks = self.table_condition(node, cand, budget)?;
            match self.prove(node, &node.rule(cand, &picks)) {
                Known::Sound => return Some(picks),
                Known::Unknown => return None,
                Known::Unsound(_) => continue,
            }
        }
    }

    /// The node's actions that make the deduction and are sound on the
    /// specification, cheapest first.
    fn actions(&self, terms: &[Term], spec_values: &[i64], spec: &Example<D::State>, deduction: &ActionValue, limit: usize) -> Vec<Candidate> {
        let schema = self.engine.domain.schema();
        // one representative per distinct value keeps the tuple count small
        let mut by_value: HashMap<i64, Vec<usize>> = HashMap::new();
        for (i, &v) in spec_values.iter().enumerate() {
            by_value.entry(v).or_default().push(i);
        }
        let mut values: Vec<i64> = by_value.keys().copied().collect();
        values.sort_unstable();
        let mut out = vec![];
        for (a, def) in schema.file.actions.iter().enumerate() {
            let id = ActionId(a as u8);
            // every tuple of argument values
            let mut tuples: Vec<Vec<i64>> = vec![vec![]];
            for p in &def.params {
                let choices: Vec<i64> = match p {
                    ParamKind::Bool => vec![0, 1],
                    ParamKind::Int => values.clone(),
                };
                tuples = tuples.into_iter().flat_map(|t| choices.iter().map(move |&c| [t.clone(), vec![c]].concat())).collect();
            }
            for tuple in tuples {
                let value = ActionValue { action: id, args: tuple.clone() };
                if !self.engine.domain.makes(&spec.state, deduction, &value) || !self.engine.domain.is_sound(&spec.state, &value) {
                    continue;
                }
                let mut partial: Vec<(Vec<ArgChoice>, u32)> = vec![(vec![], def.cost)];
                for (p, &v) in def.params.iter().zip(&tuple) {
                    let options: Vec<(ArgChoice, u32)> = match p {
                        ParamKind::Bool => vec![(ArgChoice::Bool(v != 0), schema.costs().bool_literal)],
                        ParamKind::Int => by_value[&v].iter().map(|&i| (ArgChoice::Term(i), terms[i].cost)).collect(),
                    };
                    partial = partial
                        .into_iter()
                        .flat_map(|(args, c)| options.iter().map(move |(o, oc)| ([args.clone(), vec![*o]].concat(), c + oc)))
                        .collect();
                    partial.sort_by_key(|(_, c)| *c);
                    partial.truncate(limit);
                }
                out.extend(partial.into_iter().map(|(args, cost)| Candidate { id, args, cost }));
            }
        }
        out.sort_by(|a, b| (a.cost, a.id, &a.args).cmp(&(b.cost, b.id, &b.args)));
        out.truncate(limit);
        out
    }

    /// The cheapest condition for `cand` within `budget` that is sound on
    /// every known counterexample and on the exhaustive table (CEGIS with
    /// concrete checks only; Z3 comes later).
    fn table_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, false)
    }

    /// Like [`table_condition`](Self::table_condition), but the condition
    /// keeping the most good pairs of the coverage sample (then the
    /// cheapest) within the generalisation slack of the cheapest: how
    /// general the action can be made.
    fn widest_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, true)
    }

    fn concrete_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32, wide: bool) -> Option<Vec<usize>> {
        let and = self.engine.domain.schema().costs().and;
        let max_atoms = self.engine.config.max_atoms;
        loop {
            let bad = node.bad_pairs(cand, self.engine.domain);
            let good = if wide { node.good_pairs(cand, self.engine.domain) } else { Bits::new() };
            let choices = node.choices(&bad, &good, and);
            let cheapest = cover::cheapest(&choices.list, &bad, budget + and, max_atoms)?;
            let picks = if wide {
                // within the slack of the cheapest, as generalisation
                let floor: u32 = cheapest.iter().map(|&i| choices.list[i].cost).sum();
                let budget = (floor + self.engine.config.generalise_slack).min(budget + and);
                cover::widest(&choices.list, &bad, &good, 0, budget, max_atoms).unwrap_or(cheapest)
            } else {
                cheapest
            };
            let picks: Vec<usize> = picks.into_iter().map(|i| choices.atom[i]).collect();
            self.stats.candidates += 1;
            if !self.refute(node, &node.rule(cand, &picks)) {
                return Some(picks);
            }
        }
    }

    /// Z3 at the bound; a counterexample joins the node and the pool.
    fn prove(&mut self, node: &mut Node<D::State>, rule: &Rule) -> Known<D::State> {
        let known = self.check(rule);
        if let Known::Unsound(state) = &known {
            let ex = self.engine.example(state.clone());
            self.remember(&ex);
            node.add_example(ex, self.engine.domain.schema());
        }
        known
    }

    /// Condition generalisation: while a condition exists that keeps more
    /// of the good sample pairs (and all the current one keeps), is sound,
    /// and that Z3 proves implied by the current one, take it.
    fn generalise(&mut self, node: &mut Node<D::State>, cand: &Candidate, mut picks: Vec<usize>) -> Vec<usize> {
        let engine = self.engine;
        let schema = engine.domain.schema();
        let and = schema.costs().and;
        let budget = node.condition_cost(&picks, schema) + engine.config.generalise_slack;
        let mut banned: HashSet<Vec<usize>> = HashSet::new();
        loop {
            let bad = node.bad_pairs(cand, engine.domain);
            let good = node.good_pairs(cand, engine.domain);
            let kept = node.kept(&good, &picks);
            let choices = node.choices(&bad, &good, and);
            // atoms must keep every pair the current condition keeps
            let mut list = vec![];
            let mut atom = vec![];
            for (c, &a) in choices.list.iter().zip(&choices.atom) {
                if kept.is_subset(&c.keeps) {
                    list.push(c.clone());
                    atom.push(a);
                }
            }
            let Some(next) = cover::widest(&list, &bad, &good, kept.count(), budget + and, engine.config.max_atoms) else {
                return picks;
            };
            let mut next: Vec<usize> = next.into_iter().map(|i| atom[i]).collect();
            next.sort_unstable();
            if !banned.insert(next.clone()) {
                return picks;
            }
            self.stats.candidates += 1;
            let rule = node.rule(cand, &next);
            if self.refute(node, &rule) {
                continue;
            }
            if !matches!(self.prove(node, &rule), Known::Sound) {
                continue;
            }
            // the old condition must imply the new one on every state
            let old = node.condition(&picks);
            let new = node.condition(&next);
            let query = Rule { condition: BoolExpr::and(vec![old, BoolExpr::Not(Box::new(new))]), ..rule.clone() };
            let started = Instant::now();
            let implied = self.screen.find_state(&query);
            self.stats.z3_time += started.elapsed();
            match implied {
                Ok(None) => picks = next,
                // a state the old condition covers and the new does not:
                // learn it as a good example that must stay covered
                Ok(Some(state)) => node.add_example(engine.example(state), schema),
                Err(_) => self.stats.z3_unknown += 1,
            }
        }
    }

    /// Concrete rejection on the exhaustive table: adds up to a few failing
    /// states to the node (and the pool); whether any was found.
    fn refute(&mut self, node: &mut Node<D::State>, rule: &Rule) -> bool {
        let engine = self.engine;
        let schema = engine.domain.schema();
        let key = rule_key(rule, schema);
        let cached = engine.refuted.lock().expect("table cache").get(&key).cloned();
        let failures = match cached {
            Some(f) => f,
            None => {
                let scope = node.table_scope(&engine.table, schema);
                let f = table_failures(engine, rule, scope);
                engine.refuted.lock().expect("table cache").insert(key, f.clone());
                f
            }
        };
        if failures.is_empty() {
            return false;
        }
        self.stats.rejected_by_table += 1;
        for i in failures {
            let ex = engine.table[i].clone();
            self.remember(&ex);
            node.add_example(ex, schema);
        }
        true
    }

    /// Z3 soundness of a rule at the bound, through the shared cache.
    fn check(&mut self, rule: &Rule) -> Known<D::State> {
        self.check_at(rule, false)
    }

    /// Z3 soundness at the screening bound or (`full`) the full bound.
    fn check_at(&mut self, rule: &Rule, full: bool) -> Known<D::State> {
        let engine = self.engine;
        let verifier = if full { &mut *self.full } else { &mut *self.screen };
        let key = format!("{}\n{}", verifier.bound(), rule_key(rule, engine.domain.schema()));
        if let Some(k) = engine.verdicts.lock().expect("verdicts").get(&key) {
            self.stats.cached += 1;
            return k.clone();
        }
        let started = Instant::now();
        self.stats.z3_soundness += 1;
        let verdict = verifier.check(rule);
        self.stats.z3_time += started.elapsed();
        let known = match verdict {
            Verdict::Sound => Known::Sound,
            Verdict::Unsound(ce) => {
                self.stats.z3_unsound += 1;
                Known::Unsound(ce.state)
            }
            Verdict::Unknown(_) => {
                self.stats.z3_unknown += 1;
                Known::Unknown
            }
        };
        engine.verdicts.lock().expect("verdicts").insert(key, known.clone());
        known
    }
}

/// A rule's identity for the caches: its text without name or comments.
fn rule_key(rule: &Rule, schema: &Schema) -> String {
    print_rule(&Rule { name: String::new(), description: vec![], ..rule.clone() }, schema)
}

/// The table states (indices, ascending) in `scope` on which `rule` is
/// wrong: the first few, found chunk by chunk in parallel.
fn table_failures<D: Domain>(engine: &Engine<'_, D>, rule: &Rule, scope: &[usize]) -> Vec<usize> {
    use rayon::prelude::*;
    let size = engine.domain.schema().size_feature;
    let wrong = |&i: &usize| {
        let ex = &engine.table[i];
        let interp = Interpreter::new(rule, &ex.view, size);
        let mut wrong = false;
        interp.for_each_binding(|b| {
            if !wrong && interp.eval_bool(&rule.condition, b) && !engine.domain.is_sound(&ex.state, &interp.eval_action(b)) {
                wrong = true;
            }
        });
        wrong
    };
    for chunk in scope.chunks(TABLE_CHUNK) {
        let mut found: Vec<usize> = chunk.par_iter().filter(|i| wrong(i)).copied().collect();
        if !found.is_empty() {
            found.truncate(TABLE_FAILURES);
            return found;
        }
    }
    vec![]
}

/// Whether an atom holds on a pair whose term values are `values`.
fn holds(atom: &Atom, values: &[i64], interp: &Interpreter<'_>, binding: &Binding) -> bool {
    match atom.cmp {
        Some((op, l, r)) => op.holds(values[l], values[r]),
        None => interp.eval_bool(&atom.expr, binding),
    }
}

/// Atoms as covering choices, one per distinct behaviour (the cheapest).
struct Choices {
    list: Vec<Choice>,
    /// The atom index of each choice.
    atom: Vec<usize>,
}

/// A lattice node under search.
pub(crate) struct Node<S> {
    skeleton: Rule,
    space: Arc<Space>,
    /// Indices of the atoms that hold on the specification.
    live: Vec<usize>,
    examples: Vec<Arc<Example<S>>>,
    /// The first `sample` examples are the coverage sample.
    sample: usize,
    /// Indices of the table states the node's patterns bind on (computed
    /// on first use).
    scope: Option<Vec<usize>>,
    pairs: Pairs,
}

impl<S: Clone> Node<S> {
    fn add_example(&mut self, ex: Arc<Example<S>>, schema: &Schema) {
        let e = self.examples.len();
        let interp = Interpreter::new(&self.skeleton, &ex.view, schema.size_feature);
        let mut bindings = vec![];
        interp.for_each_binding(|b| bindings.push(b.clone()));
        for b in bindings {
            let p = self.pairs.pairs.len();
            let values: Vec<i64> = self.space.terms.iter().map(|t| interp.eval_int(&t.expr, &b)).collect();
            for (k, &a) in self.live.iter().enumerate() {
                if holds(&self.space.atoms[a], &values, &interp, &b) {
                    self.pairs.holds[k].set(p);
                }
            }
            self.pairs.pairs.push((e, b));
            self.pairs.values.push(values);
        }
        self.examples.push(ex);
    }

    /// The table states on which the node's patterns bind.
    fn table_scope(&mut self, table: &[Arc<Example<S>>], schema: &Schema) -> &[usize] {
        let skeleton = &self.skeleton;
        self.scope.get_or_insert_with(|| {
            (0..table.len())
                .filter(|&i| {
                    let mut binds = false;
                    Interpreter::new(skeleton, &table[i].view, schema.size_feature).for_each_binding(|_| binds = true);
                    binds
                })
                .collect()
        })
    }

    fn action_value(&self, cand: &Candidate, pair: usize) -> ActionValue {
        let values = &self.pairs.values[pair];
        let args = cand
            .args
            .iter()
            .map(|a| match a {
                ArgChoice::Bool(b) => *b as i64,
                ArgChoice::Term(i) => values[*i],
            })
            .collect();
        ActionValue { action: cand.id, args }
    }

    /// Pairs on which the action is wrong.
    fn bad_pairs<D: Domain<State = S>>(&self, cand: &Candidate, domain: &D) -> Bits {
        let mut out = Bits::new();
        for p in 0..self.pairs.pairs.len() {
            if !domain.is_sound(&self.examples[self.pairs.pairs[p].0].state, &self.action_value(cand, p)) {
                out.set(p);
            }
        }
        out
    }

    /// Pairs of the coverage sample on which the action is sound and gains
    /// something.
    fn good_pairs<D: Domain<State = S>>(&self, cand: &Candidate, domain: &D) -> Bits {
        let mut out = Bits::new();
        for p in 0..self.pairs.pairs.len() {
            let state = &self.examples[self.pairs.pairs[p].0].state;
            if self.pairs.pairs[p].0 >= self.sample {
                break;
            }
            let value = self.action_value(cand, p);
            if domain.is_sound(state, &value) && domain.productive(state, &value) {
                out.set(p);
            }
        }
        out
    }

    /// The indices of the `count` actions that are sound and productive
    /// on the most pairs of the coverage sample (cheapest first among
    /// equals, `cands` being cheapest first; one per set of pairs), most
    /// general first.
    fn most_general<D: Domain<State = S>>(&self, cands: &[Candidate], count: usize, domain: &D) -> Vec<usize> {
        // one action per set of pairs gained on: the cheapest
        let mut seen = HashSet::new();
        let mut scored: Vec<(std::cmp::Reverse<usize>, usize)> = vec![];
        for (i, c) in cands.iter().enumerate() {
            let good = self.good_pairs(c, domain);
            let n = good.count();
            if n > 0 && seen.insert(good) {
                scored.push((std::cmp::Reverse(n), i));
            }
        }
        scored.sort_unstable();
        scored.into_iter().take(count).map(|(_, i)| i).collect()
    }

    /// Whether the condition is false on every known bad pair.
    fn consistent<D: Domain<State = S>>(&self, cand: &Candidate, picks: &[usize], domain: &D) -> bool {
        self.kept(&self.bad_pairs(cand, domain), picks).is_empty()
    }

    /// How many states of the coverage sample the rule covers.
    fn covered_states<D: Domain<State = S>>(&self, cand: &Candidate, picks: &[usize], domain: &D) -> usize {
        let kept = self.kept(&self.good_pairs(cand, domain), picks);
        let states: HashSet<usize> = kept.ones().map(|p| self.pairs.pairs[p].0).collect();
        states.len()
    }

    /// Which good pairs a condition (atom indices) holds on.
    fn kept(&self, good: &Bits, picks: &[usize]) -> Bits {
        picks.iter().fold(good.clone(), |acc, &a| acc.and(&self.pairs.holds[self.live_index(a)]))
    }

    fn live_index(&self, atom: usize) -> usize {
        self.live.binary_search(&atom).expect("picked atoms are live")
    }

    /// The live atoms as choices over the given bad and good pairs,
    /// deduplicated by behaviour (cheapest, then first, kept).
    fn choices(&self, bad: &Bits, good: &Bits, and: u32) -> Choices {
        let mut seen: HashMap<(Bits, Bits), usize> = HashMap::new();
        let mut list: Vec<Choice> = vec![];
        let mut atom = vec![];
        for (k, &a) in self.live.iter().enumerate() {
            let excludes = bad.minus(&self.pairs.holds[k]);
            if excludes.is_empty() {
                continue;
            }
            let keeps = good.and(&self.pairs.holds[k]);
            let cost = self.space.atoms[a].cost + and;
            match seen.get(&(excludes.clone(), keeps.clone())) {
                Some(&i) if list[i].cost <= cost => {}
                Some(&i) => {
                    list[i] = Choice { cost, key: a, excludes, keeps };
                    atom[i] = a;
                }
                None => {
                    seen.insert((excludes.clone(), keeps.clone()), list.len());
                    list.push(Choice { cost, key: a, excludes, keeps });
                    atom.push(a);
                }
            }
        }
        Choices { list, atom }
    }

    fn condition(&self, picks: &[usize]) -> BoolExpr {
        let mut sorted = picks.to_vec();
        sorted.sort_unstable();
        BoolExpr::and(sorted.iter().map(|&a| self.space.atoms[a].expr.clone()).collect())
    }

    fn condition_cost(&self, picks: &[usize], schema: &Schema) -> u32 {
        crate::dsl::cost::bool_cost(&self.condition(picks), schema)
    }

    fn rule(&self, cand: &Candidate, picks: &[usize]) -> Rule {
        let args = cand
            .args
            .iter()
            .map(|a| match a {
                ArgChoice::Bool(b) => ActionArg::Bool(*b),
                ArgChoice::Term(i) => ActionArg::Int(self.space.terms[*i].expr.clone()),
            })
            .collect();
        Rule { condition: self.condition(picks), action: Action { id: cand.id, args }, ..self.skeleton.clone() }
    }
}
