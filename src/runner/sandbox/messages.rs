//! What a run's init and the spawner say to each other: the init's
//! messages on its socket, and the signal by which the spawner asks it to
//! stop a run. Below both, so that the spawner's side ([`super::jail`],
//! [`super::running`]) and the init's ([`super::init`]) share the words
//! without importing each other.

use std::io;
use std::os::fd::OwnedFd;
use std::time::Duration;

use nix::sys::signal::Signal;
use serde::{Deserialize, Serialize};

use super::failure::Failure;

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

/// Receives the init's next message within `deadline` (zero: only if one
/// is there).
pub(super) fn receive_from_init(socket: &OwnedFd, deadline: Duration) -> io::Result<FromInit> {
    let message = crate::runner::sys::receive_within(socket, 64 << 10, deadline)?
        .ok_or_else(|| io::Error::other("the run's init went away"))?;
    serde_json::from_slice(&message.0).map_err(|e| io::Error::other(e.to_string()))
}

/// The signal by which the spawner asks a run's init to stop the run.
///
/// Killing the init instead would end the run too, but the kernel reaps
/// the rest of a dying init's namespace without counting it: a killed
/// run would be charged none of the CPU time its processes used. Asked
/// this way, the init kills them, reaps them and reports their time, as
/// it does when the submission ends by itself.
pub(super) const STOP: Signal = Signal::SIGUSR1;
