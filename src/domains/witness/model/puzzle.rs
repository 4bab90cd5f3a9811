//! Witness triangle puzzles: the validated [`Puzzle`] type and reading and
//! writing lists of puzzles in the RON format of docs/formats.md.
//!
//! This module owns the puzzle *definition* and its file format; it knows
//! nothing about paths, search or the rule language. A puzzle is always
//! valid once constructed: every way of building one ([`Puzzle::new`],
//! [`parse_puzzles`], [`read_puzzles`]) validates it and reports problems as
//! typed errors that name the file, the puzzle's line and column, and what
//! was expected.

use std::fmt::Write as _;
use std::path::Path as FsPath;

use crate::located::Located;
use serde::Deserialize;
use thiserror::Error;

use super::grid::{size_limit, Grid, Vertex, MAX_SIDE};

/// A valid triangle puzzle: a grid of `width` x `height` squares, distinct
/// start and goal vertices (the goal on the border), and 0-3 triangles in
/// each square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    grid: Grid,
    start: Vertex,
    goal: Vertex,
    /// Triangles per square, indexed by square id (row * width + column).
    triangles: Vec<u8>,
    /// Ids of the squares holding triangles, increasing (= (row, column) order).
    constrained: Vec<usize>,
}

/// What is wrong with a puzzle description.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Problem {
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("grid size {width}x{height} is not supported: {}", size_limit())]
    BadSize {
        /// Given width.
        width: i64,
        /// Given height.
        height: i64,
    },
    /// A start or goal vertex outside the grid.
    #[error("{which} vertex ({x}, {y}) is outside the grid: expected 0 <= x <= {width} and 0 <= y <= {height}")]
    VertexOutside {
        /// "start" or "goal".
        which: &'static str,
        /// Given x.
        x: i64,
        /// Given y.
        y: i64,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// Start and goal coincide.
    #[error("start and goal are the same vertex ({x}, {y}): expected distinct vertices")]
    StartIsGoal {
        /// x of both.
        x: usize,
        /// y of both.
        y: usize,
    },
    /// The goal is an interior vertex.
    #[error("goal ({x}, {y}) is not on the border: expected x in {{0, {width}}} or y in {{0, {height}}}")]
    GoalNotOnBorder {
        /// Goal x.
        x: usize,
        /// Goal y.
        y: usize,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// A triangle entry names a square outside the grid.
    #[error("square ({col}, {row}) is outside the grid: expected 0 <= column < {width} and 0 <= row < {height}")]
    SquareOutside {
        /// Given column.
        col: i64,
        /// Given row.
        row: i64,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// A triangle count outside 1..=3.
    #[error("square ({col}, {row}) has {count} triangles: expected 1, 2 or 3")]
    BadCount {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// Given count.
        count: i64,
    },
    /// The same square is listed twice.
    #[error("square ({col}, {row}) is listed more than once")]
    DuplicateSquare {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
    },
}

/// Errors reading or writing puzzle files.
#[derive(Debug, Error)]
pub enum PuzzleError {
    /// The file could not be read or written, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The text is not a RON list of valid puzzles.
    #[error(transparent)]
    List(Located<ListProblem<Problem>>),
}

/// What is wrong with a RON list of entries (puzzles, specifications).
#[derive(Debug, Error)]
pub enum ListProblem<P> {
    /// Not a RON list of entries of the expected shape: what the RON
    /// parser reported, and the shape expected.
    #[error("{message} (expected {shape})")]
    Syntax {
        /// What the RON parser reported.
        message: String,
        /// The shape of the list expected.
        shape: &'static str,
    },
    /// An entry is well-formed RON but fails its check (located at the
    /// entry's start; line 0 if unknown).
    #[error("{noun} #{index}: {problem}")]
    Invalid {
        /// What an entry is.
        noun: &'static str,
        /// 0-based position of the entry in the list.
        index: usize,
        /// What is wrong.
        problem: P,
    },
}

/// The serialized shape of a puzzle (docs/formats.md); signed integers so that
/// negative values become validation errors with a clear message.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Puzzle")]
pub(crate) struct RawPuzzle {
    width: i64,
    height: i64,
    start: (i64, i64),
    goal: (i64, i64),
    #[serde(default)]
    triangles: Vec<(i64, i64, i64)>,
}

impl Puzzle {
    /// Builds and validates a puzzle. `triangles` lists `(column, row, count)`
    /// for squares holding triangles, in any order.
    pub fn new(
        width: usize,
        height: usize,
        start: Vertex,
        goal: Vertex,
        triangles: &[(usize, usize, u8)],
    ) -> Result<Puzzle, Problem> {
        let conv = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        Puzzle::from_raw(&RawPuzzle {
            width: conv(width),
            height: conv(height),
            start: (conv(start.0), conv(start.1)),
            goal: (conv(goal.0), conv(goal.1)),
            triangles: triangles.iter().map(|&(c, r, t)| (conv(c), conv(r), i64::from(t))).collect(),
        })
    }

    pub(crate) fn from_raw(raw: &RawPuzzle) -> Result<Puzzle, Problem> {
        let max = MAX_SIDE as i64;
        if !(1..=max).contains(&raw.width) || !(1..=max).contains(&raw.height) {
            return Err(Problem::BadSize { width: raw.width, height: raw.height });
        }
        let (width, height) = (raw.width as usize, raw.height as usize);
        let grid = Grid::new(width, height);
        let vertex = |which, (x, y): (i64, i64)| {
            if (0..=raw.width).contains(&x) && (0..=raw.height).contains(&y) {
                Ok((x as usize, y as usize))
            } else {
                Err(Problem::VertexOutside { which, x, y, width, height })
            }
        };
        let start = vertex("start", raw.start)?;
        let goal = vertex("goal", raw.goal)?;
        if start == goal {
            return Err(Problem::StartIsGoal { x: start.0, y: start.1 });
        }
        if !grid.on_border(goal) {
            return Err(Problem::GoalNotOnBorder { x: goal.0, y: goal.1, width, height });
        }
        let mut tri = vec![0u8; grid.num_squares()];
        for &(col, row, count) in &raw.triangles {
            if !(0..raw.width).contains(&col) || !(0..raw.height).contains(&row) {
                return Err(Problem::SquareOutside { col, row, width, height });
            }
            let (col, row) = (col as usize, row as usize);
            if !(1..=3).contains(&count) {
                return Err(Problem::BadCount { col, row, count });
            }
            let s = grid.square_id(col, row);
            if tri[s] != 0 {
                return Err(Problem::DuplicateSquare { col, row });
            }
            tri[s] = count as u8;
        }
        let constrained = (0..tri.len()).filter(|&s| tri[s] > 0).collect();
        Ok(Puzzle { grid, start, goal, triangles: tri, constrained })
    }

    /// Number of columns of squares.
    pub fn width(&self) -> usize {
        self.grid.width
    }

    /// Number of rows of squares.
    pub fn height(&self) -> usize {
        self.grid.height
    }

    /// The grid geometry.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The start vertex.
    pub fn start(&self) -> Vertex {
        self.start
    }

    /// The goal vertex (on the border).
    pub fn goal(&self) -> Vertex {
        self.goal
    }

    /// Number of triangles (0-3) in square `(column, row)`; 0 outside the grid.
    pub fn triangles_at(&self, col: usize, row: usize) -> u8 {
        if col < self.width() && row < self.height() {
            self.triangles[self.grid.square_id(col, row)]
        } else {
            0
        }
    }

    /// Triangles of square id `s` (see [`Grid::square_id`]).
    #[inline]
    pub fn triangles_of(&self, s: usize) -> u8 {
        self.triangles[s]
    }

    /// Ids of the squares holding at least one triangle, in (row, column) order.
    pub fn constrained_squares(&self) -> &[usize] {
        &self.constrained
    }

    /// The `(column, row, count)` list of squares holding triangles, in
    /// (row, column) order.
    pub fn triangles(&self) -> Vec<(usize, usize, u8)> {
        self.constrained
            .iter()
            .map(|&s| {
                let (c, r) = self.grid.square(s);
                (c, r, self.triangles[s])
            })
            .collect()
    }

    /// The puzzle in the one-line RON form of docs/formats.md, e.g.
    /// `(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])`.
    pub fn to_ron(&self) -> String {
        let mut s = format!(
            "(width: {}, height: {}, start: ({}, {}), goal: ({}, {}), triangles: [",
            self.width(),
            self.height(),
            self.start.0,
            self.start.1,
            self.goal.0,
            self.goal.1
        );
        for (i, (c, r, t)) in self.triangles().into_iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "({c}, {r}, {t})");
        }
        s.push_str("])");
        s
    }
}

