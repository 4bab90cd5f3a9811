//! The report of a Witness learning run: what each chosen rule saves on
//! the filter searches (with the rules before it, and the whole selection
//! without it: expansions, modelled and measured time), the chosen rules
//! named `learned_N` in their order with that as their description, and
//! the table of those figures.

use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::rules::measure::{filter_search, FilterCost};
use crate::domains::witness::synthesis::domain::Witness;
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::schema::Schema;

/// Timings per measured search time: each search the fastest of this many.
const REPEAT: usize = 3;

/// One chosen rule and what it saves on the filter searches.
#[derive(Clone, Debug)]
pub struct RuleReport {
    /// Filter-search measurements with this rule and the ones chosen before.
    pub cost: FilterCost,
    /// Expansions the whole selection loses without this rule.
    pub marginal_expansions: i64,
    /// Modelled milliseconds the whole selection loses without this rule.
    pub marginal_model_ms: f64,
    /// Measured milliseconds the whole selection loses without this rule
    /// (best of 3 timings each; negative: it costs more than it saves).
    pub marginal_measured_ms: f64,
}

/// What a selection saves on the filter searches.
#[derive(Clone, Debug)]
pub struct SelectionReport {
    /// Local constraint checking alone.
    pub baseline: FilterCost,
    /// Its measured search time, milliseconds (best of 3).
    pub baseline_ms: f64,
    /// Each chosen rule, in order.
    pub rules: Vec<RuleReport>,
}

impl SelectionReport {
    /// The report of `chosen` (a selection, in order) on the filter `puzzles`.
    pub fn new(domain: &Witness, chosen: &[Rule], puzzles: &[Puzzle]) -> SelectionReport {
        let best_ms = |rules: &[Rule]| filter_search(domain, rules, puzzles, REPEAT).1.as_secs_f64() * 1e3;
        let (all, _) = filter_search(domain, chosen, puzzles, 1);
        let all_ms = best_ms(chosen);
        let rules = (1..=chosen.len())
            .map(|n| {
                let (cost, _) = filter_search(domain, &chosen[..n], puzzles, 1);
                let mut without = chosen.to_vec();
                without.remove(n - 1);
                let (w, _) = filter_search(domain, &without, puzzles, 1);
                RuleReport {
                    cost,
                    marginal_expansions: w.expansions as i64 - all.expansions as i64,
                    marginal_model_ms: w.model_ms() - all.model_ms(),
                    marginal_measured_ms: best_ms(&without) - all_ms,
                }
            })
            .collect();
        SelectionReport { baseline: filter_search(domain, &[], puzzles, 1).0, baseline_ms: best_ms(&[]), rules }
    }

    /// The expansion speed-up of rule `i` with the rules before it over
    /// local constraint checking.
    fn speedup(&self, i: usize) -> f64 {
        self.baseline.expansions as f64 / self.rules[i].cost.expansions.max(1) as f64
    }

    /// `chosen` (the selection this reports on) named `learned_1`,
    /// `learned_2`, ... in order, each described by its rank, its filter
    /// expansions with the rules above, what the set loses without it and
    /// its cost.
    pub fn named(&self, chosen: &[Rule], schema: &Schema) -> Vec<Rule> {
        chosen
            .iter()
            .zip(&self.rules)
            .enumerate()
            .map(|(i, (rule, r))| {
                let mut rule = rule.clone();
                rule.name = format!("learned_{}", i + 1);
                rule.description = vec![format!(
                    "rank {}: with the rules above, {} filter expansions ({:.2}x fewer than local checking); without it the set expands {} more and takes {:.1} ms more (modelled); cost {}",
                    i + 1,
                    r.cost.expansions,
                    self.speedup(i),
                    r.marginal_expansions,
                    r.marginal_model_ms,
                    cost(&rule, schema)
                )];
                rule
            })
            .collect()
    }

    /// The table of the figures: local checking alone, then a row per
    /// `named` rule (cost, filter expansions, speed-up, and what the set
    /// loses without it).
    pub fn table(&self, named: &[Rule], schema: &Schema) -> String {
        let mut table = format!(
            "rule         cost  filter exp  speedup  exp saved  model ms saved  measured ms saved\n(baseline)      -  {:>10}     1.00          -  {:>14}  {:>17}\n",
            self.baseline.expansions,
            format!("({:.1})", self.baseline.model_ms()),
            format!("({:.1})", self.baseline_ms)
        );
        for (i, (rule, r)) in named.iter().zip(&self.rules).enumerate() {
            table += &format!(
                "{:<11} {:>5}  {:>10}  {:>7.2}  {:>9}  {:>14.1}  {:>17.1}\n",
                rule.name,
                cost(rule, schema),
                r.cost.expansions,
                self.speedup(i),
                r.marginal_expansions,
                r.marginal_model_ms,
                r.marginal_measured_ms
            );
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::synthesis::testing::{puzzles, rules, STARVED};
    use crate::domains::Domain;

    const WALLED_OFF: &str =
        "def walled_off:\n    with s = arbitrary(square):\n    if goal_reachable = 0:\n    then prune\n";

    /// Each rule is named by its rank and described by what it saves; the
    /// last row's figures are the whole selection's; the table has a row
    /// per rule with the same figures.
    #[test]
    fn chosen_rules_are_named_by_rank_and_described_by_what_they_save() {
        let (domain, chosen) = rules(&format!("{STARVED}{WALLED_OFF}"));
        let puzzles = puzzles("2x2..3x4", 5, 40);
        let report = SelectionReport::new(&domain, &chosen, &puzzles);
        assert_eq!(report.rules.len(), 2);
        assert_eq!(report.rules[1].cost, filter_search(&domain, &chosen, &puzzles, 1).0);
        let named = report.named(&chosen, domain.schema());
        assert_eq!(named.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["learned_1", "learned_2"]);
        assert_eq!((&named[0].condition, &named[1].decls), (&chosen[0].condition, &chosen[1].decls));
        let first = &report.rules[0];
        let expected = format!(
            "rank 1: with the rules above, {} filter expansions ({:.2}x fewer than local checking); without it the set expands {} more",
            first.cost.expansions,
            report.baseline.expansions as f64 / first.cost.expansions as f64,
            first.marginal_expansions
        );
        assert!(named[0].description[0].starts_with(&expected), "{}", named[0].description[0]);
        let table = report.table(&named, domain.schema());
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[1].starts_with("(baseline)") && lines[1].contains(&report.baseline.expansions.to_string()));
        assert!(lines[3].starts_with("learned_2") && lines[3].contains(&report.rules[1].cost.expansions.to_string()));
    }
}
