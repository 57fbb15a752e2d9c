//! A run's root filesystem: the base every run shares ([`BaseRoot`]),
//! each run's own part on top of it ([`build_root`]), and entering it.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use nix::mount::{mount, MsFlags};
use nix::sys::statvfs::{statvfs, FsFlags};

use super::failure::{Failure, Stage};
use super::plan::{Plan, SYSTEM_PATHS};

/// Devices every run gets, bound from the host's.
pub(super) const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// The flags a bind mount must keep when it is made read-only: in a user
/// namespace the kernel refuses to clear those the source mount has.
pub(super) fn kept_flags(path: &Path) -> MsFlags {
    let Ok(stat) = statvfs(path) else {
        return MsFlags::empty();
    };
    let flags = stat.flags();
    let mut kept = MsFlags::empty();
    for (fs_flag, ms_flag) in [
        (FsFlags::ST_NOSUID, MsFlags::MS_NOSUID),
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if flags.contains(fs_flag) {
            kept |= ms_flag;
        }
    }
    kept
}

/// A source to bind, opened before the new root covers its path.
pub(super) struct Source {
    pub(super) fd: OwnedFd,
    pub(super) target: PathBuf,
    pub(super) dir: bool,
    pub(super) writable: bool,
    pub(super) device: bool,
}

impl Source {
    pub(super) fn open(
        path: &Path,
        target: &Path,
        writable: bool,
        device: bool,
    ) -> io::Result<Source> {
        let file = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
            .open(path)?;
        let dir = file.metadata()?.is_dir();
        Ok(Source {
            fd: OwnedFd::from(file),
            target: target.to_path_buf(),
            dir,
            writable,
            device,
        })
    }

    /// Binds it at its target under `root`.
    pub(super) fn bind(&self, root: &Path) -> Result<(), Failure> {
        let at = inside(root, &self.target);
        mountpoint(&at, self.dir)?;
        let from = PathBuf::from(format!("/proc/self/fd/{}", self.fd.as_raw_fd()));
        let fail = |what: &str, e: nix::Error| {
            Failure::nix(
                Stage::Filesystem,
                &format!("cannot {what} {}", self.target.display()),
                e,
            )
        };
        // Recursively: a directory may hold mounts of its own (a container
        // binds files over /etc/hosts and /etc/resolv.conf), and in a user
        // namespace the kernel refuses a bind that would uncover them.
        let recursive = if self.dir {
            MsFlags::MS_REC
        } else {
            MsFlags::empty()
        };
        mount(
            Some(&from),
            &at,
            None::<&str>,
            MsFlags::MS_BIND | recursive,
            None::<&str>,
        )
        .map_err(|e| fail("bind", e))?;
        let mut attributes = libc::MOUNT_ATTR_NOSUID;
        attributes |= if self.device {
            libc::MOUNT_ATTR_NOEXEC
        } else {
            libc::MOUNT_ATTR_NODEV
        };
        if !self.writable {
            attributes |= libc::MOUNT_ATTR_RDONLY;
        }
        if crate::runner::sys::restrict_mounts_below(&at, attributes).is_ok() {
            return Ok(());
        }
        // Before Linux 5.12: a remount, of the top mount only.
        let mut flags =
            MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_NOSUID | kept_flags(&at);
        if self.device {
            flags |= MsFlags::MS_NOEXEC;
        } else {
            flags |= MsFlags::MS_NODEV;
        }
        if !self.writable {
            flags |= MsFlags::MS_RDONLY;
        }
        mount(None::<&str>, &at, None::<&str>, flags, None::<&str>)
            .map_err(|e| fail("make read-only", e))
    }
}

/// `path` (absolute) under `root`.
pub(super) fn inside(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// Makes `at` a directory or an empty file to mount on, with its parents.
pub(super) fn mountpoint(at: &Path, dir: bool) -> Result<(), Failure> {
    let fail = |e: io::Error| {
        Failure::io(
            Stage::Filesystem,
            &format!("cannot make {}", at.display()),
            &e,
        )
    };
    if let Some(parent) = at.parent() {
        if !parent.exists() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)
                .map_err(fail)?;
        }
    }
    if at.exists() {
        return Ok(());
    }
    let made = if dir {
        fs::DirBuilder::new().mode(0o755).create(at)
    } else {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(at)
            .map(drop)
    };
    match made {
        // Another run's init made it in the shared base just now.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        made => made.map_err(fail),
    }
}

