//! Where there is no spawner (it needs Linux: `SOCK_SEQPACKET` with
//! `SCM_RIGHTS`, `PR_SET_PDEATHSIG`), the harness forks submissions itself,
//! and a submission's peak memory then counts the harness's own at the fork.
//! See `spawner.rs` for why that matters.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::PathBuf;
use std::process::Command;

use super::process::{Ended, Rlimits};

/// No spawner exists here: this type has no values.
pub enum Spawner {}

pub fn enable(_exe: PathBuf) {}

pub(crate) fn take() -> Option<io::Result<Spawner>> {
    None
}

pub(crate) fn give_back(spawner: Spawner) {
    match spawner {}
}

impl Spawner {
    pub(crate) fn spawn(
        &mut self,
        _command: &Command,
        _stdio: [&OwnedFd; 3],
        _limits: Rlimits,
    ) -> io::Result<i32> {
        match *self {}
    }

    pub(crate) fn exit_fd(&self) -> RawFd {
        match *self {}
    }

    pub(crate) fn try_exit(&mut self) -> io::Result<Option<Ended>> {
        match *self {}
    }
}

pub fn serve() -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the spawner needs Linux",
    ))
}
