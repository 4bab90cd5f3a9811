//! `mine nonogram`: every deduction of every small nonogram line state,
//! one specification per run of newly forced cells.

use super::{check_output, printable, write_output, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::formats::lines::format_transition;
use stratsynth::domains::nonogram::synthesis::mine::{mine as mine_specs, Sample, MAX_MINE_LEN};

/// Options of `mine nonogram`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct MineArgs {
    /// Longest line enumerated.
    #[arg(long, default_value_t = 7)]
    pub max_len: usize,
    /// Keep a seeded random sample of this many productive states.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Seed of the sample (with `--sample`; default 0).
    #[arg(long, default_value_t = 0, hide_default_value = true, requires = "sample")]
    pub seed: u64,
    /// Output `.lines` file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `mine nonogram --max-len L [--sample N --seed S] -o OUT`.
pub fn mine(args: &MineArgs) -> CmdResult {
    let (max_len, sample, seed, output) = (args.max_len, args.sample, args.seed, args.output.as_path());
    if max_len == 0 || max_len > MAX_MINE_LEN {
        return Err(format!(
            "--max-len must be between 1 and {MAX_MINE_LEN} (the number of states grows about 4x per cell)"
        ));
    }
    check_output(output, &[])?;
    let sample = sample.map(|count| Sample { count, seed });
    let (report, specs) = mine_specs(max_len, sample);
    let mut command = format!("stratsynth mine nonogram --max-len {max_len}");
    if let Some(s) = sample {
        command.push_str(&format!(" --sample {} --seed {}", s.count, s.seed));
    }
    command.push_str(&format!(" -o {}", output.display()));
    let used = match sample {
        Some(s) => format!("{} sampled with seed {}", report.used, s.seed),
        None => "all used".to_string(),
    };
    let mut text = format!(
        "# {command}\n\
         # {} valid line states of 1-{max_len} cells; {} mirror pairs (one state kept from each); \
         {} productive, {used}; {} specifications (one per run of newly forced cells)\n\
         # HINTS | START | TARGET\n",
        report.states,
        report.mirror_pairs,
        report.productive,
        report.specs,
        command = printable(&command)
    );
    for t in &specs {
        text.push_str(&format_transition(t));
        text.push('\n');
    }
    write_output(output, &text)?;
    eprintln!(
        "{} states, {} mirror pairs, {} productive, {used}: wrote {} specifications to {}",
        report.states,
        report.mirror_pairs,
        report.productive,
        report.specs,
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}
