//! The Z3 encoding of every consistent state of every Flow puzzle on one
//! board size `w` x `h` (docs/reference/language.md, "Domain: Flow boards"),
//! with the rule language's `cell`, `flow` and `area` elements, the
//! features of two cells and the globals as terms; "this action is wrong";
//! and a puzzle, state and solution read back from a model.
//!
//! Each board size is its own encoding, so `x`, `y`, the row-by-row indices
//! and `neighbours` are constants. The unknowns:
//!
//! - the puzzle and a solution: per cell whether it is an endpoint and its
//!   colour in the solution (1..k); a slot is in the solution exactly when
//!   its cells have one colour (linked cells share a colour, and paths
//!   never run beside themselves: side-adjacent cells of one colour are
//!   linked); an endpoint has one link, any other cell two; no cycle (every
//!   cell descends along the solution's links to an endpoint); each
//!   endpoint shares its colour with exactly one other endpoint; colours
//!   are numbered by their first endpoint row by row (a first endpoint's
//!   colour is one more than the first endpoints before it, and k is their
//!   number). These are exactly the solutions of docs/reference/formats.md
//!   (`model::check`): degrees, one path of two endpoints of one colour
//!   per chain, no touching.
//! - the state: per slot linked or cut, linked slots in the solution and
//!   cut ones not: every consistent state with a solution extending it.
//!
//! The features, on these states (where every chain lies on one colour's
//! path):
//!
//! - `links`, `open`, `need` count slots; `chain` is the least index of the
//!   chain by exact labels ([`least_labels`]);
//! - `colour` is the solution's colour if the chain holds an endpoint, else
//!   0 (the chain holds one exactly when it descends along linked slots to
//!   an endpoint); a head is a coloured cell with `need` 1;
//! - `done(f)`: no head of colour f (a colour not done has two: the loose
//!   end of each endpoint's chain; a done one has none);
//! - areas: the colourless cells labelled by least index through slots not
//!   cut; the table is sparse, slot j holding an area when cell j is its
//!   first cell; `size` counts its cells; a head touches an area when it
//!   has an open slot into one of its cells; `heads` counts the heads
//!   touching it, `flows` the colours with two heads touching it;
//! - `meets(f)`: done, or its two heads side by side across a slot not cut,
//!   or both touching one area (a walk between the heads through
//!   colourless cells over slots not cut is exactly that: its inner cells
//!   are one area, and a slot not cut from a head to a colourless cell is
//!   open, a linked one would colour the cell).
//!
//! [`Needs`] leaves out the groups of features a rule does not read, so
//! that Z3 gets a smaller problem; the features left out are 0.

use super::colours;
use super::labels::{c, count, descend, flag, least_labels, WIDTH};
use super::terms::{empty, Asserts, BoardTerms, Needs};
use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::view::{Layout, Meaning};
use crate::domains::Encoding;
use crate::dsl::ast::ActionId;
use crate::dsl::symbolic::{signed_value, Num, NumOps, SymTable, SymView};
use z3::ast::Bool;
use z3::Model;

/// The puzzle and its solution: endpoints, solution colours, links.
fn puzzle_and_solution(g: &Grid, tag: &str, acc: &mut Vec<Bool>) -> (Vec<Bool>, Vec<Num>, Num, Vec<Bool>) {
    let n = g.cells();
    let endpoint: Vec<Bool> = (0..n).map(|x| Bool::new_const(format!("{tag}e{x}"))).collect();
    let colour: Vec<Num> = (0..n).map(|x| Num::var(format!("{tag}s{x}"), WIDTH)).collect();
    let colours = Num::var(format!("{tag}k"), WIDTH);
    let solution: Vec<Bool> = (0..g.slots())
        .map(|s| {
            let [a, b] = g.ends(s);
            colour[a].same(&colour[b])
        })
        .collect();
    let all = vec![Bool::from_bool(true); n];
    descend(g, &all, &endpoint, &solution, &format!("{tag}sd"), acc);
    let mut firsts = c(0);
    for x in 0..n {
        acc.push(Bool::and(&[colour[x].sge(&c(1)), colour[x].sle(&colours)]));
        let links: Vec<(&Bool, i32)> = g.slots_of(x).map(|s| (&solution[s], 1)).collect();
        acc.push(endpoint[x].ite(&Bool::pb_eq(&links, 1), &Bool::pb_eq(&links, 2)));
        let same = |y: usize| Bool::and(&[endpoint[y].clone(), colour[y].same(&colour[x])]);
        let partners: Vec<Bool> = (0..n).filter(|&y| y != x).map(same).collect();
        acc.push(endpoint[x].implies(Bool::pb_eq(&partners.iter().map(|b| (b, 1)).collect::<Vec<_>>(), 1)));
        let earlier: Vec<Bool> = (0..x).map(same).collect();
        let first = Bool::and(&[endpoint[x].clone(), Bool::or(&earlier).not()]);
        acc.push(first.implies(colour[x].same(&firsts.plus(&c(1)))));
        firsts = firsts.plus(&flag(&first));
    }
    acc.push(colours.same(&firsts));
    (endpoint, colour, colours, solution)
}

