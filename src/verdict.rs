//! The closed set of outcomes a judge gives a submission on one case, with
//! the short codes every online judge uses. A submission's failure is one of
//! these values, never an error: `anyhow::Error` means the harness failed.

use std::fmt;

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[allow(
    clippy::upper_case_acronyms,
    reason = "the judges' codes, as users know them"
)]
pub(crate) enum Verdict {
    /// Accepted.
    AC,
    /// Wrong Answer.
    WA,
    /// Presentation Error: the right answers, printed the wrong way.
    PE,
    /// Time Limit Exceeded.
    TLE,
    /// Memory Limit Exceeded.
    MLE,
    /// Output Limit Exceeded.
    OLE,
    /// Runtime Error: a panic, a crash or a non-zero exit.
    RE,
    /// Compilation Error.
    CE,
}

impl Verdict {
    pub(crate) const ALL: [Verdict; 8] = [
        Verdict::AC,
        Verdict::WA,
        Verdict::PE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RE,
        Verdict::CE,
    ];

    /// The short code judges print: `AC`, `WA`, ...
    pub(crate) fn code(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::PE => "PE",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::OLE => "OLE",
            Verdict::RE => "RE",
            Verdict::CE => "CE",
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Verdict::AC => "Accepted",
            Verdict::WA => "Wrong Answer",
            Verdict::PE => "Presentation Error",
            Verdict::TLE => "Time Limit Exceeded",
            Verdict::MLE => "Memory Limit Exceeded",
            Verdict::OLE => "Output Limit Exceeded",
            Verdict::RE => "Runtime Error",
            Verdict::CE => "Compilation Error",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_judges_codes() {
        let codes: Vec<_> = Verdict::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["AC", "WA", "PE", "TLE", "MLE", "OLE", "RE", "CE"]);
        assert_eq!(serde_json::to_string(&Verdict::TLE).unwrap(), "\"TLE\"");
    }
}
