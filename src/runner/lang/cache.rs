//! The build cache's size: how much one build may write, how much the
//! whole cache may hold, which builds go when it is full, and what
//! `sudoku-judge cache` shows and clears.
//!
//! A compile runs code of the submission's (a C++ `#include`, Racket's
//! `begin-for-syntax`, a Rust build script) with the build directory as
//! its working directory, on the user's disk. So a build is held to a
//! size: `RLIMIT_FSIZE` on each file the compile writes, and the
//! directory itself watched while it compiles and measured once it is
//! done; one that passes the cap is a compile error and is removed
//! ([`CacheLimits::build_bytes`]). The cache as a whole is held to a cap too
//! ([`CacheLimits::total_bytes`]): past it, the builds used least recently are
//! removed after each new build ([`trim`]).
//!
//! A build in use is never removed: a judge that uses one holds a shared
//! `flock` on its directory until it exits ([`hold`]), and removal takes
//! the lock exclusively, without waiting, skipping the builds it cannot
//! lock. (Windows cannot lock a directory: there the lock is on its
//! `.built` file, with the same meaning.) A build's last use is the modification time of its `.built`
//! file, touched at each use.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context as _};
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

pub(super) use super::held::{hold, lock, remove_tree, Held, BUILT};
use super::held::{lock_for_removal, remove_unheld};

/// The cache's cap when none is set: builds are a few MB each (a Kotlin
/// or Rust build the largest), so this keeps hundreds.
const DEFAULT_TOTAL: u64 = 2 << 30;

/// One build's cap when none is set: far above what any compiler here
/// writes for one file (under 20 MB), and the size of a compile's `/tmp`.
const DEFAULT_BUILD: u64 = 256 << 20;

/// The environment variables that set the caps, over the user's config.
pub(crate) const TOTAL_VARIABLE: &str = "SUDOKU_JUDGE_CACHE_MAX";
pub(crate) const BUILD_VARIABLE: &str = "SUDOKU_JUDGE_BUILD_MAX";

/// Each file and directory counts at least this much, as the inode and
/// directory entry it takes: a compile that makes a million empty files
/// fills the disk's inodes, not its blocks.
const ENTRY_BYTES: u64 = 512;

/// `[cache]` in the user's `config.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CacheConfig {
    /// The whole cache's cap, e.g. `"2G"`.
    max: Option<String>,
    /// One build's cap, e.g. `"256M"`.
    build_max: Option<String>,
}

/// The config file as far as the cache reads it.
#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    cache: CacheConfig,
}

/// How much the cache and one build may hold, and where each figure came
/// from (for `sudoku-judge cache`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CacheLimits {
    pub(crate) total_bytes: u64,
    pub(crate) total_from: String,
    /// At most `total_bytes`.
    pub(crate) build_bytes: u64,
    pub(crate) build_from: String,
}

/// A size as written in the environment or the config: `2G`, `500M`.
fn parse_bytes(text: &str, from: &str) -> anyhow::Result<u64> {
    let bytes = parse_size::Config::new()
        .with_binary()
        .parse_size(text.trim())
        .map_err(|e| {
            anyhow::anyhow!(
                "{from} is `{text}`, which is not a size ({e}); write it like `2G` or `500M`"
            )
        })?;
    if bytes < 1 << 20 {
        bail!("{from} is `{text}`, less than 1M, which no build fits in; give at least 1M");
    }
    Ok(bytes)
}

/// A cache key: the first `bytes` bytes of `hasher`'s digest, in hex.
pub(super) fn key(hasher: Sha256, bytes: usize) -> String {
    hasher
        .finalize()
        .iter()
        .take(bytes)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The user's configuration file: `$XDG_CONFIG_HOME/sudoku-judge/config.toml`
/// (`~/.config/sudoku-judge/config.toml`), which says the cache's caps
/// (`[cache]`) and the toolchains to use.
pub(crate) fn user_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|dir| dir.join("sudoku-judge").join("config.toml"))
}

/// The user's configuration file and its text, `None` when there is none.
pub(super) fn user_config() -> anyhow::Result<Option<(PathBuf, String)>> {
    let Some(path) = user_config_path() else {
        return Ok(None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some((path, text))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).with_context(|| format!("failed to read {}", path.display())),
    }
}

