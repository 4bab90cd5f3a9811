//! The Witness Z3 encoding means what docs/language.md says: every real completable
//! state (every one up to 2x2, solutions included, and a seeded sample of
//! 3x3 ones) is a model of the encoding with exactly its concrete feature
//! values, the region features included; and every implied constraint the
//! encoding states to speed up proofs follows from the definition alone
//! (Z3 proves each at bound 2; at bound 3 the model check below
//! covers them).

use stratsynth::domains::witness::model::oracle::Oracle;
use stratsynth::domains::witness::synthesis::domain::{table, Witness, WitnessState};
use stratsynth::domains::{Domain, Symbolic};
use stratsynth::dsl::symbolic::signed_value;
use z3::{SatResult, Solver};

#[test]
fn implied_constraints_follow_from_the_definition() {
    let domain = Witness::new();
    for bound in [2] {
        let enc = domain.encode(bound);
        assert!(enc.extra.implied().len() > 10);
        let solver = Solver::new();
        solver.assert(enc.extra.base());
        for (i, implied) in enc.extra.implied().iter().enumerate() {
            solver.push();
            solver.assert(implied.not());
            assert_eq!(solver.check(), SatResult::Unsat, "implied constraint #{i} at bound {bound}: {implied}");
            solver.pop(1);
        }
    }
}

/// Checks that `state` (completable) is a model of the encoding at `bound`
/// with its concrete view.
fn admitted(
    domain: &Witness,
    solver: &Solver,
    enc: &stratsynth::domains::Encoding<stratsynth::domains::witness::synthesis::symbolic::WitnessTerms>,
    bound: usize,
    state: &WitnessState,
) {
    let solution = Oracle::new(&state.puzzle).find_completion(&state.path).expect("completable");
    solver.push();
    solver.assert(enc.extra.pin(&state.puzzle, &solution, state.path.len()));
    assert_eq!(solver.check(), SatResult::Sat, "not admitted: {}", state.show());
    let model = solver.get_model().unwrap();
    let value = |x: &stratsynth::dsl::symbolic::Num| signed_value(&model.eval(x, true).unwrap()).unwrap();
    let view = domain.view(state);
    let ids = domain.ids();
    for g in [ids.path_length, ids.goal_reachable] {
        assert_eq!(
            value(&enc.view.globals[g.0 as usize]),
            view.globals[g.0 as usize],
            "global {g:?} of {}",
            state.show()
        );
    }
    let table = view.table(ids.square);
    let slots = &enc.view.tables[ids.square.0 as usize].slots;
    for (i, &s) in state.puzzle.constrained_squares().iter().enumerate() {
        let (col, row) = state.puzzle.grid().square(s);
        for f in [ids.triangles, ids.used, ids.touches_head, ids.free, ids.live] {
            assert_eq!(
                value(&slots[row * bound + col][f.0 as usize]),
                table.get(i, f),
                "feature {f:?} of square ({col}, {row}) in {}",
                state.show()
            );
        }
    }
    solver.pop(1);
}

#[test]
fn every_completable_state_is_a_model_with_its_features() {
    let domain = Witness::new();
    let small: Vec<WitnessState> = table(2).into_iter().filter(|s| s.completable).collect();
    assert!(small.iter().any(|s| s.path.head() == s.puzzle.goal()), "solutions are states");
    let sample = domain.sample_states(2, 3, 11, 300);
    for (bound, states) in [(2usize, small.iter().step_by(7).collect::<Vec<_>>()), (3, sample.iter().collect())] {
        let enc = domain.encode(bound as u32);
        let solver = Solver::new();
        solver.assert(&enc.valid);
        assert!(states.len() > 250, "{}", states.len());
        for s in states {
            admitted(&domain, &solver, &enc, bound, s);
        }
    }
}
