//! The cgroup hierarchy the judge was given: found from
//! `/proc/self/mountinfo` and `/proc/self/cgroup`, prepared once, and the
//! place where each run's cgroup is made and stale ones are swept.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::delegate::{delegated, has_controllers, writable, NOT_DELEGATED};
use super::group::{
    read, write, Cgroup, CgroupLimits, Held, Hierarchy, Origin, Usage, Version, BASE,
};
use super::systemd;

impl Hierarchy {
    /// The cgroup version and where its runs' cgroups go, in a few words,
    /// for the report's header.
    pub(crate) fn describe(&self) -> String {
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
    pub(crate) fn detect() -> Result<Hierarchy, String> {
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
    pub(super) fn from_tables(mountinfo: &str, own: &str) -> Result<Hierarchy, String> {
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

    pub(super) fn dirs(&self) -> [&Path; 3] {
        [&self.memory, &self.pids, &self.cpu]
    }

    /// Creates the judge's directories; under v2 also hands the memory and
    /// pids controllers down to the runs' cgroups.
    pub(super) fn prepare(&self) -> io::Result<()> {
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
    pub(crate) fn create(&self, name: &str, limits: CgroupLimits) -> io::Result<Cgroup> {
        let cgroup = Cgroup {
            version: self.version,
            memory: self.memory.join(name),
            pids: self.pids.join(name),
            cpu: self.cpu.join(name),
            base: Usage::default(),
            limits: None,
            held: Held::default(),
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
        cgroup.hold();
        Ok(cgroup)
    }

    /// Removes the cgroups of spawners that are gone: those named
    /// `PID-...` whose process no longer exists (a spawner killed before it
    /// could clean up).
    pub(crate) fn sweep_stale(&self) {
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
                    held: Held::default(),
                };
                let _ = stale.remove();
            }
        }
    }
}
