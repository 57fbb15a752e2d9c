//! Where there is no spawner (it needs Linux: `SOCK_SEQPACKET` with
//! `SCM_RIGHTS`, `PR_SET_PDEATHSIG`), the harness forks submissions itself,
//! and a submission's peak memory then counts the harness's own at the fork.
//! See `spawner.rs` for why that matters.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// What the kernel said of a finished submission.
#[derive(Clone, Copy, Debug)]
pub struct Exited {
    pub status: i32,
    pub cpu: Duration,
    pub max_rss_kb: u64,
    pub wall: Duration,
}

/// Limits set in the child between fork and exec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rlimits {
    /// `RLIMIT_CPU`, whole seconds.
    pub cpu_seconds: Option<u64>,
    /// `RLIMIT_AS`, bytes.
    pub address_space: Option<u64>,
}

/// No spawner exists here: this type has no values.
pub enum Spawner {}

pub fn enable(_exe: PathBuf) {}

pub fn take() -> Option<io::Result<Spawner>> {
    None
}

pub fn give_back(spawner: Spawner) {
    match spawner {}
}

impl Spawner {
    pub fn spawn(
        &mut self,
        _command: &Command,
        _stdio: [&OwnedFd; 3],
        _limits: Rlimits,
    ) -> io::Result<i32> {
        match *self {}
    }

    pub fn exit_fd(&self) -> RawFd {
        match *self {}
    }

    pub fn try_exit(&mut self) -> io::Result<Option<Exited>> {
        match *self {}
    }
}

pub fn serve() -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the spawner needs Linux",
    ))
}
