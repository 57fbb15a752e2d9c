//! Accounting for a run's whole process tree: one cgroup per run, read
//! through one interface whether the machine mounts cgroup v1 (a hierarchy
//! per controller) or v2 (one unified tree).
//!
//! A process's own `rusage` misses the children it never waits for, and
//! its resident memory misses its children's memory, tmpfs and shared
//! memory. A cgroup counts all of them: CPU time of every task that was
//! ever in it (`cpuacct.usage`, `cpu.stat`), the memory of all of them
//! (`memory.stat`), and how often a fork failed at its process limit
//! (`pids.events`). Its memory limit is enforced by the kernel, so a
//! submission that allocates faster than the watchdog looks is still
//! stopped.
//!
//! The memory judged is the tree's anonymous memory and its tmpfs and
//! shared memory (`rss` and `shmem`, or `anon` and `shmem` under v2), not
//! the cgroup's whole charge (`memory.max_usage_in_bytes`,
//! `memory.peak`): that also holds the page cache of files the run read
//! first and the kernel's own caches, which vary with what the machine
//! did before and would give a program that reads its own binary on a
//! cold cache, or a JVM, a false MLE. The kernel keeps no peak of that
//! sum, so the watchdog samples it; the whole charge still bounds the run
//! through the kernel's limit, where page cache is reclaimed first.
//!
//! Where the cgroups live: under v1, below the judge's own cgroup in each
//! controller's hierarchy (so whatever limits the judge runs under still
//! apply); under v2, in a `sudoku-judge` cgroup at the root, because v2
//! does not let a cgroup that holds processes (the judge's own) hand
//! controllers to children. Each run gets a cgroup of its own, named after
//! the spawner that made it; once everything of a run is gone, the
//! spawner gives its cgroup to a later run ([`Cgroup::reuse`]), counting
//! from where the counters stand, and removes them all when it ends.
//! Cgroups left by a spawner that was killed are removed by the next one.
//!
//! Everything here is reading and writing small files, so tests point a
//! [`Hierarchy`] at a temporary directory that looks like a cgroup tree.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The name of the directory that holds the judge's cgroups.
const BASE: &str = "sudoku-judge";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Version {
    V1,
    V2,
}

impl Version {
    pub fn name(self) -> &'static str {
        match self {
            Version::V1 => "cgroup v1",
            Version::V2 => "cgroup v2",
        }
    }

    /// The file, in the cpu controller's directory, with the CPU time of
    /// every task that was ever in the cgroup.
    fn cpu_file(self) -> &'static str {
        match self {
            Version::V1 => "cpuacct.usage",
            Version::V2 => "cpu.stat",
        }
    }

    /// The CPU time that [`Version::cpu_file`]'s `text` says.
    fn cpu(self, text: &str) -> io::Result<Duration> {
        Ok(match self {
            Version::V1 => Duration::from_nanos(number(text)?),
            Version::V2 => Duration::from_micros(
                keyed(text, "usage_usec")
                    .ok_or_else(|| io::Error::other("cpu.stat has no usage_usec"))?,
            ),
        })
    }

    /// The tree's anonymous memory and tmpfs and shared memory in KB, from
    /// `memory.stat`'s `text` (see the module's docs for why not the
    /// whole charge).
    fn memory_kb(self, text: &str) -> io::Result<u64> {
        let anon = match self {
            Version::V1 => "rss",
            Version::V2 => "anon",
        };
        let field = |key: &str| {
            keyed(text, key).ok_or_else(|| io::Error::other(format!("memory.stat has no {key}")))
        };
        Ok((field(anon)? + field("shmem")?) / 1024)
    }
}

/// Where the judge makes its cgroups: for v1 one directory per controller
/// (memory, pids, cpuacct), for v2 the same directory three times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hierarchy {
    pub version: Version,
    memory: PathBuf,
    pids: PathBuf,
    cpu: PathBuf,
    /// How the judge came by it.
    #[serde(default)]
    pub origin: Origin,
    /// Under v2, a cgroup of the judge's own that it moves into before it
    /// makes any run's: a cgroup that hands controllers on to its children
    /// may hold no processes itself.
    #[serde(default)]
    leaf: Option<PathBuf>,
}

