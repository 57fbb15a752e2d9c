//! [`Tee`]: one reporter that sends every event to several.

use std::io;

use crate::results::{Event, Reporter};

/// Sends every event to several reporters: the table on the terminal and
/// the files asked for with `--json`, `--junit` and `--html`.
///
/// A reporter that fails (stdout piped into `head`, say) is dropped, and the
/// others go on, so report files are still written; its error is returned
/// when the run finishes, or at once when no reporter is left.
pub(crate) struct Tee {
    reporters: Vec<Option<Box<dyn Reporter>>>,
    error: Option<io::Error>,
}

impl Tee {
    pub(crate) fn new(reporters: Vec<Box<dyn Reporter>>) -> Self {
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