pub(super) fn tmpfs(at: &Path, options: &str, extra: MsFlags) -> Result<(), Failure> {
    mountpoint(at, true)?;
    mount(
        Some("tmpfs"),
        at,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | extra,
        Some(options),
    )
    .map_err(|e| {
        Failure::nix(
            Stage::Filesystem,
            &format!("cannot mount a tmpfs at {}", at.display()),
            e,
        )
    })
}

/// The part of every run's root that is the same for all runs: an empty
/// tmpfs holding read-only binds of the system directories and a minimal
/// `/dev`. The spawner builds it once, in its own mount namespace, in a
/// hidden directory of its own under the temporary directory (covered
/// there, so nothing of it shows outside); each run's mount namespace
/// starts as a copy of the spawner's, so it has the base without a mount
/// of its own, and its init adds only what is the run's
/// ([`build_root`]). Building the whole root per run cost more than all
/// the rest of a run's containment.
pub(super) struct BaseRoot {
    pub(super) path: PathBuf,
}

impl BaseRoot {
    const PREFIX: &'static str = ".sudoku-judge-root-";

    pub(super) fn build() -> Result<BaseRoot, Failure> {
        let fail = |what: &str, e: &io::Error| Failure::io(Stage::Filesystem, what, e);
        let dir = tempfile::Builder::new()
            .prefix(&format!("{}{}-", Self::PREFIX, std::process::id()))
            .tempdir()
            .map_err(|e| fail("cannot make a directory for the runs' root", &e))?
            .keep();
        let base = BaseRoot { path: dir };
        let root = &base.path;
        // Directories made for one plan stay for the next (they are only
        // empty mount points), hence room for many.
        tmpfs(root, "size=1m,nr_inodes=65536,mode=0755", MsFlags::empty())?;
        for dir in SYSTEM_PATHS {
            let path = Path::new(dir);
            match fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = fs::read_link(path).map_err(|e| fail(dir, &e))?;
                    std::os::unix::fs::symlink(target, inside(root, path))
                        .map_err(|e| fail(dir, &e))?;
                }
                Ok(meta) if meta.is_dir() => Source::open(path, path, false, false)
                    .map_err(|e| fail(dir, &e))?
                    .bind(root)?,
                _ => {}
            }
        }
        let dev = root.join("dev");
        tmpfs(&dev, "size=64k,nr_inodes=64,mode=0755", MsFlags::MS_NOEXEC)?;
        for name in DEVICES {
            let path = Path::new("/dev").join(name);
            Source::open(&path, &path, true, true)
                .map_err(|e| fail(&format!("{}", path.display()), &e))?
                .bind(root)?;
        }
        for (name, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            std::os::unix::fs::symlink(target, dev.join(name)).map_err(|e| fail(name, &e))?;
        }
        for at in [dev.join("shm"), root.join("tmp"), root.join("proc")] {
            mountpoint(&at, true)?;
        }
        // Every run shares this /dev: no run may leave anything there.
        mount(
            None::<&str>,
            &dev,
            None::<&str>,
            MsFlags::MS_REMOUNT
                | MsFlags::MS_RDONLY
                | MsFlags::MS_NOSUID
                | MsFlags::MS_NODEV
                | MsFlags::MS_NOEXEC,
            None::<&str>,
        )
        .map_err(|e| Failure::nix(Stage::Filesystem, "cannot make /dev read-only", e))?;
        Ok(base)
    }

    /// Removes the directories of spawners that are gone (killed before
    /// they could clean up): empty, since what covered them went with
    /// their mount namespace.
    pub(super) fn sweep_stale() {
        let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(Self::PREFIX))
                .and_then(|rest| rest.split('-').next())
            else {
                continue;
            };
            if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
                let _ = fs::remove_dir(entry.path());
            }
        }
    }
}

impl Drop for BaseRoot {
    fn drop(&mut self) {
        let _ = nix::mount::umount2(&self.path, nix::mount::MntFlags::MNT_DETACH);
        let _ = fs::remove_dir(&self.path);
    }
}

