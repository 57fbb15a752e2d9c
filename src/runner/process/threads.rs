//! The pipes on Windows, where an anonymous pipe cannot be polled nor
//! made non-blocking: a thread per pipe does the blocking reads and
//! writes, and the watchdog sees each pipe as Unix's non-blocking
//! descriptors look to it, ready or not, so that one loop
//! ([`super::serve`]) serves the same [`super::watchdog::Conversation`] on every OS.
//!
//! - A reader thread per output pipe (stdout, stderr, the driver's
//!   answers) hands each chunk over a channel of its own; an empty chunk
//!   is the end. The answer channel is a named pipe: its thread first
//!   waits for the driver to open it.
//! - A writer thread for stdin takes one piece at a time; while it writes,
//!   stdin is not ready. Closing stdin is dropping its [`Outbound`]: the
//!   thread writes what it holds, then closes the pipe.
//! - Every thread, after each step, pokes one wake channel, which the
//!   watchdog waits on with its timeout instead of `poll(2)`.
//!
//! No thread is left blocked once the run's job is killed: that closes
//! the child's ends of the pipes, so reads see their end and writes
//! fail. A named pipe the driver never opened is opened by the judge
//! itself when it lets go of it, to free its waiting thread.

use std::cell::RefCell;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::os::windows::io::OwnedHandle;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use super::chunk::CHUNK;

/// What the watchdog waits on: a poke from any pipe's thread.
pub(super) struct Wake {
    rx: Receiver<()>,
    tx: Sender<()>,
}

impl Wake {
    pub(super) fn new() -> Wake {
        let (tx, rx) = mpsc::channel();
        Wake { rx, tx }
    }

    /// Waits at most `timeout` for a poke, then takes every poke waiting.
    pub(super) fn wait(&self, timeout: Duration) {
        let _ = self.rx.recv_timeout(timeout);
        while self.rx.try_recv().is_ok() {}
    }
}

/// An output pipe as the watchdog reads it.
pub(crate) struct Inbound {
    rx: Receiver<Vec<u8>>,
    /// A chunk taken from the channel and not yet all read, and how far.
    held: RefCell<(Vec<u8>, usize)>,
    /// For the answer pipe: its name, to open it if no driver did.
    unblock: Option<(OsString, Arc<AtomicBool>)>,
}

impl Inbound {
    /// Reads `pipe` on a thread of its own.
    pub(super) fn spawn(pipe: OwnedHandle, wake: &Wake) -> io::Result<Inbound> {
        let (tx, rx) = mpsc::channel();
        let poke = wake.tx.clone();
        std::thread::Builder::new()
            .name("pipe reader".into())
            .spawn(move || pump(File::from(pipe), &tx, &poke))?;
        Ok(Inbound {
            rx,
            held: RefCell::new((Vec::new(), 0)),
            unblock: None,
        })
    }

    /// Reads the named pipe `server`, called `name`, once its client has
    /// opened it, on a thread of its own.
    pub(super) fn spawn_named(
        server: OwnedHandle,
        name: OsString,
        wake: &Wake,
    ) -> io::Result<Inbound> {
        let (tx, rx) = mpsc::channel();
        let poke = wake.tx.clone();
        let connected = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&connected);
        std::thread::Builder::new()
            .name("answer pipe reader".into())
            .spawn(move || {
                let ok = crate::runner::sys::await_client(&server).is_ok();
                flag.store(true, Ordering::SeqCst);
                if ok {
                    pump(File::from(server), &tx, &poke);
                } else {
                    let _ = tx.send(Vec::new());
                    let _ = poke.send(());
                }
            })?;
        Ok(Inbound {
            rx,
            held: RefCell::new((Vec::new(), 0)),
            unblock: Some((name, connected)),
        })
    }

    /// Whether a read would not block: data, or the end, is there.
    pub(super) fn ready(&self) -> bool {
        let mut held = self.held.borrow_mut();
        if held.1 < held.0.len() {
            return true;
        }
        match self.rx.try_recv() {
            Ok(chunk) if chunk.is_empty() => {
                *held = (chunk, 0);
                // The end is kept as a disconnection: the sender is gone.
                true
            }
            Ok(chunk) => {
                *held = (chunk, 0);
                true
            }
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => true,
        }
    }

    /// What is there to read into `buf`: `Ok(None)` when nothing is yet,
    /// `Ok(Some(0))` at the end.
    pub(super) fn read_some(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        if !self.ready() {
            return Ok(None);
        }
        let mut held = self.held.borrow_mut();
        let (chunk, at) = &mut *held;
        if *at == chunk.len() {
            // Ready with nothing held: the end.
            return Ok(Some(0));
        }
        let n = buf.len().min(chunk.len() - *at);
        buf[..n].copy_from_slice(&chunk[*at..*at + n]);
        *at += n;
        Ok(Some(n))
    }
}

