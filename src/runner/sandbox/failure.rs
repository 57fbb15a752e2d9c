//! Why a run did not start: the step that failed, its errno and words,
//! and how the process that failed tells its parent before it would have
//! exec'd.

use std::io;
use std::os::fd::OwnedFd;

use serde::{Deserialize, Serialize};

/// The step at which starting a run failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Stage {
    Cgroup,
    Namespaces,
    Filesystem,
    /// Setting up the submission's process, up to its exec.
    Exec,
    /// The exec itself: the kernel refused the program.
    Program,
}

/// Why a run did not start.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Failure {
    pub stage: Stage,
    /// The `errno` behind it, or 0.
    pub errno: i32,
    pub message: String,
}

impl Failure {
    pub(super) fn new(stage: Stage, error: impl std::fmt::Display, errno: i32) -> Failure {
        Failure {
            stage,
            errno,
            message: error.to_string(),
        }
    }

    pub(super) fn io(stage: Stage, what: &str, error: &io::Error) -> Failure {
        Failure::new(
            stage,
            format!("{what}: {error}"),
            error.raw_os_error().unwrap_or(0),
        )
    }

    pub(super) fn nix(stage: Stage, what: &str, error: nix::Error) -> Failure {
        Failure::new(stage, format!("{what}: {}", error.desc()), error as i32)
    }

    pub fn into_io(self) -> io::Error {
        match self.stage {
            Stage::Program if self.errno > 0 => {
                let refused = io::Error::from_raw_os_error(self.errno);
                io::Error::new(refused.kind(), super::ProgramRefused(refused))
            }
            Stage::Exec | Stage::Program if self.errno > 0 => {
                io::Error::from_raw_os_error(self.errno)
            }
            _ => io::Error::other(self.message),
        }
    }
}

/// Writes a failure where the parent reads it: stage, errno, message.
pub(super) fn report_failure(fd: &OwnedFd, failure: &Failure) {
    let text = serde_json::to_vec(failure).unwrap_or_default();
    let _ = nix::unistd::write(fd, &text);
}

/// What the child wrote before it exec'd, if anything: nothing (end of
/// file at its exec) means it started.
pub(super) fn read_failure(fd: &OwnedFd) -> Option<Failure> {
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match nix::unistd::read(fd, &mut buf) {
            Ok(0) => break,
            Ok(n) => text.extend_from_slice(&buf[..n]),
            Err(nix::errno::Errno::EINTR) => {}
            Err(_) => break,
        }
    }
    (!text.is_empty()).then(|| {
        serde_json::from_slice(&text)
            .unwrap_or_else(|_| Failure::new(Stage::Exec, "the submission did not start", 0))
    })
}
