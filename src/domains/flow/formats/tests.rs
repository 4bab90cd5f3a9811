//! The readers and writers: each layout read and written back, and every
//! error of the contract located.

use super::read::{layout, looks_like_flow, parse_flow, FlowErrorKind, Layout};
use super::write::{counted_text, grid_text, sized_text, solution_grid, solution_json};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Solution;

const FIVE: &str = "# title \"Five\"\n# by \"someone\"\nR.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n";

fn one(text: &str) -> Puzzle {
    let mut all = parse_flow(text, "f.flow").unwrap();
    assert_eq!(all.len(), 1);
    all.remove(0).1
}

/// The error `text` gives: line, column and kind.
fn error(text: &str) -> (usize, usize, FlowErrorKind) {
    let e = parse_flow(text, "f.flow").unwrap_err();
    assert_eq!(e.file, "f.flow");
    (e.line, e.column, e.kind)
}

/// The grid layout: colours row by row, metadata, endpoints; written back
/// as it was read.
#[test]
fn the_grid_layout_reads_and_writes_back() {
    let p = one(FIVE);
    assert_eq!((p.width(), p.height(), p.colours()), (5, 5, 5));
    assert_eq!(p.title.as_deref(), Some("Five"));
    assert_eq!(p.metadata, vec![("by".to_string(), "someone".to_string())]);
    let names: String = (1..=5).map(|f| p.name(f).unwrap()).collect();
    assert_eq!(names, "RGYBO");
    assert_eq!(p.ends(1), [0, 21]);
    assert_eq!(grid_text(&p).unwrap(), FIVE);
    assert_eq!(layout(FIVE), Layout::Grid);
}

/// The counted layout: pairs in any order, colours renumbered row by row
/// and named in order; written and read back to the same puzzle.
#[test]
fn the_counted_layout_reads_and_writes_back() {
    let text = "# a comment\n2 3 2\n(2, 1) (0, 1)\n\n(0, 0) (2, 0)\n";
    let p = one(text);
    assert_eq!(layout(text), Layout::Counted);
    assert_eq!((p.ends(1), p.ends(2)), ([0, 2], [3, 5]));
    assert_eq!(grid_text(&p).unwrap(), "A.A\nB.B\n");
    assert_eq!(counted_text(&p), "2 3 2\n(0, 0) (2, 0)\n(0, 1) (2, 1)\n");
    assert_eq!(one(&counted_text(&p)), p);
}

/// The sized layout: several puzzles named `FILE#N`, metadata for each;
/// one puzzle named `FILE`.
#[test]
fn the_sized_layout_holds_sets() {
    let text = "# a set\n\n# title \"one\"\n3 2\nA.A\nB.B\n\n2 2\nAB\nAB\n";
    let all = parse_flow(text, "s.txt").unwrap();
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["s.txt#1", "s.txt#2"]);
    assert_eq!(all[0].1.title.as_deref(), Some("one"));
    let written = sized_text(&[&all[0].1, &all[1].1]).unwrap();
    assert_eq!(written, "# title \"one\"\n3 2\nA.A\nB.B\n\n2 2\nAB\nAB\n");
    assert_eq!(parse_flow("2 1\nAA\n", "s.txt").unwrap()[0].0, "s.txt");
}

/// Content decides the layout and whether a file is a Flow file at all.
#[test]
fn files_are_recognised_by_content() {
    assert!(looks_like_flow(FIVE) && looks_like_flow("5 5\n") && looks_like_flow("2 5 5\n"));
    assert!(!looks_like_flow("title \"Duck\"\nwidth 3\n") && !looks_like_flow("$1\n") && !looks_like_flow("<x>"));
    assert_eq!(layout("12\n12\n"), Layout::Grid);
}

/// Every error of the contract, at its line and column.
#[test]
fn errors_are_located() {
    use FlowErrorKind::*;
    let unequal = UnequalRow { expected: 3, found: 2, what: "as the first row" };
    assert_eq!(error("A.A\nB.\n"), (2, 3, unequal));
    assert_eq!(error("A.A\nB..\n"), (2, 1, OneEndpoint('B')));
    assert_eq!(error("A.A\n.A.\n"), (2, 2, ThirdEndpoint('A')));
    assert_eq!(error(&format!("{}\n", ".".repeat(65))), (1, 65, TooBig("wider")));
    assert_eq!(error(&".\n".repeat(65)), (65, 1, TooBig("taller")));
    assert_eq!(error("65 2\n"), (1, 1, TooBig("width")));
    assert_eq!(error("3 0\n"), (1, 3, BadSize { what: "height", found: "0".into() }));
    assert_eq!(error("1 3 2\n(0, 0) (3, 1)\n"), (2, 8, Outside { x: 3, y: 1, width: 3, height: 2 }));
    assert_eq!(error("2 3 2\n(0, 0) (1, 1)\n(2, 0) (1, 1)\n"), (3, 8, SameCell { x: 1, y: 1 }));
    assert_eq!(error("1 3 2\n(0, 0) (0, 0)\n"), (2, 8, SameCell { x: 0, y: 0 }));
    assert_eq!(error("A.%\n"), (1, 3, BadCharacter('%')));
    assert_eq!(error("2 1\nA-\n"), (2, 2, BadCharacter('-')));
    assert_eq!(error("1 3 2\n(0, 0) 2, 1)\n"), (2, 8, BadPair("(0, 0) 2, 1)".into())));
    assert_eq!(error("2 3 2\n(0, 0) (2, 0)\n"), (3, 1, MissingPairs { expected: 2, found: 1 }));
    assert_eq!(error("3 2\nA.A\n\n"), (3, 1, MissingRows { expected: 2, found: 1 }));
    let wide = UnequalRow { expected: 3, found: 4, what: "the size line's width" };
    assert_eq!(error("3 2\nA.A.\nB.B\n"), (2, 4, wide));
    assert!(matches!(error("3 1\nA.A\nB.B\n"), (3, 1, Trailing(..))));
    assert!(matches!(error("A.A\n\nB.B\n"), (3, 1, Trailing(..))));
    assert!(matches!(error("3 1\nA.A\n\nx\n"), (4, 1, BadSizeLine(..))));
    assert!(matches!(error("# only\n"), (1, 1, NoPuzzle)));
}

/// Solutions are written as sorted JSON links and as colour grids.
#[test]
fn solutions_are_written_both_ways() {
    let p = one("AB\nAB\n");
    let g = p.grid();
    let s = Solution::new(vec![g.slot_between(1, 3).unwrap(), g.slot_between(0, 2).unwrap()]);
    assert_eq!(solution_json(&p, &s).to_string(), "{\"links\":[[[0,0],[0,1]],[[1,0],[1,1]]]}");
    assert_eq!(solution_grid(&p, &s).unwrap(), "AB\nAB\n");
}

/// The development set reads: 100 puzzles, 5x5 to 14x14.
#[test]
fn the_development_set_reads() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/flow/dev.flow")).unwrap();
    let all = parse_flow(&text, "dev.flow").unwrap();
    assert_eq!(all.len(), 100);
    assert_eq!(all[99].0, "dev.flow#100");
    assert!(all.iter().all(|(_, p)| (5..=14).contains(&p.width()) && (5..=14).contains(&p.height())));
    let again = sized_text(&all.iter().map(|(_, p)| p).collect::<Vec<_>>()).unwrap();
    assert_eq!(parse_flow(&again, "dev.flow").unwrap(), all);
}
