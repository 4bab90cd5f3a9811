//! The concrete [`View`] of a Witness state (puzzle + partial path) for the
//! rule language: the `square` elements (squares holding at least one
//! triangle, ordered by (row, column)) with the features `triangles`,
//! `used`, `touches_head`, `free`, `live`; the `mark` elements (separation
//! squares and stars) with `colour`, `star`, `joined_same`, `joined_other`,
//! `reach_same`, `closed`; the `dot` elements with `crossed`, `reachable`
//! ([`super::marks`]); and the globals `path_length` and `goal_reachable`
//! (docs/language.md, "Domain: Witness partial paths"; `dsl/witness.ron`).
//!
//! This module owns the mapping from a schema's names to the ids a view is
//! laid out by ([`ViewIds`]), the filling of a view (the local features
//! read straight off the path's counters, the region features from one
//! [`Region`] flood fill, only when asked for: a rule set that never names
//! them never pays for them), and the compact view keys.
//! It knows nothing of the oracle, search or Z3.

use super::marks::{dot_features, mark_features};
use crate::domains::witness::board::path::Path;
use crate::domains::witness::board::region::{Masks, Region};
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::dsl::ast::{ActionArg, BoolExpr, FeatureId, GlobalId, IntExpr, PatternKind, Rule, TypeId};
use crate::dsl::eval::{ElementTable, View};
use crate::dsl::schema::{FeatureKind, Schema};

/// A schema that does not describe Witness partial paths.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SchemaMismatch {
    /// The DSL file.
    pub path: String,
    /// What is missing or extra.
    pub message: String,
}

/// Where the Witness names live in a schema's id space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewIds {
    /// The element type `square`.
    pub square: TypeId,
    /// `triangles(s)` (1-3).
    pub triangles: FeatureId,
    /// `used(s)`: edges of the square on the path (0-4).
    pub used: FeatureId,
    /// `touches_head(s)`: the path's last vertex is a corner of the square.
    pub touches_head: FeatureId,
    /// `free(s)`: edges whose ends are each unvisited or the head (0-4).
    pub free: FeatureId,
    /// `live(s)`: edges whose ends are each in the goal region or the head.
    pub live: FeatureId,
    /// The element type `mark` (separation squares and stars).
    pub mark: TypeId,
    /// `colour(x)` (1-255).
    pub colour: FeatureId,
    /// `star(x)`.
    pub star: FeatureId,
    /// `joined_same(x)`.
    pub joined_same: FeatureId,
    /// `joined_other(x)`.
    pub joined_other: FeatureId,
    /// `reach_same(x)`.
    pub reach_same: FeatureId,
    /// `closed(x)`.
    pub closed: FeatureId,
    /// The element type `dot` (must-cross vertices and edges).
    pub dot: TypeId,
    /// `crossed(d)`.
    pub crossed: FeatureId,
    /// `reachable(d)`.
    pub reachable: FeatureId,
    /// The global `path_length` (edges in the path).
    pub path_length: GlobalId,
    /// The global `goal_reachable` (0/1).
    pub goal_reachable: GlobalId,
    /// Number of features of the schema (the width of a table row).
    pub features: usize,
    /// Number of globals of the schema.
    pub globals: usize,
    /// Number of element types of the schema.
    pub types: usize,
}

/// The region part of a view: the flood fill and the grid's masks.
pub struct RegionOf<'a> {
    /// The grid's masks.
    pub masks: &'a Masks,
    /// The state's region.
    pub region: &'a Region,
}

