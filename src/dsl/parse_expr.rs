//! The expression half of the `.rules` reader: conditions (`and`, `not`,
//! `maximal`/`minimal`, `unique`, boolean features, comparisons) and integer
//! expressions (sums, literal multiples, globals, features applied to bound
//! variables), as methods of the [`Parser`] that [`super::parse`] drives. It
//! enforces the nesting limit [`MAX_DEPTH`] and the read-time arithmetic
//! bound [`MAX_MAGNITUDE`], and checks that every feature applies to the
//! type of its variable and is used with its kind.

use super::ast::{BoolExpr, FeatureId, IntExpr, Var};
use super::lexer::{is_reserved, ParseError, Tok, Token};
use super::parse::{Parser, Res, MAX_DEPTH, MAX_MAGNITUDE};
use super::schema::FeatureKind;

fn furthest(a: ParseError, b: ParseError) -> ParseError {
    if (b.line, b.column) > (a.line, a.column) {
        b
    } else {
        a
    }
}

impl<'a> Parser<'a> {
    /// Goes one nesting level deeper, or fails at the current token.
    fn deeper(&mut self) -> Res<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error_at(
                self.token(),
                format!(
                    "expression nested too deeply (more than {MAX_DEPTH} levels; each term of a sum counts as one)"
                ),
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

    pub(super) fn bool(&mut self) -> Res<BoolExpr> {
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
                let vars = self.applied_vars(f, start)?;
                if matches!(self.peek(), Tok::Cmp(_) | Tok::Plus | Tok::Minus | Tok::Star) {
                    return Err(self.error_at(start, format!("boolean feature '{n}' used as a number")));
                }
                Ok(match vars[..] {
                    [v, w] => BoolExpr::Pair(f, v, w),
                    _ => BoolExpr::Feature(f, vars[0]),
                })
            }
            _ => self.comparison(),
        }
    }

    fn feature_of_kind(&self, name: &str) -> Option<FeatureKind> {
        self.schema.feature_id(name).map(|f| self.schema.feature(f).kind)
    }

    /// `( VAR { , VAR } )` after the boolean feature `f` (named at `at`):
    /// as many variables as it reads, each of a type it applies to.
    fn applied_vars(&mut self, f: FeatureId, at: &Token) -> Res<Vec<Var>> {
        self.expect(Tok::LParen)?;
        let mut vars = vec![self.var()?];
        while *self.peek() == Tok::Comma {
            self.advance();
            vars.push(self.var()?);
        }
        let arity = self.schema.feature(f).arity as usize;
        if vars.len() != arity {
            let name = &self.schema.feature(f).name;
            let wanted = if arity == 1 { "one element".to_string() } else { format!("{arity} elements") };
            return Err(self.error_at(at, format!("feature '{name}' reads {wanted}, found {}", vars.len())));
        }
        self.expect(Tok::RParen)?;
        vars.into_iter().map(|(v, _)| self.applies_to(f, v, at).map(|()| v)).collect()
    }

    /// `( VAR )` after feature `f` (named at `at`), checking it applies.
    fn applied_var(&mut self, f: FeatureId, at: &Token) -> Res<Var> {
        let (v, _) = self.var_arg()?;
        self.applies_to(f, v, at)?;
        Ok(v)
    }

    /// Checks that feature `f` (named at `at`) applies to variable `v`'s type.
    fn applies_to(&self, f: FeatureId, v: Var, at: &Token) -> Res<()> {
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
        Ok(())
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
    pub(super) fn int(&mut self) -> Res<IntExpr> {
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
}
