//! What `calibrate` prints for a suite: each reference's time per case,
//! what each real verdict came to here, and, when the limit does not
//! reproduce them all with margin, the limits and the `time_scale` that
//! would.

use std::io::{self, Write};

use crate::calibrate::{Measured, Suite, MARGIN, MEASURE};
use crate::case::settings::{self, RealVerdict};
use crate::outside::OutsidePath;
use crate::problem::Problem;
use crate::verdict::Verdict;
use crate::words::{format_ms as ms, plural};

/// One cell of the table: the time, and the verdict when it is not AC.
fn cell(m: &Measured) -> String {
    match (m.verdict, m.stopped) {
        (None, _) => "ERROR".into(),
        (Some(_), true) => format!("TLE >{}", ms(m.time)),
        (Some(Verdict::AC), false) => ms(m.time),
        (Some(v), false) => format!("{v} {}", ms(m.time)),
    }
}

/// Writes what calibrating `suite` found: each reference's time per case,
/// then whether the limit reproduces every real verdict, and if not, the
/// limits and the `time_scale` that would.
pub(crate) fn calibration(out: &mut dyn Write, suite: &Suite) -> io::Result<()> {
    let scale = if suite.time_scale == 1.0 {
        String::new()
    } else {
        format!(" (time_scale {})", suite.time_scale)
    };
    writeln!(
        out,
        "{}: time limit {}{scale}, {}, {}, each case measured up to {:.1}x the limit",
        suite.dir.terminal(),
        ms(suite.limit),
        plural(suite.case_ids.len(), "case"),
        plural(suite.runs.len(), "reference"),
        MEASURE
    )?;
    table(out, suite)?;
    references(out, suite)?;
    conclusion(out, suite)
}

