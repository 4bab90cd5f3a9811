//! Puzzles as self-contained HTML pages: a gallery of puzzles (each empty
//! and solved, changed cells outlined), and a solve as one page: per step an inline SVG of the
//! step's line with its clue, its new cells outlined in red, and beside it
//! what the step did (rule name and text, binding, sentence; or the
//! complete solver's probe or guess); the whole board with its clues once,
//! solved, at the end. No scripts, no external resources.
//!
//! Each step draws only its line, not the board: a board per step made the
//! page grow as steps × cells (an empty 100x100 puzzle: 10,000 steps of
//! 10,000 cells, over a gigabyte); a line is at most a board's side, and
//! filled cells are drawn as runs.

use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::line::model::Cell;
use crate::html::{escape, head, path, square, svg_open, END};

/// What one step shows beside its board.
#[derive(Clone, Debug)]
pub struct PageStep {
    /// Heading, e.g. `Step 3: row 2 — rule mercury`.
    pub heading: String,
    /// Plain-text lines under the heading (binding, cells, sentence).
    pub notes: Vec<String>,
    /// The rule's text, if a rule made the step.
    pub rule_text: Option<String>,
    /// The line the step deduced on, as a line index of the clues.
    pub line: Option<usize>,
    /// Grid indices the step filled, with their values.
    pub filled: Vec<(usize, bool)>,
    /// True for the complete solver's steps (probe or guess).
    pub oracle: bool,
}

/// `M x y h n v1 h-n z` for each run of consecutive `true` in `cells`, the
/// cell `i` at `(x0 + i, y)`.
fn runs_path(cells: impl Iterator<Item = bool>, x0: f64, y: f64) -> String {
    let mut path = String::new();
    let mut start = None;
    for (i, on) in cells.chain(std::iter::once(false)).enumerate() {
        match (on, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                path += &format!("M{:.2} {y:.2}h{n}v1h-{n}z", x0 + s as f64, n = i - s);
                start = None;
            }
            _ => {}
        }
    }
    path
}

/// One line as SVG: its clue to the left, filled cells black (as runs),
/// crossed cells as a dot, cells at `new` outlined.
fn line_svg(hints: &[u32], cells: &[Cell], new: &[usize]) -> String {
    let clue =
        if hints.is_empty() { "0".to_string() } else { hints.iter().map(u32::to_string).collect::<Vec<_>>().join(" ") };
    let x0 = clue.len() as f64 * 0.36 + 0.5;
    let n = cells.len();
    let (vw, vh) = (x0 + n as f64 + 0.2, 1.4);
    let px = 20.0;
    let mut s = svg_open(vw * px, vh * px, &format!("0 0 {vw:.2} {vh:.2}"), FONT);
    s += &format!("<text x=\"{:.2}\" y=\"0.95\" text-anchor=\"end\">{clue}</text>", x0 - 0.2);
    let y = 0.2;
    s += &path(&runs_path(cells.iter().map(|c| *c == Cell::True), x0, y), FILLED);
    let crossed: String = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == Cell::False)
        .map(|(i, _)| square(x0 + i as f64 + 0.4, y + 0.4, 0.2))
        .collect();
    s += &path(&crossed, CROSSED);
    s += &format!(
        "<rect x=\"{x0:.2}\" y=\"{y:.2}\" width=\"{n}\" height=\"1\" fill=\"none\" stroke=\"#aaa\" stroke-width=\"0.04\"/>"
    );
    let marks: String = new.iter().map(|&i| square(x0 + i as f64 + 0.08, y + 0.08, 0.84)).collect();
    s += &path(&marks, MARKED);
    s + "</svg>"
}

/// The line a step is drawn on: its own, or (a probe or guess, which has
/// none) the row of its first cell.
fn step_line(clues: &Clues, step: &PageStep) -> usize {
    step.line.unwrap_or_else(|| step.filled.first().map_or(0, |&(p, _)| p / clues.width()))
}

/// The grid indices of line `l` (rows first, then columns), in order.
fn line_cells(clues: &Clues, l: usize) -> Vec<usize> {
    let (w, h) = (clues.width(), clues.height());
    if l < h {
        (l * w..(l + 1) * w).collect()
    } else {
        (0..h).map(|r| r * w + (l - h)).collect()
    }
}

