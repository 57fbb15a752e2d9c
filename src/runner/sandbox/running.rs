//! A run under way, as the spawner tracks it: its end, its report, how
//! it is stopped, and what is cleaned up after it.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::{Gid, Pid, Uid};

use super::cgroup::Cgroup;
use super::messages::{FromInit, STOP};
use super::plan::{ExitReport, Plan};
use crate::runner::sys::kill_group;

/// A run under way, as the spawner tracks it.
pub(crate) struct Running {
    /// The submission's process, as the spawner and the judge see it.
    pub(crate) pid: i32,
    /// The init of its namespace, when it has one.
    pub(super) init: Option<i32>,
    /// Readable at the exit of the init, or of the submission without one.
    pub(super) pidfd: Option<OwnedFd>,
    pub(super) from_init: Option<OwnedFd>,
    pub(crate) cgroup: Option<Cgroup>,
    /// Without a cgroup: where its init keeps the CPU time it samples of
    /// the run, which the judge maps to read as the run goes.
    pub(crate) sampled: Option<OwnedFd>,
    pub(super) started: Instant,
    pub(super) lent: Vec<(PathBuf, Uid, Gid)>,
    /// The report, once made; the run is cleaned up after it is sent.
    pub(super) ended: Option<ExitReport>,
    /// When its init was asked to stop it.
    pub(super) stop_asked: Option<Instant>,
    /// The plan of its sandbox, and how many runs the sandbox served
    /// before this one, when it may serve the next run of the same plan.
    pub(super) pooled: Option<(Plan, u32)>,
}

/// How long a run's init has to stop the run and report before it is
/// killed itself (and its run's accounting with it).
const STOP_GRACE: Duration = Duration::from_secs(2);

pub(super) fn kill_and_reap(pid: i32) {
    let pid = Pid::from_raw(pid);
    let _ = kill(pid, Signal::SIGKILL);
    let _ = waitpid(pid, None);
}

/// Returns lent directories to their owners.
pub(super) fn give_back(lent: &[(PathBuf, Uid, Gid)]) {
    for (dir, uid, gid) in lent {
        chown_tree(dir, *uid, *gid);
    }
}

pub(super) fn chown_tree(dir: &Path, uid: Uid, gid: Gid) {
    let _ = nix::unistd::chown(dir, Some(uid), Some(gid));
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        let _ = nix::unistd::fchownat(
            nix::fcntl::AT_FDCWD,
            entry.path(),
            Some(uid),
            Some(gid),
            nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
        );
    }
}

impl Running {
    /// Descriptors that become readable when the run moves on: its exit
    /// (pidfd) and the init's messages.
    pub(crate) fn fds(&self) -> [RawFd; 2] {
        [
            self.pidfd.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
            self.from_init.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
        ]
    }

    /// Kills everything of the run: through its init, which reaps the
    /// run's processes and reports what they used (see
    /// [`STOP`]); without one, at once.
    pub(crate) fn kill(&mut self) {
        match self.init {
            Some(init) => {
                if self.stop_asked.is_none() {
                    // Our own child, not yet reaped. With kill(2): the
                    // init obeys only its SI_USER from outside.
                    let _ = kill(Pid::from_raw(init), STOP);
                    self.stop_asked = Some(Instant::now());
                }
            }
            None => {
                kill_group(self.pid);
                if let Some(cgroup) = &self.cgroup {
                    cgroup.kill_all();
                }
            }
        }
    }

    /// Takes in the init's messages; `Ok(Some)` once the run is over and
    /// everything it started is dead.
    pub(crate) fn poll(&mut self) -> io::Result<Option<ExitReport>> {
        if let Some(ended) = self.ended {
            return Ok(Some(ended));
        }
        if let Some(ended) = self.report()? {
            return Ok(Some(ended));
        }
        if let (Some(init), Some(asked)) = (self.init, self.stop_asked) {
            if asked.elapsed() > STOP_GRACE {
                // Our own child, not yet reaped: its namespace, and
                // everything in it, goes with it.
                let _ = kill(Pid::from_raw(init), Signal::SIGKILL);
            }
        }
        let waited = self.init.unwrap_or(self.pid);
        let Some((status, usage)) = crate::runner::sys::try_wait4(waited)? else {
            return Ok(None);
        };
        // The init may have sent its report and exited since it was last
        // looked for: read it before taking the exit for a kill.
        if self.init.is_some() {
            if let Some(ended) = self.report()? {
                self.init = None;
                self.pidfd = None;
                return Ok(Some(ended));
            }
        }
        self.pidfd = None;
        let status = match self.init.take() {
            // The init died before the submission ended: it was killed
            // (the judge stopped the run), and everything with it.
            Some(_) => libc::SIGKILL,
            None => {
                kill_group(self.pid);
                if let Some(cgroup) = &self.cgroup {
                    cgroup.kill_all();
                }
                sweep_orphans();
                status
            }
        };
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        let cpu_ns = (micros(usage.ru_utime) + micros(usage.ru_stime)) * 1000;
        Ok(Some(self.finish(
            status,
            cpu_ns,
            usage.ru_maxrss as u64,
            None,
        )))
    }

