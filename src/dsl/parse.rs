//! Parser for `.rules` files (placeholder: being written).

/// Whether `name` is a keyword of the rule language.
pub fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "def" | "with" | "and" | "if" | "then" | "not" | "true" | "false" | "is" | "unique" | "where" | "maximal"
            | "minimal" | "singleton" | "constant" | "arbitrary"
    )
}
