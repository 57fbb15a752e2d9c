//! Results for reporter tests: fixed timings, never measured.

use std::path::PathBuf;
use std::time::Duration;

use crate::board::Format;
use crate::case::{CheckerKind, Limits};
use crate::outside::Outside;
use crate::problem::Problem;
use crate::reason::Reason;
use crate::results::{CaseOutcome, CaseResult, Judgement};
use crate::runner::lang::Interface;
use crate::stats::Spread;
use crate::verdict::Verdict;

pub(crate) fn judged(verdict: Verdict, reason: Reason, time_ms: u64) -> CaseOutcome {
    CaseOutcome::Judged(Box::new(Judgement {
        verdict,
        reason,
        kept_state_after: None,
        failed_run: None,
        details: if verdict == Verdict::WA {
            "the answer:\n  (grid diff here)\n".into()
        } else {
            Outside::default()
        },
        format: Format::AcWing,
        checker: CheckerKind::Sudoku,
        puzzles: 2,
        limits: Limits {
            time: Duration::from_secs(1),
            memory_kb: 65536,
            wall_factor: 2,
        },
        time: Duration::from_millis(time_ms),
        run_times: vec![Duration::from_millis(time_ms)],
        puzzle_times: Some(Spread {
            min: Duration::from_micros(120),
            median: Duration::from_micros(250),
            max: Duration::from_micros(380),
        }),
        puzzles_timed: 2,
        slowest: Some(crate::results::Slowest {
            puzzle: 2,
            line: 2,
            time: Duration::from_micros(380),
        }),
        wall: Duration::from_millis(time_ms + 2),
        cpu: Duration::from_millis(time_ms),
        memory_kb: 2150,
        output: if verdict == Verdict::AC {
            Outside::default()
        } else {
            "534678912672195348198342567859761423426853791713924856961537284287419635345286171\n"
                .into()
        },
        stdout: if verdict == Verdict::AC {
            "debug: 64 blanks\n".into()
        } else {
            Outside::default()
        },
        stdout_lines: usize::from(verdict == Verdict::AC),
        stdout_last_line: None,
        stderr: if verdict == Verdict::RE {
            "thread 'main' panicked at sol.rs:6:14:\nindex out of bounds\n".into()
        } else {
            Outside::default()
        },
        notes: if verdict == Verdict::RE {
            vec!["a new process from here, with the solution's state reset: the run before ended its process (killed at the time limit)".into()]
        } else {
            vec![]
        },
        reproduce_after: Vec::new(),
        warnings: if verdict == Verdict::AC {
            vec![
                "cases/a.in: line 2: the input has no `end` line; AcWing 166 inputs close with one"
                    .into(),
            ]
        } else {
            vec![]
        },
    }))
}

/// Sends a whole run of `results` to `reporter`, as the judge would:
/// started, each case, finished after 1.5 s.
pub(crate) fn report_run(reporter: &mut dyn crate::results::Reporter, results: &[CaseResult]) {
    use crate::results::Event;
    let mut problems: Vec<(Problem, usize)> = Vec::new();
    for problem in results.iter().filter_map(|r| r.problem) {
        match problems.iter_mut().find(|(p, _)| *p == problem) {
            Some((_, n)) => *n += 1,
            None => problems.push((problem, 1)),
        }
    }
    reporter
        .report(Event::Started {
            cases: results.len(),
            submission: "solver mrv",
            build: None,
            jobs: 1,
            sandbox: None,
            warnings: &[],
            problems: &problems,
            interface: Some(Interface::Function),
            submitted: None,
            time_scales: &[],
        })
        .unwrap();
    for result in results {
        reporter.report(Event::CaseFinished(result)).unwrap();
    }
    let summary = crate::results::Summary::of(results, Duration::from_millis(1500));
    reporter
        .report(Event::Finished { summary: &summary })
        .unwrap();
}

