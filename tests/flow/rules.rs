//! Flow rule files: the control set reads and prints back as itself, and
//! the reader refuses what docs/reference/language.md's Flow domain rules out, each with its
//! position (`maximal`/`minimal` on cells and flows, a feature of two cells
//! given one, a `link` on a flow, a variable named like a feature).

use std::process::Command;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::print::print_rules;
use stratsynth::dsl::schema::Schema;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn control() -> String {
    std::fs::read_to_string(format!("{ROOT}/rules/flow/control.rules")).unwrap()
}

/// The control rules read, print, and read back to the same rules; `print`
/// recognises the file as Flow rules.
#[test]
fn the_control_rules_read_and_print_back() {
    let schema = Schema::flow();
    let rules = parse_rules(&control(), "control.rules", &schema).unwrap();
    assert_eq!(rules.len(), 9);
    let printed = print_rules(&rules, &schema);
    assert_eq!(parse_rules(&printed, "printed", &schema).unwrap(), rules);
    let out = Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .current_dir(ROOT)
        .args(["print", "rules/flow/control.rules"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("# cost 11\n# as many usable slots as links still needed\ndef forced:"), "{text}");
    assert!(text.contains("    then link(c, d)\n"), "{text}");
}

/// What the Flow domain refuses, with the place and the reason.
#[test]
fn the_reader_refuses_with_positions() {
    let schema = Schema::flow();
    let refused = |body: &str| parse_rules(&format!("def r:\n{body}"), "r.rules", &schema).unwrap_err().to_string();
    let e = refused(" with c = arbitrary(cell):\n if maximal(c):\n then prune");
    assert_eq!(e, "r.rules:3:13: maximal compares 'size', which does not apply to 'c' of type cell");
    let e = refused(" with f = arbitrary(flow):\n if minimal(f):\n then prune");
    assert!(e.starts_with("r.rules:3:13: minimal compares 'size'"), "{e}");
    let e = refused(" with c = arbitrary(cell):\n if neighbours(c):\n then prune");
    assert_eq!(e, "r.rules:3:5: feature 'neighbours' reads 2 elements, found 1");
    let e = refused(" with c = arbitrary(cell) and d = arbitrary(cell):\n if done(c, d):\n then prune");
    assert_eq!(e, "r.rules:3:5: feature 'done' reads one element, found 2");
    let e = refused(" with c = arbitrary(cell) and f = arbitrary(flow):\n if joined(c, f):\n then prune");
    assert!(e.starts_with("r.rules:3:5: feature 'joined' does not apply to 'f' of type flow"), "{e}");
    let e = refused(" with c = arbitrary(cell) and f = arbitrary(flow):\n if true:\n then link(c, f)");
    assert_eq!(e, "r.rules:4:15: argument 2 of 'link' must be a cell variable; 'f' is of type flow");
    let e = refused(" with c = arbitrary(cell):\n if true:\n then cut(c, 1)");
    assert_eq!(e, "r.rules:4:14: argument 2 of 'cut' must be a bound cell variable, found '1'");
    let e = refused(" with x = arbitrary(cell):\n if true:\n then prune");
    assert_eq!(e, "r.rules:2:7: variable name 'x' is a reserved word (a feature)");
}

/// The control rules on the development set: never unsound, never pruning
/// (each puzzle has a solution), and deciding nearly every slot (its many
/// short paths make it easy; docs/reference/language.md's strategies decide 99.8% of such boards).
#[test]
fn the_control_rules_play_the_development_set() {
    use stratsynth::domains::flow::formats::read::read_flow;
    use stratsynth::domains::flow::model::state::State;
    use stratsynth::domains::flow::rules::player::Player;
    let schema = Schema::flow();
    let rules = parse_rules(&control(), "control.rules", &schema).unwrap();
    let player = Player::new(&rules, &schema, "dsl/flow.ron").unwrap();
    let (mut slots, mut decided, mut solved) = (0, 0, 0);
    let puzzles = read_flow(std::path::Path::new(&format!("{ROOT}/specs/flow/dev.flow"))).unwrap();
    for (name, p) in &puzzles {
        let play = player.play(p, &State::start(p.grid()), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(play.pruned, None, "{name}");
        slots += p.grid().slots();
        decided += play.decided();
        solved += play.solved() as usize;
    }
    eprintln!("control rules on dev.flow: {decided} of {slots} slots decided, {solved} of {} solved", puzzles.len());
    assert!(decided * 100 >= slots * 95, "{decided} of {slots}");
}

/// Brute force on every puzzle up to 3x3 (every consistent state) and
/// sampled 4x4: the control rules hold; planted unsound rules fail with a
/// counterexample on which they conclude something false.
#[test]
fn brute_force_soundness() {
    use stratsynth::domains::flow::rules::brute::Sweep;
    use stratsynth::domains::flow::rules::view::Layout;
    let schema = Schema::flow();
    let layout = Layout::new(&schema, "dsl/flow.ron").unwrap();
    let mut rules = parse_rules(&control(), "control.rules", &schema).unwrap();
    let controls = rules.len();
    rules.extend(parse_rules(crate::verify::PLANTED, "planted.rules", &schema).unwrap());
    let mut sweep = Sweep::new(&rules, &layout, schema.size_feature);
    let started = std::time::Instant::now();
    sweep.every_puzzle(3, 3);
    let exhaustive = sweep.visited;
    sweep.sampled(4, 4, 100, 200, 1);
    eprintln!(
        "every puzzle up to 3x3: {} puzzles with a solution, {} consistent states; sampled 4x4: {} puzzles, {} states; {:.1} s",
        exhaustive.puzzles,
        exhaustive.states,
        sweep.visited.puzzles - exhaustive.puzzles,
        sweep.visited.states - exhaustive.states,
        started.elapsed().as_secs_f64()
    );
    for (rule, found) in rules.iter().zip(&sweep.found) {
        let unsound = rules[..controls].iter().all(|r| r.name != rule.name);
        assert_eq!(found.is_some(), unsound, "{}: {found:?}", rule.name);
    }
}
