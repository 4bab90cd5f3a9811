//! The Witness Z3 encoding means what docs/reference/language.md says: every real completable
//! state (every triangle one up to 2x2, solutions included, a seeded sample
//! of 3x3 ones, and seeded samples of states with every constraint kind
//! up to 3x3 and 4x4) is a model of the encoding with exactly its concrete
//! feature values, the region, mark and dot features included; and every
//! implied constraint the encoding states to speed up proofs follows from
//! the definition alone (Z3 proves each at bound 2; at bound 3 the model
//! check below covers them).

use stratsynth::domains::witness::board::oracle::Oracle;
use stratsynth::domains::witness::formats::puzzle::Dot;
use stratsynth::domains::witness::model::grid::Grid;
use stratsynth::domains::witness::synthesis::domain::{table, Witness, WitnessState};
use stratsynth::domains::witness::synthesis::sample::all_kinds;
use stratsynth::domains::witness::synthesis::symbolic::encode;
use stratsynth::domains::witness::synthesis::symbolic_marks::EncodedKinds;
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
    let grid = state.puzzle.grid();
    let table = view.table(ids.square);
    let slots = &enc.view.tables[ids.square.0 as usize].slots;
    for (i, &s) in state.puzzle.constrained_squares().iter().enumerate() {
        let (col, row) = grid.square(s);
        for f in [ids.triangles, ids.used, ids.touches_head, ids.free, ids.live] {
            assert_eq!(
                value(&slots[row * bound + col][f.0 as usize]),
                table.get(i, f),
                "feature {f:?} of square ({col}, {row}) in {}",
                state.show()
            );
        }
    }
    let table = view.table(ids.mark);
    let slots = &enc.view.tables[ids.mark.0 as usize].slots;
    assert_eq!(table.len(), state.puzzle.marks().len());
    for (i, m) in state.puzzle.marks().iter().enumerate() {
        let (col, row) = grid.square(m.square);
        for f in [ids.colour, ids.star, ids.joined_same, ids.joined_other, ids.reach_same, ids.closed] {
            let at = format!("feature {f:?} of mark ({col}, {row}) in {}", state.show());
            assert_eq!(value(&slots[row * bound + col][f.0 as usize]), table.get(i, f), "{at}");
        }
    }
    let table = view.table(ids.dot);
    let slots = &enc.view.tables[ids.dot.0 as usize].slots;
    assert_eq!(table.len(), state.puzzle.dots().len());
    for (i, d) in state.puzzle.dots().iter().enumerate() {
        let slot = dot_slot(grid, bound, d);
        for f in [ids.crossed, ids.reachable] {
            assert_eq!(
                value(&slots[slot][f.0 as usize]),
                table.get(i, f),
                "feature {f:?} of dot {d:?} in {}",
                state.show()
            );
        }
    }
    solver.pop(1);
}

/// The dot table's slot of `d` in an encoding at `bound`: vertices
/// row-major, then the bound grid's edges by their lower-left end, the
/// horizontal one first.
fn dot_slot(grid: Grid, bound: usize, d: &Dot) -> usize {
    let nv = (bound + 1) * (bound + 1);
    match *d {
        Dot::Vertex(v) => {
            let (x, y) = grid.vertex(v);
            y * (bound + 1) + x
        }
        Dot::Edge(e) => {
            let (a, b) = grid.edge_ends(e);
            let ((x, y), vertical) = (grid.vertex(a), grid.vertex(b).0 == grid.vertex(a).0);
            let mut k = 0;
            for yy in 0..=bound {
                for xx in 0..=bound {
                    for (up, exists) in [(false, xx < bound), (true, yy < bound)] {
                        if !exists {
                            continue;
                        }
                        if (xx, yy, up) == (x, y, vertical) {
                            return nv + k;
                        }
                        k += 1;
                    }
                }
            }
            unreachable!("the edge lies in the bound grid")
        }
    }
}

#[test]
fn states_with_every_kind_are_models_with_their_features() {
    let domain = Witness::new();
    for (side, count) in [(3usize, 160), (4, 40)] {
        let states = Witness::new().with_kinds(all_kinds(3)).sample_states(0, side as u32, 7 + side as u64, count);
        let (marks, dots) = (
            states.iter().filter(|s| !s.puzzle.marks().is_empty()).count(),
            states.iter().filter(|s| !s.puzzle.dots().is_empty()).count(),
        );
        assert!(marks > count / 4 && dots > count / 4, "{marks} with marks, {dots} with dots of {count}");
        let enc = domain.encode(side as u32);
        let solver = Solver::new();
        solver.assert(&enc.valid);
        for s in &states {
            admitted(&domain, &solver, &enc, side, s);
        }
    }
}

#[test]
fn every_completable_state_is_a_model_with_its_features() {
    let domain = Witness::new();
    let small: Vec<WitnessState> = table(2).into_iter().filter(|s| s.completable).collect();
    assert!(small.iter().any(|s| s.path.head() == s.puzzle.goal()), "solutions are states");
    let sample = domain.sample_states(2, 3, 11, 300);
    for (bound, states) in [(2usize, small.iter().step_by(7).collect::<Vec<_>>()), (3, sample.iter().collect())] {
        // triangle puzzles: the encoding without marks and dots (the one a
        // rule declaring neither is proven with; broken edges included)
        let enc = encode(&domain.ids(), bound, EncodedKinds { marks: false, dots: false });
        let solver = Solver::new();
        solver.assert(&enc.valid);
        assert!(states.len() > 250, "{}", states.len());
        for s in states {
            admitted(&domain, &solver, &enc, bound, s);
        }
    }
}
