//! The `# meta:` comment every synthesised rule carries: the specification
//! it was learned from, its cost, the bound Z3 proved it sound at, and the
//! search's counters, as one RON value, so that a rule file records how
//! each rule was made and a later command (merge, learn) can read the bound
//! back. Written as
//! `meta: (spec:"HINTS | START | TARGET",cost:12,bound:30,time_ms:840,stats:(...))`
//! where `stats` is the search's [`Stats`] as they serialise.

use super::outcome::{Learned, Stats};
use crate::dsl::ast::Rule;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How a rule was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The specification, as the domain shows it.
    pub spec: String,
    /// The rule's cost.
    pub cost: u32,
    /// The bound Z3 proved the rule sound up to.
    pub bound: u32,
    /// Wall time of the specification's synthesis, in milliseconds.
    pub time_ms: u64,
    /// The counters of the specification's synthesis.
    #[serde(default)]
    pub stats: Stats,
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
    /// The error as `path:line:column: ...`, at its place in `text`, the
    /// rule file the rule was read from (the `# meta:` comment above the
    /// rule's `def`); `None` if the comment is not found there.
    pub fn locate(&self, text: &str, path: &str) -> Option<String> {
        let lines: Vec<&str> = text.lines().collect();
        let def = lines.iter().position(|l| {
            l.trim_start().strip_prefix("def").and_then(|r| r.trim_start().strip_prefix(self.rule.as_str())).is_some_and(|r| r.trim_start().starts_with(':'))
        })?;
        let (n, line) = lines[..def].iter().enumerate().rev().find(|(_, l)| l.trim_start().starts_with('#') && l.contains(PREFIX))?;
        let before = &line[..line.find(PREFIX)?];
        let column = before.chars().count() + PREFIX.len() + self.column;
        Some(format!("{path}:{}:{column}: {self}", n + 1))
    }
}

impl Meta {
    /// The metadata of `learned`, found for the specification shown as
    /// `spec` by a run with these counters and wall time.
    pub fn new(spec: &str, learned: &Learned, stats: &Stats, time: Duration) -> Meta {
        Meta {
            spec: spec.to_string(),
            cost: learned.cost,
            bound: learned.bound,
            time_ms: time.as_millis() as u64,
            stats: stats.clone(),
        }
    }

    /// The description line (without the `# `).
    pub fn comment(&self) -> String {
        format!("{PREFIX}{}", ron::to_string(self).expect("metadata serialises"))
    }

    /// The metadata in `rule`'s description, if it has a `meta:` line.
    pub fn of(rule: &Rule) -> Option<Result<Meta, MetaError>> {
        let line = rule.description.iter().find_map(|l| l.strip_prefix(PREFIX))?;
        Some(ron::from_str(line).map_err(|e| MetaError { rule: rule.name.clone(), column: e.position.col, message: e.code.to_string() }))
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
        let stats = Stats { patterns_tried: 3, candidates: 40, rejected_by_table: 5, z3_calls: 7, ..Stats::default() };
        let meta = Meta::new("3 | .... | .##.", &learned, &stats, Duration::from_millis(1234));
        assert!(Meta::of(&rule).is_none());
        rule.description = vec!["learned".into(), meta.comment()];
        let text = print_rule(&rule, &schema);
        assert!(text.contains("# meta: (spec:\"3 | .... | .##.\",cost:17,bound:30,time_ms:1234,stats:(patterns_tried:3,"), "{text}");
        let back = parse_rules(&text, "t", &schema).unwrap().remove(0);
        assert_eq!(Meta::of(&back), Some(Ok(meta)));
        rule.description = vec!["meta: (spec: 3)".into()];
        let e = Meta::of(&rule).unwrap().unwrap_err();
        assert!(e.to_string().starts_with("rule `r`: unreadable"));
        let file = format!("# first\n  # meta: (spec: 3)\n{}", &print_rule(&rule, &schema)["# meta: (spec: 3)\n".len()..]);
        assert_eq!(e.locate(&file, "f.rules").unwrap(), format!("f.rules:2:{}: {e}", 4 + PREFIX.len() + e.column));
    }
}
