//! Checking a corpus of cases without judging anything: every input reads,
//! every puzzle has exactly one solution, every expected output solves its
//! input, and no suite holds the same puzzle twice. Nothing is modified.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::case::{self, Case};
use crate::files::OutsideLinks;
use crate::outside::OutsideName;
use crate::solver::reference::count_solutions;

/// Solutions are counted this far, so "how many" has an answer.
pub(crate) const COUNT_LIMIT: usize = 1000;

/// One thing found in the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    /// Where, as `path:line`; empty when the message names the place.
    pub(crate) place: OutsideName,
    /// What was found, naming or quoting a file of the corpus: one line
    /// of `check`'s output, as the names in it are.
    pub(crate) message: OutsideName,
    /// A problem fails the check; a note only informs.
    pub(crate) problem: bool,
}

/// What [`check`] found.
#[derive(Clone, Debug, Default)]
pub(crate) struct CorpusCheck {
    pub(crate) cases: usize,
    pub(crate) puzzles: usize,
    pub(crate) findings: Vec<Finding>,
}

impl CorpusCheck {
    pub(crate) fn problems(&self) -> usize {
        self.findings.iter().filter(|f| f.problem).count()
    }
}

fn problem(place: String, message: String) -> Finding {
    Finding {
        place: place.into(),
        message: message.into(),
        problem: true,
    }
}

/// Checks every case under `paths`; `Err` only when there are no cases.
pub(crate) fn check(paths: &[PathBuf], links: OutsideLinks) -> anyhow::Result<CorpusCheck> {
    let found = case::find(paths, links)?;
    let cases = found.cases;
    let mut report = CorpusCheck {
        cases: cases.len(),
        ..CorpusCheck::default()
    };
    report
        .findings
        .extend(found.warnings.into_iter().map(|message| Finding {
            place: OutsideName::default(),
            message: message.into(),
            problem: false,
        }));
    // Suite → puzzle line → where it was first seen.
    let mut seen: HashMap<PathBuf, HashMap<String, String>> = HashMap::new();
    for case in &cases {
        let data = match case::load(case, true) {
            Ok(data) => data,
            Err(error) => {
                // The error names its file, line and column itself.
                report
                    .findings
                    .push(problem(String::new(), format!("{error:#}")));
                // The input alone may still read: check its puzzles anyway.
                let input_only = Case {
                    expected: None,
                    ..case.clone()
                };
                match case::load(&input_only, true) {
                    Ok(data) => data,
                    Err(_) => continue,
                }
            }
        };
        for warning in &data.warnings {
            report.findings.push(Finding {
                place: case.input.display().to_string().into(),
                message: warning.as_str().into(),
                problem: false,
            });
        }
        if case.expected.is_none() {
            report.findings.push(Finding {
                place: case.input.display().to_string().into(),
                message: "no expected output beside it: answers are judged by the rules alone"
                    .into(),
                problem: false,
            });
        }
        // Duplicates are looked for within a suite.
        let suite = seen.entry(case.suite().to_path_buf()).or_default();
        for (n, puzzle) in data.puzzles()?.enumerate() {
            let (line, puzzle) = puzzle?;
            report.puzzles += 1;
            let place = format!("{}:{line}", case.input.display());
            let label = if data.puzzles == 1 {
                "the puzzle".to_string()
            } else {
                format!("puzzle {}", n + 1)
            };
            match count_solutions(&puzzle.to_bytes(), COUNT_LIMIT) {
                1 => {}
                0 => report.findings.push(problem(
                    place.clone(),
                    format!("{label} has no solution"),
                )),
                n if n >= COUNT_LIMIT => report.findings.push(problem(
                    place.clone(),
                    format!("{label} has {COUNT_LIMIT} or more solutions; a judge's puzzle needs exactly one"),
                )),
                n => report.findings.push(problem(
                    place.clone(),
                    format!("{label} has {n} solutions; a judge's puzzle needs exactly one"),
                )),
            }
            match suite.get(&puzzle.to_line()) {
                Some(first) => report.findings.push(problem(
                    place,
                    format!("{label} is the same as the one at {first}"),
                )),
                None => {
                    suite.insert(puzzle.to_line(), place);
                }
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Where a finding points, relative to `base` when it is under it.
    fn relative(place: &str, base: &Path) -> String {
        let prefix = format!("{}{}", base.display(), std::path::MAIN_SEPARATOR);
        place.strip_prefix(&prefix).unwrap_or(place).to_string()
    }

    const SAMPLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SAMPLE_ANSWER: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn a_sound_corpus_has_no_problems() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "a.in", &format!("{SAMPLE}\nend\n"));
        write(tmp.path(), "a.out", &format!("{SAMPLE_ANSWER}\n"));
        let report = check(&[tmp.path().to_path_buf()], OutsideLinks::Refused).unwrap();
        assert_eq!((report.cases, report.puzzles, report.problems()), (1, 1, 0));
    }

    #[test]
    fn each_kind_of_fault_is_found_with_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        // Several solutions: an almost empty board.
        let several = format!("1{}", ".".repeat(80));
        // No solution although no unit repeats: r1c1 can hold nothing.
        let stuck = format!(".23456789{}1{}", ".".repeat(9), ".".repeat(62));
        write(
            tmp.path(),
            "faults.in",
            &format!("{SAMPLE}\n{several}\n{stuck}\n{SAMPLE}\nend\n"),
        );
        let report = check(&[tmp.path().to_path_buf()], OutsideLinks::Refused).unwrap();
        let found: Vec<(String, String)> = report
            .findings
            .iter()
            .filter(|f| f.problem)
            .map(|f| {
                (
                    relative(f.place.as_raw(), tmp.path()),
                    f.message.as_raw().to_string(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (
                    "faults.in:2".to_string(),
                    format!("puzzle 2 has {COUNT_LIMIT} or more solutions; a judge's puzzle needs exactly one")
                ),
                ("faults.in:3".to_string(), "puzzle 3 has no solution".to_string()),
                (
                    "faults.in:4".to_string(),
                    format!(
                        "puzzle 4 is the same as the one at {}:1",
                        tmp.path().join("faults.in").display()
                    )
                ),
            ]
        );
        // No expected file is a note, not a problem.
        assert!(report
            .findings
            .iter()
            .any(|f| !f.problem && f.message.as_raw().contains("no expected output")));
    }

    #[test]
    fn a_wrong_expected_answer_is_found_and_the_puzzles_still_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let several = format!("1{}", ".".repeat(80));
        write(tmp.path(), "a.in", &format!("{SAMPLE}\n{several}\nend\n"));
        write(
            tmp.path(),
            "a.out",
            &format!("{}\n{SAMPLE_ANSWER}\n", SAMPLE_ANSWER.replacen('4', "1", 1)),
        );
        let report = check(&[tmp.path().to_path_buf()], OutsideLinks::Refused).unwrap();
        let messages: Vec<&str> = report.findings.iter().map(|f| f.message.as_raw()).collect();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("answer 1 does not solve puzzle 1")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.contains("puzzle 2 has")),
            "{messages:?}"
        );
    }
}