/// Per cell its `chain`, `colour` and whether it is a head, as far as
/// `needs` asks (`None` where not built).
struct Chains {
    chain: Option<Vec<Num>>,
    /// Per cell: its chain holds an endpoint (coloured).
    coloured: Option<Vec<Bool>>,
    colour: Option<Vec<Num>>,
    head: Option<Vec<Bool>>,
}

/// The chains of the state.
fn chains(g: &Grid, t: &BoardTerms, need: &[Num], needs: Needs, tag: &str, asserts: &mut Asserts) -> Chains {
    let n = g.cells();
    let all = vec![Bool::from_bool(true); n];
    let acc = &mut asserts.base;
    let chain = needs.chain.then(|| least_labels(g, &all, &t.linked, &format!("{tag}ch"), acc));
    if !needs.colour {
        return Chains { chain, coloured: None, colour: None, head: None };
    }
    let coloured: Vec<Bool> = (0..n).map(|x| Bool::new_const(format!("{tag}h{x}"))).collect();
    for (e, k) in t.endpoint.iter().zip(&coloured) {
        acc.push(e.implies(k));
    }
    for s in 0..g.slots() {
        let [a, b] = g.ends(s);
        acc.push(t.linked[s].implies(coloured[a].eq(&coloured[b])));
    }
    descend(g, &coloured, &t.endpoint, &t.linked, &format!("{tag}cd"), acc);
    let colour = (0..n).map(|x| coloured[x].ite(&t.colour[x], &c(0))).collect();
    let head: Vec<Bool> = (0..n).map(|x| Bool::and(&[coloured[x].clone(), need[x].same(&c(1))])).collect();
    Chains { chain, coloured: Some(coloured), colour: Some(colour), head: Some(head) }
}

/// Encodes every consistent state of every puzzle on a `w` x `h` board
/// (names prefixed with `tag`), building the features `needs` asks for.
pub fn encode(layout: &Layout, w: usize, h: usize, needs: Needs, tag: &str) -> Encoding<BoardTerms> {
    let g = Grid::new(w, h);
    let (n, m) = (g.cells(), g.slots());
    let mut acc = vec![];
    let (endpoint, colour, colours, solution) = puzzle_and_solution(&g, tag, &mut acc);
    let linked: Vec<Bool> = (0..m).map(|s| Bool::new_const(format!("{tag}l{s}"))).collect();
    let cut: Vec<Bool> = (0..m).map(|s| Bool::new_const(format!("{tag}x{s}"))).collect();
    for s in 0..m {
        acc.push(linked[s].implies(&solution[s]));
        acc.push(cut[s].implies(solution[s].not()));
    }
    let base = Bool::from_bool(true);
    let mut t = BoardTerms { grid: g.clone(), endpoint, colour, colours, solution, linked, cut, base, implied: vec![] };
    let mut asserts = Asserts { base: acc, implied: vec![], defs: vec![] };
    let of = |x: Cell, bits: &[Bool]| count(&g.slots_of(x).map(|s| bits[s].clone()).collect::<Vec<_>>());
    let open: Vec<Bool> = (0..m).map(|s| Bool::and(&[t.linked[s].not(), t.cut[s].not()])).collect();
    let links: Vec<Num> = (0..n).map(|x| of(x, &t.linked)).collect();
    let opens: Vec<Num> = (0..n).map(|x| of(x, &open)).collect();
    let need: Vec<Num> = (0..n).map(|x| t.endpoint[x].ite(&c(1), &c(2)).minus(&links[x])).collect();
    let chains = chains(&g, &t, &need, needs, tag, &mut asserts);
    let meanings = layout.meanings();
    let zero_or = |v: Option<&Num>| v.cloned().unwrap_or_else(|| c(0));
    let cell_rows: Vec<Vec<Num>> = (0..n)
        .map(|x| {
            let (cx, cy) = g.xy(x);
            meanings
                .iter()
                .map(|m| match m {
                    Meaning::X => c(cx as i64),
                    Meaning::Y => c(cy as i64),
                    Meaning::Endpoint => flag(&t.endpoint[x]),
                    Meaning::Links => links[x].clone(),
                    Meaning::Open => opens[x].clone(),
                    Meaning::Need => need[x].clone(),
                    Meaning::Colour => zero_or(chains.colour.as_ref().map(|v| &v[x])),
                    Meaning::Chain => zero_or(chains.chain.as_ref().map(|v| &v[x])),
                    _ => c(0),
                })
                .collect()
        })
        .collect();
    let cells = SymTable { count: c(n as i64), slots: cell_rows, sparse: None };
    let (flows, area_table) = match (&chains.coloured, &chains.head) {
        (Some(coloured), Some(head)) => {
            let chains = colours::Coloured { coloured, head };
            colours::tables(&t, &chains, needs, meanings, tag, &mut asserts)
        }
        _ => (empty(), empty()),
    };
    let pairs = meanings
        .iter()
        .map(|meaning| {
            let holds = |s: usize| match meaning {
                Meaning::Neighbours => Some(Bool::from_bool(true)),
                Meaning::Joined => Some(t.linked[s].clone()),
                Meaning::Severed => Some(t.cut[s].clone()),
                _ => None,
            };
            (0..m)
                .filter_map(|s| holds(s).map(|b| (g.ends(s), b)))
                .flat_map(|([a, b], t)| [([a, b], t.clone()), ([b, a], t)])
                .collect()
        })
        .collect();
    let globals = layout.width_globals().iter().map(|&wide| c(if wide { w } else { h } as i64)).collect();
    let mut tables = vec![empty(); 3];
    for (ty, table) in layout.types().into_iter().zip([cells, flows, area_table]) {
        tables[ty.0 as usize] = table;
    }
    let magnitude = (n as i64).max(w as i64).max(h as i64).max(2);
    let view = SymView { globals, tables, pairs, width: WIDTH, magnitude };
    t.base = Bool::and(&asserts.base);
    t.implied = asserts.implied;
    let mut valid = vec![t.base.clone()];
    valid.extend(t.implied.iter().cloned());
    valid.extend(asserts.defs);
    Encoding { view, valid: Bool::and(&valid), extra: t }
}

