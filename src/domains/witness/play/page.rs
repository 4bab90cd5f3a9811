//! Puzzles and their figures as one self-contained HTML page: per puzzle
//! an inline SVG (the grid, the start circle, the goal notch, the
//! triangles and, if the puzzle has one, a solution path) and a table of
//! rows beside it (player, MSI, TSI), made of [`crate::html`]'s pieces.

use crate::domains::witness::model::oracle::solve;
use crate::domains::witness::model::puzzle::Puzzle;
use crate::html::{circle, escape, head, line, svg_open, END};

/// One puzzle of a page.
#[derive(Clone, Debug)]
pub struct PagePuzzle {
    /// Heading, e.g. `Puzzle #3: 4x4, 12 solutions`.
    pub title: String,
    /// The puzzle drawn.
    pub puzzle: Puzzle,
    /// Table rows: player, MSI, TSI (as text).
    pub rows: Vec<[String; 3]>,
}

/// Pixels per grid unit.
const UNIT: f64 = 56.0;
/// Margin around the grid, in grid units.
const MARGIN: f64 = 0.6;

/// The puzzle as SVG, with a solution path if there is one.
pub fn svg(puzzle: &Puzzle) -> String {
    let (w, h) = (puzzle.width() as f64, puzzle.height() as f64);
    let at = |(x, y): (usize, usize)| ((MARGIN + x as f64) * UNIT, (MARGIN + h - y as f64) * UNIT);
    let (vw, vh) = ((w + 2.0 * MARGIN) * UNIT, (h + 2.0 * MARGIN) * UNIT);
    let mut s = svg_open(vw, vh, &format!("0 0 {vw:.0} {vh:.0}"), "");
    s += &format!("<rect width=\"{vw:.0}\" height=\"{vh:.0}\" fill=\"#24323f\"/>");
    let thick = UNIT * 0.18;
    for x in 0..=puzzle.width() {
        s += &line(at((x, 0)), at((x, puzzle.height())), "#5d6e7c", thick);
    }
    for y in 0..=puzzle.height() {
        s += &line(at((0, y)), at((puzzle.width(), y)), "#5d6e7c", thick);
    }
    let goal = puzzle.goal();
    let (gx, gy) = at(goal);
    let out = if goal.0 == 0 {
        (-1.0, 0.0)
    } else if goal.0 == puzzle.width() {
        (1.0, 0.0)
    } else if goal.1 == 0 {
        (0.0, 1.0)
    } else {
        (0.0, -1.0)
    };
    s += &line((gx, gy), (gx + out.0 * UNIT * 0.35, gy + out.1 * UNIT * 0.35), "#5d6e7c", thick);
    for (c, r, t) in puzzle.triangles() {
        let (cx, cy) = ((MARGIN + c as f64 + 0.5) * UNIT, (MARGIN + h - r as f64 - 0.5) * UNIT);
        let size = UNIT * 0.16;
        for k in 0..t {
            let x = cx + (f64::from(k) - f64::from(t - 1) / 2.0) * size * 1.3;
            s += &format!(
                "<path d=\"M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" fill=\"#f5a623\"/>",
                x,
                cy - size * 0.5,
                x + size * 0.55,
                cy + size * 0.45,
                x - size * 0.55,
                cy + size * 0.45
            );
        }
    }
    let (sx, sy) = at(puzzle.start());
    if let Some(path) = solve(puzzle) {
        let points: Vec<String> = path.vertices().map(at).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let end = (gx + out.0 * UNIT * 0.35, gy + out.1 * UNIT * 0.35);
        s += &format!(
            "<polyline points=\"{} {:.1},{:.1}\" fill=\"none\" stroke=\"#f3f08c\" stroke-width=\"{:.1}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
            points.join(" "),
            end.0,
            end.1,
            thick * 0.8
        );
        s += &circle((sx, sy), UNIT * 0.2, "#f3f08c");
    } else {
        s += &circle((sx, sy), UNIT * 0.2, "#5d6e7c");
    }
    s + "</svg>"
}

/// The whole page: a heading and a summary, then per puzzle its title,
/// drawing and table.
pub fn page(title: &str, summary: &str, puzzles: &[PagePuzzle]) -> String {
    let style = "body{font-family:sans-serif;margin:1.5em;color:#222} .p{display:flex;gap:2em;align-items:flex-start;margin:1em 0 2em}\
table{border-collapse:collapse} td,th{padding:0.2em 0.8em;border-bottom:1px solid #ddd;text-align:right} td:first-child,th:first-child{text-align:left}";
    let mut s = head(None, title, style, summary);
    s += "<p>MSI and TSI in Shannon (Sh): the information an oracle must give the player \
to solve the puzzle (Shen 2024); <code>inf</code> when the player cannot reach a solution. The yellow line is one solution.</p>\n";
    for p in puzzles {
        s += &format!(
            "<h2>{}</h2>\n<div class=\"p\">{}<table><tr><th>player</th><th>MSI</th><th>TSI</th></tr>",
            escape(&p.title),
            svg(&p.puzzle)
        );
        for [who, msi, tsi] in &p.rows {
            s += &format!("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", escape(who), escape(msi), escape(tsi));
        }
        s += "</table></div>\n";
    }
    s + END
}
