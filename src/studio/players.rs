//! The studio's players: the nonogram rule set (the learned top rules of
//! `rules/nonogram/top10.rules` by default) and the Witness rule file (the
//! whole game's learned set `rules/witness/learned-game.rules` by default), both built
//! into the binary so that the studio needs no file at run time;
//! `--rules FILE` replaces the default of the file's domain.

use std::path::PathBuf;
use stratsynth::domains::nonogram::rules::check::brute_force_all;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::witness::play::players::RulePlayer;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::{read_rules, refuse_unsound};

/// The default nonogram rule set's name and text.
const NONOGRAM_RULES: (&str, &str) = ("rules/nonogram/top10.rules", include_str!("../../rules/nonogram/top10.rules"));

/// The default Witness rule file's name and text.
const WITNESS_RULES: (&str, &str) =
    ("rules/witness/learned-game.rules", include_str!("../../rules/witness/learned-game.rules"));

/// The rule sets the studio's players use.
pub struct Players {
    /// The nonogram rule set's name (its path).
    pub nonogram_name: String,
    /// The nonogram domain of the rules.
    pub nonogram: Nonogram,
    /// The nonogram rules.
    pub nonogram_rules: Vec<Rule>,
    /// The Witness rule player.
    pub witness: RulePlayer,
}

impl Players {
    /// The defaults, each replaced by the rule file of its domain among `files`.
    pub fn load(files: &[PathBuf]) -> Result<Players, String> {
        let schema = Schema::nonogram();
        let (name, text) = NONOGRAM_RULES;
        let rules = parse_rules(text, name, &schema).map_err(|e| e.to_string())?;
        let nonogram = Nonogram::with_schema(schema, "dsl/nonogram.ron").map_err(|e| e.to_string())?;
        let mut players =
            Players { nonogram_name: name.into(), nonogram, nonogram_rules: rules, witness: witness_default()? };
        let (mut seen_nonogram, mut seen_witness) = (false, false);
        for path in files {
            let (schema, rules) = read_rules(path)?;
            let name = path.display().to_string();
            let twice = |d: &str| format!("{name}: a second {d} rule file; give at most one --rules per domain");
            if schema.domain() == Schema::nonogram().domain() {
                if std::mem::replace(&mut seen_nonogram, true) {
                    return Err(twice("nonogram"));
                }
                players.nonogram = Nonogram::with_schema(schema, "dsl/nonogram.ron").map_err(|e| e.to_string())?;
                refuse_unsound_nonogram(&name, &players.nonogram, &rules)?;
                players.nonogram_rules = rules;
                players.nonogram_name = name;
            } else {
                if std::mem::replace(&mut seen_witness, true) {
                    return Err(twice("Witness"));
                }
                players.witness = witness_player(name, schema, rules)?;
            }
        }
        Ok(players)
    }
}

/// Lines of 1 to this many cells on which a nonogram rule file is checked
/// by brute force before it plays (as `generate nonogram --player` does).
const NONOGRAM_CHECK_CELLS: usize = 10;

/// Refuses a nonogram rule file with a rule unsound on a short line (it
/// fills a cell the line does not force), as an unsound Witness one is.
fn refuse_unsound_nonogram(name: &str, domain: &Nonogram, rules: &[Rule]) -> Result<(), String> {
    let checked = brute_force_all(domain, rules, NONOGRAM_CHECK_CELLS);
    match rules.iter().zip(checked).find_map(|(rule, cx)| cx.map(|cx| (rule, cx))) {
        Some((rule, cx)) => Err(format!(
            "{name}: rule `{}` is unsound: on the line {} it fills a cell the line does not force; \
             the studio's players must be sound: check the set with `stratsynth verify`",
            rule.name,
            stratsynth::synth::Domain::show(domain, &cx.state)
        )),
        None => Ok(()),
    }
}

/// The built-in Witness rule file.
fn witness_default() -> Result<RulePlayer, String> {
    let (name, text) = WITNESS_RULES;
    let schema = Schema::witness();
    let rules = parse_rules(text, name, &schema).map_err(|e| e.to_string())?;
    witness_player(name.into(), schema, rules)
}

/// The Witness rule player `name` playing `rules` of `schema` (refused if
/// the brute-force check finds a rule unsound).
fn witness_player(name: String, schema: Schema, rules: Vec<Rule>) -> Result<RulePlayer, String> {
    let domain = Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?;
    refuse_unsound(&name, &domain, &rules)?;
    Ok(RulePlayer::new(name, &domain, rules))
}
