//! `mine witness`: specifications from generated puzzles, the
//! incompletable partial paths the rules do not prune.

use super::witness::{bar, generate_shown, mining_line, predicate, sizes};
use super::{check_output, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::witness::make::generate::{Algorithm, GeneratorConfig};
use stratsynth::domains::witness::synthesis::mine::{mine_observed, Scope};
use stratsynth::domains::witness::synthesis::specs::write_specs;
use stratsynth::domains::witness::{Path, Puzzle};

/// Options of `mine witness`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct MineArgs {
    /// Puzzle sizes `WxH..WxH` (Algorithm 3).
    #[arg(long, default_value = "2x2..4x4")]
    pub sizes: String,
    /// Number of training puzzles.
    #[arg(long, default_value_t = 500)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Witness rules whose prunes are not specifications (default: local constraint checking only).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Every incompletable path, not only those whose parent is completable.
    #[arg(long)]
    pub all: bool,
    /// Output specification file (`.ron`).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `mine witness --sizes R --count N --seed S [--rules R] [--all] -o F`.
pub fn mine_specs(args: &MineArgs) -> CmdResult {
    let (size_range, count, seed, rules, all, output) =
        (args.sizes.as_str(), args.count, args.seed, args.rules.as_deref(), args.all, args.output.as_path());
    check_output(output, &rules.into_iter().collect::<Vec<_>>())?;
    let config = GeneratorConfig::new(sizes("--sizes", size_range)?, Algorithm::RandomTriangles);
    let ps = generate_shown(&config, seed, count)?;
    let pred = predicate(rules)?;
    let flags = |p: &Puzzle, path: &Path| pred.flags(p, path);
    let bar = bar(ps.len(), "mining {bar:30} {pos}/{len} puzzles, {msg} specifications, {elapsed_precise} elapsed");
    let specs = mine_observed(&ps, &flags, if all { Scope::All } else { Scope::Frontier }, &mut |m| {
        if let Some(line) = mining_line(&m, ps.len()) {
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
        }
        bar.set_message(m.found.to_string());
        if m.finished {
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    let summary = format!(
        "{} specifications ({} incompletable paths, one per view, not pruned by local constraint checking{}) from {count} Algorithm-3 puzzles {size_range}, seed {seed}",
        specs.len(),
        if all { "all" } else { "frontier" },
        rules.map_or(String::new(), |r| format!(" or {}", r.display())),
    );
    let command = format!(
        "stratsynth mine witness --sizes {size_range} --count {count} --seed {seed}{}{} -o {}",
        rules.map_or(String::new(), |r| format!(" --rules {}", r.display())),
        if all { " --all" } else { "" },
        output.display()
    );
    write_specs(output, &specs, &[command, summary.clone()]).map_err(|e| e.to_string())?;
    println!("{summary}: {}", output.display());
    Ok(ExitCode::SUCCESS)
}
