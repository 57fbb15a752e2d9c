//! One run's cgroup: its limits, joined through its `cgroup.procs` (or
//! `tasks`) files, its counters, its meter, and its end.

use std::fs::{self, File};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::group::{keyed, number, read, write, Cgroup, CgroupLimits, Held, Open, Usage, Version};

impl Cgroup {
    /// Opens the files that runs read and join it through, to hold while
    /// the cgroup is kept ([`Held`]). One that cannot be opened now is
    /// opened when it is needed, and says then why it cannot be.
    pub(super) fn hold(&mut self) {
        if self.held.0.is_some() {
            return;
        }
        let open = |path: PathBuf| File::open(path).ok();
        let oom = match self.version {
            Version::V1 => "memory.oom_control",
            Version::V2 => "memory.events",
        };
        // All or none: a run must join every controller's cgroup.
        let join = self
            .procs_files()
            .into_iter()
            .map(|file| {
                fs::OpenOptions::new()
                    .write(true)
                    .open(file)
                    .map(OwnedFd::from)
            })
            .collect::<io::Result<Vec<_>>>()
            .unwrap_or_default();
        self.held = Held(Some(Arc::new(Open {
            cpu: open(self.cpu.join(self.version.cpu_file())),
            memory_stat: open(self.memory.join("memory.stat")),
            oom: open(self.memory.join(oom)),
            pids_events: open(self.pids.join("pids.events")),
            pids_current: open(self.pids.join("pids.current")),
            join,
        })));
    }

    /// Holds the two files a meter reads, sent by the spawner that holds
    /// them (see [`Cgroup::meter_files`]).
    pub(crate) fn hold_meter_files(&mut self, cpu: OwnedFd, memory_stat: OwnedFd) {
        self.held = Held(Some(Arc::new(Open {
            cpu: Some(File::from(cpu)),
            memory_stat: Some(File::from(memory_stat)),
            ..Open::default()
        })));
    }

    /// The files a meter reads (CPU time, then `memory.stat`), where they
    /// are held: for the spawner to send with the run's start, so that the
    /// judge need not open them again.
    pub(crate) fn meter_files(&self) -> Option<[&File; 2]> {
        let open = self.held.0.as_deref()?;
        Some([open.cpu.as_ref()?, open.memory_stat.as_ref()?])
    }

    /// The files a process writes `0` into to join the cgroup, open for
    /// writing and closed at exec: copies of the held ones, else opened
    /// now.
    pub(crate) fn open_procs_files(&self) -> Result<Vec<OwnedFd>, (PathBuf, io::Error)> {
        if let Some(open) = self.held.0.as_deref().filter(|o| !o.join.is_empty()) {
            let copies = open.join.iter().map(OwnedFd::try_clone);
            if let Ok(copies) = copies.collect::<io::Result<Vec<_>>>() {
                return Ok(copies);
            }
        }
        self.procs_files()
            .into_iter()
            .map(|file| {
                fs::OpenOptions::new()
                    .write(true)
                    .open(&file)
                    .map(OwnedFd::from)
                    .map_err(|e| (file, e))
            })
            .collect()
    }

    /// The text of one of the cgroup's files: through its held handle,
    /// read from the start, where there is one; else opened now.
    fn read_held(&self, held: impl Fn(&Open) -> Option<&File>, path: &Path) -> io::Result<String> {
        if let Some(file) = self.held.0.as_deref().and_then(held) {
            let mut buf = Vec::new();
            CgroupMeter::read(file, &mut buf)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            return Ok(String::from_utf8_lossy(&buf).into_owned());
        }
        read(path)
    }

    /// Whether any process (a zombie included) is in the cgroup: from
    /// `pids.current` where it is held, else from `cgroup.procs`.
    fn holds_processes(&self) -> io::Result<bool> {
        if self
            .held
            .0
            .as_ref()
            .is_some_and(|o| o.pids_current.is_some())
        {
            let current =
                self.read_held(|o| o.pids_current.as_ref(), &self.pids.join("pids.current"))?;
            return Ok(number(&current)? > 0);
        }
        let procs = read(&self.pids.join("cgroup.procs"))?;
        Ok(!procs.trim().is_empty())
    }

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
    pub(crate) fn procs_files(&self) -> Vec<PathBuf> {
        let file = match self.version {
            Version::V1 => "tasks",
            Version::V2 => "cgroup.procs",
        };
        self.dirs().into_iter().map(|d| d.join(file)).collect()
    }

