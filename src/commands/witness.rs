//! What the Witness commands share: a rule file as a search predicate
//! (refused if the brute-force check finds a rule unsound), size ranges,
//! puzzle files, generated puzzle sets with a progress bar, the mining
//! progress line.
//!
//! A rule set is used in search as "local constraint checking or some rule
//! fires" (Stevens §5.2; [`RuleSetPredicate`]); without `--rules` the
//! predicate is local constraint checking alone (`rules/witness/baseline.rules`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use stratsynth::domains::witness::formats::puzzle::read_puzzles;
use stratsynth::domains::witness::make::generate::{Generator, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::model::grid::{size_limit, MAX_SIDE};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::synthesis::mine::PuzzleMined;
use stratsynth::domains::witness::Puzzle;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::report::ticking::ticking;
use stratsynth::rule_files::read_sound_rules;

/// The predicate of a Witness rule file (none: local constraint checking),
/// refused if the brute-force check finds a rule unsound.
pub(crate) fn predicate(rules: Option<&FsPath>) -> Result<RuleSetPredicate, String> {
    let (domain, rules) = match rules {
        None => (Witness::new(), vec![]),
        Some(path) => read_sound_rules(path)?,
    };
    Ok(predicate_of(&domain, rules))
}

/// The predicate of `rules` of `domain`.
pub(crate) fn predicate_of(domain: &Witness, rules: Vec<Rule>) -> RuleSetPredicate {
    RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules)
}

/// A size range argument `WxH..WxH` of option `flag`, within the size limit.
pub(crate) fn sizes(flag: &str, text: &str) -> Result<SizeRange, String> {
    // every side beyond the limit gets the same message, however large
    let sides = text.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty());
    if sides.clone().any(|n| n.parse::<usize>().map_or(true, |n| n > MAX_SIDE)) {
        return Err(format!("{flag} {text}: {}", size_limit()));
    }
    text.parse::<SizeRange>().map_err(|e| format!("{flag}: {e}"))
}

/// A progress bar of `len` steps on standard error (drawn only on a terminal).
pub(super) fn bar(len: usize, template: &str) -> ProgressBar {
    ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
        .with_style(ProgressStyle::with_template(template).expect("a valid template"))
}

/// `count` puzzles of a generator seeded with `seed`, with a progress bar
/// (or, when standard error is not a terminal, a line every few seconds):
/// a large puzzle's solvability check can take seconds.
pub(super) fn generate_shown(config: &GeneratorConfig, seed: u64, count: usize) -> Result<Vec<Puzzle>, String> {
    let bar = bar(count, "generating {bar:30} {pos}/{len} puzzles, {elapsed_precise} elapsed");
    let made = AtomicUsize::new(0);
    let say = |t: Duration| {
        bar.is_hidden().then(|| {
            format!("generating puzzles: {} of {count} made, {:.0} s", made.load(Ordering::Relaxed), t.as_secs_f64())
        })
    };
    let mut generator = Generator::new(config.clone(), seed);
    let puzzles = ticking(say, || {
        (0..count)
            .map(|_| {
                generator.next_puzzle().inspect(|_| {
                    bar.inc(1);
                    made.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect::<Result<Vec<_>, _>>()
    });
    bar.finish_and_clear();
    puzzles.map_err(|e| e.to_string())
}

/// Reads a puzzle file (the reader refuses grids beyond the size limit).
pub(crate) fn puzzles(path: &FsPath) -> Result<Vec<Puzzle>, String> {
    read_puzzles(path).map_err(|e| e.to_string())
}

/// What to say on standard error about mining puzzle `m` of `count`: its
/// progress, or that the path budget stopped it (nothing when it ends
/// within the budget).
pub(crate) fn mining_line(m: &PuzzleMined, count: usize) -> Option<String> {
    let which = format!("mining puzzle {} of {count}", m.index + 1);
    match (m.finished, m.stopped) {
        (false, _) => Some(format!("{which}: {} paths so far, {} specifications", m.paths, m.found)),
        (true, true) => Some(format!(
            "{which}: stopped after {} paths (the path budget); its specifications so far are kept",
            m.paths
        )),
        (true, false) => None,
    }
}
