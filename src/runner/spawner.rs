//! The small process that starts submissions: it holds the sandbox, and it
//! keeps what the kernel says of a submission about the submission alone.
//!
//! A process's peak memory as the kernel accounts it (`wait4`'s
//! `ru_maxrss`) starts from the pages its parent held when it was forked,
//! so a submission forked by the harness itself would be charged the
//! harness's memory, which grows with the corpus. So the harness forks
//! nothing. Each job has a spawner: this program started once more as
//! `sudoku-judge spawner`, single-threaded and a few hundred kilobytes of
//! heap. It sets up its containment once (`sandbox::jail`), says which
//! protections are in force, then takes requests over a socket: it starts
//! each run on the pipes the harness made (passed with `SCM_RIGHTS`),
//! reports its pid and cgroup, and when it ends, its status, CPU time and
//! peak memory. The pipes and the watchdog stay in the harness
//! ([`super::process`]); kills go through the spawner, which alone may
//! reap the run and so never kills a recycled pid.
//!
//! Messages are JSON documents (`Request`, `Reply`), one per
//! `SOCK_SEQPACKET` datagram. Every wait for a reply has a deadline.
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
//! Linux only (`SOCK_SEQPACKET`, namespaces); elsewhere the harness forks
//! submissions itself.

use std::io;
use std::os::fd::{AsFd as _, AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::sandbox::cgroup::{Cgroup, Hierarchy};
use super::sandbox::failure::Failure;
use super::sandbox::jail::Jail;
use super::sandbox::running::Running;
use super::sandbox::{self, ExitReport, Mode, Protections, SpawnRequest};
use super::sys::{
    poll, readable, receive, receive_within, release_free_heap, send, socket_pair, SharedCounter,
};

/// The largest message: a launch names its command, environment and paths.
const MAX_MESSAGE: usize = 256 << 10;

/// How long a spawner may take to set up its sandbox and say so.
const READY_DEADLINE: Duration = Duration::from_secs(30);
/// How long starting one run may take (its init builds a root filesystem).
const START_DEADLINE: Duration = Duration::from_secs(15);

/// What the harness asks of a spawner.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Request {
    /// The first message: set up the sandbox; `slot` numbers the spawner;
    /// `cgroups`, where the judge found that runs' cgroups may go (or why
    /// none may), found once by the judge itself, which may have to move
    /// into a cgroup of its own first.
    Hello {
        mode: Mode,
        slot: u32,
        cgroups: Box<Result<Hierarchy, String>>,
    },
    /// Start a run on the descriptors sent with the message.
    Launch(Box<SpawnRequest>),
    /// Stop the run now.
    Kill,
}

/// What a spawner answers.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// To `Hello`: the protections in force.
    Ready(Protections),
    /// The run started: the submission's pid as the harness sees it, and
    /// the cgroup that accounts for it; without one, whether the last
    /// descriptor sent with it is where the run's init keeps the CPU time
    /// of every process of the run as it goes.
    Started {
        pid: i32,
        cgroup: Option<Cgroup>,
        #[serde(default)]
        sampled: bool,
    },
    /// It did not start.
    Failed(Failure),
    /// It ended.
    Exited(ExitReport),
}

impl Request {
    /// The message that carries it.
    fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }

    /// The request a message carries; `Err` when it carries none.
    fn decode(message: &[u8]) -> serde_json::Result<Request> {
        serde_json::from_slice(message)
    }
}

impl Reply {
    /// The message that carries it.
    fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }

    /// The reply a message carries; `Err` when it carries none.
    fn decode(message: &[u8]) -> io::Result<Reply> {
        serde_json::from_slice(message)
            .map_err(|e| io::Error::other(format!("the spawner sent a malformed reply: {e}")))
    }
}

/// Reads `message` as the spawner reads a request and the judge a reply,
/// for fuzzing: any bytes give a message or an error, never a panic.
pub fn decode_any(message: &[u8]) {
    let _ = Request::decode(message);
    let _ = Reply::decode(message);
}

