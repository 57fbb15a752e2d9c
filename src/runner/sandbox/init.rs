//! The init of a sandbox's namespaces: the process the spawner clones into
//! fresh PID, mount and IPC namespaces. It builds the run's root, waits for
//! the command, starts the submission ([`super::child`]), reaps everything
//! that ends in the namespace, and reports the run's end with the CPU time
//! and memory of every process it reaped (and, where no cgroup counts
//! them, of every process it saw: [`super::sampler`]); then, for a sandbox
//! that serves the next run of its plan, makes it new ([`renew`]) and
//! waits again.

use std::ffi::CString;
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::time::Instant;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::cgroup::Cgroup;
use super::child::{open_procs, start, Confinement, Exec};
use super::failure::{Failure, Stage};
use super::messages::{tell, FromInit, STOP};
use super::plan::{Plan, SpawnRequest};
use super::root::{build_root, seal_root, Scratch};
use super::sampler::Sampler;
use crate::runner::sys::{
    exit_now, kill_all_on_signal_from_outside, pidfd_open, poll, wait4, SharedCounter,
};

/// What the spawner's containment gives a run's init.
pub(super) struct Setup<'a> {
    /// The part of the root every run shares, when runs get a root of
    /// their own.
    pub(super) base: Option<&'a Path>,
    /// The ids inside the namespaces that scratch directories belong to.
    pub(super) owner: (u32, u32),
    /// Whether the sandbox serves the next runs of its plan.
    pub(super) pooled: bool,
    pub(super) confinement: Confinement<'a>,
}

/// The init of a run's namespaces, and of the runs after it that share
/// its plan: it builds the root, then serves one run at a time, and between
/// runs makes the sandbox new ([`renew`]). Where no cgroup counts a run,
/// `sampled` is the file where it keeps the run's CPU time for the judge
/// as the run goes ([`Sampler`]). Never returns.
pub(super) fn init(
    socket: &OwnedFd,
    plan: &Plan,
    cgroup: Option<&Cgroup>,
    sampled: Option<&OwnedFd>,
    setup: &Setup<'_>,
) -> ! {
    let result = (|| -> Result<(), Failure> {
        let procs = open_procs(cgroup)?;
        let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
        let _ = nix::sys::prctl::set_dumpable(false);
        let root = match setup.base {
            Some(base) => Some(build_root(base, plan, setup.owner)?),
            None => None,
        };
        if let Some(root) = &root {
            seal_root(root)?;
        }
        let scratch = root
            .as_deref()
            .map(|root| Scratch::note(root, plan))
            .transpose()?;
        // Made once, before any run's process starts: it may not allocate.
        let root_c = root
            .as_deref()
            .map(|root| CString::new(root.as_os_str().as_bytes()))
            .transpose()
            .map_err(|_| Failure::new(Stage::Filesystem, "the root's path holds a NUL", 0))?;
        listen_for_stop()?;
        // The processes are seen in the /proc of the run's own root.
        let mut sampler = match (cgroup, &root, sampled) {
            (None, Some(root), Some(file)) => SharedCounter::map(file, true).ok().map(|shared| {
                let mounts = scratch.as_ref().map(Scratch::mounts).unwrap_or_default();
                Sampler::new(root.join("proc"), mounts, shared)
            }),
            _ => None,
        };
        loop {
            tell(socket, &FromInit::Ready);
            let Ok(Some((command, stdio))) = crate::runner::sys::receive(socket, 256 << 10) else {
                // The spawner let this sandbox go.
                return Ok(());
            };
            let launch: SpawnRequest = serde_json::from_slice(&command)
                .map_err(|e| Failure::new(Stage::Exec, format!("a malformed command: {e}"), 0))?;
            let exec = Exec::new(&launch, setup.confinement)?;
            if let Some(sampler) = &mut sampler {
                sampler.begin();
            }
            let (submission, outer) = start(&exec, stdio, &procs, root_c.as_deref())?;
            tell(socket, &FromInit::Started { pid: outer });
            let Some(ended) = reap_run(submission, sampler.as_mut()) else {
                return Ok(());
            };
            tell(
                socket,
                &FromInit::Exited {
                    status: ended.status,
                    cpu_ns: ended.cpu_ns,
                    max_rss_kb: ended.max_rss_kb,
                    held_kb: Cgroup::held_kb(cgroup)
                        .max(sampler.as_ref().map_or(0, Sampler::held_kb)),
                },
            );
            if !setup.pooled {
                return Ok(());
            }
            renew(scratch.as_ref())?;
        }
    })();
    if let Err(failure) = result {
        tell(socket, &FromInit::Failed(failure));
        // The kernel ends the namespace with its init.
        exit_now(1);
    }
    exit_now(0)
}

/// How a run ended, and what its processes used in all.
struct Ended {
    status: i32,
    cpu_ns: u64,
    max_rss_kb: u64,
}

