//! The Windows calls the Windows backend makes, each behind a safe
//! function: a Job Object (create, limit, assign, terminate, read its
//! accounting), a process created suspended with no handles inherited but
//! the ones named (`PROC_THREAD_ATTRIBUTE_HANDLE_LIST`), resumed once it
//! is in its job, waited for and asked its exit code, anonymous pipes, and
//! the named pipe a driver writes its answers to.
//!
//! Reading and writing a pipe need no call of their own: `std::fs::File`
//! does both on a handle (and reads a closed pipe's end as an end of
//! file).

use std::ffi::{c_void, OsStr};
use std::io;
use std::os::windows::ffi::OsStrExt as _;
use std::os::windows::io::{AsRawHandle as _, FromRawHandle as _, OwnedHandle, RawHandle};
use std::path::Path;
use std::ptr::{null, null_mut};

use windows_sys::Win32::Foundation::{
    SetHandleInformation, ERROR_PIPE_CONNECTED, HANDLE, HANDLE_FLAG_INHERIT, INVALID_HANDLE_VALUE,
    WAIT_OBJECT_0, WAIT_TIMEOUT,
};
use windows_sys::Win32::Storage::FileSystem::{
    GetFileInformationByHandle, BY_HANDLE_FILE_INFORMATION, FILE_FLAG_FIRST_PIPE_INSTANCE,
    PIPE_ACCESS_INBOUND,
};
use windows_sys::Win32::System::Diagnostics::Debug::{
    SetErrorMode, SEM_FAILCRITICALERRORS, SEM_NOGPFAULTERRORBOX, SEM_NOOPENFILEERRORBOX,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectBasicAccountingInformation,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject,
    TerminateJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_JOB_MEMORY,
    JOB_OBJECT_LIMIT_JOB_TIME, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Pipes::{
    ConnectNamedPipe, CreateNamedPipeW, CreatePipe, PIPE_READMODE_BYTE, PIPE_REJECT_REMOTE_CLIENTS,
    PIPE_TYPE_BYTE, PIPE_WAIT,
};
use windows_sys::Win32::System::Threading::{
    CreateProcessW, DeleteProcThreadAttributeList, GetExitCodeProcess,
    InitializeProcThreadAttributeList, ResumeThread, UpdateProcThreadAttribute,
    WaitForSingleObject, CREATE_NO_WINDOW, CREATE_SUSPENDED, CREATE_UNICODE_ENVIRONMENT,
    EXTENDED_STARTUPINFO_PRESENT, LPPROC_THREAD_ATTRIBUTE_LIST, PROCESS_INFORMATION,
    PROC_THREAD_ATTRIBUTE_HANDLE_LIST, STARTF_USESTDHANDLES, STARTUPINFOEXW,
};

/// `true` or the calling thread's last error.
fn check(ok: i32) -> io::Result<()> {
    if ok != 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// What makes a file or a directory the one it is, as a device and an
/// inode do on Unix: its volume's serial number and its index there.
pub(crate) fn file_identity(file: &std::fs::File) -> io::Result<(u64, u64)> {
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: the handle is an open file's, for the call; info is a live
    // out-struct.
    check(unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) })?;
    let index = (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow);
    Ok((u64::from(info.dwVolumeSerialNumber), index))
}

/// A handle just returned, owned; the last error when it is null or
/// `INVALID_HANDLE_VALUE`.
fn owned(handle: HANDLE) -> io::Result<OwnedHandle> {
    if handle.is_null() || handle == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a valid handle the call just opened for us and no one else owns.
    Ok(unsafe { OwnedHandle::from_raw_handle(handle as RawHandle) })
}

fn raw(handle: &OwnedHandle) -> HANDLE {
    handle.as_raw_handle() as HANDLE
}

/// A NUL-ended UTF-16 string.
fn wide(text: &OsStr) -> Vec<u16> {
    text.encode_wide().chain(Some(0)).collect()
}

