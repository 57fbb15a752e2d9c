//! JUnit XML, for CI viewers: one `<testsuite>` per suite directory, one
//! `<testcase>` per case. A verdict other than AC is a `<failure>` whose
//! type is the verdict code and whose text is the reason and the diff; a
//! case that could not be judged is an `<error>`; a case `--fail-fast`
//! left unjudged is `<skipped>`, saying where the run stopped. Times are
//! in seconds. Written when the run finishes, including an interrupted run.
//!
//! Every text from a case or a submission goes in as [`Outside::xml`](crate::outside::Outside::xml) (a
//! name as [`OutsideName::xml`], on one line):
//! the XML of any names and output is well-formed XML 1.0, which CI
//! viewers insist on (one U+FFFE in a stderr and they drop the file).

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::io;

use crate::outside::{OutsideName, OutsidePath};
use crate::results::{CaseOutcome, CaseResult, NotRun};
use crate::results::{Event, Reporter};
use crate::verdict::Verdict;

pub(crate) struct JunitReporter<W> {
    out: Option<W>,
    submission: OutsideName,
    /// Each case as it is judged, in its suite: the XML is written at the
    /// end, when every suite's totals are known.
    suites: Vec<TestSuite>,
    /// The last case not accepted: where `--fail-fast` stopped.
    last_failed: Option<OutsideName>,
}

impl<W: io::Write> JunitReporter<W> {
    pub(crate) fn new(out: W) -> Self {
        Self {
            out: Some(out),
            submission: OutsideName::default(),
            suites: Vec::new(),
            last_failed: None,
        }
    }
}

/// A case's name within its suite: its id's last part.
fn name(id: &OutsideName) -> OutsideName {
    let id = id.as_raw();
    id.rsplit_once('/').map_or(id, |(_, name)| name).into()
}

/// A testcase of `status` named for case `id`, in its suite (its suite
/// directory, as found), with the suite's name.
fn placed(id: &OutsideName, suite: &OutsidePath, status: TestCaseStatus) -> (String, TestCase) {
    let suite = suite_name(suite);
    let mut case = TestCase::new(name(id).xml().to_string(), status);
    case.set_classname(suite.clone());
    (suite, case)
}

/// A suite's directory as the case ids are named, relative to the
/// working directory: a suite found by an absolute path under it (the
/// record of `--failed` keeps such paths) is named as if found from here.
fn suite_name(suite: &OutsidePath) -> String {
    let here = std::env::current_dir().ok();
    let suite = suite.as_raw();
    match here
        .as_deref()
        .and_then(|here| suite.strip_prefix(here).ok())
    {
        Some(relative) if relative.as_os_str().is_empty() => ".".to_string(),
        Some(relative) => OutsidePath::new(relative).xml().to_string(),
        None => OutsidePath::new(suite).xml().to_string(),
    }
}

fn test_case(result: &CaseResult) -> (String, TestCase) {
    let status = match &result.outcome {
        CaseOutcome::Judged(j) if j.verdict == Verdict::AC => TestCaseStatus::success(),
        CaseOutcome::Judged(j) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let sentence = super::reason_words::sentence(j);
            status.set_type(j.verdict.code()).set_message(format!(
                "{}: {}",
                j.verdict.code(),
                sentence.xml()
            ));
            let mut text = format!("{}: {}\n", j.verdict.name(), sentence.xml());
            if !j.details.is_empty() {
                text.push_str(&j.details.xml().to_string());
            }
            status.set_description(text);
            status
        }
        CaseOutcome::Error(error) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status
                .set_type("ERROR")
                .set_message(super::reason_words::unjudged(error).xml().to_string());
            status
        }
    };
    let (suite, mut case) = placed(&result.id, &result.suite, status);
    if let CaseOutcome::Judged(j) = &result.outcome {
        case.set_time(j.wall);
        if !j.stdout.is_empty() {
            case.set_system_out(j.stdout.xml().to_string());
        }
        if !j.stderr.is_empty() {
            case.set_system_err(j.stderr.xml().to_string());
        }
    }
    (suite, case)
}

