//! What a checker makes of a run's answers: [`Checked`].

use crate::reason::{Reason, Wrong};
use crate::verdict::Verdict;

/// What a checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Checked {
    pub(crate) verdict: Verdict,
    /// Why, as data; [`Reason::Accepted`] when accepted.
    pub(crate) reason: Reason,
    /// Multi-line evidence: grid diffs or a line diff. Plain text, readable
    /// without colour.
    pub(crate) details: String,
    /// What the submission printed as its answers: the first
    /// [`KEEP`](super::answers::KEEP) bytes (for `test --keep`).
    pub(crate) output: String,
}

impl Checked {
    pub(super) fn accepted() -> Self {
        Self {
            verdict: Verdict::AC,
            reason: Reason::Accepted,
            details: String::new(),
            output: String::new(),
        }
    }

    pub(super) fn wrong(reason: Wrong, details: String) -> Self {
        Self {
            verdict: Verdict::WA,
            reason: Reason::Wrong(reason),
            details,
            output: String::new(),
        }
    }
}

/// At most this many problems are spelled out per answer, and at most this
/// many wrong answers get a grid.
pub(super) const SHOWN: usize = 3;
