//! Puzzles and their figures as one self-contained HTML page: per puzzle
//! an inline SVG (the grid with broken edges as gaps, the start circle,
//! the goal notch, the triangles, separation squares and stars in their
//! colours, and, if the puzzle has one, a solution path, with the dots on
//! top) and a table of rows beside it (player, MSI, TSI), made of
//! [`crate::html`]'s pieces. A triangle-only puzzle is drawn as before.

use crate::domains::witness::board::oracle::solve;
use crate::domains::witness::formats::puzzle::{Dot, Puzzle};
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
    s += &gaps_and_marks(puzzle, thick);
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
    s + &dots(puzzle, thick) + "</svg>"
}

/// The centre of vertex `v` (an id) in pixels.
fn centre(puzzle: &Puzzle, v: usize) -> (f64, f64) {
    let (x, y) = puzzle.grid().vertex(v);
    ((MARGIN + x as f64) * UNIT, (MARGIN + puzzle.height() as f64 - y as f64) * UNIT)
}

/// The SVG colour of mark colour `c`: white and black first (Shen's
/// black-and-white squares), then distinct hues.
fn mark_colour(c: u8) -> String {
    const NAMED: [&str; 8] = ["#ffffff", "#111111", "#e8473b", "#3b8be8", "#4fc36b", "#b15ee0", "#f08a2e", "#2ec4c4"];
    match NAMED.get(usize::from(c) - 1) {
        Some(name) => name.to_string(),
        None => format!("hsl({}, 70%, 55%)", (u32::from(c) * 47) % 360),
    }
}

/// Broken edges as gaps in the grid (a background patch over the middle
/// of the edge), separation squares as rounded squares and stars as
/// eight-pointed stars, each in its colour.
fn gaps_and_marks(puzzle: &Puzzle, thick: f64) -> String {
    let grid = puzzle.grid();
    let mut s = String::new();
    for e in puzzle.broken().iter() {
        let (a, b) = grid.edge_ends(e);
        let ((ax, ay), (bx, by)) = (centre(puzzle, a), centre(puzzle, b));
        let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let (w, h) = if grid.is_vertical(e) { (thick * 1.2, UNIT * 0.34) } else { (UNIT * 0.34, thick * 1.2) };
        s += &format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"#24323f\"/>",
            mx - w / 2.0,
            my - h / 2.0
        );
    }
    for m in puzzle.marks() {
        let (c, r) = grid.square(m.square);
        let (cx, cy) = ((MARGIN + c as f64 + 0.5) * UNIT, (MARGIN + puzzle.height() as f64 - r as f64 - 0.5) * UNIT);
        let fill = mark_colour(m.colour);
        if m.star {
            let points: Vec<String> = (0..16)
                .map(|k| {
                    let radius = if k % 2 == 0 { UNIT * 0.24 } else { UNIT * 0.15 };
                    let angle = std::f64::consts::PI * f64::from(k) / 8.0;
                    format!("{:.1},{:.1}", cx + radius * angle.cos(), cy + radius * angle.sin())
                })
                .collect();
            s += &format!("<polygon points=\"{}\" fill=\"{fill}\"/>", points.join(" "));
        } else {
            let side = UNIT * 0.34;
            s += &format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{side:.1}\" height=\"{side:.1}\" rx=\"{:.1}\" fill=\"{fill}\"/>",
                cx - side / 2.0,
                cy - side / 2.0,
                side * 0.25
            );
        }
    }
    s
}

/// Must-cross dots as small dark hexagons on their vertices and on the
/// middles of their edges.
fn dots(puzzle: &Puzzle, thick: f64) -> String {
    let grid = puzzle.grid();
    let hexagon = |(x, y): (f64, f64)| {
        let points: Vec<String> = (0..6)
            .map(|k| {
                let angle = std::f64::consts::PI * f64::from(k) / 3.0;
                format!("{:.1},{:.1}", x + thick * 0.45 * angle.cos(), y + thick * 0.45 * angle.sin())
            })
            .collect();
        format!("<polygon points=\"{}\" fill=\"#111111\"/>", points.join(" "))
    };
    let mut s = String::new();
    for d in puzzle.dots() {
        let at = match *d {
            Dot::Vertex(v) => centre(puzzle, v),
            Dot::Edge(e) => {
                let (a, b) = grid.edge_ends(e);
                let ((ax, ay), (bx, by)) = (centre(puzzle, a), centre(puzzle, b));
                ((ax + bx) / 2.0, (ay + by) / 2.0)
            }
        };
        s += &hexagon(at);
    }
    s
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
