//! Random puzzles with chosen kinds of constraint (`witness gen
//! --constraints`): a hidden path first, then constraints consistent with
//! it, so every puzzle made is solvable (the hidden path solves it).
//!
//! This module owns that generator; sizes, the goal and the hidden path
//! are drawn as Stevens' Algorithm 4 draws them (see `generate`).
//! Choices (documented here):
//! - **Region constraints** (triangles, separation squares, stars): `k ~
//!   U{1..max(1, ⌊wh/2⌋)}` placements are tried on squares in a random
//!   order, each of a kind drawn uniformly among the chosen region kinds. A
//!   triangle square gets the number of its edges on the path (skipped when
//!   0). Every region of the path gets a colour drawn from `1..=K`; a
//!   separation square takes its region's colour (skipped if a star of that
//!   colour is there). A star takes a colour drawn from `1..=K`: it pairs
//!   with the one mark of that colour already in its region, or else with a
//!   new partner on another free square of the region (a star, or a
//!   separation square when the colour is the region's and separation
//!   squares are chosen); skipped when neither works, or when the region
//!   already holds two marks of that colour.
//! - **Dots**: `U{1..max(1, ⌊len/4⌋)}` of the path's vertices (start and
//!   goal included) and edges, each a vertex or an edge with probability
//!   1/2, distinct.
//! - **Broken edges**: `U{1..max(1, ⌊f/4⌋)}` of the `f` edges off the path.
//! - A draw that places no constraint at all is drawn again.

use rand::seq::{index, SliceRandom};
use rand::Rng;

use super::walk::{random_goal, random_path};
use crate::domains::witness::board::areas::components;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::model::constraints::Constraints;
use crate::domains::witness::model::grid::{Grid, Vertex};
use crate::domains::witness::model::problem::Problem;

/// Which kinds of constraint to place, and how many colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kinds {
    /// Triangles.
    pub triangles: bool,
    /// Separation squares.
    pub colours: bool,
    /// Stars.
    pub stars: bool,
    /// Must-cross dots (vertices and edges).
    pub dots: bool,
    /// Broken edges.
    pub broken: bool,
    /// Colours to draw from (1..=255).
    pub colour_count: u8,
}

impl Kinds {
    /// Parses `triangles,colours,stars,dots,broken` (any non-empty subset,
    /// any order) with `colour_count` colours.
    pub fn parse(text: &str, colour_count: u8) -> Result<Kinds, String> {
        let mut k = Kinds { triangles: false, colours: false, stars: false, dots: false, broken: false, colour_count };
        for word in text.split(',').map(str::trim) {
            let flag = match word {
                "triangles" => &mut k.triangles,
                "colours" => &mut k.colours,
                "stars" => &mut k.stars,
                "dots" => &mut k.dots,
                "broken" => &mut k.broken,
                _ => {
                    return Err(format!(
                        "unknown constraint kind `{word}`: expected a comma-separated list of triangles, colours, stars, dots, broken"
                    ))
                }
            };
            if *flag {
                return Err(format!("constraint kind `{word}` is listed twice"));
            }
            *flag = true;
        }
        if colour_count == 0 {
            return Err("--colours 0: expected 1 to 255 colours".to_string());
        }
        Ok(k)
    }

    /// The kinds as the `--constraints` list names them.
    pub fn names(&self) -> String {
        let all = [
            (self.triangles, "triangles"),
            (self.colours, "colours"),
            (self.stars, "stars"),
            (self.dots, "dots"),
            (self.broken, "broken"),
        ];
        all.iter().filter(|(on, _)| *on).map(|(_, n)| *n).collect::<Vec<_>>().join(",")
    }
}

/// Most parts of a [`Mix`].
pub const MAX_PARTS: usize = 8;

/// Puzzles of several kinds in turn (a training or test set covering the
/// kinds in chosen proportions): the i-th puzzle made has the kinds of
/// part i mod the number of parts, so a part listed twice is made twice
/// as often.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mix {
    parts: [Kinds; MAX_PARTS],
    len: usize,
}

impl Mix {
    /// Parses one part per list, each `KINDS` (as [`Kinds::parse`] reads
    /// it, with `colour_count` colours) or `KINDS:N` (with N colours).
    pub fn parse(lists: &[String], colour_count: u8) -> Result<Mix, String> {
        if lists.is_empty() || lists.len() > MAX_PARTS {
            return Err(format!("expected 1 to {MAX_PARTS} lists of constraint kinds, got {}", lists.len()));
        }
        let mut parts = [Kinds::parse("triangles", 1)?; MAX_PARTS];
        for (part, list) in parts.iter_mut().zip(lists) {
            let (kinds, colours) = match list.rsplit_once(':') {
                Some((kinds, n)) => match n.trim().parse::<u8>() {
                    Ok(n) => (kinds, n),
                    Err(_) => return Err(format!("`{list}`: expected KINDS:N with N a number of colours, 1 to 255")),
                },
                None => (list.as_str(), colour_count),
            };
            *part = Kinds::parse(kinds, colours).map_err(|e| format!("`{list}`: {e}"))?;
        }
        Ok(Mix { parts, len: lists.len() })
    }

