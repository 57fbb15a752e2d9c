//! Containment: what a submission (or a compiler) can reach while it runs,
//! and how all of its work is accounted.
//!
//! The layers, each set up by the spawner ([`crate::runner::spawner`]) and each
//! checked when the spawner starts, as isolate's `isolate-check-environment`
//! does:
//!
//! - **Processes**: every run starts in a fresh PID namespace whose first
//!   process is a small init of the judge's. The submission cannot see,
//!   signal, stop or trace anything outside it, and when the run ends the
//!   kernel kills everything in the namespace, however it detached
//!   (`setsid`, double forks, new process groups).
//! - **Filesystem**: a fresh mount namespace whose root is a read-only
//!   tmpfs holding read-only binds of the system directories, the
//!   toolchain and the submission's own files, a fresh `/proc`, a minimal
//!   read-only `/dev`, and a scratch directory (the working directory, `/tmp`, `/dev/shm`) bounded
//!   in size and gone when the run ends. Case files, the user's home, the
//!   working tree and the build cache are not there at all: a toolchain in
//!   the home is shown with its own installation only, and a plan that
//!   would show the judge's own files is refused where every run starts
//!   ([`seen`]).
//! - **Network**: a network namespace with only its own loopback.
//! - **IPC**: a fresh IPC namespace per run, so no System V segment
//!   outlives it.
//! - **Privileges**: run as root, the judge runs submissions as an
//!   unprivileged user of their own (uid 60000 + job); run as a user, it
//!   makes the namespaces inside a user namespace of its own, where the
//!   submission has no capabilities. `no_new_privs` always.
//! - **Accounting** ([`cgroup`]): a cgroup per run counts the CPU time and
//!   peak memory of the whole tree and caps its memory and processes.
//!   Without one, the run's init reaps every process of the run and
//!   samples the CPU time of each ([`sampler`]).
//! - **Processes for LeetCode-style files** ([`seccomp`]): threads only, so
//!   that the per-board CPU clock sees all their work.
//!
//! Where the kernel refuses a layer, the judge goes on without it and says
//! so once in the report's header ([`Protections`]); `--sandbox require`
//! makes that an error, and `--sandbox off` (for debugging) runs
//! submissions as plain child processes.

#[cfg(target_os = "linux")]
pub(crate) mod cgroup;
#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "the submission's process between clone and exec, in the memory of its parent: raw calls that may not allocate"
)]
mod child;
#[cfg(target_os = "linux")]
pub(crate) mod failure;
#[cfg(target_os = "linux")]
mod init;
#[cfg(target_os = "linux")]
pub(crate) mod jail;
#[cfg(target_os = "linux")]
mod messages;
#[cfg(target_os = "linux")]
mod namespaces;
mod protections;
#[cfg(target_os = "linux")]
mod root;
#[cfg(target_os = "linux")]
pub(crate) mod running;
#[cfg(target_os = "linux")]
mod sampler;
#[cfg(target_os = "linux")]
pub(crate) mod seccomp;
mod seen;

pub(crate) use protections::*;
pub(crate) use seen::{ensure_unseen, may_show_whole, program_paths};

pub(crate) mod bytes;

pub(crate) mod path;

pub(crate) mod paths;
mod plan;

pub(crate) use plan::{
    environment, is_system_path, run_cwd, Containment, Mode, Plan, ProgramRefused,
};
// What the spawner, Linux's, sends and answers.
#[cfg(target_os = "linux")]
pub(crate) use plan::{ExitReport, SpawnRequest, FALLBACK_CWD};
