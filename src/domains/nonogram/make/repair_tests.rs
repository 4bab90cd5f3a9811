//! Tests of the repair search ([`super`]): repairs against brute force,
//! the budget's limits and the descent.

use super::*;
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::formats::non::clues_of;
use crate::domains::nonogram::make::judge::Player;

fn line_undecided(width: usize) -> impl Fn(&[bool]) -> Vec<usize> + Sync {
    move |cells: &[bool]| {
        let (rows, columns) = clues_of(width, cells.len() / width, cells);
        Player::Line.undecided(&Clues::new(rows, columns), cells).unwrap()
    }
}

#[test]
fn a_diagonal_needs_one_cell_and_repairs_are_minimal() {
    // 3x3 with a 2x2 diagonal ambiguity in the top-left corner
    let cells: Vec<bool> = "100 010 000".chars().filter(|c| *c != ' ').map(|c| c == '1').collect();
    let judge = line_undecided(3);
    let initial = judge(&cells);
    assert!(!initial.is_empty());
    let found = repair(3, &cells, initial, &judge, RepairBudget::default(), &Tally::default());
    assert_eq!(found.stage, 1);
    assert!(!found.repairs.is_empty());
    for r in &found.repairs {
        assert_eq!(r.changed.len(), 1);
        assert!(judge(&r.apply(&cells)).is_empty(), "{r:?}");
    }
}

#[test]
fn repairs_of_5x4_pictures_are_as_small_as_brute_force_finds() {
    let (w, h) = (5, 4);
    let judge = line_undecided(w);
    // a seeded sample of pictures the line player cannot solve
    let mut state = 12345u64;
    let mut checked = 0;
    while checked < 40 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let cells: Vec<bool> = (0..w * h).map(|i| state >> (i + 20) & 1 == 1).collect();
        let initial = judge(&cells);
        if initial.is_empty() {
            continue;
        }
        checked += 1;
        // brute force: the fewest flips (one or two anywhere) that fix it
        let fine = |changed: Vec<usize>| judge(&Repair { changed }.apply(&cells)).is_empty();
        let cells_all = 0..w * h;
        let brute = if cells_all.clone().any(|p| fine(vec![p])) {
            Some(1)
        } else if cells_all.clone().any(|p| (p + 1..w * h).any(|q| fine(vec![p, q]))) {
            Some(2)
        } else {
            None
        };
        let found = repair(w, &cells, initial, &judge, RepairBudget::default(), &Tally::default());
        let size = found.repairs.first().map(|r| r.changed.len());
        for r in &found.repairs {
            assert!(judge(&r.apply(&cells)).is_empty());
            assert_eq!(Some(r.changed.len()), size);
        }
        match brute {
            // the search tries every single and pair near the undecided
            // cells: it can only miss a repair far from them
            Some(k) => assert!(size.is_some_and(|s| s >= k), "{cells:?}: brute {k}, found {size:?}"),
            None => assert!(size.is_none_or(|s| s > 2), "{cells:?}"),
        }
        if brute == Some(1) {
            assert_eq!(size, Some(1), "{cells:?}: a single flip near the undecided region fixes it");
        }
    }
}

#[test]
fn repairs_change_at_most_max_changes_cells() {
    // a 2x2 diagonal in a 4x4: one changed cell repairs it, so with at
    // most 0 changes there is none
    let cells: Vec<bool> = "1000 0100 0000 0000".chars().filter(|c| *c != ' ').map(|c| c == '1').collect();
    let judge = line_undecided(4);
    let none = repair(
        4,
        &cells,
        judge(&cells),
        &judge,
        RepairBudget { max_changes: 0, ..RepairBudget::default() },
        &Tally::default(),
    );
    assert!(none.repairs.is_empty());
    let one = repair(
        4,
        &cells,
        judge(&cells),
        &judge,
        RepairBudget { max_changes: 1, ..RepairBudget::default() },
        &Tally::default(),
    );
    assert!(!one.repairs.is_empty() && one.repairs.iter().all(|r| r.changed.len() == 1), "{:?}", one.repairs);
}

#[test]
fn the_descent_repairs_more_independent_ambiguities_than_the_fewest_changes_allow() {
    // nine 4x4 blocks, each with a 2x2 diagonal the line player cannot
    // decide, judged as nine separate puzzles (so their ambiguities are
    // independent): a repair needs at least one changed cell in each
    let (side, blocks) = (4, 3);
    let width = side * blocks;
    let block: Vec<bool> = "1000 0100 0000 0000".chars().filter(|c| *c != ' ').map(|c| c == '1').collect();
    let cells: Vec<bool> = (0..width * width).map(|p| block[(p / width % side) * side + p % side]).collect();
    let judge_block = line_undecided(side);
    let judge = |cells: &[bool]| -> Vec<usize> {
        let mut undecided = vec![];
        for (br, bc) in (0..blocks).flat_map(|r| (0..blocks).map(move |c| (r, c))) {
            let at = |i: usize| (br * side + i / side) * width + bc * side + i % side;
            let own: Vec<bool> = (0..side * side).map(|i| cells[at(i)]).collect();
            undecided.extend(judge_block(&own).into_iter().map(at));
        }
        undecided.sort_unstable();
        undecided
    };
    let initial = judge(&cells);
    assert_eq!(initial.len(), 9 * 4);
    // the fewest-changes stages cannot reach nine changes within 8
    let budget = RepairBudget { evaluations: 20_000, ..RepairBudget::default() };
    let fewest = repair(width, &cells, initial.clone(), &judge, budget, &Tally::default());
    assert!(fewest.repairs.is_empty());
    for descend_from in [0, usize::MAX] {
        let budget = RepairBudget { max_changes: 32, descend_from, fewest_stages: 1, ..RepairBudget::default() };
        let found = repair(width, &cells, initial.clone(), &judge, budget, &Tally::default());
        assert_eq!(found.stage, 4);
        assert!(!found.repairs.is_empty());
        for r in &found.repairs {
            assert!((9..=32).contains(&r.changed.len()), "{r:?}");
            assert!(judge(&r.apply(&cells)).is_empty(), "{r:?}");
        }
    }
}

#[test]
fn no_repair_within_a_budget_of_nothing() {
    let cells: Vec<bool> = "1001 0110 0110 1001".chars().filter(|c| *c != ' ').map(|c| c == '1').collect();
    let judge = line_undecided(4);
    let initial = judge(&cells);
    let budget = RepairBudget { evaluations: 0, ..RepairBudget::default() };
    let found = repair(4, &cells, initial, &judge, budget, &Tally::default());
    assert!(found.repairs.is_empty());
    assert_eq!(found.evaluations, 0);
}
