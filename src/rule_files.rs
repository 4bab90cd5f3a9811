//! Rule files as the commands and the studio read them: in whichever
//! domain reads them, or in the one domain a command takes (saying which
//! domain they are in when another reads them), and the Witness soundness
//! gate: rules that play or prune are refused when the brute-force check
//! finds one firing on a completable state; and the whole game's learned
//! Witness set built into the binary, the default rule player.

use crate::domains::nonogram::synthesis::domain::{Nonogram, SchemaMismatch as NonogramMismatch};
use crate::domains::witness::play::players::RulePlayer;
use crate::domains::witness::rules::screen::{coverage, first_pruned};
use crate::domains::witness::synthesis::domain::Witness;
use crate::domains::witness::synthesis::view::SchemaMismatch as WitnessMismatch;
use crate::dsl::ast::Rule;
use crate::dsl::parse::{detect_and_parse, parse_rules, ParseError};
use crate::dsl::schema::Schema;
use crate::files::{read_text, FileError};
use std::path::Path;
use thiserror::Error;

/// Why a rule file cannot be used.
#[derive(Debug, Error)]
pub enum RuleFileError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// No domain reads the file.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The file holds rules of another domain than the command's.
    #[error("{error} (these are {found} rules; this command takes {wanted} rules)")]
    OtherDomain {
        /// The error of reading it in the command's domain.
        error: ParseError,
        /// The domain that reads it.
        found: String,
        /// The command's domain.
        wanted: String,
    },
    /// The nonogram DSL file does not describe nonogram lines.
    #[error(transparent)]
    Nonogram(#[from] NonogramMismatch),
    /// The Witness DSL file does not describe Witness partial paths.
    #[error(transparent)]
    Witness(#[from] WitnessMismatch),
    /// A Witness rule prunes a path some solution begins with.
    #[error(
        "{file}: rule `{rule}` is unsound: it prunes {path}, a path some solution begins with (brute force on {checked}); \
         rules that play or prune must be sound: check the set with `stratsynth verify`"
    )]
    Unsound {
        /// The rule file.
        file: String,
        /// The rule's name.
        rule: String,
        /// The completable path it prunes.
        path: String,
        /// What the brute-force check covers.
        checked: String,
    },
}

impl From<RuleFileError> for String {
    fn from(e: RuleFileError) -> String {
        e.to_string()
    }
}

/// The rule files' domains, in the order files are tried.
pub fn schemas() -> Vec<Schema> {
    vec![Schema::nonogram(), Schema::witness(), Schema::flow()]
}

/// Reads a rule file, detecting its domain; returns the schema and rules.
pub fn read_rules(path: &Path) -> Result<(Schema, Vec<Rule>), RuleFileError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    let mut schemas = schemas();
    let (i, rules) = detect_and_parse(&text, &shown, &schemas)?;
    Ok((schemas.swap_remove(i), rules))
}

/// Reads a rule file that a command of the domain of `schema` takes: the
/// error of reading it in that domain, saying which domain it is in if
/// another reads it (an empty file is an empty set of any domain).
pub fn read_rules_in(path: &Path, schema: Schema) -> Result<(Schema, Vec<Rule>), RuleFileError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    match parse_rules(&text, &shown, &schema) {
        Ok(rules) => Ok((schema, rules)),
        Err(error) => Err(match schemas().iter().find(|s| parse_rules(&text, &shown, s).is_ok()) {
            Some(other) => RuleFileError::OtherDomain {
                error,
                found: other.domain().to_string(),
                wanted: schema.domain().to_string(),
            },
            None => RuleFileError::Parse(error),
        }),
    }
}

/// Reads a rule file that must be in the nonogram domain.
pub fn read_nonogram_rules(path: &Path) -> Result<(Nonogram, Vec<Rule>), RuleFileError> {
    let (schema, rules) = read_rules_in(path, Schema::nonogram())?;
    let domain = Nonogram::with_schema(schema, "dsl/nonogram.ron")?;
    Ok((domain, rules))
}

/// Reads a Witness rule file that will play or prune, refusing it if a
/// rule prunes a path some solution begins with ([`refuse_unsound`]).
pub fn read_sound_rules(path: &Path) -> Result<(Witness, Vec<Rule>), RuleFileError> {
    let (schema, rules) = read_rules_in(path, Schema::witness())?;
    sound_witness_rules(&path.display().to_string(), schema, rules)
}

/// The whole game's learned Witness rules (path, text), built into the
/// binary so that the defaults below need no file at run time.
const WITNESS_GAME_RULES: (&str, &str) =
    ("rules/witness/learned-game.rules", include_str!("../rules/witness/learned-game.rules"));

/// The whole game's learned set, built in, as a rule player named by its
/// path (the default of the studio and of `witness generate`).
pub fn witness_game_player() -> Result<RulePlayer, RuleFileError> {
    let (name, text) = WITNESS_GAME_RULES;
    let schema = Schema::witness();
    let rules = parse_rules(text, name, &schema)?;
    let (domain, rules) = sound_witness_rules(name, schema, rules)?;
    Ok(RulePlayer::new(name.into(), &domain, rules))
}

/// The Witness domain of `schema` with `rules` of the file `name`,
/// refused if a rule prunes a path some solution begins with.
pub fn sound_witness_rules(
    name: &str,
    schema: Schema,
    rules: Vec<Rule>,
) -> Result<(Witness, Vec<Rule>), RuleFileError> {
    let domain = Witness::with_schema(schema, "dsl/witness.ron")?;
    refuse_unsound(name, &domain, &rules)?;
    Ok((domain, rules))
}

/// Refuses the rules of `file` if one of them fires on a completable
/// state of the brute-force check ([`first_pruned`]): a player or a search
/// with them would lose solutions, so its figures would be wrong.
pub fn refuse_unsound(file: &str, domain: &Witness, rules: &[Rule]) -> Result<(), RuleFileError> {
    match first_pruned(domain, rules) {
        None => Ok(()),
        Some(found) => Err(RuleFileError::Unsound {
            file: file.to_string(),
            rule: rules[found.rule].name.clone(),
            path: found.state.show(),
            checked: coverage(domain),
        }),
    }
}