/// Where the judge's cgroups come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Made where root may make them.
    #[default]
    Root,
    /// Inside the cgroup v2 subtree delegated to the user who runs the
    /// judge (a systemd scope with `Delegate=yes`, `user@UID.service`).
    Delegated,
    /// Inside a scope the judge asked the user's systemd to delegate.
    SystemdScope,
}

/// The kernel-enforced limits of one run's cgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CgroupLimits {
    /// Memory past which the kernel stops the run (its OOM killer).
    pub memory_bytes: u64,
    /// Tasks (processes and threads) at once.
    pub pids: u32,
}

/// One run's cgroup: its directories, for reading and for joining.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cgroup {
    pub version: Version,
    memory: PathBuf,
    pids: PathBuf,
    cpu: PathBuf,
    /// What its counters held when the run began: a cgroup is used for
    /// run after run (making and removing one costs more than a small
    /// run), and the kernel lets some counters only grow.
    #[serde(default)]
    base: Usage,
    /// The limits last written, which a reuse under the same need not
    /// write again.
    #[serde(skip)]
    limits: Option<CgroupLimits>,
}

/// What a cgroup counted over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// CPU time of every task that was in it.
    pub cpu: Duration,
    /// Times the kernel's OOM killer killed a task in it.
    pub oom_kills: u64,
    /// Forks refused at its process limit.
    pub fork_refusals: u64,
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::write(path, value).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

