//! The encoding's colours and areas ([`super::symbolic`] builds the rest):
//! heads per colour, `done`, `meets`, and the areas with `size`, `heads`
//! and `flows`, as the `flow` table (colours 1..k, dense) and the `area`
//! table (sparse: slot j holds an area when cell j is its first cell).
//!
//! - Heads: a colour's heads are the cells of that colour with `need` 1;
//!   `done(f)` is "no head" (a colour not done has two: the loose end of
//!   each endpoint's chain). Each colour names its two heads `H1 < H2`
//!   (any cells when it is done).
//! - Areas: the colourless cells labelled by least index through slots not
//!   cut ([`least_labels`]). Per cell and side, the label of the area an
//!   open slot leads into (-1 if none): a head touches the areas of its
//!   sides. `size` counts an area's cells, `heads` the heads touching it,
//!   `flows` the colours not done both of whose heads touch it.
//! - `meets(f)`: done, or `H1` and `H2` side by side across a slot not cut,
//!   or a side of `H1` and a side of `H2` leading into one area (a walk
//!   between the heads through colourless cells over slots not cut is
//!   exactly that: its inner cells are one area, and a slot not cut from a
//!   head to a colourless cell is open, a linked one would colour it).
//!
//! Implied constraints (true of every consistent state; Z3 would need
//! induction along a path to derive them): a colour has no head or two;
//! a colour with a colourless cell is not done; the colourless cells of
//! one solution colour are one area. On a consistent state a colour's
//! path runs from its first endpoint through that endpoint's chain (a
//! prefix of the path, ending at a head unless it reaches the other
//! endpoint), then through colourless cells, then through the other
//! endpoint's chain (a suffix, ending at the other head): the middle part
//! is the colour's only colourless cells, joined by solution slots, which
//! are never cut, so it is one area.

use super::labels::{c, count, flag, least_labels, WIDTH};
use super::terms::{empty, Asserts, BoardTerms, Needs};
use crate::domains::flow::rules::view::Meaning;
use crate::dsl::symbolic::{Num, NumOps, Sparse, SymTable};
use z3::ast::Bool;

/// Per cell: whether its chain holds an endpoint, and whether it is a head.
pub(super) struct Coloured<'a> {
    pub(super) coloured: &'a [Bool],
    pub(super) head: &'a [Bool],
}

/// Per colour (index f for colour f + 1): per cell whether it is a head of
/// the colour, and whether the colour is done.
struct Heads {
    of: Vec<Vec<Bool>>,
    done: Vec<Bool>,
}

/// The heads of each colour, with the implied constraints on them.
fn heads(t: &BoardTerms, ch: &Coloured, acc: &mut Asserts) -> Heads {
    let n = t.grid.cells();
    let of: Vec<Vec<Bool>> = (0..n / 2)
        .map(|f| (0..n).map(|x| Bool::and(&[ch.head[x].clone(), t.colour[x].same(&c(f as i64 + 1))])).collect())
        .collect();
    let mut done = vec![];
    for (f, of_f) in of.iter().enumerate() {
        let weights: Vec<(&Bool, i32)> = of_f.iter().map(|b| (b, 1)).collect();
        done.push(Bool::pb_eq(&weights, 0));
        acc.implied.push(Bool::pb_le(&weights, 2));
        for x in 0..n {
            let colourless_of_f = Bool::and(&[ch.coloured[x].not(), t.colour[x].same(&c(f as i64 + 1))]);
            acc.implied.push(colourless_of_f.implies(done[f].not()));
        }
    }
    Heads { of, done }
}

/// The areas: per area slot whether it holds one and its size; per cell
/// and side the label of the area an open slot leads into (-1 if none).
struct Areas {
    present: Vec<Bool>,
    size: Vec<Num>,
    side: Vec<Vec<Num>>,
}

/// The areas of the state, with the implied constraint on them.
fn areas(t: &BoardTerms, ch: &Coloured, tag: &str, acc: &mut Asserts) -> Areas {
    let g = &t.grid;
    let n = g.cells();
    let colourless: Vec<Bool> = ch.coloured.iter().map(|b| b.not()).collect();
    let not_cut: Vec<Bool> = t.cut.iter().map(|b| b.not()).collect();
    let label = least_labels(g, &colourless, &not_cut, &format!("{tag}al"), &mut acc.base);
    for x in 0..n {
        for y in x + 1..n {
            let one_colour = Bool::and(&[colourless[x].clone(), colourless[y].clone(), t.colour[x].same(&t.colour[y])]);
            acc.implied.push(one_colour.implies(label[x].same(&label[y])));
        }
    }
    let inside = |x: usize, j: usize| Bool::and(&[colourless[x].clone(), label[x].same(&c(j as i64))]);
    let present = (0..n).map(|j| inside(j, j)).collect();
    let size = (0..n).map(|j| count(&(j..n).map(|x| inside(x, j)).collect::<Vec<_>>())).collect();
    let side = (0..n)
        .map(|x| {
            g.slots_of(x)
                .map(|s| {
                    let d = g.across(s, x);
                    let open = Bool::and(&[t.linked[s].not(), t.cut[s].not(), colourless[d].clone()]);
                    open.ite(&label[d], &c(-1))
                })
                .collect()
        })
        .collect();
    Areas { present, size, side }
}