impl<W> JunitReporter<W> {
    /// Adds `case` to `suite`, made if it is new.
    fn add(&mut self, suite: String, case: TestCase) {
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
}

/// A case `--fail-fast` left unjudged, skipped after `stopped_at`.
fn not_run(case: &NotRun, stopped_at: Option<&OutsideName>) -> (String, TestCase) {
    let mut status = TestCaseStatus::skipped();
    status.set_message(match stopped_at {
        Some(id) => format!("not run: --fail-fast stopped at {}", id.xml()),
        None => "not run: --fail-fast stopped the run".to_string(),
    });
    placed(&case.id, &case.suite, status)
}

impl<W: io::Write> Reporter for JunitReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { submission, .. } => self.submission = submission.into(),
            Event::CaseFinished(result) => {
                if !result.passed() {
                    self.last_failed = Some(result.id.clone());
                }
                let (suite, case) = test_case(result);
                self.add(suite, case);
            }
            Event::Answered(_) => {}
            Event::Finished { summary } => {
                let stopped_at = self.last_failed.take();
                for case in &summary.not_run {
                    let (suite, test_case) = not_run(case, stopped_at.as_ref());
                    self.add(suite, test_case);
                }
                let mut report = Report::new(format!("sudoku-judge: {}", self.submission.xml()));
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::report::fixtures::{every_verdict, report_run};

    fn render(results: &[CaseResult]) -> String {
        let mut out = Vec::new();
        report_run(&mut JunitReporter::new(&mut out), results);
        String::from_utf8(out).unwrap()
    }

    /// The values of `attribute` on every `<element` of `xml`, in order.
    fn attributes<'x>(xml: &'x str, element: &str, attribute: &str) -> Vec<&'x str> {
        xml.split(&format!("<{element}"))
            .skip(1)
            .filter(|tag| tag.starts_with(' '))
            .filter_map(|tag| {
                let tag = &tag[..tag.find('>').unwrap()];
                let at = tag.find(&format!(" {attribute}=\""))? + attribute.len() + 3;
                Some(&tag[at..at + tag[at..].find('"').unwrap()])
            })
            .collect()
    }

    #[test]
    fn every_case_is_a_testcase_whose_failure_is_typed_by_its_verdict() {
        let results = every_verdict();
        let xml = render(&results);
        assert!(xml.starts_with("<?xml"), "{xml}");
        assert_eq!(
            attributes(&xml, "testsuites", "name"),
            ["sudoku-judge: solver mrv"]
        );
        assert_eq!(attributes(&xml, "testsuites", "tests"), ["9"]);
        assert_eq!(attributes(&xml, "testsuites", "failures"), ["7"]);
        assert_eq!(attributes(&xml, "testsuites", "errors"), ["1"]);
        assert_eq!(attributes(&xml, "testsuites", "time"), ["1.500"]);
        assert_eq!(attributes(&xml, "testsuite", "name"), ["cases/suite"]);

        let names: Vec<String> = results
            .iter()
            .map(|r| name(&r.id).as_raw().to_string())
            .collect();
        assert_eq!(attributes(&xml, "testcase", "name"), names);
        assert!(attributes(&xml, "testcase", "classname")
            .iter()
            .all(|&c| c == "cases/suite"));
        let failures: Vec<&str> = Verdict::ALL[1..].iter().map(|v| v.code()).collect();
        assert_eq!(attributes(&xml, "failure", "type"), failures);
        assert_eq!(attributes(&xml, "error", "type"), ["ERROR"]);
        assert_eq!(
            attributes(&xml, "error", "message"),
            ["cases/suite/broken.in:1:4: &apos;x&apos; is not a cell"]
        );

        // A failure's text is the verdict's name, the reason and the diff.
        let wa = &xml[xml.find("type=\"WA\">").unwrap()..];
        assert!(
            wa.starts_with("type=\"WA\">Wrong Answer: puzzle 1 (input line 1): "),
            "{wa}"
        );
        assert!(wa[..wa.find("</failure>").unwrap()].ends_with("the answer:\n  (grid diff here)\n"));
        // What a submission printed itself goes beside its case.
        assert!(xml.contains("<system-out>debug: 64 blanks\n</system-out>"));
        assert!(xml.contains("<system-err>thread &apos;main&apos; panicked at sol.rs:6:14:"));
        // Seconds: the TLE's wall time was 1352 ms; an unjudged case has none.
        let times = attributes(&xml, "testcase", "time");
        assert_eq!(times.len(), results.len() - 1);
        assert!(times.contains(&"1.352"), "{times:?}");
    }

    #[test]
    fn cases_of_several_suites_make_a_testsuite_each_in_the_order_first_seen() {
        let mut results = every_verdict();
        results.truncate(3);
        for result in &mut results[1..] {
            result.suite = PathBuf::from("cases/other").into();
            result.id = result.id.as_raw().replace("suite/", "other/").into();
        }
        let xml = render(&results);
        assert_eq!(
            attributes(&xml, "testsuite", "name"),
            ["cases/suite", "cases/other"]
        );
        assert_eq!(attributes(&xml, "testsuite", "tests"), ["1", "2"]);
        assert_eq!(attributes(&xml, "testsuite", "failures"), ["0", "2"]);
        assert_eq!(
            attributes(&xml, "testcase", "classname"),
            ["cases/suite", "cases/other", "cases/other"]
        );
    }

    /// `--failed` reruns cases by the absolute paths it recorded: their
    /// suites are named from the working directory, as their ids are.
    #[test]
    fn a_suite_found_by_an_absolute_path_here_is_named_from_here() {
        let mut results = every_verdict();
        results.truncate(2);
        let here = std::env::current_dir().unwrap();
        results[0].suite = OutsidePath::new(here.join("cases/suite"));
        results[1].suite = OutsidePath::new("/elsewhere/cases");
        let xml = render(&results);
        assert_eq!(
            attributes(&xml, "testsuite", "name"),
            ["cases/suite", "/elsewhere/cases"]
        );
        assert_eq!(
            attributes(&xml, "testcase", "classname"),
            ["cases/suite", "/elsewhere/cases"]
        );
    }

    #[test]
    fn nothing_is_written_before_the_run_finishes() {
        let results = every_verdict();
        let mut out = Vec::new();
        let mut reporter = JunitReporter::new(&mut out);
        for result in &results {
            reporter.report(Event::CaseFinished(result)).unwrap();
        }
        drop(reporter);
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    }
}
