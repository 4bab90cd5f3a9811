//! Nonogram specifications for synthesis: a line state and one deduction,
//! a maximal contiguous run of cells that a transition newly fills with the
//! same value, as the action value `fill(value, a, b)`.

use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::line::model::Cell;
use crate::domains::nonogram::line::state::LineState;
use crate::dsl::ast::ActionId;
use crate::dsl::eval::ActionValue;
use crate::synth::Spec;

/// The runs of cells unknown in START and known in TARGET, one per maximal
/// contiguous run of one value, as `fill(value, a, b)` values.
pub fn deductions(t: &Transition) -> Vec<ActionValue> {
    let mut out = vec![];
    let mut i = 0;
    let n = t.target.len();
    while i < n {
        let new = |j: usize| !t.start.cells[j].is_known() && t.target[j].is_known();
        if !new(i) {
            i += 1;
            continue;
        }
        let value = t.target[i];
        let mut j = i;
        while j < n && new(j) && t.target[j] == value {
            j += 1;
        }
        out.push(ActionValue { action: ActionId(0), args: vec![(value == Cell::True) as i64, i as i64, j as i64] });
        i = j;
    }
    out
}

/// The specifications of a transition: its start state with each of its
/// deductions (`None` if the start is not a valid line). The transition's
/// TARGET must follow from START, as the `.lines` reader guarantees.
pub fn specs(t: &Transition) -> Option<Vec<Spec<LineState>>> {
    let state = LineState::new(t.start.clone())?;
    Some(deductions(t).into_iter().map(|deduction| Spec { state: state.clone(), deduction }).collect())
}

/// A specification as a transition: TARGET = START plus the deduction's run.
pub fn transition(spec: &Spec<LineState>) -> Transition {
    let mut target = spec.state.line.cells.clone();
    if let [v, a, b] = spec.deduction.args[..] {
        for c in &mut target[a as usize..b as usize] {
            *c = Cell::from_bool(v != 0);
        }
    }
    Transition { start: spec.state.line.clone(), target }
}

/// A specification as `HINTS | START | TARGET`.
pub fn show(spec: &Spec<LineState>) -> String {
    crate::domains::nonogram::formats::lines::format_transition(&transition(spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::formats::lines::parse_lines;

    #[test]
    fn a_transition_splits_into_runs_of_one_value() {
        let t = parse_lines("3 | #....... | ###xxxxx\n1 1 | .x. | #x#\n", "t", 30).unwrap();
        let d: Vec<Vec<i64>> = deductions(&t[0]).into_iter().map(|a| a.args).collect();
        assert_eq!(d, vec![vec![1, 1, 3], vec![0, 3, 8]]);
        let d: Vec<Vec<i64>> = deductions(&t[1]).into_iter().map(|a| a.args).collect();
        assert_eq!(d, vec![vec![1, 0, 1], vec![1, 2, 3]]);
        let specs = specs(&t[0]).unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(show(&specs[1]), "3 | #....... | #..xxxxx");
    }
}