impl ViewIds {
    /// The ids of `schema`, which must name exactly the types `square`,
    /// `mark` and `dot`, their features as `dsl/witness.ron` declares them
    /// (`triangles`, `used`, `free`, `live`: Int, `touches_head`: Bool, of
    /// `square`; `colour`, `joined_same`, `joined_other`, `reach_same`:
    /// Int, `star`, `closed`: Bool, of `mark`; `crossed`, `reachable`:
    /// Bool, of `dot`), the globals `path_length` and `goal_reachable`, and
    /// the action `prune` without parameters (costs are free); `path` names
    /// the DSL file in errors.
    pub fn new(schema: &Schema, path: &str) -> Result<ViewIds, SchemaMismatch> {
        let err = |message: String| SchemaMismatch { path: path.to_string(), message };
        let ty = |name: &str| schema.type_id(name).ok_or_else(|| err(format!("element type `{name}` is missing")));
        let (square, mark, dot) = (ty("square")?, ty("mark")?, ty("dot")?);
        let feature = |name: &str, kind: FeatureKind, of: TypeId| {
            let id = schema.feature_id(name).ok_or_else(|| err(format!("feature `{name}` is missing")))?;
            if schema.feature(id).kind != kind || !schema.applies(id, of) || schema.feature(id).types.len() != 1 {
                let of = schema.type_name(of);
                return Err(err(format!("feature `{name}` must be a {kind:?} feature of `{of}` alone")));
            }
            Ok(id)
        };
        let (int, boolean) = (FeatureKind::Int, FeatureKind::Bool);
        let global = |name: &str| schema.global_id(name).ok_or_else(|| err(format!("global `{name}` is missing")));
        let ids = ViewIds {
            square,
            triangles: feature("triangles", int, square)?,
            used: feature("used", int, square)?,
            touches_head: feature("touches_head", boolean, square)?,
            free: feature("free", int, square)?,
            live: feature("live", int, square)?,
            mark,
            colour: feature("colour", int, mark)?,
            star: feature("star", boolean, mark)?,
            joined_same: feature("joined_same", int, mark)?,
            joined_other: feature("joined_other", int, mark)?,
            reach_same: feature("reach_same", int, mark)?,
            closed: feature("closed", boolean, mark)?,
            dot,
            crossed: feature("crossed", boolean, dot)?,
            reachable: feature("reachable", boolean, dot)?,
            path_length: global("path_length")?,
            goal_reachable: global("goal_reachable")?,
            features: schema.feature_count(),
            globals: schema.file.globals.len(),
            types: schema.type_count(),
        };
        if ids.types != 3 || ids.features != 13 || ids.globals != 2 {
            return Err(err(
                "the witness domain provides exactly the types `square`, `mark`, `dot`, the features of docs/language.md (\"Domain: Witness partial paths\") and the globals `path_length`, `goal_reachable`"
                    .into(),
            ));
        }
        match schema.file.actions.as_slice() {
            [a] if a.name == "prune" && a.params.is_empty() => {}
            _ => return Err(err("the witness domain provides exactly the action `prune` (no parameters)".into())),
        }
        Ok(ids)
    }

    /// Whether some rule of `rules` needs the goal region: it names a
    /// region feature (`free`, `live` or `goal_reachable`) or declares a
    /// `mark` or `dot` (whose features are computed with the region).
    pub fn uses_region(&self, rules: &[Rule]) -> bool {
        rules.iter().any(|r| {
            self.declares_marks(r)
                || any_node(
                    r,
                    &|e| match e {
                        IntExpr::Global(g) => *g == self.goal_reachable,
                        IntExpr::Feature(f, _) => *f == self.free || *f == self.live,
                        _ => false,
                    },
                    &|_| false,
                )
        })
    }

    /// Whether `rule` declares a `mark` or a `dot`.
    pub fn declares_marks(&self, rule: &Rule) -> bool {
        rule.decls.iter().any(|d| d.ty != self.square)
    }

    /// Whether some rule of `rules` names the global `g`.
    pub fn reads_global(&self, rules: &[Rule], g: GlobalId) -> bool {
        rules.iter().any(|r| any_node(r, &|e| *e == IntExpr::Global(g), &|_| false))
    }