/// Builds a run's root on the spawner's [`BaseRoot`] (at `root`, in the
/// run's own copy of it): `/tmp` and `/dev/shm`, a scratch working
/// directory, the plan's paths bound, and a `/proc` of the run's PID
/// namespace.
pub(super) fn build_root(root: &Path, plan: &Plan, owner: (u32, u32)) -> Result<PathBuf, Failure> {
    let plan_sources = plan_sources(plan)?;
    mount_scratch(root, plan, owner)?;
    for source in &plan_sources {
        source.bind(root)?;
    }
    let proc = root.join("proc");
    let proc_flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    // hidepid keeps the judge's init out of the submission's sight where
    // they are different users.
    mount(
        Some("proc"),
        &proc,
        Some("proc"),
        proc_flags,
        Some("hidepid=2"),
    )
    .or_else(|_| mount(Some("proc"), &proc, Some("proc"), proc_flags, None::<&str>))
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot mount /proc", e))?;
    Ok(root.to_path_buf())
}

/// The plan's own paths (not the system's), opened before the new root
/// covers them, outermost first; a path inside another is bound with it.
fn plan_sources(plan: &Plan) -> Result<Vec<Source>, Failure> {
    let fail = |what: &str, e: &io::Error| Failure::io(Stage::Filesystem, what, e);
    let mut own: Vec<(&PathBuf, bool)> = plan
        .read_only
        .iter()
        .map(|p| (p, false))
        .chain(plan.writable.iter().map(|p| (p, true)))
        .filter(|(p, _)| !super::plan::is_system_path(p))
        .collect();
    own.sort_by_key(|(p, _)| p.components().count());
    let mut sources: Vec<Source> = Vec::new();
    for (path, writable) in own {
        if sources.iter().any(|s| path.starts_with(&s.target)) {
            continue;
        }
        sources.push(
            Source::open(path, path, writable, false)
                .map_err(|e| fail(&format!("{}", path.display()), &e))?,
        );
    }
    Ok(sources)
}

/// Where a run's scratch tmpfs mounts are, as paths in the run: `/tmp`,
/// and the working directory unless it is one of the plan's writable
/// directories.
fn scratch_dirs(plan: &Plan) -> Vec<&Path> {
    let mut dirs = vec![Path::new("/tmp")];
    if !plan.writable.iter().any(|w| plan.cwd.starts_with(w)) {
        dirs.push(&plan.cwd);
    }
    dirs
}

/// Mounts a run's scratch space in its root: a fresh tmpfs at `/tmp`,
/// bound at `/dev/shm` too, and one at the working directory (unless it is
/// one of the plan's writable directories).
fn mount_scratch(root: &Path, plan: &Plan, (uid, gid): (u32, u32)) -> Result<(), Failure> {
    let scratch = format!(
        "size={}k,nr_inodes=16384,mode=0755,uid={uid},gid={gid}",
        plan.scratch_kb.max(64)
    );
    let shared = format!(
        "size={}k,nr_inodes=16384,mode=1777",
        plan.scratch_kb.max(64)
    );
    tmpfs(&root.join("tmp"), &shared, MsFlags::empty())?;
    mount(
        Some(&root.join("tmp")),
        &root.join("dev/shm"),
        None::<&str>,
        MsFlags::MS_BIND,
        None::<&str>,
    )
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot bind /dev/shm", e))?;
    if let Some(cwd) = scratch_dirs(plan).get(1) {
        tmpfs(&inside(root, cwd), &scratch, MsFlags::empty())?;
    }
    Ok(())
}

/// A run's scratch directories as they were made, to give the next run
/// the same: each one's path in the root and how it looked.
pub(super) struct Scratch {
    dirs: Vec<(PathBuf, Looks)>,
    /// Mount points inside the scratch space: the plan's paths bound
    /// there (a program beside its cases under /tmp), and a working
    /// directory under /tmp. Kept when the space is emptied.
    keep: Vec<PathBuf>,
}

/// What a run could change of a scratch directory itself: its mode, its
/// owner and the names of its extended attributes (a security module's
/// label, where there is one).
#[derive(PartialEq, Eq)]
struct Looks {
    mode: u32,
    uid: u32,
    gid: u32,
    attributes: Option<Vec<u8>>,
}

impl Looks {
    fn of(at: &Path) -> Result<Looks, Failure> {
        use std::os::unix::fs::MetadataExt as _;
        let meta = fs::symlink_metadata(at)
            .map_err(|e| Failure::io(Stage::Filesystem, &format!("{}", at.display()), &e))?;
        Ok(Looks {
            mode: meta.mode(),
            uid: meta.uid(),
            gid: meta.gid(),
            attributes: crate::runner::sys::extended_attribute_names(at),
        })
    }
}