/// Writes a list of puzzles as RON text, one puzzle per line.
pub fn puzzles_to_ron(puzzles: &[Puzzle]) -> String {
    let mut s = String::from("[\n");
    for p in puzzles {
        s.push_str("    ");
        s.push_str(&p.to_ron());
        s.push_str(",\n");
    }
    s.push_str("]\n");
    s
}

/// How a RON list of entries is named in errors: its file, what an entry
/// is, and the shape of the list expected.
pub(crate) struct ListNames<'a> {
    pub file: &'a str,
    pub noun: &'static str,
    pub shape: &'static str,
}

/// Reads a RON list of `R` entries and checks each into a `T`: an error is
/// at the parser's position, or at the start of the entry that parsed but
/// failed its check.
pub(crate) fn parse_ron_list<R: serde::de::DeserializeOwned, T, P>(
    text: &str,
    names: ListNames<'_>,
    check: impl Fn(&R) -> Result<T, P>,
) -> Result<Vec<T>, Located<ListProblem<P>>> {
    let ListNames { file, noun, shape } = names;
    let raws: Vec<R> = ron::from_str(text).map_err(|e| {
        Located::new(file, e.position.line, e.position.col, ListProblem::Syntax { message: e.code.to_string(), shape })
    })?;
    let mut starts: Option<Vec<(usize, usize)>> = None;
    raws.iter()
        .enumerate()
        .map(|(index, raw)| {
            check(raw).map_err(|problem| {
                let starts = starts.get_or_insert_with(|| element_starts(text));
                let (line, column) = starts.get(index).copied().unwrap_or((0, 0));
                Located::new(file, line, column, ListProblem::Invalid { noun, index, problem })
            })
        })
        .collect()
}

