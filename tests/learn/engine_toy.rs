//! The synthesis engine on its own, through a toy domain that is not a
//! puzzle: a bag of small numbers, and the action `claim(k)` = "some item is
//! at least k". The engine must find a sound, maximally general rule and
//! never return an unsound one; the toy's exhaustive oracle is the judge.

use stratsynth::domains::{BadState, Domain, Encoding, Symbolic};
use stratsynth::dsl::ast::{ActionId, PatternKind};
use stratsynth::dsl::eval::{ActionValue, ElementTable, Interpreter, View};
use stratsynth::dsl::schema::Schema;
use stratsynth::dsl::symbolic::{num, signed_value, Num, NumOps, SymTable, SymView};
use stratsynth::synth::{Config, Engine, Spec};
use z3::ast::Bool;
use z3::Model;

const SCHEMA: &str = r#"(
    domain: "bag",
    types: ["item"],
    size_feature: "value",
    features: [(name: "value", kind: Int, types: ["item"], cost: 1)],
    globals: [(name: "count", cost: 1)],
    actions: [(name: "claim", params: [Int], cost: 1)],
    costs: (decl: 1, singleton: 1, constant: 2, arbitrary: 1, true_: 0, not: 1, and: 0, cmp: 1,
            maximal: 2, minimal: 2, unique: 3, literal: 1, add: 1, sub: 1, mul: 2, bool_literal: 0),
    limits: (max_state: 4, bound: 4),
    synthesis: (literals: [0, 1], multipliers: [], max_decls: 2, max_constant: 1, table: 2, screen: 4),
)"#;

/// Item values are 0..=MAX_VALUE.
const MAX_VALUE: i64 = 3;

/// Bags of items, in nondecreasing order.
struct Bag {
    schema: Schema,
}

impl Bag {
    fn new() -> Bag {
        Bag { schema: Schema::from_ron(SCHEMA, "bag.ron").unwrap() }
    }

    /// Every bag of at most `n` items.
    fn all(n: usize) -> Vec<Vec<i64>> {
        let mut out = vec![vec![]];
        let mut frontier = vec![vec![]];
        for _ in 0..n {
            let mut next = vec![];
            for bag in &frontier {
                let low = bag.last().copied().unwrap_or(0);
                for v in low..=MAX_VALUE {
                    let mut b: Vec<i64> = bag.clone();
                    b.push(v);
                    next.push(b);
                }
            }
            out.extend(next.iter().cloned());
            frontier = next;
        }
        out
    }
}

impl Domain for Bag {
    type State = Vec<i64>;

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn view(&self, state: &Vec<i64>) -> View {
        let mut items = ElementTable::new(1);
        state.iter().for_each(|&v| items.push(&[v]));
        View { globals: vec![state.len() as i64], tables: vec![items], pairs: vec![] }
    }

    fn is_sound(&self, state: &Vec<i64>, action: &ActionValue) -> bool {
        state.iter().any(|&v| v >= action.args[0])
    }

    fn show(&self, state: &Vec<i64>) -> String {
        format!("{state:?}")
    }

    fn parse_state(&self, text: &str) -> Result<Vec<i64>, BadState> {
        ron::from_str(text).map_err(|e| BadState::new(text, e))
    }

    fn makes(&self, _state: &Vec<i64>, deduction: &ActionValue, action: &ActionValue) -> bool {
        action.args[0] >= deduction.args[0]
    }

    fn small_states(&self, size: u32) -> Vec<Vec<i64>> {
        Bag::all(size as usize)
    }

    fn sample_states(&self, table: u32, bound: u32, _seed: u64, _count: usize) -> Vec<Vec<i64>> {
        // the bags beyond the table are few: all of them
        Bag::all(bound as usize).into_iter().filter(|b| b.len() > table as usize).collect()
    }
}

impl Symbolic for Bag {
    type Extra = ();

    fn encode(&self, bound: u32) -> Encoding<()> {
        let w = 8;
        let count = Num::var("count".into(), w);
        let slots: Vec<Num> = (0..bound).map(|i| Num::var(format!("v{i}"), w)).collect();
        let mut valid = vec![num(0, w).sle(&count), count.sle(&num(bound as i64, w))];
        for (i, v) in slots.iter().enumerate() {
            let used = num(i as i64, w).slt(&count);
            let in_range = Bool::and(&[num(0, w).sle(v), v.sle(&num(MAX_VALUE, w))]);
            valid.push(used.ite(&in_range, &v.same(&num(0, w))));
            if i > 0 {
                let i_used = num(i as i64, w).slt(&count);
                valid.push(i_used.implies(slots[i - 1].sle(v)));
            }
        }
        let table =
            SymTable { count: count.clone(), slots: slots.iter().map(|v| vec![v.clone()]).collect(), sparse: None };
        let view = SymView { globals: vec![count], tables: vec![table], pairs: vec![], width: w, magnitude: 4 };
        Encoding { view, valid: Bool::and(&valid), extra: () }
    }

    fn wrong(&self, enc: &Encoding<()>, _action: ActionId, args: &[Num]) -> Bool {
        let table = &enc.view.tables[0];
        let w = enc.view.width;
        Bool::and(
            &table
                .slots
                .iter()
                .enumerate()
                .map(|(i, slot)| num(i as i64, w).slt(&table.count).implies(slot[0].slt(&args[0])))
                .collect::<Vec<_>>(),
        )
    }

    fn decode(&self, enc: &Encoding<()>, model: &Model) -> Option<Vec<i64>> {
        let value = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v));
        let table = &enc.view.tables[0];
        let n = value(&table.count)?;
        (0..n as usize).map(|i| value(&table.slots[i][0])).collect()
    }
}

#[test]
fn the_engine_learns_a_sound_general_rule_in_a_toy_domain() {
    let bag = Bag::new();
    let engine = Engine::new(&bag, Config::new(bag.schema()));
    let claim = ActionId(0);
    let spec = Spec { state: vec![1, 3], deduction: ActionValue { action: claim, args: vec![3] } };
    let outcome = engine.synthesize(&spec);
    assert!(!outcome.rules.is_empty(), "no rule for {spec:?}");
    for learned in &outcome.rules {
        assert_eq!(learned.bound, 4);
        // sound on every bag up to the bound
        for state in Bag::all(4) {
            let view = bag.view(&state);
            for (_, action) in Interpreter::new(&learned.rule, &view, bag.schema().size_feature).applications() {
                assert!(bag.is_sound(&state, &action), "{:?} claims {:?} on {state:?}", learned.rule, action);
            }
        }
    }
    // the most general rule binds any item: "an item is at least its value"
    assert!(
        outcome.rules.iter().any(|l| l.rule.decls.iter().all(|d| d.kind == PatternKind::Arbitrary)),
        "{:?}",
        outcome.rules
    );
}

#[test]
fn an_unsound_deduction_yields_no_rule() {
    // claiming 3 needs an item of 3: on [1, 2] no sound rule can make it,
    // since every rule making it would be wrong on this very state
    let bag = Bag::new();
    let engine = Engine::new(&bag, Config::new(bag.schema()));
    let spec = Spec { state: vec![1, 2], deduction: ActionValue { action: ActionId(0), args: vec![3] } };
    assert!(engine.synthesize(&spec).rules.is_empty());
}
