//! Solution information (MSI, TSI) of Witness players against hand-worked
//! values, MUSE's recursive definition, a brute-force enumerator of every
//! simple path, and the theorems that bind the players (TSI <= MSI; a
//! sound rule never raises TSI; the perfect player needs no information).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path as FsPath;
use stratsynth::domains::witness::board::oracle::{count_solutions, Oracle};
use stratsynth::domains::witness::formats::puzzle::Constraints;
use stratsynth::domains::witness::make::generate::{Algorithm, Generator, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::make::generate_kinds::Kinds;
use stratsynth::domains::witness::play::information::{information, odds, Enumeration, Limits, Odds, Player};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::predicates::baseline;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::stop::Stop;

use crate::random::random_puzzle;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Rules that are no sound strategy but a policy all the same, reading
/// what the memo key must then hold: `free` of squares the head can no
/// longer reach, and the path's length.
const ODD_POLICIES: &str = "
def loose:
    with s = arbitrary(square):
    if free(s) > 0 and live(s) = 0 and path_length > 9 and used(s) = triangles(s):
    then prune
def nine:
    with s = arbitrary(square):
    if path_length = 11 and used(s) = 0:
    then prune
";

/// The set of a rule file's rules, then each rule alone.
fn rules(file: &str) -> Vec<RuleSetPredicate> {
    let text = std::fs::read_to_string(FsPath::new(ROOT).join(file)).unwrap();
    rules_of(&text, file)
}

fn rules_of(text: &str, file: &str) -> Vec<RuleSetPredicate> {
    let domain = Witness::new();
    let rules = parse_rules(text, file, domain.schema()).unwrap();
    let mut sets = vec![RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules.clone())];
    sets.extend(rules.into_iter().map(|r| RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, vec![r])));
    sets
}

fn exact(puzzle: &Puzzle, player: &Player) -> Odds {
    odds(puzzle, player, &Limits::nodes(0), &mut |_| {}).unwrap()
}

#[test]
fn shen_figure_3_2() {
    // policy [1/3, 2/3] at s0; P(g0 | s1) = 3/4, P(g1 | s2) = 1/2
    let child = |p: BigRational| Odds { total: p.clone(), best: p, goals: 1 };
    let o = Odds::combine(&[q(1, 3), q(2, 3)], &[child(q(3, 4)), child(q(1, 2))]);
    assert_eq!(o.total, q(7, 12));
    assert!((o.tsi().unwrap() + (7.0f64 / 12.0).log2()).abs() < 1e-12);
    assert_eq!(o.best, q(1, 3));
    assert_eq!(information(&BigRational::zero()), None);
    assert_eq!(information(&BigRational::one()), Some(0.0));
}

#[test]
fn hand_worked_puzzles() {
    // Stevens' Fig. 2.1: one solution (0,0) (1,0) (2,0) (2,1).
    let fig = Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap();
    // uniform: 1/2 at the start, 1/2 at (1,0) (right or up), 1 at (2,0)
    let u = exact(&fig, &Player::Uniform);
    assert_eq!((u.total.clone(), u.best.clone(), u.goals), (q(1, 4), q(1, 4), 1));
    // local: up from (1,0) gives square (0,0) a second edge: CANNOT_TAKE
    let l = exact(&fig, &Player::Local);
    assert_eq!((l.total.clone(), l.best.clone()), (q(1, 2), q(1, 2)));
    assert_eq!((l.msi(), l.tsi()), (Some(1.0), Some(1.0)));
    // perfect: up from the start is incompletable
    let p = exact(&fig, &Player::Perfect);
    assert_eq!((p.msi(), p.tsi()), (Some(0.0), Some(0.0)));

    // an empty square, corner to corner: two solutions of 1/2 each
    let open = Puzzle::new(1, 1, (0, 0), (1, 1), &[]).unwrap();
    let u = exact(&open, &Player::Uniform);
    assert_eq!((u.msi(), u.tsi(), u.goals), (Some(1.0), Some(0.0), 2));

    // every path from (0,0) to (1,1) uses two sides of the square: none is a solution
    let none = Puzzle::new(1, 1, (0, 0), (1, 1), &[(0, 0, 1)]).unwrap();
    for player in [Player::Uniform, Player::Local, Player::Perfect] {
        let o = exact(&none, &player);
        assert_eq!((o.msi(), o.tsi(), o.goals), (None, None, 0));
    }

    // 2x1, start (1,0) (bottom middle), goal (1,1) (top middle), one triangle
    // in the left square: of the three first moves, up (the left square's
    // right side) is the one solution; right then up then left uses no side
    // of it, left then up then right three.
    let tri = Puzzle::new(2, 1, (1, 0), (1, 1), &[(0, 0, 1)]).unwrap();
    assert_eq!(count_solutions(&tri), 1);
    let u = exact(&tri, &Player::Uniform);
    assert_eq!((u.total.clone(), u.best.clone()), (q(1, 3), q(1, 3)));
    // with 3 triangles, left-up-right is the one solution: 1/3 at the start,
    // then (0,0) and (0,1) have one move each; so TSI = MSI = log2 3
    let tri3 = Puzzle::new(2, 1, (1, 0), (1, 1), &[(0, 0, 3)]).unwrap();
    let u = exact(&tri3, &Player::Uniform);
    assert_eq!((u.total.clone(), u.goals), (q(1, 3), 1));
    // local: the right move and the up move leave the left square short but
    // do not overfill it: still 1/3
    assert_eq!(exact(&tri3, &Player::Local).total, q(1, 3));
}