/// Keeps the system's error dialogs (a crash's "has stopped working", a
/// missing DLL's, a drive not ready) from appearing: the process dies
/// with its exception's code instead, and the judge reports it. Processes
/// it starts inherit the mode.
pub(crate) fn no_error_dialogs() {
    // SAFETY: SetErrorMode takes flags and returns the old ones.
    unsafe {
        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    }
}

/// An anonymous pipe, (read end, write end), neither inheritable.
pub(crate) fn pipe() -> io::Result<(OwnedHandle, OwnedHandle)> {
    let (mut read, mut write) = (null_mut(), null_mut());
    // SAFETY: both pointers are to live locals; no security attributes
    // means handles that are not inherited.
    check(unsafe { CreatePipe(&mut read, &mut write, null(), 0) })?;
    Ok((owned(read)?, owned(write)?))
}

/// Whether `handle` is inherited by a process created with inheritance:
/// only the run's own ends, and only while it is created.
pub(crate) fn set_inheritable(handle: &OwnedHandle, inheritable: bool) -> io::Result<()> {
    let flags = if inheritable { HANDLE_FLAG_INHERIT } else { 0 };
    // SAFETY: a live handle of ours; the call changes only its flag.
    check(unsafe { SetHandleInformation(raw(handle), HANDLE_FLAG_INHERIT, flags) })
}

/// The judge's end of a driver's answer channel: the one instance of the
/// named pipe `name` (`\\.\pipe\...`), inbound, refused if the name is
/// already taken and to clients on other machines.
pub(crate) fn answer_pipe(name: &OsStr) -> io::Result<OwnedHandle> {
    let name = wide(name);
    // SAFETY: name is NUL-ended and outlives the call; no security
    // attributes: the default, which lets the creator's user open it.
    owned(unsafe {
        CreateNamedPipeW(
            name.as_ptr(),
            PIPE_ACCESS_INBOUND | FILE_FLAG_FIRST_PIPE_INSTANCE,
            PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
            1,
            0,
            64 * 1024,
            0,
            null(),
        )
    })
}

/// Waits until a client opens the named pipe `server` (at once if one
/// already has).
pub(crate) fn await_client(server: &OwnedHandle) -> io::Result<()> {
    // SAFETY: a live pipe handle of ours, opened for synchronous use.
    if unsafe { ConnectNamedPipe(raw(server), null_mut()) } != 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.raw_os_error() == Some(ERROR_PIPE_CONNECTED as i32) {
        return Ok(());
    }
    Err(error)
}

/// A Job Object: what a run and everything it starts are held to and
/// accounted in. Dropped, it kills whatever is still in it
/// (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`).
pub(crate) struct Job(OwnedHandle);

/// The limits a [`Job`] is given.
pub(crate) struct JobLimits {
    /// Processes alive at once.
    pub(crate) processes: u32,
    /// Committed memory of all its processes together, in bytes.
    pub(crate) memory_bytes: Option<usize>,
    /// User time of all its processes, in 100 ns units.
    pub(crate) cpu_100ns: Option<i64>,
}

/// What a job has accounted of its processes so far.
pub(crate) struct JobAccounting {
    pub(crate) user_100ns: i64,
    pub(crate) kernel_100ns: i64,
    pub(crate) peak_job_bytes: usize,
    pub(crate) peak_process_bytes: usize,
}

