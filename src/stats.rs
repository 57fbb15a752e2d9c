//! Summaries of timings: the runner measures them, the results carry them
//! and reporters show them, so they live below all three.

use std::time::Duration;

/// Minimum, median and maximum of some timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spread {
    pub(crate) min: Duration,
    pub(crate) median: Duration,
    pub(crate) max: Duration,
}

impl Spread {
    pub(crate) fn of(times: &[Duration]) -> Option<Spread> {
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        Some(Spread {
            min: *sorted.first()?,
            median: sorted[sorted.len() / 2],
            max: *sorted.last()?,
        })
    }
}
