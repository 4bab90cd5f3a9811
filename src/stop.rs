//! Why a bounded search stopped before its answer was known: one type for
//! every search that runs within a budget (the complete nonogram solver
//! and the difficulty measure, the repair search, Witness A*, the Witness
//! players' enumerations, the studio's requests). Each variant is one
//! budget that ran out, and [`Stop::name`] is the one name reports give it
//! (`--json`'s `"stopped"`, the text's `stopped (...)`).

/// The budget that ran out. Ordered from the budget a user sets per search
/// to the deadline of the whole answer, so that the largest of several
/// stops says the time ran out when it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stop {
    /// The search nodes or states one search may visit (`--max-nodes` of
    /// `analyze` and `witness analyze`).
    Nodes,
    /// The paths one Witness A* search may hold, which bounds its memory
    /// (`--max-nodes` of `witness solve` and `witness bench`).
    HeldPaths,
    /// The expansions one Witness A* search may make.
    Expansions,
    /// The pictures a repair search may judge (`--max-evaluations`).
    Evaluations,
    /// The process's memory went past the search's memory budget
    /// (`analyze --max-memory`; the studio's share of its total).
    Memory,
    /// The time one Witness A* search may take (`--budget-ms`, or what is
    /// left of `witness solve --timeout`).
    TimeBudget,
    /// The deadline of the answer passed (`--timeout`, a studio request's
    /// budget).
    Timeout,
}

impl Stop {
    /// The name in reports: `--json`'s `"stopped"` and the text's
    /// `stopped (NAME)`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Nodes => "node budget",
            Stop::HeldPaths => "node budget: memory",
            Stop::Memory => "memory",
            Stop::Expansions => "expansion budget",
            Stop::Evaluations => "evaluation budget",
            Stop::TimeBudget => "time budget",
            Stop::Timeout => "timeout",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stop;

    #[test]
    fn each_budget_has_a_name_of_its_own_and_time_ranks_last() {
        let all = [
            Stop::Nodes,
            Stop::HeldPaths,
            Stop::Expansions,
            Stop::Evaluations,
            Stop::Memory,
            Stop::TimeBudget,
            Stop::Timeout,
        ];
        let names: std::collections::HashSet<&str> = all.iter().map(|s| s.name()).collect();
        assert_eq!(names.len(), all.len());
        assert_eq!(all.iter().max(), Some(&Stop::Timeout));
        assert!(Stop::Nodes < Stop::Timeout);
    }
}
