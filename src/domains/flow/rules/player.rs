//! A rule set applied to a Flow state (docs/reference/language.md, "Domain: Flow boards"): in
//! rounds, every rule on the state at the start of the round, in the eight
//! orientations of the board, every link and cut found applied at once,
//! until a round decides nothing or a rule prunes. A round that would both
//! link and cut one slot, an action out of range, or one that contradicts
//! the state (or a known solution) shows an unsound rule: reported, never
//! applied.

use thiserror::Error;

use super::orient::{orient, Oriented, ALL};
use super::view::{Conclusion, Layout};
use crate::domains::flow::model::grid::{Cell, Grid, Slot};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::dsl::ast::Rule;
use crate::dsl::eval::ActionValue;
use crate::dsl::plan::Plans;
use crate::dsl::schema::Schema;

/// One slot decided in a round, by the first rule (in file order) that
/// decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The round (from 1).
    pub round: usize,
    /// The rule's index in the rule set.
    pub rule: usize,
    /// The slot.
    pub slot: Slot,
    /// Linked or cut.
    pub status: Status,
}

/// What a rule set did to a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The state at the end.
    pub state: State,
    /// Rounds that decided something.
    pub rounds: usize,
    /// The slots decided, in the order of the rounds (within a round, by slot).
    pub steps: Vec<Step>,
    /// The first rule (in file order) that pruned, if one did.
    pub pruned: Option<usize>,
    /// Whether the deadline stopped the play before a round decided nothing.
    pub stopped: bool,
}

impl Play {
    /// The coverage: slots the rules decided.
    pub fn decided(&self) -> usize {
        self.steps.len()
    }

    /// Whether every slot is decided at the end (solved by the rules).
    pub fn solved(&self) -> bool {
        self.state.statuses().iter().all(|&s| s != Status::Open)
    }
}

/// A rule shown unsound by what it concluded on a state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("rule `{rule}` is unsound: {what} (slot {slot:?} between cells {cells:?} as (x, y))")]
pub struct Unsound {
    /// The rule's name.
    pub rule: String,
    /// What it concluded that cannot be.
    pub what: String,
    /// The slot, if the conclusion has one in range.
    pub slot: Option<Slot>,
    /// The two cells it named, as `(x, y)`.
    pub cells: [(usize, usize); 2],
}

/// A rule set ready to play Flow states.
pub struct Player<'r> {
    rules: &'r [Rule],
    plans: Plans<'r>,
    layout: Layout,
}

