//! Parser for `.rules` files (DSL.md grammar, FORMATS.md). Names are
//! resolved against a domain [`Schema`] as they are read, so every rule it
//! returns is well-typed: known types, features, globals and actions,
//! features used only on types they apply to and with their kind (integer
//! or boolean), bound and distinct variables, distinct rule names, actions
//! with the schema's arity and argument kinds. Errors name the file, the
//! 1-based line and column, and what was expected.
//!
//! The contiguous block of full-line `#` comments right before a `def`
//! (no blank line between them and the `def`, none inside the previous
//! rule) is the rule's description; all other comments are dropped.

use super::ast::{Action, ActionArg, BoolExpr, CmpOp, Decl, IntExpr, PatternKind, Rule, Var};
use super::lexer::{is_reserved, lex, Lexed, Tok, Token};
pub use super::lexer::ParseError;
use super::schema::{FeatureKind, ParamKind, Schema};
use std::collections::HashMap;

/// Deepest nesting the parser accepts: of parentheses, `not` and `unique`,
/// and of sums, each further term of `a + b - c ...` counting one level (the
/// tree of a sum is as deep as it has terms, and every pass over a rule
/// recurses on the tree).
pub const MAX_DEPTH: usize = 64;

/// Largest magnitude an integer expression may reach (its
/// [`magnitude`](IntExpr::magnitude), each feature and global counted as
/// 2^31): every partial sum and product of a concrete evaluation then fits
/// a 64-bit integer, so the interpreter computes exactly what Z3 proves
/// about (unbounded integers); a larger expression is refused where it
/// starts.
pub const MAX_MAGNITUDE: u128 = 1 << 62;

/// Most pattern declarations in one rule: every binding of the variables
/// is tried, so each declaration multiplies the work (and, in the worst
/// case, the distinct fills) by the number of elements of its type.
pub const MAX_DECLS: usize = 4;

/// Parses the rules of a `.rules` text against `schema`; `path` names the
/// file in errors.
pub fn parse_rules(text: &str, path: &str, schema: &Schema) -> Result<Vec<Rule>, ParseError> {
    let lexed = lex(text, path)?;
    Parser { lexed: &lexed, path, schema, pos: 0, decls: vec![], depth: 0 }.file()
}

/// Parses `text` with each schema in turn and returns the index of the first
/// that accepts it with the rules; if none does, the error that got furthest
/// into the text (the first such schema's on a tie).
///
/// # Panics
/// If `schemas` is empty.
pub fn detect_and_parse(text: &str, path: &str, schemas: &[Schema]) -> Result<(usize, Vec<Rule>), ParseError> {
    assert!(!schemas.is_empty(), "detect_and_parse needs at least one schema");
    let mut best: Option<ParseError> = None;
    for (i, schema) in schemas.iter().enumerate() {
        match parse_rules(text, path, schema) {
            Ok(rules) => return Ok((i, rules)),
            Err(e) => {
                if best.as_ref().is_none_or(|b| (e.line, e.column) > (b.line, b.column)) {
                    best = Some(e);
                }
            }
        }
    }
    Err(best.expect("at least one schema"))
}

struct Parser<'a> {
    lexed: &'a Lexed,
    path: &'a str,
    schema: &'a Schema,
    pos: usize,
    /// Declarations of the rule being read.
    decls: Vec<Decl>,
    depth: usize,
}

type Res<T> = Result<T, ParseError>;

fn furthest(a: ParseError, b: ParseError) -> ParseError {
    if (b.line, b.column) > (a.line, a.column) {
        b
    } else {
        a
    }
}

