//! Boards as one self-contained HTML page: per board a heading, notes and
//! an SVG drawing (dark cells, each endpoint a disc in its colour with its
//! character, and when a solution is known each link a thick line in its
//! path's colour), and partial solutions (links so far, cuts, the slots a
//! step decided outlined). No scripts, no external resources.

use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::{Colour, Puzzle};
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::html::{circle, escape, head, line, path, square, svg_open, END};

/// The colours of Flow Free's first sixteen, then hues around the wheel.
const PALETTE: [&str; 16] = [
    "#e8261c", "#1f8f2b", "#2b4fe8", "#e8dc1c", "#f28a16", "#1cd8e8", "#e01ce8", "#9c2a2a", "#7d2ac2", "#f4f4f4",
    "#8c8c8c", "#5ef01c", "#c9a878", "#17187a", "#128a8a", "#f09ac2",
];

/// The drawing colour of colour `f` (1..k).
pub fn colour_of(f: Colour) -> String {
    match PALETTE.get(f - 1) {
        Some(c) => c.to_string(),
        None => format!("hsl({}, 70%, 55%)", (f * 137) % 360),
    }
}

/// One board of a page.
#[derive(Clone, Debug)]
pub struct PageBoard<'a> {
    /// Its heading (the puzzle's name).
    pub heading: String,
    /// Lines of text under the heading (size, solutions, ...).
    pub notes: Vec<String>,
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Its solution, if known: its paths are drawn.
    pub solution: Option<&'a Solution>,
}

/// Pixels per cell.
const CELL: f64 = 36.0;

/// A board as SVG: cells, links in their path's colour, endpoints.
pub fn svg(p: &Puzzle, solution: Option<&Solution>) -> String {
    let state = solution.map_or_else(|| State::start(p.grid()), |s| State::of_solution(p.grid(), s));
    state_svg(p, &state, false, &[])
}

/// A partial solution as SVG: its links in their chain's colour (grey for
/// a chain with no endpoint), with `cuts` its cuts as short red bars
/// across the side between two cells, and the slots `marked` outlined in
/// white (a link) or drawn long (a cut).
pub fn state_svg(p: &Puzzle, state: &State, cuts: bool, marked: &[Slot]) -> String {
    let g = p.grid();
    let (w, h) = (g.width() as f64, g.height() as f64);
    let mut s = svg_open(w * CELL + 2.0, h * CELL + 2.0, &format!("-0.03 -0.03 {:.2} {:.2}", w + 0.06, h + 0.06), "");
    let cells: String =
        (0..g.cells()).map(|c| g.xy(c)).map(|(x, y)| square(x as f64 + 0.03, y as f64 + 0.03, 0.94)).collect();
    s += &path(&cells, "fill=\"#1b1b1b\"");
    let centre = |c| {
        let (x, y) = g.xy(c);
        (x as f64 + 0.5, y as f64 + 0.5)
    };
    let features = Features::of(p, state);
    for l in 0..g.slots() {
        let [a, b] = g.ends(l);
        let ((ax, ay), (bx, by)) = (centre(a), centre(b));
        let mark = marked.contains(&l);
        match state.status(l) {
            Status::Linked => {
                if mark {
                    s += &line((ax, ay), (bx, by), "#fff", 0.5);
                }
                let f = features.colour(a);
                let stroke = if f == 0 { "#666".to_string() } else { colour_of(f) };
                s += &line((ax, ay), (bx, by), &stroke, 0.34);
            }
            Status::Cut if cuts => {
                // the side between the two cells, at their middle
                let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let half = if mark { 0.45 } else { 0.2 };
                let (dx, dy) = if ay == by { (0.0, half) } else { (half, 0.0) };
                s += &line((mx - dx, my - dy), (mx + dx, my + dy), "#e33", if mark { 0.2 } else { 0.1 });
            }
            _ => {}
        }
    }
    for c in (0..g.cells()).filter(|&c| p.endpoint(c) > 0) {
        let f = p.endpoint(c);
        s += &circle(centre(c), 0.36, &colour_of(f));
        if let Some(name) = p.name(f) {
            let (x, y) = centre(c);
            s += &format!(
                "<text x=\"{x:.1}\" y=\"{:.2}\" font-size=\"0.4\" text-anchor=\"middle\" fill=\"#000\">{}</text>",
                y + 0.14,
                escape(&name.to_string())
            );
        }
    }
    s + "</svg>"
}

/// A page of boards, titled `title` with `summary` under it.
pub fn page(title: &str, summary: &str, boards: &[PageBoard]) -> String {
    let style = "body{font-family:sans-serif;margin:1.5em;color:#222} .b{margin:1em 0 2em} .b p{margin:0.2em 0}";
    let mut out = head(None, title, style, summary);
    for b in boards {
        out += &format!("<div class=\"b\"><h2>{}</h2>\n", escape(&b.heading));
        for note in &b.notes {
            out += &format!("<p>{}</p>\n", escape(note));
        }
        out += &svg(b.puzzle, b.solution);
        out += "</div>\n";
    }
    out + END
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;

    /// A board draws a disc per endpoint and, solved, a line per link in
    /// its path's colour; names and notes are escaped.
    #[test]
    fn pages_draw_endpoints_and_paths() {
        let p = parse_flow("AB\nAB\n", "t").unwrap().remove(0).1;
        let g = p.grid();
        let sol = Solution::new(vec![g.slot_between(0, 2).unwrap(), g.slot_between(1, 3).unwrap()]);
        let empty = svg(&p, None);
        assert_eq!((empty.matches("<circle").count(), empty.matches("<line").count()), (4, 0));
        let solved = svg(&p, Some(&sol));
        assert_eq!(solved.matches("<line").count(), 2);
        assert!(solved.contains(&format!("stroke=\"{}\"", colour_of(1))) && solved.contains(&colour_of(2)));
        let board = PageBoard { heading: "<t>".into(), notes: vec!["a & b".into()], puzzle: &p, solution: None };
        let html = page("x", "y", &[board]);
        assert!(html.contains("<h2>&lt;t&gt;</h2>") && html.contains("<p>a &amp; b</p>") && html.ends_with(END));
        assert_eq!(colour_of(17), "hsl(169, 70%, 55%)");
    }
}
