//! The pipes between the judge and the process: made closed-on-exec,
//! served without blocking, stdout cut at its limit and of stderr its
//! start and its end kept ([`Ends`]). On Unix they are descriptors, made
//! non-blocking and polled; on Windows each is served by a thread of its
//! own (`super::threads`) and looks to the watchdog the same.

// rust-clippy#17566: on targets whose thread locals are emulated (Windows
// with mingw) the lint fires on initialisers that are already `const`.
#![cfg_attr(windows, allow(clippy::missing_const_for_thread_local))]

use std::cell::RefCell;
use std::io;
#[cfg(unix)]
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::time::Duration;

#[cfg(unix)]
use nix::errno::Errno;
#[cfg(unix)]
use nix::fcntl::{fcntl, FcntlArg, OFlag};

use super::chunk::CHUNK;
#[cfg(windows)]
pub(crate) use super::threads::{Inbound, Outbound};

/// The judge's end of a pipe it reads.
#[cfg(unix)]
pub(crate) type Inbound = OwnedFd;
/// The judge's end of a pipe it writes.
#[cfg(unix)]
pub(crate) type Outbound = OwnedFd;

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
pub(crate) const STDERR_HEAD: usize = 2048;

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

#[cfg(unix)]
pub(super) fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// One step of `read(2)` or `write(2)` on a non-blocking descriptor:
/// `Ok(None)` when it would block.
#[cfg(unix)]
fn transfer(result: nix::Result<usize>) -> io::Result<Option<usize>> {
    match result {
        Ok(n) => Ok(Some(n)),
        Err(Errno::EAGAIN | Errno::EINTR) => Ok(None),
        Err(errno) => Err(errno.into()),
    }
}

#[cfg(unix)]
pub(super) fn read_some(fd: &Inbound, buf: &mut [u8]) -> io::Result<Option<usize>> {
    transfer(nix::unistd::read(fd, buf))
}

#[cfg(unix)]
pub(super) fn write_some(fd: &Outbound, buf: &[u8]) -> io::Result<Option<usize>> {
    transfer(nix::unistd::write(fd, buf))
}

#[cfg(windows)]
pub(super) fn read_some(pipe: &Inbound, buf: &mut [u8]) -> io::Result<Option<usize>> {
    pipe.read_some(buf)
}

#[cfg(windows)]
pub(super) fn write_some(pipe: &Outbound, buf: &[u8]) -> io::Result<Option<usize>> {
    pipe.write_some(buf)
}

/// Whether a read of `pipe` would not block: something is there, or its
/// other end has closed.
#[cfg(unix)]
pub(super) fn readable(pipe: &Inbound) -> bool {
    crate::runner::sys::readable(pipe)
}

#[cfg(windows)]
pub(super) fn readable(pipe: &Inbound) -> bool {
    pipe.ready()
}

/// A pipe: (read end, write end), both closed on exec.
#[cfg(target_os = "linux")]
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(nix::unistd::pipe2(OFlag::O_CLOEXEC)?)
}

/// A pipe: (read end, write end), both closed on exec.
#[cfg(all(unix, not(target_os = "linux")))]
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
    pub(crate) stdin: Option<Outbound>,
    pub(crate) stdout: Option<Inbound>,
    pub(crate) stderr: Option<Inbound>,
    pub(crate) answers: Option<Inbound>,
    /// What the pipes' threads poke.
    #[cfg(windows)]
    pub(crate) wake: super::threads::Wake,
}

/// Which pipes (and the exit) are ready after [`Pipes::wait`].
pub(super) struct Ready {
    pub(crate) stdin: bool,
    pub(crate) stdout: bool,
    pub(crate) stderr: bool,
    pub(crate) answers: bool,
}

impl Pipes {
    /// Waits at most `timeout` until stdin (when `feeding`) can be
    /// written, an output pipe read, or `exit` (a pidfd) is readable.
    /// `None` when a signal cut the wait short.
    #[cfg(unix)]
    pub(super) fn wait(
        &self,
        feeding: bool,
        exit: Option<std::os::fd::RawFd>,
        timeout: Duration,
    ) -> io::Result<Option<Ready>> {
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 5];
        let watched = [
            (self.stdin.as_ref().filter(|_| feeding), libc::POLLOUT),
            (self.stdout.as_ref(), libc::POLLIN),
            (self.stderr.as_ref(), libc::POLLIN),
            (self.answers.as_ref(), libc::POLLIN),
        ];
        for (slot, (fd, events)) in fds.iter_mut().zip(watched) {
            if let Some(fd) = fd {
                slot.fd = fd.as_raw_fd();
                slot.events = events;
            }
        }
        if let Some(fd) = exit {
            fds[4].fd = fd;
            fds[4].events = libc::POLLIN;
        }
        let timeout_ms = timeout.as_micros().div_ceil(1000);
        match crate::runner::sys::poll(&mut fds, timeout_ms as i32) {
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::Interrupted => return Ok(None),
            Err(error) => return Err(error),
        }
        Ok(Some(Ready {
            stdin: fds[0].revents != 0,
            stdout: fds[1].revents != 0,
            stderr: fds[2].revents != 0,
            answers: fds[3].revents != 0,
        }))
    }

    /// Windows: what is ready now, or after waiting at most `timeout` for
    /// a pipe's thread to say something changed. A process's exit is
    /// asked of its handle by the watchdog's rounds.
    #[cfg(windows)]
    pub(super) fn wait(
        &self,
        feeding: bool,
        exit: Option<std::convert::Infallible>,
        timeout: Duration,
    ) -> io::Result<Option<Ready>> {
        let _ = exit;
        let ready = || Ready {
            stdin: feeding && self.stdin.as_ref().is_some_and(Outbound::ready),
            stdout: self.stdout.as_ref().is_some_and(Inbound::ready),
            stderr: self.stderr.as_ref().is_some_and(Inbound::ready),
            answers: self.answers.as_ref().is_some_and(Inbound::ready),
        };
        let now = ready();
        if now.stdin || now.stdout || now.stderr || now.answers {
            return Ok(Some(now));
        }
        self.wake.wait(timeout);
        Ok(Some(ready()))
    }
}

/// Reads what is ready on `slot` and hands it on, within `limit` bytes in
/// all: `true` when it passed the limit (and the stream is dropped).
pub(super) fn drain(
    slot: &mut Option<Inbound>,
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