impl<'a> Parser<'a> {
    fn token(&self) -> &'a Token {
        &self.lexed.tokens[self.pos]
    }

    fn peek(&self) -> &'a Tok {
        &self.token().tok
    }

    fn peek2(&self) -> &'a Tok {
        let i = (self.pos + 1).min(self.lexed.tokens.len() - 1);
        &self.lexed.tokens[i].tok
    }

    fn advance(&mut self) -> &'a Token {
        let t = self.token();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn error_at(&self, at: &Token, message: String) -> ParseError {
        ParseError::new(self.path, at.line, at.column, message)
    }

    /// `expected WHAT, found TOKEN` at the current token.
    fn expected(&self, what: &str) -> ParseError {
        self.error_at(self.token(), format!("expected {what}, found {}", self.peek()))
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == kw)
    }

    fn expect_kw(&mut self, kw: &str) -> Res<()> {
        if self.is_kw(kw) {
            self.advance();
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}'")))
        }
    }

    fn expect(&mut self, tok: Tok) -> Res<()> {
        if *self.peek() == tok {
            self.advance();
            Ok(())
        } else {
            Err(self.expected(&tok.to_string()))
        }
    }

    /// A name being defined (`what`: rule or variable name), which is
    /// never a reserved word: a keyword or one of the schema's names.
    fn new_name(&mut self, what: &str) -> Res<(&'a Token, &'a str)> {
        let t = self.token();
        match &t.tok {
            Tok::Name(n) => match self.schema.reserved(n) {
                Some(kind) => Err(self.error_at(t, format!("{what} '{n}' is a reserved word ({kind})"))),
                None => {
                    self.advance();
                    Ok((t, n))
                }
            },
            _ => Err(self.expected(&format!("a {what}"))),
        }
    }

    /// Goes one nesting level deeper, or fails at the current token.
    fn deeper(&mut self) -> Res<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error_at(
                self.token(),
                format!("expression nested too deeply (more than {MAX_DEPTH} levels; each term of a sum counts as one)"),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    fn nest<T>(&mut self, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        self.deeper()?;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn file(mut self) -> Res<Vec<Rule>> {
        let mut rules = vec![];
        let mut lines: HashMap<String, usize> = HashMap::new();
        while *self.peek() != Tok::Eof {
            if !self.is_kw("def") {
                let what = if rules.is_empty() { "'def'" } else { "'def' or end of file" };
                return Err(self.expected(what));
            }
            let description = self.description();
            let def_line = self.token().line;
            self.advance();
            let (at, name) = self.new_name("rule name")?;
            if let Some(first) = lines.get(name) {
                return Err(self.error_at(at, format!("rule '{name}' is defined twice (first at line {first})")));
            }
            lines.insert(name.to_string(), def_line);
            let mut rule = self.rule_body()?;
            rule.name = name.to_string();
            rule.description = description;
            rules.push(rule);
        }
        Ok(rules)
    }

    /// The full-line comments right above the current `def`, after the
    /// previous token's line.
    fn description(&self) -> Vec<String> {
        let def_line = self.token().line;
        let floor = if self.pos == 0 { 0 } else { self.lexed.tokens[self.pos - 1].line };
        let mut first = def_line;
        while first - 1 > floor && self.lexed.comments.contains_key(&(first - 1)) {
            first -= 1;
        }
        (first..def_line).map(|l| self.lexed.comments[&l].clone()).collect()
    }

    /// `: with decls : if bool : then action` after the rule name.
    fn rule_body(&mut self) -> Res<Rule> {
        self.expect(Tok::Colon)?;
        self.expect_kw("with")?;
        self.decls.clear();
        self.decl()?;
        while self.is_kw("and") {
            self.advance();
            self.decl()?;
        }
        self.expect(Tok::Colon)?;
        self.expect_kw("if")?;
        let condition = self.bool()?;
        self.expect(Tok::Colon)?;
        self.expect_kw("then")?;
        let action = self.action()?;
        Ok(Rule { name: String::new(), description: vec![], decls: std::mem::take(&mut self.decls), condition, action })
    }

    fn decl(&mut self) -> Res<()> {
        let (at, name) = self.new_name("variable name")?;
        if self.decls.iter().any(|d| d.name == name) {
            return Err(self.error_at(at, format!("variable '{name}' is declared twice")));
        }
        if self.decls.len() >= MAX_DECLS {
            return Err(self.error_at(
                at,
                format!("too many pattern declarations (at most {MAX_DECLS}: every binding of them is tried, so each multiplies the work)"),
            ));
        }
        self.expect(Tok::Cmp(CmpOp::Eq))?;
        let kind = match self.peek() {
            Tok::Name(n) if n == "singleton" || n == "constant" || n == "arbitrary" => n.as_str(),
            _ => return Err(self.expected("a pattern (singleton, constant or arbitrary)")),
        };
        self.advance();
        self.expect(Tok::LParen)?;
        let ty_tok = self.token();
        let ty = match self.peek() {
            Tok::Name(n) => self.schema.type_id(n).ok_or_else(|| {
                self.error_at(ty_tok, format!("unknown element type '{n}' (known: {})", self.schema.file.types.join(", ")))
            })?,
            _ => return Err(self.expected("an element type")),
        };
        self.advance();
        let kind = match kind {
            "singleton" => PatternKind::Singleton,
            "arbitrary" => PatternKind::Arbitrary,
            _ => {
                self.expect(Tok::Comma)?;
                match *self.peek() {
                    Tok::Nat(k) => {
                        self.advance();
                        PatternKind::Constant(k as u32)
                    }
                    _ => return Err(self.expected("an element index (a natural number)")),
                }
            }
        };
        self.expect(Tok::RParen)?;
        self.decls.push(Decl { name: name.to_string(), ty, kind });
        Ok(())
    }

    /// `( VAR )` after a feature, `maximal` or `minimal`: the variable.
    fn var_arg(&mut self) -> Res<(Var, &'a Token)> {
        self.expect(Tok::LParen)?;
        let v = self.var()?;
        self.expect(Tok::RParen)?;
        Ok(v)
    }

    /// A bound variable.
    fn var(&mut self) -> Res<(Var, &'a Token)> {
        let at = self.token();
        let Tok::Name(name) = &at.tok else { return Err(self.expected("a variable")) };
        if is_reserved(name) {
            return Err(self.expected("a variable"));
        }
        self.advance();
        match self.decls.iter().position(|d| d.name == *name) {
            Some(i) => Ok((i as Var, at)),
            None => Err(self.error_at(at, format!("unbound variable '{name}'"))),
        }
    }

    fn bool(&mut self) -> Res<BoolExpr> {
        let first = self.bterm()?;
        if !self.is_kw("and") {
            return Ok(first);
        }
        let mut parts = vec![first];
        while self.is_kw("and") {
            self.advance();
            parts.push(self.bterm()?);
        }
        Ok(BoolExpr::And(parts))
    }

    fn bterm(&mut self) -> Res<BoolExpr> {
        let start = self.token();
        match self.peek() {
            Tok::Name(n) if n == "true" => {
                self.advance();
                Ok(BoolExpr::True)
            }
            Tok::Name(n) if n == "not" => {
                self.advance();
                self.nest(|p| Ok(BoolExpr::Not(Box::new(p.bterm()?))))
            }
            Tok::Name(n) if n == "maximal" || n == "minimal" => {
                self.advance();
                let (v, at) = self.var_arg()?;
                let (size, ty) = (self.schema.size_feature, self.decls[v as usize].ty);
                if !self.schema.applies(size, ty) {
                    return Err(self.error_at(
                        at,
                        format!(
                            "{n} compares '{}', which does not apply to '{}' of type {}",
                            self.schema.feature(size).name,
                            self.decls[v as usize].name,
                            self.schema.type_name(ty)
                        ),
                    ));
                }
                Ok(if n == "maximal" { BoolExpr::Maximal(v) } else { BoolExpr::Minimal(v) })
            }
            Tok::LParen => {
                // `( bool )` or an int starting with `( int )`: try the
                // comparison first, then the parenthesised condition.
                let save = self.pos;
                let as_cmp = match self.nest(|p| p.comparison()) {
                    Ok(b) => return Ok(b),
                    Err(e) => e,
                };
                self.pos = save;
                self.advance();
                let inner = self.nest(|p| {
                    let b = p.bool()?;
                    p.expect(Tok::RParen)?;
                    Ok(b)
                });
                inner.map_err(|e| furthest(e, as_cmp))
            }
            Tok::Name(_) if matches!(self.peek2(), Tok::Name(k) if k == "is") => {
                let (v, _) = self.var()?;
                self.expect_kw("is")?;
                self.expect_kw("unique")?;
                self.expect_kw("where")?;
                self.expect(Tok::LParen)?;
                let b = self.nest(|p| p.bool())?;
                self.expect(Tok::RParen)?;
                Ok(BoolExpr::Unique(v, Box::new(b)))
            }
            Tok::Name(n) if self.feature_of_kind(n) == Some(FeatureKind::Bool) => {
                let f = self.schema.feature_id(n).expect("known feature");
                self.advance();
                let v = self.applied_var(f, start)?;
                if matches!(self.peek(), Tok::Cmp(_) | Tok::Plus | Tok::Minus | Tok::Star) {
                    return Err(self.error_at(start, format!("boolean feature '{n}' used as a number")));
                }
                Ok(BoolExpr::Feature(f, v))
            }
            _ => self.comparison(),
        }
    }

    fn feature_of_kind(&self, name: &str) -> Option<FeatureKind> {
        self.schema.feature_id(name).map(|f| self.schema.feature(f).kind)
    }

    /// `( VAR )` after feature `f` (named at `at`), checking it applies.
    fn applied_var(&mut self, f: super::ast::FeatureId, at: &Token) -> Res<Var> {
        let (v, _) = self.var_arg()?;
        let d = &self.decls[v as usize];
        if !self.schema.applies(f, d.ty) {
            let def = self.schema.feature(f);
            return Err(self.error_at(
                at,
                format!(
                    "feature '{}' does not apply to '{}' of type {} (it applies to: {})",
                    def.name,
                    d.name,
                    self.schema.type_name(d.ty),
                    def.types.join(", ")
                ),
            ));
        }
        Ok(v)
    }

    /// `int CMP int`.
    fn comparison(&mut self) -> Res<BoolExpr> {
        let start = self.token();
        let lhs = self.int()?;
        let op = match *self.peek() {
            Tok::Cmp(op) => op,
            _ => {
                if let (IntExpr::Feature(..), Tok::Name(n)) = (&lhs, &start.tok) {
                    return Err(self.error_at(
                        start,
                        format!("integer feature '{n}' used as a condition (compare it, e.g. '{n}(...) > 0')"),
                    ));
                }
                return Err(self.expected("a comparison (=, !=, >=, >, <=, <)"));
            }
        };
        self.advance();
        let rhs = self.int()?;
        Ok(BoolExpr::Cmp(op, lhs, rhs))
    }

    /// An integer expression, no larger than [`MAX_MAGNITUDE`].
    fn int(&mut self) -> Res<IntExpr> {
        let (outer, start) = (self.depth, self.token());
        let sum = self.sum();
        self.depth = outer;
        let sum = sum?;
        let magnitude = sum.magnitude();
        if magnitude > MAX_MAGNITUDE {
            let bits = 128 - magnitude.leading_zeros();
            return Err(self.error_at(
                start,
                format!(
                    "integer expression too large: it may reach 2^{bits} in magnitude (at most 2^62, \
                     each feature and global counted as 2^31), beyond exact 64-bit arithmetic"
                ),
            ));
        }
        Ok(sum)
    }

    /// `term { (+|-) term }`, one level deeper per further term.
    fn sum(&mut self) -> Res<IntExpr> {
        let mut acc = self.term()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => IntExpr::sum,
                Tok::Minus => IntExpr::difference,
                _ => return Ok(acc),
            };
            self.deeper()?;
            self.advance();
            acc = op(acc, self.term()?);
        }
    }

    fn term(&mut self) -> Res<IntExpr> {
        let t = match *self.peek() {
            Tok::Minus => {
                self.advance();
                let Tok::Nat(k) = *self.peek() else {
                    return Err(self.expected("a number after unary '-' (it applies only to literals; write 0 - x)"));
                };
                self.advance();
                self.scaled(-(k as i64))?
            }
            Tok::Nat(k) => {
                self.advance();
                self.scaled(k as i64)?
            }
            _ => self.atom()?,
        };
        if *self.peek() == Tok::Star {
            return Err(self.error_at(
                self.token(),
                "only a literal may multiply, written first: 'k * x' (add parentheses: 'k * (...)')".into(),
            ));
        }
        Ok(t)
    }

    /// `[* atom]` after the literal `k`.
    fn scaled(&mut self, k: i64) -> Res<IntExpr> {
        if *self.peek() == Tok::Star {
            self.advance();
            Ok(IntExpr::Mul(k, Box::new(self.atom()?)))
        } else {
            Ok(IntExpr::Lit(k))
        }
    }

    fn atom(&mut self) -> Res<IntExpr> {
        let at = self.token();
        match &at.tok {
            Tok::Nat(k) => {
                self.advance();
                Ok(IntExpr::Lit(*k as i64))
            }
            Tok::LParen => {
                self.advance();
                let e = self.nest(|p| p.int())?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::Name(n) if !is_reserved(n) => {
                let s = self.schema;
                if let Some(g) = s.global_id(n) {
                    self.advance();
                    return Ok(IntExpr::Global(g));
                }
                if let Some(f) = s.feature_id(n) {
                    if s.feature(f).kind == FeatureKind::Bool {
                        return Err(self.error_at(at, format!("boolean feature '{n}' used as a number")));
                    }
                    self.advance();
                    let v = self.applied_var(f, at)?;
                    return Ok(IntExpr::Feature(f, v));
                }
                if self.decls.iter().any(|d| d.name == *n) {
                    let size = &s.feature(s.size_feature).name;
                    return Err(self.error_at(
                        at,
                        format!("expected a number, found variable '{n}' (apply a feature to it, e.g. {size}({n}))"),
                    ));
                }
                if *self.peek2() == Tok::LParen {
                    return Err(self.error_at(at, format!("unknown feature '{n}'")));
                }
                if s.type_id(n).is_some() || s.action_id(n).is_some() {
                    return Err(self.expected("an integer expression"));
                }
                Err(self.error_at(at, format!("unknown name '{n}' (not a global, feature or variable)")))
            }
            _ => Err(self.expected("an integer expression")),
        }
    }

    fn action(&mut self) -> Res<Action> {
        let at = self.token();
        let (id, def) = match self.peek() {
            Tok::Name(n) if !is_reserved(n) => match self.schema.action_id(n) {
                Some(id) => (id, self.schema.action(id)),
                None => {
                    let known: Vec<&str> = self.schema.file.actions.iter().map(|a| a.name.as_str()).collect();
                    return Err(self.error_at(at, format!("unknown action '{n}' (known: {})", known.join(", "))));
                }
            },
            _ => return Err(self.expected("an action")),
        };
        self.advance();
        let name = &def.name;
        let n = def.params.len();
        if n == 0 {
            if *self.peek() == Tok::LParen {
                return Err(self.error_at(self.token(), format!("action '{name}' takes no arguments")));
            }
            return Ok(Action { id, args: vec![] });
        }
        let signature: Vec<&str> =
            def.params.iter().map(|p| if *p == ParamKind::Bool { "bool" } else { "int" }).collect();
        let signature = signature.join(", ");
        if *self.peek() != Tok::LParen {
            return Err(self.expected(&format!("'(' (action '{name}' takes {n} arguments: {signature})")));
        }
        self.advance();
        let mut args = vec![];
        for (i, kind) in def.params.iter().enumerate() {
            let arg_at = self.token();
            let is_bool_lit = matches!(self.peek(), Tok::Name(b) if b == "true" || b == "false");
            match kind {
                ParamKind::Bool if is_bool_lit => {
                    args.push(ActionArg::Bool(self.is_kw("true")));
                    self.advance();
                }
                ParamKind::Bool => {
                    return Err(self.error_at(
                        arg_at,
                        format!("argument {} of '{name}' must be true or false, found {}", i + 1, self.peek()),
                    ))
                }
                ParamKind::Int if is_bool_lit || *self.peek() == Tok::RParen => {
                    return Err(self.error_at(
                        arg_at,
                        format!("argument {} of '{name}' must be an integer expression, found {}", i + 1, self.peek()),
                    ))
                }
                ParamKind::Int => args.push(ActionArg::Int(self.int()?)),
            }
            if i + 1 < n {
                match self.peek() {
                    Tok::Comma => {
                        self.advance();
                    }
                    Tok::RParen => {
                        return Err(self.error_at(
                            self.token(),
                            format!("action '{name}' takes {n} arguments ({signature}), found {}", i + 1),
                        ))
                    }
                    _ => return Err(self.expected("',' or ')'")),
                }
            }
        }
        match self.peek() {
            Tok::RParen => {
                self.advance();
            }
            Tok::Comma => {
                return Err(self.error_at(
                    self.token(),
                    format!("action '{name}' takes {n} arguments ({signature}), found more"),
                ))
            }
            _ => return Err(self.expected("')'")),
        }
        Ok(Action { id, args })
    }
}
