//! Why a run did not start: the stage that failed, its errno and words;
//! and how the submission's process, which may not allocate, tells its
//! parent before it would have exec'd: a [`Step`] and an errno, the
//! parent's to put in words, as go-sandbox's `forkexec` reports a
//! location and an errno.

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
    pub(crate) stage: Stage,
    /// The `errno` behind it, or 0.
    pub(crate) errno: i32,
    pub(crate) message: String,
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

    pub(crate) fn into_io(self) -> io::Error {
        match self.stage {
            Stage::Program if self.errno > 0 => {
                let refused = io::Error::from_raw_os_error(self.errno);
                io::Error::new(refused.kind(), super::plan::ProgramRefused(refused))
            }
            Stage::Exec | Stage::Program if self.errno > 0 => {
                io::Error::from_raw_os_error(self.errno)
            }
            _ => io::Error::other(self.message),
        }
    }
}

/// The step at which the submission's process, between its clone and its
/// exec, failed: what it reports, with the errno, to the parent that
/// started it, which turns the two into a [`Failure`] in words
/// ([`super::child::Exec::failure`]). A number, not a message: nothing
/// there may allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(super) enum Step {
    /// Joining the run's cgroup.
    JoinCgroup = 1,
    /// Moving its descriptors to 0, 1, 2 (and 3).
    Descriptors,
    /// Changing into the run's root.
    EnterRoot,
    /// Changing into its working directory.
    Chdir,
    /// Setting its resource limits.
    Limits,
    Setgroups,
    Setresgid,
    Setresuid,
    NoNewPrivs,
    KeyringFilter,
    ProcessFilter,
    /// The exec itself.
    Exec,
}

impl Step {
    pub(super) const ALL: [Step; 12] = [
        Step::JoinCgroup,
        Step::Descriptors,
        Step::EnterRoot,
        Step::Chdir,
        Step::Limits,
        Step::Setgroups,
        Step::Setresgid,
        Step::Setresuid,
        Step::NoNewPrivs,
        Step::KeyringFilter,
        Step::ProcessFilter,
        Step::Exec,
    ];

    /// The report of a failure at this step with `errno`: eight bytes,
    /// written in one `write(2)`, which a pipe keeps whole.
    pub(super) fn report(self, errno: i32) -> [u8; 8] {
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&(self as u32).to_ne_bytes());
        bytes[4..].copy_from_slice(&errno.to_ne_bytes());
        bytes
    }

    /// The step and errno a report holds; `None` for bytes that are not
    /// one.
    pub(super) fn from_report(bytes: &[u8]) -> Option<(Step, i32)> {
        let step = u32::from_ne_bytes(bytes.get(..4)?.try_into().ok()?);
        let errno = i32::from_ne_bytes(bytes.get(4..8)?.try_into().ok()?);
        let step = Step::ALL.into_iter().find(|s| *s as u32 == step)?;
        Some((step, errno))
    }
}

/// What the submission's process reported before it would have exec'd,
/// read to the end: `Ok(None)` (end of file at its exec) means it started.
/// A report that is not one is a failure all the same.
pub(super) fn read_report(fd: &OwnedFd) -> Result<Option<(Step, i32)>, Failure> {
    let mut bytes = [0u8; 8];
    let mut filled = 0;
    while filled < bytes.len() {
        match nix::unistd::read(fd, &mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(nix::errno::Errno::EINTR) => {}
            Err(_) => break,
        }
    }
    match filled {
        0 => Ok(None),
        _ => Step::from_report(&bytes[..filled])
            .map(Some)
            .ok_or_else(|| Failure::new(Stage::Exec, "the submission did not start", 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_and_errno_survive_the_pipe() {
        for step in Step::ALL {
            for errno in [0, libc::EPERM, libc::ENOENT, libc::E2BIG, i32::MAX] {
                let (read, write) = nix::unistd::pipe().unwrap();
                nix::unistd::write(&write, &step.report(errno)).unwrap();
                drop(write);
                assert_eq!(read_report(&read).unwrap(), Some((step, errno)));
            }
        }
        // The exec closed the pipe without a word: it started.
        let (read, write) = nix::unistd::pipe().unwrap();
        drop(write);
        assert_eq!(read_report(&read).unwrap(), None);
        // Bytes that are no report do not pass for a start.
        for bytes in [&b"\xff\xff\xff\xff\0\0\0\0"[..], b"abc", &[0u8; 8]] {
            let (read, write) = nix::unistd::pipe().unwrap();
            nix::unistd::write(&write, bytes).unwrap();
            drop(write);
            let failure = read_report(&read).unwrap_err();
            assert_eq!(failure.message, "the submission did not start");
        }
    }
}