/// Parses a RON list of puzzles. `file` is only used in error messages.
pub fn parse_puzzles(text: &str, file: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let shape =
        "a RON list of puzzles like `(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1)])`";
    parse_ron_list(text, ListNames { file, noun: "puzzle", shape }, Puzzle::from_raw).map_err(PuzzleError::List)
}

/// Reads a RON file holding a list of puzzles.
pub fn read_puzzles(path: &FsPath) -> Result<Vec<Puzzle>, PuzzleError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse_puzzles(&text, &file)
}

/// 1-based (line, column) of the start of each element of the top-level RON
/// list, found by a bracket-depth scan that skips comments and strings.
/// Only used to locate validation errors (the text has already parsed).
pub(crate) fn element_starts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 0usize);
    let mut depth = 0usize;
    let mut expecting = false; // at depth 1, waiting for the next element
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        col += 1;
        match ch {
            '\n' => {
                line += 1;
                col = 0;
                continue;
            }
            '/' if chars.peek() == Some(&'/') => {
                while let Some(&c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
                continue;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                col += 1;
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        col = 0;
                    } else {
                        col += 1;
                    }
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                continue;
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    col += 1;
                    if c == '\n' {
                        line += 1;
                        col = 0;
                    }
                    if !escaped && c == '"' {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                }
                continue;
            }
            _ => {}
        }
        if ch.is_whitespace() {
            continue;
        }
        if depth == 1 && expecting && ch != ',' && ch != ']' {
            out.push((line, col));
            expecting = false;
        }
        match ch {
            '[' | '(' | '{' => {
                depth += 1;
                if depth == 1 {
                    expecting = true;
                }
            }
            ']' | ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expecting = true,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG21: &str = "[\n    (width: 2, height: 1, start: (0, 0), goal: (2, 1),\n     triangles: [(0, 0, 1), (1, 0, 2)]),     // (column, row, count)\n]\n";

    #[test]
    fn parses_the_formats_example_and_round_trips() {
        let ps = parse_puzzles(FIG21, "ex.ron").unwrap();
        assert_eq!(ps.len(), 1);
        let p = &ps[0];
        assert_eq!((p.width(), p.height(), p.start(), p.goal()), (2, 1, (0, 0), (2, 1)));
        assert_eq!(p.triangles(), vec![(0, 0, 1), (1, 0, 2)]);
        assert_eq!(p.to_ron(), "(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])");
        let again = parse_puzzles(&puzzles_to_ron(&ps), "x").unwrap();
        assert_eq!(again, ps);
    }

    fn invalid(text: &str) -> (usize, usize, usize, Problem) {
        match parse_puzzles(text, "f.ron") {
            Err(PuzzleError::List(Located {
                line, column, kind: ListProblem::Invalid { index, problem, .. }, ..
            })) => (index, line, column, problem),
            other => panic!("expected an invalid-puzzle error, got {other:?}"),
        }
    }

    #[test]
    fn validation_errors_name_the_puzzle_and_its_line() {
        let ok = "(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [])";
        let text = format!(
            "[\n  {ok},\n  // comment ( [\n  (width: 2, height: 2, start: (0, 0), goal: (1, 1), triangles: []),\n]"
        );
        let (index, line, column, problem) = invalid(&text);
        assert_eq!((index, line, column), (1, 4, 3));
        assert!(matches!(problem, Problem::GoalNotOnBorder { x: 1, y: 1, .. }));

        type Case = (&'static str, fn(&Problem) -> bool);
        let cases: Vec<Case> = vec![
            ("(width: 2, height: 2, start: (1, 0), goal: (1, 0))", |p| matches!(p, Problem::StartIsGoal { .. })),
            ("(width: 2, height: 2, start: (3, 0), goal: (1, 0))", |p| {
                matches!(p, Problem::VertexOutside { which: "start", .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, -1))", |p| {
                matches!(p, Problem::VertexOutside { which: "goal", .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 4)])", |p| {
                matches!(p, Problem::BadCount { count: 4, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 0)])", |p| {
                matches!(p, Problem::BadCount { count: 0, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(2, 0, 1)])", |p| {
                matches!(p, Problem::SquareOutside { col: 2, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(1, 1, 1), (1, 1, 2)])", |p| {
                matches!(p, Problem::DuplicateSquare { col: 1, row: 1 })
            }),
            ("(width: 0, height: 2, start: (0, 0), goal: (0, 2))", |p| matches!(p, Problem::BadSize { .. })),
            ("(width: 9, height: 2, start: (0, 0), goal: (0, 2))", |p| matches!(p, Problem::BadSize { .. })),
        ];
        for (p, check) in cases {
            let (_, line, column, problem) = invalid(&format!("[{p}]"));
            assert_eq!((line, column), (1, 2));
            assert!(check(&problem), "{p}: {problem}");
        }
    }

    /// The reader's limit is the schema's: one limit, one message.
    #[test]
    fn the_size_limit_is_the_schemas() {
        let limit = crate::dsl::schema::Schema::witness().file.limits.max_state as usize;
        assert_eq!(limit, MAX_SIDE);
        let edge = format!("[(width: {MAX_SIDE}, height: 1, start: (0, 0), goal: ({MAX_SIDE}, 1))]");
        assert!(parse_puzzles(&edge, "f.ron").is_ok());
        let (_, _, _, problem) = invalid(&edge.replacen(&MAX_SIDE.to_string(), &(MAX_SIDE + 1).to_string(), 1));
        assert!(problem.to_string().ends_with(&size_limit()), "{problem}");
    }

    #[test]
    fn syntax_errors_carry_a_position() {
        let text = "[\n  (width: 2, height: 2, start: (0, 0), goal: (2, 2), triangle: []),\n]";
        match parse_puzzles(text, "f.ron") {
            Err(e @ PuzzleError::List(Located { line: 2, kind: ListProblem::Syntax { .. }, .. })) => {
                assert!(e.to_string().starts_with("f.ron:2:"), "{e}")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_puzzles("[(width: 2,", "f.ron"),
            Err(PuzzleError::List(Located { kind: ListProblem::Syntax { .. }, .. }))
        ));
    }
}