/// Per colour its heads `H1 < H2` and the area labels of their sides.
struct Pairs {
    first: Vec<Num>,
    second: Vec<Num>,
    sides: Vec<[Vec<Num>; 2]>,
}

/// Names each colour's two heads and reads their sides.
fn pairs(t: &BoardTerms, heads: &Heads, areas: &Areas, tag: &str, acc: &mut Asserts) -> Pairs {
    let n = t.grid.cells();
    let var = |name: String| Num::var(name, WIDTH);
    let mut out = Pairs { first: vec![], second: vec![], sides: vec![] };
    for f in 0..n / 2 {
        let (h1, h2) = (var(format!("{tag}ha{f}")), var(format!("{tag}hb{f}")));
        let sides = [0, 1].map(|k| (0..4).map(|i| var(format!("{tag}hs{f}_{k}_{i}"))).collect::<Vec<_>>());
        let is = |h: &Num| {
            Bool::or(&(0..n).map(|x| Bool::and(&[h.same(&c(x as i64)), heads.of[f][x].clone()])).collect::<Vec<_>>())
        };
        acc.defs.push(heads.done[f].not().implies(Bool::and(&[h1.slt(&h2), is(&h1), is(&h2)])));
        for x in 0..n {
            acc.defs.push(heads.of[f][x].implies(Bool::or(&[h1.same(&c(x as i64)), h2.same(&c(x as i64))])));
            for (k, h) in [&h1, &h2].into_iter().enumerate() {
                let read: Vec<Bool> =
                    (0..4).map(|i| sides[k][i].same(areas.side[x].get(i).unwrap_or(&c(-1)))).collect();
                acc.defs.push(h.same(&c(x as i64)).implies(Bool::and(&read)));
            }
        }
        out.first.push(h1);
        out.second.push(h2);
        out.sides.push(sides);
    }
    out
}

/// The `flow` and `area` tables, as far as `needs` asks.
pub(super) fn tables(
    t: &BoardTerms,
    ch: &Coloured,
    needs: Needs,
    meanings: &[Meaning],
    tag: &str,
    acc: &mut Asserts,
) -> (SymTable, SymTable) {
    let g = &t.grid;
    let n = g.cells();
    let heads = heads(t, ch, acc);
    let areas = needs.areas.then(|| areas(t, ch, tag, acc));
    let pairs = areas.as_ref().filter(|_| needs.two_heads).map(|a| pairs(t, &heads, a, tag, acc));
    let touches = |p: &Pairs, f: usize, k: usize, j: usize| {
        Bool::or(&p.sides[f][k].iter().map(|s| s.same(&c(j as i64))).collect::<Vec<_>>())
    };
    let flows = if needs.flows {
        let slots = (0..n / 2)
            .map(|f| {
                let meets = pairs.as_ref().map(|p| {
                    let side_by_side: Vec<Bool> = (0..g.slots())
                        .map(|s| {
                            let [a, b] = g.ends(s);
                            Bool::and(&[t.cut[s].not(), p.first[f].same(&c(a as i64)), p.second[f].same(&c(b as i64))])
                        })
                        .collect();
                    let [one, two] = &p.sides[f];
                    let common: Vec<Bool> = one
                        .iter()
                        .flat_map(|a| two.iter().map(move |b| Bool::and(&[a.same(b), a.sge(&c(0))])))
                        .collect();
                    Bool::or(&[heads.done[f].clone(), Bool::or(&side_by_side), Bool::or(&common)])
                });
                meanings
                    .iter()
                    .map(|m| match m {
                        Meaning::Done => flag(&heads.done[f]),
                        Meaning::Meets => meets.as_ref().map_or_else(|| c(0), flag),
                        _ => c(0),
                    })
                    .collect()
            })
            .collect();
        SymTable { count: t.colours.clone(), slots, sparse: None }
    } else {
        empty()
    };
    let Some(a) = areas else { return (flows, empty()) };
    let slots = (0..n)
        .map(|j| {
            let touching: Vec<Bool> = (0..n)
                .map(|x| {
                    let into = Bool::or(&a.side[x].iter().map(|s| s.same(&c(j as i64))).collect::<Vec<_>>());
                    Bool::and(&[ch.head[x].clone(), into])
                })
                .collect();
            let both = |p: &Pairs| {
                let each: Vec<Bool> = (0..n / 2)
                    .map(|f| Bool::and(&[heads.done[f].not(), touches(p, f, 0, j), touches(p, f, 1, j)]))
                    .collect();
                count(&each)
            };
            meanings
                .iter()
                .map(|m| match m {
                    Meaning::Size => a.size[j].clone(),
                    Meaning::Heads => count(&touching),
                    Meaning::Flows => pairs.as_ref().map_or_else(|| c(0), both),
                    _ => c(0),
                })
                .collect()
        })
        .collect();
    let mut rank = vec![];
    let mut before = c(0);
    for j in 0..n {
        rank.push(before.clone());
        before = before.plus(&flag(&a.present[j]));
    }
    (flows, SymTable { count: before, slots, sparse: Some(Sparse { present: a.present, rank }) })
}
