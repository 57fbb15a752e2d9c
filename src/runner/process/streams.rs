//! The pipes between the judge and the process: made closed-on-exec,
//! served without blocking, stdout cut at its limit and of stderr its
//! start and its end kept ([`Ends`]).

use std::io;
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};

/// Bytes moved per read or write.
pub(super) const CHUNK: usize = 64 * 1024;

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

pub(super) fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// One step of `read(2)` or `write(2)` on a non-blocking descriptor:
/// `Ok(None)` when it would block.
fn transfer(result: libc::ssize_t) -> io::Result<Option<usize>> {
    if result >= 0 {
        return Ok(Some(result as usize));
    }
    let error = io::Error::last_os_error();
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
        _ => Err(error),
    }
}

pub(super) fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live, writable buffer of buf.len() bytes.
    transfer(unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) })
}

pub(super) fn write_some(fd: &OwnedFd, buf: &[u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live buffer of buf.len() bytes.
    transfer(unsafe { libc::write(fd.as_raw_fd(), buf.as_ptr().cast(), buf.len()) })
}

/// A pipe: (read end, write end), both closed on exec.
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two ints for the new descriptors.
    #[cfg(target_os = "linux")]
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    // SAFETY: as above; descriptors are marked close-on-exec just after.
    #[cfg(not(target_os = "linux"))]
    let r = unsafe { libc::pipe(fds.as_mut_ptr()) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just made both; nothing else owns them.
    let pair = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    #[cfg(not(target_os = "linux"))]
    for fd in [&pair.0, &pair.1] {
        // SAFETY: fcntl on a descriptor we own.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
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

/// Whether `fd` has something to read now.
pub(super) fn readable(fd: &OwnedFd) -> bool {
    let mut ready = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one live pollfd, no waiting.
    unsafe { libc::poll(&mut ready, 1, 0) > 0 && ready.revents & libc::POLLIN != 0 }
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