/// MUSE by its recursive definition (Shen §3.1): 0 at a goal state, ∞ at a
/// failed or dead end, else log2 |A(s)| + the least MUSE of a successor.
fn muse(puzzle: &Puzzle, path: &mut Path) -> f64 {
    if path.head() == puzzle.goal() {
        return if path.is_solution(puzzle) { 0.0 } else { f64::INFINITY };
    }
    let moves: Vec<usize> = path.successor_ids().collect();
    let mut best = f64::INFINITY;
    for &v in &moves {
        path.push_id(v);
        best = best.min(muse(puzzle, path));
        path.pop();
    }
    (moves.len() as f64).log2() + best
}

/// Every simple path, no memo and no cuts: Σ π(g), max π(g) and the goals
/// reached, for a policy given as "is the move to this path CANNOT_TAKE".
fn brute(puzzle: &Puzzle, path: &mut Path, p: &BigRational, forbidden: &mut dyn FnMut(&Path) -> bool, out: &mut Odds) {
    if path.head() == puzzle.goal() {
        if path.is_solution(puzzle) {
            out.total += p;
            if *p > out.best {
                out.best = p.clone();
            }
            out.goals += 1;
        }
        return;
    }
    let mut allowed = vec![];
    for v in path.successor_ids().collect::<Vec<_>>() {
        path.push_id(v);
        if !forbidden(path) {
            allowed.push(v);
        }
        path.pop();
    }
    let share = p / BigInt::from(allowed.len().max(1));
    for v in allowed {
        path.push_id(v);
        brute(puzzle, path, &share, forbidden, out);
        path.pop();
    }
}

fn brute_odds(puzzle: &Puzzle, forbidden: &mut dyn FnMut(&Path) -> bool) -> Odds {
    let mut out = Odds::zero();
    brute(puzzle, &mut Path::new(puzzle), &BigRational::one(), forbidden, &mut out);
    out
}

/// Random puzzles up to 3x3, solvable or not, with random start and goal.
fn small_puzzles(n: usize, seed: u64) -> Vec<Puzzle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|i| random_puzzle(&mut rng, 1 + i % 3, 1 + (i / 3) % 3, 0.5)).collect()
}