impl Drop for Inbound {
    fn drop(&mut self) {
        // A driver that never opened its answer pipe leaves the reader
        // waiting for a client: the judge is that client, and goes.
        if let Some((name, connected)) = &self.unblock {
            if !connected.load(Ordering::SeqCst) {
                let _ = File::options().write(true).open(name);
            }
        }
    }
}

/// Reads `pipe` to its end, handing each chunk on, then an empty one.
fn pump(mut pipe: File, tx: &Sender<Vec<u8>>, poke: &Sender<()>) {
    let mut buf = vec![0; CHUNK];
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => 0,
        };
        let sent = tx.send(buf[..n].to_vec()).is_ok();
        let _ = poke.send(());
        if n == 0 || !sent {
            return;
        }
    }
}

/// The stdin pipe as the watchdog writes it.
pub(crate) struct Outbound {
    tx: Sender<Vec<u8>>,
    /// A piece handed to the writer and not yet written.
    busy: Arc<AtomicBool>,
    /// The process closed its end: writing failed.
    broken: Arc<AtomicBool>,
}

impl Outbound {
    /// Writes to `pipe` on a thread of its own.
    pub(super) fn spawn(pipe: OwnedHandle, wake: &Wake) -> io::Result<Outbound> {
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let busy = Arc::new(AtomicBool::new(false));
        let broken = Arc::new(AtomicBool::new(false));
        let (writing, failed) = (Arc::clone(&busy), Arc::clone(&broken));
        let poke = wake.tx.clone();
        std::thread::Builder::new()
            .name("pipe writer".into())
            .spawn(move || {
                let mut pipe = File::from(pipe);
                for piece in rx {
                    if pipe.write_all(&piece).is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    writing.store(false, Ordering::SeqCst);
                    let _ = poke.send(());
                    if failed.load(Ordering::SeqCst) {
                        return;
                    }
                }
            })?;
        Ok(Outbound { tx, busy, broken })
    }

    /// Whether a write would not block: the last piece is written.
    pub(super) fn ready(&self) -> bool {
        !self.busy.load(Ordering::SeqCst)
    }

    /// Hands `buf` to the writer: all of it taken, `Ok(None)` while the
    /// last piece is still being written, an error once the process has
    /// closed its stdin.
    pub(super) fn write_some(&self, buf: &[u8]) -> io::Result<Option<usize>> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        if !self.ready() {
            return Ok(None);
        }
        self.busy.store(true, Ordering::SeqCst);
        if self.tx.send(buf.to_vec()).is_err() {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(Some(buf.len()))
    }
}

/// A name for a driver's answer pipe no one can guess, and no other run
/// has: this judge's process id, a count, and 64 random bits.
pub(super) fn answer_pipe_name() -> OsString {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    format!(
        r"\\.\pipe\sudoku-judge-{}-{n}-{:016x}",
        std::process::id(),
        rand::random::<u64>()
    )
    .into()
}
