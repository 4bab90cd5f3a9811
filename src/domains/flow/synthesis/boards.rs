//! Several board sizes in one encoding: each size encoded on its own
//! ([`super::symbolic::encode`], names prefixed by the size) and a selector
//! saying which one the state is on. Every term of the view is the
//! selected size's (an if-then-else over the sizes; 0 in a slot the size
//! does not have), its validity holds, and an action is wrong as on that
//! size. With one size the selector is the constant 0.

use super::labels::{c, WIDTH};
use super::symbolic;
use super::terms::{BoardTerms, Needs};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State};
use crate::domains::flow::rules::view::Layout;
use crate::domains::Encoding;
use crate::dsl::ast::ActionId;
use crate::dsl::symbolic::{signed_value, Num, NumOps, Sparse, SymTable, SymView};
use z3::ast::Bool;
use z3::Model;

/// The terms of an encoding of several board sizes.
pub struct FlowTerms {
    /// Which size the state is on (an index into `boards`).
    selected: Num,
    /// Per size its terms.
    boards: Vec<BoardTerms>,
}

impl FlowTerms {
    /// The sizes' terms, in the order of the sizes encoded.
    pub fn boards(&self) -> &[BoardTerms] {
        &self.boards
    }

    /// The formula saying the state is on size `i`.
    pub fn on(&self, i: usize) -> Bool {
        self.selected.same(&c(i as i64))
    }
}

/// `values[i]` where the selector is `i` (`values` not empty).
fn choose(selected: &Num, values: &[Num]) -> Num {
    let last = values.len() - 1;
    (0..last).rev().fold(values[last].clone(), |acc, i| selected.same(&c(i as i64)).ite(&values[i], &acc))
}

/// Every consistent state of every puzzle on the boards `sizes` (`w`, `h`;
/// not empty), with the features `needs` asks for.
pub fn encode(layout: &Layout, sizes: &[(usize, usize)], needs: Needs) -> Encoding<FlowTerms> {
    let tag = |&(w, h): &(usize, usize)| if sizes.len() == 1 { String::new() } else { format!("b{w}x{h}_") };
    let encodings: Vec<Encoding<BoardTerms>> =
        sizes.iter().map(|size| symbolic::encode(layout, size.0, size.1, needs, &tag(size))).collect();
    let selected = if sizes.len() == 1 { c(0) } else { Num::var("board".to_string(), WIDTH) };
    let on = |i: usize| selected.same(&c(i as i64));
    let mut valid = vec![selected.sge(&c(0)), selected.slt(&c(sizes.len() as i64))];
    valid.extend(encodings.iter().enumerate().map(|(i, e)| on(i).implies(&e.valid)));
    let views: Vec<&SymView> = encodings.iter().map(|e| &e.view).collect();
    let globals = (0..views[0].globals.len())
        .map(|g| choose(&selected, &views.iter().map(|v| v.globals[g].clone()).collect::<Vec<_>>()))
        .collect();
    let tables = (0..views[0].tables.len())
        .map(|ty| {
            let of: Vec<&SymTable> = views.iter().map(|v| &v.tables[ty]).collect();
            let slots = of.iter().map(|t| t.slots.len()).max().unwrap_or(0);
            let features = of.iter().find_map(|t| t.slots.first().map(|row| row.len())).unwrap_or(0);
            let at = |j: usize, f: usize| -> Vec<Num> {
                of.iter().map(|t| t.slots.get(j).map_or_else(|| c(0), |row| row[f].clone())).collect()
            };
            let rows = (0..slots).map(|j| (0..features).map(|f| choose(&selected, &at(j, f))).collect()).collect();
            let count = choose(&selected, &of.iter().map(|t| t.count.clone()).collect::<Vec<_>>());
            let sparse = of.iter().any(|t| t.sparse.is_some()).then(|| {
                let held = |i: usize, j: usize| match (&of[i].sparse, j < of[i].slots.len()) {
                    (Some(s), true) => (s.present[j].clone(), s.rank[j].clone()),
                    _ => (Bool::from_bool(false), c(0)),
                };
                let present = (0..slots)
                    .map(|j| Bool::or(&(0..of.len()).map(|i| Bool::and(&[on(i), held(i, j).0])).collect::<Vec<_>>()));
                let rank =
                    (0..slots).map(|j| choose(&selected, &(0..of.len()).map(|i| held(i, j).1).collect::<Vec<_>>()));
                Sparse { present: present.collect(), rank: rank.collect() }
            });
            SymTable { count, slots: rows, sparse }
        })
        .collect();
    let pairs = (0..views[0].pairs.len())
        .map(|f| {
            let each = views
                .iter()
                .enumerate()
                .flat_map(|(i, v)| v.pairs[f].iter().map(move |(pair, t)| (*pair, (i, t.clone()))));
            each.map(|(pair, (i, t))| (pair, if sizes.len() == 1 { t } else { Bool::and(&[on(i), t]) })).collect()
        })
        .collect();
    let magnitude = views.iter().map(|v| v.magnitude).max().unwrap_or(1);
    let view = SymView { globals, tables, pairs, width: WIDTH, magnitude };
    let boards = encodings.into_iter().map(|e| e.extra).collect();
    Encoding { view, valid: Bool::and(&valid), extra: FlowTerms { selected, boards } }
}

/// "Applying `action` with `args` is wrong" on the selected size.
pub fn wrong(layout: &Layout, t: &FlowTerms, action: ActionId, args: &[Num]) -> Bool {
    let each: Vec<Bool> = (0..t.boards.len())
        .map(|i| Bool::and(&[t.on(i), symbolic::wrong(layout, &t.boards[i], action, args)]))
        .collect();
    Bool::or(&each)
}

/// The puzzle, state and solution of a model, on the selected size.
pub fn decode(t: &FlowTerms, model: &Model) -> Option<(Puzzle, State, Solution)> {
    let i = model.eval(&t.selected, true).and_then(|v| signed_value(&v))?;
    symbolic::decode(t.boards.get(usize::try_from(i).ok()?)?, model)
}
