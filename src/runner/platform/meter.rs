//! What the kernel says of a running process: the CPU clock of the
//! submission's own process, the CPU time and memory of its whole run (its
//! cgroup, else `/proc`, and the CPU time its init samples of every
//! process), and how long the scheduler kept it waiting for a CPU
//! (`/proc/PID/schedstat`). On macOS, which has neither `/proc` nor a CPU
//! clock of another process, the CPU time and resident memory of the
//! process are asked of the kernel by pid (`sys::process_usage`).

use std::time::{Duration, Instant};

use nix::time::ClockId;
#[cfg(target_os = "linux")]
use nix::unistd::Pid;
#[cfg(not(target_os = "macos"))]
use nix::unistd::{sysconf, SysconfVar};

use super::launch::RunMeters;
#[cfg(target_os = "linux")]
use crate::runner::sandbox::cgroup::CgroupMeter;
#[cfg(target_os = "linux")]
use crate::runner::sys::{Shared, SharedCounter};

/// Reads what the kernel says of a running process: the CPU clock of the
/// submission's own process, and the CPU time and memory of its whole run.
pub(crate) struct Meter {
    pid: i32,
    clock: Option<ClockId>,
    #[cfg(target_os = "linux")]
    cgroup: Option<CgroupMeter>,
    /// Without a cgroup: the CPU time of every process of the run so far,
    /// as its init samples it, in nanoseconds.
    #[cfg(target_os = "linux")]
    sampled: Option<SharedCounter>,
    /// The most memory seen by sampling, for when no peak is kept.
    pub(crate) seen_kb: u64,
    /// The process's peak resident set since the last reset, as last read:
    /// what is left of it once the process has ended, when `/proc` no
    /// longer has it.
    hwm_kb: u64,
    /// The most the run was seen to have waited for a CPU: what is left of
    /// it once the run has ended, when `/proc` no longer has its processes.
    wait_seen: Option<Duration>,
    /// When the run's wait was last read by [`Meter::note_wait`].
    wait_read: Option<Instant>,
    /// The run's wait when [`Meter::count_waits_from_now`] was called.
    wait_base: Option<Duration>,
}

impl Meter {
    /// A meter for a process whose start is still to be confirmed: it
    /// reads nothing until it is replaced.
    #[cfg(target_os = "linux")]
    pub(super) fn pending() -> Meter {
        Meter {
            pid: -1,
            clock: None,
            #[cfg(target_os = "linux")]
            cgroup: None,
            #[cfg(target_os = "linux")]
            sampled: None,
            seen_kb: 0,
            hwm_kb: 0,
            wait_seen: None,
            wait_read: None,
            wait_base: None,
        }
    }

