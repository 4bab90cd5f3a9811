//! Soundness of a rule up to a bound, as one Z3 satisfiability query:
//! "some valid state up to the bound, some binding, the condition holds and
//! the action is wrong". Sat gives a counterexample state, unsat proves the
//! rule sound, anything else is `Unknown` — never sound.
//!
//! A verifier may split a hard query ([`Verifier::split_after`]) into one
//! query per slot of one pattern variable (the domain's DSL file says of
//! which types, `limits.split`): the rule is sound exactly when it is
//! sound with the variable bound to each slot in turn, and the cases share
//! what is left of the limit. Each case fixes the variable's index, so Z3
//! sees one element's features as plain terms instead of choices over
//! every slot. Splitting costs more than it saves on a query that a
//! moderate limit settles whole (each case repeats most of the work), and
//! saves on the hardest ones; so the second proof, whose rules already ran
//! out of the search's limit whole, splits at once, and nothing else
//! splits unless asked (`verify --split-after`).

use crate::dsl::ast::{ActionArg, PatternKind, Rule, TypeId, Var};
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use crate::dsl::symbolic::{num, signed_value, Compiler, NumOps};
use crate::synth::domain::{Encoding, Symbolic};
use z3::{Params, SatResult, Solver};

/// The outcome of checking one rule, the one verdict type of the engine
/// and the pipeline. `W` is what an unsound verdict carries: the
/// verifier's [`Counterexample`]; the search's verdict cache keeps only its
/// state; a journal keeps the state as the domain shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict<W> {
    /// No valid state up to the bound makes the rule wrong.
    Sound,
    /// A state on which the rule concludes something wrong.
    Unsound(W),
    /// No answer (see [`Unknown`]): treat as not sound.
    Unknown(Unknown),
}

/// Why a query has no answer. Never a verdict of soundness.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum Unknown {
    /// Z3 gave up: a time or resource limit, or incompleteness (its reason).
    #[error("Z3 gave up: {0}")]
    Limit(String),
    /// Z3 said satisfiable but returned no model.
    #[error("Z3 returned no model")]
    NoModel,
    /// The model is not a valid state (an encoding fault).
    #[error("Z3 model is not a valid state")]
    BadModel,
    /// The model's state does not make the rule wrong when replayed with
    /// the interpreter and the exact oracle (an encoding fault).
    #[error("Z3 counterexample did not replay: {0}")]
    NoReplay(String),
    /// The rule cannot be put to Z3 (the compiler's reason).
    #[error("the rule cannot be put to Z3: {0}")]
    Untranslatable(String),
}

/// How many models that do not replay one query excludes
/// ([`Symbolic::pin`]) before it answers `unknown`.
const MAX_PINS: usize = 32;

/// Z3's reason for an `unknown`.
fn gave_up(solver: &Solver) -> Unknown {
    Unknown::Limit(solver.get_reason_unknown().unwrap_or_else(|| "unknown".to_string()))
}

impl<W> Verdict<W> {
    /// The same verdict, an unsound one carrying `f` of what it carried.
    pub fn map<V>(self, f: impl FnOnce(W) -> V) -> Verdict<V> {
        match self {
            Verdict::Sound => Verdict::Sound,
            Verdict::Unsound(w) => Verdict::Unsound(f(w)),
            Verdict::Unknown(why) => Verdict::Unknown(why),
        }
    }

    /// Whether the rule was proven sound.
    pub fn is_sound(&self) -> bool {
        matches!(self, Verdict::Sound)
    }

    /// The verdict's word in reports: `sound`, `unsound` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Unsound(_) => "unsound",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// A state, binding and action value on which a rule is wrong.
#[derive(Clone, Debug)]
pub struct Counterexample<S> {
    /// The state.
    pub state: S,
    /// The binding (element index per pattern variable).
    pub binding: Binding,
    /// What the rule concludes there.
    pub action: ActionValue,
}

/// A solver for the queries. Declaring the logic QF_AUFLIA (rather than
/// letting Z3 detect QF_LIA) selects a faster configuration of Z3 on these
/// queries; the answers are the same.
fn new_solver(params: &Params) -> Solver {
    let solver = Solver::new_for_logic("QF_AUFLIA").unwrap_or_default();
    solver.set_params(params);
    solver
}

/// The pattern variable a hard query about `rule` is split over: an
/// arbitrary pattern whose element the action reads (of a `prune`, which
/// reads none, any arbitrary pattern), of the first of the `preferred`
/// types that has one.
pub fn split_variable(rule: &Rule, preferred: &[TypeId]) -> Option<Var> {
    let prune = rule.action.args.is_empty();
    let read = |v: Var| prune || rule.action.args.iter().any(|a| matches!(a, ActionArg::Int(e) if e.reads(v)));
    preferred.iter().find_map(|&ty| {
        (0..rule.decls.len())
            .find(|&v| rule.decls[v].ty == ty && rule.decls[v].kind == PatternKind::Arbitrary && read(v as Var))
            .map(|v| v as Var)
    })
}

/// Checks rules against symbolic states up to a bound.
pub struct Verifier<'d, D: Symbolic> {
    domain: &'d D,
    /// Z3's resource limit per query (0: none).
    rlimit: u32,
    /// Wall-clock limit per query in milliseconds (0: none).
    timeout_ms: u32,
    /// Split a query with a variable to split over once it has run this
    /// many units whole (with a resource limit only).
    split_after: Option<u32>,
    bound: u32,
    calls: u64,
    /// How many checks went on to the domain's tighter encoding.
    tight_checks: u64,
    /// The resource count of the last query.
    last_count: std::cell::Cell<Option<u64>>,
}

