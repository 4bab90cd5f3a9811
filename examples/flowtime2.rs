use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::domains::Symbolic;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::dsl::symbolic::Compiler;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let (w, h): (usize, usize) = (a[2].parse().unwrap(), a[3].parse().unwrap());
    let logic = a[4].clone();
    let arith: u32 = a[5].parse().unwrap();
    let schema = Schema::flow();
    let rules = parse_rules(&text, "r", &schema).unwrap();
    let flow = Flow::with_schema(schema.clone(), "f").unwrap();
    for r in &rules {
        let board = flow.at(w, h);
        z3::with_z3_config(&z3::Config::new(), || {
            let enc = board.encode_for(6, r);
            let solver = if logic == "none" { z3::Solver::new() } else { z3::Solver::new_for_logic(logic.as_str()).unwrap() };
            let mut p = z3::Params::new();
            if arith > 0 { p.set_u32("arith.solver", arith); }
            solver.set_params(&p);
            solver.assert(&enc.valid);
            let comp = Compiler::new(&enc.view, schema.size_feature).compile(r, "r").unwrap();
            solver.assert(&comp.binds);
            solver.assert(&comp.condition);
            solver.assert(&board.wrong(&enc, r.action.id, &comp.args));
            let t = std::time::Instant::now();
            let res = solver.check();
            println!("{} {}x{} {} {}: {:?} {:.2}s", r.name, w, h, logic, arith, res, t.elapsed().as_secs_f64());
        });
    }
}