    /// Whether `rule` judges each square on its own: it declares only
    /// squares (marks and dots see the whole path), a condition naming at
    /// most one variable (the others only ask that their square exists),
    /// no `maximal`, `minimal` or `is unique where` (which look at the other
    /// squares), no `path_length` (which every step changes), and only
    /// `arbitrary` declarations unless the condition names no square. It
    /// then fires on a state iff its condition holds on some square, with
    /// the state's globals; or, naming none, iff the condition holds on the
    /// globals and its declarations' squares exist (which squares exist is
    /// the puzzle's, the same on every path: `constant(square, 0)` and
    /// `arbitrary(square)` then ask the same).
    pub fn square_local(&self, rule: &Rule) -> bool {
        let vars = std::cell::RefCell::new(std::collections::BTreeSet::new());
        let global = any_node(
            rule,
            &|e| {
                if let IntExpr::Feature(_, v) = e {
                    vars.borrow_mut().insert(*v);
                }
                *e == IntExpr::Global(self.path_length)
            },
            &|b| {
                if let BoolExpr::Feature(_, v) = b {
                    vars.borrow_mut().insert(*v);
                }
                matches!(b, BoolExpr::Maximal(_) | BoolExpr::Minimal(_) | BoolExpr::Unique(..))
            },
        );
        let vars = vars.into_inner();
        (vars.is_empty() || rule.decls.iter().all(|d| d.kind == PatternKind::Arbitrary))
            && !global
            && vars.len() <= 1
            && !self.declares_marks(rule)
    }

    /// Whether `rule`'s condition names no square (only globals and
    /// literals): its verdict is then the same on every binding.
    pub fn names_no_square(&self, rule: &Rule) -> bool {
        !any_node(rule, &|e| matches!(e, IntExpr::Feature(..)), &|b| {
            matches!(b, BoolExpr::Feature(..) | BoolExpr::Maximal(_) | BoolExpr::Minimal(_) | BoolExpr::Unique(..))
        })
    }

    /// The whole view of `path` on `puzzle` (region features included).
    pub fn view(&self, puzzle: &Puzzle, path: &Path) -> View {
        let masks = Masks::new(puzzle);
        let region = Region::new(&masks, puzzle, path);
        let mut view = self.empty();
        self.fill(&mut view, puzzle, path, Some(RegionOf { masks: &masks, region: &region }));
        view
    }

    /// A view without elements, laid out for [`ViewIds::fill`].
    pub fn empty(&self) -> View {
        View {
            globals: vec![0; self.globals],
            tables: vec![ElementTable::new(self.features); self.types],
            pairs: vec![],
        }
    }

    /// Overwrites `view` (made by [`ViewIds::empty`] or [`ViewIds::view`])
    /// with the view of `path` on `puzzle`, reusing its allocations; the
    /// region features are 0 and there are no marks or dots unless
    /// `region` is given.
    pub fn fill(&self, view: &mut View, puzzle: &Puzzle, path: &Path, region: Option<RegionOf>) {
        let (marks, dots) = match &region {
            Some(r) => (mark_features(puzzle, path, r.region, r.masks), dot_features(puzzle, path, r.region, r.masks)),
            None => (vec![], vec![]),
        };
        self.fill_some(view, puzzle, path, region, |_| true);
        let table = &mut view.tables[self.mark.0 as usize];
        table.clear();
        let mut row = vec![0i64; self.features];
        for m in marks {
            row[self.colour.0 as usize] = i64::from(m.colour);
            row[self.star.0 as usize] = i64::from(m.star);
            row[self.joined_same.0 as usize] = i64::from(m.joined_same);
            row[self.joined_other.0 as usize] = i64::from(m.joined_other);
            row[self.reach_same.0 as usize] = i64::from(m.reach_same);
            row[self.closed.0 as usize] = i64::from(m.closed);
            table.push(&row);
        }
        let table = &mut view.tables[self.dot.0 as usize];
        table.clear();
        row.fill(0);
        for d in dots {
            row[self.crossed.0 as usize] = i64::from(d.crossed);
            row[self.reachable.0 as usize] = i64::from(d.reachable);
            table.push(&row);
        }
    }