/// What measures a run a spawner started, beside the kernel's clock of
/// the submission's own process.
pub(crate) struct Meters {
    /// The run's cgroup, which counts every process of it.
    pub cgroup: Option<Cgroup>,
    /// Without one, the CPU time of every process of the run so far, as
    /// its init samples it (`sandbox::sampler`), in nanoseconds.
    pub sampled: Option<SharedCounter>,
}

/// The harness's end of one spawner.
pub struct Spawner {
    socket: OwnedFd,
    server: std::process::Child,
    /// Every message so far went through; a spawner that failed one is
    /// not used again.
    healthy: bool,
    pub(crate) protections: Protections,
}

static EXE: OnceLock<PathBuf> = OnceLock::new();
static IDLE: Mutex<Vec<Spawner>> = Mutex::new(Vec::new());
static SLOTS: AtomicU32 = AtomicU32::new(0);
static PROTECTIONS: OnceLock<Protections> = OnceLock::new();

/// Starts submissions through spawners run from `exe` (this program's own
/// binary) from now on. Without this, the harness forks them itself.
pub fn enable(exe: PathBuf) {
    let _ = EXE.set(exe);
}

/// A spawner for one run: an idle one, or a new one. `None` when spawners
/// are not enabled.
pub(crate) fn take() -> Option<io::Result<Spawner>> {
    let exe = EXE.get()?;
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    Some(idle.map_or_else(|| Spawner::start(exe), Ok))
}

/// Lets every idle spawner go, with the sandbox each keeps for its next
/// run: after a file the runs see was replaced (a rebuilt program is a new
/// file at the old path), a sandbox made before holds the old one.
pub fn let_idle_go() {
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
fn cgroups() -> &'static Result<Hierarchy, String> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    FOUND.get_or_init(|| match sandbox::mode() {
        Mode::Off => Err("--sandbox off".into()),
        _ => Hierarchy::detect(),
    })
}