    /// Open handles for reading the CPU time and memory as a run goes:
    /// copies of the held ones, else opened now.
    pub(crate) fn meter(&self) -> io::Result<CgroupMeter> {
        let cpu = self.cpu.join(self.version.cpu_file());
        let memory = self.memory.join("memory.stat");
        let held = self.meter_files();
        let open = |path: &Path, held: Option<&File>| {
            held.map_or_else(|| File::open(path), File::try_clone)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        // Where the kernel keeps it (cgroup v2 with pressure stall
        // information), and readable: else the run's waits are read from
        // its processes (`Meter::cpu_wait`).
        let pressure = match self.version {
            Version::V2 => File::open(self.cpu.join("cpu.pressure")).ok(),
            Version::V1 => None,
        };
        Ok(CgroupMeter {
            version: self.version,
            cpu: open(&cpu, held.map(|[cpu, _]| cpu))?,
            memory: open(&memory, held.map(|[_, memory]| memory))?,
            pressure,
            buf: Vec::with_capacity(4096),
            cpu_base: self.base.cpu,
        })
    }

    /// The memory [`CgroupMeter::memory_kb`] reads, read once.
    pub(crate) fn memory_kb(&self) -> io::Result<u64> {
        let stat = self.read_held(|o| o.memory_stat.as_ref(), &self.memory.join("memory.stat"))?;
        self.version.memory_kb(&stat)
    }

    /// The memory a run's cgroup still holds once its processes are gone:
    /// files it left in a tmpfs and shared memory, which its last sample
    /// may have missed (a program that writes them and exits at once).
    /// Read by a run's init before its namespace, and its tmpfs with it,
    /// goes; 0 without a cgroup.
    pub(crate) fn held_kb(cgroup: Option<&Cgroup>) -> u64 {
        cgroup
            .and_then(|cgroup| cgroup.memory_kb().ok())
            .unwrap_or(0)
    }

    /// What the cgroup counted over the run; read once the run is over.
    pub(crate) fn usage(&self) -> io::Result<Usage> {
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
            .cpu(&self.read_held(|o| o.cpu.as_ref(), &self.cpu.join(self.version.cpu_file()))?)?;
        let oom_file = match self.version {
            Version::V1 => "memory.oom_control",
            Version::V2 => "memory.events",
        };
        let oom = self
            .read_held(|o| o.oom.as_ref(), &self.memory.join(oom_file))
            .unwrap_or_default();
        let events = self.read_held(|o| o.pids_events.as_ref(), &self.pids.join("pids.events"))?;
        Ok(Usage {
            cpu,
            oom_kills: keyed(&oom, "oom_kill").unwrap_or(0),
            fork_refusals: keyed(&events, "max").unwrap_or(0),
        })
    }

    /// Readies a cgroup whose last run is entirely gone for the next one,
    /// under `limits`: what it counts from now on is the new run's. `Err`
    /// (it still holds a process, or its files cannot be read) means it
    /// must not be used again.
    pub(crate) fn reuse(mut self, limits: CgroupLimits) -> io::Result<Cgroup> {
        if self.holds_processes()? {
            return Err(io::Error::other("the cgroup still holds processes"));
        }
        self.limit(limits)?;
        self.base = self.counters()?;
        Ok(self)
    }

    /// Kills every process in the cgroup: through `cgroup.kill` where the
    /// kernel has it (v2, Linux 5.14), else one by one until none is left.
    pub(crate) fn kill_all(&self) {
        // Where the count is held open, an empty cgroup costs one read.
        if self
            .held
            .0
            .as_ref()
            .is_some_and(|o| o.pids_current.is_some())
            && self.holds_processes().is_ok_and(|holds| !holds)
        {
            return;
        }
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
    pub(crate) fn remove(&self) -> io::Result<()> {
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
pub(crate) struct CgroupMeter {
    version: Version,
    cpu: File,
    memory: File,
    /// `cpu.pressure`, where there is one to read.
    pressure: Option<File>,
    buf: Vec<u8>,
    /// CPU time the cgroup had counted before the run.
    cpu_base: Duration,
}

impl CgroupMeter {
    /// The whole of an open cgroup file into `buf`, from its start.
    pub(super) fn read(file: &File, buf: &mut Vec<u8>) -> io::Result<()> {
        const CHUNK: usize = 4096;
        buf.clear();
        loop {
            let len = buf.len();
            buf.resize(len + CHUNK, 0);
            let n = file.read_at(&mut buf[len..], len as u64)?;
            buf.truncate(len + n);
            // The kernel fills a read of a cgroup file as far as it goes.
            if n < CHUNK {
                return Ok(());
            }
        }
    }

    /// CPU time of every task of the run so far.
    pub(crate) fn cpu(&mut self) -> io::Result<Duration> {
        Self::read(&self.cpu, &mut self.buf)?;
        let counted = self.version.cpu(&String::from_utf8_lossy(&self.buf))?;
        Ok(counted.saturating_sub(self.cpu_base))
    }

    /// How long some task of the cgroup was ready to run but waited for a
    /// CPU, in all: `cpu.pressure`'s `some total`. `None` where the kernel
    /// keeps no pressure figures (cgroup v1, a kernel without PSI or booted
    /// with `psi=0`, whose file cannot be read).
    pub(crate) fn cpu_wait(&mut self) -> Option<Duration> {
        Self::read(self.pressure.as_ref()?, &mut self.buf).ok()?;
        let text = String::from_utf8_lossy(&self.buf);
        let some = text.lines().find(|line| line.starts_with("some "))?;
        let total = some
            .split_whitespace()
            .find_map(|f| f.strip_prefix("total="))?;
        Some(Duration::from_micros(total.parse().ok()?))
    }

    /// The tree's anonymous memory and tmpfs and shared memory now, in KB
    /// (see the module's docs for why not the whole charge).
    pub(crate) fn memory_kb(&mut self) -> io::Result<u64> {
        Self::read(&self.memory, &mut self.buf)?;
        self.version.memory_kb(&String::from_utf8_lossy(&self.buf))
    }
}
