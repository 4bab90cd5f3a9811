//! A Flow state as the rule language sees it (docs/reference/language.md, "Domain: Flow
//! boards"): the element tables `cell`, `flow` and `area` with their
//! features, the features of two cells, the globals `width` and `height`,
//! read off [`Features`]; and the actions `link`, `cut` and `prune` with
//! their range and meaning on a state.

use thiserror::Error;

use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::grid::{Cell, Slot};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{State, Status};
use crate::dsl::ast::{ActionId, TypeId};
use crate::dsl::eval::{ActionValue, ElementTable, View};
use crate::dsl::schema::Schema;

/// What a feature of the schema reads (docs/reference/language.md's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// `x(c)`
    X,
    /// `y(c)`
    Y,
    /// `endpoint(c)`
    Endpoint,
    /// `links(c)`
    Links,
    /// `open(c)`
    Open,
    /// `need(c)`
    Need,
    /// `colour(c)`
    Colour,
    /// `chain(c)`
    Chain,
    /// `neighbours(c, d)`
    Neighbours,
    /// `joined(c, d)`
    Joined,
    /// `severed(c, d)`
    Severed,
    /// `done(f)`
    Done,
    /// `meets(f)`
    Meets,
    /// `size(a)`
    Size,
    /// `heads(a)`
    Heads,
    /// `flows(a)`
    Flows,
}

/// The Flow names every schema of the domain must define, with their meaning.
const MEANINGS: [(&str, Meaning); 16] = [
    ("x", Meaning::X),
    ("y", Meaning::Y),
    ("endpoint", Meaning::Endpoint),
    ("links", Meaning::Links),
    ("open", Meaning::Open),
    ("need", Meaning::Need),
    ("colour", Meaning::Colour),
    ("chain", Meaning::Chain),
    ("neighbours", Meaning::Neighbours),
    ("joined", Meaning::Joined),
    ("severed", Meaning::Severed),
    ("done", Meaning::Done),
    ("meets", Meaning::Meets),
    ("size", Meaning::Size),
    ("heads", Meaning::Heads),
    ("flows", Meaning::Flows),
];

/// A schema that is not the Flow domain's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{path}: not a Flow DSL file: {what}")]
pub struct NotFlow {
    /// The DSL file.
    pub path: String,
    /// What is missing or wrong.
    pub what: String,
}

/// What a concluded action says, in cells of the board it was found on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conclusion {
    /// The slot between two cells is linked in every solution.
    Link(Cell, Cell),
    /// The slot between two cells is linked in no solution.
    Cut(Cell, Cell),
    /// No solution extends the state.
    Prune,
}

/// The schema's Flow names resolved to ids: builds views and reads actions.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per feature id, its meaning.
    meanings: Vec<Meaning>,
    cell: TypeId,
    flow: TypeId,
    area: TypeId,
    /// Per global id, whether it is `width` (else `height`).
    width: Vec<bool>,
    link: ActionId,
    cut: ActionId,
    prune: ActionId,
}

