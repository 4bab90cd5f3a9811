//! The Z3 soundness check agrees with brute force: for a set of rules (sound
//! ones and mutants with changed operators, constants, patterns and
//! actions), the verdict at bound 8 is "sound" exactly when no valid line of
//! at most 8 cells has a binding on which the rule's fill is wrong, and
//! every counterexample Z3 returns replays (is a line of at most 8 cells on
//! which the rule fills something wrong).

use stratsynth::domains::nonogram::line::enumerate::valid_lines;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::*;
use stratsynth::dsl::eval::Interpreter;
use stratsynth::synth::verify::{Verdict, Verifier};

const BOUND: u32 = 8;

struct B {
    hint: TypeId,
    block: TypeId,
    gap: TypeId,
    start: FeatureId,
    size: FeatureId,
    lec: FeatureId,
    hsc: FeatureId,
    line_size: GlobalId,
    fill: ActionId,
}

fn f(feature: FeatureId, v: Var) -> IntExpr {
    IntExpr::Feature(feature, v)
}
fn lit(k: i64) -> IntExpr {
    IntExpr::Lit(k)
}
fn add(a: IntExpr, b: IntExpr) -> IntExpr {
    IntExpr::sum(a, b)
}
fn sub(a: IntExpr, b: IntExpr) -> IntExpr {
    IntExpr::difference(a, b)
}
fn mul(k: i64, a: IntExpr) -> IntExpr {
    IntExpr::Mul(k, Box::new(a))
}
fn cmp(op: CmpOp, a: IntExpr, b: IntExpr) -> BoolExpr {
    BoolExpr::Cmp(op, a, b)
}
fn decl(name: &str, ty: TypeId, kind: PatternKind) -> Decl {
    Decl { name: name.into(), ty, kind }
}

impl B {
    fn rule(&self, name: &str, decls: Vec<Decl>, condition: BoolExpr, value: bool, a: IntExpr, b: IntExpr) -> Rule {
        Rule {
            name: name.into(),
            description: vec![],
            decls,
            condition,
            action: Action { id: self.fill, args: vec![ActionArg::Bool(value), ActionArg::Int(a), ActionArg::Int(b)] },
        }
    }

    fn big_hint(&self, name: &str, kind: PatternKind, op: CmpOp, value: bool, a_shift: i64, b_shift: i64) -> Rule {
        self.rule(
            name,
            vec![decl("h", self.hint, kind)],
            cmp(op, f(self.lec, 0), f(self.hsc, 0)),
            value,
            add(f(self.hsc, 0), lit(a_shift)),
            add(f(self.lec, 0), lit(b_shift)),
        )
    }

    fn punctuate(&self, name: &str, extremal: Option<BoolExpr>, size_op: CmpOp, a_shift: i64, b_shift: i64) -> Rule {
        let mut cond = vec![];
        cond.extend(extremal);
        cond.push(cmp(size_op, f(self.size, 1), f(self.size, 0)));
        cond.push(cmp(CmpOp::Gt, f(self.start, 1), lit(0)));
        self.rule(
            name,
            vec![decl("h", self.hint, PatternKind::Arbitrary), decl("b", self.block, PatternKind::Arbitrary)],
            BoolExpr::and(cond),
            false,
            sub(f(self.start, 1), lit(a_shift)),
            add(f(self.start, 1), lit(b_shift)),
        )
    }