/// The protections runs get: what the first spawner could set up (they
/// all can the same). Starts one if none has run yet. `None` when spawners
/// are not enabled.
pub fn protections() -> Option<io::Result<Protections>> {
    if let Some(known) = PROTECTIONS.get() {
        return Some(Ok(known.clone()));
    }
    let spawner = match take()? {
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
    fn start(exe: &PathBuf) -> io::Result<Spawner> {
        // Before the first spawner starts: finding the runs' cgroups may
        // move the judge into a cgroup of its own, which its spawners,
        // started after, share.
        let cgroups = cgroups().clone();
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
                mode: sandbox::mode(),
                slot: SLOTS.fetch_add(1, Ordering::Relaxed),
                cgroups: Box::new(cgroups),
            },
            &[],
        )?;
        match spawner.receive(READY_DEADLINE)? {
            Reply::Ready(protections) => {
                let _ = PROTECTIONS.set(protections.clone());
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

fn reply(socket: &OwnedFd, reply: &Reply) -> io::Result<()> {
    send(socket, &reply.encode()?, &[])
}

/// The spawner's side, on the socket it got as stdin: sets up the sandbox,
/// then serves runs one at a time until the harness goes away.
pub fn serve() -> io::Result<()> {
    // The socket the harness gave as our stdin.
    let socket = io::stdin().as_fd().try_clone_to_owned()?;
    let exe = std::env::current_exe()?;
    let Some((hello, _)) = receive(&socket, MAX_MESSAGE)? else {
        return Ok(());
    };
    let (mode, slot, cgroups) = match Request::decode(&hello) {
        Ok(Request::Hello {
            mode,
            slot,
            cgroups,
        }) => (mode, slot, *cgroups),
        _ => return Err(io::Error::other("the first request was not a hello")),
    };
    let mut jail = Jail::enter(mode, slot, &exe, cgroups);
    // What starting up allocated goes back to the system: a plain child
    // starts with a copy of this process's memory, and is charged for it.
    release_free_heap();
    reply(&socket, &Reply::Ready(jail.protections.clone()))?;
    let mut current: Option<Running> = None;
    loop {
        // Everything that can move: the judge's requests, the run, and the
        // background (a sandbox being made, inits being reaped).
        let mut watched = vec![socket.as_raw_fd()];
        if let Some(running) = &current {
            watched.extend(running.fds());
        }
        watched.extend(jail.background_fds());
        let mut fds: Vec<libc::pollfd> = watched
            .into_iter()
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // Without a pidfd, a run's end is noticed by looking every few
        // milliseconds.
        let blind = current.as_ref().is_some_and(|r| r.fds()[0] < 0);
        let timeout = if blind { 2 } else { 1000 };
        if let Err(error) = poll(&mut fds, timeout) {
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
        jail.tend();
        if let Some(running) = &mut current {
            if let Some(ended) = running.poll()? {
                reply(&socket, &Reply::Exited(ended))?;
                jail.retire(current.take().expect("a run is under way"));
            }
        }
        if fds[0].revents == 0 {
            continue;
        }
        let Some((request, stdio)) = receive(&socket, MAX_MESSAGE)? else {
            // The judge is gone: nothing of a run may stay (dropping the
            // run and the jail kills and reaps everything).
            if let Some(running) = &mut current {
                running.kill();
            }
            return Ok(());
        };
        match Request::decode(&request) {
            Ok(Request::Launch(launch)) if current.is_none() => match jail.launch(&launch, stdio) {
                Ok(running) => {
                    // With the files a meter reads, which the judge would
                    // otherwise open again for every run, and last, the
                    // one where the init keeps what it samples.
                    let mut meter_files: Vec<RawFd> = running
                        .cgroup
                        .as_ref()
                        .and_then(Cgroup::meter_files)
                        .map(|files| files.map(|file| file.as_raw_fd()).to_vec())
                        .unwrap_or_default();
                    meter_files.extend(running.sampled.as_ref().map(|file| file.as_raw_fd()));
                    let started = Reply::Started {
                        pid: running.pid,
                        cgroup: running.cgroup.clone(),
                        sampled: running.sampled.is_some(),
                    };
                    send(&socket, &started.encode()?, &meter_files)?;
                    current = Some(running);
                }
                Err(failure) => reply(&socket, &Reply::Failed(failure))?,
            },
            Ok(Request::Kill) => {
                // A kill that crossed the run's end finds nothing to stop.
                if let Some(running) = &mut current {
                    running.kill();
                }
            }
            _ => {
                let failure = Failure {
                    stage: super::sandbox::failure::Stage::Exec,
                    errno: 0,
                    message: "malformed request".into(),
                };
                reply(&socket, &Reply::Failed(failure))?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::sys::Rlimits;

    #[test]
    fn every_message_survives_the_round_trip() {
        use std::os::unix::ffi::OsStrExt as _;
        let launch = SpawnRequest {
            program: b"/bin/prog".to_vec(),
            argv: vec![
                b"prog".to_vec(),
                b"a b".to_vec(),
                vec![],
                "ü".as_bytes().to_vec(),
            ],
            env: vec![(b"KEY".to_vec(), b"va=lue".to_vec())],
            limits: Rlimits {
                cpu_seconds: Some(3),
                address_space: None,
                tasks: Some(264),
                file_size: Some(1 << 20),
            },
            plan: sandbox::Plan {
                read_only: vec![PathBuf::from(std::ffi::OsStr::from_bytes(b"/x/\xff"))],
                cwd: "/work".into(),
                ..sandbox::Plan::default()
            },
        };
        let text = Request::Launch(Box::new(launch.clone())).encode().unwrap();
        let Request::Launch(back) = Request::decode(&text).unwrap() else {
            panic!("not a launch");
        };
        assert_eq!(back.argv, launch.argv);
        assert_eq!(back.env, launch.env);
        assert_eq!(back.plan, launch.plan);
        assert_eq!(back.limits.cpu_seconds, Some(3));
        let ended = ExitReport {
            status: 9,
            cpu_ns: 1_500_000_000,
            max_rss_kb: 1_100,
            wall_ns: 2,
            oom_kills: 1,
            fork_refusals: 4,
            held_kb: 2_048,
        };
        let text = Reply::Exited(ended).encode().unwrap();
        let Reply::Exited(back) = Reply::decode(&text).unwrap() else {
            panic!("not an exit");
        };
        assert_eq!(
            (
                back.status,
                back.cpu_ns,
                back.max_rss_kb,
                back.oom_kills,
                back.fork_refusals,
                back.held_kb
            ),
            (9, 1_500_000_000, 1_100, 1, 4, 2_048)
        );
        assert!(Request::decode(br#"{"Launch":7}"#).is_err());
    }

    #[test]
    fn every_request_and_reply_survives_the_round_trip() {
        let hello = Request::decode(
            &Request::Hello {
                mode: Mode::Off,
                slot: 7,
                cgroups: Box::new(Err("no cgroup v2 subtree is delegated to you".into())),
            }
            .encode()
            .unwrap(),
        );
        assert!(
            matches!(
                &hello,
                Ok(Request::Hello {
                    mode: Mode::Off,
                    slot: 7,
                    cgroups,
                }) if cgroups.as_ref().as_ref().is_err_and(|why| why.contains("delegated"))
            ),
            "{hello:?}"
        );
        assert!(matches!(
            Request::decode(&Request::Kill.encode().unwrap()),
            Ok(Request::Kill)
        ));

        let mut protections = Protections::off();
        protections.cgroup_version = Some("v2".into());
        let Reply::Ready(back) =
            Reply::decode(&Reply::Ready(protections.clone()).encode().unwrap()).unwrap()
        else {
            panic!("not ready");
        };
        assert_eq!(back, protections);

        let cgroup: Cgroup = serde_json::from_str(
            r#"{"version":"V2","memory":"/sys/fs/cgroup/a","pids":"/sys/fs/cgroup/a","cpu":"/sys/fs/cgroup/a"}"#,
        )
        .unwrap();
        for (cgroup, sampled) in [(Some(cgroup), false), (None, true)] {
            let started = Reply::Started {
                pid: 4242,
                cgroup: cgroup.clone(),
                sampled,
            };
            let Reply::Started {
                pid,
                cgroup: back,
                sampled: sampled_back,
            } = Reply::decode(&started.encode().unwrap()).unwrap()
            else {
                panic!("not started");
            };
            assert_eq!((pid, back, sampled_back), (4242, cgroup, sampled));
        }
        // From a spawner that samples nothing.
        assert!(matches!(
            Reply::decode(br#"{"Started":{"pid":7,"cgroup":null}}"#),
            Ok(Reply::Started { sampled: false, .. })
        ));

        let failure = Failure {
            stage: sandbox::failure::Stage::Filesystem,
            errno: libc::EPERM,
            message: "cannot mount /proc".into(),
        };
        let Reply::Failed(back) = Reply::decode(&Reply::Failed(failure).encode().unwrap()).unwrap()
        else {
            panic!("not a failure");
        };
        assert_eq!(
            (back.stage, back.errno, back.message.as_str()),
            (
                sandbox::failure::Stage::Filesystem,
                libc::EPERM,
                "cannot mount /proc"
            )
        );

        let malformed = Reply::decode(b"{\"Started\":{}}").unwrap_err();
        assert!(
            malformed
                .to_string()
                .starts_with("the spawner sent a malformed reply: "),
            "{malformed}"
        );
    }

    #[test]
    fn descriptors_pass_over_the_socket() {
        let (a, b) = socket_pair().unwrap();
        let (read, write) = nix::unistd::pipe().unwrap();
        send(&a, b"hello", &[write.as_raw_fd()]).unwrap();
        drop(write);
        let (message, mut fds) = receive_within(&b, MAX_MESSAGE, Duration::from_secs(5))
            .unwrap()
            .unwrap();
        assert_eq!(message, b"hello");
        assert_eq!(fds.len(), 1);
        let mut pipe = std::fs::File::from(fds.pop().unwrap());
        std::io::Write::write_all(&mut pipe, b"through").unwrap();
        drop(pipe);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(read), &mut text).unwrap();
        assert_eq!(text, "through");
        let silent = receive_within(&b, MAX_MESSAGE, Duration::from_millis(20)).unwrap_err();
        assert_eq!(silent.kind(), io::ErrorKind::TimedOut);
        drop(a);
        assert!(receive_within(&b, MAX_MESSAGE, Duration::from_secs(5))
            .unwrap()
            .is_none());
    }
}