/// One board as SVG: clues above and to the left, filled cells black,
/// crossed cells as a dot, `line` shaded, `new` cells outlined.
fn svg(clues: &Clues, grid: &[Cell], line: Option<usize>, new: &[usize]) -> String {
    let (w, h) = (clues.width(), clues.height());
    let hint_text = |hints: &[u32]| -> Vec<String> {
        if hints.is_empty() {
            vec!["0".into()]
        } else {
            hints.iter().map(u32::to_string).collect()
        }
    };
    let top = clues.columns().iter().map(|c| hint_text(c).len()).max().unwrap_or(1) as f64;
    let left = clues.rows().iter().map(|r| hint_text(r).len()).max().unwrap_or(1) as f64 * 1.2;
    let (x0, y0) = (left + 0.3, top + 0.3);
    let (vw, vh) = (x0 + w as f64 + 0.2, y0 + h as f64 + 0.2);
    let px = 24.0;
    let mut s = svg_open(vw * px, vh * px, &format!("0 0 {vw:.2} {vh:.2}"), FONT);
    if let Some(l) = line {
        let (x, y, lw, lh) = if l < h {
            (0.0, y0 + l as f64, x0 + w as f64, 1.0)
        } else {
            (x0 + (l - h) as f64, 0.0, 1.0, y0 + h as f64)
        };
        s += &format!("<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{lw:.2}\" height=\"{lh:.2}\" fill=\"#ffe9a8\"/>");
    }
    for (c, hints) in clues.columns().iter().enumerate() {
        let t = hint_text(hints);
        for (k, v) in t.iter().enumerate() {
            let y = y0 - 0.2 - (t.len() - 1 - k) as f64;
            s += &format!("<text x=\"{:.2}\" y=\"{y:.2}\" text-anchor=\"middle\">{v}</text>", x0 + c as f64 + 0.5);
        }
    }
    for (r, hints) in clues.rows().iter().enumerate() {
        let t = hint_text(hints).join(" ");
        s += &format!("<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\">{t}</text>", x0 - 0.2, y0 + r as f64 + 0.75);
    }
    let (mut filled, mut crossed) = (String::new(), String::new());
    for (p, c) in grid.iter().enumerate() {
        let (x, y) = (x0 + (p % w) as f64, y0 + (p / w) as f64);
        match c {
            Cell::True => filled += &square(x, y, 1.0),
            Cell::False => crossed += &square(x + 0.4, y + 0.4, 0.2),
            Cell::Unknown => {}
        }
    }
    s += &(path(&filled, FILLED) + &path(&crossed, CROSSED));
    let mut grid_lines = String::new();
    for i in 0..=w {
        grid_lines += &format!("M{:.2} {y0:.2}v{h}", x0 + i as f64);
    }
    for j in 0..=h {
        grid_lines += &format!("M{x0:.2} {:.2}h{w}", y0 + j as f64);
    }
    s += &path(&grid_lines, "stroke=\"#aaa\" stroke-width=\"0.04\" fill=\"none\"");
    let mut marks = String::new();
    for &p in new {
        marks += &square(x0 + (p % w) as f64 + 0.08, y0 + (p / w) as f64 + 0.08, 0.84);
    }
    s += &path(&marks, MARKED);
    s + "</svg>"
}

