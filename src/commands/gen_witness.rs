//! `gen witness` (formerly `witness gen`): random solvable Witness puzzle
//! sets, by Stevens' Algorithms 3 and 4 or with chosen kinds of constraint.

use super::witness::{generate_shown, sizes};
use super::{check_output, write_output, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::witness::formats::puzzle::puzzles_to_ron;
use stratsynth::domains::witness::make::generate::{Algorithm, GeneratorConfig};
use stratsynth::domains::witness::make::generate_kinds::Mix;

/// Options of `witness gen`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct GenArgs {
    /// Algorithm 3 (random triangles until solvable) or 4 (triangles read off a random path).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=4), conflicts_with = "constraints")]
    pub alg: Option<u8>,
    /// Instead of --alg: the kinds of constraint to place, any of
    /// `triangles,colours,stars,dots,broken`, consistent with a hidden
    /// random path (so every puzzle is solvable); `KINDS:N` with N colours.
    /// Repeated, the puzzles take the lists in turn (a mix of kinds).
    #[arg(long)]
    pub constraints: Vec<String>,
    /// Colours of separation squares and stars to draw from (with --constraints; default 2).
    #[arg(long, requires = "constraints", value_parser = clap::value_parser!(u8).range(1..))]
    pub colours: Option<u8>,
    /// Sizes `WxH..WxH` (width and height drawn uniformly).
    #[arg(long)]
    pub sizes: String,
    /// Number of puzzles.
    #[arg(long)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output `.ron` puzzle file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `witness gen --alg 3|4 | --constraints K [--colours N] --sizes R --count N --seed S -o P.ron`.
pub fn gen(args: &GenArgs) -> CmdResult {
    let (size_range, count, seed, output) = (args.sizes.as_str(), args.count, args.seed, args.output.as_path());
    if args.colours.is_some() && args.constraints.is_empty() {
        return Err("--colours needs --constraints (the colours of separation squares and stars)".into());
    }
    let (algorithm, flags, what) =
        match args.alg {
            _ if !args.constraints.is_empty() => {
                let colours = args.colours.unwrap_or(2);
                let mix = Mix::parse(&args.constraints, colours).map_err(|e| format!("--constraints: {e}"))?;
                let (flags, what) = match mix.parts() {
                    [kinds] => {
                        let (names, colours) = (kinds.names(), kinds.colour_count);
                        (format!("--constraints {names} --colours {colours}"), format!("{names}, {colours} colours"))
                    }
                    _ => (mix.flags(), format!("in turn: {}", mix.describe())),
                };
                (Algorithm::of_mix(mix), flags, what)
            }
            Some(3) => (Algorithm::RandomTriangles, "--alg 3".to_string(), "Algorithm 3".to_string()),
            Some(4) => (Algorithm::FromPath, "--alg 4".to_string(), "Algorithm 4".to_string()),
            _ => return Err(
                "expected --alg 3 (random triangles), --alg 4 (triangles from a random path) or --constraints KINDS"
                    .into(),
            ),
        };
    check_output(output, &[])?;
    let config = GeneratorConfig::new(sizes("--sizes", size_range)?, algorithm);
    let ps = generate_shown(&config, seed, count)?;
    let header = format!(
        "// stratsynth witness gen {flags} --sizes {size_range} --count {count} --seed {seed} -o {}\n",
        output.display()
    );
    write_output(output, &(header + &puzzles_to_ron(&ps)))?;
    println!("wrote {} puzzles ({what}, sizes {size_range}, seed {seed}) to {}", ps.len(), output.display());
    Ok(ExitCode::SUCCESS)
}