/// One query's encoding and solver, with the domain (in one Z3 context).
struct Session<'a, D: Symbolic> {
    domain: &'a D,
    encoding: &'a Encoding<D::Extra>,
    solver: &'a Solver,
}

/// The solver parameters: a time limit or a resource limit (0: none).
fn params(timeout_ms: u32, rlimit: u32) -> Params {
    let mut params = Params::new();
    if timeout_ms > 0 {
        params.set_u32("timeout", timeout_ms);
    }
    if rlimit > 0 {
        params.set_u32("rlimit", rlimit);
    }
    // the classic simplex was measured fastest on these queries
    params.set_u32("arith.solver", 2);
    params
}

impl<'d, D: Symbolic> Verifier<'d, D> {
    /// A verifier for states up to `bound`, giving up on one query after
    /// `timeout_ms` milliseconds of wall-clock time (so an answer may
    /// depend on the machine's load). Every query runs in a fresh Z3
    /// context on the encoding made for its rule
    /// ([`Symbolic::encode_for`]).
    pub fn new(domain: &'d D, bound: u32, timeout_ms: u32) -> Verifier<'d, D> {
        Verifier {
            domain,
            rlimit: 0,
            timeout_ms,
            split_after: None,
            bound,
            calls: 0,
            tight_checks: 0,
            last_count: std::cell::Cell::new(None),
        }
    }

    /// A verifier whose answers depend only on the query: every query runs
    /// in a fresh Z3 context (its own encoding and solver, so neither
    /// earlier queries nor the thread that asks matter) and is limited by
    /// Z3's resource count `rlimit` (the same on any machine under any
    /// load) instead of wall-clock time.
    pub fn deterministic(domain: &'d D, bound: u32, rlimit: u32) -> Verifier<'d, D> {
        Verifier { rlimit, ..Verifier::new(domain, bound, 0) }
    }

    /// The same verifier splitting a query with a variable to split over
    /// once it has run `count` units whole (0: at once). Only with a
    /// resource limit ([`deterministic`](Self::deterministic)).
    pub fn split_after(mut self, count: u32) -> Verifier<'d, D> {
        self.split_after = Some(count);
        self
    }

    /// The resource count Z3 spent on the last query.
    pub fn last_count(&self) -> Option<u64> {
        self.last_count.get()
    }

    /// Runs one query about `rule` in a fresh Z3 context, on the encoding
    /// made for the rule ([`Symbolic::encode_for`]) and a solver holding
    /// its validity, limited by the verifier's time limit and by `rlimit`
    /// (the verifier's own if `None`).
    fn query<T: Send + Sync>(
        &self,
        rule: &Rule,
        rlimit: Option<u32>,
        f: impl Fn(&Session<'_, D>) -> T + Send + Sync,
    ) -> T {
        let (domain, bound) = (self.domain, self.bound);
        self.query_on(rlimit, || Some(domain.encode_for(bound, rule)), f).expect("the rule's encoding exists")
    }

    /// Runs one query in a fresh Z3 context on the encoding `encode` makes
    /// there (`None` if it makes none), as [`query`](Self::query) does.
    fn query_on<T: Send + Sync>(
        &self,
        rlimit: Option<u32>,
        encode: impl Fn() -> Option<Encoding<D::Extra>> + Send + Sync,
        f: impl Fn(&Session<'_, D>) -> T + Send + Sync,
    ) -> Option<T> {
        let (domain, rlimit, timeout_ms) = (self.domain, rlimit.unwrap_or(self.rlimit), self.timeout_ms);
        let (out, count) = z3::with_z3_config(&z3::Config::new(), || {
            let Some(encoding) = encode() else { return (None, None) };
            let solver = new_solver(&params(timeout_ms, rlimit));
            solver.assert(&encoding.valid);
            let out = f(&Session { domain, encoding: &encoding, solver: &solver });
            let count = solver.get_statistics().value("rlimit count").map(|v| match v {
                z3::StatisticsValue::UInt(n) => n as u64,
                z3::StatisticsValue::Double(x) => x as u64,
            });
            (Some(out), count)
        });
        self.last_count.set(count);
        out
    }

    /// The bound states are checked up to.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// How many Z3 queries this verifier has made.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// How many checks asked the domain's tighter encoding
    /// ([`Symbolic::encode_tight_for`]) after a model did not replay.
    pub fn tight_checks(&self) -> u64 {
        self.tight_checks
    }

    /// Checks one rule: whole, or past the split point case by case (the
    /// first case that is not proven sound gives the verdict; the cases
    /// share the resource limit).
    ///
    /// Where a model did not replay, the rule is checked whole once more on
    /// the domain's tighter encoding ([`Symbolic::encode_tight_for`]), if
    /// it has one; the resource counts add up.
    pub fn check(&mut self, rule: &Rule) -> Verdict<Counterexample<D::State>> {
        self.calls += 1;
        let verdict = self.check_on_rule_encoding(rule);
        if !matches!(verdict, Verdict::Unknown(Unknown::NoReplay(_))) {
            return verdict;
        }
        let spent = self.last_count.get().unwrap_or(0);
        let (domain, bound) = (self.domain, self.bound);
        match self.query_on(None, || domain.encode_tight_for(bound, rule), |s| s.check(rule, None)) {
            Some(tight) => {
                self.tight_checks += 1;
                self.last_count.set(Some(spent + self.last_count.get().unwrap_or(0)));
                tight
            }
            None => {
                self.last_count.set(Some(spent));
                verdict
            }
        }
    }

    /// [`check`](Self::check) on the encoding made for the rule only.
    fn check_on_rule_encoding(&self, rule: &Rule) -> Verdict<Counterexample<D::State>> {
        if self.domain.parts(self.bound) > 1 || self.domain.split_always() {
            return self.check_by_parts(rule);
        }
        let split = match (self.rlimit, self.split_after) {
            (rlimit, Some(split_after)) if rlimit > 0 && split_after < rlimit => {
                split_variable(rule, &self.domain.schema().split_types()).map(|v| (v, rlimit, split_after))
            }
            _ => None,
        };
        let Some((var, rlimit, split_after)) = split else { return self.check_by_parts(rule) };
        let mut spent = 0u64;
        if split_after > 0 {
            let whole = self.query(rule, Some(split_after), |s| s.check(rule, None));
            spent += self.last_count.get().unwrap_or(split_after as u64);
            if !matches!(whole, Verdict::Unknown(Unknown::Limit(_))) {
                self.last_count.set(Some(spent));
                return whole;
            }
        }
        let ty = rule.decls[var as usize].ty;
        let mut slot = 0;
        let verdict = loop {
            let left = (rlimit as u64).saturating_sub(spent);
            if left == 0 {
                break Verdict::Unknown(Unknown::Limit("max. resource limit exceeded".into()));
            }
            let (verdict, slots) =
                self.query(rule, Some(left as u32), |s| (s.check(rule, Some((var, slot))), s.slots(ty)));
            spent += self.last_count.get().unwrap_or(left);
            slot += 1;
            if !verdict.is_sound() || slot >= slots {
                break verdict;
            }
        };
        self.last_count.set(Some(spent));
        verdict
    }

    /// [`check`](Self::check) part by part ([`Symbolic::parts`]), each
    /// part a query with the verifier's limits, or, in a domain that
    /// splits always ([`Symbolic::split_always`]) and when the rule has a
    /// variable to split over, one query per slot of that variable on each
    /// part, each with the verifier's limits: the first query on which the
    /// rule is not proven sound gives the verdict; the resource counts add
    /// up.
    fn check_by_parts(&self, rule: &Rule) -> Verdict<Counterexample<D::State>> {
        let (domain, bound) = (self.domain, self.bound);
        let parts = domain.parts(bound);
        let split = domain.split_always().then(|| split_variable(rule, &domain.schema().split_types())).flatten();
        if parts <= 1 && split.is_none() {
            return self.query(rule, None, |s| s.check(rule, None));
        }
        let mut spent = 0u64;
        let mut verdict = Verdict::Sound;
        'parts: for part in 0..parts {
            let mut slot = 0;
            loop {
                let case = split.map(|v| (v, slot));
                let (answer, slots) = self
                    .query_on(
                        None,
                        || Some(domain.encode_part(bound, rule, part)),
                        |s| (s.check(rule, case), split.map_or(0, |v| s.slots(rule.decls[v as usize].ty))),
                    )
                    .expect("the part's encoding exists");
                spent += self.last_count.get().unwrap_or(0);
                verdict = answer;
                slot += 1;
                if !verdict.is_sound() {
                    break 'parts;
                }
                if slot >= slots {
                    break;
                }
            }
        }
        self.last_count.set(Some(spent));
        verdict
    }

    /// Whether some valid state up to the bound has a binding of `rule`'s
    /// patterns under which its condition holds (the action is ignored):
    /// `Ok(None)` if not, `Ok(Some(state))` with such a state, `Err` if Z3
    /// gave no answer or the model did not decode.
    pub fn find_state(&mut self, rule: &Rule) -> Result<Option<D::State>, Unknown> {
        self.calls += 1;
        self.query(rule, None, |s| s.find_state(rule))
    }
}

impl<D: Symbolic> Session<'_, D> {
    /// How many slots the encoding has for elements of type `ty`.
    fn slots(&self, ty: TypeId) -> usize {
        self.encoding.view.tables[ty.0 as usize].slots.len()
    }

    /// Checks `rule`, with the variable of `case` bound to the element in
    /// its slot if given.
    fn check(&self, rule: &Rule, case: Option<(Var, usize)>) -> Verdict<Counterexample<D::State>> {
        let (solver, encoding) = (self.solver, self.encoding);
        let compiler = Compiler::new(&encoding.view, self.domain.schema().size_feature);
        let compiled = match compiler.compile(rule, "r") {
            Ok(c) => c,
            Err(e) => return Verdict::Unknown(Unknown::Untranslatable(e.to_string())),
        };
        let wrong = self.domain.wrong(encoding, rule.action.id, &compiled.args);
        solver.assert(&compiled.binds);
        if let Some((v, slot)) = case {
            solver.assert(compiled.indices[v as usize].same(&num(slot as i64, encoding.view.width)));
        }
        solver.assert(&compiled.condition);
        solver.assert(&wrong);
        let mut pinned = 0;
        loop {
            let unreplayed = match solver.check() {
                SatResult::Unsat => return Verdict::Sound,
                SatResult::Unknown => return Verdict::Unknown(gave_up(solver)),
                SatResult::Sat => match solver.get_model() {
                    None => return Verdict::Unknown(Unknown::NoModel),
                    Some(model) => match self.domain.decode(encoding, &model) {
                        None => return Verdict::Unknown(Unknown::BadModel),
                        Some(state) => {
                            let binding: Binding = compiled
                                .indices
                                .iter()
                                .map(|ix| {
                                    model.eval(ix, true).and_then(|v| signed_value(&v)).unwrap_or(0).max(0) as usize
                                })
                                .collect();
                            match self.confirm(rule, state.clone(), binding) {
                                Verdict::Unknown(Unknown::NoReplay(shown)) => (shown, state),
                                verdict => return verdict,
                            }
                        }
                    },
                },
            };
            // a model that did not replay: pin the state's true features and ask again
            let (shown, state) = unreplayed;
            match self.domain.pin(encoding, &state) {
                Some(fact) if pinned < MAX_PINS => {
                    solver.assert(&fact);
                    pinned += 1;
                }
                _ => return Verdict::Unknown(Unknown::NoReplay(shown)),
            }
        }
    }

    fn find_state(&self, rule: &Rule) -> Result<Option<D::State>, Unknown> {
        let solver = self.solver;
        let compiler = Compiler::new(&self.encoding.view, self.domain.schema().size_feature);
        let compiled = compiler.compile(rule, "q").map_err(|e| Unknown::Untranslatable(e.to_string()))?;
        solver.assert(&compiled.binds);
        solver.assert(&compiled.condition);
        match solver.check() {
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err(gave_up(solver)),
            SatResult::Sat => match solver.get_model().and_then(|m| self.domain.decode(self.encoding, &m)) {
                Some(state) => Ok(Some(state)),
                None => Err(Unknown::BadModel),
            },
        }
    }

    /// Replays a Z3 counterexample with the concrete interpreter and the
    /// exact oracle; a model that does not replay is reported as unknown
    /// (an encoding fault must never be mistaken for either verdict).
    fn confirm(&self, rule: &Rule, state: D::State, binding: Binding) -> Verdict<Counterexample<D::State>> {
        let view = self.domain.view(&state);
        let interp = Interpreter::new(rule, &view, self.domain.schema().size_feature);
        let valid_binding = binding.len() == rule.decls.len()
            && rule.decls.iter().zip(&binding).all(|(d, &i)| i < view.table(d.ty).len());
        if valid_binding && interp.eval_bool(&rule.condition, &binding) {
            let action = interp.eval_action(&binding);
            if !self.domain.is_sound(&state, &action) {
                return Verdict::Unsound(Counterexample { state, binding, action });
            }
        }
        // The model's binding did not replay; look for any wrong binding.
        for (b, action) in interp.applications() {
            if !self.domain.is_sound(&state, &action) {
                return Verdict::Unsound(Counterexample { state, binding: b, action });
            }
        }
        Verdict::Unknown(Unknown::NoReplay(self.domain.show(&state)))
    }
}
