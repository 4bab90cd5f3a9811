//! Soundness of a rule up to a bound, as one Z3 satisfiability query:
//! "some valid state up to the bound, some binding, the condition holds and
//! the action is wrong". Sat gives a counterexample state, unsat proves the
//! rule sound, anything else is `Unknown` — never sound.

use crate::synth::domain::{Encoding, Symbolic};
use crate::dsl::ast::Rule;
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use crate::dsl::symbolic::{signed_value, Compiler};
use z3::{Params, SatResult, Solver};

/// The outcome of checking one rule.
#[derive(Clone, Debug)]
pub enum Verdict<S> {
    /// No valid state up to the bound makes the rule wrong.
    Sound,
    /// A state on which the rule concludes something wrong.
    Unsound(Counterexample<S>),
    /// No answer (see [`Unknown`]): treat as not sound.
    Unknown(Unknown),
}

/// Why a query has no answer. Never a verdict of soundness.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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

/// Z3's reason for an `unknown`.
fn gave_up(solver: &Solver) -> Unknown {
    Unknown::Limit(solver.get_reason_unknown().unwrap_or_else(|| "unknown".to_string()))
}

impl<S> Verdict<S> {
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
/// letting Z3 detect QF_LIA) selects a configuration measured 25-35%
/// faster on the nonogram queries at bound 30; the answers are the same.
fn new_solver(params: &Params) -> Solver {
    let solver = Solver::new_for_logic("QF_AUFLIA").unwrap_or_default();
    solver.set_params(params);
    solver
}

/// Checks rules against one symbolic encoding, kept for the life of the
/// verifier (one per thread: Z3 terms live in the thread's context).
pub struct Verifier<'d, D: Symbolic> {
    domain: &'d D,
    encoding: Encoding<D::Extra>,
    params: Params,
    /// The incremental solver (push/pop per query), or `None` for a fresh
    /// solver per query.
    shared: Option<Solver>,
    bound: u32,
    calls: u64,
}

impl<'d, D: Symbolic> Verifier<'d, D> {
    /// A verifier for states up to `bound`, giving up on one query after
    /// `timeout_ms` milliseconds.
    pub fn new(domain: &'d D, bound: u32, timeout_ms: u32) -> Verifier<'d, D> {
        let encoding = domain.encode(bound);
        let mut params = Params::new();
        params.set_u32("timeout", timeout_ms);
        // the classic simplex was measured fastest on these queries
        params.set_u32("arith.solver", 2);
        let shared = new_solver(&params);
        shared.assert(&encoding.valid);
        Verifier {
            domain,
            encoding,
            params,
            shared: Some(shared),
            bound,
            calls: 0,
        }
    }

    /// Like [`new`](Self::new), but every query runs in a fresh solver, so
    /// its answer and model do not depend on earlier queries (deterministic
    /// search whatever was cached); about twice as slow at bound 30.
    pub fn isolated(domain: &'d D, bound: u32, timeout_ms: u32) -> Verifier<'d, D> {
        let mut v = Verifier::new(domain, bound, timeout_ms);
        v.shared = None;
        v
    }

    /// Runs one query on a solver holding the encoding's validity: the
    /// shared one inside a new scope, or a fresh one.
    fn query<T>(&self, f: impl FnOnce(&Solver) -> T) -> T {
        match &self.shared {
            Some(solver) => {
                solver.push();
                let out = f(solver);
                solver.pop(1);
                out
            }
            None => {
                let solver = new_solver(&self.params);
                solver.assert(&self.encoding.valid);
                f(&solver)
            }
        }
    }

    /// The bound states are checked up to.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// How many Z3 queries this verifier has made.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Checks one rule.
    pub fn check(&mut self, rule: &Rule) -> Verdict<D::State> {
        self.calls += 1;
        let compiler = Compiler::new(&self.encoding.view, self.domain.schema().size_feature);
        let compiled = match compiler.compile(rule, "r") {
            Ok(c) => c,
            Err(e) => return Verdict::Unknown(Unknown::Untranslatable(e.to_string())),
        };
        let wrong = self
            .domain
            .wrong(&self.encoding, rule.action.id, &compiled.args);
        self.query(|solver| {
            solver.assert(&compiled.binds);
            solver.assert(&compiled.condition);
            solver.assert(&wrong);
            match solver.check() {
                SatResult::Unsat => Verdict::Sound,
                SatResult::Unknown => Verdict::Unknown(gave_up(solver)),
                SatResult::Sat => match solver.get_model() {
                    None => Verdict::Unknown(Unknown::NoModel),
                    Some(model) => match self.domain.decode(&self.encoding, &model) {
                        None => Verdict::Unknown(Unknown::BadModel),
                        Some(state) => {
                            let binding: Binding = compiled
                                .indices
                                .iter()
                                .map(|ix| {
                                    model
                                        .eval(ix, true)
                                        .and_then(|v| signed_value(&v))
                                        .unwrap_or(0)
                                        .max(0) as usize
                                })
                                .collect();
                            self.confirm(rule, state, binding)
                        }
                    },
                },
            }
        })
    }

    /// Whether some valid state up to the bound has a binding of `rule`'s
    /// patterns under which its condition holds (the action is ignored):
    /// `Ok(None)` if not, `Ok(Some(state))` with such a state, `Err` if Z3
    /// gave no answer or the model did not decode.
    pub fn find_state(&mut self, rule: &Rule) -> Result<Option<D::State>, Unknown> {
        self.calls += 1;
        let compiler = Compiler::new(&self.encoding.view, self.domain.schema().size_feature);
        let compiled = compiler.compile(rule, "q").map_err(|e| Unknown::Untranslatable(e.to_string()))?;
        self.query(|solver| {
            solver.assert(&compiled.binds);
            solver.assert(&compiled.condition);
            match solver.check() {
                SatResult::Unsat => Ok(None),
                SatResult::Unknown => Err(gave_up(solver)),
                SatResult::Sat => match solver
                    .get_model()
                    .and_then(|m| self.domain.decode(&self.encoding, &m))
                {
                    Some(state) => Ok(Some(state)),
                    None => Err(Unknown::BadModel),
                },
            }
        })
    }

    /// Replays a Z3 counterexample with the concrete interpreter and the
    /// exact oracle; a model that does not replay is reported as unknown
    /// (an encoding fault must never be mistaken for either verdict).
    fn confirm(&self, rule: &Rule, state: D::State, binding: Binding) -> Verdict<D::State> {
        let view = self.domain.view(&state);
        let interp = Interpreter::new(rule, &view, self.domain.schema().size_feature);
        let valid_binding = binding.len() == rule.decls.len()
            && rule
                .decls
                .iter()
                .zip(&binding)
                .all(|(d, &i)| i < view.table(d.ty).len());
        if valid_binding && interp.eval_bool(&rule.condition, &binding) {
            let action = interp.eval_action(&binding);
            if !self.domain.is_sound(&state, &action) {
                return Verdict::Unsound(Counterexample {
                    state,
                    binding,
                    action,
                });
            }
        }
        // The model's binding did not replay; look for any wrong binding.
        for (b, action) in interp.applications() {
            if !self.domain.is_sound(&state, &action) {
                return Verdict::Unsound(Counterexample {
                    state,
                    binding: b,
                    action,
                });
            }
        }
        Verdict::Unknown(Unknown::NoReplay(self.domain.show(&state)))
    }
}