impl<'r> Player<'r> {
    /// A player of `rules`, read with `schema` (the Flow schema, from `path`).
    pub fn new(rules: &'r [Rule], schema: &Schema, path: &str) -> Result<Player<'r>, super::view::NotFlow> {
        Ok(Player { rules, plans: Plans::new(rules, schema.size_feature), layout: Layout::new(schema, path)? })
    }

    /// Every conclusion of every rule on `state` of puzzle `p`, in the
    /// eight orientations, told to `f` with the rule's index on the
    /// board's cells, until `f` answers false.
    fn each_conclusion(&self, p: &Puzzle, state: &State, mut f: impl FnMut(usize, Concluded) -> bool) {
        let g = p.grid();
        for o in ALL {
            let seen = orient(p, state, o);
            let view = self.layout.view(&seen.puzzle, &seen.state);
            let mut going = true;
            self.plans.each_action(&view, None, |i, args| {
                if !going {
                    return;
                }
                let i = i as usize;
                let action = ActionValue { action: self.rules[i].action.id, args: args.to_vec() };
                let cells = || [args[0], args[1]].map(|c| g.xy(seen.back(c as usize)));
                let concluded = match self.layout.conclusion(&seen.puzzle, &action) {
                    Some(Conclusion::Prune) => Concluded::Prune,
                    None => Concluded::OutOfRange(cells()),
                    Some(Conclusion::Link(c, d)) => {
                        Concluded::Decide(back_slot(g, &seen, c, d), Status::Linked, cells())
                    }
                    Some(Conclusion::Cut(c, d)) => Concluded::Decide(back_slot(g, &seen, c, d), Status::Cut, cells()),
                };
                going = f(i, concluded);
            });
            if !going {
                return;
            }
        }
    }

    /// What each rule concludes on `state` of `p` in one round (every
    /// orientation), each rule on its own: per rule the open slots it
    /// decides (slot, status; sorted, each once) and whether it prunes,
    /// or the first fault that shows it unsound (a link or cut out of
    /// range, or one contradicting the state; then what it decides is
    /// left out).
    pub fn round(&self, p: &Puzzle, state: &State) -> Round {
        let n = self.rules.len();
        let mut round = Round { decided: vec![vec![]; n], pruned: vec![false; n], unsound: vec![None; n] };
        self.each_conclusion(p, state, |i, concluded| {
            if round.unsound[i].is_some() {
                return true;
            }
            match concluded {
                Concluded::Prune => round.pruned[i] = true,
                Concluded::OutOfRange(cells) => {
                    let what = "a link or cut between cells that are not side by side";
                    round.unsound[i] = Some(self.unsound(i, what, None, cells))
                }
                Concluded::Decide(s, status, cells) => match state.status(s) {
                    Status::Open => round.decided[i].push((s, status)),
                    now if now == status => {}
                    _ => round.unsound[i] = Some(self.unsound(i, "it contradicts the state", Some(s), cells)),
                },
            }
            true
        });
        for (d, unsound) in round.decided.iter_mut().zip(&round.unsound) {
            if unsound.is_some() {
                d.clear();
            }
            d.sort_unstable_by_key(|&(s, _)| s);
            d.dedup();
        }
        round
    }

    /// The error saying rule `i` concluded `what`.
    fn unsound(&self, i: usize, what: &str, slot: Option<Slot>, cells: [(usize, usize); 2]) -> Unsound {
        Unsound { rule: self.rules[i].name.clone(), what: what.to_string(), slot, cells }
    }

    /// Plays the rules on `start` of puzzle `p` until a round decides
    /// nothing or a rule prunes. With `solution`, a link or cut it
    /// disagrees with shows an unsound rule too.
    pub fn play(&self, p: &Puzzle, start: &State, solution: Option<&Solution>) -> Result<Play, Unsound> {
        self.play_until(p, start, solution, None)
    }

    /// [`Player::play`], stopped (`stopped` set) before a round that
    /// starts past `deadline` ([`crate::deadline::past`]: or its work given up).
    pub fn play_until(
        &self,
        p: &Puzzle,
        start: &State,
        solution: Option<&Solution>,
        deadline: Option<std::time::Instant>,
    ) -> Result<Play, Unsound> {
        let g = p.grid();
        let mut play = Play { state: start.clone(), rounds: 0, steps: vec![], pruned: None, stopped: false };
        loop {
            if crate::deadline::past(deadline) {
                play.stopped = true;
                return Ok(play);
            }
            // per slot, the first (rule, status) found this round
            let mut found: Vec<Option<(usize, Status)>> = vec![None; g.slots()];
            let mut pruned: Option<usize> = None;
            let mut fault: Option<Unsound> = None;
            let state = &play.state;
            self.each_conclusion(p, state, |i, concluded| {
                let (s, status, cells) = match concluded {
                    Concluded::Prune => {
                        pruned = Some(pruned.map_or(i, |r| r.min(i)));
                        return true;
                    }
                    Concluded::OutOfRange(cells) => {
                        fault =
                            Some(self.unsound(i, "a link or cut between cells that are not side by side", None, cells));
                        return false;
                    }
                    Concluded::Decide(s, status, cells) => (s, status, cells),
                };
                let now = state.status(s);
                let disagrees =
                    solution.is_some_and(|sol| (sol.links().binary_search(&s).is_ok()) != (status == Status::Linked));
                let what = if now != Status::Open && now != status {
                    Some("it contradicts the state")
                } else if disagrees {
                    Some("it disagrees with the solution")
                } else if now == Status::Open {
                    match found[s] {
                        Some((_, other)) if other != status => {
                            Some("another rule decides the slot the other way this round")
                        }
                        Some((r, _)) if r <= i => None,
                        _ => {
                            found[s] = Some((i, status));
                            None
                        }
                    }
                } else {
                    None
                };
                if let Some(what) = what {
                    fault = Some(self.unsound(i, what, Some(s), cells));
                }
                fault.is_none()
            });
            if let Some(f) = fault {
                return Err(f);
            }
            if pruned.is_some() {
                play.pruned = pruned;
                return Ok(play);
            }
            let decided: Vec<(Slot, usize, Status)> =
                found.iter().enumerate().filter_map(|(s, f)| f.map(|(r, st)| (s, r, st))).collect();
            if decided.is_empty() {
                return Ok(play);
            }
            play.rounds += 1;
            for (slot, rule, status) in decided {
                play.state.set(slot, status);
                play.steps.push(Step { round: play.rounds, rule, slot, status });
            }
        }
    }
}

/// What one round of a rule set concludes, rule by rule ([`Player::round`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Per rule, the open slots it decides (slot, status), sorted.
    pub decided: Vec<Vec<(Slot, Status)>>,
    /// Per rule, whether it prunes.
    pub pruned: Vec<bool>,
    /// Per rule, the first fault showing it unsound, if one did.
    pub unsound: Vec<Option<Unsound>>,
}