    /// The parts, in turn order.
    pub fn parts(&self) -> &[Kinds] {
        &self.parts[..self.len]
    }

    /// The kinds of the `i`-th puzzle.
    pub fn part(&self, i: usize) -> Kinds {
        self.parts[i % self.len]
    }

    /// Every kind some part has, with the most colours of any part.
    pub fn union(&self) -> Kinds {
        self.parts().iter().fold(self.parts[0], |a, b| Kinds {
            triangles: a.triangles || b.triangles,
            colours: a.colours || b.colours,
            stars: a.stars || b.stars,
            dots: a.dots || b.dots,
            broken: a.broken || b.broken,
            colour_count: a.colour_count.max(b.colour_count),
        })
    }

    /// The parts as `--constraints` options write them: `--constraints
    /// K:N` per part.
    pub fn flags(&self) -> String {
        let part = |k: &Kinds| format!("--constraints {}:{}", k.names(), k.colour_count);
        self.parts().iter().map(part).collect::<Vec<_>>().join(" ")
    }

    /// The parts in words, `K (N colours); K (N colours)`.
    pub fn describe(&self) -> String {
        let part = |k: &Kinds| format!("{}, {} colours", k.names(), k.colour_count);
        self.parts().iter().map(part).collect::<Vec<_>>().join("; ")
    }
}

/// The region constraints placed so far, per square and per region.
struct Placement<'a> {
    grid: Grid,
    regions: &'a [u8],
    used: &'a [u8],
    taken: Vec<bool>,
    /// Per square id: (colour, star) of its mark.
    marks: Vec<Option<(u8, bool)>>,
    constraints: Constraints,
}

impl Placement<'_> {
    /// Marks of `colour` in `region`, and whether a star is among them.
    fn count(&self, region: u8, colour: u8) -> (usize, bool) {
        let mine = (0..self.marks.len()).filter(|&s| self.regions[s] == region);
        let of = mine.filter_map(|s| self.marks[s]).filter(|&(c, _)| c == colour);
        of.fold((0, false), |(n, star), (_, st)| (n + 1, star || st))
    }

    fn put(&mut self, s: usize, colour: u8, star: bool) {
        let (c, r) = self.grid.square(s);
        self.taken[s] = true;
        self.marks[s] = Some((colour, star));
        let list = if star { &mut self.constraints.stars } else { &mut self.constraints.colours };
        list.push((c, r, colour));
    }

    /// Places a star of `colour` on free square `s`, with a partner if it
    /// needs one (`sep_colour` is its region's separation colour, `seps`
    /// whether separation squares may be placed).
    fn star<R: Rng>(&mut self, rng: &mut R, s: usize, colour: u8, sep_colour: u8, seps: bool) {
        let region = self.regions[s];
        match self.count(region, colour) {
            (1, false) => self.put(s, colour, true),
            (0, _) => {
                let free: Vec<usize> =
                    (0..self.taken.len()).filter(|&t| t != s && !self.taken[t] && self.regions[t] == region).collect();
                let Some(&partner) = free.choose(rng) else { return };
                let partner_star = !(seps && colour == sep_colour && rng.gen_bool(0.5));
                self.put(s, colour, true);
                self.put(partner, colour, partner_star);
            }
            _ => {}
        }
    }
}

/// A puzzle on a `w` x `h` grid with the constraints `kinds` chooses,
/// consistent with a random hidden path (which solves it).
pub fn from_random_path_kinds<R: Rng>(rng: &mut R, w: usize, h: usize, kinds: Kinds) -> Result<Puzzle, Problem> {
    let grid = Grid::new(w, h);
    loop {
        let goal = random_goal(rng, grid);
        let ids = random_path(rng, grid, 0, grid.vertex_id(goal));
        let blank = Puzzle::new(w, h, (0, 0), goal, &[])?;
        let vertices: Vec<Vertex> = ids.iter().map(|&v| grid.vertex(v)).collect();
        let hidden = Path::from_vertices(&blank, &vertices).expect("a random path is a path");
        let regions = components(grid, |e| !hidden.edges().contains(e));
        let used: Vec<u8> = (0..grid.num_squares()).map(|s| hidden.used_of(s)).collect();
        let mut place = Placement {
            grid,
            regions: &regions,
            used: &used,
            taken: vec![false; grid.num_squares()],
            marks: vec![None; grid.num_squares()],
            constraints: Constraints::default(),
        };
        region_constraints(rng, &mut place, kinds);
        let mut constraints = place.constraints;
        path_constraints(rng, grid, &hidden, kinds, &mut constraints);
        let empty = constraints == Constraints::default();
        let puzzle = Puzzle::with_constraints(w, h, (0, 0), goal, &constraints)?;
        debug_assert!(Path::from_vertices(&puzzle, &vertices).is_ok_and(|p| p.is_solution(&puzzle)));
        if !empty {
            return Ok(puzzle);
        }
    }
}

