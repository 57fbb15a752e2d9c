//! Where the judge is not root, under cgroup v2: the subtree delegated to
//! the user that the judge may make its runs' cgroups in, if any.

use std::fs;
use std::path::{Path, PathBuf};

use super::group::{Hierarchy, Origin, Version, BASE};

/// How [`Hierarchy::from_tables`] says that a user's cgroup v2 tree has
/// no delegated cgroup the judge could use, which systemd may still give.
pub(super) const NOT_DELEGATED: &str = "no cgroup v2 subtree is delegated to you";

impl Hierarchy {
    /// A v2 hierarchy whose runs' cgroups go in `dir`.
    pub(super) fn v2(dir: PathBuf, origin: Origin, leaf: Option<PathBuf>) -> Hierarchy {
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
pub(super) fn writable(dir: &Path) -> bool {
    use nix::unistd::{access, AccessFlags};
    let may = |path: &Path| access(path, AccessFlags::W_OK).is_ok();
    may(dir) && may(&dir.join("cgroup.procs")) && may(&dir.join("cgroup.subtree_control"))
}

/// Whether the v2 `file` of `dir` (`cgroup.controllers`, the controllers
/// it has; `cgroup.subtree_control`, those it hands on) names memory and
/// pids.
pub(super) fn has_controllers(dir: &Path, file: &str) -> bool {
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
pub(super) fn delegated(mountpoint: &Path, own: &Path, pid: u32) -> Option<Hierarchy> {
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