    fn rules(&self) -> Vec<Rule> {
        use CmpOp::*;
        use PatternKind::*;
        let (start, size) = (self.start, self.size);
        let n = IntExpr::Global(self.line_size);
        let end = |v: Var| add(f(start, v), f(size, v));
        vec![
            // the overlap of a hint's leftmost and rightmost placements
            self.big_hint("big_hint", Arbitrary, Gt, true, 0, 0),
            self.big_hint("big_hint_ge", Arbitrary, Ge, true, 0, 0),
            self.big_hint("big_hint_const1", Constant(1), Gt, true, 0, 0),
            self.big_hint("big_hint_singleton", Singleton, Gt, true, 0, 0),
            self.big_hint("big_hint_one_early", Arbitrary, Gt, true, -1, 0),
            self.big_hint("big_hint_one_late", Arbitrary, Gt, true, 0, 1),
            self.big_hint("big_hint_false", Arbitrary, Gt, false, 0, 0),
            self.big_hint("big_hint_ne", Arbitrary, Ne, true, 0, 0),
            // crossing out the cell before a block as big as the biggest hint
            self.punctuate("punctuate_maximum", Some(BoolExpr::Maximal(0)), Eq, 1, 0),
            self.punctuate("punctuate_no_maximal", None, Eq, 1, 0),
            self.punctuate("punctuate_minimal", Some(BoolExpr::Minimal(0)), Eq, 1, 0),
            self.punctuate("punctuate_ge", Some(BoolExpr::Maximal(0)), Ge, 1, 0),
            self.punctuate("punctuate_two_cells", Some(BoolExpr::Maximal(0)), Eq, 2, 0),
            self.punctuate("punctuate_into_block", Some(BoolExpr::Maximal(0)), Eq, 1, 1),
            // the first gap cannot hold the first hint: no hint goes there
            self.rule(
                "first_gap_too_small",
                vec![decl("g", self.gap, Constant(0)), decl("h", self.hint, Constant(0))],
                cmp(Lt, f(size, 0), f(size, 1)),
                false,
                f(start, 0),
                end(0),
            ),
            self.rule(
                "first_gap_too_small_le",
                vec![decl("g", self.gap, Constant(0)), decl("h", self.hint, Constant(0))],
                cmp(Le, f(size, 0), f(size, 1)),
                false,
                f(start, 0),
                end(0),
            ),
            self.rule(
                "any_gap_smaller_than_smallest_hint",
                vec![decl("g", self.gap, Arbitrary), decl("h", self.hint, Arbitrary)],
                BoolExpr::and(vec![BoolExpr::Minimal(1), cmp(Lt, f(size, 0), f(size, 1))]),
                false,
                f(start, 0),
                end(0),
            ),
            // with one hint, nothing before the first block's end minus the hint
            self.rule(
                "one_hint_before_first_block",
                vec![decl("h", self.hint, Singleton), decl("b", self.block, Constant(0))],
                BoolExpr::True,
                false,
                lit(0),
                sub(end(1), f(size, 0)),
            ),
            self.rule(
                "one_hint_before_first_block_off_by_one",
                vec![decl("h", self.hint, Singleton), decl("b", self.block, Constant(0))],
                BoolExpr::True,
                false,
                lit(0),
                add(sub(end(1), f(size, 0)), lit(1)),
            ),
            // nothing before the first block when it is the first hint's size
            self.rule(
                "fill_false_before_first_block",
                vec![decl("h", self.hint, Constant(0)), decl("b", self.block, Constant(0))],
                cmp(Ge, f(size, 1), f(size, 0)),
                false,
                lit(0),
                f(start, 1),
            ),
            // the arithmetic form of the big hint, with a multiplication
            self.rule(
                "big_hint_arithmetic",
                vec![decl("h", self.hint, Singleton)],
                cmp(Gt, mul(2, f(size, 0)), n.clone()),
                true,
                sub(n.clone(), f(size, 0)),
                f(size, 0),
            ),
            self.rule(
                "big_hint_arithmetic_ge",
                vec![decl("h", self.hint, Singleton)],
                cmp(Ge, mul(2, f(size, 0)), add(n.clone(), lit(1))),
                true,
                sub(sub(n.clone(), f(size, 0)), lit(1)),
                f(size, 0),
            ),
            // a block is filled; one cell more is not
            self.rule(
                "block_is_filled",
                vec![decl("b", self.block, Arbitrary)],
                BoolExpr::True,
                true,
                f(start, 0),
                end(0),
            ),
            self.rule(
                "block_and_next",
                vec![decl("b", self.block, Arbitrary)],
                cmp(Lt, end(0), n.clone()),
                true,
                f(start, 0),
                add(end(0), lit(1)),
            ),
            // uniqueness: the only hint as big as a block, when that is the biggest
            self.rule(
                "unique_fit",
                vec![decl("b", self.block, Arbitrary), decl("h", self.hint, Arbitrary)],
                BoolExpr::and(vec![
                    BoolExpr::Maximal(1),
                    BoolExpr::Unique(1, Box::new(cmp(Eq, f(size, 1), f(size, 0)))),
                    cmp(Gt, f(start, 0), lit(0)),
                ]),
                false,
                sub(f(start, 0), lit(1)),
                f(start, 0),
            ),
            self.rule(
                "not_unique_fit",
                vec![decl("b", self.block, Arbitrary), decl("h", self.hint, Arbitrary)],
                BoolExpr::and(vec![
                    BoolExpr::Not(Box::new(BoolExpr::Unique(1, Box::new(cmp(Ge, f(size, 1), f(size, 0)))))),
                    cmp(Gt, f(start, 0), lit(0)),
                ]),
                false,
                sub(f(start, 0), lit(1)),
                f(start, 0),
            ),
            // large literals (the compiler must widen, not wrap)
            self.rule(
                "huge_never",
                vec![decl("h", self.hint, Arbitrary)],
                cmp(Gt, mul(1000, f(size, 0)), lit(40_000)),
                true,
                lit(0),
                n.clone(),
            ),
            self.rule(
                "huge_wraps_at_8_bits",
                vec![decl("h", self.hint, Arbitrary)],
                cmp(Lt, add(f(size, 0), lit(250)), lit(0)),
                true,
                lit(0),
                n.clone(),
            ),
            self.rule(
                "negative_literal",
                vec![decl("h", self.hint, Singleton)],
                cmp(Eq, sub(f(size, 0), lit(100)), sub(n.clone(), lit(100))),
                true,
                lit(0),
                n.clone(),
            ),
            self.rule(
                "negative_literal_off",
                vec![decl("h", self.hint, Singleton)],
                cmp(Eq, sub(f(size, 0), lit(100)), sub(n.clone(), lit(101))),
                true,
                lit(0),
                n.clone(),
            ),
        ]
    }
}

