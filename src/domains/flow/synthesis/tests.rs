//! The encoding against the concrete side: on random consistent states of
//! small boards every term of the symbolic view is determined and equals
//! the concrete view's value; the implied constraints follow from the
//! definition of the states.

use super::domain::Flow;
use super::symbolic::encode;
use super::terms::Needs;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::brute::{puzzles, solutions};
use crate::dsl::ast::FeatureId;
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::{num, signed_value, Num, NumOps};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// `count` random puzzles with a solution on a `w` x `h` board, each with a
/// random solution and a random consistent state of it.
fn random_cases(w: usize, h: usize, count: usize, seed: u64) -> Vec<(Puzzle, State, Solution)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let with_solution: Vec<(Puzzle, Vec<u64>)> =
        puzzles(w, h).into_iter().map(|p| (p.clone(), solutions(&p))).filter(|(_, s)| !s.is_empty()).collect();
    (0..count)
        .map(|_| {
            let (p, sols) = &with_solution[rng.gen_range(0..with_solution.len())];
            let sol = sols[rng.gen_range(0..sols.len())];
            let slots = p.grid().slots();
            let statuses = (0..slots).map(|s| match (rng.gen_range(0..3), sol >> s & 1 == 1) {
                (0, _) => Status::Open,
                (_, true) => Status::Linked,
                (_, false) => Status::Cut,
            });
            let links = (0..slots).filter(|&s| sol >> s & 1 == 1).collect();
            (p.clone(), State::from_statuses(statuses.collect()), Solution::new(links))
        })
        .collect()
}

/// Every term of the symbolic view, with the state fixed, has one value:
/// the concrete view's (cells, flows, areas with their ranks, the pairs,
/// the globals).
#[test]
fn each_term_is_the_concrete_value() {
    let schema = Schema::flow();
    let flow = Flow::with_schema(schema, "dsl/flow.ron").unwrap();
    let layout = flow.layout();
    for (w, h, count) in [(2, 2, 10), (3, 3, 30), (3, 4, 20)] {
        z3::with_z3_config(&z3::Config::new(), || {
            let enc = encode(layout, w, h, Needs::ALL, "");
            for (p, st, sol) in random_cases(w, h, count, 7) {
                let view = layout.view(&p, &st);
                let solver = Solver::new();
                solver.assert(&enc.valid);
                solver.assert(enc.extra.fix(&p, &st, &sol));
                assert_eq!(solver.check(), SatResult::Sat, "{w}x{h}: the state is one of the encoding's");
                let model = solver.get_model().unwrap();
                let value = |t: &Num| model.eval(t, true).and_then(|v| signed_value(&v)).unwrap();
                let truth = |t: &Bool| model.eval(t, true).and_then(|v| v.as_bool()).unwrap();
                let shown = super::case::FlowCase { puzzle: p.clone(), state: st.clone(), witness: None }.show();
                // the model's values are the concrete view's; `wanted` says so
                let mut wanted: Vec<Bool> = vec![];
                let check = |t: &Num, v: i64, what: String| {
                    assert_eq!(value(t), v, "{w}x{h} {what} on {shown}");
                    t.same(&num(v, enc.view.width))
                };
                for (g, v) in view.globals.iter().enumerate() {
                    wanted.push(check(&enc.view.globals[g], *v, format!("global {g}")));
                }
                for (ty, table) in enc.view.tables.iter().enumerate() {
                    let concrete = &view.tables[ty];
                    wanted.push(check(&table.count, concrete.len() as i64, format!("count of type {ty}")));
                    let slots: Vec<usize> = match &table.sparse {
                        None => (0..concrete.len()).collect(),
                        Some(s) => {
                            let present: Vec<bool> = s.present.iter().map(&truth).collect();
                            wanted.extend(
                                s.present.iter().zip(&present).map(|(t, &b)| if b { t.clone() } else { t.not() }),
                            );
                            (0..table.slots.len()).filter(|&j| present[j]).collect()
                        }
                    };
                    assert_eq!(slots.len(), concrete.len(), "{w}x{h} elements of type {ty} on {shown}");
                    for (i, &j) in slots.iter().enumerate() {
                        if let Some(s) = &table.sparse {
                            wanted.push(check(&s.rank[j], i as i64, format!("rank of slot {j} of type {ty}")));
                        }
                        for (f, t) in table.slots[j].iter().enumerate() {
                            let v = concrete.get(i, FeatureId(f as u8));
                            wanted.push(check(t, v, format!("feature {f} of element {i} of type {ty}")));
                        }
                    }
                }
                for (f, pairs) in enc.view.pairs.iter().enumerate() {
                    for ([a, b], t) in pairs {
                        let holds = view.pair(FeatureId(f as u8), *a, *b);
                        assert_eq!(truth(t), holds, "pair feature {f} on ({a}, {b})");
                        wanted.push(if holds { t.clone() } else { t.not() });
                    }
                }
                // and no other value is possible
                solver.assert(Bool::and(&wanted).not());
                assert_eq!(solver.check(), SatResult::Unsat, "{w}x{h}: a term has another value");
            }
        });
    }
}

/// The implied constraints follow from the definition of the states on
/// every board up to 3x3 (docs/design/flow-rules.md says why on all).
#[test]
fn the_implied_constraints_hold() {
    let flow = Flow::with_schema(Schema::flow(), "dsl/flow.ron").unwrap();
    for (w, h) in [(1, 3), (2, 2), (2, 3), (3, 2), (3, 3)] {
        z3::with_z3_config(&z3::Config::new(), || {
            let enc = encode(flow.layout(), w, h, Needs::ALL, "");
            assert!(!enc.extra.implied().is_empty());
            let solver = Solver::new();
            solver.assert(enc.extra.base());
            solver.assert(Bool::and(enc.extra.implied()).not());
            if solver.check() == SatResult::Sat {
                let model = solver.get_model().unwrap();
                let broken: Vec<usize> = (0..enc.extra.implied().len())
                    .filter(|&i| !model.eval(&enc.extra.implied()[i], true).unwrap().as_bool().unwrap())
                    .collect();
                let decoded = super::symbolic::decode(&enc.extra, &model);
                panic!("{w}x{h}: {decoded:?} breaks {broken:?}\n{model}");
            }
        });
    }
}
