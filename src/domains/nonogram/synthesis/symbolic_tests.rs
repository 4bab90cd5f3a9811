//! Tests of the symbolic line encoding (`symbolic.rs`): which slots a
//! rule's encoding keeps.

use super::*;
use crate::dsl::parse::parse_rules;

fn slots(with: &str, condition: &str) -> Slots {
    let d = Nonogram::new();
    let text = format!("def r:\n    with {with}:\n    if {condition}:\n    then fill(true, 0, 1)\n");
    let rule = &parse_rules(&text, "test", d.schema()).unwrap()[0];
    Slots::for_rule(d.ids(), 30, rule)
}

#[test]
fn a_rule_gets_the_block_and_gap_slots_its_patterns_can_need() {
    let all = Slots::all(30);
    assert_eq!(all, Slots { blocks: 15, gaps: 15 });
    // no block read: no true cell; no gap read: one gap, the whole line
    assert_eq!(slots("h = arbitrary(hint)", "size(h) > 1"), Slots { blocks: 0, gaps: 1 });
    // an arbitrary block is alone; an arbitrary gap has one merged gap on each side
    assert_eq!(slots("b = arbitrary(block) and g = arbitrary(gap)", "size(b) > 1"), Slots { blocks: 1, gaps: 3 });
    // the k-th keeps the k before it (and a gap the merged rest after it)
    assert_eq!(slots("b = constant(block, 2) and g = constant(gap, 1)", "size(b) > 1"), Slots { blocks: 3, gaps: 4 });
    assert_eq!(slots("b = arbitrary(block) and c = constant(block, 1)", "size(b) > 1"), Slots { blocks: 3, gaps: 1 });
    // comparing with the others of the type, or the only one, needs them
    // all, except a block that stays maximal or unique with fewer others
    assert_eq!(slots("b = arbitrary(block) and g = arbitrary(gap)", "maximal(b)"), Slots { blocks: 1, gaps: 3 });
    assert_eq!(slots("b = arbitrary(block) and g = arbitrary(gap)", "not (maximal(b))"), Slots { blocks: 15, gaps: 3 });
    assert_eq!(
        slots("b = arbitrary(block) and h = arbitrary(hint)", "b is unique where (size(b) > size(h))").blocks,
        1
    );
    assert_eq!(slots("b = arbitrary(block) and h = arbitrary(hint)", "h is unique where (maximal(b))").blocks, 15);
    assert_eq!(slots("b = arbitrary(block) and g = arbitrary(gap)", "maximal(g)").gaps, 15);
    assert_eq!(slots("h = arbitrary(hint) and g = arbitrary(gap)", "g is unique where (size(h) <= size(g))").gaps, 15);
    assert_eq!(slots("h = arbitrary(hint) and g = arbitrary(gap)", "not (minimal(g))").gaps, 15);
    assert_eq!(slots("b = singleton(block)", "size(b) > 1"), Slots { blocks: 15, gaps: 1 });
    // the relaxed placement features hold with cells forgotten too
    assert_eq!(slots("h = arbitrary(hint)", "earliest_start(h) > 1"), Slots { blocks: 0, gaps: 1 });
    assert_eq!(
        slots("h = arbitrary(hint) and b = arbitrary(block)", "latest_start(h) > start(b)"),
        Slots { blocks: 1, gaps: 1 }
    );
}
