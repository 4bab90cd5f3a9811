//! Parser for `.rules` files (docs/language.md grammar, docs/formats.md). Names are
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
//!
//! This module owns the entry points, the reader's limits, the token
//! cursor, and the file, rule, declaration and action grammar; conditions
//! and integer expressions are read by the sibling module `parse_expr`.

use super::ast::{Action, ActionArg, CmpOp, Decl, PatternKind, Rule, Var};
pub use super::lexer::ParseError;
use super::lexer::{is_reserved, lex, Lexed, Tok, Token};
use super::schema::{ParamKind, Schema};
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

/// The reader's state; its expression methods are in [`super::parse_expr`].
pub(super) struct Parser<'a> {
    pub(super) lexed: &'a Lexed,
    pub(super) path: &'a str,
    pub(super) schema: &'a Schema,
    pub(super) pos: usize,
    /// Declarations of the rule being read.
    pub(super) decls: Vec<Decl>,
    /// Current nesting, against [`MAX_DEPTH`].
    pub(super) depth: usize,
}

pub(super) type Res<T> = Result<T, ParseError>;

impl<'a> Parser<'a> {
    pub(super) fn token(&self) -> &'a Token {
        &self.lexed.tokens[self.pos]
    }

    pub(super) fn peek(&self) -> &'a Tok {
        &self.token().tok
    }

    pub(super) fn peek2(&self) -> &'a Tok {
        let i = (self.pos + 1).min(self.lexed.tokens.len() - 1);
        &self.lexed.tokens[i].tok
    }

    pub(super) fn advance(&mut self) -> &'a Token {
        let t = self.token();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    pub(super) fn error_at(&self, at: &Token, message: String) -> ParseError {
        ParseError::new(self.path, at.line, at.column, message)
    }

    /// `expected WHAT, found TOKEN` at the current token.
    pub(super) fn expected(&self, what: &str) -> ParseError {
        self.error_at(self.token(), format!("expected {what}, found {}", self.peek()))
    }

    pub(super) fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == kw)
    }

    pub(super) fn expect_kw(&mut self, kw: &str) -> Res<()> {
        if self.is_kw(kw) {
            self.advance();
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}'")))
        }
    }

    pub(super) fn expect(&mut self, tok: Tok) -> Res<()> {
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
                self.error_at(
                    ty_tok,
                    format!("unknown element type '{n}' (known: {})", self.schema.file.types.join(", ")),
                )
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

    /// Argument `i` of action `name`: a bound variable of type `element`.
    fn element_arg(&mut self, name: &str, i: usize, element: &str) -> Res<Var> {
        let at = self.token();
        let found = match self.peek() {
            Tok::Name(n) => self.decls.iter().position(|d| d.name == *n),
            _ => None,
        };
        match found {
            Some(v) if self.schema.type_name(self.decls[v].ty) == element => {
                self.advance();
                Ok(v as Var)
            }
            Some(v) => Err(self.error_at(
                at,
                format!(
                    "argument {} of '{name}' must be a {element} variable; '{}' is of type {}",
                    i + 1,
                    self.decls[v].name,
                    self.schema.type_name(self.decls[v].ty)
                ),
            )),
            None => Err(self.error_at(
                at,
                format!("argument {} of '{name}' must be a bound {element} variable, found {}", i + 1, self.peek()),
            )),
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
        let element = def.element.as_deref().unwrap_or_default();
        let signature: Vec<&str> = def
            .params
            .iter()
            .map(|p| match p {
                ParamKind::Bool => "bool",
                ParamKind::Int => "int",
                ParamKind::Element => element,
            })
            .collect();
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
                ParamKind::Element => args.push(ActionArg::Element(self.element_arg(name, i, element)?)),
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
                return Err(self
                    .error_at(self.token(), format!("action '{name}' takes {n} arguments ({signature}), found more")))
            }
            _ => return Err(self.expected("')'")),
        }
        Ok(Action { id, args })
    }
}