impl Layout {
    /// Resolves `schema` (read from `path`), which must define exactly the
    /// Flow domain's names.
    pub fn new(schema: &Schema, path: &str) -> Result<Layout, NotFlow> {
        let missing = |what: String| NotFlow { path: path.to_string(), what };
        let ty = |n: &str| schema.type_id(n).ok_or_else(|| missing(format!("no element type `{n}`")));
        let act = |n: &str| schema.action_id(n).ok_or_else(|| missing(format!("no action `{n}`")));
        let meanings = schema
            .features()
            .map(|f| {
                let name = &schema.feature(f).name;
                MEANINGS
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, m)| *m)
                    .ok_or_else(|| missing(format!("unknown feature `{name}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some((n, _)) = MEANINGS.iter().find(|(n, _)| schema.feature_id(n).is_none()) {
            return Err(missing(format!("no feature `{n}`")));
        }
        let width = schema
            .globals()
            .map(|g| match schema.global(g).name.as_str() {
                "width" => Ok(true),
                "height" => Ok(false),
                other => Err(missing(format!("unknown global `{other}`"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Layout {
            meanings,
            cell: ty("cell")?,
            flow: ty("flow")?,
            area: ty("area")?,
            width,
            link: act("link")?,
            cut: act("cut")?,
            prune: act("prune")?,
        })
    }

    /// Per feature id, its meaning.
    pub fn meanings(&self) -> &[Meaning] {
        &self.meanings
    }

    /// The element types `cell`, `flow` and `area`.
    pub fn types(&self) -> [TypeId; 3] {
        [self.cell, self.flow, self.area]
    }

    /// Per global id, whether it is `width` (else `height`).
    pub fn width_globals(&self) -> &[bool] {
        &self.width
    }

    /// The actions `link`, `cut` and `prune`.
    pub fn actions(&self) -> [ActionId; 3] {
        [self.link, self.cut, self.prune]
    }

    /// The view of state `st` of puzzle `p`.
    pub fn view(&self, p: &Puzzle, st: &State) -> View {
        let f = Features::of(p, st);
        let g = p.grid();
        let n = self.meanings.len();
        let mut tables = vec![ElementTable::new(n); 3];
        let mut values = vec![0i64; n];
        for c in 0..g.cells() {
            let (x, y) = g.xy(c);
            for (v, m) in values.iter_mut().zip(&self.meanings) {
                *v = match m {
                    Meaning::X => x as i64,
                    Meaning::Y => y as i64,
                    Meaning::Endpoint => (p.endpoint(c) > 0) as i64,
                    Meaning::Links => f.links(c) as i64,
                    Meaning::Open => f.open(c) as i64,
                    Meaning::Need => f.need(c),
                    Meaning::Colour => f.colour(c) as i64,
                    Meaning::Chain => f.chain(c) as i64,
                    _ => 0,
                };
            }
            tables[self.cell.0 as usize].push(&values);
        }
        for k in 1..=p.colours() {
            for (v, m) in values.iter_mut().zip(&self.meanings) {
                *v = match m {
                    Meaning::Done => f.done(k) as i64,
                    Meaning::Meets => f.meets(k) as i64,
                    _ => 0,
                };
            }
            tables[self.flow.0 as usize].push(&values);
        }
        for a in f.areas() {
            for (v, m) in values.iter_mut().zip(&self.meanings) {
                *v = match m {
                    Meaning::Size => a.cells.len() as i64,
                    Meaning::Heads => a.heads as i64,
                    Meaning::Flows => a.flows as i64,
                    _ => 0,
                };
            }
            tables[self.area.0 as usize].push(&values);
        }
        let pairs = self
            .meanings
            .iter()
            .map(|m| {
                let holds = |s: Slot| match m {
                    Meaning::Neighbours => true,
                    Meaning::Joined => st.status(s) == Status::Linked,
                    Meaning::Severed => st.status(s) == Status::Cut,
                    _ => false,
                };
                // in order: cell by cell, its neighbours up, left, right, down
                (0..g.cells())
                    .flat_map(|c| {
                        let sides = g.sides(c);
                        [sides[1], sides[0], sides[2], sides[3]]
                            .into_iter()
                            .flatten()
                            .filter(|&s| holds(s))
                            .map(move |s| [c, g.across(s, c)])
                    })
                    .collect::<Vec<[usize; 2]>>()
            })
            .collect();
        let globals = self.width.iter().map(|&w| if w { g.width() } else { g.height() } as i64).collect();
        View { globals, tables, pairs }
    }

    /// What `action` (found on a view of `p`) concludes, or `None` if it is
    /// out of range (`link` or `cut` on two cells that are not
    /// side-adjacent) or not one of the domain's actions.
    pub fn conclusion(&self, p: &Puzzle, action: &ActionValue) -> Option<Conclusion> {
        let a = action.action;
        if a == self.prune {
            return Some(Conclusion::Prune);
        }
        let g = p.grid();
        let [c, d] = [action.args[0], action.args[1]].map(|v| v as usize);
        g.slot_between(c, d)?;
        match () {
            _ if a == self.link => Some(Conclusion::Link(c, d)),
            _ if a == self.cut => Some(Conclusion::Cut(c, d)),
            _ => None,
        }
    }

    /// Whether `action` is true of `st` on `p`, given every solution of
    /// `p` extending `st` (as link sets, each sorted): in range, and a
    /// `link` linked by all, a `cut` by none, a `prune` with none.
    pub fn holds(&self, p: &Puzzle, action: &ActionValue, extending: &[&[Slot]]) -> bool {
        match self.conclusion(p, action) {
            None => false,
            Some(Conclusion::Prune) => extending.is_empty(),
            Some(Conclusion::Link(c, d)) => {
                let s = p.grid().slot_between(c, d).expect("in range");
                extending.iter().all(|links| links.binary_search(&s).is_ok())
            }
            Some(Conclusion::Cut(c, d)) => {
                let s = p.grid().slot_between(c, d).expect("in range");
                extending.iter().all(|links| links.binary_search(&s).is_err())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::dsl::eval::Interpreter;
    use crate::dsl::parse::parse_rules;

    /// The view carries docs/reference/language.md's features: cells row by row with their
    /// place and counts, colours, areas, the two-cell features and the
    /// globals; the DSL's examples read it as written.
    #[test]
    fn the_view_of_a_state() {
        let schema = Schema::flow();
        let layout = Layout::new(&schema, "dsl/flow.ron").unwrap();
        let p = parse_flow("A.B\n...\nA.B\n", "t").unwrap().remove(0).1;
        let g = p.grid();
        let mut st = State::start(g);
        st.set(g.slot_between(0, 1).unwrap(), Status::Linked);
        st.set(g.slot_between(4, 5).unwrap(), Status::Cut);
        let view = layout.view(&p, &st);
        let get =
            |t: &str, i: usize, f: &str| view.table(schema.type_id(t).unwrap()).get(i, schema.feature_id(f).unwrap());
        assert_eq!((get("cell", 5, "x"), get("cell", 5, "y"), get("cell", 5, "open")), (2, 1, 2));
        assert_eq!((get("cell", 1, "colour"), get("cell", 1, "need"), get("cell", 1, "chain")), (1, 1, 0));
        assert_eq!((get("cell", 0, "endpoint"), get("cell", 4, "endpoint")), (1, 0));
        assert_eq!(view.table(schema.type_id("flow").unwrap()).len(), 2);
        assert_eq!((get("area", 0, "size"), get("area", 0, "flows"), get("area", 1, "size")), (3, 1, 1));
        let pair = |f: &str, a, b| view.pair(schema.feature_id(f).unwrap(), a, b);
        assert!(pair("neighbours", 4, 1) && !pair("neighbours", 0, 4) && pair("joined", 1, 0) && pair("severed", 5, 4));
        assert!(!pair("joined", 1, 2) && !pair("severed", 0, 1));
        assert_eq!(view.globals, vec![3, 3]);
        let rules = parse_rules(
            "def forced:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if need(c) = open(c) and neighbours(c, d) and not severed(c, d):\n then link(c, d)",
            "t",
            &schema,
        )
        .unwrap();
        let found: Vec<ActionValue> = Interpreter::new(&rules[0], &view, schema.size_feature)
            .applications()
            .into_iter()
            .map(|(_, a)| a)
            .collect();
        // cell 5, cut from 4, needs both its other slots; every other cell has room to spare
        assert_eq!(found.iter().map(|a| a.args.clone()).collect::<Vec<_>>(), vec![vec![5, 2], vec![5, 8]]);
        assert_eq!(layout.conclusion(&p, &found[0]), Some(Conclusion::Link(5, 2)));
        let far = ActionValue { action: found[0].action, args: vec![0, 4] };
        assert_eq!(layout.conclusion(&p, &far), None);
    }
}
