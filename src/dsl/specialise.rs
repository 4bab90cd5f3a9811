//! Specialisations of rules: each `arbitrary(t)` pattern replaced by
//! `constant(t, 0..4)` or `singleton(t)` or kept (docs/language.md:
//! specialising a pattern keeps a sound rule sound), so a few rules make
//! many distinct sound ones (the coverage-at-scale benchmark's rule set).

use super::ast::{PatternKind, Rule};

/// What each `arbitrary` pattern may become, the kept pattern first.
const KINDS: [PatternKind; 6] = [
    PatternKind::Arbitrary,
    PatternKind::Constant(0),
    PatternKind::Constant(1),
    PatternKind::Constant(2),
    PatternKind::Constant(3),
    PatternKind::Singleton,
];

/// Every specialisation of `rule`, the rule itself first: the product of
/// [`KINDS`] over its `arbitrary` declarations, the first declaration
/// varying slowest.
fn variants(rule: &Rule) -> Vec<Rule> {
    let mut out = vec![rule.clone()];
    for (d, decl) in rule.decls.iter().enumerate() {
        if decl.kind != PatternKind::Arbitrary {
            continue;
        }
        out = out
            .into_iter()
            .flat_map(|r| {
                KINDS.iter().map(move |&k| {
                    let mut r = r.clone();
                    r.decls[d].kind = k;
                    r
                })
            })
            .collect();
    }
    out
}

/// Up to `n` specialisations of `rules`, taken round-robin across the
/// rules (the j-th variant of each rule before the (j+1)-th of any), each
/// named `{rule}_v{j}`; the first round is the rules themselves.
pub fn specialisations(rules: &[Rule], n: usize) -> Vec<Rule> {
    let variants: Vec<Vec<Rule>> = rules.iter().map(variants).collect();
    let longest = variants.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![];
    for j in 0..longest {
        for (v, rule) in variants.iter().zip(rules) {
            if let Some(r) = v.get(j).filter(|_| out.len() < n) {
                out.push(Rule { name: format!("{}_v{j}", rule.name), ..r.clone() });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::schema::Schema;

    /// A rule with two `arbitrary` patterns has 36 variants, one with a
    /// constant pattern only itself; they come round-robin, named by their
    /// round, each differing from its rule in pattern kinds only.
    #[test]
    fn specialisations_come_round_robin_and_change_only_patterns() {
        let schema = Schema::witness();
        let text = "
def two:
    with s = arbitrary(square) and t = arbitrary(square):
    if used(s) > triangles(t):
    then prune
def fixed:
    with s = constant(square, 1):
    if used(s) > triangles(s):
    then prune
";
        let rules = parse_rules(text, "test", &schema).unwrap();
        let all = specialisations(&rules, usize::MAX);
        assert_eq!(all.len(), 37);
        let names: Vec<&str> = all.iter().take(4).map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["two_v0", "fixed_v0", "two_v1", "two_v2"]);
        assert_eq!((&all[0].decls, &all[1].decls), (&rules[0].decls, &rules[1].decls));
        let kinds: std::collections::HashSet<_> =
            all.iter().filter(|r| r.name.starts_with("two")).map(|r| (r.decls[0].kind, r.decls[1].kind)).collect();
        assert_eq!(kinds.len(), 36, "every pair of kinds once");
        assert!(all.iter().all(|r| r.condition == rules[usize::from(r.name.starts_with("fixed"))].condition));
        assert_eq!(specialisations(&rules, 5).len(), 5);
        assert_eq!(specialisations(&rules, 5)[..], all[..5]);
    }
}