impl Job {
    /// A fresh, unnamed job under `limits`; a crash in it ends the process
    /// with its code rather than waiting on a dialog.
    pub(crate) fn new(limits: &JobLimits) -> io::Result<Job> {
        // SAFETY: no attributes, no name: a job only this handle reaches.
        let job = Job(owned(unsafe { CreateJobObjectW(null(), null()) })?);
        let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        let basic = &mut info.BasicLimitInformation;
        basic.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
            | JOB_OBJECT_LIMIT_ACTIVE_PROCESS;
        basic.ActiveProcessLimit = limits.processes;
        if let Some(cpu) = limits.cpu_100ns {
            basic.LimitFlags |= JOB_OBJECT_LIMIT_JOB_TIME;
            basic.PerJobUserTimeLimit = cpu;
        }
        if let Some(bytes) = limits.memory_bytes {
            info.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
            info.JobMemoryLimit = bytes;
        }
        // SAFETY: info is a live struct of the class's type and size.
        check(unsafe {
            SetInformationJobObject(
                raw(&job.0),
                JobObjectExtendedLimitInformation,
                (&raw const info).cast::<c_void>(),
                size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            )
        })?;
        Ok(job)
    }

    /// Puts `process` (created suspended, so it has started nothing yet)
    /// in the job.
    pub(crate) fn assign(&self, process: &OwnedHandle) -> io::Result<()> {
        // SAFETY: two live handles of ours.
        check(unsafe { AssignProcessToJobObject(raw(&self.0), raw(process)) })
    }

    /// Kills every process in the job.
    pub(crate) fn terminate(&self) {
        // SAFETY: a live job handle; the exit code is what the killed get.
        unsafe {
            TerminateJobObject(raw(&self.0), 1);
        }
    }

    /// Its CPU times and peak memory so far.
    pub(crate) fn accounting(&self) -> io::Result<JobAccounting> {
        let mut basic = JOBOBJECT_BASIC_ACCOUNTING_INFORMATION::default();
        let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        // SAFETY: each buffer is a live struct of its class's type and size.
        unsafe {
            check(QueryInformationJobObject(
                raw(&self.0),
                JobObjectBasicAccountingInformation,
                (&raw mut basic).cast::<c_void>(),
                size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
                null_mut(),
            ))?;
            check(QueryInformationJobObject(
                raw(&self.0),
                JobObjectExtendedLimitInformation,
                (&raw mut limits).cast::<c_void>(),
                size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                null_mut(),
            ))?;
        }
        Ok(JobAccounting {
            user_100ns: basic.TotalUserTime,
            kernel_100ns: basic.TotalKernelTime,
            peak_job_bytes: limits.PeakJobMemoryUsed,
            peak_process_bytes: limits.PeakProcessMemoryUsed,
        })
    }
}

/// A process created suspended, and its main thread.
pub(crate) struct Created {
    pub(crate) process: OwnedHandle,
    pub(crate) thread: OwnedHandle,
}

/// What [`create_suspended`] starts.
pub(crate) struct Creation<'a> {
    pub(crate) program: &'a Path,
    /// As `command_line` makes it.
    pub(crate) command_line: &'a OsStr,
    /// As `environment_block` makes it.
    pub(crate) environment: &'a [u16],
    pub(crate) cwd: Option<&'a Path>,
    pub(crate) stdin: &'a OwnedHandle,
    pub(crate) stdout: &'a OwnedHandle,
    pub(crate) stderr: &'a OwnedHandle,
}

/// A process attribute list holding one handle list; freed when dropped.
struct Attributes {
    buffer: Vec<u8>,
    /// The list points into this: it must live as long as the attributes.
    _handles: Box<[HANDLE]>,
}

impl Attributes {
    fn handle_list(handles: Box<[HANDLE]>) -> io::Result<Attributes> {
        let mut size = 0;
        // SAFETY: asking for the size: a null list and a live out-pointer.
        unsafe { InitializeProcThreadAttributeList(null_mut(), 1, 0, &mut size) };
        let mut buffer = vec![0u8; size];
        // SAFETY: buffer is `size` bytes, as the call asked for.
        check(unsafe {
            InitializeProcThreadAttributeList(buffer.as_mut_ptr().cast(), 1, 0, &mut size)
        })?;
        let mut attributes = Attributes {
            buffer,
            _handles: handles,
        };
        // SAFETY: the list was initialised above; the handle array lives in
        // the same struct, as long as the list, and is not moved (boxed).
        check(unsafe {
            UpdateProcThreadAttribute(
                attributes.list(),
                0,
                PROC_THREAD_ATTRIBUTE_HANDLE_LIST as usize,
                attributes._handles.as_ptr().cast(),
                size_of_val(&*attributes._handles),
                null_mut(),
                null(),
            )
        })?;
        Ok(attributes)
    }

