//! What the real judge would show for the run, in its own words: online
//! judges run the tests of a problem in order and report the first one
//! that is not accepted, so the table's many verdicts come down to one
//! line per problem, e.g. `AcWing would say: Time Limit Exceeded on test 3
//! of 11 (acwing166/hard)`.
//!
//! A problem is known from `--problem` or a `judge.toml`; cases without one
//! get no judge's line, since no judge is known to speak for them. The
//! tests of a problem are its cases in this run, in the run's (sorted)
//! order, so after a filter or `--failed` the numbers count the cases
//! judged here. Each line names the suites it counted, and the cases no
//! judge speaks for get a line of their own beside them, so that a judge's
//! "Accepted" never stands unexplained above failures it did not count.

use crate::outside::OutsideName;
use crate::problem::Problem;
use crate::results::CaseResult;
use crate::runner::lang::Interface;
use crate::verdict::Verdict;
use crate::words::plural;

/// The first case of one problem that was not accepted, as far as known.
#[derive(Debug)]
struct ProblemTally {
    problem: Problem,
    /// The problem's cases in this run.
    tests: usize,
    /// How many of them were reported.
    judged: usize,
    /// The test number (from 1), id and verdict (`None`: could not be
    /// judged) of the first one not accepted.
    first: Option<(usize, OutsideName, Option<Verdict>)>,
    /// The user's submission answers as this judge never runs one: it
    /// would not compile there, whatever the driver here made of it.
    wrong_kind: Option<Interface>,
    suites: Suites,
}

/// The suites a line counts: the first part of its cases' ids
/// (`leetcode37` of `leetcode37/example1`), in the order met. A case found
/// directly under the path given (`example1` of `cases/leetcode37`) is of
/// the suite the user named: then the ids' first parts are subdirectories
/// of it, not suites, and none is named.
#[derive(Debug, Default)]
struct Suites {
    /// As a terminal shows them: they come from the ids, a pack's names.
    names: Vec<String>,
    under_the_path_given: bool,
}

impl Suites {
    fn add(&mut self, id: &OutsideName) {
        match id.as_raw().split_once('/') {
            Some((suite, _)) => {
                let suite = OutsideName::new(suite).terminal().to_string();
                if !self.names.contains(&suite) {
                    self.names.push(suite);
                }
            }
            None => self.under_the_path_given = true,
        }
    }

    /// `leetcode37, mine and 2 more`; empty for none.
    fn named(&self) -> String {
        const NAMED: usize = 3;
        if self.under_the_path_given {
            return String::new();
        }
        let mut names: Vec<String> = self.names.iter().take(NAMED).cloned().collect();
        if self.names.len() > NAMED {
            names.push(format!("{} more", self.names.len() - NAMED));
        }
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The cases of no known problem: how many, and how many passed.
#[derive(Debug, Default)]
struct Unclaimed {
    cases: usize,
    passed: usize,
    suites: Suites,
}

/// Follows a run case by case and says what each problem's judge would.
#[derive(Debug, Default)]
pub(crate) struct JudgeSays {
    tallies: Vec<ProblemTally>,
    unclaimed: Unclaimed,
}

impl JudgeSays {
    /// For a run with these problems and their numbers of cases, of a
    /// user's submission that answers as `submitted` (`None` for a built-in
    /// solver, which is no file a judge is sent).
    pub(crate) fn new(problems: &[(Problem, usize)], submitted: Option<Interface>) -> Self {
        JudgeSays {
            tallies: problems
                .iter()
                .map(|&(problem, tests)| ProblemTally {
                    problem,
                    tests,
                    judged: 0,
                    first: None,
                    wrong_kind: submitted.filter(|&i| i != interface_of(problem)),
                    suites: Suites::default(),
                })
                .collect(),
            unclaimed: Unclaimed::default(),
        }
    }

    pub(crate) fn case(&mut self, result: &CaseResult) {
        let Some(tally) = self
            .tallies
            .iter_mut()
            .find(|t| Some(t.problem) == result.problem)
        else {
            self.unclaimed.cases += 1;
            self.unclaimed.passed += usize::from(result.passed());
            self.unclaimed.suites.add(&result.id);
            return;
        };
        tally.judged += 1;
        tally.suites.add(&result.id);
        if tally.first.is_none() && !result.passed() {
            tally.first = Some((tally.judged, result.id.clone(), result.verdict()));
        }
    }

    /// One line per problem, in the order the problems were met, then one
    /// for the cases of none, when some judge spoke.
    pub(crate) fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.tallies.iter().map(ProblemTally::line).collect();
        let Unclaimed {
            cases,
            passed,
            ref suites,
        } = self.unclaimed;
        if !lines.is_empty() && cases > 0 {
            let suites = match suites.named() {
                named if named.is_empty() => String::new(),
                named => format!(" ({named})"),
            };
            let other = match cases {
                1 => "the other case".to_string(),
                n => format!("the other {n} cases"),
            };
            lines.push(format!(
                "no judge speaks for {other}{suites}, of no problem (`problem` in a \
                 judge.toml): {passed} passed, {} failed",
                cases - passed
            ));
        }
        lines
    }
}

/// How a problem's judge runs a submission: LeetCode calls a class
/// Solution's method, AcWing and POJ run a program on stdin.
fn interface_of(problem: Problem) -> Interface {
    match problem {
        Problem::Leetcode37 => Interface::Function,
        Problem::Acwing166 | Problem::Poj3074 => Interface::Program,
    }
}

/// Why a judge would not compile a submission of the other kind.
fn wrong_kind(problem: Problem, submitted: Interface) -> &'static str {
    match (problem, submitted) {
        (Problem::Leetcode37, _) => {
            "LeetCode compiles the file with its own main, which calls a class Solution's \
             solveSudoku; this submission is a program with a main of its own, reading stdin"
        }
        (_, Interface::Function) => {
            "it runs the file as a program that reads the puzzles on stdin; this submission is \
             a LeetCode-style class Solution with no main"
        }
        (_, Interface::Program) => "",
    }
}

