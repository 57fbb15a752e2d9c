//! JUnit XML, for CI viewers: one `<testsuite>` per suite directory, one
//! `<testcase>` per case. A verdict other than AC is a `<failure>` whose
//! type is the verdict code and whose text is the reason and the diff; a
//! case that could not be judged is an `<error>`. Times are in seconds.
//! Written when the run finishes, including an interrupted run.

use std::io;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{Event, Reporter};
use crate::results::{CaseResult, Outcome};
use crate::verdict::Verdict;

pub struct JunitReporter<W> {
    out: Option<W>,
    submission: String,
    /// Each case as it is judged, in its suite: the XML is written at the
    /// end, when every suite's totals are known.
    suites: Vec<TestSuite>,
}

impl<W: io::Write> JunitReporter<W> {
    pub fn new(out: W) -> Self {
        Self {
            out: Some(out),
            submission: String::new(),
            suites: Vec::new(),
        }
    }
}

/// A case's suite (its suite directory, as found) and its name within it.
fn suite_and_name(result: &CaseResult) -> (String, String) {
    let name = result
        .id
        .rsplit_once('/')
        .map_or(result.id.as_str(), |(_, name)| name);
    (result.suite.display().to_string(), name.to_string())
}

fn test_case(result: &CaseResult) -> (String, TestCase) {
    let (suite, name) = suite_and_name(result);
    let mut case = match &result.outcome {
        Outcome::Judged(j) if j.verdict == Verdict::AC => {
            TestCase::new(name, TestCaseStatus::success())
        }
        Outcome::Judged(j) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_type(j.verdict.code()).set_message(format!(
                "{}: {}",
                j.verdict.code(),
                j.reason
            ));
            let mut text = format!("{}: {}\n", j.verdict.name(), j.reason);
            if !j.details.is_empty() {
                text.push_str(&j.details);
            }
            status.set_description(text);
            TestCase::new(name, status)
        }
        Outcome::Error(error) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_type("ERROR").set_message(error.message.clone());
            TestCase::new(name, status)
        }
    };
    case.set_classname(suite.clone());
    if let Outcome::Judged(j) = &result.outcome {
        case.set_time(j.wall);
        if !j.stdout.is_empty() {
            case.set_system_out(j.stdout.clone());
        }
        if !j.stderr.is_empty() {
            case.set_system_err(j.stderr.clone());
        }
    }
    (suite, case)
}

impl<W: io::Write> Reporter for JunitReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { submission, .. } => self.submission = submission.to_string(),
            Event::CaseFinished(result) => {
                let (suite, case) = test_case(result);
                // Cases come in sorted order, so their suite is most often the last one.
                match self
                    .suites
                    .iter_mut()
                    .rev()
                    .find(|s| s.name.as_str() == suite)
                {
                    Some(existing) => {
                        existing.add_test_case(case);
                    }
                    None => {
                        let mut new = TestSuite::new(suite);
                        new.add_test_case(case);
                        self.suites.push(new);
                    }
                }
            }
            Event::Finished { summary } => {
                let mut report = Report::new(format!("sudoku-judge: {}", self.submission));
                report.set_time(summary.elapsed);
                let mut suites = std::mem::take(&mut self.suites);
                for suite in &mut suites {
                    let time = suite.test_cases.iter().filter_map(|c| c.time).sum();
                    suite.set_time(time);
                }
                report.add_test_suites(suites);
                if let Some(out) = self.out.take() {
                    report.serialize(out).map_err(io::Error::other)?;
                }
            }
        }
        Ok(())
    }
}
