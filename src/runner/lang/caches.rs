//! A compiler's cache of its own. zig (`zig c++`, a current clang with
//! libc++) builds libc++ and its runtime on first use, for minutes, and
//! keeps them in a global cache, where every later compile links them.
//!
//! A compile in the sandbox may write only its build directory, and a
//! cache that every compile could write would let one submission's
//! compile change what later builds link. So the judge fills the cache
//! once, outside the sandbox, by building its own self-test with the
//! judge's flags (its own program, as trusted as asking the compiler its
//! version); each compile of a submission then gets a copy of it in its
//! build directory, which is removed when the compile ends. The filled
//! cache is never written by a submission's compile. A cache that is only
//! read will not do: zig writes its manifests even when nothing is
//! rebuilt.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context as _;
use sha2::{Digest as _, Sha256};

use super::build::{announce_after, announced, cache_key, Announce};
use super::{tools, Spec, Toolchain};

fn short_hash(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
        hasher.update("\n");
    }
    cache_key(hasher, 8)
}

/// The filled cache of `toolchain`'s compiler for `flags`: filled now if
/// it is not yet, by building `spec`'s self-test as `chosen` builds.
pub(super) fn warm(
    spec: &Spec,
    toolchain: &Toolchain,
    chosen: &tools::Chosen,
    flags: &[&str],
    announce: Option<&Announce>,
) -> anyhow::Result<PathBuf> {
    let program = &toolchain.programs[0];
    let identity = tools::identity(program);
    let dir = super::cache_root()
        .join(".compiler-caches")
        .join(short_hash(&[&identity]));
    let flags_key = short_hash(&[&chosen.args.join(" "), &flags.join(" ")]);
    let filled = dir.join(format!(".filled-{flags_key}"));
    if filled.is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("failed to create the compiler cache {}", dir.display()))?;
    // Compiles that find the cache cold at once (`--jobs 2`, or two
    // judges): one fills it, the others wait and find it filled.
    let lock_path = dir.with_extension("lock");
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("failed to create {}", lock_path.display()))?;
    let _filling = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| anyhow::anyhow!("failed to lock {}: {e}", lock_path.display()))?;
    if filled.is_file() {
        return Ok(dir);
    }
    let scratch = tempfile::Builder::new()
        .prefix(".filling-")
        .tempdir_in(super::cache_root())
        .context("failed to create a directory for the compiler's self-test")?;
    let source = format!("self-test.{}", spec.extensions[0]);
    std::fs::write(scratch.path().join(&source), spec.self_test)
        .context("failed to write the compiler's self-test")?;
    let guard = announce_after(
        announce,
        format!(
            "{} builds its C++ library once, into {} (minutes) ...",
            chosen.name,
            dir.display()
        ),
    );
    let mut command = Command::new(program);
    command
        .args(&chosen.args)
        .args(flags)
        .args(["-o", "self-test", &source])
        .current_dir(scratch.path())
        .stdin(Stdio::null());
    for variable in toolchain.caches {
        command.env(variable, &dir);
    }
    let output = command.output();
    announced(guard);
    let output = output.with_context(|| format!("failed to start {}", program.display()))?;
    anyhow::ensure!(
        output.status.success(),
        "{} could not build sudoku-judge's self-test into its cache {}: {}",
        chosen.name,
        dir.display(),
        String::from_utf8_lossy(&output.stderr).trim_end()
    );
    std::fs::write(&filled, "").with_context(|| format!("failed to write {}", filled.display()))?;
    Ok(dir)
}

/// Copies the filled cache `from` to `to`, a compile's own.
pub(super) fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.with_context(|| format!("failed to read {}", from.display()))?;
        let Ok(relative) = entry.path().strip_prefix(from) else {
            continue;
        };
        let target = to.join(relative);
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target)
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).map(drop)
        } else {
            continue;
        }
        .with_context(|| format!("failed to copy the compiler cache to {}", target.display()))?;
    }
    Ok(())
}