/// A verdict as the judge names it. Every one of them says "Compile
/// Error"; only POJ has a Presentation Error (right answers laid out
/// another way), which the others count as a Wrong Answer.
fn verdict_name(problem: Problem, verdict: Verdict) -> &'static str {
    match (problem, verdict) {
        (_, Verdict::CE) => "Compile Error",
        (Problem::Poj3074, Verdict::PE) => "Presentation Error",
        (_, Verdict::PE) => "Wrong Answer",
        (_, verdict) => verdict.name(),
    }
}

impl ProblemTally {
    fn line(&self) -> String {
        // The judge, and the suites it speaks of: `LeetCode (leetcode37)`.
        let judge = match self.suites.named() {
            suites if suites.is_empty() => self.problem.judge().to_string(),
            suites => format!("{} ({suites})", self.problem.judge()),
        };
        // What the judge calls one of its tests.
        let test = match self.problem {
            Problem::Leetcode37 => "testcase",
            Problem::Acwing166 | Problem::Poj3074 => "test",
        };
        let of = |n: usize| format!("{test} {n} of {}", self.tests);
        if let Some(submitted) = self.wrong_kind {
            return format!(
                "{judge} would say: Compile Error ({})",
                wrong_kind(self.problem, submitted)
            );
        }
        match &self.first {
            Some((_, _, Some(Verdict::CE))) => format!("{judge} would say: Compile Error"),
            Some((n, id, Some(verdict))) => format!(
                "{judge} would say: {} on {} ({})",
                verdict_name(self.problem, *verdict),
                of(*n),
                id.terminal()
            ),
            Some((n, id, None)) => {
                format!(
                    "{judge}: cannot tell, {} ({}) could not be judged",
                    of(*n),
                    id.terminal()
                )
            }
            None if self.judged < self.tests => format!(
                "{judge}: cannot tell, the run stopped after {} of {} {test}s, all accepted",
                self.judged, self.tests
            ),
            None if self.problem == Problem::Leetcode37 => format!(
                "{judge} would say: Accepted, {0} / {0} testcases passed",
                self.tests
            ),
            None if self.tests == 1 => {
                format!("{judge} would say: Accepted, the one {test} passed")
            }
            None => format!(
                "{judge} would say: Accepted, all {} passed",
                plural(self.tests, test)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::judged;
    use std::path::PathBuf;

    fn case(id: &str, problem: Option<Problem>, verdict: Option<Verdict>) -> CaseResult {
        CaseResult {
            id: id.into(),
            suite: PathBuf::from("cases").into(),
            input: PathBuf::from(format!("{id}.in")).into(),
            expected: None,
            problem,
            outcome: match verdict {
                Some(v) => judged(v, crate::reason::fixtures::two_fives_in_row_one(), 1),
                None => crate::results::CaseOutcome::Error(crate::results::Unjudged::Unreadable(
                    "unreadable".into(),
                )),
            },
        }
    }

    fn says(problems: &[(Problem, usize)], results: &[CaseResult]) -> Vec<String> {
        let mut says = JudgeSays::new(problems, None);
        for result in results {
            says.case(result);
        }
        says.lines()
    }

    #[test]
    fn the_first_case_not_accepted_in_each_judges_words() {
        let acwing = Some(Problem::Acwing166);
        let leetcode = Some(Problem::Leetcode37);
        let results = [
            case("acwing166/easy", acwing, Some(Verdict::AC)),
            case("leetcode37/a", leetcode, Some(Verdict::AC)),
            case("acwing166/grid", acwing, Some(Verdict::PE)),
            case("acwing166/hard", acwing, Some(Verdict::TLE)),
            case("mine/x", None, Some(Verdict::WA)),
            case("leetcode37/b", leetcode, Some(Verdict::AC)),
        ];
        assert_eq!(
            says(
                &[(Problem::Acwing166, 3), (Problem::Leetcode37, 2)],
                &results
            ),
            [
                "AcWing (acwing166) would say: Wrong Answer on test 2 of 3 (acwing166/grid)",
                "LeetCode (leetcode37) would say: Accepted, 2 / 2 testcases passed",
                "no judge speaks for the other case (mine), of no problem (`problem` in a \
                 judge.toml): 0 passed, 1 failed",
            ]
        );
        let poj = Some(Problem::Poj3074);
        assert_eq!(
            says(
                &[(Problem::Poj3074, 2)],
                &[
                    case("a", poj, Some(Verdict::PE)),
                    case("b", poj, Some(Verdict::WA))
                ]
            ),
            ["POJ would say: Presentation Error on test 1 of 2 (a)"]
        );
        assert_eq!(
            says(
                &[(Problem::Leetcode37, 2)],
                &[
                    case("a", leetcode, Some(Verdict::RE)),
                    case("b", leetcode, Some(Verdict::WA))
                ]
            ),
            ["LeetCode would say: Runtime Error on testcase 1 of 2 (a)"]
        );
        assert_eq!(
            says(
                &[(Problem::Acwing166, 1)],
                &[case("a", acwing, Some(Verdict::CE))]
            ),
            ["AcWing would say: Compile Error"]
        );
        assert_eq!(
            says(
                &[(Problem::Acwing166, 1)],
                &[case("a", acwing, Some(Verdict::AC))]
            ),
            ["AcWing would say: Accepted, the one test passed"]
        );
    }

    #[test]
    fn a_submission_of_the_kind_the_judge_never_runs_would_not_compile_there() {
        let acwing = Some(Problem::Acwing166);
        let leetcode = Some(Problem::Leetcode37);
        let results = [
            case("acwing166/a", acwing, Some(Verdict::AC)),
            case("leetcode37/a", leetcode, Some(Verdict::AC)),
        ];
        let problems = [(Problem::Acwing166, 1), (Problem::Leetcode37, 1)];
        let said = |submitted| {
            let mut says = JudgeSays::new(&problems, submitted);
            for result in &results {
                says.case(result);
            }
            says.lines()
        };
        let class = said(Some(Interface::Function));
        assert!(
            class[0].starts_with("AcWing (acwing166) would say: Compile Error ("),
            "{class:?}"
        );
        assert!(
            class[0].contains("class Solution with no main"),
            "{class:?}"
        );
        assert_eq!(
            class[1],
            "LeetCode (leetcode37) would say: Accepted, 1 / 1 testcases passed"
        );
        let program = said(Some(Interface::Program));
        assert_eq!(
            program[0],
            "AcWing (acwing166) would say: Accepted, the one test passed"
        );
        assert!(
            program[1].starts_with("LeetCode (leetcode37) would say: Compile Error ("),
            "{program:?}"
        );
        // A built-in solver is no file a judge is sent: judged as it ran.
        assert_eq!(
            said(None),
            [
                "AcWing (acwing166) would say: Accepted, the one test passed",
                "LeetCode (leetcode37) would say: Accepted, 1 / 1 testcases passed"
            ]
        );
    }

    #[test]
    fn what_cannot_be_known_is_said_so() {
        let acwing = Some(Problem::Acwing166);
        assert_eq!(
            says(
                &[(Problem::Acwing166, 3)],
                &[
                    case("a", acwing, Some(Verdict::AC)),
                    case("b", acwing, None)
                ]
            ),
            ["AcWing: cannot tell, test 2 of 3 (b) could not be judged"]
        );
        assert_eq!(
            says(
                &[(Problem::Acwing166, 3)],
                &[case("a", acwing, Some(Verdict::AC))]
            ),
            ["AcWing: cannot tell, the run stopped after 1 of 3 tests, all accepted"]
        );
        assert!(says(&[], &[case("a", None, Some(Verdict::WA))]).is_empty());
    }

    /// A fresh clone's `cases/`: LeetCode speaks for `leetcode37` alone,
    /// and the harder suite beside it, of no problem, is counted on its
    /// own line, so the two add up to the run's `N passed, M failed`.
    #[test]
    fn each_line_names_what_it_counted_and_the_cases_of_no_problem_are_counted_apart() {
        let leetcode = Some(Problem::Leetcode37);
        let mut results = vec![
            case("leetcode37/example1", leetcode, Some(Verdict::AC)),
            case("leetcode37/multiline", leetcode, Some(Verdict::AC)),
        ];
        results.extend(["a", "b", "c"].map(|name| {
            let verdict = if name == "a" {
                Verdict::AC
            } else {
                Verdict::TLE
            };
            case(&format!("leetcode37-hard/{name}"), None, Some(verdict))
        }));
        assert_eq!(
            says(&[(Problem::Leetcode37, 2)], &results),
            [
                "LeetCode (leetcode37) would say: Accepted, 2 / 2 testcases passed",
                "no judge speaks for the other 3 cases (leetcode37-hard), of no problem \
                 (`problem` in a judge.toml): 1 passed, 2 failed"
            ]
        );
        // `test cases/leetcode37`: its cases are the suite named, and
        // `generated/` is a directory of it, not a suite.
        let named = [
            case("example1", leetcode, Some(Verdict::AC)),
            case("generated/easy-001", leetcode, Some(Verdict::AC)),
        ];
        assert_eq!(
            says(&[(Problem::Leetcode37, 2)], &named),
            ["LeetCode would say: Accepted, 2 / 2 testcases passed"]
        );
    }
}
