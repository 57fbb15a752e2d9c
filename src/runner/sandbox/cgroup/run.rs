//! One run's cgroup: its limits, joined through its `cgroup.procs` (or
//! `tasks`) files, its counters, its meter, and its end.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::{keyed, read, write, Cgroup, CgroupLimits, Usage, Version};

impl Cgroup {
    pub(super) fn dirs(&self) -> Vec<&Path> {
        let mut dirs: Vec<&Path> = vec![&self.memory, &self.pids, &self.cpu];
        dirs.dedup();
        dirs
    }

    pub(super) fn limit(&mut self, limits: CgroupLimits) -> io::Result<()> {
        if self.limits == Some(limits) {
            return Ok(());
        }
        self.limits = None;
        let bytes = limits.memory_bytes.to_string();
        match self.version {
            Version::V1 => {
                // Swap would hide memory from the account: none at all.
                // The memory limit may not exceed memory and swap's, so
                // when a reused cgroup's limit goes up, that one goes first.
                let memory = self.memory.join("memory.limit_in_bytes");
                let swap = self.memory.join("memory.memsw.limit_in_bytes");
                if !swap.exists() {
                    write(&memory, &bytes)?;
                } else if write(&memory, &bytes).is_ok() {
                    write(&swap, &bytes)?;
                } else {
                    write(&swap, &bytes)?;
                    write(&memory, &bytes)?;
                }
                let _ = write(&self.memory.join("memory.swappiness"), "0");
            }
            Version::V2 => {
                write(&self.memory.join("memory.max"), &bytes)?;
                let swap = self.memory.join("memory.swap.max");
                if swap.exists() {
                    write(&swap, "0")?;
                }
            }
        }
        write(&self.pids.join("pids.max"), &limits.pids.to_string())?;
        self.limits = Some(limits);
        Ok(())
    }

    /// The files a single-threaded process writes `0` into to join this
    /// cgroup itself. Under v1 these are the `tasks` files, which move the
    /// one thread: through `cgroup.procs` the kernel takes its global lock
    /// over every thread group, and the first to take it after a quiet
    /// spell waits out an RCU grace period, 10 to 20 ms, seen in one run in
    /// fifty. v2 has only `cgroup.procs`.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        let file = match self.version {
            Version::V1 => "tasks",
            Version::V2 => "cgroup.procs",
        };
        self.dirs().into_iter().map(|d| d.join(file)).collect()
    }

    /// Open handles for reading the CPU time and memory as a run goes.
    pub fn meter(&self) -> io::Result<CgroupMeter> {
        let cpu = self.cpu.join(self.version.cpu_file());
        let memory = self.memory.join("memory.stat");
        let open = |path: &Path| {
            File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        Ok(CgroupMeter {
            version: self.version,
            cpu: open(&cpu)?,
            memory: open(&memory)?,
            buf: Vec::with_capacity(4096),
            cpu_base: self.base.cpu,
        })
    }

    /// The memory [`CgroupMeter::memory_kb`] reads, read once.
    pub fn memory_kb(&self) -> io::Result<u64> {
        self.version
            .memory_kb(&read(&self.memory.join("memory.stat"))?)
    }

    /// What the cgroup counted over the run; read once the run is over.
    pub fn usage(&self) -> io::Result<Usage> {
        let counted = self.counters()?;
        Ok(Usage {
            cpu: counted.cpu.saturating_sub(self.base.cpu),
            oom_kills: counted.oom_kills.saturating_sub(self.base.oom_kills),
            fork_refusals: counted
                .fork_refusals
                .saturating_sub(self.base.fork_refusals),
        })
    }

    /// The counters as they stand, since the cgroup was made.
    pub(super) fn counters(&self) -> io::Result<Usage> {
        let cpu = self
            .version
            .cpu(&read(&self.cpu.join(self.version.cpu_file()))?)?;
        let (oom_file, oom_key) = match self.version {
            Version::V1 => ("memory.oom_control", "oom_kill"),
            Version::V2 => ("memory.events", "oom_kill"),
        };
        Ok(Usage {
            cpu,
            oom_kills: keyed(
                &read(&self.memory.join(oom_file)).unwrap_or_default(),
                oom_key,
            )
            .unwrap_or(0),
            fork_refusals: keyed(&read(&self.pids.join("pids.events"))?, "max").unwrap_or(0),
        })
    }

    /// Readies a cgroup whose last run is entirely gone for the next one,
    /// under `limits`: what it counts from now on is the new run's. `Err`
    /// (it still holds a process, or its files cannot be read) means it
    /// must not be used again.
    pub fn reuse(mut self, limits: CgroupLimits) -> io::Result<Cgroup> {
        let procs = read(&self.pids.join("cgroup.procs"))?;
        if !procs.trim().is_empty() {
            return Err(io::Error::other("the cgroup still holds processes"));
        }
        self.limit(limits)?;
        self.base = self.counters()?;
        Ok(self)
    }

    /// Kills every process in the cgroup: through `cgroup.kill` where the
    /// kernel has it (v2, Linux 5.14), else one by one until none is left.
    pub fn kill_all(&self) {
        if self.version == Version::V2 && write(&self.pids.join("cgroup.kill"), "1").is_ok() {
            return;
        }
        // A process may fork while the list is read; a few rounds catch
        // the newcomers, and the pid namespace (where there is one) takes
        // the rest with its first process.
        for _ in 0..16 {
            let Ok(procs) = read(&self.pids.join("cgroup.procs")) else {
                return;
            };
            let pids: Vec<i32> = procs
                .lines()
                .filter_map(|l| l.trim().parse().ok())
                .collect();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Removes the cgroup's directories; it must hold no process.
    pub fn remove(&self) -> io::Result<()> {
        let mut result = Ok(());
        for dir in self.dirs() {
            // A task that was just killed may linger for a moment.
            let mut attempt = 0;
            loop {
                match fs::remove_dir(dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                    Err(e) if e.raw_os_error() == Some(libc::EBUSY) && attempt < 50 => {
                        attempt += 1;
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    Err(e) => {
                        result = Err(io::Error::new(e.kind(), format!("{}: {e}", dir.display())));
                        break;
                    }
                }
            }
        }
        result
    }
}

/// Reads a cgroup's CPU time and memory while its run goes on, from files
/// held open (a read at offset 0 makes the kernel write them anew).
pub struct CgroupMeter {
    version: Version,
    cpu: File,
    memory: File,
    buf: Vec<u8>,
    /// CPU time the cgroup had counted before the run.
    cpu_base: Duration,
}

impl CgroupMeter {
    pub(super) fn read(file: &File, buf: &mut Vec<u8>) -> io::Result<()> {
        buf.clear();
        buf.resize(4096, 0);
        let n = file.read_at(buf, 0)?;
        buf.truncate(n);
        Ok(())
    }

    /// CPU time of every task of the run so far.
    pub fn cpu(&mut self) -> io::Result<Duration> {
        Self::read(&self.cpu, &mut self.buf)?;
        let counted = self.version.cpu(&String::from_utf8_lossy(&self.buf))?;
        Ok(counted.saturating_sub(self.cpu_base))
    }

    /// The tree's anonymous memory and tmpfs and shared memory now, in KB
    /// (see the module's docs for why not the whole charge).
    pub fn memory_kb(&mut self) -> io::Result<u64> {
        Self::read(&self.memory, &mut self.buf)?;
        self.version.memory_kb(&String::from_utf8_lossy(&self.buf))
    }
}
