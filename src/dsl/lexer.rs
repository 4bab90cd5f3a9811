//! Tokens of `.rules` files (docs/language.md): names, natural numbers, punctuation
//! and comparison operators, each with its 1-based line and column.
//! Comments are not tokens; full-line comments are kept aside so the parser
//! can attach them to the following `def` as its description. The lexer
//! knows nothing about schemas or the grammar beyond the reserved words;
//! it owns the error type of reading a `.rules` text ([`ParseError`]).

use super::ast::CmpOp;
use std::collections::BTreeMap;
use std::fmt;

/// A `.rules` text that cannot be read: where, and what was expected and
/// found or why the rule is rejected.
pub type ParseError = crate::located::Located<String>;

/// Whether `name` is a keyword of the rule language.
pub fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "def"
            | "with"
            | "and"
            | "if"
            | "then"
            | "not"
            | "true"
            | "false"
            | "is"
            | "unique"
            | "where"
            | "maximal"
            | "minimal"
            | "singleton"
            | "constant"
            | "arbitrary"
    )
}

/// Largest natural number a rule may write (literals, multipliers and
/// `constant(t, k)` indices), so that integer evaluation of any rule the
/// tool reads stays far from `i64` overflow.
pub const MAX_NAT: u64 = i32::MAX as u64;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name (keyword or identifier), `[a-z_][a-z0-9_]*`.
    Name(String),
    /// A natural number, at most [`MAX_NAT`].
    Nat(u64),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`, `!=`, `>=`, `>`, `<=`, `<` (`=` also binds pattern variables).
    Cmp(CmpOp),
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// The end of the text.
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Name(n) if is_reserved(n) => write!(f, "keyword '{n}'"),
            Tok::Name(n) => write!(f, "'{n}'"),
            Tok::Nat(n) => write!(f, "'{n}'"),
            Tok::LParen => f.write_str("'('"),
            Tok::RParen => f.write_str("')'"),
            Tok::Comma => f.write_str("','"),
            Tok::Colon => f.write_str("':'"),
            Tok::Cmp(op) => write!(f, "'{}'", op.symbol()),
            Tok::Plus => f.write_str("'+'"),
            Tok::Minus => f.write_str("'-'"),
            Tok::Star => f.write_str("'*'"),
            Tok::Eof => f.write_str("end of file"),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

/// The tokens of a text (ending with [`Tok::Eof`]) and its full-line
/// comments (`#` preceded only by blanks on its line), by line, with the
/// `#` and one following space removed.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// The tokens, the last one `Eof`.
    pub tokens: Vec<Token>,
    /// Full-line comments: line number to text.
    pub comments: BTreeMap<usize, String>,
}

/// The characters from the current one on while `keep` holds, one column each.
fn take_while(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    column: &mut usize,
    keep: impl Fn(char) -> bool,
) -> String {
    let mut taken = String::new();
    while let Some(&c) = chars.peek() {
        if !keep(c) {
            break;
        }
        taken.push(c);
        chars.next();
        *column += 1;
    }
    taken
}