impl Scratch {
    /// Notes the scratch space of the root just built for `plan`.
    pub(super) fn note(root: &Path, plan: &Plan) -> Result<Scratch, Failure> {
        let scratch = scratch_dirs(plan);
        let mut dirs = Vec::new();
        for dir in &scratch {
            let at = inside(root, dir);
            let looks = Looks::of(&at)?;
            dirs.push((at, looks));
        }
        // What `build_root` bound there.
        let mut keep: Vec<PathBuf> = plan_sources(plan)?
            .iter()
            .filter(|source| scratch.iter().any(|dir| source.target.starts_with(dir)))
            .map(|source| inside(root, &source.target))
            .collect();
        keep.extend(dirs.iter().skip(1).map(|(at, _)| at.clone()));
        Ok(Scratch { dirs, keep })
    }

    /// The scratch tmpfs mounts, as the init sees them: what they hold is
    /// the run's memory.
    pub(super) fn mounts(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|(at, _)| at.clone()).collect()
    }

    /// Empties the scratch space of a run that is over (every process of
    /// it gone) for the next run of the same plan: what it wrote goes, and
    /// the memory that held it with it, before the next run's cgroup counts
    /// anything. `Err` when the space is not as it was made (a run changed
    /// a directory's mode, owner or extended attributes): then the sandbox
    /// is not used again. The rest of the root is read-only to every run,
    /// and no run may mount or unmount (it has no capability), so the root
    /// is then as its first run found it.
    pub(super) fn empty(&self) -> Result<(), Failure> {
        for (at, looks) in &self.dirs {
            empty_dir(at, &self.keep)
                .map_err(|e| Failure::io(Stage::Filesystem, &format!("{}", at.display()), &e))?;
            if Looks::of(at)? != *looks {
                return Err(Failure::new(
                    Stage::Filesystem,
                    format!(
                        "{}: its mode, owner or extended attributes changed",
                        at.display()
                    ),
                    0,
                ));
            }
        }
        Ok(())
    }
}

/// Removes everything in `dir` but the mount points in `keep` (and the
/// directories that lead to them, emptied of all else). Links are
/// removed, never followed: the init sees the host's files where a link
/// made by a run would lead.
fn empty_dir(dir: &Path, keep: &[PathBuf]) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if keep.contains(&path) {
            continue;
        }
        if keep.iter().any(|kept| kept.starts_with(&path)) {
            // The way to a mount point is a directory the init made; a run
            // that put something else in its place cannot be undone here.
            if !kind.is_dir() {
                return Err(io::Error::other(format!(
                    "{} is no longer the directory it was",
                    path.display()
                )));
            }
            empty_dir(&path, keep)?;
            continue;
        }
        if kind.is_dir() {
            fs::remove_dir_all(&path)?;
        } else {
            fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Makes the run's root read-only, now that it is built: its own mount of
/// the base, not the base itself, which the spawner and other runs share.
pub(super) fn seal_root(root: &Path) -> Result<(), Failure> {
    mount(
        None::<&str>,
        root,
        None::<&str>,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        None::<&str>,
    )
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot make the root read-only", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emptying_scratch_keeps_its_mount_points_and_never_follows_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let (scratch, outside) = (tmp.path().join("scratch"), tmp.path().join("outside"));
        fs::create_dir_all(scratch.join("a/b")).unwrap();
        fs::create_dir_all(scratch.join("left/deep")).unwrap();
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("precious"), "the user's").unwrap();
        fs::write(scratch.join("a/b/prog"), "bound here").unwrap();
        fs::write(scratch.join("a/note"), "").unwrap();
        fs::write(scratch.join("left/deep/file"), "").unwrap();
        std::os::unix::fs::symlink(&outside, scratch.join("link")).unwrap();
        let keep = [scratch.join("a/b/prog")];
        empty_dir(&scratch, &keep).unwrap();
        let mut left: Vec<_> = walkdir::WalkDir::new(&scratch)
            .min_depth(1)
            .into_iter()
            .map(|e| {
                e.unwrap()
                    .path()
                    .strip_prefix(&scratch)
                    .unwrap()
                    .to_path_buf()
            })
            .collect();
        left.sort();
        assert_eq!(
            left,
            [Path::new("a"), Path::new("a/b"), Path::new("a/b/prog")]
        );
        assert!(outside.join("precious").exists());
        // A link put where the way to a mount point was: refused, and what
        // it leads to is untouched.
        fs::rename(scratch.join("a"), tmp.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&outside, scratch.join("a")).unwrap();
        assert!(empty_dir(&scratch, &keep).is_err());
        assert!(outside.join("precious").exists());
    }
}
