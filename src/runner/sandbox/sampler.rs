//! The CPU time of every process of a run, sampled from the `/proc` of its
//! PID namespace by the run's init, where no cgroup counts it.
//!
//! Without a cgroup, the init charges a run the rusage of the processes
//! it reaps, each with the processes it waited for. That misses children
//! the kernel reaps itself, because their parent ignores `SIGCHLD` (or set
//! `SA_NOCLDWAIT`): their time reaches nobody's rusage, and two of them
//! could burn seconds for a run charged a millisecond. While the run goes
//! on, the judge's watchdog saw only the submission's own process, so such
//! children were held by nothing but the wall-clock cap.
//!
//! The init sees every process of its namespace in its `/proc`, so it
//! looks at them all every few milliseconds ([`PERIOD`]) and keeps, for
//! each process, the most CPU time it was seen to have used: its own, not
//! its children's, so nothing is counted twice. It reads each one's CPU
//! clock (`clock_gettime` of the process's clock, as the judge reads the
//! submission's): all its threads, those that ended too, to the
//! nanosecond, up to date even for a thread on a CPU at that moment, in
//! one system call. (`/proc/PID/stat` counts in clock ticks, 10 ms, which
//! a child of a few milliseconds never reaches.)
//!
//! The sum of the samples is a lower bound of what the run used, as the
//! rusage of the reaped processes is; the run is charged the larger of the
//! two ([`Sampler::charge`]). The samples miss what a process used after
//! it was last seen: all of a child that ended before any sample saw it,
//! and on average half a period of the others. Processes waited for lose
//! nothing: their rusage is exact. (The two are not added: a process the
//! init reaps carries its waited-for children's time, which the samples
//! count too, and the kernel does not say which child was waited for and
//! which was reaped by the kernel.)
//!
//! The running total goes where the judge reads it as the run goes on (a
//! [`SharedCounter`]), so the CPU limit holds the whole run, not only the
//! submission's process.
//!
//! Two more figures go beside it, read in the same look:
//!
//! - how long the run's processes were ready to run but waited for a CPU
//!   (the second field of each thread's `/proc/PID/task/TID/schedstat`, the
//!   scheduler's run-queue wait), summed over every process seen, those
//!   gone with what they were last seen to have waited. It tells a run a
//!   busy machine starved from one that slept: see `Run::starved`. Each
//!   thread is a file to read, so it is read every [`WAIT_EVERY`] samples.
//! - the run's memory now: the anonymous resident memory of every live
//!   process (`RssAnon` of `/proc/PID/status`) and what the run's scratch
//!   tmpfs mounts hold (`/tmp`, which is `/dev/shm` too, and a scratch
//!   working directory: their used blocks, by `statfs`). The judge holds
//!   the run to its memory limit by it, as a cgroup's count would. `Pss`
//!   (`smaps_rollup`) would split pages a forked child still shares with
//!   its parent, but it walks every page of a process: 25 ms for one of
//!   200 MB on a busy machine, against 20 µs for `status`, every period.
//!   So such shared pages count in each process that maps them.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nix::time::ClockId;
use nix::unistd::Pid;

use crate::runner::sys::{Shared, SharedCounter};

/// How often the init samples a run's processes: the judge's watchdog
/// looks at a run this often too. A shorter period lets less of a short
/// child escape, at a cost to the init on every run without a cgroup.
const PERIOD: Duration = Duration::from_millis(5);

/// Sampling may take one part in this many of a CPU: a run of many
/// processes, whose samples take longer, is sampled less often.
const MAX_SHARE: u32 = 20;

/// The run-queue wait of each process is read every this many samples: a
/// file for each thread (a JVM has dozens), and a figure wanted only to
/// within tens of milliseconds.
const WAIT_EVERY: u64 = 4;

/// What the init knows of a run's CPU time.
pub(super) struct Sampler {
    /// The `/proc` of the run's PID namespace.
    proc: PathBuf,
    /// Where the judge reads the run's charge as it runs.
    shared: SharedCounter,
    /// Every process seen and not known to be gone, by pid: the most CPU
    /// time it was seen to have used, and the sample that last saw it.
    live: HashMap<i32, Seen>,
    /// What processes that are gone were last seen to have used.
    gone_ns: u64,
    /// What processes that are gone were last seen to have waited for a
    /// CPU.
    gone_wait_ns: u64,
    /// The run's scratch tmpfs mounts, whose used blocks are its memory.
    scratch: Vec<PathBuf>,
    /// The rusage of the processes reaped, with their waited-for children.
    reaped_ns: u64,
    round: u64,
    /// When the next sample is due.
    next: Instant,
}