    fn list(&mut self) -> LPPROC_THREAD_ATTRIBUTE_LIST {
        self.buffer.as_mut_ptr().cast()
    }
}

impl Drop for Attributes {
    fn drop(&mut self) {
        // SAFETY: the list was initialised in handle_list and is freed once.
        unsafe { DeleteProcThreadAttributeList(self.list()) }
    }
}

/// Creates `creation`'s process suspended, with its three standard
/// handles and no other handle inherited (`PROC_THREAD_ATTRIBUTE_HANDLE_LIST`),
/// no console window of its own, and the environment given.
pub(crate) fn create_suspended(creation: &Creation<'_>) -> io::Result<Created> {
    let stdio = [creation.stdin, creation.stdout, creation.stderr];
    let mut handles: Vec<HANDLE> = Vec::new();
    for handle in stdio {
        if !handles.contains(&raw(handle)) {
            handles.push(raw(handle));
        }
    }
    let mut attributes = Attributes::handle_list(handles.into_boxed_slice())?;
    let mut info = STARTUPINFOEXW::default();
    info.StartupInfo.cb = size_of::<STARTUPINFOEXW>() as u32;
    info.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    info.StartupInfo.hStdInput = raw(creation.stdin);
    info.StartupInfo.hStdOutput = raw(creation.stdout);
    info.StartupInfo.hStdError = raw(creation.stderr);
    info.lpAttributeList = attributes.list();
    let program = wide(creation.program.as_os_str());
    let mut command_line = wide(creation.command_line);
    let cwd = creation.cwd.map(|dir| wide(dir.as_os_str()));
    let mut process = PROCESS_INFORMATION::default();
    // SAFETY: every string is NUL-ended and outlives the call; the command
    // line is writable, as CreateProcessW wants; the environment block is
    // UTF-16 and ends with two NULs; info and its attribute list live until
    // the call returns; process is a live out-struct.
    check(unsafe {
        CreateProcessW(
            program.as_ptr(),
            command_line.as_mut_ptr(),
            null(),
            null(),
            1,
            CREATE_SUSPENDED
                | CREATE_UNICODE_ENVIRONMENT
                | EXTENDED_STARTUPINFO_PRESENT
                | CREATE_NO_WINDOW,
            creation.environment.as_ptr().cast(),
            cwd.as_ref().map_or(null(), |dir| dir.as_ptr()),
            &raw const info.StartupInfo,
            &mut process,
        )
    })?;
    Ok(Created {
        process: owned(process.hProcess)?,
        thread: owned(process.hThread)?,
    })
}

/// Lets a process created suspended run.
pub(crate) fn resume(thread: &OwnedHandle) -> io::Result<()> {
    // SAFETY: a live thread handle of ours.
    if unsafe { ResumeThread(raw(thread)) } == u32::MAX {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The exit code of `process` once it has ended, waiting at most
/// `timeout_ms` for it; `None` while it runs.
pub(crate) fn exit_code(process: &OwnedHandle, timeout_ms: u32) -> io::Result<Option<u32>> {
    // SAFETY: a live process handle of ours.
    match unsafe { WaitForSingleObject(raw(process), timeout_ms) } {
        WAIT_OBJECT_0 => {}
        WAIT_TIMEOUT => return Ok(None),
        _ => return Err(io::Error::last_os_error()),
    }
    let mut code = 0;
    // SAFETY: a live process handle and a live out-pointer.
    check(unsafe { GetExitCodeProcess(raw(process), &mut code) })?;
    Ok(Some(code))
}
