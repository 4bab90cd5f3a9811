//! The documented strategies in rules/nonogram/control.rules: they parse,
//! there are at least 12, each names its strategy and source, and each is
//! sound by brute force over every valid line up to 12 cells.

use stratsynth::domains::nonogram::rules::check::brute_force_all;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;

#[test]
fn control_rules_are_documented_and_sound_up_to_12_cells() {
    let domain = Nonogram::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/nonogram/control.rules");
    let text = std::fs::read_to_string(path).unwrap();
    let rules = parse_rules(&text, path, domain.schema()).unwrap();
    assert!(rules.len() >= 12, "only {} control rules", rules.len());
    for (rule, verdict) in rules.iter().zip(brute_force_all(&domain, &rules, 12)) {
        let doc = rule.description.join(" ");
        assert!(doc.contains("Source:"), "{} does not name its source", rule.name);
        if let Some(cx) = verdict {
            panic!("{} is unsound on {} with {:?}", rule.name, domain.show(&cx.state), cx.action);
        }
    }
}
