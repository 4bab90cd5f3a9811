//! Nonogram rules in words: one plain-English sentence for what a rule
//! does, and a readable name — after the documented strategy it matches or
//! generalises (as `compare` finds), else after what it does — for the
//! printer, `explain` and the learning pipeline.

use super::compare::{Comparison, Match};
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::Domain;
use crate::dsl::ast::{ActionArg, BoolExpr, CmpOp, Decl, IntExpr, PatternKind, Rule, Var};
use crate::dsl::schema::Schema;

fn ordinal(k: u32) -> String {
    match k + 1 {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// `any hint h`, `the only hint h`, `the first gap g`.
fn decl_words(d: &Decl, schema: &Schema) -> String {
    let ty = schema.type_name(d.ty);
    match d.kind {
        PatternKind::Arbitrary => format!("any {ty} {}", d.name),
        PatternKind::Singleton => format!("the only {ty} {}", d.name),
        PatternKind::Constant(k) => format!("the {} {ty} {}", ordinal(k), d.name),
    }
}

fn int_words(e: &IntExpr, decls: &[Decl], schema: &Schema) -> String {
    match e {
        IntExpr::Lit(n) => n.to_string(),
        IntExpr::Global(g) => match schema.global(*g).name.as_str() {
            "hint_count" => "the number of hints".into(),
            _ => "the line length".into(),
        },
        IntExpr::Feature(f, v) => {
            let d = &decls[*v as usize];
            let hint = schema.type_name(d.ty) == "hint";
            let name = &d.name;
            match (schema.feature(*f).name.as_str(), hint) {
                ("start", true) => format!("the index of {name}"),
                ("start", false) => format!("the first cell of {name}"),
                ("size", true) => format!("the value of {name}"),
                ("size", false) => format!("the length of {name}"),
                ("lowest_end_cell", _) => format!("the cell just after the leftmost placement of {name}"),
                ("highest_start_cell", _) => format!("the first cell of the rightmost placement of {name}"),
                ("earliest_start", _) => format!("the earliest cell where {name} can start"),
                ("latest_start", _) => format!("the latest cell where {name} can start"),
                ("first_owner", _) => format!("the index of the first hint {name} can be part of"),
                ("last_owner", _) => format!("the index of the last hint {name} can be part of"),
                ("first_fit", _) => format!("the index of the first hint that can lie in {name}"),
                ("last_fit", _) => format!("the index of the last hint that can lie in {name}"),
                (other, _) => format!("{other}({name})"),
            }
        }
        IntExpr::Add(a, b) => format!("{} plus {}", int_words(a, decls, schema), int_words(b, decls, schema)),
        IntExpr::Sub(a, b) => format!("{} minus {}", int_words(a, decls, schema), grouped(b, decls, schema)),
        IntExpr::Mul(k, a) => format!("{k} times {}", grouped(a, decls, schema)),
    }
}

/// A sum or difference in parentheses (so `a - (b - c)` reads right).
fn grouped(e: &IntExpr, decls: &[Decl], schema: &Schema) -> String {
    match e {
        IntExpr::Add(..) | IntExpr::Sub(..) => format!("({})", int_words(e, decls, schema)),
        _ => int_words(e, decls, schema),
    }
}

fn bool_words(e: &BoolExpr, decls: &[Decl], schema: &Schema) -> String {
    let name = |v: &u8| &decls[*v as usize].name;
    let ty = |v: &u8| schema.type_name(decls[*v as usize].ty);
    match e {
        BoolExpr::True => "always".into(),
        BoolExpr::Not(b) => format!("not ({})", bool_words(b, decls, schema)),
        BoolExpr::And(parts) => parts.iter().map(|p| bool_words(p, decls, schema)).collect::<Vec<_>>().join(" and "),
        BoolExpr::Cmp(op, a, b) => {
            let op = match op {
                CmpOp::Eq => "equals",
                CmpOp::Ne => "differs from",
                CmpOp::Ge => "is at least",
                CmpOp::Gt => "is greater than",
                CmpOp::Le => "is at most",
                CmpOp::Lt => "is less than",
            };
            format!("{} {op} {}", int_words(a, decls, schema), int_words(b, decls, schema))
        }
        BoolExpr::Maximal(v) => format!("{} is a largest {}", name(v), ty(v)),
        BoolExpr::Minimal(v) => format!("{} is a smallest {}", name(v), ty(v)),
        BoolExpr::Unique(v, b) => format!("{} is the only {} where {}", name(v), ty(v), bool_words(b, decls, schema)),
        BoolExpr::Feature(f, v) => format!("{}({})", schema.feature(*f).name.as_str(), name(v)),
        BoolExpr::Pair(f, v, w) => format!("{}({}, {})", schema.feature(*f).name.as_str(), name(v), name(w)),
    }
}

/// One plain-English sentence for what a nonogram rule does, e.g. "For any
/// hint h: if the cell just after the leftmost placement of h is greater
/// than the first cell of the rightmost placement of h, fill the cells from
/// the first cell of the rightmost placement of h up to (not including) the
/// cell just after the leftmost placement of h."
pub fn sentence(rule: &Rule, schema: &Schema) -> String {
    let who = rule.decls.iter().map(|d| decl_words(d, schema)).collect::<Vec<_>>().join(" and ");
    let when = match &rule.condition {
        BoolExpr::True => String::new(),
        c => format!("if {}, ", bool_words(c, &rule.decls, schema)),
    };
    let what = match rule.action.args.as_slice() {
        [ActionArg::Bool(v), ActionArg::Int(a), ActionArg::Int(b)] => format!(
            "{} the cells from {} up to (not including) {}",
            if *v { "fill" } else { "cross out" },
            int_words(a, &rule.decls, schema),
            int_words(b, &rule.decls, schema)
        ),
        _ => crate::dsl::print::print_rule(rule, schema).lines().last().unwrap_or("").trim().to_string(),
    };
    let who = if who.is_empty() { String::new() } else { format!("For {who}: ") };
    let mut s = format!("{who}{when}{what}.");
    if let Some(c) = s.get_mut(0..1) {
        c.make_ascii_uppercase();
    }
    s
}

/// A name after what the rule does: `fill`/`cross`, then the elements the
/// fill is placed by (`only_hint`, `first_gap`, `largest_hint`, `block`, ...),
/// then `from_start` / `to_end` if it reaches an end of the line; a fill
/// placed by no element and reaching no end is `fixed_cells` (the verb alone
/// says nothing, and `fill` is the action's name, a reserved word).
pub fn structural_name(rule: &Rule, schema: &Schema) -> String {
    let [ActionArg::Bool(v), ActionArg::Int(a), ActionArg::Int(b)] = rule.action.args.as_slice() else {
        return rule.name.clone();
    };
    let used: Vec<bool> = (0..rule.decls.len() as Var).map(|v| a.reads(v) || b.reads(v)).collect();
    let conjuncts: Vec<&BoolExpr> = match &rule.condition {
        BoolExpr::And(parts) => parts.iter().collect(),
        c => vec![c],
    };
    let mut parts = vec![if *v { "fill".to_string() } else { "cross".to_string() }];
    for (i, d) in rule.decls.iter().enumerate().filter(|(i, _)| used[*i]) {
        let ty = schema.type_name(d.ty);
        let size = if conjuncts.contains(&&BoolExpr::Maximal(i as u8)) {
            "largest_"
        } else if conjuncts.contains(&&BoolExpr::Minimal(i as u8)) {
            "smallest_"
        } else {
            ""
        };
        parts.push(match d.kind {
            PatternKind::Arbitrary => format!("{size}{ty}"),
            PatternKind::Singleton => format!("only_{ty}"),
            PatternKind::Constant(k) => format!("{}_{ty}", ordinal(k)),
        });
    }
    if *a == IntExpr::Lit(0) {
        parts.push("from_start".into());
    }
    if matches!(b, IntExpr::Global(g) if schema.global(*g).name == "line_size") {
        parts.push("to_end".into());
    }
    if parts.len() == 1 {
        parts.push("fixed_cells".into());
    }
    parts.join("_")
}

/// How a learned rule relates to a documented strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The same rule, or one covering exactly its cells.
    Is(String),
    /// A rule covering all its cells and more.
    Generalises(String),
}

/// For each of the `learned` rules, the documented (control) strategy it
/// is, or else generalises, by the verdicts of `compare` (the first
/// control rule in file order with the strongest verdict).
pub fn strategies(learned: usize, control: &[Rule], comparisons: &[Comparison]) -> Vec<Option<Strategy>> {
    let mut out: Vec<Option<Strategy>> = vec![None; learned];
    for c in comparisons {
        let name = control[c.control].name.clone();
        match c.verdict {
            Match::Exact { learned: l } | Match::SameCells { learned: l }
                if !matches!(out[l], Some(Strategy::Is(_))) =>
            {
                out[l] = Some(Strategy::Is(name));
            }
            Match::MoreGeneral { learned: l } if out[l].is_none() => out[l] = Some(Strategy::Generalises(name)),
            _ => {}
        }
    }
    out
}

/// Renames learned rules readably and puts the English sentence (and the
/// strategy) first in each rule's comment: a rule that is a documented
/// strategy takes its name, one that generalises it `general_NAME`, any
/// other its [`structural_name`]; repeated names get `_2`, `_3`, ...
pub fn name_rules(domain: &Nonogram, rules: &mut [Rule], strategies: &[Option<Strategy>]) {
    let schema = domain.schema();
    let mut taken: std::collections::BTreeMap<String, usize> = Default::default();
    for (rule, strategy) in rules.iter_mut().zip(strategies) {
        let (base, note) = match strategy {
            Some(Strategy::Is(s)) => (s.clone(), format!("The documented strategy `{s}`.")),
            Some(Strategy::Generalises(s)) => {
                (format!("general_{s}"), format!("Generalises the documented strategy `{s}`."))
            }
            None => (structural_name(rule, schema), String::new()),
        };
        let n = taken.entry(base.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}_{n}") };
        let mut comment = wrap(format!("{} {note}", sentence(rule, schema)).trim(), 76);
        comment.push(format!("(learned as {})", rule.name));
        comment.append(&mut rule.description);
        rule.description = comment;
        rule.name = name;
    }
}

/// Words of `text` in lines of at most `width` characters (longer words alone).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;

    #[test]
    fn sentences_and_names() {
        let d = Nonogram::new();
        let rules = parse_rules(
            "def spec68_1:\n with h = singleton(hint) and b = arbitrary(block):\n if start(b) + size(b) > size(h):\n then fill(false, 0, start(b) + size(b) - size(h))\n\
             def x:\n with h = arbitrary(hint) and b = arbitrary(block):\n if maximal(h) and size(b) = size(h) and start(b) > 0:\n then fill(false, start(b) - 1, start(b))\n\
             def y:\n with h = constant(hint, 0):\n if size(h) = 1:\n then fill(true, 1, 2)",
            "t",
            d.schema(),
        )
        .unwrap();
        assert_eq!(
            sentence(&rules[0], d.schema()),
            "For the only hint h and any block b: if the first cell of b plus the length of b is greater than the value of h, \
             cross out the cells from 0 up to (not including) the first cell of b plus the length of b minus the value of h."
        );
        assert_eq!(structural_name(&rules[0], d.schema()), "cross_only_hint_block_from_start");
        assert_eq!(structural_name(&rules[1], d.schema()), "cross_block");
        // not the verb alone: `fill` is the action's name
        assert_eq!(structural_name(&rules[2], d.schema()), "fill_fixed_cells");
        let mut named = rules.clone();
        name_rules(&d, &mut named, &[Some(Strategy::Is("mercury".into())), None, None]);
        assert_eq!(named[0].name, "mercury");
        assert_eq!(named[1].name, "cross_block");
        assert!(named[0].description.last().unwrap().contains("learned as spec68_1"));
        assert!(named[0].description[0].starts_with("For the only hint h"));
    }
}
