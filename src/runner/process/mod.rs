//! Running one untrusted process to completion, whatever it does.
//!
//! - It starts through the platform seam ([`super::platform`]): on Linux
//!   a spawner starts it inside the sandbox ([`super::sandbox`]), its own
//!   PID, mount, network and IPC namespaces and a cgroup, as far as the
//!   kernel allows; without a spawner (tests) it is forked in a process
//!   group of its own; on macOS it runs under a Seatbelt profile in a
//!   process group, and on Windows in a Job Object.
//! - A watchdog ([`serve`]) stops it at a wall-clock deadline, when the
//!   CPU time or the memory of its whole tree passes its bound (on Linux
//!   read from its cgroup, or from `/proc` for its own process and, for its
//!   CPU time, what its init samples of every process, every few
//!   milliseconds; elsewhere from what the platform's [`Meter`] reads),
//!   when the conversation with it says so, or when the user interrupts
//!   the run ([`interrupt`]). On Unix, `RLIMIT_CPU`, `RLIMIT_AS` and (on
//!   Linux) the cgroup's memory cap are kernel backstops behind it, and
//!   cores are never dumped; on Windows, the Job Object's memory limit.
//! - Input and output stream: stdin is fed as the process takes it, and
//!   stdout (and a driver's answer channel, fd 3) handed on chunk by chunk
//!   as it arrives, so a case of a million puzzles is judged while it runs.
//!   Stdout is cut at the output limit; of stderr, its start and its end are
//!   kept (a Java stack overflow names itself on its first line, then
//!   prints a thousand frames).
//!   A [`Conversation`] decides what to feed and when: a whole file at
//!   once, or a driver's boards as they are made.
//! - One thread does it all with `poll(2)`: feeding stdin, draining the
//!   outputs, noticing the exit and the watchdog's rounds. A process that
//!   never reads, or floods stderr, cannot stall it, and no helper thread
//!   is left behind blocked on a pipe. On Windows, whose pipes cannot be
//!   polled, a thread per pipe does the blocking reads and writes
//!   (`threads`) and the same loop waits on them.
//! - CPU time and peak memory come from the kernel's accounting of the run
//!   (its cgroup, the run's init where there is none, `wait4`'s rusage on
//!   macOS and in tests, the job's accounting on Windows), not from
//!   polling.
//!
//! Each part has a room of its own: [`watchdog`] the process it watches
//! and how it ended, [`serve`] the watchdog's loop,
//! [`interrupts`] the user's Ctrl-C, [`streams`] the pipes (`threads` on
//! Windows). How the process is started, stopped, reaped and measured is
//! the platform's ([`super::platform`]); its pipes are made here, with
//! `nix` on Unix and [`super::sys`] on Windows, and handed to the platform
//! as the child's ends.

mod chunk;
mod interrupts;
mod serve;
mod streams;
// The tests run /bin/sh; Windows' runs are checked under Wine (.ci/windows).
#[cfg(all(test, unix))]
mod tests;
#[cfg(windows)]
mod threads;
mod watchdog;

pub(crate) use super::platform::{Exit, Meter};
pub(crate) use interrupts::{
    interrupt, interrupted, interrupting_signal, restart, restarting, resume,
};

pub(crate) use super::platform::describe_exception;

pub(crate) use watchdog::{
    describe_signal, read_input, run, run_captured, Conversation, Finished, Input, Kill, Process,
    ProcessSpec, Served, ANSWERS_VAR,
};
