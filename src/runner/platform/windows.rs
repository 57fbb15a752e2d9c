//! The Windows backend: each run in a Job Object of its own.
//!
//! The process is created suspended with only its own pipes inherited
//! (`PROC_THREAD_ATTRIBUTE_HANDLE_LIST`), put in a fresh job, then
//! resumed, so that nothing it starts escapes the job. The job kills
//! everything in it when the judge closes it (or kills it), holds the run
//! to its plan's processes at once (one for a LeetCode-style file) and to
//! its memory cap, with the CPU limit as a backstop behind the watchdog, and makes a
//! crash end the process with its exception's code rather than a dialog.
//! Its accounting gives the CPU time (user and kernel) and the peak
//! memory of the whole run. What a job does not do (no network or
//! filesystem isolation, no system-call filter) the header says once
//! ([`sandbox::Protections::windows`]).
//!
//! The figures are made in `windows_plain`, tested on every OS; the calls
//! are in [`sys::windows`].

use std::io;
use std::os::windows::io::OwnedHandle;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::launch::{Reaped, Spawn};
use super::windows_plain::{
    command_line, cpu_of, environment_block, job_memory_bytes, job_time_100ns, peak_kb,
};
use crate::runner::sandbox::{Mode, Protections};
use crate::runner::sys::{self, Job, JobLimits};

/// What holds every run here: a Job Object, whatever `--sandbox` says
/// (it is how a run is killed whole and accounted); with `--sandbox off`
/// the header says the runs are unconfined.
pub(crate) fn protections(mode: Mode) -> Protections {
    match mode {
        Mode::Off => Protections::off(),
        mode => Protections::windows(mode),
    }
}

/// A run in a job of its own.
pub(crate) struct Jobbed {
    job: Arc<Job>,
    process: OwnedHandle,
}

/// Starts `launch` on `stdio` (stdin, stdout, stderr: the child's ends,
/// not inheritable until now) in a fresh job.
pub(crate) fn start(launch: &Spawn<'_>, stdio: &[&OwnedHandle]) -> io::Result<(Jobbed, Meter)> {
    let [stdin, stdout, stderr, ..] = stdio else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    sys::no_error_dialogs();
    let job = Arc::new(Job::new(&JobLimits {
        // A LeetCode-style file gets threads only, as Linux's filter
        // holds it to: its job takes no second process.
        processes: match launch.plan {
            plan if plan.no_fork => 1,
            plan if plan.tasks > 0 => plan.tasks,
            _ => crate::runner::TASKS,
        },
        memory_bytes: (launch.plan.memory_cap_kb > 0)
            .then(|| job_memory_bytes(launch.plan.memory_cap_kb)),
        cpu_100ns: launch
            .limits
            .cpu_seconds
            .map(|seconds| job_time_100ns(Duration::from_secs(seconds))),
    })?);
    let line = command_line(launch.argv);
    let environment = environment_block(launch.env);
    for handle in [stdin, stdout, stderr] {
        sys::set_inheritable(handle, true)?;
    }
    let program = with_exe(launch.program);
    let created = sys::create_suspended(&sys::Creation {
        program: &program,
        command_line: &line,
        environment: &environment,
        cwd: launch
            .plan
            .cwd
            .is_dir()
            .then_some(launch.plan.cwd.as_path()),
        stdin,
        stdout,
        stderr,
    });
    // Only this process was to inherit them: another started meanwhile
    // by the judge (which names no handle list) must not.
    for handle in [stdin, stdout, stderr] {
        let _ = sys::set_inheritable(handle, false);
    }
    let created = created?;
    let run = Jobbed {
        job: Arc::clone(&job),
        process: created.process,
    };
    // A suspended process has run nothing yet: assigned now, everything it
    // ever starts is in the job. If either step fails, dropping the job
    // kills it (kill on close).
    if let Err(error) = run.job.assign(&run.process) {
        run.job.terminate();
        return Err(error);
    }
    sys::resume(&created.thread)?;
    Ok((run, Meter::of(job)))
}

