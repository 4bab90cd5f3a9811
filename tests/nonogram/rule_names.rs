//! Readable names for the committed learned rules: named after the
//! documented strategy they are or generalise (by `compare` on the first
//! 1500 solution-trace transitions), else after what they do; the names are
//! distinct, the renamed set prints and parses back to the same rules, and
//! every rule's comment starts with its English sentence.

use std::path::Path;

use stratsynth::domains::nonogram::formats::lines::read_test_set;
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::compare::compare;
use stratsynth::domains::nonogram::rules::describe::{name_rules, sentence, strategies, Strategy};
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::print::print_rules;

fn rules(d: &Nonogram, path: &str) -> Vec<stratsynth::dsl::ast::Rule> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    parse_rules(&text, path, d.schema()).unwrap()
}

#[test]
fn learned_rules_get_readable_names() {
    let d = Nonogram::new();
    let learned = rules(&d, "rules/nonogram/learned.rules");
    let control = rules(&d, "rules/nonogram/control.rules");
    let tests = read_test_set(&Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/nonogram/traces.lines"), 30).unwrap();
    let comparisons = compare(&d, &learned, &control, &tests[..1500], ApplyOptions::default()).unwrap();
    let found = strategies(learned.len(), &control, &comparisons);
    // compare recovers documented strategies among the learned rules
    assert!(found.iter().filter(|s| s.is_some()).count() >= 5, "{found:?}");
    let mut named = learned.clone();
    name_rules(&d, &mut named, &found);
    let mut names: Vec<&str> = named.iter().map(|r| r.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), named.len());
    assert!(named.iter().all(|r| !r.name.starts_with("spec")));
    for ((rule, old), s) in named.iter().zip(&learned).zip(&found) {
        match s {
            Some(Strategy::Is(c)) => assert!(rule.name.starts_with(c.as_str())),
            Some(Strategy::Generalises(c)) => assert!(rule.name.starts_with(&format!("general_{c}"))),
            // the verb, then what the action uses (`fixed_cells` if it
            // uses no variable and reaches no end of the line)
            None => assert!(rule.name.starts_with("fill_") || rule.name.starts_with("cross_"), "{}", rule.name),
        }
        assert_eq!(d.schema().reserved(&rule.name), None, "{}", rule.name);
        assert!(sentence(old, d.schema()).starts_with(&rule.description[0]));
        assert!(rule.description.iter().any(|l| l == &format!("(learned as {})", old.name)));
    }
    let text = print_rules(&named, d.schema());
    let again = parse_rules(&text, "renamed", d.schema()).unwrap();
    assert_eq!(again, named);
    println!(
        "{}",
        named.iter().zip(&learned).map(|(n, o)| format!("{} <- {}", n.name, o.name)).collect::<Vec<_>>().join("\n")
    );
}