/// "Applying `action` with `args` is wrong" on the encoding's state: a
/// `prune` always is (a solution extends the state); a `link` or `cut` is
/// when its cells are not side by side or the solution disagrees.
pub fn wrong(layout: &Layout, t: &BoardTerms, action: ActionId, args: &[Num]) -> Bool {
    let [link, cut, _] = layout.actions();
    if action != link && action != cut {
        return Bool::from_bool(true);
    }
    let g = &t.grid;
    let at = |v: &Num, x: Cell| v.same(&crate::dsl::symbolic::num(x as i64, v.width()));
    let right: Vec<Bool> = (0..g.slots())
        .flat_map(|s| {
            let [a, b] = g.ends(s);
            let agrees = if action == link { t.solution[s].clone() } else { t.solution[s].not() };
            [(a, b), (b, a)].map(|(x, y)| Bool::and(&[at(&args[0], x), at(&args[1], y), agrees.clone()]))
        })
        .collect();
    Bool::or(&right).not()
}

/// The puzzle, state and solution of a model (`None` if the model is not
/// one: an encoding fault).
pub fn decode(t: &BoardTerms, model: &Model) -> Option<(Puzzle, State, Solution)> {
    let g = &t.grid;
    let get = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v));
    let truth = |x: &Bool| model.eval(x, true).and_then(|v| v.as_bool());
    let k = get(&t.colours)?;
    let mut pairs: Vec<Vec<Cell>> = vec![vec![]; k.max(0) as usize];
    for x in 0..g.cells() {
        if truth(&t.endpoint[x])? {
            let f = get(&t.colour[x])?;
            pairs.get_mut((f - 1).max(0) as usize).filter(|_| f >= 1)?.push(x);
        }
    }
    if pairs.iter().any(|p| p.len() != 2) {
        return None;
    }
    let p = Puzzle::new(g.clone(), pairs.iter().map(|p| (None, [p[0], p[1]])).collect());
    // the encoding numbers colours as the puzzle does
    if (0..pairs.len()).any(|f| p.ends(f + 1) != [pairs[f][0], pairs[f][1]]) {
        return None;
    }
    let mut statuses = vec![];
    let mut links = vec![];
    for s in 0..g.slots() {
        let (l, x) = (truth(&t.linked[s])?, truth(&t.cut[s])?);
        statuses.push(if l {
            Status::Linked
        } else if x {
            Status::Cut
        } else {
            Status::Open
        });
        if truth(&t.solution[s])? {
            links.push(s);
        }
    }
    Some((p, State::from_statuses(statuses), Solution::new(links)))
}