/// `program`, or the same name with `.exe` where only that is there: a
/// compiler told `-o main` writes `main.exe` (MinGW's gcc), and
/// `CreateProcessW` adds no extension to the program it is given.
fn with_exe(program: &Path) -> PathBuf {
    let exe = program.with_extension("exe");
    if program.extension().is_none() && !program.is_file() && exe.is_file() {
        exe
    } else {
        program.to_path_buf()
    }
}

impl Jobbed {
    /// Kills the job: the process and everything it started.
    pub(super) fn kill(&self) {
        self.job.terminate();
    }

    /// Its end and what the job accounted of the run, once it has exited.
    pub(super) fn try_exit(&self) -> io::Result<Option<Reaped>> {
        let Some(code) = sys::exit_code(&self.process, 0)? else {
            return Ok(None);
        };
        let (cpu, max_rss_kb) = match self.job.accounting() {
            Ok(job) => (
                cpu_of(job.user_100ns, job.kernel_100ns),
                peak_kb(job.peak_job_bytes, job.peak_process_bytes),
            ),
            Err(_) => (Duration::ZERO, 0),
        };
        Ok(Some(Reaped {
            status: code as i32,
            cpu,
            max_rss_kb,
            held_kb: 0,
            wall: None,
            oom_kills: 0,
            fork_refusals: 0,
        }))
    }

    /// Kills what is left of the run and lets go of the job.
    pub(super) fn kill_and_wait(self) {
        self.job.terminate();
        let _ = sys::exit_code(&self.process, 1000);
    }
}

/// Reads what the job has accounted of a running run: its CPU time and
/// its peak memory. Windows keeps no peak the judge could reset for a
/// process that serves case after case: a case's peak is its process's
/// peak so far, at least its own.
pub(crate) struct Meter {
    job: Option<Arc<Job>>,
    /// The most memory seen by sampling.
    pub(crate) seen_kb: u64,
}

impl Meter {
    fn of(job: Arc<Job>) -> Meter {
        Meter {
            job: Some(job),
            seen_kb: 0,
        }
    }

    fn figures(&self) -> Option<(Duration, u64)> {
        let job = self.job.as_ref()?.accounting().ok()?;
        Some((
            cpu_of(job.user_100ns, job.kernel_100ns),
            peak_kb(job.peak_job_bytes, job.peak_process_bytes),
        ))
    }

    /// CPU time of the run so far: every process of its job.
    pub(crate) fn process_cpu(&self) -> Option<Duration> {
        self.figures().map(|(cpu, _)| cpu)
    }

    /// [`Meter::process_cpu`]: a job's totals include a running thread's
    /// time as it goes.
    pub(crate) fn settled_cpu(&self) -> Option<Duration> {
        self.process_cpu()
    }

    /// Nothing to note: see [`Meter::cpu_wait`].
    pub(crate) fn note_wait(&mut self) {}

    /// Nothing to count: see [`Meter::cpu_wait`].
    pub(crate) fn count_waits_from_now(&mut self) {}

    /// Windows does not say how long a process waited for a CPU.
    pub(crate) fn waited(&mut self) -> Option<Duration> {
        None
    }

    /// The job's peak cannot be reset: see [`Meter`].
    pub(crate) fn reset_peak(&mut self) {}

    /// The peak memory of the run so far, in KB.
    pub(crate) fn peak_kb(&self) -> u64 {
        self.figures().map_or(0, |(_, kb)| kb).max(self.seen_kb)
    }

    /// The job's own CPU limit is set at its start; a process serving case
    /// after case is held by the watchdog alone.
    pub(crate) fn limit_cpu_from_now(&self, _more: Duration) {}

    /// CPU time and memory (KB, the job's peak: Windows keeps no current
    /// figure of a whole job before Windows 10) of the whole run now.
    pub(crate) fn sample(&mut self) -> Option<(Duration, u64)> {
        let (cpu, memory_kb) = self.figures()?;
        self.seen_kb = self.seen_kb.max(memory_kb);
        Some((cpu, memory_kb))
    }
}