/// Splits `text` into tokens; `path` names the file in errors.
pub fn lex(text: &str, path: &str) -> Result<Lexed, ParseError> {
    let mut out = Lexed::default();
    let mut chars = text.chars().peekable();
    let (mut line, mut column) = (1usize, 1usize);
    // Whether only blanks precede the current position on its line.
    let mut line_blank = true;
    while let Some(&c) = chars.peek() {
        let (start_line, start_column) = (line, column);
        let err = |message: String| ParseError::new(path, start_line, start_column, message);
        let bump = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, column: &mut usize| {
            chars.next();
            *column += 1;
        };
        let tok = match c {
            '\n' => {
                chars.next();
                line += 1;
                column = 1;
                line_blank = true;
                continue;
            }
            ' ' | '\t' | '\r' => {
                bump(&mut chars, &mut column);
                continue;
            }
            '#' => {
                chars.next();
                let body = take_while(&mut chars, &mut column, |c| c != '\n');
                if line_blank {
                    let body = body.strip_suffix('\r').unwrap_or(&body);
                    let body = body.strip_prefix(' ').unwrap_or(body);
                    out.comments.insert(line, body.to_string());
                }
                continue;
            }
            'a'..='z' | '_' => {
                Tok::Name(take_while(&mut chars, &mut column, |c| matches!(c, 'a'..='z' | '0'..='9' | '_')))
            }
            '0'..='9' => {
                let digits = take_while(&mut chars, &mut column, |c| c.is_ascii_digit());
                match digits.parse::<u64>() {
                    Ok(n) if n <= MAX_NAT => Tok::Nat(n),
                    _ => return Err(err(format!("number {digits} is too large (at most {MAX_NAT})"))),
                }
            }
            '!' | '>' | '<' => {
                bump(&mut chars, &mut column);
                let eq = chars.peek() == Some(&'=');
                if eq {
                    bump(&mut chars, &mut column);
                }
                Tok::Cmp(match (c, eq) {
                    ('!', true) => CmpOp::Ne,
                    ('!', false) => return Err(err("expected '=' after '!' (the operator is '!=')".into())),
                    ('>', true) => CmpOp::Ge,
                    ('>', false) => CmpOp::Gt,
                    ('<', true) => CmpOp::Le,
                    _ => CmpOp::Lt,
                })
            }
            _ => {
                let tok = match c {
                    '(' => Tok::LParen,
                    ')' => Tok::RParen,
                    ',' => Tok::Comma,
                    ':' => Tok::Colon,
                    '=' => Tok::Cmp(CmpOp::Eq),
                    '+' => Tok::Plus,
                    '-' => Tok::Minus,
                    '*' => Tok::Star,
                    'A'..='Z' => {
                        return Err(err(format!("unexpected character '{c}' (names are lowercase: [a-z_][a-z0-9_]*)")))
                    }
                    _ => return Err(err(format!("unexpected character {c:?}"))),
                };
                bump(&mut chars, &mut column);
                tok
            }
        };
        line_blank = false;
        out.tokens.push(Token { tok, line: start_line, column: start_column });
    }
    out.tokens.push(Token { tok: Tok::Eof, line, column });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(text, "t").unwrap().tokens.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn tokens_and_positions() {
        assert_eq!(
            toks("a!=1>=(b)-<=<>*+,:="),
            vec![
                Tok::Name("a".into()),
                Tok::Cmp(CmpOp::Ne),
                Tok::Nat(1),
                Tok::Cmp(CmpOp::Ge),
                Tok::LParen,
                Tok::Name("b".into()),
                Tok::RParen,
                Tok::Minus,
                Tok::Cmp(CmpOp::Le),
                Tok::Cmp(CmpOp::Lt),
                Tok::Cmp(CmpOp::Gt),
                Tok::Star,
                Tok::Plus,
                Tok::Comma,
                Tok::Colon,
                Tok::Cmp(CmpOp::Eq),
                Tok::Eof
            ]
        );
        let l = lex("x # c\n  # full\n\t y", "t").unwrap();
        assert_eq!((l.tokens[1].line, l.tokens[1].column), (3, 3));
        assert_eq!(l.comments.into_iter().collect::<Vec<_>>(), vec![(2, "full".to_string())]);
    }

    #[test]
    fn comment_text_loses_one_space() {
        let l = lex("#\n#x\n#  y \r\n", "t").unwrap();
        let c: Vec<String> = l.comments.into_values().collect();
        assert_eq!(c, vec!["".to_string(), "x".into(), " y ".into()]);
    }

    #[test]
    fn lexical_errors() {
        assert_eq!(lex("a !b", "f").unwrap_err().to_string(), "f:1:3: expected '=' after '!' (the operator is '!=')");
        assert_eq!(
            lex("\n  Foo", "f").unwrap_err().to_string(),
            "f:2:3: unexpected character 'F' (names are lowercase: [a-z_][a-z0-9_]*)"
        );
        assert_eq!(lex("x $", "f").unwrap_err().to_string(), "f:1:3: unexpected character '$'");
        assert_eq!(
            lex("1 99999999999999999999999", "f").unwrap_err().to_string(),
            "f:1:3: number 99999999999999999999999 is too large (at most 2147483647)"
        );
        assert!(lex("2147483647", "f").is_ok());
        assert!(lex("2147483648", "f").is_err());
    }
}
