//! The studio's players: the nonogram rule set (the learned top rules of
//! `rules/nonogram/top10.rules` by default), the Witness rule file (the
//! whole game's learned set `rules/witness/learned-game.rules` by default) and the two
//! Flow rule sets (the learned `rules/flow/learned.rules` and the
//! hand-written `rules/flow/control.rules`), all built into the binary so
//! that the studio needs no file at run time; `--rules FILE` replaces the
//! default of the file's domain (for Flow, the learned set).

use std::path::PathBuf;
use stratsynth::domains::flow::rules::player::Player as FlowPlayer;
use stratsynth::domains::nonogram::rules::check::brute_force_all;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::witness::play::players::RulePlayer;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::{read_rules, sound_witness_rules, witness_game_player};

/// The default nonogram rule set's name and text.
const NONOGRAM_RULES: (&str, &str) = ("rules/nonogram/top10.rules", include_str!("../../rules/nonogram/top10.rules"));

/// The default learned Flow rule file's name and text.
const FLOW_RULES: (&str, &str) = ("rules/flow/learned.rules", include_str!("../../rules/flow/learned.rules"));

/// The Flow control rule file's name and text (the hand-written strategies).
const FLOW_CONTROL: (&str, &str) = ("rules/flow/control.rules", include_str!("../../rules/flow/control.rules"));

/// A Flow rule set: its file's name, its schema and its rules.
pub struct FlowRules {
    /// The file's name (its path).
    pub name: String,
    /// The schema the rules were read with.
    pub schema: Schema,
    /// The rules, in file order.
    pub rules: Vec<Rule>,
}

impl FlowRules {
    /// The built-in set `(name, text)`.
    fn built_in((name, text): (&str, &str)) -> Result<FlowRules, String> {
        let schema = Schema::flow();
        let rules = parse_rules(text, name, &schema).map_err(|e| e.to_string())?;
        FlowRules::checked(name.into(), schema, rules)
    }

    /// The set, refused if the rule player cannot play it.
    fn checked(name: String, schema: Schema, rules: Vec<Rule>) -> Result<FlowRules, String> {
        FlowPlayer::new(&rules, &schema, &name).map_err(|e| e.to_string())?;
        Ok(FlowRules { name, schema, rules })
    }

    /// The rule player of the set.
    pub fn player(&self) -> FlowPlayer<'_> {
        FlowPlayer::new(&self.rules, &self.schema, &self.name).expect("checked when loaded")
    }
}

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
    /// The learned Flow rule set (the `rules` player).
    pub flow: FlowRules,
    /// The Flow control set (the `control` player).
    pub flow_control: FlowRules,
}

impl Players {
    /// The defaults, each replaced by the rule file of its domain among `files`.
    pub fn load(files: &[PathBuf]) -> Result<Players, String> {
        let schema = Schema::nonogram();
        let (name, text) = NONOGRAM_RULES;
        let rules = parse_rules(text, name, &schema).map_err(|e| e.to_string())?;
        let nonogram = Nonogram::with_schema(schema, "dsl/nonogram.ron").map_err(|e| e.to_string())?;
        let mut players = Players {
            nonogram_name: name.into(),
            nonogram,
            nonogram_rules: rules,
            witness: witness_game_player()?,
            flow: FlowRules::built_in(FLOW_RULES)?,
            flow_control: FlowRules::built_in(FLOW_CONTROL)?,
        };
        let (mut seen_nonogram, mut seen_witness, mut seen_flow) = (false, false, false);
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
            } else if schema.domain() == Schema::flow().domain() {
                if std::mem::replace(&mut seen_flow, true) {
                    return Err(twice("Flow"));
                }
                players.flow = FlowRules::checked(name, schema, rules)?;
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

/// The Witness rule player `name` playing `rules` of `schema` (refused if
/// the brute-force check finds a rule unsound).
fn witness_player(name: String, schema: Schema, rules: Vec<Rule>) -> Result<RulePlayer, String> {
    let (domain, rules) = sound_witness_rules(&name, schema, rules)?;
    Ok(RulePlayer::new(name, &domain, rules))
}
