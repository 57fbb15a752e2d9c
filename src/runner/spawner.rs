//! The small process that starts submissions, so that what the kernel says
//! of a submission is about the submission alone.
//!
//! A process's peak memory as the kernel accounts it (`wait4`'s
//! `ru_maxrss`, what judges report) starts from the pages its parent held
//! when it was forked: the child begins as a copy of the parent, and exec
//! records that copy's size before replacing it. A submission forked by the
//! harness itself would be charged the harness's memory, which grows with
//! the corpus (60 MB into a run of 100,000 cases). So the harness forks
//! nothing. Each job has a spawner: this program started once more as
//! `sudoku-judge spawner`, single-threaded and a few hundred kilobytes of
//! heap, which takes a request over a socket, forks and execs the
//! submission on the pipes the harness made (passed with `SCM_RIGHTS`),
//! waits for it, and sends back its exit status, CPU time and peak memory.
//! Everything else, the pipes, the watchdog and the kills, stays in the
//! harness ([`super::process`]).
//!
//! Lifetimes are tied: a spawner watches its socket while a submission
//! runs, and if the harness goes away, even killed outright, it kills the
//! submission's process group and exits; idle, it exits at the socket's
//! end; and should the spawner itself die, the submission dies with it
//! (`PR_SET_PDEATHSIG`). (The spawner does not use `PR_SET_PDEATHSIG` for
//! itself: that follows the *thread* that started it, and spawners are
//! started by job threads that end before the run does.) The spawner sits
//! in a process group of its own, so Ctrl-C at the terminal reaches the
//! harness, which then stops the run in order.
//!
//! Linux only (`SOCK_SEQPACKET`, `PR_SET_PDEATHSIG`); elsewhere the harness
//! forks submissions itself.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::process::{pidfd_open, try_wait4, Ended, Rlimits};

/// The largest request: a command line and the variables it sets.
const MAX_REQUEST: usize = 64 << 10;
/// The largest reply: a pid, an exit report or why a start failed.
const MAX_REPLY: usize = 4 << 10;

/// The harness's end of one spawner.
pub struct Spawner {
    socket: OwnedFd,
    server: std::process::Child,
    /// Every message so far went through; a spawner that failed one is
    /// not used again.
    healthy: bool,
}

static EXE: OnceLock<PathBuf> = OnceLock::new();
static IDLE: Mutex<Vec<Spawner>> = Mutex::new(Vec::new());

/// Starts submissions through spawners run from `exe` (this program's own
/// binary) from now on. Without this, the harness forks them itself.
pub fn enable(exe: PathBuf) {
    let _ = EXE.set(exe);
}

/// A spawner for one run: an idle one, or a new one. `None` when spawners
/// are not enabled.
pub(crate) fn take() -> Option<io::Result<Spawner>> {
    let exe = EXE.get()?;
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    Some(idle.map_or_else(|| Spawner::start(exe), Ok))
}

/// Returns a spawner for the next run; one that failed is let go.
pub(crate) fn give_back(spawner: Spawner) {
    if !spawner.healthy {
        return;
    }
    IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(spawner);
}