/// One conclusion of a rule, on the board's cells.
enum Concluded {
    Prune,
    /// A link or cut between two cells (as `(x, y)`) not side by side.
    OutOfRange([(usize, usize); 2]),
    /// A slot linked or cut, with its cells as the rule named them.
    Decide(Slot, Status, [(usize, usize); 2]),
}

/// The board's slot between the cells `c` and `d` of the board seen.
fn back_slot(g: &Grid, seen: &Oriented, c: Cell, d: Cell) -> Slot {
    g.slot_between(seen.back(c), seen.back(d)).expect("orientations keep slots")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::dsl::parse::parse_rules;

    fn rules(text: &str) -> Vec<Rule> {
        parse_rules(text, "t.rules", &Schema::flow()).unwrap()
    }

    fn control() -> Vec<Rule> {
        rules(include_str!("../../../../rules/flow/control.rules"))
    }

    fn play(rules: &[Rule], grid: &str, solution: Option<&Solution>) -> Result<Play, Unsound> {
        let p = parse_flow(grid, "t").unwrap().remove(0).1;
        let player = Player::new(rules, &Schema::flow(), "dsl/flow.ron").unwrap();
        player.play(&p, &State::start(p.grid()), solution)
    }

    /// Past its deadline the play stops before its first round, the
    /// state as it started; before it, the play is the one without.
    #[test]
    fn past_its_deadline_the_play_stops() {
        let (rules, p) = (control(), parse_flow("AB\nAB\n", "t").unwrap().remove(0).1);
        let player = Player::new(&rules, &Schema::flow(), "dsl/flow.ron").unwrap();
        let start = State::start(p.grid());
        let stopped = player.play_until(&p, &start, None, Some(std::time::Instant::now())).unwrap();
        assert!(stopped.stopped && stopped.steps.is_empty() && stopped.state == start, "{stopped:?}");
        let later = Some(std::time::Instant::now() + std::time::Duration::from_secs(600));
        let whole = player.play_until(&p, &start, None, later).unwrap();
        assert!(!whole.stopped && whole.solved());
        assert_eq!(whole, player.play(&p, &start, None).unwrap());
    }

    /// The control rules solve a small board in rounds, each slot decided
    /// once; on the solution's state they decide nothing more.
    #[test]
    fn the_control_rules_solve_a_small_board() {
        let rules = control();
        let done = play(&rules, "AB\nAB\n", None).unwrap();
        assert!(done.solved() && done.pruned.is_none(), "{done:?}");
        // one round: the two colours clash across, each colour's endpoints are side by side
        assert_eq!((done.decided(), done.rounds), (4, 1));
        let names: Vec<&str> = done.steps.iter().map(|s| rules[s.rule].name.as_str()).collect();
        assert_eq!(names, ["colour_clash", "colour_clash", "same_colour", "same_colour"]);
        let links: Vec<Slot> = done.state.linked().collect();
        let p = parse_flow("AB\nAB\n", "t").unwrap().remove(0).1;
        let solution = Solution::new(links);
        assert_eq!(crate::domains::flow::model::check::check(&p, &solution, false), Ok(()));
        let again = Player::new(&rules, &Schema::flow(), "f").unwrap().play(&p, &done.state, Some(&solution)).unwrap();
        assert_eq!((again.decided(), again.rounds), (0, 0));
    }

    /// A board with no solution is pruned, by the first pruning rule in file order.
    #[test]
    fn a_board_without_solution_is_pruned() {
        let rules = control();
        let done = play(&rules, "AB\nBA\n", None).unwrap();
        assert_eq!(done.pruned.map(|r| rules[r].name.as_str()), Some("stranded_colour"));
    }

    /// Unsound rules are caught: one disagreeing with the solution, two
    /// deciding one slot both ways in a round, one contradicting the state.
    #[test]
    fn unsound_rules_are_reported() {
        let p = parse_flow("AB\nAB\n", "t").unwrap().remove(0).1;
        let solution = Solution::new(vec![p.grid().slot_between(0, 2).unwrap(), p.grid().slot_between(1, 3).unwrap()]);
        let cut_all = "def cut_all:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if neighbours(c, d):\n then cut(c, d)\n";
        let link_all = "def link_all:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if neighbours(c, d):\n then link(c, d)\n";
        let e = play(&rules(cut_all), "AB\nAB\n", Some(&solution)).unwrap_err();
        assert_eq!((e.rule.as_str(), e.what.as_str()), ("cut_all", "it disagrees with the solution"));
        let e = play(&rules(&format!("{cut_all}{link_all}")), "AB\nAB\n", None).unwrap_err();
        assert_eq!(e.what, "another rule decides the slot the other way this round");
        let far = "def far:\n with c = arbitrary(cell) and d = arbitrary(cell):\n if x(c) = 0 and x(d) = 1 and y(c) = 0 and y(d) = 1:\n then cut(c, d)\n";
        let e = play(&rules(far), "AB\nAB\n", None).unwrap_err();
        assert_eq!((e.slot, e.cells), (None, [(0, 0), (1, 1)]));
        let e = play(
            &rules(&format!("{}{link_all}", include_str!("../../../../rules/flow/control.rules"))),
            "AB\nAB\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.rule, "link_all");
    }
}

#[cfg(test)]
mod plans {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::dsl::eval::Interpreter;
    use crate::dsl::parse::parse_rules;
    use rand::{Rng, SeedableRng};

    /// The compiled plans (which run a variable tied to an earlier one by
    /// `neighbours`, `joined` or `severed` over the paired cells only) find
    /// the interpreter's actions, rule by rule in the same order, on random
    /// states of a board.
    #[test]
    fn plans_act_as_the_interpreter_on_flow_states() {
        let schema = Schema::flow();
        let rules = parse_rules(include_str!("../../../../rules/flow/control.rules"), "c", &schema).unwrap();
        let layout = Layout::new(&schema, "f").unwrap();
        let plans = Plans::new(&rules, schema.size_feature);
        let p = parse_flow("A..B\n.C..\n..CA\nB...\n", "t").unwrap().remove(0).1;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..200 {
            let statuses =
                (0..p.grid().slots()).map(|_| [Status::Open, Status::Linked, Status::Cut][rng.gen_range(0..3)]);
            let view = layout.view(&p, &State::from_statuses(statuses.collect()));
            let mut got = vec![vec![]; rules.len()];
            plans.each_action(&view, None, |i, a| got[i as usize].push(a.to_vec()));
            for (i, rule) in rules.iter().enumerate() {
                let mut want = vec![];
                Interpreter::new(rule, &view, schema.size_feature).each_action(|a| want.push(a.to_vec()));
                assert_eq!(got[i], want, "{}", rule.name);
            }
        }
    }
}