#[test]
fn the_enumeration_agrees_with_brute_force_for_every_player() {
    let sets = [
        rules("rules/witness/learned.rules"),
        rules("rules/witness/handwritten.rules"),
        rules("rules/witness/region.rules"),
        rules_of(ODD_POLICIES, "odd"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>();
    let (mut solvable, mut checked) = (0, 0);
    for puzzle in small_puzzles(60, 7) {
        solvable += usize::from(count_solutions(&puzzle) > 0);
        assert_eq!(exact(&puzzle, &Player::Uniform), brute_odds(&puzzle, &mut |_| false), "{}", puzzle.to_ron());
        assert_eq!(
            exact(&puzzle, &Player::Local),
            brute_odds(&puzzle, &mut |p| baseline(&puzzle, p)),
            "{}",
            puzzle.to_ron()
        );
        let mut oracle = Oracle::new(&puzzle);
        assert_eq!(
            exact(&puzzle, &Player::Perfect),
            brute_odds(&puzzle, &mut |p| !oracle.completable(p)),
            "{}",
            puzzle.to_ron()
        );
        for set in &sets {
            let fast = exact(&puzzle, &Player::Rules(set));
            assert_eq!(fast, brute_odds(&puzzle, &mut |p| set.flags(&puzzle, p)), "{}", puzzle.to_ron());
            checked += 1;
        }
    }
    assert!(solvable > 15 && checked > 100, "{solvable} {checked}");
}

#[test]
fn uniform_msi_is_muse_and_the_theorems_hold() {
    let sets = [rules("rules/witness/learned.rules"), rules("rules/witness/handwritten.rules")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut solvable = 0;
    for i in 0..40 {
        let puzzle = random_puzzle(&mut rng, 2 + i % 3, 2 + (i / 3) % 3, 0.4);
        let uniform = exact(&puzzle, &Player::Uniform);
        let m = muse(&puzzle, &mut Path::new(&puzzle));
        match uniform.msi() {
            Some(msi) => assert!((msi - m).abs() < 1e-9, "{msi} {m} {}", puzzle.to_ron()),
            None => assert!(m.is_infinite()),
        }
        let local = exact(&puzzle, &Player::Local);
        let perfect = exact(&puzzle, &Player::Perfect);
        let tsi = |o: &Odds| o.tsi().unwrap_or(f64::INFINITY);
        let msi = |o: &Odds| o.msi().unwrap_or(f64::INFINITY);
        assert_eq!(uniform.goals, count_solutions(&puzzle));
        if uniform.goals == 0 {
            assert!([&local, &perfect].iter().all(|o| o.tsi().is_none()));
            continue;
        }
        solvable += 1;
        // a sound policy only forbids moves from which no goal is reached
        assert!(local.total >= uniform.total && perfect.total.is_one(), "{}", puzzle.to_ron());
        assert_eq!(perfect.tsi(), Some(0.0));
        for o in [&uniform, &local, &perfect] {
            assert!(tsi(o) <= msi(o) + 1e-12);
        }
        for set in &sets {
            let with = exact(&puzzle, &Player::Rules(set));
            assert_eq!(with.goals, uniform.goals, "sound rules keep every solution");
            assert!(with.total >= local.total && with.total <= perfect.total, "{}", puzzle.to_ron());
            assert!(tsi(&with) <= msi(&with) + 1e-12);
        }
    }
    assert!(solvable > 10, "{solvable}");
}

#[test]
fn a_budget_gives_up_beyond_five_by_five_only() {
    let big = Puzzle::new(6, 6, (0, 0), (6, 6), &[]).unwrap();
    let e = odds(&big, &Player::Uniform, &Limits::nodes(1000), &mut |_| {}).unwrap_err();
    assert_eq!((e.nodes, e.ran_out), (1001, Stop::Nodes));
    let small = Puzzle::new(3, 3, (0, 0), (3, 3), &[(1, 1, 2)]).unwrap();
    assert!(odds(&small, &Player::Uniform, &Limits::nodes(1), &mut |_| {}).is_ok());
    let mut calls = 0;
    let mut count = |_| calls += 1;
    let mut e = Enumeration::new(&small, &Player::Uniform, None, &mut count);
    assert!(e.run().is_ok() && e.nodes() > 10);
}

/// A deadline stops an enumeration at any size (the exact ones too), and
/// says the time ran out, not the states; one far ahead changes nothing.
#[test]
fn a_deadline_gives_up_at_any_size_and_says_so() {
    let small = Puzzle::new(3, 3, (0, 0), (3, 3), &[(1, 1, 2)]).unwrap();
    let past = Some(std::time::Instant::now());
    let e = odds(&small, &Player::Uniform, &Limits { deadline: past, ..Limits::nodes(1) }, &mut |_| {}).unwrap_err();
    assert_eq!(e.ran_out, Stop::Timeout);
    // 8x8 with no constraint: millions of states; 50 ms stops it
    let big = Puzzle::new(8, 8, (0, 0), (8, 8), &[]).unwrap();
    let started = std::time::Instant::now();
    let soon = Some(started + std::time::Duration::from_millis(50));
    let e =
        odds(&big, &Player::Uniform, &Limits { deadline: soon, ..Limits::nodes(u64::MAX) }, &mut |_| {}).unwrap_err();
    assert_eq!(e.ran_out, Stop::Timeout);
    assert!(e.nodes > 0 && started.elapsed().as_millis() < 1000, "{e:?} {:?}", started.elapsed());
    let later = Some(started + std::time::Duration::from_secs(600));
    assert_eq!(
        odds(&small, &Player::Uniform, &Limits { deadline: later, ..Limits::nodes(1) }, &mut |_| {}).unwrap(),
        exact(&small, &Player::Uniform)
    );
}

/// A memo that reaches its memory budget starts again empty: the values
/// stay exact, the states forgotten are enumerated again (more expanded
/// states), and a budget of expanded states still stops the enumeration.
#[test]
fn a_memo_over_its_memory_budget_keeps_values_exact() {
    let puzzle = Puzzle::new(4, 4, (0, 0), (4, 4), &[(1, 1, 2), (2, 2, 1), (0, 3, 3)]).unwrap();
    for player in [Player::Uniform, Player::Local] {
        let mut quiet = |_| {};
        let mut whole = Enumeration::new(&puzzle, &player, None, &mut quiet);
        let exact = whole.run().unwrap();
        let mut quiet = |_| {};
        let mut small = Enumeration::new(&puzzle, &player, None, &mut quiet).with_memo_budget(20_000);
        assert_eq!(small.run().unwrap(), exact);
        assert!(small.nodes() > whole.nodes(), "{} vs {}", small.nodes(), whole.nodes());
        let mut quiet = |_| {};
        let mut bounded = Enumeration::new(&puzzle, &player, Some(whole.nodes()), &mut quiet).with_memo_budget(20_000);
        assert_eq!(bounded.run().unwrap_err().nodes, whole.nodes() + 1);
    }
}

/// On larger grids paths leave pockets of unvisited vertices behind, so
/// equal heads and head components come with different lengths and
/// different `free` of the squares left behind: the memo must tell them
/// apart for policies that read them.
#[test]
fn policies_reading_length_and_free_agree_with_brute_force_on_larger_grids() {
    let sets = rules_of(ODD_POLICIES, "odd");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..6 {
        let puzzle = random_puzzle(&mut rng, 4, 4, 0.3);
        for set in &sets {
            assert_eq!(
                exact(&puzzle, &Player::Rules(set)),
                brute_odds(&puzzle, &mut |p| set.flags(&puzzle, p)),
                "{}",
                puzzle.to_ron()
            );
        }
    }
}

/// A puzzle with any constraints (docs/reference/formats.md lists).
fn full(w: usize, h: usize, start: (usize, usize), goal: (usize, usize), c: Constraints) -> Puzzle {
    Puzzle::with_constraints(w, h, start, goal, &c).unwrap()
}

#[test]
fn hand_worked_puzzles_with_colours_stars_and_dots() {
    // 2x1, start (0,0), goal (2,0). Six ways to move: right-right ends at once;
    // right-up then left is a dead end, right-up-right-down; up-right then
    // down-right or right-down. Only the two that use the middle edge
    // (1,0)-(1,1) separate the squares: right-up-right-down (1/2 * 1/2 * 1/2)
    // and up-right-down-right (1/2 * 1 * 1/2).
    let two = |colours, stars| Constraints { colours, stars, ..Constraints::default() };
    let bw = full(2, 1, (0, 0), (2, 0), two(vec![(0, 0, 1), (1, 0, 2)], vec![]));
    assert_eq!(count_solutions(&bw), 2);
    for player in [Player::Uniform, Player::Local] {
        let o = exact(&bw, &player);
        assert_eq!((o.total.clone(), o.best.clone(), o.goals), (q(3, 8), q(1, 4), 2));
    }
    // perfect: right-right and the dead end are CANNOT_TAKE, and so is up-right-right
    let p = exact(&bw, &Player::Perfect);
    assert_eq!((p.total.clone(), p.best.clone()), (q(1, 1), q(1, 2)));
    assert_eq!((p.msi(), p.tsi()), (Some(1.0), Some(0.0)));

    // two stars of one colour (or a star and a separation square of its
    // colour) must share their region: the two paths that leave the middle
    // edge alone, right-right (1/4) and up-right-right-down (1/4)
    for c in [two(vec![], vec![(0, 0, 1), (1, 0, 1)]), two(vec![(1, 0, 1)], vec![(0, 0, 1)])] {
        let stars = full(2, 1, (0, 0), (2, 0), c);
        let o = exact(&stars, &Player::Uniform);
        assert_eq!((o.total.clone(), o.best.clone(), o.goals), (q(1, 2), q(1, 4), 2));
        assert_eq!((o.msi(), o.tsi()), (Some(2.0), Some(1.0)));
    }
    // a star with a separation square of another colour: never two of its colour
    let lonely = full(2, 1, (0, 0), (2, 0), two(vec![(1, 0, 2)], vec![(0, 0, 1)]));
    for player in [Player::Uniform, Player::Local, Player::Perfect] {
        let o = exact(&lonely, &player);
        assert_eq!((o.msi(), o.tsi(), o.goals), (None, None, 0));
    }

    // one square corner to corner: a dot at (1,0), or an edge dot on the
    // left side, leaves one of the two paths (1/2 each)
    let dot = full(1, 1, (0, 0), (1, 1), Constraints { dots: vec![(1, 0)], ..Constraints::default() });
    let edge = full(1, 1, (0, 0), (1, 1), Constraints { edge_dots: vec![((0, 0), (0, 1))], ..Constraints::default() });
    for p in [&dot, &edge] {
        let o = exact(p, &Player::Uniform);
        assert_eq!((o.msi(), o.tsi(), o.goals), (Some(1.0), Some(1.0), 1));
        assert_eq!(exact(p, &Player::Perfect).msi(), Some(0.0));
    }
    // a broken bottom edge is no move: one move at the start, nothing to learn
    let broken = Constraints { broken: vec![((0, 0), (1, 0))], ..Constraints::default() };
    let cut = full(1, 1, (0, 0), (1, 1), broken.clone());
    let o = exact(&cut, &Player::Uniform);
    assert_eq!((o.msi(), o.tsi(), o.goals), (Some(0.0), Some(0.0), 1));
    // ... and with the dot at (1,0) there is no solution at all
    let walled = full(1, 1, (0, 0), (1, 1), Constraints { dots: vec![(1, 0)], ..broken });
    assert_eq!(exact(&walled, &Player::Uniform).goals, 0);
}

#[test]
fn the_enumeration_agrees_with_brute_force_on_every_kind_of_constraint() {
    let sets = [rules("rules/witness/learned.rules"), rules("rules/witness/region.rules")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    let kinds = Kinds::parse("triangles,colours,stars,dots,broken", 2).unwrap();
    let config = GeneratorConfig::new(SizeRange::new((1, 1), (3, 3)).unwrap(), Algorithm::Kinds(kinds));
    let puzzles = Generator::new(config, 3).generate(40).unwrap();
    let mut rules_checked = 0;
    for puzzle in &puzzles {
        assert_eq!(exact(puzzle, &Player::Uniform), brute_odds(puzzle, &mut |_| false), "{}", puzzle.to_ron());
        assert_eq!(
            exact(puzzle, &Player::Local),
            brute_odds(puzzle, &mut |p| baseline(puzzle, p)),
            "{}",
            puzzle.to_ron()
        );
        let mut oracle = Oracle::new(puzzle);
        assert_eq!(
            exact(puzzle, &Player::Perfect),
            brute_odds(puzzle, &mut |p| !oracle.completable(p)),
            "{}",
            puzzle.to_ron()
        );
        for set in &sets {
            assert_eq!(
                exact(puzzle, &Player::Rules(set)),
                brute_odds(puzzle, &mut |p| set.flags(puzzle, p)),
                "{}",
                puzzle.to_ron()
            );
            rules_checked += 1;
        }
    }
    assert!(puzzles.iter().filter(|p| p.has_marks()).count() > 15);
    assert!(rules_checked > 100, "{rules_checked}");
}