#[derive(Clone, Copy, Debug)]
struct Seen {
    cpu_ns: u64,
    wait_ns: u64,
    round: u64,
}

impl Sampler {
    /// A sampler of the processes in `proc` (the `/proc` of the run's PID
    /// namespace) and of the tmpfs mounts in `scratch`, publishing what it
    /// finds in `shared`.
    pub(super) fn new(proc: PathBuf, scratch: Vec<PathBuf>, shared: SharedCounter) -> Sampler {
        Sampler {
            proc,
            shared,
            live: HashMap::new(),
            gone_ns: 0,
            gone_wait_ns: 0,
            scratch,
            reaped_ns: 0,
            round: 0,
            next: Instant::now(),
        }
    }

    /// Starts counting a new run, from nothing; its first sample is due a
    /// period from now (a run shorter than that is never sampled: its
    /// processes are all reaped, with their rusage, or else killed at its
    /// end after one last sample).
    pub(super) fn begin(&mut self) {
        self.live.clear();
        self.gone_ns = 0;
        self.gone_wait_ns = 0;
        self.reaped_ns = 0;
        self.next = Instant::now() + PERIOD;
        for which in [Shared::CpuNs, Shared::WaitNs, Shared::MemoryKb] {
            self.shared.store_of(which, 0);
        }
    }

    /// When the next sample is due.
    pub(super) fn next(&self) -> Instant {
        self.next
    }

    /// Counts the rusage of a process the init reaped, with its waited-for
    /// children.
    pub(super) fn reaped(&mut self, cpu_ns: u64) {
        self.reaped_ns += cpu_ns;
        self.publish();
    }

    /// What the run is charged: the larger of two lower bounds of its CPU
    /// time, the rusage of the processes reaped and the sum of the samples.
    pub(super) fn charge(&self) -> u64 {
        self.reaped_ns.max(self.sampled_ns())
    }

    fn sampled_ns(&self) -> u64 {
        self.gone_ns + self.live.values().map(|seen| seen.cpu_ns).sum::<u64>()
    }

    /// What the run's scratch tmpfs mounts hold now, in KB: once its
    /// processes are gone, what it left there is still its memory, however
    /// quickly it wrote it and exited.
    pub(super) fn held_kb(&self) -> u64 {
        self.scratch.iter().filter_map(|at| tmpfs_used_kb(at)).sum()
    }

    fn waited_ns(&self) -> u64 {
        self.gone_wait_ns + self.live.values().map(|seen| seen.wait_ns).sum::<u64>()
    }

    fn publish(&self) {
        self.shared.store(self.charge());
    }

    /// Looks at every process of the namespace but the init, and publishes
    /// the charge. When sampling again so soon would cost the init more
    /// than one part in [`MAX_SHARE`] of a CPU, the next sample is put off.
    pub(super) fn sample(&mut self) {
        let began = Instant::now();
        self.round += 1;
        let read_waits = self.round % WAIT_EVERY == 1;
        let mut memory_kb = 0;
        if let Ok(entries) = fs::read_dir(&self.proc) {
            for entry in entries.flatten() {
                let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                    continue;
                };
                if pid <= 1 {
                    continue;
                }
                let Some(cpu_ns) = cpu_ns(pid) else {
                    continue;
                };
                let dir = entry.path();
                memory_kb += anonymous_kb(&dir).unwrap_or(0);
                let seen = self.live.entry(pid).or_insert(Seen {
                    cpu_ns: 0,
                    wait_ns: 0,
                    round: 0,
                });
                seen.cpu_ns = seen.cpu_ns.max(cpu_ns);
                if read_waits || seen.round == 0 {
                    seen.wait_ns = seen.wait_ns.max(run_queue_wait_ns(&dir));
                }
                seen.round = self.round;
            }
        }
        memory_kb += self.held_kb();
        self.retire_gone();
        self.publish();
        self.shared.store_of(Shared::WaitNs, self.waited_ns());
        self.shared.store_of(Shared::MemoryKb, memory_kb);
        let took = began.elapsed();
        self.next = Instant::now() + PERIOD.max(took * MAX_SHARE);
    }

    /// Moves what the processes not seen in this sample used into
    /// `gone_ns`, once each is known to be gone: its pid names no process.
    /// (One skipped by a listing while it lived would else be counted
    /// again, whole, when seen next. A pid used again by a new process
    /// before the last one was missed keeps the larger of the two times:
    /// the run is charged less, never more, than it used.)
    fn retire_gone(&mut self) {
        let round = self.round;
        let gone: Vec<i32> = self
            .live
            .iter()
            .filter(|(pid, seen)| seen.round != round && cpu_ns(**pid).is_none())
            .map(|(pid, _)| *pid)
            .collect();
        for pid in gone {
            if let Some(seen) = self.live.remove(&pid) {
                self.gone_ns += seen.cpu_ns;
                self.gone_wait_ns += seen.wait_ns;
            }
        }
    }
}

