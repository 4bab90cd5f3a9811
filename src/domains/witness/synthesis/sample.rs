//! Random completable states with every constraint kind, for the synthesis
//! engine's sample tier and for tests: given a route (a start-to-goal path
//! from any start), constraints that the route satisfies. (Training puzzles
//! come from the model's generator, `generate_kinds`, whose paths start at
//! the corner; the sample tier must reach every start and every prefix.)
//!
//! Triangles go on a random share of the squares the route touches (as
//! many as it uses); per region the route cuts, separation squares of one
//! colour and pairs of stars of another (or one star beside a single
//! separation square of its colour), each on a random free square; dots on
//! a random share of the route's vertices and edges; broken edges on a
//! random share of the others. Colours are 1 to `colours`. So the route is
//! a solution and every prefix of it completable; any completable state of
//! a puzzle whose constraints are of these kinds can be drawn (the shares
//! are random, down to none).

use rand::Rng;

use crate::domains::witness::board::areas::components;
use crate::domains::witness::formats::puzzle::{Constraints, Puzzle};
use crate::domains::witness::make::generate::random_path;
use crate::domains::witness::make::generate_kinds::Kinds;
use crate::domains::witness::model::grid::{BitSet, Grid};

/// Every kind, with `colours` colours.
pub fn all_kinds(colours: u8) -> Kinds {
    Kinds { triangles: true, colours: true, stars: true, dots: true, broken: true, colour_count: colours.max(1) }
}

/// Constraints that `route` (vertex ids of a start-to-goal path on `grid`)
/// satisfies, drawn as the module says.
pub fn constraints_on_route<R: Rng>(rng: &mut R, grid: Grid, route: &[usize], kinds: Kinds) -> Constraints {
    let mut on_route = BitSet::EMPTY;
    let mut used = vec![0u8; grid.num_squares()];
    for pair in route.windows(2) {
        on_route.insert(grid.edge_between(pair[0], pair[1]).expect("a route steps between neighbours"));
        for s in grid.edge_squares(pair[0], pair[1]) {
            used[s] += 1;
        }
    }
    let mut out = Constraints::default();
    let mut taken = vec![false; grid.num_squares()];
    if kinds.triangles {
        let share = rng.gen_range(0.0..=1.0);
        for s in (0..used.len()).filter(|&s| used[s] > 0) {
            if rng.gen_bool(share) {
                let (c, r) = grid.square(s);
                out.triangles.push((c, r, used[s]));
                taken[s] = true;
            }
        }
    }
    if kinds.colours || kinds.stars {
        place_marks(rng, grid, &on_route, &mut taken, kinds, &mut out);
    }
    let vertex = |v: usize| grid.vertex(v);
    if kinds.dots {
        let share = rng.gen_range(0.0..=0.5);
        out.dots = route.iter().filter(|_| rng.gen_bool(share)).map(|&v| vertex(v)).collect();
        out.edge_dots =
            route.windows(2).filter(|_| rng.gen_bool(share)).map(|p| (vertex(p[0]), vertex(p[1]))).collect();
    }
    if kinds.broken {
        let share = rng.gen_range(0.0..=0.5);
        for e in (0..grid.num_edges()).filter(|&e| !on_route.contains(e)) {
            if rng.gen_bool(share) {
                let (a, b) = grid.edge_ends(e);
                out.broken.push((vertex(a), vertex(b)));
            }
        }
    }
    out
}

/// Separation squares and stars per region of the route (`on_route`: its
/// edges), on squares not `taken`.
fn place_marks<R: Rng>(
    rng: &mut R,
    grid: Grid,
    on_route: &BitSet,
    taken: &mut [bool],
    kinds: Kinds,
    out: &mut Constraints,
) {
    let labels = components(grid, |e| !on_route.contains(e));
    let share = rng.gen_range(0.3..=1.0);
    for region in 0..grid.num_squares() {
        let mut free: Vec<usize> =
            (0..grid.num_squares()).filter(|&s| labels[s] as usize == region && !taken[s]).collect();
        if free.is_empty() || !rng.gen_bool(share) {
            continue;
        }
        let mut take = |rng: &mut R, free: &mut Vec<usize>| {
            let s = free.swap_remove(rng.gen_range(0..free.len()));
            taken[s] = true;
            grid.square(s)
        };
        let paint = rng.gen_range(1..=kinds.colour_count);
        let separations = if kinds.colours { rng.gen_range(0..=free.len().min(3)) } else { 0 };
        for _ in 0..separations {
            let (c, r) = take(rng, &mut free);
            out.colours.push((c, r, paint));
        }
        if !kinds.stars {
            continue;
        }
        if separations == 1 && !free.is_empty() && rng.gen_bool(0.3) {
            let (c, r) = take(rng, &mut free);
            out.stars.push((c, r, paint));
        } else if free.len() >= 2 && rng.gen_bool(0.5) {
            // a pair of stars of a colour the region's separation squares
            // do not have (there is one when there are two colours or none)
            let star = rng.gen_range(1..=kinds.colour_count);
            if separations == 0 || star != paint {
                for _ in 0..2 {
                    let (c, r) = take(rng, &mut free);
                    out.stars.push((c, r, star));
                }
            }
        }
    }
}

/// A random route on `grid` (vertex ids): a uniform start, a uniform border
/// goal other than it, and a random path between them ([`random_path`]).
pub fn random_route<R: Rng>(rng: &mut R, grid: Grid) -> Vec<usize> {
    let start = rng.gen_range(0..grid.num_vertices());
    let goals: Vec<usize> =
        (0..grid.num_vertices()).filter(|&v| v != start && grid.on_border(grid.vertex(v))).collect();
    let goal = goals[rng.gen_range(0..goals.len())];
    random_path(rng, grid, start, goal)
}

/// A `w` x `h` puzzle drawn with `kinds` and its hidden solution (vertex
/// ids): a uniform start, a uniform border goal, a random route between
/// them ([`random_path`]) and constraints it satisfies
/// ([`constraints_on_route`]).
pub fn puzzle_around_route<R: Rng>(rng: &mut R, w: usize, h: usize, kinds: Kinds) -> (Puzzle, Vec<usize>) {
    let grid = Grid::new(w, h);
    let route = random_route(rng, grid);
    let c = constraints_on_route(rng, grid, &route, kinds);
    let (start, goal) = (grid.vertex(route[0]), grid.vertex(route[route.len() - 1]));
    let puzzle = Puzzle::with_constraints(w, h, start, goal, &c).expect("constraints drawn on the grid are valid");
    (puzzle, route)
}
