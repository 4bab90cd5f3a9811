//! The options `learn nonogram`, `learn witness` and `learn flow` share (the proofs'
//! resource limits, the worker threads), flattened into each; and how they
//! are written in a rule file's `# options:` line, in the place each
//! command has always written them.

use serde::ser::SerializeStruct;

/// The selection of a `learn` command's top `k`, with `--max-mean-cost
/// M` (0: by gain alone, costs breaking ties; else by gain per unit of
/// cost, the chosen rules' mean cost at most M).
pub fn selection(k: usize, max_mean_cost: u32) -> stratsynth::select::Selection {
    stratsynth::select::Selection { k, max_mean_cost: (max_mean_cost > 0).then_some(max_mean_cost) }
}

/// How `selection` chose, in words: "greedily by WHAT", and under a
/// bound on the mean cost "per unit of rule cost, ...".
pub fn chosen_by(selection: stratsynth::select::Selection, what: &str) -> String {
    match selection.max_mean_cost {
        Some(mean) => format!("greedily by {what} per unit of rule cost, their mean cost at most {mean} at every rank"),
        None => format!("greedily by {what}"),
    }
}

/// The shared options of the `learn` commands.
#[derive(clap::Args, Debug)]
pub struct ProofArgs {
    /// Z3 resource limit per query of the search (`rlimit`: Z3's own step
    /// count, so the answer does not depend on machine load); a rule whose
    /// proof runs out is never kept unproven (see `--retry-rlimit`).
    #[arg(long, default_value_t = stratsynth::synth::DEFAULT_SEARCH_RLIMIT, value_parser = clap::value_parser!(u32).range(1..))]
    pub rlimit: u32,
    /// Z3 resource limit of the second proof of the rules whose proof ran
    /// out of `--rlimit` and that would add to the learned set's score or
    /// enter its top K (0: no second proof; those rules are dropped).
    #[arg(long, default_value_t = stratsynth::synth::DEFAULT_SECOND_PROOF_RLIMIT)]
    pub retry_rlimit: u32,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl ProofArgs {
    /// Writes the fields into the options of a command (`rlimit`,
    /// `retry_rlimit`, `threads`, in that order).
    pub fn serialize_fields<S: SerializeStruct>(&self, out: &mut S) -> Result<(), S::Error> {
        out.serialize_field("rlimit", &self.rlimit)?;
        out.serialize_field("retry_rlimit", &self.retry_rlimit)?;
        out.serialize_field("threads", &self.threads)
    }
}

#[cfg(test)]
mod tests {
    use super::super::learn_flow::FlowArgs;
    use super::super::learn_nonogram::NonogramArgs;
    use super::super::learn_witness::LearnArgs;
    use clap::Parser;

    /// `learn nonogram` or `learn witness` as parsed from the command line.
    #[derive(Parser)]
    enum Learn {
        Nonogram(NonogramArgs),
        Witness(LearnArgs),
        Flow(FlowArgs),
    }

    /// The `# options:` line of a committed rule file.
    fn options_line(file: &str) -> String {
        let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        text.lines().find_map(|l| l.strip_prefix("# options: ")).unwrap().to_string()
    }

    /// The options line the command line `args` writes.
    fn written(args: &[&str]) -> String {
        match Learn::parse_from(args) {
            Learn::Nonogram(a) => ron::to_string(&a).unwrap(),
            Learn::Witness(a) => ron::to_string(&a).unwrap(),
            Learn::Flow(a) => ron::to_string(&a).unwrap(),
        }
    }

    #[test]
    fn the_shared_options_are_written_where_the_committed_rule_files_have_them() {
        assert_eq!(written(&["learn", "nonogram"]), options_line("rules/nonogram/learned.rules"));
        assert_eq!(written(&["learn", "witness"]), options_line("rules/witness/learned.rules"));
        assert_eq!(written(&["learn", "flow"]), options_line("rules/flow/learned.rules"));
        let marks =
            "learn witness --constraints colours,stars,dots --colours 2 --sizes 4x4..5x5 --train 12 --filter 60 \
                     --max-specs 30 --augment 30 --select-by expansions -k 10 --bound 4 --threads 2 \
                     -o rules/witness/learned-marks.rules";
        assert_eq!(
            written(&marks.split_whitespace().collect::<Vec<_>>()),
            options_line("rules/witness/learned-marks.rules")
        );
        let game = "learn witness --constraints triangles:2 --constraints colours,dots:2 --constraints stars,dots:2 \
                    --constraints triangles,colours,stars,dots,broken:2 --constraints colours:3 --constraints stars:3 \
                    --constraints triangles,colours,stars,dots,broken:3 --constraints colours,dots,broken:3 \
                    --sizes 3x3..6x6 --train 24 --filter 64 --max-specs 30 --augment 163 --select-by expansions \
                    -k 16 --bound 4 --threads 2 -o rules/witness/learned-game.rules";
        assert_eq!(
            written(&game.split_whitespace().collect::<Vec<_>>()),
            options_line("rules/witness/learned-game.rules")
        );
    }
}
