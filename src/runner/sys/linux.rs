//! The system calls only Linux has: clones into namespaces, keyrings,
//! mount attributes, pidfds, descriptors over `SOCK_SEQPACKET` sockets,
//! extended attributes, System V shared memory, the init's stop signal,
//! memory files, `prlimit` and network interfaces. Each behind a safe
//! function, re-exported by `super`.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd as _, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::posix::poll;

/// Which side of a [`clone_into`] this is.
pub(crate) enum Cloned {
    /// The parent, with the child's pid.
    Parent(i32),
    /// The child, which must end by exec or `_exit`.
    Child,
}

/// Clones the caller, `fork`-like (no new stack, SIGCHLD to the parent),
/// into the new namespaces `flags` name: how a run's init starts. The
/// caller must be single-threaded, so that the child may run Rust (and
/// allocate); the child must end by exec or `_exit`, never by returning.
pub(crate) fn clone_into(flags: nix::sched::CloneFlags) -> io::Result<Cloned> {
    // SAFETY: a fork-like clone of a single-threaded process; the caller
    // ends the child by exec or _exit.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            flags.bits() as libc::c_ulong | libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    match pid {
        ..0 => Err(io::Error::last_os_error()),
        0 => Ok(Cloned::Child),
        pid => Ok(Cloned::Parent(pid as i32)),
    }
}

/// Makes the calling process's session keyring a new, empty, anonymous
/// one, so that nothing it starts shares the judge's (or another run's).
pub(crate) fn join_new_session_keyring() -> io::Result<()> {
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) takes no memory of
    // ours; it returns the new keyring's serial number or -1.
    let serial = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            libc::KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if serial < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Sets `attributes` (`MOUNT_ATTR_*`) on the mount at `path` and on every
