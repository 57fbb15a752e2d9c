//! Where there is no spawner (it needs Linux: `SOCK_SEQPACKET` with
//! `SCM_RIGHTS`, namespaces, cgroups), the harness forks submissions
//! itself, without a sandbox, and a submission's peak memory then counts
//! the harness's own at the fork. See `spawner.rs` for why that matters.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::PathBuf;

use super::sandbox::{ExitReport, Protections, SpawnRequest};

/// No spawner exists here: this type has no values.
pub enum Spawner {}

pub fn enable(_exe: PathBuf) {}

pub(crate) fn take() -> Option<io::Result<Spawner>> {
    None
}

pub(crate) fn give_back(spawner: Spawner) {
    match spawner {}
}

pub fn protections() -> Option<io::Result<Protections>> {
    None
}

impl Spawner {
    pub(crate) fn spawn(
        &mut self,
        _launch: &SpawnRequest,
        _stdio: &[&OwnedFd],
    ) -> io::Result<(i32, ())> {
        match *self {}
    }

    pub(crate) fn launch(&mut self, _launch: &SpawnRequest, _stdio: &[&OwnedFd]) -> io::Result<()> {
        match *self {}
    }

    pub(crate) fn try_started(&mut self) -> io::Result<Option<(i32, ())>> {
        match *self {}
    }

    pub(crate) fn kill(&mut self) {
        match *self {}
    }

    pub(crate) fn exit_fd(&self) -> RawFd {
        match *self {}
    }

    pub(crate) fn try_exit(&mut self) -> io::Result<Option<ExitReport>> {
        match *self {}
    }
}

pub fn serve() -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the spawner needs Linux",
    ))
}
