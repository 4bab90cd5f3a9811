//! The studio's request bodies, typed: each route's JSON object as a serde
//! struct that refuses unknown fields and wrongly typed values, the error
//! naming the field (`title`: invalid type: integer `5`, expected a
//! string); a field's range is checked by [`within`].

use super::ApiError;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// A request's JSON object read into `T` (400 naming the field on any
/// mistake).
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::bad(format!("expected a JSON object, found {}", kind(&value))));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        match path.as_str() {
            "" | "." => ApiError::bad(e.into_inner().to_string()),
            _ => ApiError::bad(format!("`{path}`: {}", e.into_inner())),
        }
    })
}

/// What a JSON value is, in words.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Field `key`'s value (or `default` when absent) within `range`.
pub fn within(
    key: &str,
    value: Option<u64>,
    range: std::ops::RangeInclusive<u64>,
    default: Option<u64>,
) -> Result<u64, ApiError> {
    let n = value.or(default).ok_or_else(|| ApiError::bad(format!("`{key}` is missing")))?;
    if !range.contains(&n) {
        return Err(ApiError::bad(format!(
            "`{key}`: expected an integer from {} to {}, found {n}",
            range.start(),
            range.end()
        )));
    }
    Ok(n)
}

/// A nonogram puzzle: a picture (`width`, `height`, `goal`, `title`,
/// `author`) or clues (`rows`, `columns`), never both.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NonogramPuzzle {
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub goal: Option<String>,
    pub title: Option<String>,
    pub author: Option<String>,
    pub rows: Option<Vec<Vec<u64>>>,
    pub columns: Option<Vec<Vec<u64>>>,
}

impl NonogramPuzzle {
    /// The field that contradicts the others, if any: clues with a
    /// picture's fields, or a size without a goal.
    pub fn contradiction(&self) -> Option<ApiError> {
        let clue = if self.rows.is_some() { Some("rows") } else { self.columns.as_ref().map(|_| "columns") };
        let size = if self.width.is_some() { Some("width") } else { self.height.as_ref().map(|_| "height") };
        match (clue, &self.goal, size) {
            (Some(c), Some(_), _) => Some(ApiError::bad(format!("`{c}`: a picture (`goal`) takes no clues"))),
            (Some(_), None, Some(s)) => {
                Some(ApiError::bad(format!("`{s}`: clues (`rows`, `columns`) give the size; a picture needs `goal`")))
            }
            _ => None,
        }
    }
}

/// The cells known of a nonogram puzzle (row by row: `#` filled, `x`
/// crossed out, `.` unknown), whose blocks' owners are asked.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Owners {
    pub puzzle: NonogramPuzzle,
    pub known: String,
}

/// A nonogram picture to repair and the repair's options.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Repair {
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub goal: Option<String>,
    pub title: Option<String>,
    pub player: Option<String>,
    pub count: Option<u64>,
    pub max_changes: Option<u64>,
    pub max_evaluations: Option<u64>,
    pub bits: Option<String>,
}

/// A random nonogram's size and options.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Random {
    pub width: u64,
    pub height: u64,
    pub player: Option<String>,
    pub bits: Option<String>,
    pub steps: Option<String>,
    pub density: Option<f64>,
    pub seed: Option<u64>,
    pub max_candidates: Option<u64>,
}

/// A Witness puzzle in RON.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct WitnessPuzzle {
    pub puzzle: String,
}

/// A Witness puzzle whose first `max` solutions are asked.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Solutions {
    pub puzzle: String,
    pub max: Option<u64>,
}

/// A vertex or square `[x, y]`.
pub type Pair = (usize, usize);

/// EPCG over a Witness puzzle's placeholders.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Generate {
    pub puzzle: String,
    pub at: Option<Vec<Pair>>,
    pub edge_at: Option<Vec<(Pair, Pair)>>,
    pub marks: Option<bool>,
    pub order: Option<String>,
    pub top: Option<u64>,
}

/// A Flow puzzle: its text in any of the three layouts.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowPuzzle {
    pub puzzle: String,
}

/// A Flow puzzle whose solve is explained by a player (`rules`, the
/// default, or `control`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowExplain {
    pub puzzle: String,
    pub player: Option<String>,
}

/// A random Flow puzzle's size and options, as `generate flow`'s.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowGenerate {
    pub width: u64,
    pub height: u64,
    pub colours: Option<u64>,
    pub player: Option<String>,
    pub max_bits: Option<f64>,
    pub seed: Option<u64>,
    pub max_candidates: Option<u64>,
}

/// A drawn Flow puzzle to repair and the repair's options, as `generate
/// flow --from`'s.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlowRepair {
    pub puzzle: String,
    pub player: Option<String>,
    pub max_bits: Option<f64>,
    pub max_changes: Option<u64>,
}

/// The body of a request that takes no fields: `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}