impl CacheLimits {
    /// The caps: each from its environment variable, else the user's
    /// `config.toml` (`[cache]`), else the default.
    pub(crate) fn current() -> anyhow::Result<CacheLimits> {
        let config: Config = match user_config()? {
            Some((path, text)) => toml::from_str(&text)
                .map_err(crate::case::settings::toml_error)
                .with_context(|| format!("invalid {}", path.display()))?,
            None => Config::default(),
        };
        let config_name = user_config_path().map_or_else(
            || "config.toml".to_string(),
            |path| path.display().to_string(),
        );
        let pick = |variable: &str, configured: &Option<String>, key: &str, default: u64| {
            if let Some(value) = std::env::var_os(variable) {
                let value = value.to_string_lossy().into_owned();
                return parse_bytes(&value, variable).map(|bytes| (bytes, variable.to_string()));
            }
            if let Some(value) = configured {
                let from = format!("[cache] {key} in {config_name}");
                return parse_bytes(value, &from).map(|bytes| (bytes, from));
            }
            Ok((default, "the default".to_string()))
        };
        let (total_bytes, total_from) =
            pick(TOTAL_VARIABLE, &config.cache.max, "max", DEFAULT_TOTAL)?;
        let (build_bytes, build_from) = pick(
            BUILD_VARIABLE,
            &config.cache.build_max,
            "build_max",
            DEFAULT_BUILD,
        )?;
        // A build never gets more than the whole cache.
        let (build_bytes, build_from) = if build_bytes > total_bytes {
            (total_bytes, total_from.clone())
        } else {
            (build_bytes, build_from)
        };
        Ok(CacheLimits {
            total_bytes,
            total_from,
            build_bytes,
            build_from,
        })
    }
}

/// A size in words, as the caps are written: `4 MB`, `2 GB`, `1.5 MB`.
pub(crate) fn size_words(bytes: u64) -> String {
    const MB: u64 = 1 << 20;
    const GB: u64 = 1 << 30;
    if bytes >= GB && bytes.is_multiple_of(GB) {
        format!("{} GB", bytes / GB)
    } else if bytes >= 100 * MB || (bytes >= MB && bytes.is_multiple_of(MB)) {
        format!("{} MB", bytes / MB)
    } else if bytes >= MB / 10 {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// What a file's blocks take on disk, where the system says.
#[cfg(unix)]
fn blocks_bytes(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt as _;
    meta.blocks() * 512
}

#[cfg(not(unix))]
fn blocks_bytes(_meta: &std::fs::Metadata) -> u64 {
    0
}

/// How much `path` takes on disk: each file and directory under it (links
/// not followed) at its size or its blocks, whichever is more (a sparse
/// file counts at its size, which a copy would make real), and at least
/// [`ENTRY_BYTES`]. Stops counting once past `stop_above`, if given.
pub(crate) fn usage(path: &Path, stop_above: Option<u64>) -> u64 {
    let mut total = 0u64;
    for entry in walkdir::WalkDir::new(path).into_iter().flatten() {
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        total = total.saturating_add(meta.len().max(blocks_bytes(&meta)).max(ENTRY_BYTES));
        if stop_above.is_some_and(|cap| total > cap) {
            break;
        }
    }
    total
}

/// What the cache root holds, one entry each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) kind: EntryKind,
    pub(crate) bytes: u64,
    /// When a build was last used.
    pub(crate) used: Option<SystemTime>,
    /// A judge running now holds it.
    pub(crate) in_use: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum EntryKind {
    /// A finished build.
    Build,
    /// A compiler's own cache, filled once (`.compiler-caches`).
    CompilerCaches,
    /// Compilers' versions, kept so they are asked once (`.versions`).
    Versions,
    /// A build going on, or one a judge left unfinished when it was
    /// killed.
    Unfinished,
    /// Anything else.
    Other,
}

fn kind_of(name: &str, dir: &Path) -> EntryKind {
    match name {
        ".compiler-caches" => EntryKind::CompilerCaches,
        ".versions" => EntryKind::Versions,
        _ if name.starts_with(".building-")
            || name.starts_with(".filling-")
            || name.starts_with(".removing-") =>
        {
            EntryKind::Unfinished
        }
        _ if !name.starts_with('.') && dir.join(BUILT).is_file() => EntryKind::Build,
        _ => EntryKind::Other,
    }
}

/// Everything under `root`, builds last used first.
pub(crate) fn entries(root: &Path) -> Vec<Entry> {
    let mut entries: Vec<Entry> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let path = entry.path();
            let kind = kind_of(&name, &path);
            let used = (kind == EntryKind::Build)
                .then(|| {
                    std::fs::metadata(path.join(BUILT))
                        .and_then(|m| m.modified())
                        .ok()
                })
                .flatten();
            let in_use = matches!(kind, EntryKind::Build | EntryKind::Unfinished)
                && lock_for_removal(&path).is_none();
            Some(Entry {
                bytes: usage(&path, None),
                name,
                kind,
                used,
                in_use,
            })
        })
        .collect();
    entries.sort_by(|a, b| {
        a.kind
            .cmp(&b.kind)
            .then(b.used.cmp(&a.used))
            .then(a.name.cmp(&b.name))
    });
    entries
}