/// The reason the judge gives a run that gets `verdict`, from the real
/// checker and [`crate::verdict_rules::decide`] on a run of the fixtures'
/// case (two puzzles, 1 s, 64 MB), and the time it was charged: the
/// snapshot shows the judge's own words.
fn real_reason(verdict: Verdict) -> (Reason, u64) {
    use crate::board::{format, EXAMPLE, EXAMPLE_ANSWER};
    use crate::check::Checker;
    use crate::runner::process::Kill;
    use crate::runner::{End, Run};

    let (puzzle, answer) = (format::puzzle(EXAMPLE), format::puzzle(EXAMPLE_ANSWER));
    let case = crate::case::CaseData::in_memory(&[puzzle, puzzle], Some(&[answer, answer]));
    let right = format::render_boards(Format::AcWing, &[answer, answer]);
    let output = match verdict {
        Verdict::WA => right.replacen("534", "554", 1),
        Verdict::PE => format::render_boards(Format::Grid { spaced: true }, &[answer, answer]),
        _ => right,
    };
    let mut checker = Checker::new(CheckerKind::Sudoku, &case, Format::AcWing).unwrap();
    checker.feed(output.as_bytes());
    let ms = match verdict {
        Verdict::TLE => 1350,
        Verdict::MLE => 40,
        Verdict::AC => 12,
        Verdict::RE | Verdict::CE => 0,
        _ => 3,
    };
    let run = Run {
        answered: match verdict {
            Verdict::TLE | Verdict::RE => 0,
            _ => 2,
        },
        time: Duration::from_millis(ms),
        wall: Duration::from_millis(ms + 2),
        cpu: Duration::from_millis(ms),
        memory_kb: if verdict == Verdict::MLE {
            70_000
        } else {
            2150
        },
        end: match verdict {
            Verdict::TLE => End::Killed(Kill::Wall),
            Verdict::OLE => End::Killed(Kill::Output),
            Verdict::RE => End::Panicked(
                "panicked at src/solver/faulty.rs:44: index out of bounds: the len is 9 but \
                 the index is 9"
                    .into(),
            ),
            Verdict::CE => End::NotCompiled,
            _ => End::Normal,
        },
        ..Run::new(End::Normal)
    };
    let limits = Limits {
        time: Duration::from_secs(1),
        memory_kb: 65536,
        wall_factor: 2,
    };
    let decided = crate::verdict_rules::decide(&case, &run, &limits, checker.finish().unwrap())
        .expect("a verdict");
    assert_eq!(decided.verdict, verdict, "{}", decided.reason.sentence());
    (decided.reason, ms)
}

/// One case of every verdict, then one that could not be judged.
pub(crate) fn every_verdict() -> Vec<CaseResult> {
    let mut results: Vec<CaseResult> = Verdict::ALL
        .iter()
        .map(|&v| {
            let (reason, ms) = real_reason(v);
            let name = v.code().to_lowercase();
            CaseResult {
                id: format!("suite/{name}").into(),
                suite: PathBuf::from("cases/suite").into(),
                input: PathBuf::from(format!("cases/suite/{name}.in")).into(),
                expected: Some(PathBuf::from(format!("cases/suite/{name}.out")).into()),
                problem: Some(Problem::Acwing166),
                outcome: match judged(v, reason, ms) {
                    // The peak the MLE's reason names.
                    CaseOutcome::Judged(mut j) if v == Verdict::MLE => {
                        j.memory_kb = 70_000;
                        CaseOutcome::Judged(j)
                    }
                    outcome => outcome,
                },
            }
        })
        .collect();
    results.push(CaseResult {
        id: "suite/broken".into(),
        suite: PathBuf::from("cases/suite").into(),
        input: PathBuf::from("cases/suite/broken.in").into(),
        expected: None,
        problem: Some(Problem::Acwing166),
        outcome: CaseOutcome::Error(crate::results::Unjudged::Unreadable(
            "cases/suite/broken.in:1:4: 'x' is not a cell".into(),
        )),
    });
    results
}
