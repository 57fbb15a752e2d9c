//! What is run and how: a [`Submission`] (a built-in solver, a program, a
//! LeetCode-style file) and its [`Runner`], which starts it once and runs it
//! case after case, keeping a function's process alive as a [`Session`].

use super::{builtin, external, function, lang};

use crate::board::Format;
use crate::case::CaseData;
use crate::check::{Answerer, Checker};
use crate::solver::Solver;

use super::lang::Interface;
use super::run::{End, Run};
use super::session::Session;
use crate::case::Limits;

/// What is being judged.
#[derive(Clone, Debug)]
pub(crate) enum Submission {
    /// A built-in solver, called in a worker process (see
    /// [`builtin::launch`]).
    Builtin {
        solver: &'static Solver,
        worker: lang::launch::Launch,
    },
    /// A program or a LeetCode-style file behind its driver, ready to run.
    External(lang::launch::Launch),
    /// A source file the compiler rejected: every case is CE.
    NotCompiled { label: String },
}

impl Submission {
    /// A short name for reports: `solver mrv`, `sol.cpp (C++ program)`.
    pub(crate) fn label(&self) -> String {
        match self {
            Submission::Builtin { solver, .. } => format!("solver {}", solver.name),
            Submission::External(launch) => launch.label.clone(),
            Submission::NotCompiled { label } => label.clone(),
        }
    }

    /// Whether it answers through LeetCode's function interface (built-in
    /// solvers and LeetCode-style files) rather than as a stdin program.
    pub(crate) fn is_function(&self) -> bool {
        match self {
            Submission::Builtin { .. } => true,
            Submission::External(launch) => launch.interface == Interface::Function,
            Submission::NotCompiled { .. } => false,
        }
    }

    /// Who gives its answers, in the words a wrong answer is said in: a
    /// LeetCode-style file's function by its language's name for it, a
    /// program as a program; a built-in solver is no one's own.
    pub(crate) fn answerer(&self) -> Answerer {
        match self {
            Submission::External(launch) if launch.interface == Interface::Function => {
                launch.language.map_or(Answerer::Unknown, |language| {
                    Answerer::Function(language.spec().leetcode.function())
                })
            }
            Submission::External(_) => Answerer::Program,
            Submission::Builtin { .. } | Submission::NotCompiled { .. } => Answerer::Unknown,
        }
    }

    /// The format its answers come in: a function's are printed by the
    /// harness in the case's own format, a program prints AcWing lines.
    pub(crate) fn answer_format(&self, case: &CaseData) -> Format {
        if self.is_function() {
            case.format
        } else {
            Format::AcWing
        }
    }

    /// Runs on one case in a process of its own, handing its answers to
    /// `checker` as they come (in [`Submission::answer_format`]). `Err`
    /// only when the harness itself failed.
    pub(crate) fn run(
        &self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run> {
        Runner::new(self, true).run(case, limits, checker)
    }
}

/// Runs a submission's cases one after another, as one job of the judge
/// does. A function (a LeetCode-style file, a built-in solver) keeps one
/// process for all of them, as LeetCode runs every test of a submission in
/// one process: globals and statics keep their values from case to case,
/// and the runtime starts once. A case that ends the process (a crash, a
/// limit) leaves the next one a new process, and its report says so.
/// Programs get a process per case, as AcWing and POJ run them.
pub(crate) struct Runner<'s> {
    submission: &'s Submission,
    /// A process per case for functions too (`--fresh-process`).
    fresh: bool,
    session: Option<Session>,
    /// Why the next case gets a new process, when the last one ended.
    reset: Option<String>,
}

impl<'s> Runner<'s> {
    pub(crate) fn new(submission: &'s Submission, fresh_process: bool) -> Runner<'s> {
        Runner {
            submission,
            fresh: fresh_process,
            session: None,
            reset: None,
        }
    }

    /// Runs the submission on one case, handing its answers to `checker`
    /// as they come. `Err` only when the harness itself failed.
    pub(crate) fn run(
        &mut self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run> {
        if self.session.as_ref().is_some_and(|s| s.limits != *limits) {
            self.end_session();
            self.reset =
                Some("a new process from here: this case's limits are not the last one's".into());
        }
        let earlier = self.session.as_ref().map_or(0, |s| s.cases);
        let result = match self.submission {
            Submission::Builtin { worker, .. } => {
                function::run_function(worker, &mut self.session, case, limits, checker)
                    .map(builtin::panic_of)
            }
            Submission::External(launch) if launch.interface == Interface::Function => {
                function::run_function(launch, &mut self.session, case, limits, checker)
            }
            Submission::External(launch) => external::run_program(launch, case, limits, checker),
            Submission::NotCompiled { .. } => return Ok(Run::new(End::NotCompiled)),
        };
        let mut run = match result {
            Ok(run) => run,
            Err(error) => {
                // The process is in an unknown state: none is kept.
                self.end_session();
                return Err(error);
            }
        };
        run.earlier = earlier;
        if earlier == 0 {
            if let Some(why) = self.reset.take() {
                run.notes.push(why);
            }
        }
        if self.fresh {
            self.end_session();
        } else if self.session.is_none() && self.submission.is_function() {
            // The run before may have been this very case's (`--repeat`,
            // a rerun of a starved run): "the case before" could be none.
            self.reset = Some(format!(
                "a new process from here, with the solution's state reset: the run before \
                 ended its process ({})",
                run.end.in_words()
            ));
        }
        Ok(run)
    }

    fn end_session(&mut self) {
        if let Some(session) = self.session.take() {
            let _ = session.process.close();
        }
    }
}

/// How the judge runs a submission on its cases: through a [`Runner`], or,
/// in the judge's own tests, through a fake that makes up runs.
pub(crate) trait Execute {
    /// Runs on the next case, in the process the earlier cases ran in when
    /// it is kept, handing the answers to `checker` as they come. `Err`
    /// only when the harness itself failed.
    fn run(
        &mut self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run>;

    /// Runs on one case in a fresh process of its own, to tell a solution
    /// that keeps state between cases from one that fails anyway.
    fn run_alone(
        &mut self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run>;
}

impl Execute for Runner<'_> {
    fn run(
        &mut self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run> {
        Runner::run(self, case, limits, checker)
    }

    fn run_alone(
        &mut self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run> {
        self.submission.run(case, limits, checker)
    }
}

impl Drop for Runner<'_> {
    fn drop(&mut self) {
        self.end_session();
    }
}
