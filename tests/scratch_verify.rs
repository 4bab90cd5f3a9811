use stratsynth::domains::nonogram::domain::Nonogram;
use stratsynth::dsl::ast::*;
use stratsynth::synth::verify::{Verifier, Verdict};
use stratsynth::domains::Domain;

#[test]
fn scratch() {
    let d = Nonogram::new();
    let s = d.schema();
    let hint = s.type_id("hint").unwrap();
    let block = s.type_id("block").unwrap();
    let lec = s.feature_id("lowest_end_cell").unwrap();
    let hsc = s.feature_id("highest_start_cell").unwrap();
    let size = s.feature_id("size").unwrap();
    let start = s.feature_id("start").unwrap();
    let fill = s.action_id("fill").unwrap();
    let big = Rule { name: "big".into(), description: vec![], decls: vec![Decl{name:"h".into(), ty: hint, kind: PatternKind::Arbitrary}],
        condition: BoolExpr::Cmp(CmpOp::Gt, IntExpr::Feature(lec,0), IntExpr::Feature(hsc,0)),
        action: Action{ id: fill, args: vec![ActionArg::Bool(true), ActionArg::Int(IntExpr::Feature(hsc,0)), ActionArg::Int(IntExpr::Feature(lec,0))]}};
    let punct = Rule { name: "p".into(), description: vec![], decls: vec![Decl{name:"h".into(), ty: hint, kind: PatternKind::Arbitrary}, Decl{name:"b".into(), ty: block, kind: PatternKind::Arbitrary}],
        condition: BoolExpr::And(vec![BoolExpr::Maximal(0), BoolExpr::Cmp(CmpOp::Eq, IntExpr::Feature(size,1), IntExpr::Feature(size,0)), BoolExpr::Cmp(CmpOp::Gt, IntExpr::Feature(start,1), IntExpr::Lit(0))]),
        action: Action{ id: fill, args: vec![ActionArg::Bool(false), ActionArg::Int(IntExpr::sub(IntExpr::Feature(start,1), IntExpr::Lit(1))), ActionArg::Int(IntExpr::Feature(start,1))]}};
    let mut bad = punct.clone();
    bad.condition = BoolExpr::And(vec![BoolExpr::Cmp(CmpOp::Eq, IntExpr::Feature(size,1), IntExpr::Feature(size,0)), BoolExpr::Cmp(CmpOp::Gt, IntExpr::Feature(start,1), IntExpr::Lit(0))]);
    for bound in [10u32, 20] {
        let t = std::time::Instant::now();
        let mut v = Verifier::new(&d, bound, 60000);
        for r in [&big, &punct, &bad] {
            let t1 = std::time::Instant::now();
            let verdict = v.check(r);
            let desc = match &verdict { Verdict::Unsound(c) => format!("{} {:?}", d.show(&c.state), c.action), Verdict::Unknown(m) => m.clone(), _ => String::new() };
            eprintln!("bound {bound} {} -> {} {desc} in {:?}", r.name, verdict.word(), t1.elapsed());
        }
        eprintln!("total {:?}", t.elapsed());
    }
}