    /// The init's report of the run's end, if it has come.
    pub(super) fn report(&mut self) -> io::Result<Option<ExitReport>> {
        let Some(socket) = &self.from_init else {
            return Ok(None);
        };
        match crate::runner::sys::receive_within(socket, 64 << 10, Duration::ZERO) {
            Ok(Some((message, _))) => {
                if let Ok(FromInit::Exited {
                    status,
                    cpu_ns,
                    max_rss_kb,
                    held_kb,
                }) = serde_json::from_slice(&message)
                {
                    return Ok(Some(self.finish(status, cpu_ns, max_rss_kb, Some(held_kb))));
                }
                Ok(None)
            }
            // The init is gone without a report: its exit says more.
            Ok(None) => {
                self.from_init = None;
                Ok(None)
            }
            Err(error) if error.kind() == io::ErrorKind::TimedOut => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The report of a run whose processes are all gone; `held_by_init`
    /// is its init's last reading of the memory, which without one (no
    /// namespace, or an init that died first) is taken here.
    pub(super) fn finish(
        &mut self,
        status: i32,
        cpu_ns: u64,
        max_rss_kb: u64,
        held_by_init: Option<u64>,
    ) -> ExitReport {
        let mut ended = ExitReport {
            status,
            cpu_ns,
            max_rss_kb,
            wall_ns: self.started.elapsed().as_nanos() as u64,
            oom_kills: 0,
            fork_refusals: 0,
            held_kb: held_by_init.unwrap_or_else(|| Cgroup::held_kb(self.cgroup.as_ref())),
        };
        if let Some(counted) = self.cgroup.as_ref().and_then(|c| c.usage().ok()) {
            ended.cpu_ns = counted.cpu.as_nanos() as u64;
            ended.oom_kills = counted.oom_kills;
            ended.fork_refusals = counted.fork_refusals;
        }
        self.ended = Some(ended);
        ended
    }

    /// Waits for the end, however long it takes: for the probe only.
    pub(super) fn wait_blocking(&mut self) -> io::Result<ExitReport> {
        loop {
            if let Some(ended) = self.poll()? {
                if !libc::WIFEXITED(ended.status) || libc::WEXITSTATUS(ended.status) != 0 {
                    return Err(io::Error::other(format!(
                        "it ended with status {}",
                        ended.status
                    )));
                }
                return Ok(ended);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    pub(super) fn tear_down(&mut self) {
        if let Some(init) = self.init.take() {
            kill_and_reap(init);
        } else if self.ended.is_none() {
            self.kill();
            let _ = waitpid(Pid::from_raw(self.pid), None);
        }
        if let Some(cgroup) = self.cgroup.take() {
            cgroup.kill_all();
            let _ = cgroup.remove();
        }
        give_back(&std::mem::take(&mut self.lent));
    }
}

/// A run dropped without being retired (the spawner failed) is killed
/// and cleaned up at once.
impl Drop for Running {
    fn drop(&mut self) {
        self.tear_down();
    }
}

/// Kills and reaps every process that was reparented to the spawner (a
/// child subreaper) because its parent ended: what a run started outside a
/// PID namespace, in a session of its own.
pub(super) fn sweep_orphans() {
    // Usually there is none: no child at all is left to wait for.
    let none = waitpid(None, Some(WaitPidFlag::WNOHANG)) == Err(Errno::ECHILD);
    if none {
        return;
    }
    let me = std::process::id().to_string();
    for _ in 0..50 {
        let mut found = false;
        if let Ok(entries) = fs::read_dir("/proc") {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
                    continue;
                };
                let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
                    continue;
                };
                // Field 4 (ppid) comes after the name, which ends at the last ')'.
                let ppid = stat
                    .rfind(')')
                    .and_then(|at| stat[at + 2..].split(' ').nth(1));
                if ppid == Some(me.as_str()) {
                    found = true;
                    // A child of ours, then its group.
                    let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                    kill_group(pid);
                }
            }
        }
        // Reaps every child of ours that has ended.
        while waitpid(None, Some(WaitPidFlag::WNOHANG)).is_ok_and(|s| s.pid().is_some()) {}
        if !found {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