#[test]
fn z3_verdicts_match_brute_force_up_to_8_cells() {
    let d = Nonogram::new();
    let s = d.schema();
    let b = B {
        hint: s.type_id("hint").unwrap(),
        block: s.type_id("block").unwrap(),
        gap: s.type_id("gap").unwrap(),
        start: s.feature_id("start").unwrap(),
        size: s.feature_id("size").unwrap(),
        lec: s.feature_id("lowest_end_cell").unwrap(),
        hsc: s.feature_id("highest_start_cell").unwrap(),
        line_size: s.global_id("line_size").unwrap(),
        fill: s.action_id("fill").unwrap(),
    };
    let t = std::time::Instant::now();
    let lines = valid_lines(BOUND as usize);
    let views: Vec<_> = lines.iter().map(|l| d.view(l)).collect();
    eprintln!("{} valid lines up to {BOUND} cells in {:?}", lines.len(), t.elapsed());
    let mut verifier = Verifier::new(&d, BOUND, 60_000);
    let (mut sound, mut unsound) = (0, 0);
    let mut failures = vec![];
    for rule in b.rules() {
        let t = std::time::Instant::now();
        let brute = lines.iter().zip(&views).find_map(|(line, view)| {
            let interp = Interpreter::new(&rule, view, s.size_feature);
            interp.applications().into_iter().find(|(_, a)| !d.is_sound(line, a)).map(|(_, a)| (line, a))
        });
        let brute_time = t.elapsed();
        let t = std::time::Instant::now();
        let verdict = verifier.check(&rule);
        let z3_time = t.elapsed();
        let shown = match (&verdict, &brute) {
            (Verdict::Unsound(c), _) => format!("{} {:?}", d.show(&c.state), c.action.args),
            (Verdict::Unknown(m), _) => m.to_string(),
            (Verdict::Sound, Some((line, a))) => format!("missed {} {:?}", d.show(line), a.args),
            (Verdict::Sound, None) => String::new(),
        };
        eprintln!(
            "{:40} z3 {:8} {:>10.1?}  brute {:8} {:>10.1?}  {shown}",
            rule.name,
            verdict.word(),
            z3_time,
            if brute.is_some() { "unsound" } else { "sound" },
            brute_time
        );
        match (&verdict, &brute) {
            (Verdict::Sound, None) => sound += 1,
            (Verdict::Unsound(c), Some(_)) => {
                unsound += 1;
                // the counterexample replays: a line within the bound on
                // which the rule's action is wrong
                assert!(c.state.line.len() <= BOUND as usize);
                let view = d.view(&c.state);
                let interp = Interpreter::new(&rule, &view, s.size_feature);
                assert!(interp.eval_bool(&rule.condition, &c.binding), "{}: binding does not replay", rule.name);
                assert_eq!(interp.eval_action(&c.binding), c.action);
                assert!(!d.is_sound(&c.state, &c.action), "{}: counterexample is not one", rule.name);
            }
            _ => failures.push(format!("{}: z3 says {} ({shown})", rule.name, verdict.word())),
        }
    }
    assert!(failures.is_empty(), "verdicts disagree with brute force:\n{}", failures.join("\n"));
    // the set exercises both verdicts
    assert!(sound >= 8 && unsound >= 8, "{sound} sound, {unsound} unsound");
}
