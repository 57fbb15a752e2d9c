//! The small process that starts submissions: it holds the sandbox, and it
//! keeps what the kernel says of a submission about the submission alone.
//!
//! A process's peak memory as the kernel accounts it (`wait4`'s
//! `ru_maxrss`) starts from the pages its parent held when it was forked,
//! so a submission forked by the harness itself would be charged the
//! harness's memory, which grows with the corpus. So the harness forks
//! nothing. Each job has a spawner: this program started once more as
//! `sudoku-judge spawner`, single-threaded and a few hundred kilobytes of
//! heap. It sets up its containment once ([`super::sandbox::jail`]), says which
//! protections are in force, then takes requests over a socket: it starts
//! each run on the pipes the harness made (passed with `SCM_RIGHTS`),
//! reports its pid and cgroup, and when it ends, its status, CPU time and
//! peak memory. The pipes and the watchdog stay in the harness
//! ([`super::process`]); kills go through the spawner, which alone may
//! reap the run and so never kills a recycled pid.
//!
//! Messages are JSON documents ([`protocol`]), one per `SOCK_SEQPACKET`
//! datagram. Every wait for a reply has a deadline. This file is the
//! harness's end; [`serve`](mod@serve) the spawner's.
//!
//! Lifetimes are tied: a spawner watches its socket while a run goes on,
//! and if the harness goes away, even killed outright, it kills the run and
//! exits; idle, it exits at the socket's end; should the spawner itself
//! die, the run's init dies with it (`PR_SET_PDEATHSIG`), and the kernel
//! takes the run's namespace with it. (The spawner does not use
//! `PR_SET_PDEATHSIG` for itself: that follows the *thread* that started
//! it, and spawners are started by job threads that end before the run
//! does.) The spawner sits in a process group of its own, so Ctrl-C at the
//! terminal reaches the harness, which then stops the run in order.
//!
//! The binary and the mode come with each run (`sandbox::Containment`);
//! the pool of idle spawners is the process's, keyed by mode. Linux only
//! (`SOCK_SEQPACKET`, namespaces); elsewhere the harness forks
//! submissions itself.

mod protocol;
mod serve;

use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::sandbox::cgroup::{Cgroup, Hierarchy};
use super::sandbox::{Containment, ExitReport, Mode, Protections, SpawnRequest};
use super::sys::{readable, receive_within, send, socket_pair, SharedCounter};
pub(crate) use protocol::decode_any;
use protocol::{Reply, Request, MAX_MESSAGE};
pub(crate) use serve::serve;

/// How long a spawner may take to set up its sandbox and say so.
const READY_DEADLINE: Duration = Duration::from_secs(30);
/// How long starting one run may take (its init builds a root filesystem).
const START_DEADLINE: Duration = Duration::from_secs(15);

/// What measures a run a spawner started, beside the kernel's clock of
/// the submission's own process.
pub(crate) struct Meters {
    /// The run's cgroup, which counts every process of it.
    pub(crate) cgroup: Option<Cgroup>,
    /// Without one, the CPU time of every process of the run so far, as
    /// its init samples it (`sandbox::sampler`), in nanoseconds.
    pub(crate) sampled: Option<SharedCounter>,
}

/// The harness's end of one spawner.
pub(crate) struct Spawner {
    socket: OwnedFd,
    server: std::process::Child,
    /// Every message so far went through; a spawner that failed one is
    /// not used again.
    healthy: bool,
    pub(crate) protections: Protections,
}

static IDLE: Mutex<Vec<Spawner>> = Mutex::new(Vec::new());
static SLOTS: AtomicU32 = AtomicU32::new(0);
/// What the first spawner of each mode could set up.
static PROTECTIONS: Mutex<Vec<Protections>> = Mutex::new(Vec::new());

/// A spawner for one run of `containment`: an idle one, or a new one.
/// `None` when it names no spawner: the harness forks runs itself.
pub(crate) fn take(containment: &Containment) -> Option<io::Result<Spawner>> {
    let exe = containment.spawner.as_ref()?;
    let idle = {
        let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        let same = idle
            .iter()
            .rposition(|s| s.protections.mode == containment.mode);
        same.map(|at| idle.swap_remove(at))
    };
    Some(idle.map_or_else(|| Spawner::start(exe, containment.mode), Ok))
}

/// Lets every idle spawner go, with the sandbox each keeps for its next
/// run: after a file the runs see was replaced (a rebuilt program is a new
/// file at the old path), a sandbox made before holds the old one.
pub(crate) fn let_idle_go() {
    let idle = std::mem::take(&mut *IDLE.lock().unwrap_or_else(|e| e.into_inner()));
    drop(idle);
}

/// Returns a spawner for the next run; one that failed is let go.
pub(crate) fn give_back(spawner: Spawner) {
    if !spawner.healthy {
        return;
    }
    IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(spawner);
}

/// Where runs' cgroups go, found once for the whole judge (see
/// [`Hierarchy::detect`]), or why they cannot.
fn cgroups(mode: Mode) -> Result<Hierarchy, String> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    match mode {
        Mode::Off => Err("--sandbox off".into()),
        _ => FOUND.get_or_init(Hierarchy::detect).clone(),
    }
}

/// The protections runs of `containment` get: what the first spawner
/// could set up (they all can the same). Starts one if none has run yet.
/// `None` when it names no spawner.
pub(crate) fn protections(containment: &Containment) -> Option<io::Result<Protections>> {
    let known = PROTECTIONS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = known.iter().find(|p| p.mode == containment.mode) {
        return Some(Ok(known.clone()));
    }
    drop(known);
    let spawner = match take(containment)? {
        Ok(spawner) => spawner,
        Err(error) => return Some(Err(error)),
    };
    let protections = spawner.protections.clone();
    give_back(spawner);
    Some(Ok(protections))
}

