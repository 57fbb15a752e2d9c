//! Reporters: the only part of the library that writes what people read.
//! The judge sends one vocabulary of [`Event`]s; each reporter renders them
//! to an injected writer, so tests render into strings.

pub mod human;
pub mod json;
pub mod junit;

use std::io;
use std::time::Duration;

use crate::judge::{CaseResult, Summary};
use crate::runner::lang::BuildInfo;

/// What the judge tells reporters, in order: `Started`, one
/// `CaseFinished` per case in case order, then `Finished`.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Started {
        cases: usize,
        submission: &'a str,
        /// How a source file was built, when one was.
        build: Option<&'a BuildInfo>,
        /// Cases judged at once.
        jobs: usize,
    },
    CaseFinished(&'a CaseResult),
    Finished {
        results: &'a [CaseResult],
        summary: &'a Summary,
    },
}

pub trait Reporter {
    fn report(&mut self, event: Event<'_>) -> io::Result<()>;
}

/// Milliseconds with precision that suits the size: `0.042`, `4.20`, `123`.
pub fn format_ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 1.0 {
        format!("{ms:.3} ms")
    } else if ms < 100.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// Kilobytes as people read memory: `812 KB`, `2.1 MB`.
pub fn format_kb(kb: u64) -> String {
    if kb < 1024 {
        format!("{kb} KB")
    } else {
        format!("{:.1} MB", kb as f64 / 1024.0)
    }
}

/// Sends every event to several reporters: the table on the terminal and
/// the files asked for with `--json` and `--junit`.
///
/// A reporter that fails (stdout piped into `head`, say) is dropped, and the
/// others go on, so report files are still written; its error is returned
/// when the run finishes, or at once when no reporter is left.
pub struct Tee {
    reporters: Vec<Option<Box<dyn Reporter>>>,
    error: Option<io::Error>,
}

impl Tee {
    pub fn new(reporters: Vec<Box<dyn Reporter>>) -> Self {
        Tee {
            reporters: reporters.into_iter().map(Some).collect(),
            error: None,
        }
    }
}

impl Reporter for Tee {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        for slot in &mut self.reporters {
            if let Some(reporter) = slot {
                if let Err(error) = reporter.report(event) {
                    self.error.get_or_insert(error);
                    *slot = None;
                }
            }
        }
        let finished = matches!(event, Event::Finished { .. });
        if finished || self.reporters.iter().all(Option::is_none) {
            if let Some(error) = self.error.take() {
                return Err(error);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(format_ms(Duration::from_micros(42)), "0.042 ms");
        assert_eq!(format_ms(Duration::from_micros(4200)), "4.20 ms");
        assert_eq!(format_ms(Duration::from_millis(1234)), "1234 ms");
        assert_eq!(format_kb(812), "812 KB");
        assert_eq!(format_kb(2150), "2.1 MB");
    }
}
