//! A cgroup and what is known of it: its [`Version`] and
//! [`Hierarchy`], the [`Cgroup`] of one run, its limits and its
//! [`Usage`].

use std::fs::{self, File};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The name of the directory that holds the judge's cgroups.
pub(super) const BASE: &str = "sudoku-judge";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Version {
    V1,
    V2,
}

impl Version {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Version::V1 => "cgroup v1",
            Version::V2 => "cgroup v2",
        }
    }

    /// The file, in the cpu controller's directory, with the CPU time of
    /// every task that was ever in the cgroup.
    pub(super) fn cpu_file(self) -> &'static str {
        match self {
            Version::V1 => "cpuacct.usage",
            Version::V2 => "cpu.stat",
        }
    }

    /// The CPU time that [`Version::cpu_file`]'s `text` says.
    pub(super) fn cpu(self, text: &str) -> io::Result<Duration> {
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
    pub(super) fn memory_kb(self, text: &str) -> io::Result<u64> {
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
pub(crate) struct Hierarchy {
    pub(crate) version: Version,
    pub(super) memory: PathBuf,
    pub(super) pids: PathBuf,
    pub(super) cpu: PathBuf,
    /// How the judge came by it.
    #[serde(default)]
    pub(crate) origin: Origin,
    /// Under v2, a cgroup of the judge's own that it moves into before it
    /// makes any run's: a cgroup that hands controllers on to its children
    /// may hold no processes itself.
    #[serde(default)]
    pub(super) leaf: Option<PathBuf>,
}

/// Where the judge's cgroups come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Origin {
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
pub(crate) struct CgroupLimits {
    /// Memory past which the kernel stops the run (its OOM killer).
    pub(crate) memory_bytes: u64,
    /// Tasks (processes and threads) at once.
    pub(crate) pids: u32,
}

/// One run's cgroup: its directories, for reading and for joining.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Cgroup {
    pub(crate) version: Version,
    pub(super) memory: PathBuf,
    pub(super) pids: PathBuf,
    pub(super) cpu: PathBuf,
    /// What its counters held when the run began: a cgroup is used for
    /// run after run (making and removing one costs more than a small
    /// run), and the kernel lets some counters only grow.
    #[serde(default)]
    pub(super) base: Usage,
    /// The limits last written, which a reuse under the same need not
    /// write again.
    #[serde(skip)]
    pub(super) limits: Option<CgroupLimits>,
    /// Its files, held open where it is made and reused.
    #[serde(skip)]
    pub(super) held: Held,
}

/// A cgroup's files, held open by the spawner for as long as it keeps the
/// cgroup, and seen by each run's init and submission, which it clones.
///
/// Opening a cgroup file costs the kernel 8 to 10 µs, reading one that is
/// open about 1 (`memory.stat` 19 against 9), and a run used to open
/// fourteen of them, most on its way in or out: now none. Reads are at
/// offset 0, which makes the kernel write the file anew. Not `cgroup.procs`
/// under v1, whose list the kernel keeps for an open file for a second:
/// whether a cgroup holds a process is read from `pids.current` instead.
#[derive(Clone, Default)]
pub(in crate::runner::sandbox) struct Held(pub(super) Option<Arc<Open>>);

/// The files [`Held`] holds: each `None` where it could not be opened
/// (then it is opened when read, as before).
#[derive(Default)]
pub(in crate::runner::sandbox) struct Open {
    pub(super) cpu: Option<File>,
    pub(super) memory_stat: Option<File>,
    pub(super) oom: Option<File>,
    pub(super) pids_events: Option<File>,
    pub(super) pids_current: Option<File>,
    /// The files a process writes `0` into to join the cgroup
    /// ([`Cgroup::procs_files`]), open for writing and closed at exec.
    pub(super) join: Vec<OwnedFd>,
}

/// Held files are a cache of the paths, not part of what a cgroup is.
impl PartialEq for Held {
    fn eq(&self, _: &Held) -> bool {
        true
    }
}

impl Eq for Held {}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "held" } else { "not held" })
    }
}

/// What a cgroup counted over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Usage {
    /// CPU time of every task that was in it.
    pub(crate) cpu: Duration,
    /// Times the kernel's OOM killer killed a task in it.
    pub(crate) oom_kills: u64,
    /// Forks refused at its process limit.
    pub(crate) fork_refusals: u64,
}

pub(super) fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::write(path, value).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

pub(super) fn read(path: &Path) -> io::Result<String> {
    fs::read_to_string(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// The number after `key` in a `key value` file such as `memory.events`.
pub(super) fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

pub(super) fn number(text: &str) -> io::Result<u64> {
    text.trim()
        .parse()
        .map_err(|_| io::Error::other(format!("`{}` is not a number", text.trim())))
}
