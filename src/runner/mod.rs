//! How a submission runs on one case. Every kind of submission ends in the
//! same [`Run`]: its answers as text in the case's format, how it ended, and
//! what it cost. Turning that into a verdict is the judge's job
//! ([`crate::judge`], with [`crate::verdict_rules`]).

pub(crate) mod builtin;
pub(crate) mod external;
pub(crate) mod function;
pub mod lang;
pub(crate) mod places;
pub(crate) mod platform;
pub(crate) mod process;
mod puzzles;
mod run;
pub(crate) mod sandbox;
mod session;
#[cfg(target_os = "linux")]
pub(crate) mod spawner;
#[cfg(not(target_os = "linux"))]
#[path = "spawner_none.rs"]
pub(crate) mod spawner;
mod submission;
#[expect(
    unsafe_code,
    reason = "the judge's raw system calls, each behind a safe function"
)]
pub(crate) mod sys;

pub(crate) use run::crash;
pub(crate) use run::{plan, run_patiently, working_dir, End, Run, TASKS};
pub(crate) use submission::{Execute, Runner, Submission};