    /// The `square` table and the globals of [`ViewIds::fill`], with only
    /// the `square` elements whose square id `keep` accepts (in order); the
    /// `mark` and `dot` tables are left as they are (rules that declare
    /// none are the only ones evaluated on such a view).
    pub fn fill_some(
        &self,
        view: &mut View,
        puzzle: &Puzzle,
        path: &Path,
        region: Option<RegionOf>,
        keep: impl Fn(usize) -> bool,
    ) {
        let table = &mut view.tables[self.square.0 as usize];
        table.clear();
        let mut row = vec![0i64; self.features];
        for &s in puzzle.constrained_squares().iter().filter(|&&s| keep(s)) {
            row[self.triangles.0 as usize] = i64::from(puzzle.triangles_of(s));
            row[self.used.0 as usize] = i64::from(path.used_of(s));
            row[self.touches_head.0 as usize] = i64::from(path.touches_head_of(s));
            if let Some(r) = &region {
                row[self.free.0 as usize] = i64::from(r.region.free(r.masks, s));
                row[self.live.0 as usize] = i64::from(r.region.live(r.masks, s));
            }
            table.push(&row);
        }
        view.globals[self.path_length.0 as usize] = path.len() as i64;
        view.globals[self.goal_reachable.0 as usize] =
            region.map_or(0, |r| i64::from(r.region.goal_reachable(r.masks)));
    }
}

/// Whether some integer or boolean node of `rule` (condition and action
/// arguments) satisfies `int` or `boolean`.
fn any_node(rule: &Rule, int: &dyn Fn(&IntExpr) -> bool, boolean: &dyn Fn(&BoolExpr) -> bool) -> bool {
    fn walk_int(e: &IntExpr, int: &dyn Fn(&IntExpr) -> bool) -> bool {
        int(e)
            || match e {
                IntExpr::Lit(_) | IntExpr::Global(_) | IntExpr::Feature(..) => false,
                IntExpr::Add(a, b) | IntExpr::Sub(a, b) => walk_int(a, int) || walk_int(b, int),
                IntExpr::Mul(_, a) => walk_int(a, int),
            }
    }
    fn walk_bool(e: &BoolExpr, int: &dyn Fn(&IntExpr) -> bool, boolean: &dyn Fn(&BoolExpr) -> bool) -> bool {
        boolean(e)
            || match e {
                BoolExpr::True
                | BoolExpr::Maximal(_)
                | BoolExpr::Minimal(_)
                | BoolExpr::Feature(..)
                | BoolExpr::Pair(..) => false,
                BoolExpr::Not(b) | BoolExpr::Unique(_, b) => walk_bool(b, int, boolean),
                BoolExpr::And(parts) => parts.iter().any(|p| walk_bool(p, int, boolean)),
                BoolExpr::Cmp(_, a, b) => walk_int(a, int) || walk_int(b, int),
            }
    }
    walk_bool(&rule.condition, int, boolean)
        || rule.action.args.iter().any(|a| matches!(a, ActionArg::Int(e) if walk_int(e, int)))
}

/// What the rule language sees of a state, as a compact key: the path
/// length, `goal_reachable` and, per `square` element in order, its
/// triangles, used edges, whether it touches the head, `free` and `live`;
/// then per mark and per dot its features.
/// Two states with equal keys have equal views under any schema the domain
/// accepts, so no rule tells them apart.
pub fn view_key(puzzle: &Puzzle, path: &Path) -> Vec<u8> {
    let masks = Masks::new(puzzle);
    let region = Region::new(&masks, puzzle, path);
    let mut key = vec![];
    write_view_key(puzzle, path, Some(RegionOf { masks: &masks, region: &region }), &mut key);
    key
}