impl Drop for Spawner {
    fn drop(&mut self) {
        // Closing the socket tells it to exit; reap it so no zombie stays.
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

impl Spawner {
    fn start(exe: &Path, mode: Mode) -> io::Result<Spawner> {
        // Before the first spawner starts: finding the runs' cgroups may
        // move the judge into a cgroup of its own, which its spawners,
        // started after, share.
        let cgroups = cgroups(mode);
        let (ours, theirs) = socket_pair()?;
        let server = Command::new(exe)
            .arg("spawner")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()?;
        let mut spawner = Spawner {
            socket: ours,
            server,
            healthy: false,
            protections: Protections::off(),
        };
        spawner.send(
            &Request::Hello {
                mode,
                slot: SLOTS.fetch_add(1, Ordering::Relaxed),
                cgroups: Box::new(cgroups),
            },
            &[],
        )?;
        match spawner.receive(READY_DEADLINE)? {
            Reply::Ready(protections) => {
                let mut known = PROTECTIONS.lock().unwrap_or_else(|e| e.into_inner());
                if !known.iter().any(|p| p.mode == protections.mode) {
                    known.push(protections.clone());
                }
                spawner.protections = protections;
                spawner.healthy = true;
                Ok(spawner)
            }
            other => Err(io::Error::other(format!(
                "the spawner answered {other:?} to its start"
            ))),
        }
    }

    fn send(&mut self, request: &Request, fds: &[RawFd]) -> io::Result<()> {
        send(&self.socket, &request.encode()?, fds)
    }

    fn receive(&mut self, deadline: Duration) -> io::Result<Reply> {
        self.receive_with_fds(deadline).map(|(reply, _)| reply)
    }

    /// The next reply and the descriptors sent with it.
    fn receive_with_fds(&mut self, deadline: Duration) -> io::Result<(Reply, Vec<OwnedFd>)> {
        let (message, fds) =
            receive_within(&self.socket, MAX_MESSAGE, deadline)?.ok_or_else(gone)?;
        Ok((Reply::decode(&message)?, fds))
    }

    /// Starts `launch` on `stdio` (stdin, stdout, stderr, and fd 3 when
    /// given) and returns the submission's pid and what measures the run.
    pub(crate) fn spawn(
        &mut self,
        launch: &SpawnRequest,
        stdio: &[&OwnedFd],
    ) -> io::Result<(i32, Meters)> {
        self.launch(launch, stdio)?;
        self.started(START_DEADLINE)
    }

    /// Asks for `launch` to be started on `stdio`, without waiting: its
    /// start is confirmed by [`Spawner::started`], or
    /// [`Spawner::try_started`] (`Ok(None)` until then), before the run's
    /// end is reported. Meanwhile its pipes can be fed, so that a
    /// submission never waits for its input on the confirmation's way back.
    pub(crate) fn launch(&mut self, launch: &SpawnRequest, stdio: &[&OwnedFd]) -> io::Result<()> {
        self.healthy = false;
        let fds: Vec<RawFd> = stdio.iter().map(|fd| fd.as_raw_fd()).collect();
        self.send(&Request::Launch(Box::new(launch.clone())), &fds)
    }

    /// The confirmation that the run asked for has started, if it has come;
    /// the reason it did not start as an error.
    pub(crate) fn try_started(&mut self) -> io::Result<Option<(i32, Meters)>> {
        if !readable(&self.socket) {
            return Ok(None);
        }
        self.started(Duration::ZERO).map(Some)
    }

    /// Waits at most `deadline` for the confirmation that the run asked for
    /// has started.
    fn started(&mut self, deadline: Duration) -> io::Result<(i32, Meters)> {
        let (reply, mut fds) = self.receive_with_fds(deadline)?;
        self.healthy = true;
        match reply {
            Reply::Started {
                pid,
                mut cgroup,
                sampled,
            } => {
                // Without it, the run is held by its own process's CPU
                // time while it runs, and charged in full at its end.
                let sampled = if sampled {
                    fds.pop()
                        .and_then(|file| SharedCounter::map(&file, false).ok())
                } else {
                    None
                };
                if let (Some(cgroup), Ok([cpu, memory_stat])) =
                    (cgroup.as_mut(), <[OwnedFd; 2]>::try_from(fds))
                {
                    cgroup.hold_meter_files(cpu, memory_stat);
                }
                Ok((pid, Meters { cgroup, sampled }))
            }
            Reply::Failed(failure) => Err(failure.into_io()),
            other => {
                self.healthy = false;
                Err(io::Error::other(format!("the spawner answered {other:?}")))
            }
        }
    }

    /// Asks the spawner to stop the run now; its exit report follows.
    pub(crate) fn kill(&mut self) {
        if self.send(&Request::Kill, &[]).is_err() {
            self.healthy = false;
        }
    }

    /// Readable once the run has ended.
    pub(crate) fn exit_fd(&self) -> RawFd {
        self.socket.as_raw_fd()
    }

    /// The run's end, once the spawner has reported it.
    pub(crate) fn try_exit(&mut self) -> io::Result<Option<ExitReport>> {
        if !readable(&self.socket) {
            return Ok(None);
        }
        self.healthy = false;
        let reply = self.receive(Duration::ZERO)?;
        self.healthy = true;
        match reply {
            Reply::Exited(ended) => Ok(Some(ended)),
            other => {
                self.healthy = false;
                Err(io::Error::other(format!(
                    "the spawner sent {other:?} instead of an exit report"
                )))
            }
        }
    }
}

fn gone() -> io::Error {
    io::Error::other(
        "the judge's spawner process exited unexpectedly (was it killed?); the run it held was \
         stopped with it",
    )
}