impl Drop for Spawner {
    fn drop(&mut self) {
        // Closing the socket tells it to exit; reap it so no zombie stays.
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

impl Spawner {
    fn start(exe: &PathBuf) -> io::Result<Spawner> {
        let (ours, theirs) = socket_pair()?;
        let server = Command::new(exe)
            .arg("spawner")
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()?;
        Ok(Spawner {
            socket: ours,
            server,
            healthy: true,
        })
    }

    /// Starts `command` on `stdio` (stdin, stdout, stderr) in a process
    /// group of its own, under `limits`, and returns its pid.
    pub(crate) fn spawn(
        &mut self,
        command: &Command,
        stdio: [&OwnedFd; 3],
        limits: Rlimits,
    ) -> io::Result<i32> {
        self.healthy = false;
        send(
            &self.socket,
            &encode_request(command, limits),
            &stdio.map(|fd| fd.as_raw_fd()),
        )?;
        let (reply, _) = receive(&self.socket, MAX_REPLY)?.ok_or_else(gone)?;
        self.healthy = true;
        match reply.split_first() {
            Some((b'S', pid)) => Ok(i32::from_le_bytes(word(pid, 0)?)),
            Some((b'F', failure)) => {
                let code = i32::from_le_bytes(word(failure, 0)?);
                let message = String::from_utf8_lossy(&failure[4..]).into_owned();
                Err(if code > 0 {
                    io::Error::from_raw_os_error(code)
                } else {
                    io::Error::other(message)
                })
            }
            _ => Err(io::Error::other("the spawner sent a malformed reply")),
        }
    }

    /// Readable once the submission has exited.
    pub(crate) fn exit_fd(&self) -> RawFd {
        self.socket.as_raw_fd()
    }

    /// The submission's exit, once the spawner has reported it.
    pub(crate) fn try_exit(&mut self) -> io::Result<Option<Ended>> {
        let mut ready = libc::pollfd {
            fd: self.socket.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one live pollfd, no waiting.
        if unsafe { libc::poll(&mut ready, 1, 0) } <= 0 {
            return Ok(None);
        }
        self.healthy = false;
        let (reply, _) = receive(&self.socket, MAX_REPLY)?.ok_or_else(gone)?;
        self.healthy = true;
        match reply.split_first() {
            Some((b'X', rest)) if rest.len() == 28 => {
                let status = i32::from_le_bytes(word(rest, 0)?);
                let long = |at: usize| -> io::Result<u64> {
                    let bytes: [u8; 8] = rest[at..at + 8]
                        .try_into()
                        .map_err(|_| io::Error::other("short exit report"))?;
                    Ok(u64::from_le_bytes(bytes))
                };
                Ok(Some(Ended {
                    status,
                    cpu: Duration::from_micros(long(4)?),
                    max_rss_kb: long(12)?,
                    wall: Some(Duration::from_nanos(long(20)?)),
                }))
            }
            _ => Err(io::Error::other("the spawner sent a malformed exit report")),
        }
    }
}

fn gone() -> io::Error {
    io::Error::other("the spawner exited unexpectedly")
}

fn word(bytes: &[u8], at: usize) -> io::Result<[u8; 4]> {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| io::Error::other("the spawner sent a short message"))
}

fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two ints for the new descriptors.
    let r = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just made both; nothing else owns them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends one message with `fds` attached.
fn send(socket: &OwnedFd, message: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let fd_bytes = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE is a size computation.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec {
        iov_base: message.as_ptr() as *mut libc::c_void,
        iov_len: message.len(),
    };
    // SAFETY: msghdr is plain data; all-zero is a valid value.
    let mut header: libc::msghdr = unsafe { std::mem::zeroed() };
    header.msg_iov = &mut iov;
    header.msg_iovlen = 1;
    if !fds.is_empty() {
        header.msg_control = control.as_mut_ptr().cast();
        header.msg_controllen = space as _;
        // SAFETY: the control buffer has room for one header and `fds`
        // (CMSG_SPACE above), so the first header and its data are in it.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&header);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(fd_bytes as u32) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr().cast::<u8>(),
                libc::CMSG_DATA(cmsg),
                fd_bytes,
            );
        }
    }
    loop {
        // SAFETY: header points at live buffers for the whole call.
        let n = unsafe { libc::sendmsg(socket.as_raw_fd(), &header, libc::MSG_NOSIGNAL) };
        if n >= 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Receives one message and the descriptors attached to it; `None` at the
/// end (the other side has gone).
fn receive(socket: &OwnedFd, max: usize) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let mut message = vec![0u8; max];
    // SAFETY: CMSG_SPACE is a size computation.
    let space = unsafe { libc::CMSG_SPACE(8 * std::mem::size_of::<RawFd>() as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec {
        iov_base: message.as_mut_ptr().cast(),
        iov_len: message.len(),
    };
    // SAFETY: msghdr is plain data; all-zero is a valid value.
    let mut header: libc::msghdr = unsafe { std::mem::zeroed() };
    header.msg_iov = &mut iov;
    header.msg_iovlen = 1;
    header.msg_control = control.as_mut_ptr().cast();
    header.msg_controllen = space as _;
    let n = loop {
        // SAFETY: header points at live, writable buffers for the call.
        let n = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut header, libc::MSG_CMSG_CLOEXEC) };
        if n >= 0 {
            break n as usize;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    };
    let mut fds = Vec::new();
    // SAFETY: the kernel filled the control buffer; CMSG_FIRSTHDR and
    // CMSG_NXTHDR walk it within msg_controllen, and each SCM_RIGHTS
    // payload is an array of descriptors now ours.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&header);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg);
                let bytes = (*cmsg).cmsg_len as usize - (data as usize - cmsg as usize);
                for i in 0..bytes / std::mem::size_of::<RawFd>() {
                    let fd = std::ptr::read_unaligned(data.cast::<RawFd>().add(i));
                    fds.push(OwnedFd::from_raw_fd(fd));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&header, cmsg);
        }
    }
    if n == 0 && fds.is_empty() {
        return Ok(None);
    }
    message.truncate(n);
    Ok(Some((message, fds)))
}

