//! The `# meta:` comment every synthesised rule carries: the specification
//! it was learned from, its cost, the bound Z3 proved it sound at, and the
//! search's counters, as one RON value, so that a rule file records how
//! each rule was made and a later command (merge, learn) can read the bound
//! back. Written as
//! `meta: (spec:"HINTS | START | TARGET",cost:12,bound:30,search:(...))`
//! where `search` is the part of the search's [`Stats`] that a rerun
//! repeats: no times, and no counts of Z3 calls and cache hits (which
//! thread asks the shared verdict cache first varies), so a rerun writes
//! the rule file byte for byte; the journal keeps the whole [`Stats`].
//! Comments written with `time_ms` and `stats` still read.

use super::outcome::{Learned, Stats};
use crate::dsl::ast::Rule;
use crate::located::Located;
use serde::{Deserialize, Serialize};

/// How a rule was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The specification, as the domain shows it.
    pub spec: String,
    /// The rule's cost.
    pub cost: u32,
    /// The bound Z3 proved the rule sound up to.
    pub bound: u32,
    /// What the specification's synthesis did.
    #[serde(default)]
    pub search: Search,
}

/// The counters of a synthesis that depend only on its inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Search {
    /// Lattice nodes (pattern sets) tried.
    pub patterns_tried: u64,
    /// Candidate rules proposed.
    pub candidates: u64,
    /// Candidates rejected on the exhaustive table of small states.
    pub rejected_by_table: u64,
    /// Rules sound at the screening bound but not at the full bound.
    pub rejected_at_full_bound: u64,
    /// Maximal rules dropped as made redundant by another on the table.
    pub dominated: u64,
    /// Rules lost to Z3's resource limit at the full-bound proof.
    pub lost_at_full_bound: u64,
}

impl From<&Stats> for Search {
    fn from(s: &Stats) -> Search {
        Search {
            patterns_tried: s.patterns_tried,
            candidates: s.candidates,
            rejected_by_table: s.rejected_by_table,
            rejected_at_full_bound: s.rejected_at_full_bound,
            dominated: s.dominated,
            lost_at_full_bound: s.lost_at_full_bound,
        }
    }
}

/// What starts the description line holding the metadata.
const PREFIX: &str = "meta: ";

/// A `# meta:` comment that is not a RON value of [`Meta`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rule `{rule}`: unreadable `# meta:` comment: {message}")]
pub struct MetaError {
    /// The rule's name.
    pub rule: String,
    /// 1-based column of the problem in the RON value after `meta: `.
    pub column: usize,
    /// What RON reported.
    pub message: String,
}

impl MetaError {
    /// The error at its place in `text`, the rule file the rule was read
    /// from (the `# meta:` comment above the rule's `def`); `None` if the
    /// comment is not found there.
    pub fn locate(&self, text: &str, path: &str) -> Option<Located<MetaError>> {
        let lines: Vec<&str> = text.lines().collect();
        let def = lines.iter().position(|l| {
            l.trim_start()
                .strip_prefix("def")
                .and_then(|r| r.trim_start().strip_prefix(self.rule.as_str()))
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })?;
        let (n, line) = lines[..def]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, l)| l.trim_start().starts_with('#') && l.contains(PREFIX))?;
        let before = &line[..line.find(PREFIX)?];
        let column = before.chars().count() + PREFIX.len() + self.column;
        Some(Located::new(path, n + 1, column, self.clone()))
    }
}

impl Meta {
    /// The metadata of `learned`, found for the specification shown as
    /// `spec` by a run with these counters.
    pub fn new(spec: &str, learned: &Learned, stats: &Stats) -> Meta {
        Meta { spec: spec.to_string(), cost: learned.cost, bound: learned.bound, search: stats.into() }
    }

    /// The description line (without the `# `).
    pub fn comment(&self) -> String {
        format!("{PREFIX}{}", ron::to_string(self).expect("metadata serialises"))
    }

    /// The metadata in `rule`'s description, if it has a `meta:` line.
    pub fn of(rule: &Rule) -> Option<Result<Meta, MetaError>> {
        let line = rule.description.iter().find_map(|l| l.strip_prefix(PREFIX))?;
        Some(ron::from_str(line).map_err(|e| MetaError {
            rule: rule.name.clone(),
            column: e.position.col,
            message: e.code.to_string(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::print::print_rule;
    use crate::dsl::schema::Schema;

    #[test]
    fn the_comment_reads_back_through_a_rule_file() {
        let schema = Schema::nonogram();
        let mut rule = parse_rules("def r:\n with h = singleton(hint):\n if 2 * size(h) > line_size:\n then fill(true, line_size - size(h), size(h))", "t", &schema)
            .unwrap()
            .remove(0);
        let learned = Learned { rule: rule.clone(), cost: 17, bound: 30 };
        let stats = Stats {
            patterns_tried: 3,
            candidates: 40,
            z3_calls: 7,
            z3_time: std::time::Duration::from_millis(1234),
            ..Stats::default()
        };
        let meta = Meta::new("3 | .... | .##.", &learned, &stats);
        assert!(Meta::of(&rule).is_none());
        rule.description = vec!["learned".into(), meta.comment()];
        let text = print_rule(&rule, &schema);
        assert!(
            text.contains("# meta: (spec:\"3 | .... | .##.\",cost:17,bound:30,search:(patterns_tried:3,candidates:40,"),
            "{text}"
        );
        assert!(!text.contains("time") && !text.contains("z3"), "{text}");
        let back = parse_rules(&text, "t", &schema).unwrap().remove(0);
        assert_eq!(Meta::of(&back), Some(Ok(meta)));
        rule.description =
            vec!["meta: (spec:\"1 | . | #\",cost:3,bound:30,time_ms:9,stats:(z3_calls:2,z3_time:(secs:1,nanos:0)))"
                .into()];
        assert_eq!(Meta::of(&rule).unwrap().unwrap().bound, 30, "a comment written with times reads");
        rule.description = vec!["meta: (spec: 3)".into()];
        let e = Meta::of(&rule).unwrap().unwrap_err();
        assert!(e.to_string().starts_with("rule `r`: unreadable"));
        let file =
            format!("# first\n  # meta: (spec: 3)\n{}", &print_rule(&rule, &schema)["# meta: (spec: 3)\n".len()..]);
        assert_eq!(
            e.locate(&file, "f.rules").unwrap().to_string(),
            format!("f.rules:2:{}: {e}", 4 + PREFIX.len() + e.column)
        );
    }
}