fn read(path: &Path) -> io::Result<String> {
    fs::read_to_string(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// The number after `key` in a `key value` file such as `memory.events`.
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

fn number(text: &str) -> io::Result<u64> {
    text.trim()
        .parse()
        .map_err(|_| io::Error::other(format!("`{}` is not a number", text.trim())))
}

impl Hierarchy {
    /// The cgroup version and where its runs' cgroups go, in a few words,
    /// for the report's header.
    pub fn describe(&self) -> String {
        let version = self.version.name();
        match self.origin {
            Origin::Root => version.to_string(),
            Origin::Delegated => format!("{version} (delegated to you)"),
            Origin::SystemdScope => format!("{version} (a scope systemd delegated to you)"),
        }
    }

    /// Finds the cgroup controllers this process may use, from
    /// `/proc/self/mountinfo` and `/proc/self/cgroup`, and makes sure the
    /// judge's own directory exists. `Err` says why there are none.
    ///
    /// Under cgroup v2 a user who is not root may use the subtree
    /// delegated to them: the judge's own cgroup, when the judge is alone
    /// in it, or a delegated cgroup above it that hands the controllers
    /// on. Where there is none and systemd runs the machine, the judge
    /// asks the user's systemd for a delegated scope of its own, as
    /// rootless containers do, and moves there. This moves the calling
    /// process: call it once, from the judge itself, before any run.
    pub fn detect() -> Result<Hierarchy, String> {
        let tables = || -> Result<(String, String), String> {
            let mountinfo = fs::read_to_string("/proc/self/mountinfo")
                .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
            let own = fs::read_to_string("/proc/self/cgroup")
                .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
            Ok((mountinfo, own))
        };
        let (mountinfo, own) = tables()?;
        let hierarchy = match Self::from_tables(&mountinfo, &own) {
            Err(why) if why.starts_with(NOT_DELEGATED) => {
                let Some(()) = systemd::delegated_scope() else {
                    return Err(why);
                };
                let (mountinfo, own) = tables()?;
                let mut hierarchy = Self::from_tables(&mountinfo, &own)?;
                hierarchy.origin = Origin::SystemdScope;
                hierarchy
            }
            found => found?,
        };
        hierarchy.prepare().map_err(|e| {
            if e.kind() == io::ErrorKind::PermissionDenied {
                format!("no permission to make cgroups ({e}); run as root, or in a cgroup delegated to you")
            } else {
                format!("cannot make cgroups: {e}")
            }
        })?;
        Ok(hierarchy)
    }

    /// The hierarchy that `mountinfo` and `own` (the two files of
    /// `/proc/self`) describe, preferring v2 when it holds the controllers.
    fn from_tables(mountinfo: &str, own: &str) -> Result<Hierarchy, String> {
        // mountinfo: `id parent major:minor root mountpoint options - fstype source superoptions`.
        let mounts: Vec<(&str, &str, &str)> = mountinfo
            .lines()
            .filter_map(|line| {
                let (left, right) = line.split_once(" - ")?;
                let mountpoint = left.split(' ').nth(4)?;
                let mut right = right.split(' ');
                let fstype = right.next()?;
                let options = right.nth(1).unwrap_or_default();
                Some((mountpoint, fstype, options))
            })
            .collect();
        let own_path = |controller: Option<&str>| -> Option<&str> {
            own.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                let matches = match controller {
                    None => controllers.is_empty(),
                    Some(c) => controllers.split(',').any(|x| x == c),
                };
                matches.then_some(path)
            })
        };
        let v1 = |controller: &str| -> Option<PathBuf> {
            let (mountpoint, _, _) = mounts.iter().find(|(_, fstype, options)| {
                *fstype == "cgroup" && options.split(',').any(|o| o == controller)
            })?;
            let path = own_path(Some(controller))?;
            Some(
                Path::new(mountpoint)
                    .join(path.trim_start_matches('/'))
                    .join(BASE),
            )
        };
        // v2, where its tree offers the memory and pids controllers: at
        // its root for root, else in the subtree delegated to the user.
        for (mountpoint, fstype, _) in &mounts {
            if *fstype != "cgroup2" {
                continue;
            }
            let mountpoint = Path::new(mountpoint);
            if !has_controllers(mountpoint, "cgroup.controllers") {
                continue;
            }
            if writable(mountpoint) {
                return Ok(Hierarchy::v2(mountpoint.join(BASE), Origin::Root, None));
            }
            let own = own_path(None).unwrap_or("/");
            let own = mountpoint.join(own.trim_start_matches('/'));
            return delegated(mountpoint, &own, std::process::id()).ok_or_else(|| {
                format!(
                    "{NOT_DELEGATED} ({} is not yours, and no cgroup above it hands the \
                     memory and pids controllers to one that is); run as root, in a systemd \
                     scope delegated to you (systemd-run --user --scope -p Delegate=yes \
                     sudoku-judge ...), or with a cgroup delegated to you",
                    own.display()
                )
            });
        }
        match (v1("memory"), v1("pids"), v1("cpuacct")) {
            (Some(memory), Some(pids), Some(cpu)) => Ok(Hierarchy {
                version: Version::V1,
                memory,
                pids,
                cpu,
                origin: Origin::Root,
                leaf: None,
            }),
            _ => Err(
                "no cgroup hierarchy with the memory, pids and cpu accounting controllers is mounted"
                    .into(),
            ),
        }
    }

    fn dirs(&self) -> [&Path; 3] {
        [&self.memory, &self.pids, &self.cpu]
    }

    /// Creates the judge's directories; under v2 also hands the memory and
    /// pids controllers down to the runs' cgroups.
    fn prepare(&self) -> io::Result<()> {
        for dir in self.dirs() {
            fs::create_dir_all(dir)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        }
        if let Some(leaf) = &self.leaf {
            fs::create_dir_all(leaf)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", leaf.display())))?;
            write(&leaf.join("cgroup.procs"), &std::process::id().to_string())?;
        }
        if self.version == Version::V2 {
            let parent = self.memory.parent().unwrap_or(&self.memory);
            for dir in [parent, &self.memory] {
                let control = dir.join("cgroup.subtree_control");
                let enabled = read(&control).unwrap_or_default();
                for controller in ["memory", "pids"] {
                    if !enabled.split_whitespace().any(|c| c == controller) {
                        write(&control, &format!("+{controller}"))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Creates the cgroup `name` under `limits`.
    pub fn create(&self, name: &str, limits: CgroupLimits) -> io::Result<Cgroup> {
        let cgroup = Cgroup {
            version: self.version,
            memory: self.memory.join(name),
            pids: self.pids.join(name),
            cpu: self.cpu.join(name),
            base: Usage::default(),
            limits: None,
        };
        for dir in cgroup.dirs() {
            match fs::create_dir(dir) {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                    let _ = cgroup.remove();
                    return Err(io::Error::new(e.kind(), format!("{}: {e}", dir.display())));
                }
                _ => {}
            }
        }
        let mut cgroup = cgroup;
        if let Err(error) = cgroup.limit(limits) {
            let _ = cgroup.remove();
            return Err(error);
        }
        Ok(cgroup)
    }

    /// Removes the cgroups of spawners that are gone: those named
    /// `PID-...` whose process no longer exists (a spawner killed before it
    /// could clean up).
    pub fn sweep_stale(&self) {
        let Ok(entries) = fs::read_dir(&self.memory) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.split('-').next()) else {
                continue;
            };
            if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
                let stale = Cgroup {
                    version: self.version,
                    memory: self.memory.join(&name),
                    pids: self.pids.join(&name),
                    cpu: self.cpu.join(&name),
                    base: Usage::default(),
                    limits: None,
                };
                let _ = stale.remove();
            }
        }
    }
}

/// How [`Hierarchy::from_tables`] says that a user's cgroup v2 tree has
/// no delegated cgroup the judge could use, which systemd may still give.
const NOT_DELEGATED: &str = "no cgroup v2 subtree is delegated to you";

impl Hierarchy {
    /// A v2 hierarchy whose runs' cgroups go in `dir`.
    fn v2(dir: PathBuf, origin: Origin, leaf: Option<PathBuf>) -> Hierarchy {
        Hierarchy {
            version: Version::V2,
            memory: dir.clone(),
            pids: dir.clone(),
            cpu: dir,
            origin,
            leaf,
        }
    }
}

/// Whether this process may write in the cgroup `dir`: make cgroups in it
/// and move processes through it.
fn writable(dir: &Path) -> bool {
    use nix::unistd::{access, AccessFlags};
    let may = |path: &Path| access(path, AccessFlags::W_OK).is_ok();
    may(dir) && may(&dir.join("cgroup.procs")) && may(&dir.join("cgroup.subtree_control"))
}

/// Whether the v2 `file` of `dir` (`cgroup.controllers`, the controllers
/// it has; `cgroup.subtree_control`, those it hands on) names memory and
/// pids.
fn has_controllers(dir: &Path, file: &str) -> bool {
    let controllers = fs::read_to_string(dir.join(file)).unwrap_or_default();
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    has("memory") && has("pids")
}

/// The delegated cgroup v2 tree the judge (process `pid`, in the cgroup
/// `own` of the tree mounted at `mountpoint`) may make its runs' cgroups
/// in, if any:
/// - its own cgroup, when it is writable, has the controllers and holds no
///   process but the judge: the judge moves into a leaf of its own inside
///   ([`Hierarchy::prepare`]), as a scope made with `Delegate=yes` for it
///   is meant to be used;
/// - else the nearest writable cgroup above it that already hands memory
///   and pids on to its children (a subtree delegated to the user, whose
///   other processes, such as the shell, live in a leaf of their own).
///
/// Moving a run's process there from the judge's cgroup needs write
/// access to the cgroup they have in common, which is that one or below.
fn delegated(mountpoint: &Path, own: &Path, pid: u32) -> Option<Hierarchy> {
    let alone = fs::read_to_string(own.join("cgroup.procs"))
        .is_ok_and(|procs| procs.split_whitespace().eq([pid.to_string().as_str()]));
    if alone && writable(own) && has_controllers(own, "cgroup.controllers") {
        let base = own.join(BASE);
        let leaf = base.join(format!("{pid}-judge"));
        return Some(Hierarchy::v2(base, Origin::Delegated, Some(leaf)));
    }
    let mut dir = own.parent();
    while let Some(above) = dir.filter(|d| d.starts_with(mountpoint) && *d != mountpoint) {
        if !writable(above) {
            break;
        }
        if has_controllers(above, "cgroup.subtree_control") {
            return Some(Hierarchy::v2(above.join(BASE), Origin::Delegated, None));
        }
        dir = above.parent();
    }
    None
}

/// A delegated scope from the user's systemd, asked for over D-Bus with
/// systemd's own client, `busctl`: `StartTransientUnit` of a scope that
/// holds the judge, with `Delegate=yes`, as podman and crun ask for one.
mod systemd {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// The D-Bus call's arguments for a scope named `name` holding `pid`.
    pub(super) fn start_transient_scope(name: &str, pid: u32) -> Vec<String> {
        [
            "--user",
            "--quiet",
            "call",
            "org.freedesktop.systemd1",
            "/org/freedesktop/systemd1",
            "org.freedesktop.systemd1.Manager",
            "StartTransientUnit",
            "ssa(sv)a(sa(sv))",
            name,
            "fail",
            "2",
            "PIDs",
            "au",
            "1",
            &pid.to_string(),
            "Delegate",
            "b",
            "true",
            "0",
        ]
        .map(String::from)
        .to_vec()
    }

    /// Moves this process into a new scope that the user's systemd
    /// delegates to it; `None` where there is no such systemd (not a
    /// user's session, no `busctl`) or it refused.
    pub(super) fn delegated_scope() -> Option<()> {
        if nix::unistd::Uid::effective().is_root() {
            return None;
        }
        let pid = std::process::id();
        let name = format!("sudoku-judge-{pid}.scope");
        let asked = Command::new("busctl")
            .args(start_transient_scope(&name, pid))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()?;
        if !asked.success() {
            return None;
        }
        // The job that moves the judge runs after the call returns.
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
            if own
                .lines()
                .any(|line| line.starts_with("0::") && line.ends_with(&name))
            {
                return Some(());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Cgroup {
    fn dirs(&self) -> Vec<&Path> {
        let mut dirs: Vec<&Path> = vec![&self.memory, &self.pids, &self.cpu];
        dirs.dedup();
        dirs
    }

    fn limit(&mut self, limits: CgroupLimits) -> io::Result<()> {
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
    fn counters(&self) -> io::Result<Usage> {
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
                // SAFETY: kill(2) takes no pointers.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
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
    fn read(file: &File, buf: &mut Vec<u8>) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO_V1: &str = "\
22 1 0:20 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
23 22 0:21 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
24 22 0:22 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
25 22 0:23 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
26 22 0:24 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const OWN_V1: &str = "\
8:pids:/
4:memory:/jobs/42
2:cpuacct:/
0::/
";

    #[test]
    fn v1_cgroups_nest_under_the_judges_own_in_each_controller() {
        let hierarchy = Hierarchy::from_tables(MOUNTINFO_V1, OWN_V1).unwrap();
        assert_eq!(hierarchy.version, Version::V1);
        assert_eq!(
            hierarchy.memory,
            Path::new("/sys/fs/cgroup/memory/jobs/42/sudoku-judge")
        );
        assert_eq!(
            hierarchy.pids,
            Path::new("/sys/fs/cgroup/pids/sudoku-judge")
        );
        assert_eq!(
            hierarchy.cpu,
            Path::new("/sys/fs/cgroup/cpuacct/sudoku-judge")
        );
    }

    #[test]
    fn a_v1_run_is_joined_through_its_tasks_files() {
        let hierarchy = Hierarchy::from_tables(MOUNTINFO_V1, OWN_V1).unwrap();
        let cgroup = Cgroup {
            version: Version::V1,
            memory: hierarchy.memory.join(RUN),
            pids: hierarchy.pids.join(RUN),
            cpu: hierarchy.cpu.join(RUN),
            base: Usage::default(),
            limits: None,
        };
        assert_eq!(
            cgroup.procs_files(),
            [
                hierarchy.memory.join(RUN).join("tasks"),
                hierarchy.pids.join(RUN).join("tasks"),
                hierarchy.cpu.join(RUN).join("tasks"),
            ]
        );
    }

    #[test]
    fn without_controllers_the_reason_is_given() {
        let error =
            Hierarchy::from_tables("22 1 0:20 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n", "0::/\n")
                .unwrap_err();
        assert!(error.contains("memory, pids and cpu"), "{error}");
    }

    /// A user's v2 tree as systemd delegates it: `user.slice/.../app.slice`
    /// handing `handed` on, and in it the judge's cgroup holding `procs`.
    fn delegated_tree(root: &Path, handed: &str, procs: &str) -> (PathBuf, PathBuf) {
        let above = root.join("user.slice/user@1000.service/app.slice");
        let own = above.join("vte-spawn-1.scope");
        fs::create_dir_all(&own).unwrap();
        for (dir, procs) in [(&above, ""), (&own, procs)] {
            fs::write(dir.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
            fs::write(dir.join("cgroup.subtree_control"), "").unwrap();
            fs::write(dir.join("cgroup.procs"), procs).unwrap();
        }
        fs::write(above.join("cgroup.subtree_control"), handed).unwrap();
        (above, own)
    }

    #[test]
    fn a_judge_alone_in_its_delegated_cgroup_moves_into_a_leaf_of_it() {
        let tmp = tempfile::tempdir().unwrap();
        let (_, own) = delegated_tree(tmp.path(), "", "4242\n");
        let hierarchy = delegated(tmp.path(), &own, 4242).unwrap();
        assert_eq!(hierarchy.origin, Origin::Delegated);
        assert_eq!(hierarchy.memory, own.join(BASE));
        assert_eq!(hierarchy.leaf, Some(own.join(BASE).join("4242-judge")));
        assert_eq!(hierarchy.describe(), "cgroup v2 (delegated to you)");
    }

    #[test]
    fn a_judge_beside_other_processes_uses_the_delegated_cgroup_above_it() {
        let tmp = tempfile::tempdir().unwrap();
        let (above, own) = delegated_tree(tmp.path(), "cpu memory pids\n", "4242\n17\n");
        let hierarchy = delegated(tmp.path(), &own, 4242).unwrap();
        assert_eq!(hierarchy.memory, above.join(BASE));
        assert_eq!(hierarchy.leaf, None);
        // Nothing above hands the controllers on: nothing is delegated.
        let tmp = tempfile::tempdir().unwrap();
        let (_, own) = delegated_tree(tmp.path(), "cpu\n", "4242\n17\n");
        assert_eq!(delegated(tmp.path(), &own, 4242), None);
    }

    #[test]
    fn systemd_is_asked_for_a_delegated_scope_holding_the_judge() {
        let args = systemd::start_transient_scope("sudoku-judge-42.scope", 42);
        assert_eq!(
            args[7..].join(" "),
            "ssa(sv)a(sa(sv)) sudoku-judge-42.scope fail 2 PIDs au 1 42 Delegate b true 0"
        );
    }

    /// A run's cgroup, named for a spawner pid no process has.
    const RUN: &str = "999999998-1";

    /// A directory that looks like a v2 cgroup tree with the files a run
    /// reads, filled with `values`.
    fn fake_v2(root: &Path, values: &[(&str, &str)]) -> Hierarchy {
        fs::write(root.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
        fs::write(root.join("cgroup.subtree_control"), "").unwrap();
        fs::write(root.join("cgroup.procs"), "").unwrap();
        let mountinfo = format!("30 1 0:25 / {} rw - cgroup2 cgroup2 rw\n", root.display());
        let hierarchy = Hierarchy::from_tables(&mountinfo, "0::/user.slice\n").unwrap();
        assert_eq!(hierarchy.version, Version::V2);
        hierarchy.prepare().unwrap();
        // Enabling controllers is asked of the root and of the judge's directory.
        assert_eq!(
            fs::read_to_string(root.join("cgroup.subtree_control")).unwrap(),
            "+pids"
        );
        if !values.is_empty() {
            let run = root.join(BASE).join(RUN);
            fs::create_dir_all(&run).unwrap();
            for (file, value) in values {
                fs::write(run.join(file), value).unwrap();
            }
        }
        hierarchy
    }

    #[test]
    fn a_v2_run_is_limited_and_read_through_its_files() {
        let tmp = tempfile::tempdir().unwrap();
        let hierarchy = fake_v2(
            tmp.path(),
            &[
                ("memory.swap.max", "max\n"),
                (
                    "cpu.stat",
                    "usage_usec 1500000\nuser_usec 1400000\nsystem_usec 100000\n",
                ),
                (
                    "memory.stat",
                    "anon 2097152\nfile 50000000\nkernel 900000\nshmem 1048576\n",
                ),
                ("memory.events", "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n"),
                ("pids.events", "max 12\n"),
            ],
        );
        let cgroup = hierarchy
            .create(
                RUN,
                CgroupLimits {
                    memory_bytes: 64 << 20,
                    pids: 256,
                },
            )
            .unwrap();
        let run = tmp.path().join(BASE).join(RUN);
        assert_eq!(
            fs::read_to_string(run.join("memory.max")).unwrap(),
            "67108864"
        );
        assert_eq!(
            fs::read_to_string(run.join("memory.swap.max")).unwrap(),
            "0"
        );
        assert_eq!(fs::read_to_string(run.join("pids.max")).unwrap(), "256");
        assert_eq!(cgroup.procs_files(), [run.join("cgroup.procs")]);
        let mut meter = cgroup.meter().unwrap();
        assert_eq!(meter.cpu().unwrap(), Duration::from_millis(1500));
        // Anonymous and shared memory; not the page cache, not the kernel's.
        assert_eq!(meter.memory_kb().unwrap(), 3072);
        assert_eq!(
            cgroup.usage().unwrap(),
            Usage {
                cpu: Duration::from_millis(1500),
                oom_kills: 1,
                fork_refusals: 12,
            }
        );
    }

    #[test]
    fn a_reused_cgroup_counts_only_the_new_run() {
        let tmp = tempfile::tempdir().unwrap();
        let counters = |cpu_usec: u64, oom_kills: u64, refusals: u64| {
            vec![
                ("cgroup.procs".to_string(), String::new()),
                (
                    "cpu.stat".to_string(),
                    format!("usage_usec {cpu_usec}\nuser_usec 0\nsystem_usec 0\n"),
                ),
                (
                    "memory.events".to_string(),
                    format!("oom 0\noom_kill {oom_kills}\n"),
                ),
                ("pids.events".to_string(), format!("max {refusals}\n")),
                ("memory.stat".to_string(), "anon 0\nshmem 0\n".to_string()),
            ]
        };
        let hierarchy = fake_v2(tmp.path(), &[]);
        let run = tmp.path().join(BASE).join(RUN);
        let fill = |values: Vec<(String, String)>| {
            fs::create_dir_all(&run).unwrap();
            for (file, value) in values {
                fs::write(run.join(file), value).unwrap();
            }
        };
        let limits = |mb: u64| CgroupLimits {
            memory_bytes: mb << 20,
            pids: 64,
        };
        fill(counters(2_000_000, 1, 5));
        let first = hierarchy.create(RUN, limits(64)).unwrap();
        assert_eq!(first.usage().unwrap().cpu, Duration::from_secs(2));
        let second = first.reuse(limits(256)).unwrap();
        assert_eq!(
            fs::read_to_string(run.join("memory.max")).unwrap(),
            (256u64 << 20).to_string()
        );
        // The last run's counts are not the next one's.
        assert_eq!(second.usage().unwrap(), Usage::default());
        fill(counters(2_300_000, 2, 5));
        assert_eq!(
            second.usage().unwrap(),
            Usage {
                cpu: Duration::from_millis(300),
                oom_kills: 1,
                fork_refusals: 0,
            }
        );
        assert_eq!(
            second.meter().unwrap().cpu().unwrap(),
            Duration::from_millis(300)
        );
        // One that still holds a process is not used again.
        fs::write(run.join("cgroup.procs"), "4242\n").unwrap();
        assert!(second.reuse(limits(64)).is_err());
    }

    #[test]
    fn cgroups_of_spawners_that_are_gone_are_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let hierarchy = fake_v2(tmp.path(), &[]);
        let base = tmp.path().join(BASE);
        let alive = format!("{}-3", std::process::id());
        fs::create_dir(base.join(&alive)).unwrap();
        // No process has this pid: the kernel's limit is far below it.
        fs::create_dir(base.join("999999999-2")).unwrap();
        hierarchy.sweep_stale();
        assert!(base.join(&alive).exists());
        assert!(!base.join("999999999-2").exists());
    }
}