/// Removes the builds used least recently until the cache under `root`
/// is within `limits` again, and what killed judges left unfinished; a
/// build in use is never removed. Returns the bytes removed.
pub(crate) fn trim(root: &Path, limits: &CacheLimits) -> u64 {
    let entries = entries(root);
    let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
    // A build left by a judge that was killed is held by no one; a
    // compiler cache being filled holds no lock of this kind.
    let unfinished = entries.iter().filter(|e| {
        e.kind == EntryKind::Unfinished && !e.in_use && !e.name.starts_with(".filling-")
    });
    let mut builds: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Build && !e.in_use)
        .collect();
    builds.sort_by_key(|e| e.used);
    let mut removed = 0;
    for entry in unfinished.chain(builds) {
        if entry.kind == EntryKind::Build && total <= limits.total_bytes {
            break;
        }
        if remove_unheld(root, &root.join(&entry.name)) {
            total = total.saturating_sub(entry.bytes);
            removed += entry.bytes;
        }
    }
    removed
}

/// What `sudoku-judge cache clear` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cleared {
    pub(crate) entries: usize,
    pub(crate) bytes: u64,
    /// Builds left because a judge running now uses them.
    pub(crate) in_use: usize,
}

/// Removes everything under `root` but the builds judges running now use.
pub(crate) fn clear(root: &Path) -> Cleared {
    let mut cleared = Cleared::default();
    for entry in entries(root) {
        let path = root.join(&entry.name);
        let gone = match entry.kind {
            EntryKind::Build | EntryKind::Unfinished => remove_unheld(root, &path),
            _ if path.is_dir() => remove_tree(&path).is_ok(),
            _ => std::fs::remove_file(&path).is_ok(),
        };
        if gone {
            cleared.entries += 1;
            cleared.bytes += entry.bytes;
        } else if entry.in_use {
            cleared.in_use += 1;
        }
    }
    cleared
}

/// How long ago `time` was, in words: `3 min ago`.
pub(crate) fn ago(time: SystemTime) -> String {
    let elapsed = SystemTime::now()
        .duration_since(time)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    match elapsed {
        0..60 => "just now".to_string(),
        60..3600 => format!("{} min ago", elapsed / 60),
        3600..86_400 => format!("{} h ago", elapsed / 3600),
        _ => format!("{} days ago", elapsed / 86_400),
    }
}

/// The cache's place and what it holds, for `sudoku-judge cache`.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    pub(crate) root: PathBuf,
    /// Where the place came from: `SUDOKU_JUDGE_CACHE`, or the default.
    pub(crate) root_from: &'static str,
    pub(crate) limits: CacheLimits,
    pub(crate) entries: Vec<Entry>,
}

/// The cache as it stands.
pub(crate) fn summary() -> anyhow::Result<Summary> {
    let root = crate::runner::places::cache_root();
    Ok(Summary {
        root_from: if std::env::var_os("SUDOKU_JUDGE_CACHE").is_some() {
            "SUDOKU_JUDGE_CACHE"
        } else {
            "the default"
        },
        entries: entries(&root),
        limits: CacheLimits::current()?,
        root,
    })
}

