//! The solver against brute force (every puzzle up to 3x3, random 4x4s),
//! under both conventions and at every propagation level, and on the
//! development set.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use super::brute::solutions;
use super::stranded::Stranded;
use super::{solve, Limits, Options, Rules, Stop};
use crate::domains::flow::formats::read::parse_flow;
use crate::domains::flow::model::check::check;
use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Status;

/// Every way to pair some of the cells `from..n` not yet `used`.
fn matchings(n: usize, from: usize, used: &mut Vec<bool>, pairs: &mut Vec<[Cell; 2]>, out: &mut Vec<Vec<[Cell; 2]>>) {
    let Some(a) = (from..n).find(|&c| !used[c]) else {
        out.push(pairs.clone());
        return;
    };
    used[a] = true;
    matchings(n, a + 1, used, pairs, out);
    for b in a + 1..n {
        if used[b] {
            continue;
        }
        used[b] = true;
        pairs.push([a, b]);
        matchings(n, a + 1, used, pairs, out);
        pairs.pop();
        used[b] = false;
    }
    used[a] = false;
}

fn puzzle(w: usize, h: usize, pairs: &[[Cell; 2]]) -> Puzzle {
    Puzzle::new(Grid::new(w, h), pairs.iter().map(|&p| (None, p)).collect())
}

/// The solver agrees with brute force on `p`: the count up to 2, and each
/// solution it returns is one of brute force's.
fn agrees(p: &Puzzle, rules: &[Rules]) {
    for touching in [false, true] {
        let all = solutions(p, touching);
        for &rules in rules {
            let out = solve(p, Options { touching, rules }, Limits::solutions(2));
            assert_eq!(out.count(), Some(all.len().min(2)), "{p:?} touching {touching} rules {rules:?}");
            assert!(out.solutions.iter().all(|s| all.contains(s)), "{p:?}");
        }
    }
}

/// Every puzzle of every size up to 3x3, at every propagation level.
#[test]
fn every_puzzle_up_to_3x3_agrees_with_brute_force() {
    let mut checked = 0;
    for (w, h) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 1), (2, 3), (3, 2), (3, 3)] {
        let mut all = vec![];
        matchings(w * h, 0, &mut vec![false; w * h], &mut vec![], &mut all);
        for pairs in &all {
            agrees(&puzzle(w, h, pairs), &Rules::ALL);
            checked += 1;
        }
    }
    assert_eq!(checked, 1 + 2 + 2 + 4 + 10 + 4 + 76 + 76 + 2620);
}

/// Random puzzles of 4x4 (and 5x3, 3x5), with every rule.
#[test]
fn random_4x4_puzzles_agree_with_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let (mut solved, mut several) = (0, 0);
    for i in 0..400 {
        let (w, h) = [(4, 4), (5, 3), (3, 5)][i % 3];
        let k = rng.gen_range(1..=5);
        let mut cells: Vec<Cell> = (0..w * h).collect();
        for j in 0..2 * k {
            let r = rng.gen_range(j..cells.len());
            cells.swap(j, r);
        }
        let pairs: Vec<[Cell; 2]> = (0..k).map(|j| [cells[2 * j], cells[2 * j + 1]]).collect();
        let p = puzzle(w, h, &pairs);
        agrees(&p, &[Rules::None, Rules::All]);
        let n = solutions(&p, true).len();
        solved += usize::from(n > 0);
        several += usize::from(n > 1);
    }
    assert!(solved >= 20 && several >= 5, "{solved} solvable, {several} with several solutions");
}

/// Every puzzle of the development set is unique; 98 also with touching.
#[test]
fn the_development_set_is_unique() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/flow/dev.flow")).unwrap();
    let set = parse_flow(&text, "dev.flow").unwrap();
    let mut touching_unique = 0;
    for (name, p) in &set {
        let out = solve(p, Options::default(), Limits::solutions(2));
        assert_eq!(out.count(), Some(1), "{name}");
        assert_eq!(check(p, &out.solutions[0], false), Ok(()), "{name}");
        let loose = solve(p, Options { touching: true, rules: Rules::All }, Limits::solutions(2));
        assert!(loose.solutions.iter().all(|s| check(p, s, true).is_ok()), "{name}");
        touching_unique += usize::from(loose.count() == Some(1));
    }
    assert_eq!(touching_unique, 98);
}

/// Past the node budget or the deadline the answer is unknown.
#[test]
fn the_node_budget_stops_the_search() {
    let p = parse_flow("A....\n.....\n.....\n.....\n....A\n", "t").unwrap().remove(0).1;
    let free = solve(&p, Options { touching: true, rules: Rules::All }, Limits::solutions(2));
    assert_eq!(free.count(), Some(2));
    assert!(free.nodes > 2);
    let limits = Limits { max_nodes: Some(2), ..Limits::solutions(2) };
    let out = solve(&p, Options { touching: true, rules: Rules::All }, limits);
    assert_eq!((out.count(), out.stopped, out.nodes), (None, Some(Stop::Nodes), 2));
    let past = Limits { deadline: Some(std::time::Instant::now()), ..Limits::solutions(2) };
    let out = solve(&p, Options::default(), past);
    assert_eq!((out.count(), out.stopped, out.nodes), (None, Some(Stop::Timeout), 0));
}

/// The board's incremental counts, colours and heads, and the global
/// rules' verdict, equal docs/reference/language.md's features computed from scratch, on
/// random walks of links and cuts over the development set's puzzles.
#[test]
fn the_board_keeps_the_features_of_its_state() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/flow/dev.flow")).unwrap();
    let set = parse_flow(&text, "dev.flow").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let options = Options { touching: false, rules: Rules::None };
    let mut stranded = Stranded::default();
    let (mut steps, mut pruned) = (0, 0);
    for (_, p) in set.iter().take(40) {
        let g = p.grid();
        let truth = solve(p, Options::default(), Limits::solutions(1)).solutions.remove(0);
        let mut board = Board::new(p);
        loop {
            let open: Vec<usize> = (0..g.slots()).filter(|&s| board.status(s) == Status::Open).collect();
            if open.is_empty() {
                break;
            }
            let s = open[rng.gen_range(0..open.len())];
            let true_link = truth.links().binary_search(&s).is_ok();
            let made = if true_link ^ rng.gen_bool(0.05) { board.link(p, s) } else { board.cut(p, s) };
            if made.and_then(|_| board.settle(p, options)).is_err() {
                break;
            }
            steps += 1;
            let f = Features::of(p, &board.state());
            for c in 0..g.cells() {
                assert_eq!(
                    (board.need(p, c) as i64, board.open(c), board.colour(c)),
                    (f.need(c), f.open(c), f.colour(c))
                );
            }
            let mut alive = true;
            for colour in 1..=p.colours() {
                let [e1, e2] = p.ends(colour);
                let mut heads = vec![board.head(e1), board.head(e2)];
                heads.sort_unstable();
                assert_eq!(f.done(colour), board.head(e1) == e2);
                if !f.done(colour) {
                    assert_eq!(f.heads(colour), heads.as_slice());
                }
                alive &= f.meets(colour);
            }
            alive &= f.areas().iter().all(|a| a.flows > 0);
            assert_eq!(stranded.check(p, &board).is_ok(), alive);
            pruned += usize::from(!alive);
        }
    }
    assert!(steps > 500 && pruned > 50, "{steps} steps, {pruned} pruned");
}
