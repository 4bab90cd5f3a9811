//! Printer of rules in the text form of docs/language.md, on the `pretty` crate.
//! Parentheses are the fewest that make the parser read back exactly the
//! same tree: `a - (b + c)`, `2 * (a + b)`, `2 * (-3)`, a nested `And`
//! inside a conjunction as `(a and b)`, `not (a and b)`; `not x > 1` needs
//! none. Conditions and pattern lists longer than [`WIDTH`] columns break
//! before each `and`, indented one more level.

use super::ast::{Action, ActionArg, BoolExpr, Decl, IntExpr, PatternKind, Rule};
use super::schema::Schema;
use pretty::RcDoc;

/// Line width the printer aims for.
pub const WIDTH: usize = 100;

/// Indentation of a rule's `with`, `if` and `then` lines.
const INDENT: isize = 4;

/// Prints one rule (its description as `# ` lines, then the `def` block),
/// ending with a newline.
pub fn print_rule(rule: &Rule, schema: &Schema) -> String {
    let mut out = String::new();
    for line in &rule.description {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
    }
    let p = Printer { decls: &rule.decls, schema };
    let decls: Vec<String> = rule.decls.iter().map(|d| p.decl(d)).collect();
    let conjuncts: Vec<String> = match &rule.condition {
        BoolExpr::And(parts) => parts.iter().map(|b| p.bterm(b)).collect(),
        other => vec![p.bterm(other)],
    };
    let body = RcDoc::hardline()
        .append(and_list("with ", decls))
        .append(RcDoc::hardline())
        .append(and_list("if ", conjuncts))
        .append(RcDoc::hardline())
        .append(RcDoc::text(format!("then {}", p.action(&rule.action))))
        .nest(INDENT);
    let doc = RcDoc::text(format!("def {}:", rule.name)).append(body);
    out.push_str(&doc.pretty(WIDTH).to_string());
    out.push('\n');
    out
}

/// Prints rules separated by blank lines (the `.rules` format).
pub fn print_rules(rules: &[Rule], schema: &Schema) -> String {
    rules.iter().map(|r| print_rule(r, schema)).collect::<Vec<_>>().join("\n")
}

/// `KEYWORD a and b and ...:` grouped so that it breaks before every `and`
/// when it does not fit.
fn and_list(keyword: &str, items: Vec<String>) -> RcDoc<'static> {
    let mut items = items.into_iter();
    let first = RcDoc::text(format!("{keyword}{}", items.next().unwrap_or_default()));
    let rest = RcDoc::concat(items.map(|i| RcDoc::line().append(RcDoc::text(format!("and {i}")))));
    first.append(rest.nest(INDENT)).append(RcDoc::text(":")).group()
}

/// Where an integer expression appears, loosest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// A whole `int`, or the left operand of `+`/`-`.
    Sum,
    /// A `term`: the right operand of `+`/`-`.
    Term,
    /// An `atom`: the operand of `k *`.
    Atom,
}

struct Printer<'a> {
    decls: &'a [Decl],
    schema: &'a Schema,
}

impl Printer<'_> {
    fn var(&self, v: u8) -> &str {
        &self.decls[v as usize].name
    }

    fn decl(&self, d: &Decl) -> String {
        let ty = self.schema.type_name(d.ty);
        match d.kind {
            PatternKind::Singleton => format!("{} = singleton({ty})", d.name),
            PatternKind::Constant(k) => format!("{} = constant({ty}, {k})", d.name),
            PatternKind::Arbitrary => format!("{} = arbitrary({ty})", d.name),
        }
    }

    /// A `bool`: conjuncts joined by `and`.
    fn bool(&self, b: &BoolExpr) -> String {
        match b {
            BoolExpr::And(parts) => parts.iter().map(|p| self.bterm(p)).collect::<Vec<_>>().join(" and "),
            other => self.bterm(other),
        }
    }

    /// A `bterm`.
    fn bterm(&self, b: &BoolExpr) -> String {
        match b {
            BoolExpr::True => "true".into(),
            BoolExpr::Not(inner) => format!("not {}", self.bterm(inner)),
            BoolExpr::And(_) => format!("({})", self.bool(b)),
            BoolExpr::Cmp(op, l, r) => format!("{} {} {}", self.int(l, Prec::Sum), op.symbol(), self.int(r, Prec::Sum)),
            BoolExpr::Maximal(v) => format!("maximal({})", self.var(*v)),
            BoolExpr::Minimal(v) => format!("minimal({})", self.var(*v)),
            BoolExpr::Unique(v, inner) => format!("{} is unique where ({})", self.var(*v), self.bool(inner)),
            BoolExpr::Feature(f, v) => format!("{}({})", self.schema.feature(*f).name, self.var(*v)),
            BoolExpr::Pair(f, v, w) => format!("{}({}, {})", self.schema.feature(*f).name, self.var(*v), self.var(*w)),
        }
    }

    fn int(&self, e: &IntExpr, at: Prec) -> String {
        let (text, prec) = match e {
            IntExpr::Lit(k) if *k >= 0 => return k.to_string(),
            IntExpr::Lit(k) => (k.to_string(), Prec::Term),
            IntExpr::Global(g) => return self.schema.global(*g).name.clone(),
            IntExpr::Feature(f, v) => return format!("{}({})", self.schema.feature(*f).name, self.var(*v)),
            IntExpr::Add(a, b) => (format!("{} + {}", self.int(a, Prec::Sum), self.int(b, Prec::Term)), Prec::Sum),
            IntExpr::Sub(a, b) => (format!("{} - {}", self.int(a, Prec::Sum), self.int(b, Prec::Term)), Prec::Sum),
            IntExpr::Mul(k, a) => (format!("{k} * {}", self.int(a, Prec::Atom)), Prec::Term),
        };
        if prec < at {
            format!("({text})")
        } else {
            text
        }
    }

    fn action(&self, a: &Action) -> String {
        let name = &self.schema.action(a.id).name;
        if a.args.is_empty() {
            return name.clone();
        }
        let args: Vec<String> = a
            .args
            .iter()
            .map(|arg| match arg {
                ActionArg::Bool(b) => b.to_string(),
                ActionArg::Int(e) => self.int(e, Prec::Sum),
                ActionArg::Element(v) => self.var(*v).to_string(),
            })
            .collect();
        format!("{name}({})", args.join(", "))
    }
}
