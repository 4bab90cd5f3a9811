//! A board as text: each cell its colour's character (`.` for an empty
//! cell), cells spaced, with `-` and `|` between linked cells.

use crate::domains::flow::formats::write::WriteError;
use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};

/// `p` as text; with a solution, every cell in its path's colour and the
/// links drawn. Fails if some colour has no character.
pub fn board(p: &Puzzle, solution: Option<&Solution>) -> Result<String, WriteError> {
    let g = p.grid();
    let mut named = p.clone();
    if !named.name_colours() {
        return Err(WriteError::TooManyColours(p.colours()));
    }
    let state = solution.map_or_else(|| State::start(g), |s| State::of_solution(g, s));
    let features = Features::of(p, &state);
    let colour = |c| if solution.is_some() { features.colour(c) } else { p.endpoint(c) };
    let name = |c| match colour(c) {
        0 => '.',
        f => named.name(f).unwrap_or('?'),
    };
    let linked = |a, b| g.slot_between(a, b).is_some_and(|s| state.status(s) == Status::Linked);
    let mut out = String::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            let c = g.cell(x, y);
            if x > 0 {
                out.push(if linked(c - 1, c) { '-' } else { ' ' });
            }
            out.push(name(c));
        }
        out.push('\n');
        if y + 1 < g.height() {
            let below: String = (0..g.width())
                .map(|x| if linked(g.cell(x, y), g.cell(x, y + 1)) { "|" } else { " " })
                .collect::<Vec<_>>()
                .join(" ");
            out += below.trim_end();
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;

    /// The puzzle alone, then solved with its links drawn.
    #[test]
    fn boards_are_drawn_with_their_links() {
        let p = parse_flow("A.B\n..B\nA..\n", "t").unwrap().remove(0).1;
        assert_eq!(board(&p, None).unwrap(), "A . B\n\n. . B\n\nA . .\n");
        let g = p.grid();
        let links = [(0, 1), (1, 4), (4, 3), (3, 6), (2, 5)];
        let sol = Solution::new(links.iter().map(|&(a, b)| g.slot_between(a, b).unwrap()).collect());
        assert_eq!(board(&p, Some(&sol)).unwrap(), "A-A B\n  | |\nA-A B\n|\nA . .\n");
    }
}
