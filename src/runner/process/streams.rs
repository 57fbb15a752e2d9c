//! The pipes between the judge and the process: made closed-on-exec,
//! served without blocking, stdout cut at its limit and of stderr its
//! start and its end kept ([`Ends`]).

use std::cell::RefCell;
use std::io;
use std::os::fd::OwnedFd;

use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};

/// Bytes moved per read or write.
pub(super) const CHUNK: usize = 64 * 1024;

thread_local! {
    /// [`CHUNK`]-byte buffers that ended processes gave back. A job thread
    /// runs case after case, and fresh buffers would be zeroed, and their
    /// pages faulted in, anew for every one: for a one-puzzle case that
    /// was a good part of what the judge itself spends on it.
    static SPARE: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// A [`CHUNK`]-byte scratch buffer: what it holds is written before it is
/// read.
pub(super) fn buffer() -> Vec<u8> {
    SPARE
        .with(|spare| spare.borrow_mut().pop())
        .unwrap_or_else(|| vec![0; CHUNK])
}

/// Keeps a buffer of [`buffer`] for the thread's next process (a few at
/// most: a process holds two).
pub(super) fn give_back(buffer: Vec<u8>) {
    if buffer.len() == CHUNK {
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < 4 {
                spare.push(buffer);
            }
        });
    }
}

/// How much of the start of stderr is kept.
pub const STDERR_HEAD: usize = 2048;

/// The start and the end of a stream, within bounds whatever its length.
#[derive(Default)]
pub(super) struct Ends {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes dropped between the two.
    skipped: usize,
}

impl Ends {
    pub(super) fn push(&mut self, mut chunk: &[u8], tail_size: usize) {
        let room = STDERR_HEAD.saturating_sub(self.head.len());
        let (head, rest) = chunk.split_at(chunk.len().min(room));
        self.head.extend_from_slice(head);
        chunk = rest;
        self.tail.extend_from_slice(chunk);
        if self.tail.len() > tail_size {
            let excess = self.tail.len() - tail_size;
            self.tail.drain(..excess);
            self.skipped += excess;
        }
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.skipped > 0 {
            self.head.extend_from_slice(
                format!("\n[... {} bytes left out ...]\n", self.skipped).as_bytes(),
            );
        }
        self.head.extend_from_slice(&self.tail);
        self.head
    }
}

pub(super) fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// One step of `read(2)` or `write(2)` on a non-blocking descriptor:
/// `Ok(None)` when it would block.
fn transfer(result: nix::Result<usize>) -> io::Result<Option<usize>> {
    match result {
        Ok(n) => Ok(Some(n)),
        Err(Errno::EAGAIN | Errno::EINTR) => Ok(None),
        Err(errno) => Err(errno.into()),
    }
}

pub(super) fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    transfer(nix::unistd::read(fd, buf))
}

pub(super) fn write_some(fd: &OwnedFd, buf: &[u8]) -> io::Result<Option<usize>> {
    transfer(nix::unistd::write(fd, buf))
}

/// A pipe: (read end, write end), both closed on exec.
#[cfg(target_os = "linux")]
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(nix::unistd::pipe2(OFlag::O_CLOEXEC)?)
}

/// A pipe: (read end, write end), both closed on exec.
#[cfg(not(target_os = "linux"))]
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    use nix::fcntl::FdFlag;
    let pair = nix::unistd::pipe()?;
    for fd in [&pair.0, &pair.1] {
        fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
    }
    Ok(pair)
}

/// The descriptors the harness keeps: its ends of the pipes.
pub(super) struct Pipes {
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
    pub stderr: Option<OwnedFd>,
    pub answers: Option<OwnedFd>,
}

/// Reads what is ready on `slot` and hands it on, within `limit` bytes in
/// all: `true` when it passed the limit (and the stream is dropped).
pub(super) fn drain(
    slot: &mut Option<OwnedFd>,
    chunk: &mut [u8],
    counted: &mut usize,
    limit: usize,
    mut hand_on: impl FnMut(&[u8]),
) -> bool {
    let Some(fd) = slot else { return false };
    match read_some(fd, chunk) {
        Ok(None) => false,
        Ok(Some(0)) | Err(_) => {
            *slot = None;
            false
        }
        Ok(Some(n)) => {
            let room = limit - *counted;
            let take = n.min(room);
            if take > 0 {
                hand_on(&chunk[..take]);
                *counted += take;
            }
            if n > room {
                *slot = None;
                return true;
            }
            false
        }
    }
}
