//! What `check` found in a corpus: each problem or note with its place,
//! then one line of totals.

use std::io::{self, Write};

use crate::corpus::Report;
use crate::words::plural;

pub fn findings(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    for finding in &report.findings {
        let kind = if finding.problem { "" } else { "note: " };
        match finding.place.as_str() {
            "" => writeln!(out, "{kind}{}", finding.message)?,
            place => writeln!(out, "{place}: {kind}{}", finding.message)?,
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