/// mount below it, with `mount_setattr(2)` (Linux 5.12 and later). Unlike
/// a remount, it reaches the mounts a recursive bind brought along, and
/// it only adds restrictions, which a user namespace may always do.
pub(crate) fn restrict_mounts_below(path: &std::path::Path, attributes: u64) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt as _;
    /// `struct mount_attr` of the kernel's uapi.
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let attr = MountAttr {
        attr_set: attributes,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a NUL-terminated path and a live mount_attr of the size
    // given, both read by the kernel during the call only.
    let result = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// A descriptor that becomes readable when `pid` exits, so the exit wakes
/// the loop at once rather than at its next round. Linux 5.3 and later.
pub(crate) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes two integers and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = RawFd::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: the kernel just gave us this descriptor; nothing else owns it.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

pub(crate) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
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
pub(crate) fn send(socket: &OwnedFd, message: &[u8], fds: &[RawFd]) -> io::Result<()> {
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
pub(crate) fn receive(socket: &OwnedFd, max: usize) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    // Room for the largest message, left unwritten: only what the kernel
    // copies in is touched. (Zeroing it cost more than the rest of a
    // small run's messages, and in a process just forked, a copy of every
    // page it wrote.)
    let mut message: Vec<u8> = Vec::with_capacity(max);
    // SAFETY: CMSG_SPACE is a size computation.
    let space = unsafe { libc::CMSG_SPACE(8 * std::mem::size_of::<RawFd>() as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec {
        iov_base: message.as_mut_ptr().cast(),
        iov_len: max,
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
        match error.kind() {
            io::ErrorKind::Interrupted => {}
            // The other side closed with messages it never read: it is
            // gone all the same.
            io::ErrorKind::ConnectionReset => return Ok(None),
            _ => return Err(error),
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
    // SAFETY: recvmsg wrote the first n bytes (n <= max, the capacity).
    unsafe { message.set_len(n.min(max)) };
    message.shrink_to_fit();
    Ok(Some((message, fds)))
}

/// Receives one message within `deadline` (zero: only if one is there);
/// `None` when the other side has gone.
pub(crate) fn receive_within(
    socket: &OwnedFd,
    max: usize,
    deadline: Duration,
) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let until = Instant::now() + deadline;
    loop {
        let mut ready = [libc::pollfd {
            fd: socket.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        let left = until.saturating_duration_since(Instant::now());
        let timeout = left.as_millis().min(i32::MAX as u128) as i32;
        let n = match poll(&mut ready, timeout) {
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if n > 0 {
            return receive(socket, max);
        }
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the judge's spawner did not answer within {} s",
                    deadline.as_secs()
                ),
            ));
        }
    }
}

/// The names of the extended attributes of the file at `path` (not
/// followed if a link), as the kernel lists them; `None` when they cannot
/// be read.
pub(crate) fn extended_attribute_names(path: &std::path::Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt as _;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: a live C string; a null buffer of size 0 asks for the size.
    let size = unsafe { libc::llistxattr(path.as_ptr(), std::ptr::null_mut(), 0) };
    let mut names = vec![0u8; usize::try_from(size).ok()?];
    if names.is_empty() {
        return Some(names);
    }
    // SAFETY: a live buffer of the length given.
    let size = unsafe { libc::llistxattr(path.as_ptr(), names.as_mut_ptr().cast(), names.len()) };
    names.truncate(usize::try_from(size).ok()?);
    Some(names)
}

/// Removes the System V shared memory segment `id` (`shmctl(IPC_RMID)`);
/// one that no process has attached goes at once.
pub(crate) fn remove_shared_memory(id: i32) {
    // SAFETY: IPC_RMID takes no buffer.
    unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
}

/// Makes `signal`, when sent with `kill(2)` from outside the caller's PID
/// namespace, kill every other process of the namespace; the same signal
/// from inside does nothing. For the init of a run: an init receives from
/// inside only the signals it has a handler for, so a handler is needed
/// for the judge's, and must ignore the run's.
///
/// The sender is told by what the kernel writes in the siginfo, which a
/// sender may write itself: `rt_sigqueueinfo(2)` and
/// `pidfd_send_signal(2)` queue a siginfo of the caller's making, any pid
/// in it, to any process of the same user (a run, where the judge is an
/// ordinary user). The kernel lets a caller make up only codes below zero
/// (`SI_QUEUE`, `SI_TIMER`, ...) for a process other than itself;
/// `SI_USER` (0), the code of `kill(2)`, it writes itself, with the
/// sender's pid as the receiver's namespace sees it, which is 0 for a
/// sender outside it. So only `SI_USER` with pid 0 is obeyed: a `kill`
/// from outside, which a run cannot send. (A pipe from the spawner would
/// need no such rule, but where a cgroup counts the run the init waits in
/// a blocking `wait4`, which only a signal interrupts.)
pub(crate) fn kill_all_on_signal_from_outside(signal: nix::sys::signal::Signal) -> nix::Result<()> {
    use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet};
    extern "C" fn kill_the_rest(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel hands an SA_SIGINFO handler a live siginfo.
        let (code, sender) = unsafe { ((*info).si_code, (*info).si_pid()) };
        if code == libc::SI_USER && sender == 0 {
            // SAFETY: kill(2) is async-signal-safe; -1 from an init is
            // every other process of its namespace.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        }
    }
    let action = SigAction::new(
        SigHandler::SigAction(kill_the_rest),
        // No SA_RESTART: a wait in progress returns, and the caller goes
        // on reaping.
        SaFlags::SA_SIGINFO,
        SigSet::empty(),
    );
    // SAFETY: the handler only reads its siginfo and calls kill(2), which
    // is async-signal-safe.
    unsafe { sigaction(signal, &action) }.map(drop)
}

/// Numbers that one process writes and others read as they change, without
/// a system call on either side: a few `u64` words ([`Shared`]) in a memory
/// file (`memfd`) that each maps. A run's init keeps what it samples of
/// the run there (its CPU time, how long it waited for a CPU, its memory),
/// and the judge's watchdog reads them every round.
pub(crate) struct SharedCounter {
    word: std::ptr::NonNull<std::sync::atomic::AtomicU64>,
    writable: bool,
}

// SAFETY: the mapping is owned by the value and lives until it drops; the
// word is only reached through atomic operations.
unsafe impl Send for SharedCounter {}
// SAFETY: as above: shared access is atomic.
unsafe impl Sync for SharedCounter {}

impl SharedCounter {
    /// Size of the file, and of its mapping: a word for each [`Shared`].
    const SIZE: usize = std::mem::size_of::<u64>() * Shared::COUNT;

    /// A new memory file holding zeros, closed at exec (no run gets it)
    /// and sealed at its size: whoever maps it may read its word without
    /// the fault of a mapping past the end of a file shrunk meanwhile.
    pub(crate) fn file() -> io::Result<OwnedFd> {
        // SAFETY: a NUL-terminated name and integer flags; the result is a
        // new descriptor or -1.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_memfd_create,
                c"sudoku-judge-cpu".as_ptr(),
                libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
            )
        };
        let fd = RawFd::try_from(fd)
            .ok()
            .filter(|&fd| fd >= 0)
            .ok_or_else(io::Error::last_os_error)?;
        // SAFETY: the kernel just gave us this descriptor; nothing else owns it.
        let file = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: ftruncate and fcntl on a descriptor we own, integers only.
        let sealed = unsafe {
            libc::ftruncate(file.as_raw_fd(), Self::SIZE as libc::off_t) == 0
                && libc::fcntl(
                    file.as_raw_fd(),
                    libc::F_ADD_SEALS,
                    libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL,
                ) == 0
        };
        if !sealed {
            return Err(io::Error::last_os_error());
        }
        Ok(file)
    }

    /// Maps the counter of `file` (made by [`SharedCounter::file`]), to
    /// write it or only to read it.
    pub(crate) fn map(file: &impl AsRawFd, writable: bool) -> io::Result<SharedCounter> {
        let protection = if writable {
            libc::PROT_READ | libc::PROT_WRITE
        } else {
            libc::PROT_READ
        };
        // SAFETY: a new shared mapping of a file's first bytes, at an
        // address the kernel picks; nothing else is touched.
        let address = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                Self::SIZE,
                protection,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            )
        };
        if address == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let word = std::ptr::NonNull::new(address.cast()).ok_or_else(io::Error::last_os_error)?;
        Ok(SharedCounter { word, writable })
    }

    /// The CPU time now ([`Shared::CpuNs`]); 0 until the first write.
    pub(crate) fn load(&self) -> u64 {
        self.load_of(Shared::CpuNs)
    }

    /// Writes the CPU time ([`Shared::CpuNs`]).
    pub(crate) fn store(&self, value: u64) {
        self.store_of(Shared::CpuNs, value);
    }

    fn word(&self, which: Shared) -> &std::sync::atomic::AtomicU64 {
        // SAFETY: the mapping is live, page-aligned and `SIZE` long, a word
        // for each `Shared`; it is only ever reached atomically.
        unsafe { self.word.add(which as usize).as_ref() }
    }

    /// The number `which` now; 0 until the first write. (An atomic load of
    /// a lock-free u64 may read read-only memory.)
    pub(crate) fn load_of(&self, which: Shared) -> u64 {
        self.word(which).load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes `value` as the number `which`; a counter mapped only to be
    /// read is left as it is.
    pub(crate) fn store_of(&self, which: Shared, value: u64) {
        if self.writable {
            self.word(which)
                .store(value, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The numbers of a [`SharedCounter`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shared {
    /// The run's CPU time, in nanoseconds.
    CpuNs = 0,
    /// How long the run's processes were ready to run but waited for a
    /// CPU, summed over them, in nanoseconds.
    WaitNs = 1,
    /// The run's memory now, in KB: its processes' and its scratch tmpfs's.
    MemoryKb = 2,
}

impl Shared {
    const COUNT: usize = 3;
}

impl Drop for SharedCounter {
    fn drop(&mut self) {
        // SAFETY: unmaps the mapping this value made, which nothing else
        // uses: the references `load` and `store` take end with them.
        unsafe { libc::munmap(self.word.as_ptr().cast(), Self::SIZE) };
    }
}

/// Holds the process `pid` to `seconds` of CPU time in all, with
/// `RLIMIT_CPU`, a backstop the kernel enforces.
pub(crate) fn limit_cpu_of(pid: i32, seconds: u64) {
    let limit = libc::rlimit {
        rlim_cur: seconds,
        rlim_max: seconds,
    };
    // SAFETY: prlimit reads the live struct; no old value is asked for.
    unsafe { libc::prlimit(pid, libc::RLIMIT_CPU, &limit, std::ptr::null_mut()) };
}

/// Brings up the network interface `name` (e.g. the loopback of a new
/// network namespace).
pub(crate) fn interface_up(name: &std::ffi::CStr) -> io::Result<()> {
    // SAFETY: socket(2) with integer arguments; the descriptor is owned below.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just made; nothing else owns it.
    let socket = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: ifreq is plain data; all-zero is a valid value.
    let mut request: libc::ifreq = unsafe { std::mem::zeroed() };
    let name = name.to_bytes_with_nul();
    if name.len() > request.ifr_name.len() {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    for (slot, byte) in request.ifr_name.iter_mut().zip(name) {
        *slot = *byte as libc::c_char;
    }
    // SAFETY: SIOCGIFFLAGS and SIOCSIFFLAGS read and write the live ifreq.
    unsafe {
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCGIFFLAGS, &mut request) < 0 {
            return Err(io::Error::last_os_error());
        }
        request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS, &request) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
