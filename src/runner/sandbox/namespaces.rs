//! The spawner's own namespaces, made once: a user namespace when the
//! judge is not root, then mount, network and UTS namespaces.

use std::fs;
use std::io;

use nix::mount::{mount, MsFlags};
use nix::sched::CloneFlags;
use nix::unistd::{Gid, Uid};

/// The spawner's own namespaces: user (when not root), mount, network, UTS.
pub(super) fn make_namespaces(root: bool) -> Result<(), String> {
    let (uid, gid) = (Uid::current(), Gid::current());
    let mut flags = CloneFlags::CLONE_NEWNS | CloneFlags::CLONE_NEWNET | CloneFlags::CLONE_NEWUTS;
    if !root {
        flags |= CloneFlags::CLONE_NEWUSER;
    }
    nix::sched::unshare(flags).map_err(|e| {
        format!(
            "the kernel refused new namespaces ({}){}",
            e.desc(),
            if root {
                ""
            } else {
                "; unprivileged user namespaces may be disabled (sysctl \
                 kernel.unprivileged_userns_clone, or an AppArmor policy)"
            }
        )
    })?;
    if !root {
        // The same ids inside as outside: files keep their owners.
        let write = |file: &str, text: String| {
            fs::write(file, text).map_err(|e| format!("cannot write {file}: {e}"))
        };
        write("/proc/self/setgroups", "deny".into())?;
        write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
        write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    }
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(|e| format!("cannot make the mounts private: {}", e.desc()))?;
    let _ = nix::unistd::sethostname("sudoku-judge");
    Ok(())
}

/// Brings up the network namespace's loopback.
pub(super) fn loopback_up() -> io::Result<()> {
    crate::runner::sys::interface_up(c"lo")
}