    /// A meter for the process `pid`, and for what a spawner that started
    /// it measures its run by, if any.
    pub(super) fn of(pid: i32, meters: Option<RunMeters>) -> Meter {
        #[cfg(target_os = "linux")]
        let clock = ClockId::pid_cpu_clock_id(Pid::from_raw(pid)).ok();
        // macOS has no CPU clock of another process: its usage is asked
        // for by pid instead (`process_cpu`).
        #[cfg(not(target_os = "linux"))]
        let clock = None;
        #[cfg(target_os = "linux")]
        {
            let (cgroup, sampled) = meters.map_or((None, None), |m| (m.cgroup, m.sampled));
            Meter {
                pid,
                clock,
                cgroup: cgroup.and_then(|c| c.meter().ok()),
                sampled,
                seen_kb: 0,
                hwm_kb: 0,
                wait_seen: None,
                wait_read: None,
                wait_base: None,
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = meters;
            Meter {
                pid,
                clock,
                seen_kb: 0,
                hwm_kb: 0,
                wait_seen: None,
                wait_read: None,
                wait_base: None,
            }
        }
    }

    /// CPU time of the submission's own process, all its threads, from the
    /// kernel's clock for it: exact to the nanosecond even while it runs,
    /// and out of the submission's reach. `None` once it is gone.
    pub(crate) fn process_cpu(&self) -> Option<Duration> {
        #[cfg(target_os = "macos")]
        if self.pid > 0 {
            return crate::runner::sys::process_usage(self.pid).map(|usage| usage.cpu);
        }
        let now = self.clock?.now().ok()?;
        Some(Duration::new(now.tv_sec() as u64, now.tv_nsec() as u32))
    }

    /// [`Meter::process_cpu`] once the process's main thread has stopped
    /// running, waiting at most 2 ms for it. The kernel adds a running
    /// thread's time to the process's clock only at a tick or when the
    /// thread stops, so a driver read the moment it has written an answer
    /// would have its last moments of work, up to a tick (1 to 4 ms),
    /// counted to the next board. A driver stops as soon as it waits for
    /// its next board.
    pub(crate) fn settled_cpu(&self) -> Option<Duration> {
        let deadline = Instant::now() + Duration::from_millis(2);
        while main_thread_running(self.pid) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        self.process_cpu()
    }

    /// How long the run has been ready to run but waiting for a CPU, in
    /// all, as the scheduler counts it: with a cgroup v2 that keeps it, the
    /// time some task of the cgroup waited (`cpu.pressure`'s `some total`,
    /// which counts every process and thread of the run, those gone too);
    /// else the run-queue wait of every thread of its processes (the second
    /// field of `/proc/PID/task/TID/schedstat`): of every process its init
    /// sampled, where it samples them, and of the submission's own process.
    /// Once the run is gone, what was last read of it. `None` where the
    /// kernel says none of this (macOS, which has no `/proc`).
    pub(crate) fn cpu_wait(&mut self) -> Option<Duration> {
        let now = self.read_wait();
        self.wait_read = Some(Instant::now());
        if let Some(now) = now {
            self.wait_seen = Some(self.wait_seen.map_or(now, |seen| seen.max(now)));
        }
        self.wait_seen
    }

    /// Reads [`Meter::cpu_wait`] if it was not read for a while: the
    /// watchdog calls it every round, so that what a run waited is known
    /// after its processes are gone, to within that while.
    pub(crate) fn note_wait(&mut self) {
        const EVERY: Duration = Duration::from_millis(20);
        if self.wait_read.is_none_or(|read| read.elapsed() >= EVERY) {
            self.cpu_wait();
        }
    }

    /// Counts [`Meter::waited`] from now: from the start of an exchange, or
    /// of a driver's first board.
    pub(crate) fn count_waits_from_now(&mut self) {
        self.wait_base = self.cpu_wait();
    }

    /// How long the run waited for a CPU since
    /// [`Meter::count_waits_from_now`] (see [`Meter::cpu_wait`]).
    pub(crate) fn waited(&mut self) -> Option<Duration> {
        let base = self.wait_base.unwrap_or_default();
        self.cpu_wait().map(|now| now.saturating_sub(base))
    }

    fn read_wait(&mut self) -> Option<Duration> {
        #[cfg(target_os = "linux")]
        if let Some(waited) = self.cgroup.as_mut().and_then(CgroupMeter::cpu_wait) {
            return Some(waited);
        }
        let own = (self.pid > 0).then(|| threads_wait(self.pid)).flatten();
        #[cfg(target_os = "linux")]
        if let Some(sampled) = &self.sampled {
            let all = Duration::from_nanos(sampled.load_of(Shared::WaitNs));
            return Some(own.map_or(all, |own| own.max(all)));
        }
        own
    }

    /// Starts a new count of the peak memory: of the process's peak
    /// resident set (the kernel's `VmHWM`, reset through `clear_refs`) and
    /// of the samples, for a process that serves case after case.
    pub(crate) fn reset_peak(&mut self) {
        self.seen_kb = 0;
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.pid), "5");
        self.hwm_kb = peak_resident_kb(self.pid).unwrap_or(0);
    }

    /// The peak memory since the last reset (or the start), in KB: the
    /// process's peak resident set, or the most the samples saw of the
    /// whole run, if more.
    ///
    /// A process that has ended has no peak left in `/proc`: it is the
    /// peak as the watchdog last read it, a few milliseconds before the
    /// end. Not the samples of its cgroup alone, which count only the
    /// pages charged to the run: an interpreter's own code, mapped from
    /// files read before the run began, is resident in the process and
    /// charged elsewhere, so a Python run killed at its time limit would
    /// show half the memory of the same run finishing.
    pub(crate) fn peak_kb(&self) -> u64 {
        peak_resident_kb(self.pid)
            .unwrap_or(0)
            .max(self.hwm_kb)
            .max(self.seen_kb)
    }

    /// Holds the process to `more` CPU time from now with `RLIMIT_CPU`, a
    /// backstop the kernel enforces, for a process that serves case after
    /// case (whose CPU time adds up across them).
    #[cfg(target_os = "linux")]
    pub(crate) fn limit_cpu_from_now(&self, more: Duration) {
        let now = self.process_cpu().unwrap_or_default();
        let seconds = (now + more).as_secs() + 1;
        crate::runner::sys::limit_cpu_of(self.pid, seconds);
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn limit_cpu_from_now(&self, _more: Duration) {}

    /// CPU time and memory (KB) of the whole run now: its cgroup's, else
    /// its own process's as `/proc` says, and for the CPU time, what the
    /// run's init sampled of every process if that is more.
    pub(crate) fn sample(&mut self) -> Option<(Duration, u64)> {
        if let Some(peak) = peak_resident_kb(self.pid) {
            self.hwm_kb = self.hwm_kb.max(peak);
        }
        #[cfg(target_os = "linux")]
        if let Some(cgroup) = &mut self.cgroup {
            let sample = (cgroup.cpu().ok()?, cgroup.memory_kb().ok()?);
            self.seen_kb = self.seen_kb.max(sample.1);
            return Some(sample);
        }
        let (cpu, memory_kb) = proc_sample(self.pid)?;
        #[cfg(target_os = "linux")]
        let (cpu, memory_kb) = match &self.sampled {
            Some(sampled) => (
                cpu.max(Duration::from_nanos(sampled.load())),
                memory_kb.max(sampled.load_of(Shared::MemoryKb)),
            ),
            None => (cpu, memory_kb),
        };
        self.seen_kb = self.seen_kb.max(memory_kb);
        Some((cpu, memory_kb))
    }
}

