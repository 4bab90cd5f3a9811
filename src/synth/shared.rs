//! What every specification and thread of a run shares ([`Shared`]): the
//! exhaustive table and the generality sample drawn from it, the
//! generalisation's examples beyond them, the
//! counterexample pool, the Z3 verdicts and table refutations reached so
//! far, and the term and atom spaces per list of variable types. Nothing
//! here changes what a run decides: the caches hold answers that depend
//! only on their query, and a run reads only the prefix of the pool it was
//! given (see [`Engine::synthesize_seeing`](super::Engine::synthesize_seeing)).

use super::bits::Bits;
use super::config::Config;
use super::domain::{Example, Symbolic};
use super::space::{atoms, int_terms, TermPlan};
use super::table::{Space, TableCheck, TableFacts};
use super::verify::Verdict;
use crate::dsl::ast::{ActionId, Rule, TypeId};
use crate::dsl::eval::{ActionValue, Interpreter};
use crate::dsl::print::print_rule;
use crate::dsl::schema::Schema;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// How many productive applications per table state the cache of rules'
/// gains may hold in all (a rule gains on few states: thousands of rules).
const GAINS_PER_STATE: usize = 256;

/// Counterexample states shared by all runs.
pub(super) struct Pool<S> {
    pub(super) examples: Vec<Arc<Example<S>>>,
    /// `show` of every state held.
    pub(super) keys: HashSet<String>,
}

/// The state shared by every specification and thread of a run.
pub(super) struct Shared<'d, D: Symbolic> {
    pub(super) domain: &'d D,
    pub(super) config: Config,
    pub(super) table: Vec<Arc<Example<D::State>>>,
    /// The states rules of different nodes are compared on.
    pub(super) basis: Vec<Arc<Example<D::State>>>,
    /// The domain's [`widen_states`](super::domain::Domain::widen_states):
    /// good examples of condition generalisation beyond the coverage sample.
    pub(super) widen: Vec<Arc<Example<D::State>>>,
    pub(super) pool: Mutex<Pool<D::State>>,
    /// Z3's verdicts by [`verdict_key`].
    pub(super) verdicts: Mutex<HashMap<String, Verdict<D::State>>>,
    /// Table states (first few) each checked rule is wrong on, by
    /// [`text_key`].
    pub(super) refuted: Mutex<HashMap<String, Vec<usize>>>,
    pub(super) spaces: Mutex<HashMap<Vec<TypeId>, Arc<Space>>>,
    /// [`Shared::generality`] of each rule asked, by [`text_key`]: a node's
    /// best rule is often another walk's or specification's (one entry per
    /// distinct rule, a few hundred bytes each).
    general: Mutex<HashMap<String, usize>>,
    /// [`Shared::gains`] of each rule asked, by [`text_key`]: the rules a
    /// specification settles are often another's.
    gains: Mutex<GainsCache>,
}

/// The table states a rule gains on, and its productive applications on
/// each of them, in order (stored flat: a cached rule's applications
/// take a few bytes each).
pub(super) struct Gains {
    pub(super) states: Bits,
    /// Per state of `states` in order, where its applications end.
    ends: Vec<u32>,
    /// Per application, its action and where its arguments end.
    actions: Vec<(ActionId, u32)>,
    args: Vec<i32>,
}

impl Gains {
    fn new(per_state: Vec<Vec<ActionValue>>) -> Gains {
        let mut gains = Gains { states: Bits::new(), ends: vec![], actions: vec![], args: vec![] };
        for (t, list) in per_state.into_iter().enumerate().filter(|(_, list)| !list.is_empty()) {
            gains.states.set(t);
            for a in list {
                gains.args.extend(a.args.iter().map(|&v| i32::try_from(v).expect("an argument is a small number")));
                gains.actions.push((a.action, gains.args.len() as u32));
            }
            gains.ends.push(gains.actions.len() as u32);
        }
        gains
    }

    /// The applications on the `n`th state of `states`.
    pub(super) fn list(&self, n: usize) -> Vec<ActionValue> {
        let start = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        (start..self.ends[n] as usize)
            .map(|i| {
                let from = if i == 0 { 0 } else { self.actions[i - 1].1 as usize };
                let (action, to) = self.actions[i];
                ActionValue { action, args: self.args[from..to as usize].iter().map(|&v| i64::from(v)).collect() }
            })
            .collect()
    }

    /// How many applications it holds.
    fn size(&self) -> usize {
        self.actions.len()
    }
}

/// The gains of rules asked so far, up to a number of applications in all.
struct GainsCache {
    rules: HashMap<String, Arc<Gains>>,
    /// Applications held, and the most that may be.
    held: usize,
    most: usize,
}