/// The CPU time of the process `pid` (of the caller's PID namespace) so
/// far, from its CPU clock; `None` once it is gone.
fn cpu_ns(pid: i32) -> Option<u64> {
    let now = ClockId::pid_cpu_clock_id(Pid::from_raw(pid))
        .ok()?
        .now()
        .ok()?;
    Some(u64::try_from(now.tv_sec()).ok()? * 1_000_000_000 + u64::try_from(now.tv_nsec()).ok()?)
}

/// How long the threads of the process whose `/proc` directory is `dir`
/// have waited for a CPU, in all: the second field of each one's
/// `schedstat` (its run-queue wait, in nanoseconds; the kernel keeps it
/// with `CONFIG_SCHED_INFO`, as every distribution's does). 0 when none
/// can be read.
fn run_queue_wait_ns(dir: &std::path::Path) -> u64 {
    let Ok(threads) = fs::read_dir(dir.join("task")) else {
        return 0;
    };
    threads
        .flatten()
        .filter_map(|thread| {
            let stat = fs::read_to_string(thread.path().join("schedstat")).ok()?;
            stat.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum()
}

/// The anonymous resident memory of the process whose `/proc` directory is
/// `dir` (`RssAnon` of its `status`), in KB.
fn anonymous_kb(dir: &std::path::Path) -> Option<u64> {
    let status = fs::read_to_string(dir.join("status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What the tmpfs mounted at `at` holds, in KB: its used blocks.
fn tmpfs_used_kb(at: &std::path::Path) -> Option<u64> {
    let stat = nix::sys::statvfs::statvfs(at).ok()?;
    let used = stat.blocks().saturating_sub(stat.blocks_free());
    Some(used * stat.fragment_size() / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sampler, on this test's own `/proc`: a child that burns CPU
    /// time is seen with the time it has used, and once it has ended it is
    /// still counted, in what the gone used, and not counted again.
    #[test]
    fn a_process_is_counted_once_and_kept_when_gone() {
        let file = SharedCounter::file().unwrap();
        let shared = SharedCounter::map(&file, true).unwrap();
        let reader = SharedCounter::map(&file, false).unwrap();
        let mut sampler = Sampler::new("/proc".into(), Vec::new(), shared);
        sampler.begin();
        let mut child = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let used = loop {
            sampler.sample();
            if let Some(seen) = sampler.live.get(&pid).filter(|seen| seen.cpu_ns > 0) {
                break seen.cpu_ns;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        child.wait().unwrap();
        assert_eq!(cpu_ns(pid), None, "a process gone has a clock");
        sampler.sample();
        assert!(!sampler.live.contains_key(&pid), "a process gone is live");
        assert!(sampler.gone_ns >= used);
        sampler.sample();
        assert!(!sampler.live.contains_key(&pid), "a process gone came back");
        assert_eq!(reader.load(), sampler.charge());
        // The larger of the two bounds is charged.
        sampler.reaped(u64::MAX / 2);
        assert_eq!(sampler.charge(), u64::MAX / 2);
        assert_eq!(reader.load(), u64::MAX / 2);
    }
}
