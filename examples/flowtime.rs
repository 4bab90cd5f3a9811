use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::synth::verify::Verifier;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let (w, h): (usize, usize) = (a[2].parse().unwrap(), a[3].parse().unwrap());
    let schema = Schema::flow();
    let rules = parse_rules(&text, "r", &schema).unwrap();
    let flow = Flow::with_schema(schema, "f").unwrap();
    for r in &rules {
        let board = flow.at(w, h);
        let mut v = Verifier::new(&board, 6, 600_000);
        let t = std::time::Instant::now();
        let verdict = v.check(r);
        println!("{} {}x{}: {} {:.2}s", r.name, w, h, verdict.word(), t.elapsed().as_secs_f64());
    }
}