impl<'d, D: Symbolic> Shared<'d, D> {
    /// The shared state of a run for `domain`; builds the exhaustive table.
    pub(super) fn new(domain: &'d D, config: Config) -> Shared<'d, D> {
        let mut states = domain.small_states(config.table);
        states.extend(domain.sample_states(config.table, config.screen(), config.sample_seed, config.sample));
        let table: Vec<Arc<Example<D::State>>> =
            states.into_iter().map(|state| Arc::new(Example::new(domain, state))).collect();
        let table_len = table.len();
        let step = (table.len() / config.generality_sample.max(1)).max(1);
        let basis = table.iter().step_by(step).take(config.generality_sample).cloned().collect();
        let widen = domain.widen_states(config.table, config.screen(), config.sample_seed, config.widen_sample);
        let widen = widen.into_iter().map(|state| Arc::new(Example::new(domain, state))).collect();
        Shared {
            domain,
            config,
            table,
            basis,
            widen,
            pool: Mutex::new(Pool { examples: vec![], keys: HashSet::new() }),
            verdicts: Mutex::new(HashMap::new()),
            refuted: Mutex::new(HashMap::new()),
            spaces: Mutex::new(HashMap::new()),
            general: Mutex::new(HashMap::new()),
            gains: Mutex::new(GainsCache { rules: HashMap::new(), held: 0, most: table_len * GAINS_PER_STATE }),
        }
    }

    /// The terms and atoms over variables of `types`, with the table's
    /// pairs over them (built on first use).
    pub(super) fn space(&self, types: &[TypeId]) -> Arc<Space> {
        if let Some(s) = self.spaces.lock().expect("space cache").get(types) {
            return s.clone();
        }
        let schema = self.domain.schema();
        let terms = int_terms(schema, types, self.config.max_term_cost);
        let atoms = atoms(schema, types, &terms, self.config.max_left_cost, self.config.max_atom_cost);
        let table = TableFacts::new(&self.table, types);
        let space = Arc::new(Space { plan: TermPlan::new(&terms), terms, atoms, table });
        self.spaces.lock().expect("space cache").insert(types.to_vec(), space.clone());
        space
    }

    /// How many states of the generality sample `rule` gains on.
    pub(super) fn generality(&self, rule: &Rule) -> usize {
        use rayon::prelude::*;
        let key = text_key(rule, self.domain.schema());
        if let Some(&n) = self.general.lock().expect("generality cache").get(&key) {
            return n;
        }
        let size = self.domain.schema().size_feature;
        let n = self
            .basis
            .par_iter()
            .filter(|ex| {
                Interpreter::new(rule, &ex.view, size)
                    .applications()
                    .iter()
                    .any(|(_, a)| self.domain.productive(&ex.state, a) && self.domain.is_sound(&ex.state, a))
            })
            .count();
        self.general.lock().expect("generality cache").insert(key, n);
        n
    }

    /// The table states `rule` gains on, with its productive applications
    /// there.
    pub(super) fn gains(&self, rule: &Rule) -> Arc<Gains> {
        use rayon::prelude::*;
        let key = text_key(rule, self.domain.schema());
        if let Some(gains) = self.gains.lock().expect("gains cache").rules.get(&key) {
            return gains.clone();
        }
        let (domain, size) = (self.domain, self.domain.schema().size_feature);
        let per_state: Vec<Vec<ActionValue>> = self
            .table
            .par_iter()
            .map(|ex| {
                let interp = Interpreter::new(rule, &ex.view, size);
                interp.applications().into_iter().map(|(_, a)| a).filter(|a| domain.productive(&ex.state, a)).collect()
            })
            .collect();
        let gains = Arc::new(Gains::new(per_state));
        let mut cache = self.gains.lock().expect("gains cache");
        if cache.held + gains.size() <= cache.most && !cache.rules.contains_key(&key) {
            cache.held += gains.size();
            cache.rules.insert(key, gains.clone());
        }
        gains
    }

    /// `state` with its view.
    pub(super) fn example(&self, state: D::State) -> Arc<Example<D::State>> {
        Arc::new(Example::new(self.domain, state))
    }

    /// The table as candidates are checked on it.
    pub(super) fn table_check(&self) -> TableCheck<'_, D> {
        TableCheck {
            domain: self.domain,
            states: &self.table,
            chunk: self.config.table_chunk,
            most: self.config.table_failures,
        }
    }
}

/// A rule's text key: its text without name or comments (rules found
/// twice print alike), the identity of the caches. Rules equal up to
/// rewrites have different text keys; the normal-form key
/// ([`normal_key`](crate::dsl::dedup::normal_key)) identifies those.
pub(super) fn text_key(rule: &Rule, schema: &Schema) -> String {
    print_rule(&Rule { name: String::new(), description: vec![], ..rule.clone() }, schema)
}

/// The key of a rule's verdict at `bound` in the shared cache.
pub(super) fn verdict_key(bound: u32, rule: &Rule, schema: &Schema) -> String {
    format!("{bound}\n{}", text_key(rule, schema))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_give_back_each_states_applications() {
        let value = |action: u8, args: &[i64]| ActionValue { action: ActionId(action), args: args.to_vec() };
        let per_state = vec![
            vec![],
            vec![value(0, &[1, 0, 3])],
            vec![],
            vec![value(1, &[]), value(0, &[0, 29, 30]), value(2, &[-4])],
            vec![],
        ];
        let gains = Gains::new(per_state.clone());
        assert_eq!(gains.states.ones().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(gains.size(), 4);
        for (n, t) in gains.states.ones().enumerate() {
            assert_eq!(gains.list(n), per_state[t]);
        }
    }
}