/// [`view_key`] into a reused buffer; without `region`, the key of the
/// local features only (equal keys then mean equal views to every rule
/// that names no region feature and declares no mark or dot).
pub fn write_view_key(puzzle: &Puzzle, path: &Path, region: Option<RegionOf>, key: &mut Vec<u8>) {
    key.clear();
    key.push(path.len() as u8);
    if let Some(r) = &region {
        // the counts make the key's parts unambiguous
        key.extend([u8::from(r.region.goal_reachable(r.masks)), puzzle.marks().len() as u8, puzzle.dots().len() as u8]);
    }
    for &s in puzzle.constrained_squares() {
        key.extend([puzzle.triangles_of(s), path.used_of(s), u8::from(path.touches_head_of(s))]);
        if let Some(r) = &region {
            key.push(r.region.free(r.masks, s) << 4 | r.region.live(r.masks, s));
        }
    }
    if let Some(r) = &region {
        for m in mark_features(puzzle, path, r.region, r.masks) {
            let flags = u8::from(m.star) | u8::from(m.closed) << 1;
            key.extend([m.colour, flags, m.joined_same, m.joined_other, m.reach_same]);
        }
        for d in dot_features(puzzle, path, r.region, r.masks) {
            key.push(u8::from(d.crossed) | u8::from(d.reachable) << 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::synthesis::features::features;

    #[test]
    fn view_agrees_with_the_feature_module() {
        let schema = Schema::witness();
        let ids = ViewIds::new(&schema, "dsl/witness.ron").unwrap();
        let p = Puzzle::new(3, 2, (0, 0), (3, 2), &[(2, 1, 3), (0, 0, 1)]).unwrap();
        let path = Path::from_vertices(&p, &[(0, 0), (1, 0), (1, 1)]).unwrap();
        let v = ids.view(&p, &path);
        let f = features(&p, &path);
        assert_eq!(v.globals[ids.path_length.0 as usize], f.path_length as i64);
        assert_eq!(v.globals[ids.goal_reachable.0 as usize], 1);
        let t = v.table(ids.square);
        assert_eq!(t.len(), f.squares.len());
        for (i, s) in f.squares.iter().enumerate() {
            assert_eq!(t.get(i, ids.triangles), i64::from(s.triangles));
            assert_eq!(t.get(i, ids.used), i64::from(s.used));
            assert_eq!(t.get(i, ids.touches_head), i64::from(s.touches_head));
        }
        // region: the head (1,1) and the goal (3,2); every vertex but the
        // path's three is in R
        assert_eq!((t.get(0, ids.free), t.get(0, ids.live)), (1, 1)); // the side (1,1)-(0,1)
        assert_eq!((t.get(1, ids.free), t.get(1, ids.live)), (4, 4));
        // ordered by (row, column): (0, 0) before (2, 1)
        assert_eq!((t.get(0, ids.triangles), t.get(1, ids.triangles)), (1, 3));
    }

    /// Square-local: a condition on one `arbitrary` square, or on globals
    /// alone whatever the declarations; not a `constant` square the
    /// condition names, nor `path_length`, nor `maximal`.
    #[test]
    fn square_local_rules() {
        let schema = Schema::witness();
        let ids = ViewIds::new(&schema, "dsl/witness.ron").unwrap();
        let local = |text: &str| {
            let rule =
                &crate::dsl::parse::parse_rules(&format!("def r:\n with {text}:\n then prune\n"), "test", &schema)
                    .unwrap()[0];
            ids.square_local(rule)
        };
        assert!(local("s = arbitrary(square): if live(s) < triangles(s) - used(s)"));
        assert!(local("s = arbitrary(square) and t = arbitrary(square): if live(s) = 0"));
        assert!(local("s = constant(square, 0): if goal_reachable = 0"));
        assert!(local("s = singleton(square) and t = constant(square, 1): if goal_reachable = 0"));
        assert!(!local("s = constant(square, 0): if live(s) = 0"));
        assert!(!local("s = arbitrary(square) and t = constant(square, 1): if live(s) = 0"));
        assert!(!local("s = arbitrary(square) and t = arbitrary(square): if live(s) < used(t)"));
        assert!(!local("s = arbitrary(square): if path_length > 3"));
        assert!(!local("s = arbitrary(square): if maximal(s)"));
    }

    #[test]
    fn schemas_without_the_witness_names_are_refused() {
        let e = ViewIds::new(&Schema::nonogram(), "dsl/nonogram.ron").unwrap_err();
        assert!(e.to_string().contains("`square`"), "{e}");
    }
}
