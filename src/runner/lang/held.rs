//! Which builds are in use: a judge that uses a build holds a shared lock
//! on it until it exits ([`hold`]), and the cache's trimming and clearing
//! take the lock exclusively, without waiting, skipping the builds they
//! cannot lock ([`remove_unheld`]). On Unix the lock is a `flock` on the
//! build's directory; Windows cannot lock a directory, so there it is on
//! a `.lock` file in it, made by the first to lock it, with the same
//! meaning (a build under way holds it from the start).

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

#[cfg(unix)]
use nix::fcntl::{Flock, FlockArg};

/// What marks a build directory as finished; its modification time is the
/// build's last use.
pub(super) const BUILT: &str = ".built";

/// A build locked: its directory on Unix (`flock`), on Windows, where a
/// directory cannot be locked, a file in it that stands for it (`.lock`).
#[cfg(unix)]
pub(super) type Held = Flock<File>;
#[cfg(not(unix))]
pub(super) type Held = File;

/// The builds this judge uses, held until it exits (see [`hold`]).
static HELD: Mutex<Vec<Held>> = Mutex::new(Vec::new());

/// Locks the build `dir`, shared (waiting for a removal to finish) or
/// exclusive (not waiting): `None` when that cannot be had now.
#[cfg(unix)]
pub(super) fn lock(dir: &Path, shared: bool) -> Option<Held> {
    let how = if shared {
        FlockArg::LockShared
    } else {
        FlockArg::LockExclusiveNonblock
    };
    Flock::lock(File::open(dir).ok()?, how).ok()
}

/// The file that stands for its directory in a lock on Windows, made by
/// the first to lock it: a build under way holds it from the start, as
/// its directory is held on Unix, so a build a judge left unfinished when
/// it was killed is told from one going on, and removed.
#[cfg(not(unix))]
const LOCK: &str = ".lock";

#[cfg(not(unix))]
pub(super) fn lock(dir: &Path, shared: bool) -> Option<Held> {
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK))
        .ok()?;
    if shared {
        file.lock_shared().ok()?;
    } else {
        file.try_lock().ok()?;
    }
    Some(file)
}

/// Whether the build `held` is what `dir` names now: a removal renames a
/// build away before it deletes it.
#[cfg(unix)]
fn still_there(held: &Held, dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (held.metadata(), std::fs::metadata(dir)) {
        (Ok(held), Ok(now)) => held.dev() == now.dev() && held.ino() == now.ino(),
        _ => false,
    }
}

/// Windows renames no directory with a file open in it: the build held is
/// where it was.
#[cfg(not(unix))]
fn still_there(_held: &Held, dir: &Path) -> bool {
    dir.is_dir()
}

/// Marks the finished build `dir` as in use by this judge until it exits,
/// and as used now. False when it is gone, or was being removed (then it
/// is built again).
pub(super) fn hold(dir: &Path) -> bool {
    let Some(locked) = lock(dir, true) else {
        return false;
    };
    // What was locked must be what the path names now.
    let same = still_there(&locked, dir);
    let built = dir.join(BUILT);
    if !same || !built.is_file() {
        return false;
    }
    if let Ok(marker) = File::options().write(true).open(&built) {
        let _ = marker.set_modified(SystemTime::now());
    }
    HELD.lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(locked);
    true
}

/// Locks `dir` for removal: `None` when a judge holds it (or it is gone).
pub(super) fn lock_for_removal(dir: &Path) -> Option<Held> {
    lock(dir, false)
}

/// Removes `dir` if no judge holds it: renamed away under its lock (so a
/// judge that opens it meanwhile finds it gone), then deleted. Whether it
/// was removed.
pub(super) fn remove_unheld(root: &Path, dir: &Path) -> bool {
    let Some(lock) = lock_for_removal(dir) else {
        return false;
    };
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let away = root.join(format!(".removing-{name}-{:08x}", rand::random::<u32>()));
    // Windows renames no directory with a file open in it: the lock (on a
    // file inside) is let go first, and a judge that takes it meanwhile
    // keeps the directory where it is.
    let lock = cfg!(unix).then_some(lock);
    if std::fs::rename(dir, &away).is_err() {
        return false;
    }
    drop(lock);
    remove_tree(&away).is_ok()
}

/// Removes the tree at `path`, making its directories writable where a
/// compiler left them read-only (Go's module cache does). Nothing is
/// followed out of it.
pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(_) => {
            for entry in walkdir::WalkDir::new(path).into_iter().flatten() {
                if entry.file_type().is_dir() {
                    make_writable(entry.path());
                }
            }
            std::fs::remove_dir_all(path)
        }
    }
}

/// Lets its owner write in the directory `dir`, and delete from it.
fn make_writable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
    #[cfg(not(unix))]
    if let Ok(meta) = std::fs::metadata(dir) {
        let mut permissions = meta.permissions();
        #[expect(
            clippy::permissions_set_readonly_false,
            reason = "only the owner's write is asked for, in a tree being removed"
        )]
        permissions.set_readonly(false);
        let _ = std::fs::set_permissions(dir, permissions);
    }
}
