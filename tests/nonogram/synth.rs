//! Synthesis on nonogram specifications: the acceptance examples
//! (big hint, punctuation, small gap), and a property test that every rule
//! synthesised from random small specifications is sound by brute force.

use stratsynth::domains::nonogram::formats::lines::parse_lines;
use stratsynth::domains::nonogram::rules::check::brute_force;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::nonogram::synthesis::mine::{mine, Sample};
use stratsynth::domains::nonogram::synthesis::spec::specs;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::PatternKind;
use stratsynth::dsl::print::print_rule;
use stratsynth::synth::meta::Search;
use stratsynth::synth::{Config, Engine, Learned};

/// The rules synthesised for the first specification of a transition.
fn synthesize(engine: &Engine<'_, Nonogram>, text: &str, which: usize) -> Vec<Learned> {
    let t = parse_lines(text, "spec", 30).unwrap().remove(0);
    let spec = specs(&t).unwrap().remove(which);
    engine.synthesize(&spec).rules
}

fn texts(domain: &Nonogram, rules: &[Learned]) -> Vec<String> {
    rules.iter().map(|l| print_rule(&l.rule, domain.schema())).collect()
}

#[test]
fn learns_big_hint_punctuation_and_small_gap() {
    let domain = Nonogram::new();
    let mut config = Config::new(domain.schema());
    // generous, so that a loaded machine does not turn a proof into a skip
    config.rlimit = 4_000_000_000;
    let engine = Engine::new(&domain, config);

    let big = synthesize(&engine, "8 | .......... | ..######..", 0);
    let shown = texts(&domain, &big);
    assert!(
        big.iter().any(|l| l.rule.decls.len() == 1 && l.rule.decls[0].kind == PatternKind::Arbitrary && l.bound == 30),
        "{shown:#?}"
    );
    // simple boxes, as the placement features say it
    assert!(shown.iter().any(|t| t.contains("fill(true, latest_start(h), size(h) + earliest_start(h))")), "{shown:#?}");

    // the block of 3 matches the biggest hint, which can start in one
    // place only: the cell before it is a space
    let punct = texts(&domain, &synthesize(&engine, "1 3 | ......###. | .....x###x", 0));
    assert!(
        punct.iter().any(|t| t.contains("earliest_start(h) = latest_start(h)")
            && t.contains("fill(false, earliest_start(h) - 1, earliest_start(h))")),
        "{punct:#?}"
    );

    // the gap of 2 before the cross is too small for the only hint: the
    // cells before where the first hint can start are crossed out
    let gap = texts(&domain, &synthesize(&engine, "3 | ..x....... | xxx.......", 0));
    assert!(
        gap.iter().any(|t| t.contains("constant(hint, 0)") && t.contains("fill(false, 0, earliest_start(h))")),
        "{gap:#?}"
    );
}

#[test]
fn every_rule_from_random_small_specifications_is_sound_by_brute_force() {
    let domain = Nonogram::new();
    let mut config = Config::new(domain.schema());
    config.bound = 10;
    config.screen_bound = 10;
    let engine = Engine::new(&domain, config);
    let (_, transitions) = mine(5, Some(Sample { count: 6, seed: 11 }));
    let mut checked = 0;
    for t in transitions.iter().take(8) {
        for spec in specs(t).unwrap() {
            let outcome = engine.synthesize(&spec);
            engine.publish(&[&outcome]);
            for learned in &outcome.rules {
                assert_eq!(learned.bound, 10);
                let text = print_rule(&learned.rule, domain.schema());
                assert!(brute_force(&domain, &learned.rule, 10).is_none(), "unsound up to 10: {text}");
                // and it makes the specification's deduction, in some orientation
                let images = domain.images(&spec.state, &spec.deduction);
                let makes = images.iter().any(|(state, deduction)| {
                    let view = domain.view(state);
                    let interp =
                        stratsynth::dsl::eval::Interpreter::new(&learned.rule, &view, domain.schema().size_feature);
                    interp.applications().iter().any(|(_, a)| domain.makes(state, deduction, a))
                });
                assert!(makes, "does not make {t:?}: {text}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "only {checked} rules checked");
}

#[test]
fn checking_candidates_through_the_table_pairs_decides_as_interpreting_them() {
    let domain = Nonogram::new();
    let mut config = Config::new(domain.schema());
    config.bound = 10;
    config.screen_bound = 10;
    let by_pairs = Engine::new(&domain, config.clone());
    config.table_pairs = false;
    let by_interpreter = Engine::new(&domain, config);
    let (_, transitions) = mine(5, Some(Sample { count: 6, seed: 3 }));
    let mut rejected = 0;
    for t in transitions.iter().take(3) {
        for spec in specs(t).unwrap() {
            let [a, b] = [&by_pairs, &by_interpreter].map(|engine| {
                let outcome = engine.synthesize(&spec);
                engine.publish(&[&outcome]);
                // the counters a rerun repeats: Z3 calls and cache hits
                // depend on which parallel walk asks the shared cache first
                let search = Search::from(&outcome.stats);
                let shown: Vec<String> = outcome.counterexamples.iter().map(|s| domain.show(s)).collect();
                (texts(&domain, &outcome.rules), search, shown)
            });
            assert_eq!(a, b, "{t:?}");
            rejected += a.1.rejected_by_table;
        }
    }
    // the table refuted candidates, so both ways were put to work
    // (fewer since the placement features give short rules early)
    assert!(rejected >= 30, "only {rejected} candidates rejected by the table");
}

/// Cell 3 lies beyond where the first hint can end and before where the
/// second can start. One pattern variable gives a rule that only holds on
/// lines like this one (no other hint may start beyond cell 1); it makes
/// the deduction on neither probe (the line with a placed hint beside it),
/// so the search goes on to two variables and finds a rule over two hints
/// (with `hint_count` some one-hint rules bear the probes too, and are
/// kept beside it). Without probing it stops at one.
#[test]
fn a_rule_only_the_small_line_bears_sends_the_search_on_to_two_hints() {
    let domain = Nonogram::new();
    let mut config = Config::new(domain.schema());
    config.rlimit = 4_000_000_000;
    // the greedy climb alone, and fewer sampled states: the same two-hint
    // rule in a fraction of the time
    config.explore = false;
    config.cheapest_tries = 0;
    config.wide_actions = 0;
    config.coverage_sample = 40;
    config.generality_sample = 1000;
    let spec = "2 2 | .#...#. | .#.x.#.";
    let probing = texts(&domain, &synthesize(&Engine::new(&domain, config.clone()), spec, 0));
    assert!(
        probing
            .iter()
            .any(|t| t.contains("arbitrary(hint) and h2 = arbitrary(hint)") && t.contains("earliest_start(h2))")),
        "{probing:#?}"
    );
    config.probe_decls = 1;
    let alone = synthesize(&Engine::new(&domain, config), spec, 0);
    assert!(!alone.is_empty() && alone.iter().all(|l| l.rule.decls.len() == 1), "{:#?}", texts(&domain, &alone));
}
