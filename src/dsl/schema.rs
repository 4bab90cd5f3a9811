//! A domain's DSL file (`dsl/<domain>.ron`): element types, features,
//! globals, actions, the cost of every construct, size limits and the
//! literals synthesis may use. Read once, then resolved into a [`Schema`]
//! that maps names to the ids the syntax tree holds.

use super::ast::{ActionId, FeatureId, GlobalId, TypeId};
use crate::located::Located;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Whether a feature yields an integer or a boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FeatureKind {
    /// Used in integer expressions.
    Int,
    /// Used directly as a condition.
    Bool,
}

/// A feature of elements.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureDef {
    /// Its name in rules.
    pub name: String,
    /// Integer or boolean.
    pub kind: FeatureKind,
    /// The element types it applies to.
    pub types: Vec<String>,
    /// Cost of one use.
    pub cost: u32,
    /// How many elements it reads: 1, or 2 for a boolean feature of two
    /// elements of its one type (Flow's `neighbours(c, d)`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub arity: u8,
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

/// A global of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalDef {
    /// Its name in rules.
    pub name: String,
    /// Cost of one use.
    pub cost: u32,
}

/// The type of an action parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// An integer expression.
    Int,
    /// A bound variable of the action's [`element`](ActionDef::element)
    /// type (Flow's `link(c, d)`); its value is the element's index.
    Element,
}

/// An action a rule may conclude.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDef {
    /// Its name in rules.
    pub name: String,
    /// Parameter types; an action without parameters is written bare.
    pub params: Vec<ParamKind>,
    /// Cost of the action node.
    pub cost: u32,
    /// The element type of its [`Element`](ParamKind::Element) parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
}

/// The cost of every generic construct (features, globals and actions carry
/// their own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Costs {
    /// Each pattern declaration.
    pub decl: u32,
    /// `singleton(t)`
    pub singleton: u32,
    /// `constant(t, k)`
    pub constant: u32,
    /// `arbitrary(t)`
    pub arbitrary: u32,
    /// `true`
    pub true_: u32,
    /// `not b`
    pub not: u32,
    /// Each `and` between conjuncts.
    pub and: u32,
    /// A comparison.
    pub cmp: u32,
    /// `maximal(x)`
    pub maximal: u32,
    /// `minimal(x)`
    pub minimal: u32,
    /// `x is unique where (b)`
    pub unique: u32,
    /// An integer literal.
    pub literal: u32,
    /// `+`
    pub add: u32,
    /// `-`
    pub sub: u32,
    /// `k *`
    pub mul: u32,
    /// `true`/`false` as an action argument.
    pub bool_literal: u32,
    /// A variable as an action argument (Flow's `link(c, d)`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub element: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Size limits of the domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Largest state the tool reads or applies rules to (line length; grid side).
    pub max_state: u32,
    /// Default soundness bound of verification and synthesis.
    pub bound: u32,
    /// The element types a hard soundness query may be split over, one
    /// query per slot of an arbitrary pattern of the first listed type the
    /// rule's action reads (none: never split).
    #[serde(default)]
    pub split: Vec<String>,
}

/// What enumeration may build.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SynthesisSpace {
    /// Integer literals enumeration may use.
    pub literals: Vec<i64>,
    /// Literals `k * e` may multiply by.
    pub multipliers: Vec<i64>,
    /// Most pattern declarations in one rule.
    pub max_decls: usize,
    /// Largest index a `constant(t, k)` pattern may use.
    pub max_constant: u32,
    /// Size of the exhaustive table of small states that rejects candidates
    /// before Z3 (nonogram: line length; Witness: grid side).
    pub table: u32,
    /// The bound synthesis screens candidates at with Z3 (faster than the
    /// full bound, which every returned rule is then proven at).
    pub screen: u32,
    /// Most expensive condition atom (default 6).
    #[serde(default = "default_max_atom_cost")]
    pub max_atom_cost: u32,
}

fn default_max_atom_cost() -> u32 {
    6
}

/// The DSL file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaFile {
    /// The domain's name (`nonogram`, `witness`).
    pub domain: String,
    /// Element types, in id order.
    pub types: Vec<String>,
    /// The integer feature `maximal`/`minimal` compare.
    pub size_feature: String,
    /// Features, in id order.
    pub features: Vec<FeatureDef>,
    /// Globals, in id order.
    pub globals: Vec<GlobalDef>,
    /// Actions, in id order.
    pub actions: Vec<ActionDef>,
    /// Costs of the generic constructs.
    pub costs: Costs,
    /// Size limits.
    pub limits: Limits,
    /// The synthesis search space.
    pub synthesis: SynthesisSpace,
}