/// Reaps everything of a run: every process that ends in the namespace
/// until the submission does, then whatever it left behind, killed at once
/// and reaped, so that their time is counted. The CPU time is the sum over
/// every process reaped, the memory the most any of them held (each as
/// `wait4` gives it: its own and its waited-for children's); with a
/// `sampler`, the CPU time is the larger of that sum and the samples of
/// every process ([`Sampler::charge`]). `None` when the submission was
/// never seen to end.
fn reap_run(submission: i32, sampler: Option<&mut Sampler>) -> Option<Ended> {
    let mut tally = UsageTally {
        cpu_ns: 0,
        max_rss_kb: 0,
        sampler,
    };
    let status = if tally.sampler.is_some() {
        tally.watch(submission)?
    } else {
        tally.wait_for(submission)?
    };
    tally.end_the_rest();
    Some(Ended {
        status,
        cpu_ns: tally
            .sampler
            .as_ref()
            .map_or(tally.cpu_ns, |sampler| sampler.charge()),
        max_rss_kb: tally.max_rss_kb,
    })
}

/// What the processes of a run reaped so far used.
struct UsageTally<'a> {
    cpu_ns: u64,
    max_rss_kb: u64,
    sampler: Option<&'a mut Sampler>,
}

impl UsageTally<'_> {
    fn count(&mut self, usage: &libc::rusage) {
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        let cpu_ns = (micros(usage.ru_utime) + micros(usage.ru_stime)) * 1000;
        self.cpu_ns += cpu_ns;
        self.max_rss_kb = self.max_rss_kb.max(usage.ru_maxrss as u64);
        if let Some(sampler) = &mut self.sampler {
            sampler.reaped(cpu_ns);
        }
    }

    /// Reaps every process that ends, blocking, until the submission does:
    /// its status; `None` when the init has no child left.
    fn wait_for(&mut self, submission: i32) -> Option<i32> {
        loop {
            match wait4(-1, true) {
                Ok(Some((pid, status, usage))) => {
                    self.count(&usage);
                    if pid == submission {
                        return Some(status);
                    }
                }
                Err(error) if error.raw_os_error() == Some(libc::ECHILD) => return None,
                _ => {}
            }
        }
    }

    /// [`UsageTally::wait_for`] with a sampler: between the ends, the samples
    /// are taken when due. The init sleeps until the submission ends (its
    /// pidfd is readable) or the next sample is due; other processes that
    /// end meanwhile (orphans, the init's now) are reaped at the next
    /// wake. The judge's stop interrupts the sleep as it does `wait4`.
    fn watch(&mut self, submission: i32) -> Option<i32> {
        let pidfd = pidfd_open(submission);
        loop {
            loop {
                match wait4(-1, false) {
                    Ok(Some((pid, status, usage))) => {
                        self.count(&usage);
                        if pid == submission {
                            return Some(status);
                        }
                    }
                    Ok(None) => break,
                    Err(error) if error.raw_os_error() == Some(libc::ECHILD) => return None,
                    Err(_) => break,
                }
            }
            let sampler = self.sampler.as_mut()?;
            if Instant::now() >= sampler.next() {
                sampler.sample();
            }
            let mut ends = [libc::pollfd {
                fd: pidfd.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            }];
            let due = sampler.next().saturating_duration_since(Instant::now());
            let timeout_ms = due.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let _ = poll(&mut ends, timeout_ms);
        }
    }

    /// Once the submission has ended: usually it left nothing, and then
    /// the namespace holds no other process (an orphan becomes the init's
    /// child) and there is nothing to kill. Else, after a last sample of
    /// what is left, all of them at once, again for any forked meanwhile,
    /// until the init has no child left.
    fn end_the_rest(&mut self) {
        let mut sampled = false;
        loop {
            match wait4(-1, false) {
                Ok(Some((_, _, usage))) => self.count(&usage),
                Ok(None) => {
                    if let Some(sampler) = self.sampler.as_mut().filter(|_| !sampled) {
                        sampler.sample();
                        sampled = true;
                    }
                    let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
                    if let Ok(Some((_, _, usage))) = wait4(-1, true) {
                        self.count(&usage);
                    }
                }
                Err(error) if error.raw_os_error() == Some(libc::ECHILD) => break,
                Err(_) => {}
            }
        }
    }
}

/// Makes the sandbox new for the next run once every process of the last
/// is gone: its scratch space emptied ([`Scratch::empty`]), its System V
/// shared memory removed now (a namespace's is freed in the background,
/// after the next run's cgroup could count it), and a fresh IPC namespace.
fn renew(scratch: Option<&Scratch>) -> Result<(), Failure> {
    if let Some(scratch) = scratch {
        scratch.empty()?;
    }
    remove_shared_memory();
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWIPC)
        .map_err(|e| Failure::nix(Stage::Namespaces, "cannot make an IPC namespace", e))
}

/// Removes every System V shared memory segment of the caller's IPC
/// namespace (none is attached: its processes are gone).
fn remove_shared_memory() {
    let Ok(list) = std::fs::read_to_string("/proc/sysvipc/shm") else {
        return;
    };
    // The header, then one line per segment: key, shmid, ...
    for id in list
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<i32>().ok())
    {
        crate::runner::sys::remove_shared_memory(id);
    }
}

/// Makes [`STOP`] stop the run. An init receives from inside its
/// namespace only the signals it has a handler for, so the submission
/// could send this one too, even with a siginfo of its own making that
/// names pid 0: the handler obeys only a `kill(2)` from outside the
/// namespace, which the kernel marks `SI_USER` and shows as pid 0, and
/// which no process inside can forge (see
/// [`kill_all_on_signal_from_outside`]).
fn listen_for_stop() -> Result<(), Failure> {
    kill_all_on_signal_from_outside(STOP).map_err(|e| Failure::nix(Stage::Exec, "sigaction", e))
}
