//! A [`Session`]: a function's process kept alive from one case to the next,
//! and how long it may live ([`SESSION_LIFETIME`]).

use super::process;

use std::time::Duration;

use crate::case::Limits;

/// How long a process that serves case after case may live: the bounds
/// that count are each case's.
pub(crate) const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// A submission's process kept from one case to the next, as LeetCode
/// keeps one for all the tests of a submission: globals and statics keep
/// their values, and starting the runtime is paid once.
pub(crate) struct Session {
    pub(super) process: process::Process,
    /// Cases it has judged.
    pub(super) cases: usize,
    /// The limits it was started under; a case under others needs another.
    pub(super) limits: Limits,
    pub(super) started: std::time::Instant,
    /// A driver that has said `ready`.
    pub(super) ready: bool,
}

impl Session {
    pub(super) fn new(process: process::Process, limits: Limits) -> Session {
        Session {
            process,
            cases: 0,
            limits,
            started: std::time::Instant::now(),
            ready: false,
        }
    }
}