/// Places the triangles, separation squares and stars.
fn region_constraints<R: Rng>(rng: &mut R, place: &mut Placement<'_>, kinds: Kinds) {
    let grid = place.grid;
    let mut chosen = vec![];
    for (on, k) in [(kinds.triangles, 0), (kinds.colours, 1), (kinds.stars, 2)] {
        if on {
            chosen.push(k);
        }
    }
    if chosen.is_empty() {
        return;
    }
    let n = grid.num_squares();
    let sep_colour: Vec<u8> = (0..n).map(|_| rng.gen_range(1..=kinds.colour_count)).collect();
    let k = rng.gen_range(1..=(n / 2).max(1));
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    for &s in order.iter().take(k) {
        if place.taken[s] {
            continue;
        }
        let region = place.regions[s];
        let colour = sep_colour[usize::from(region)];
        match chosen[rng.gen_range(0..chosen.len())] {
            0 => {
                if place.used[s] > 0 {
                    let (c, r) = grid.square(s);
                    place.taken[s] = true;
                    place.constraints.triangles.push((c, r, place.used[s]));
                }
            }
            1 => {
                if !place.count(region, colour).1 {
                    place.put(s, colour, false);
                }
            }
            _ => {
                let star = rng.gen_range(1..=kinds.colour_count);
                place.star(rng, s, star, colour, kinds.colours);
            }
        }
    }
}

/// Places the dots (on the path) and the broken edges (off it).
fn path_constraints<R: Rng>(rng: &mut R, grid: Grid, hidden: &Path, kinds: Kinds, c: &mut Constraints) {
    let ends = |e: usize| {
        let (a, b) = grid.edge_ends(e);
        (grid.vertex(a), grid.vertex(b))
    };
    if kinds.dots {
        let vertices: Vec<Vertex> = hidden.vertices().collect();
        let edges: Vec<usize> = hidden.edges().iter().collect();
        let j = rng.gen_range(1..=(edges.len() / 4).max(1));
        for _ in 0..j {
            if rng.gen_bool(0.5) {
                let v = vertices[rng.gen_range(0..vertices.len())];
                if !c.dots.contains(&v) {
                    c.dots.push(v);
                }
            } else {
                let e = ends(edges[rng.gen_range(0..edges.len())]);
                if !c.edge_dots.contains(&e) {
                    c.edge_dots.push(e);
                }
            }
        }
    }
    if kinds.broken {
        let off: Vec<usize> = (0..grid.num_edges()).filter(|&e| !hidden.edges().contains(e)).collect();
        if !off.is_empty() {
            let j = rng.gen_range(1..=(off.len() / 4).max(1));
            c.broken.extend(index::sample(rng, off.len(), j).iter().map(|i| ends(off[i])));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    /// Parts read with their own colours or the default, taken in turn;
    /// the union has every kind and the most colours; bad lists say which.
    #[test]
    fn a_mix_reads_its_parts_and_takes_them_in_turn() {
        let mix = Mix::parse(&lists(&["triangles", "colours,dots:3"]), 2).unwrap();
        assert_eq!(mix.parts().len(), 2);
        assert_eq!((mix.part(0).triangles, mix.part(0).colour_count), (true, 2));
        assert_eq!((mix.part(1).colours, mix.part(1).dots, mix.part(1).colour_count), (true, true, 3));
        assert_eq!(mix.part(2), mix.part(0));
        let all = mix.union();
        assert!(all.triangles && all.colours && all.dots && !all.stars && !all.broken && all.colour_count == 3);
        assert_eq!(mix.flags(), "--constraints triangles:2 --constraints colours,dots:3");
        assert!(Mix::parse(&lists(&["colours:x"]), 2).unwrap_err().contains("`colours:x`"));
        assert!(Mix::parse(&lists(&["colours:0"]), 2).unwrap_err().contains("--colours 0"));
        assert!(Mix::parse(&lists(&["squares"]), 2).unwrap_err().contains("unknown constraint kind `squares`"));
        assert!(Mix::parse(&[], 2).is_err() && Mix::parse(&lists(&["stars"; 9]), 2).is_err());
    }
}