fn field(out: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    out.push(tag);
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// A command as tagged fields: `P` program, `A` argument, `E` variable set
/// (`KEY\0VALUE`), `U` variable removed, `D` directory, `C` CPU seconds, `M`
/// address space.
fn encode_request(command: &Command, limits: Rlimits) -> Vec<u8> {
    let mut out = Vec::new();
    field(&mut out, b'P', command.get_program().as_bytes());
    for arg in command.get_args() {
        field(&mut out, b'A', arg.as_bytes());
    }
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => {
                let mut pair = key.as_bytes().to_vec();
                pair.push(0);
                pair.extend_from_slice(value.as_bytes());
                field(&mut out, b'E', &pair);
            }
            None => field(&mut out, b'U', key.as_bytes()),
        }
    }
    if let Some(dir) = command.get_current_dir() {
        field(&mut out, b'D', dir.as_os_str().as_bytes());
    }
    if let Some(seconds) = limits.cpu_seconds {
        field(&mut out, b'C', &seconds.to_le_bytes());
    }
    if let Some(bytes) = limits.address_space {
        field(&mut out, b'M', &bytes.to_le_bytes());
    }
    out
}

fn decode_request(mut bytes: &[u8]) -> io::Result<(Command, Rlimits)> {
    let malformed = || io::Error::other("malformed request");
    let mut command: Option<Command> = None;
    let mut limits = Rlimits::default();
    let os = |b: &[u8]| OsString::from_vec(b.to_vec());
    while let Some((&tag, rest)) = bytes.split_first() {
        let len = u32::from_le_bytes(word(rest, 0)?) as usize;
        let value = rest.get(4..4 + len).ok_or_else(malformed)?;
        bytes = &rest[4 + len..];
        let long = || -> io::Result<u64> {
            Ok(u64::from_le_bytes(
                value.try_into().map_err(|_| malformed())?,
            ))
        };
        if tag == b'P' {
            command = Some(Command::new(os(value)));
            continue;
        }
        let command = command.as_mut().ok_or_else(malformed)?;
        match tag {
            b'A' => {
                command.arg(os(value));
            }
            b'E' => {
                let at = value.iter().position(|&b| b == 0).ok_or_else(malformed)?;
                command.env(os(&value[..at]), os(&value[at + 1..]));
            }
            b'U' => {
                command.env_remove(OsStr::from_bytes(value));
            }
            b'D' => {
                command.current_dir(os(value));
            }
            b'C' => limits.cpu_seconds = Some(long()?),
            b'M' => limits.address_space = Some(long()?),
            _ => return Err(malformed()),
        }
    }
    Ok((command.ok_or_else(malformed)?, limits))
}

/// The spawner's side, on the socket it got as stdin: serves requests one
/// at a time until the harness goes away.
pub fn serve() -> io::Result<()> {
    // What starting up allocated goes back to the system: a child starts
    // with a copy of this process's memory, and is charged for it.
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only releases free heap pages.
    unsafe {
        libc::malloc_trim(0);
    }
    // SAFETY: fd 0 is the socket the harness gave as our stdin; from here
    // on this owns it.
    let socket = unsafe { OwnedFd::from_raw_fd(0) };
    while let Some((request, fds)) = receive(&socket, MAX_REQUEST)? {
        let reply = match (decode_request(&request), <[OwnedFd; 3]>::try_from(fds)) {
            (Ok((command, limits)), Ok(stdio)) => {
                match run_one(&socket, command, limits, stdio)? {
                    Some(reply) => reply,
                    // The harness went away mid-run; nothing is left to do.
                    None => return Ok(()),
                }
            }
            _ => {
                let mut failure = b"F".to_vec();
                failure.extend_from_slice(&(-1i32).to_le_bytes());
                failure.extend_from_slice(b"malformed request");
                failure
            }
        };
        send(&socket, &reply, &[])?;
    }
    Ok(())
}

