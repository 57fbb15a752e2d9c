//! A compiler's cache of its own. zig (`zig c++`, a current clang with
//! libc++) builds libc++ and its runtime on first use, for minutes, and
//! keeps them in a global cache, where every later compile links them.
//!
//! A compile in the sandbox may write only its build directory, and a
//! cache that every compile could write would let one submission's
//! compile change what later builds link. So the judge fills the cache
//! once, by building its own self-test with the judge's flags, and each
//! compile of a submission then gets a copy of it in its build directory,
//! which is removed when the compile ends. The filled cache is never
//! written by a submission's compile. A cache that is only read will not
//! do: zig writes its manifests even when nothing is rebuilt.
//!
//! The fill is itself a sandboxed compile, as every run of a toolchain
//! is (the compiler may be a suite's): the cache is made in the build
//! directory of that compile, the only place it may write, and moved into
//! place when the self-test is built. It is held to the compile's memory
//! and process limits, with more time ([`FILL_CPU`]): building libc++
//! takes minutes of CPU.

use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;
use sha2::{Digest as _, Sha256};

use super::announce::{announce_after, announced, Announce};
use super::cache::key as cache_key;
use super::plan::Planned;
use super::tools;

/// The CPU time a cache's first fill may take: zig's libc++ took about 2
/// minutes of CPU on the machine it was measured on, 3 to 5 minutes of
/// wall time on a busy one; five times that is a fill that will not end.
const FILL_CPU: Duration = Duration::from_secs(600);

fn short_hash(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
        hasher.update("\n");
    }
    cache_key(hasher, 8)
}

/// Makes `into` (a compile's own cache) a copy of the filled cache of the
/// compiler `planned` builds with, for its flags, filling that first, if
/// it is not yet, by building its language's self-test as it builds.
pub(super) fn prepare(
    planned: &Planned,
    announce: Option<&Announce>,
    into: &Path,
) -> anyhow::Result<()> {
    let identity = tools::identity(&planned.toolchain.programs[0]);
    let dir = crate::runner::places::cache_root()
        .join(".compiler-caches")
        .join(short_hash(&[&identity]));
    let chosen_args = planned.chosen[0].args.join(" ");
    let flags_key = short_hash(&[&chosen_args, &planned.flags.join(" ")]);
    let filled = dir.join(format!(".filled-{flags_key}"));
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("failed to create the compiler cache {}", parent.display()))?;
    // Compiles that find the cache cold at once (`--jobs 2`, or two
    // judges): one fills it, the others wait and find it filled. The copy
    // is made under the lock too, so no fill replaces the cache under it.
    let lock_path = dir.with_extension("lock");
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("failed to create {}", lock_path.display()))?;
    lock.lock()
        .with_context(|| format!("failed to lock {}", lock_path.display()))?;
    if !filled.is_file() {
        fill(planned, announce, &dir, &flags_key)?;
    }
    copy(&dir, into)
}

/// Fills the cache `dir` for the flags of `flags_key`: a sandboxed
/// compile of the self-test whose build directory holds a copy of the
/// cache as it is, which replaces it when the compile succeeds.
fn fill(
    planned: &Planned,
    announce: Option<&Announce>,
    dir: &Path,
    flags_key: &str,
) -> anyhow::Result<()> {
    let Planned {
        spec,
        toolchain,
        chosen,
        flags,
        ..
    } = planned;
    let chosen = &chosen[0];
    let scratch = tempfile::Builder::new()
        .prefix(".filling-")
        .tempdir_in(crate::runner::places::cache_root())
        .context("failed to create a directory for the compiler's self-test")?;
    let cache = scratch.path().join("cache");
    if dir.is_dir() {
        // What other flags filled stays.
        copy(dir, &cache)?;
    } else {
        std::fs::create_dir(&cache)
            .with_context(|| format!("failed to create {}", cache.display()))?;
    }
    let source = format!("self-test.{}", spec.extensions[0]);
    std::fs::write(scratch.path().join(&source), spec.self_test)
        .context("failed to write the compiler's self-test")?;
    let mut argv = vec![toolchain.programs[0].display().to_string()];
    argv.extend(chosen.args.iter().cloned());
    argv.extend(flags.iter().map(|f| f.to_string()));
    argv.extend(["-o".into(), "self-test".into(), source]);
    let cache_text = cache.display().to_string();
    let env: Vec<(&str, &str)> = toolchain
        .caches
        .iter()
        .map(|variable| (*variable, cache_text.as_str()))
        .collect();
    let guard = announce_after(
        announce,
        format!(
            "{} builds its C++ library once, into {} (minutes) ...",
            chosen.name,
            dir.display()
        ),
    );
    let cap = super::compile::SizeCap {
        before: 0,
        bytes: super::cache::CacheLimits::current()?.total_bytes,
    };
    let built = super::compile::run_compiler(
        &argv,
        scratch.path(),
        toolchain,
        &env,
        spec.native,
        FILL_CPU,
        // Its library is what a fill writes: far more than a build, held
        // to what the whole cache may hold.
        cap,
    );
    announced(guard);
    if let Err(message) = built? {
        anyhow::bail!(
            "{} could not build sudoku-judge's self-test into its cache {}: {}",
            chosen.name,
            dir.display(),
            message.trim_end()
        );
    }
    let marker = cache.join(format!(".filled-{flags_key}"));
    std::fs::write(&marker, "").with_context(|| format!("failed to write {}", marker.display()))?;
    // The old cache goes aside into the scratch directory, removed with
    // it; the new one takes its name.
    if dir.exists() {
        std::fs::rename(dir, scratch.path().join("replaced"))
            .with_context(|| format!("failed to replace the compiler cache {}", dir.display()))?;
    }
    std::fs::rename(&cache, dir)
        .with_context(|| format!("failed to move the compiler cache into {}", dir.display()))
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