#[cfg(test)]
mod tests {
    use std::fs::File;

    use super::*;

    fn build(root: &Path, name: &str, bytes: usize, used_secs_ago: u64) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.out"), vec![7u8; bytes]).unwrap();
        let built = File::create(dir.join(BUILT)).unwrap();
        built
            .set_modified(SystemTime::now() - Duration::from_secs(used_secs_ago))
            .unwrap();
        dir
    }

    fn limits(total: u64) -> CacheLimits {
        CacheLimits {
            total_bytes: total,
            total_from: "test".into(),
            build_bytes: total,
            build_from: "test".into(),
        }
    }

    #[test]
    fn the_builds_used_least_recently_go_first_and_one_in_use_never() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let oldest = build(root, "old-cpp-1", 1 << 20, 3000);
        let held = build(root, "held-cpp-2", 1 << 20, 2000);
        let newer = build(root, "new-cpp-3", 1 << 20, 10);
        let newest = build(root, "newest-cpp-4", 1 << 20, 0);
        assert!(hold(&held));
        // Room for two builds and a little: the two oldest would go, but
        // the held one stays, so the next oldest goes instead.
        trim(root, &limits((2 << 20) + (200 << 10)));
        assert!(!oldest.exists());
        assert!(held.exists(), "held by this judge");
        assert!(!newer.exists());
        assert!(newest.exists());
        // Nothing is left of what was removed; the held build, touched
        // when it was held, is the one used last.
        let names: Vec<String> = entries(root).into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["held-cpp-2", "newest-cpp-4"]);
        // Holding touched it: it is now the most recent.
        let used = std::fs::metadata(held.join(BUILT))
            .unwrap()
            .modified()
            .unwrap();
        assert!(SystemTime::now().duration_since(used).unwrap() < Duration::from_secs(60));
    }

    #[test]
    fn clearing_leaves_only_what_is_in_use() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let held = build(root, "held-cpp-1", 1000, 0);
        build(root, "free-cpp-2", 1000, 0);
        std::fs::create_dir_all(root.join(".versions")).unwrap();
        std::fs::write(root.join(".versions/abc"), "g++ 12").unwrap();
        let abandoned = root.join(".building-xyz");
        std::fs::create_dir(&abandoned).unwrap();
        std::fs::write(abandoned.join("big"), "x").unwrap();
        assert!(hold(&held));
        let cleared = clear(root);
        assert_eq!(cleared.entries, 3, "{cleared:?}");
        assert_eq!(cleared.in_use, 1);
        let names: Vec<String> = entries(root).into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["held-cpp-1"]);
    }

    #[test]
    fn usage_counts_sparse_files_at_their_size_and_stops_early() {
        let tmp = tempfile::tempdir().unwrap();
        let sparse = File::create(tmp.path().join("sparse")).unwrap();
        sparse.set_len(64 << 20).unwrap();
        assert!(usage(tmp.path(), None) >= 64 << 20);
        for n in 0..100 {
            std::fs::write(tmp.path().join(format!("f{n}")), "").unwrap();
        }
        // Empty files count as the entries they are.
        assert!(usage(tmp.path(), None) >= (64 << 20) + 100 * ENTRY_BYTES);
        assert!(usage(tmp.path(), Some(1 << 20)) < 100 << 20);
    }

    #[test]
    fn sizes_are_read_and_said_as_written() {
        assert_eq!(parse_bytes("2G", "x").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("4M", "x").unwrap(), 4 << 20);
        let error = parse_bytes("lots", "SUDOKU_JUDGE_CACHE_MAX")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("SUDOKU_JUDGE_CACHE_MAX is `lots`, which is not a size"),
            "{error}"
        );
        assert!(parse_bytes("10K", "x").is_err());
        assert_eq!(size_words(4 << 20), "4 MB");
        assert_eq!(size_words(2 << 30), "2 GB");
        assert_eq!(size_words(1536 << 10), "1.5 MB");
        assert_eq!(size_words(2048), "2 KB");
    }
}