/// The time of each reference on each case, a column a reference.
fn table(out: &mut dyn Write, suite: &Suite) -> io::Result<()> {
    let header = std::iter::once("case".to_string())
        .chain(suite.runs.iter().map(|r| r.label.terminal().to_string()));
    let mut rows = vec![header.collect::<Vec<_>>()];
    for (i, id) in suite.case_ids.iter().enumerate() {
        let times = suite
            .runs
            .iter()
            .map(|run| run.cases.get(i).map_or_else(String::new, cell));
        rows.push(
            std::iter::once(id.terminal().to_string())
                .chain(times)
                .collect(),
        );
    }
    for line in super::layout::aligned(&rows, &[0]) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A line a reference: the real judge's verdict and this suite's, and
/// whether the limit reproduces it.
fn references(out: &mut dyn Write, suite: &Suite) -> io::Result<()> {
    let judge = suite.problem.map_or("the real judge", Problem::judge);
    for run in &suite.runs {
        let real = run.reference.verdict.verdict();
        let here = run.verdict().map_or("ERROR".to_string(), |v| v.to_string());
        let need = match run.reference.verdict {
            RealVerdict::AC => format!("at most {:.0}% for margin", 100.0 / MARGIN),
            RealVerdict::TLE => format!("at least {MARGIN:.0}x for margin"),
        };
        let worst = run.worst();
        let stopped = run.cases.iter().any(|c| c.stopped);
        let share = if worst >= 1.0 {
            format!(
                "{}{worst:.1}x the limit",
                if stopped { "more than " } else { "" }
            )
        } else {
            format!("{:.0}% of the limit", 100.0 * worst)
        };
        let conclusion = if run.with_margin() {
            "reproduced with margin"
        } else if run.reproduced() {
            "reproduced, but without margin"
        } else {
            "NOT reproduced"
        };
        writeln!(
            out,
            "{}: {judge} says {real}, this suite {here}; slowest case {share} ({need}): {conclusion}",
            run.label.terminal()
        )?;
    }
    Ok(())
}

/// Whether the limit reproduces every real verdict, and if not, the
/// limits and the `time_scale` that would.
fn conclusion(out: &mut dyn Write, suite: &Suite) -> io::Result<()> {
    if suite.holds_with_margin() {
        return writeln!(
            out,
            "{}: the {} limit reproduces every real verdict, with a factor of {MARGIN:.0} to spare",
            suite.dir.terminal(),
            ms(suite.limit)
        );
    }
    let verdict = if suite.holds() {
        "reproduces every real verdict, but not with a factor of 2 to spare"
    } else {
        "does not reproduce every real verdict"
    };
    writeln!(
        out,
        "{}: the {} limit {verdict}",
        suite.dir.terminal(),
        ms(suite.limit)
    )?;
    let (window, with_margin) = match suite.window(true) {
        Some(w) => (Some(w), true),
        None => (suite.window(false), false),
    };
    let Some(window) = window else {
        return writeln!(
            out,
            "  no time limit separates the references on these cases: a reference fails other \
             than by time, or an AC one is as slow as a TLE one; add a case that tells them apart \
             (e.g. `sudoku-judge gen --hard-for backtrack --min-nodes N`)"
        );
    };
    let limit = |f: f64| ms(suite.limit.mul_f64(f));
    let range = match window.high {
        Some(high) => format!("from {} to {}", limit(window.low), limit(high)),
        None => format!("of {} or more", limit(window.low)),
    };
    let scale = suite.suggested_scale().unwrap_or(1.0);
    writeln!(
        out,
        "  limits {range} would{}; on this machine set `time_scale = {scale}` in {} or pass \
         `--time-scale {scale}`",
        if with_margin {
            " (with the margin)"
        } else {
            ", though without the margin"
        },
        OutsidePath::new(suite.dir.as_raw().join(settings::SETTINGS_FILE)).terminal()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::examples::{run, suite};
    use crate::calibrate::Run;

    /// The calibration of `suite` as printed: each test below asserts the
    /// model's answer for its suite, then what the user is told of it.
    fn rendered(suite: &Suite) -> String {
        let mut out = Vec::new();
        calibration(&mut out, suite).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_limit_with_room_on_both_sides_holds_with_margin() {
        let s = suite(vec![
            run(RealVerdict::AC, &[10, 300], false),
            run(RealVerdict::TLE, &[600, 2600], true),
        ]);
        assert!(s.holds_with_margin());
        assert!(s.runs.iter().all(Run::with_margin));
        let text = rendered(&s);
        assert!(text.contains("AcWing says TLE, this suite TLE"), "{text}");
        assert!(text.contains("with a factor of 2 to spare"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[cfg_attr(windows, ignore = "the snapshot holds the paths as Unix shows them")]
    #[test]
    fn a_tight_limit_gets_a_range_and_a_time_scale() {
        // AC at 700 ms needs a limit of 1.4 s with margin; TLE at 4 s allows
        // up to 2 s: scale between 1.4 and 2, the middle about 1.7.
        let s = suite(vec![
            run(RealVerdict::AC, &[700, 100], false),
            run(RealVerdict::TLE, &[4000, 100], false),
        ]);
        assert!(s.holds() && !s.holds_with_margin());
        let window = s.window(true).unwrap();
        assert!((window.low - 1.4).abs() < 1e-9 && (window.high.unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(s.suggested_scale(), Some(1.7));
        let text = rendered(&s);
        assert!(
            text.contains("limits from 1400 ms to 2000 ms would (with the margin)"),
            "{text}"
        );
        assert!(text.contains("--time-scale 1.7"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn a_verdict_no_limit_can_give_is_said_so() {
        let s = suite(vec![
            run(RealVerdict::AC, &[900, 100], false),
            run(RealVerdict::TLE, &[800, 100], false),
        ]);
        assert!(!s.holds());
        assert!(!s.runs[1].reproduced());
        assert_eq!(s.window(false), None);
        let text = rendered(&s);
        assert!(text.contains("NOT reproduced"), "{text}");
        assert!(
            text.contains("no time limit separates the references"),
            "{text}"
        );
        insta::assert_snapshot!(text);
    }

    #[cfg_attr(windows, ignore = "the snapshot holds the paths as Unix shows them")]
    #[test]
    fn without_a_tle_reference_the_range_has_no_top() {
        let s = suite(vec![run(RealVerdict::AC, &[800, 100], false)]);
        assert!(s.holds() && !s.holds_with_margin());
        assert_eq!(s.window(true).unwrap().high, None);
        assert_eq!(s.suggested_scale(), Some(2.0));
        let text = rendered(&s);
        assert!(text.contains("limits of 1600 ms or more would"), "{text}");
        insta::assert_snapshot!(text);
    }
}
