//! Every solution of a small puzzle by brute force, for tests: every set
//! of slots in which each cell has its number of links, checked against
//! the definition ([`check`]).

use crate::domains::flow::model::check::check;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Solution;

/// Every solution of `p` (with `touching`, under the looser convention),
/// in the order of their link sets.
pub fn solutions(p: &Puzzle, touching: bool) -> Vec<Solution> {
    let g = p.grid();
    let mut last = vec![None; g.cells()];
    for s in 0..g.slots() {
        for c in g.ends(s) {
            last[c] = Some(s);
        }
    }
    let mut found = vec![];
    let mut links = vec![0; g.cells()];
    let mut chosen = vec![];
    walk(p, touching, 0, &last, &mut links, &mut chosen, &mut found);
    found.sort();
    found
}

/// Decides slot `s` and the ones after it both ways.
fn walk(
    p: &Puzzle,
    touching: bool,
    s: usize,
    last: &[Option<usize>],
    links: &mut Vec<usize>,
    chosen: &mut Vec<usize>,
    found: &mut Vec<Solution>,
) {
    let g = p.grid();
    if s == g.slots() {
        let candidate = Solution::new(chosen.clone());
        if check(p, &candidate, touching).is_ok() {
            found.push(candidate);
        }
        return;
    }
    let [a, b] = g.ends(s);
    let settled = |links: &[usize], c: usize| last[c] != Some(s) || links[c] == p.degree(c);
    if settled(links, a) && settled(links, b) {
        walk(p, touching, s + 1, last, links, chosen, found);
    }
    if links[a] < p.degree(a) && links[b] < p.degree(b) {
        links[a] += 1;
        links[b] += 1;
        chosen.push(s);
        if settled(links, a) && settled(links, b) {
            walk(p, touching, s + 1, last, links, chosen, found);
        }
        chosen.pop();
        links[a] -= 1;
        links[b] -= 1;
    }
}