/// Starts one submission, tells the harness its pid, waits for it, and
/// returns the last reply: its exit report, or why it did not start; `None`
/// when the harness went away while it ran (it has been killed).
fn run_one(
    socket: &OwnedFd,
    mut command: Command,
    limits: Rlimits,
    [stdin, stdout, stderr]: [OwnedFd; 3],
) -> io::Result<Option<Vec<u8>>> {
    command
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .process_group(0);
    super::process::limit_child(&mut command, limits);
    // SAFETY: prctl with integer arguments only, async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let started = Instant::now();
    let spawned = command.spawn();
    // Our copies of the pipes must close now, or the harness would never
    // see the end of the submission's output.
    drop(command);
    let child = match spawned {
        Ok(child) => child,
        Err(error) => {
            let mut failure = b"F".to_vec();
            failure.extend_from_slice(&error.raw_os_error().unwrap_or(-1).to_le_bytes());
            failure.extend_from_slice(error.to_string().as_bytes());
            return Ok(Some(failure));
        }
    };
    let pid = child.id() as i32;
    let mut started_reply = b"S".to_vec();
    started_reply.extend_from_slice(&pid.to_le_bytes());
    send(socket, &started_reply, &[])?;

    // Wait for the exit, watching the socket meanwhile. The harness sends
    // nothing while a submission runs, so anything there is its end (even
    // killed outright): then the submission and its group go too.
    let pidfd = pidfd_open(pid);
    let (status, usage) = loop {
        if let Some(ended) = try_wait4(pid)? {
            break ended;
        }
        let mut fds = [
            libc::pollfd {
                fd: socket.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: pidfd.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // Without a pidfd, look at the child every few milliseconds.
        let timeout = if pidfd.is_some() { -1 } else { 2 };
        // SAFETY: fds is a live array of 2 pollfds; a negative fd is ignored.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout) } < 0 {
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
        if fds[0].revents != 0 {
            // SAFETY: kill(2) and a blocking wait4 on our own child.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
            return Ok(None);
        }
    };
    let wall = started.elapsed();
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    let mut exited = b"X".to_vec();
    exited.extend_from_slice(&status.to_le_bytes());
    exited.extend_from_slice(&(micros(usage.ru_utime) + micros(usage.ru_stime)).to_le_bytes());
    exited.extend_from_slice(&(usage.ru_maxrss as u64).to_le_bytes());
    exited.extend_from_slice(&(wall.as_nanos() as u64).to_le_bytes());
    Ok(Some(exited))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_survives_the_round_trip() {
        let mut command = Command::new("/bin/prog");
        command
            .args(["a b", "", "ü"])
            .env("KEY", "va=lue")
            .env_remove("GONE")
            .current_dir("/tmp");
        let limits = Rlimits {
            cpu_seconds: Some(3),
            address_space: None,
        };
        let (back, back_limits) = decode_request(&encode_request(&command, limits)).unwrap();
        assert_eq!(back.get_program(), "/bin/prog");
        assert_eq!(back.get_args().collect::<Vec<_>>(), ["a b", "", "ü"]);
        let envs: Vec<_> = back.get_envs().collect();
        assert!(envs.contains(&(OsStr::new("KEY"), Some(OsStr::new("va=lue")))));
        assert!(envs.contains(&(OsStr::new("GONE"), None)));
        assert_eq!(back.get_current_dir(), Some(std::path::Path::new("/tmp")));
        assert_eq!(back_limits.cpu_seconds, Some(3));
        assert_eq!(back_limits.address_space, None);
        assert!(decode_request(b"Xjunk").is_err());
    }

    #[test]
    fn descriptors_pass_over_the_socket() {
        let (a, b) = socket_pair().unwrap();
        let (read, write) = {
            let mut fds = [0; 2];
            // SAFETY: a live array of two ints.
            assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
            // SAFETY: just made; nothing else owns them.
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
        };
        send(&a, b"hello", &[write.as_raw_fd()]).unwrap();
        drop(write);
        let (message, mut fds) = receive(&b, MAX_REPLY).unwrap().unwrap();
        assert_eq!(message, b"hello");
        assert_eq!(fds.len(), 1);
        let mut pipe = std::fs::File::from(fds.pop().unwrap());
        std::io::Write::write_all(&mut pipe, b"through").unwrap();
        drop(pipe);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(read), &mut text).unwrap();
        assert_eq!(text, "through");
        drop(a);
        assert!(receive(&b, MAX_REPLY).unwrap().is_none());
    }
}