/// Errors reading a DSL file.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The RON text does not have the expected shape.
    #[error(transparent)]
    Syntax(Located<String>),
    /// The file is well-formed but inconsistent.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// A resolved domain schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schema {
    /// The file's content.
    pub file: SchemaFile,
    /// For each feature, for each type id, whether it applies.
    applies: Vec<Vec<bool>>,
    /// The size feature's id.
    pub size_feature: FeatureId,
}

impl Schema {
    /// Parses and resolves a DSL file's text; `path` names it in errors.
    pub fn from_ron(text: &str, path: &str) -> Result<Schema, SchemaError> {
        let file: SchemaFile = ron::from_str(text).map_err(|e| {
            SchemaError::Syntax(Located::new(path, e.position.line, e.position.col, e.code.to_string()))
        })?;
        Schema::resolve(file, path)
    }

    /// Reads a DSL file from disk.
    pub fn load(path: &Path) -> Result<Schema, SchemaError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| SchemaError::Io { path: shown.clone(), source })?;
        Schema::from_ron(&text, &shown)
    }

    fn resolve(file: SchemaFile, path: &str) -> Result<Schema, SchemaError> {
        let invalid = |message: String| SchemaError::Invalid { path: path.to_string(), message };
        let mut names: Vec<&str> = vec![];
        names.extend(file.types.iter().map(String::as_str));
        names.extend(file.features.iter().map(|f| f.name.as_str()));
        names.extend(file.globals.iter().map(|g| g.name.as_str()));
        names.extend(file.actions.iter().map(|a| a.name.as_str()));
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(invalid(format!("the name `{n}` is defined twice")));
            }
            if super::lexer::is_reserved(n) {
                return Err(invalid(format!("`{n}` is a keyword of the rule language")));
            }
        }
        if names.len() > 200 {
            return Err(invalid("too many names".into()));
        }
        let mut applies = vec![];
        for f in &file.features {
            let mut row = vec![false; file.types.len()];
            for t in &f.types {
                let i = file
                    .types
                    .iter()
                    .position(|x| x == t)
                    .ok_or_else(|| invalid(format!("feature `{}` names unknown type `{t}`", f.name)))?;
                row[i] = true;
            }
            applies.push(row);
            match f.arity {
                1 => {}
                2 if f.kind == FeatureKind::Bool && f.types.len() == 1 => {}
                2 => {
                    return Err(invalid(format!(
                        "feature `{}` of two elements must be boolean and of one type",
                        f.name
                    )))
                }
                n => return Err(invalid(format!("feature `{}` reads {n} elements (at most 2)", f.name))),
            }
        }
        let size = file
            .features
            .iter()
            .position(|f| f.name == file.size_feature && f.kind == FeatureKind::Int)
            .ok_or_else(|| invalid(format!("size feature `{}` is not an integer feature", file.size_feature)))?;
        for a in &file.actions {
            let known = a.element.as_ref().is_some_and(|t| file.types.contains(t));
            if a.params.contains(&ParamKind::Element) && !known {
                return Err(invalid(format!("action `{}` takes elements but names no known element type", a.name)));
            }
        }
        if let Some(t) = file.limits.split.iter().find(|t| !file.types.contains(t)) {
            return Err(invalid(format!("limits.split names unknown type `{t}`")));
        }
        Ok(Schema { applies, size_feature: FeatureId(size as u8), file })
    }

    /// The bundled nonogram schema (`dsl/nonogram.ron`).
    pub fn nonogram() -> Schema {
        Schema::from_ron(include_str!("../../dsl/nonogram.ron"), "dsl/nonogram.ron")
            .expect("bundled nonogram.ron is valid")
    }

    /// The bundled Witness schema (`dsl/witness.ron`).
    pub fn witness() -> Schema {
        Schema::from_ron(include_str!("../../dsl/witness.ron"), "dsl/witness.ron")
            .expect("bundled witness.ron is valid")
    }

    /// The bundled Flow schema (`dsl/flow.ron`).
    pub fn flow() -> Schema {
        Schema::from_ron(include_str!("../../dsl/flow.ron"), "dsl/flow.ron").expect("bundled flow.ron is valid")
    }

    /// The domain's name.
    pub fn domain(&self) -> &str {
        &self.file.domain
    }

    /// Number of element types.
    pub fn type_count(&self) -> usize {
        self.file.types.len()
    }

    /// Number of features.
    pub fn feature_count(&self) -> usize {
        self.file.features.len()
    }

    /// Looks up an element type.
    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        self.file.types.iter().position(|t| t == name).map(|i| TypeId(i as u8))
    }

    /// The types a hard soundness query may be split over, in order of preference.
    pub fn split_types(&self) -> Vec<TypeId> {
        self.file.limits.split.iter().filter_map(|t| self.type_id(t)).collect()
    }

    /// Looks up a feature.
    pub fn feature_id(&self, name: &str) -> Option<FeatureId> {
        self.file.features.iter().position(|f| f.name == name).map(|i| FeatureId(i as u8))
    }

    /// Looks up a global.
    pub fn global_id(&self, name: &str) -> Option<GlobalId> {
        self.file.globals.iter().position(|g| g.name == name).map(|i| GlobalId(i as u8))
    }

    /// Looks up an action.
    pub fn action_id(&self, name: &str) -> Option<ActionId> {
        self.file.actions.iter().position(|a| a.name == name).map(|i| ActionId(i as u8))
    }

    /// What `name` already is, if it is a reserved word of this domain's
    /// rule language (docs/language.md): a keyword, or one of the schema's type,
    /// feature, global or action names. Rule and variable names never are.
    pub fn reserved(&self, name: &str) -> Option<&'static str> {
        if super::lexer::is_reserved(name) {
            Some("a keyword")
        } else if self.type_id(name).is_some() {
            Some("an element type")
        } else if self.feature_id(name).is_some() {
            Some("a feature")
        } else if self.global_id(name).is_some() {
            Some("a global")
        } else if self.action_id(name).is_some() {
            Some("an action")
        } else {
            None
        }
    }

    /// A type's name.
    pub fn type_name(&self, t: TypeId) -> &str {
        &self.file.types[t.0 as usize]
    }

    /// A feature's definition.
    pub fn feature(&self, f: FeatureId) -> &FeatureDef {
        &self.file.features[f.0 as usize]
    }

    /// A global's definition.
    pub fn global(&self, g: GlobalId) -> &GlobalDef {
        &self.file.globals[g.0 as usize]
    }

    /// An action's definition.
    pub fn action(&self, a: ActionId) -> &ActionDef {
        &self.file.actions[a.0 as usize]
    }

    /// Whether feature `f` is defined on elements of type `t`.
    pub fn applies(&self, f: FeatureId, t: TypeId) -> bool {
        self.applies[f.0 as usize][t.0 as usize]
    }

    /// All type ids.
    pub fn types(&self) -> impl Iterator<Item = TypeId> {
        (0..self.file.types.len()).map(|i| TypeId(i as u8))
    }

    /// All feature ids.
    pub fn features(&self) -> impl Iterator<Item = FeatureId> {
        (0..self.file.features.len()).map(|i| FeatureId(i as u8))
    }

    /// All global ids.
    pub fn globals(&self) -> impl Iterator<Item = GlobalId> {
        (0..self.file.globals.len()).map(|i| GlobalId(i as u8))
    }

    /// The generic construct costs.
    pub fn costs(&self) -> &Costs {
        &self.file.costs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_schemas_resolve() {
        let n = Schema::nonogram();
        assert_eq!(n.domain(), "nonogram");
        let hint = n.type_id("hint").unwrap();
        let block = n.type_id("block").unwrap();
        let lec = n.feature_id("lowest_end_cell").unwrap();
        assert!(n.applies(lec, hint));
        assert!(!n.applies(lec, block));
        let w = Schema::witness();
        assert_eq!(w.feature(w.size_feature).name, "triangles");
        assert_eq!(n.split_types(), vec![block, hint]);
        assert!(w.split_types().is_empty());
    }

    #[test]
    fn split_over_an_unknown_type_is_refused() {
        let text =
            include_str!("../../dsl/nonogram.ron").replace(r#"split: ["block", "hint"]"#, r#"split: ["block", "run"]"#);
        let err = Schema::from_ron(&text, "n.ron").unwrap_err().to_string();
        assert_eq!(err, "n.ron: limits.split names unknown type `run`");
    }

    #[test]
    fn bad_schema_reports_position() {
        let err = Schema::from_ron("(domain: 3)", "x.ron").unwrap_err().to_string();
        assert!(err.starts_with("x.ron:1:"), "{err}");
    }
}
