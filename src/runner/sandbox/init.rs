//! The init of a run's namespaces: the process the spawner clones into
//! fresh PID, mount and IPC namespaces for each run. It builds the run's
//! root, waits for the command, starts the submission ([`super::child`]),
//! reaps everything that ends in the namespace, and reports the run's end
//! with the CPU time and memory of every process it reaped.

use std::io;
use std::os::fd::OwnedFd;
use std::time::Duration;

use nix::sys::resource::{getrusage, UsageWho};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};

use super::cgroup::Cgroup;
use super::child::{open_procs, start, Exec};
use super::failure::{Failure, Stage};
use super::jail::Jail;
use super::root::{build_root, seal_root};
use super::{Plan, SpawnRequest};
use crate::runner::sys::{exit_now, kill_all_on_signal_from_outside, wait_any};

/// What the init tells the spawner.
#[derive(Debug, Serialize, Deserialize)]
pub(super) enum FromInit {
    /// The root is ready, and the init waits for the command.
    Ready,
    /// The submission has started (its exec succeeded); its pid as the
    /// spawner sees it.
    Started {
        pid: i32,
    },
    Failed(Failure),
    /// The submission ended (as `wait` reported) and everything else it
    /// left in the namespace is killed and reaped, with their rusage.
    Exited {
        status: i32,
        cpu_ns: u64,
        max_rss_kb: u64,
        /// Memory the run still held in its cgroup when it was over
        /// (its `/tmp` and `/dev/shm`), in KB.
        held_kb: u64,
    },
}

/// Sends one message to the spawner.
pub(super) fn tell(socket: &OwnedFd, message: &FromInit) {
    let text = serde_json::to_vec(message).unwrap_or_default();
    let _ = crate::runner::sys::send(socket, &text, &[]);
}

/// Receives the init's next message within `deadline`.
pub(super) fn receive_from_init(socket: &OwnedFd, deadline: Duration) -> io::Result<FromInit> {
    let message = crate::runner::sys::receive_within(socket, 64 << 10, deadline)?
        .ok_or_else(|| io::Error::other("the run's init went away"))?;
    serde_json::from_slice(&message.0).map_err(|e| io::Error::other(e.to_string()))
}

/// The init of a run's namespaces. Never returns.
pub(super) fn init(socket: &OwnedFd, plan: &Plan, cgroup: Option<&Cgroup>, jail: &Jail) -> ! {
    let result = (|| -> Result<(), Failure> {
        let procs = open_procs(cgroup)?;
        let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
        let _ = nix::sys::prctl::set_dumpable(false);
        let root = match &jail.base {
            Some(base) if jail.filesystem => Some(build_root(&base.path, plan, jail.owner)?),
            _ => None,
        };
        if let Some(root) = &root {
            seal_root(root)?;
        }
        tell(socket, &FromInit::Ready);
        let Ok(Some((command, stdio))) = crate::runner::sys::receive(socket, 256 << 10) else {
            // The spawner let this sandbox go unused.
            return Ok(());
        };
        let launch: SpawnRequest = serde_json::from_slice(&command)
            .map_err(|e| Failure::new(Stage::Exec, format!("a malformed command: {e}"), 0))?;
        let exec = Exec::new(&launch, jail)?;
        let (submission, outer) = start(&exec, stdio, &procs, root.as_deref())?;
        drop(procs);
        listen_for_stop()?;
        tell(socket, &FromInit::Started { pid: outer });
        // Reap everything that ends here, until the submission does.
        let status = loop {
            match wait_any() {
                Ok((pid, status)) if pid == submission => break status,
                Err(error) if error.raw_os_error() == Some(libc::ECHILD) => return Ok(()),
                _ => {}
            }
        };
        // Then whatever it left behind: every other process of the
        // namespace, killed at once and reaped, so their time is counted.
        let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
        while waitpid(None, None).is_ok() {}
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        let (cpu_ns, max_rss_kb) = getrusage(UsageWho::RUSAGE_CHILDREN).map_or((0, 0), |usage| {
            let usage: &libc::rusage = usage.as_ref();
            (
                (micros(usage.ru_utime) + micros(usage.ru_stime)) * 1000,
                usage.ru_maxrss as u64,
            )
        });
        tell(
            socket,
            &FromInit::Exited {
                status,
                cpu_ns,
                max_rss_kb,
                held_kb: held_kb(cgroup),
            },
        );
        Ok(())
    })();
    if let Err(failure) = result {
        tell(socket, &FromInit::Failed(failure));
        // The kernel ends the namespace with its init.
        exit_now(1);
    }
    exit_now(0)
}

/// The signal by which the spawner asks a run's init to stop the run.
///
/// Killing the init instead would end the run too, but the kernel reaps
/// the rest of a dying init's namespace without counting it: a killed
/// run would be charged none of the CPU time its processes used. Asked
/// this way, the init kills them, reaps them and reports their time, as
/// it does when the submission ends by itself.
pub(super) const STOP: Signal = Signal::SIGUSR1;

/// Makes [`STOP`] stop the run. An init receives from inside its
/// namespace only the signals it has a handler for, so the submission
/// could send this one too: the handler obeys only a sender outside the
/// namespace, which the kernel shows as pid 0.
fn listen_for_stop() -> Result<(), Failure> {
    kill_all_on_signal_from_outside(STOP).map_err(|e| Failure::nix(Stage::Exec, "sigaction", e))
}

/// The memory a run's cgroup still holds once its processes are gone:
/// files it left in a tmpfs and shared memory, which its last sample may
/// have missed (a program that writes them and exits at once). Read by a
/// run's init before its namespace, and its tmpfs with it, goes.
pub(super) fn held_kb(cgroup: Option<&Cgroup>) -> u64 {
    cgroup
        .and_then(|cgroup| cgroup.memory_kb().ok())
        .unwrap_or(0)
}
