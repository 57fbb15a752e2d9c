//! What `check` found in a corpus: each problem or note with its place,
//! then one line of totals.

use std::io::{self, Write};

use crate::corpus::CorpusCheck;
use crate::words::plural;

pub(crate) fn findings(out: &mut dyn Write, report: &CorpusCheck) -> io::Result<()> {
    for finding in &report.findings {
        let kind = if finding.problem { "" } else { "note: " };
        let message = finding.message.terminal();
        match &finding.place {
            place if place.is_empty() => writeln!(out, "{kind}{message}")?,
            place => writeln!(out, "{}: {kind}{message}", place.terminal())?,
        }
    }
    let problems = match report.problems() {
        0 => "no problems".to_string(),
        n => plural(n, "problem"),
    };
    writeln!(
        out,
        "checked {} with {}: {problems}",
        plural(report.cases, "case"),
        plural(report.puzzles, "puzzle"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Finding;

    /// What `check` prints for a corpus with two notes and two problems,
    /// from the real checker: a suite under a temporary directory, shown
    /// relative to it.
    #[test]
    fn findings_then_one_line_of_totals() {
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        let example = crate::board::EXAMPLE;
        // Twice the same puzzle, and givens that break the rules (two 5s
        // in the first row).
        let broken = format!("55{}", &example[2..]);
        std::fs::write(suite.join("a.in"), format!("{example}\nend\n")).unwrap();
        std::fs::write(suite.join("b.in"), format!("{example}\nend\n")).unwrap();
        std::fs::write(suite.join("c.in"), format!("{broken}\nend\n")).unwrap();
        let report = crate::corpus::check(&[suite], crate::files::OutsideLinks::Refused).unwrap();
        let mut out = Vec::new();
        findings(&mut out, &report).unwrap();
        let text = String::from_utf8(out)
            .unwrap()
            .replace(
                &format!("{}{}", dir.path().display(), std::path::MAIN_SEPARATOR),
                "",
            )
            .replace('\\', "/");
        assert!(text.ends_with(" problems\n"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn one_problem_and_one_case_are_singular() {
        let report = CorpusCheck {
            cases: 1,
            puzzles: 1,
            findings: vec![Finding {
                place: "suite/a.in:1".into(),
                message: "the puzzle has no solution".into(),
                problem: true,
            }],
        };
        let mut out = Vec::new();
        findings(&mut out, &report).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "suite/a.in:1: the puzzle has no solution\n\
             checked 1 case with 1 puzzle: 1 problem\n"
        );
    }
}
