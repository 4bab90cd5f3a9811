//! What a summary tells its reader to raise when a search ran out: the
//! command line's flags, or, in the studio, the command that searches
//! further.

/// What a summary tells its reader to do when a search ran out: the
/// command line names its flags, the studio (whose page sets neither) the
/// command that searches further.
#[derive(Clone, Copy, Debug)]
pub struct Remedies {
    /// When the time ran out.
    pub time: &'static str,
    /// When every change up to the most allowed was tried.
    pub changes: &'static str,
    /// When the pictures judged ran out (nonogram repair).
    pub judged: &'static str,
}

impl Remedies {
    /// The command line's: raise its flags.
    pub const COMMAND: Remedies =
        Remedies { time: "raise --timeout", changes: "raise --max-changes", judged: "raise --max-evaluations" };
}
