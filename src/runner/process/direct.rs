//! The fallback where no spawner starts the process (tests, systems
//! without one): it is forked here, in a process group of its own, with
//! its limits set between fork and exec, and waited for with `wait4`.
//! Killing it kills its whole group.

use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::child::Reaped;
use super::Spec;
use crate::runner::sys::{kill_group, limit_between_fork_and_exec, pidfd_open, try_wait4, Rlimits};

/// A process forked by the judge itself.
pub(super) struct Direct {
    /// Readable at its exit, where the kernel has pidfds.
    pidfd: Option<OwnedFd>,
    process: std::process::Child,
}

/// The descriptors a directly forked process starts with.
pub(super) struct Stdio3<'a> {
    pub stdin: &'a OwnedFd,
    pub stdout: &'a OwnedFd,
    pub stderr: &'a OwnedFd,
    /// The answer channel, given as fd 3.
    pub answers: Option<&'a OwnedFd>,
}

impl Direct {
    /// Forks and execs `spec`'s program with `stdio`, under `limits`.
    pub(super) fn spawn(spec: &Spec, stdio: Stdio3<'_>, limits: Rlimits) -> io::Result<Direct> {
        let mut command = Command::new(&spec.program);
        if let Some((first, rest)) = spec.argv.split_first() {
            command.arg0(first).args(rest);
        }
        command
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)));
        if spec.plan.cwd.is_dir() {
            command.current_dir(&spec.plan.cwd);
        }
        command
            .stdin(Stdio::from(stdio.stdin.try_clone()?))
            .stdout(Stdio::from(stdio.stdout.try_clone()?))
            .stderr(Stdio::from(stdio.stderr.try_clone()?))
            .process_group(0);
        let answers = stdio.answers.map(|write| write.as_raw_fd());
        limit_between_fork_and_exec(&mut command, answers, limits);
        let process = command.spawn()?;
        Ok(Direct {
            pidfd: pidfd_open(process.id() as i32),
            process,
        })
    }

    pub(super) fn pid(&self) -> i32 {
        self.process.id() as i32
    }

    /// Becomes readable when the process exits, where there are pidfds.
    pub(super) fn exit_fd(&self) -> Option<RawFd> {
        self.pidfd.as_ref().map(|fd| fd.as_raw_fd())
    }

    /// Kills its process group: the process and everything it started.
    pub(super) fn kill(&self) {
        // The group is ours until the process is reaped.
        kill_group(self.pid());
    }

    /// Its end and what the kernel accounted of it, once it has exited.
    pub(super) fn try_exit(&self) -> io::Result<Option<Reaped>> {
        Ok(try_wait4(self.pid())?.map(|(status, usage)| Reaped {
            status,
            cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
            max_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
            held_kb: 0,
            wall: None,
            oom_kills: 0,
            fork_refusals: 0,
        }))
    }

    /// Kills it, with its group, and reaps it: the harness stopped early.
    pub(super) fn kill_and_wait(mut self) {
        self.kill();
        let _ = self.process.wait();
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}