/// The style sheet of both pages (the gallery and the solve).
const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
section{display:flex;gap:1.5em;align-items:flex-start;border-top:1px solid #ddd;padding:0.8em 0}\
section svg{flex:none}section.oracle h2{color:#b3261e}h2{font-size:1.05em;margin:0 0 0.4em 0}\
pre{background:#f4f4f4;padding:0.5em;font-size:0.85em}p{margin:0.2em 0}\
div.made{border-top:1px solid #ddd;padding:0.8em 0}div.boards{display:flex;gap:2em;align-items:flex-start}\
div.boards svg{max-width:48%;height:auto}";

/// The drawings' text attributes.
const FONT: &str = " font-family=\"sans-serif\" font-size=\"0.6\"";
/// Filled cells' paint.
const FILLED: &str = "fill=\"#222\"";
/// Crossed cells' dots' paint.
const CROSSED: &str = "fill=\"#888\"";
/// New or changed cells' outline.
const MARKED: &str = "stroke=\"#e0201c\" stroke-width=\"0.14\" fill=\"none\"";

/// One puzzle of a [`gallery`] page.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// Heading, e.g. `repair-1: 2 changed cells`.
    pub heading: String,
    /// Plain-text lines under the heading.
    pub notes: Vec<String>,
    /// The puzzle's clues.
    pub clues: Clues,
    /// Its solution, row by row.
    pub solution: Vec<bool>,
    /// Grid indices outlined on the solution (changed cells).
    pub marked: Vec<usize>,
}

/// A page of puzzles: per puzzle (`id="puzzle-N"`, N from 1) its heading
/// and notes, then side by side the empty board with its clues and its
/// solution (black cells only) with the marked cells outlined.
pub fn gallery(title: &str, summary: &str, items: &[Drawn]) -> String {
    let mut out = head(Some("en"), title, STYLE, summary);
    for (i, item) in items.iter().enumerate() {
        let empty = vec![Cell::Unknown; item.clues.cells()];
        // the solution in black only: white cells are left blank
        let solved: Vec<Cell> = item.solution.iter().map(|&b| if b { Cell::True } else { Cell::Unknown }).collect();
        out += &format!("<div class=\"made\" id=\"puzzle-{}\"><h2>{}</h2>", i + 1, escape(&item.heading));
        for n in &item.notes {
            out += &format!("<p>{}</p>", escape(n));
        }
        out += &format!(
            "<div class=\"boards\">{}{}</div></div>\n",
            svg(&item.clues, &empty, None, &[]),
            svg(&item.clues, &solved, None, &item.marked)
        );
    }
    out + END
}

/// The whole page: a title, a summary line, then one section per step
/// (`id="step-N"`, N from 1, so `PAGE.html#step-N` opens at step N), then
/// the board as the steps leave it (`id="board"`).
pub fn page(title: &str, summary: &str, clues: &Clues, steps: &[PageStep]) -> String {
    let mut out = head(Some("en"), title, STYLE, summary);
    let mut grid = vec![Cell::Unknown; clues.cells()];
    let all_hints: Vec<&Vec<u32>> = clues.rows().iter().chain(clues.columns()).collect();
    for (i, step) in steps.iter().enumerate() {
        for &(p, v) in &step.filled {
            grid[p] = Cell::from_bool(v);
        }
        let l = step_line(clues, step);
        let indices = line_cells(clues, l);
        let cells: Vec<Cell> = indices.iter().map(|&p| grid[p]).collect();
        let new: Vec<usize> = indices
            .iter()
            .enumerate()
            .filter(|(_, p)| step.filled.iter().any(|(q, _)| q == *p))
            .map(|(i, _)| i)
            .collect();
        let class = if step.oracle { "oracle" } else { "rule" };
        let drawing = line_svg(all_hints[l], &cells, &new);
        out += &format!("<section id=\"step-{}\" class=\"{class}\">{drawing}<div>", i + 1);
        out += &format!("<h2>{}</h2>", escape(&step.heading));
        for n in &step.notes {
            out += &format!("<p>{}</p>", escape(n));
        }
        if let Some(text) = &step.rule_text {
            out += &format!("<pre>{}</pre>", escape(text));
        }
        out += "</div></section>\n";
    }
    out += &format!(
        "<section id=\"board\">{}<div><h2>The board after the last step</h2></div></section>\n",
        svg(clues, &grid, None, &[])
    );
    out + END
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_self_contained_and_marks_new_cells() {
        let clues = Clues::new(vec![vec![1], vec![]], vec![vec![1], vec![]]);
        let steps = vec![PageStep {
            heading: "Step 1: row 1 <rule>".into(),
            notes: vec!["fills column 1".into()],
            rule_text: Some("def r: ...".into()),
            line: Some(0),
            filled: vec![(0, true), (1, false)],
            oracle: false,
        }];
        let html = page("T", "one step", &clues, &steps);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("Step 1: row 1 &lt;rule&gt;"));
        // the step's line, then the board
        assert_eq!(html.matches("<svg").count(), 2);
        assert!(html.contains("<path d=\"M0.86 0.20h1v1h-1z\" fill=\"#222\"/>"), "{html}");
        assert!(html.contains("stroke=\"#e0201c\""));
        assert!(!html.contains("<script") && !html.contains("http://www.w3.org/1999") && !html.contains("src="));
    }

    #[test]
    fn gallery_draws_each_puzzle_empty_and_solved() {
        let clues = Clues::new(vec![vec![1], vec![]], vec![vec![1], vec![]]);
        let item = Drawn {
            heading: "repair-1 <1>".into(),
            notes: vec![],
            clues,
            solution: vec![true, false, false, false],
            marked: vec![0],
        };
        let html = gallery("T", "s", &[item.clone(), item]);
        assert_eq!(html.matches("<svg").count(), 4);
        assert!(html.contains("id=\"puzzle-2\"") && html.contains("repair-1 &lt;1&gt;"));
        assert_eq!(html.matches("stroke=\"#e0201c\"").count(), 4);
        assert_eq!(html.matches("h0.84v0.84h-0.84z").count(), 2, "one marked cell per solution");
    }
}