/// How long the threads of process `pid` have waited for a CPU, in all
/// (see [`Meter::cpu_wait`]); `None` once it is gone, or where there is no
/// `/proc`.
fn threads_wait(pid: i32) -> Option<Duration> {
    let threads = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let waited: u64 = threads
        .flatten()
        .filter_map(|thread| {
            let stat = std::fs::read_to_string(thread.path().join("schedstat")).ok()?;
            stat.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum();
    Some(Duration::from_nanos(waited))
}

/// The process's peak resident set (`VmHWM` in `/proc/PID/status`), in
/// KB; `None` once it has ended (a zombie has none), or where there is no
/// `/proc`.
fn peak_resident_kb(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok()
}

/// Whether the process's main thread is running or ready to run, as
/// `/proc/PID/stat` says; false when it cannot be read.
fn main_thread_running(pid: i32) -> bool {
    proc_stat(pid).is_some_and(|fields| fields.starts_with('R'))
}

/// The fields of `/proc/PID/stat` from the state (field 3 of proc(5)) on.
/// `None` once the process is gone, or where there is no `/proc`.
fn proc_stat(pid: i32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses; fields resume after the last ')'.
    Some(stat.get(stat.rfind(')')? + 2..)?.to_string())
}

/// What the kernel says of a running process on macOS, where there is no
/// `/proc`: CPU time and resident memory.
#[cfg(target_os = "macos")]
fn proc_sample(pid: i32) -> Option<(Duration, u64)> {
    crate::runner::sys::process_usage(pid).map(|usage| (usage.cpu, usage.resident_kb))
}

/// What `/proc/PID/stat` says of a running process: CPU time and resident
/// memory. `None` once it is gone, or where there is no `/proc`.
#[cfg(not(target_os = "macos"))]
fn proc_sample(pid: i32) -> Option<(Duration, u64)> {
    let stat = proc_stat(pid)?;
    let fields: Vec<&str> = stat.split(' ').collect();
    // Fields 14 and 15 (utime, stime) and 24 (rss) of proc(5), counted from
    // the state, field 3, which is fields[0] here.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let rss_pages: u64 = fields.get(21)?.parse().ok()?;
    let hz = sysconf(SysconfVar::CLK_TCK).ok()??;
    let page = sysconf(SysconfVar::PAGE_SIZE).ok()??;
    let hz = u64::try_from(hz).ok().filter(|&h| h > 0)?;
    let page_kb = u64::try_from(page).ok()? / 1024;
    Some((
        Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / hz),
        rss_pages * page_kb,
    ))
}
