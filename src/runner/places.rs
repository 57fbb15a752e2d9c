//! Where the judge keeps its own files: the build cache, its data (the
//! shipped suites written out, with their expected answers, and the
//! records of consent), its configuration, and the records of a working
//! directory (`.sudoku-judge/`). No run may see them whole: a submission
//! that could read the shipped answers would be accepted without solving
//! anything. The sandbox refuses to show a run any path that holds one of
//! them ([`holds_own_files`]); a path inside the build cache (a build, a
//! suite's programs copied) is the judge's to show.

use std::path::{Path, PathBuf};

/// Where builds are cached: `$SUDOKU_JUDGE_CACHE`, else the user's cache
/// directory (`~/.cache/sudoku-judge` on Linux).
pub(crate) fn cache_root() -> PathBuf {
    std::env::var_os("SUDOKU_JUDGE_CACHE")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("sudoku-judge")))
        .unwrap_or_else(|| std::env::temp_dir().join("sudoku-judge-cache"))
}

/// The judge's own directories, as this user's environment places them.
pub(crate) fn own_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = [dirs::data_dir(), dirs::config_dir(), dirs::cache_dir()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("sudoku-judge"))
        .collect();
    dirs.push(cache_root());
    if let Ok(records) = crate::case::trust::records_dir() {
        dirs.push(records);
    }
    // The working directory's records (`state::STATE_DIR`; not imported:
    // `state` uses the runner's system calls).
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(cwd.join(".sudoku-judge"));
    }
    // As they are, and with their links resolved, as a bind resolves them.
    let resolved: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|dir| std::fs::canonicalize(dir).ok())
        .collect();
    dirs.extend(resolved);
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The first of `own` that a run shown `path` (and everything under it)
/// would see: one at `path` or under it, or, for the data, configuration
/// and records, `path` inside one. A path inside the build cache (a
/// build, a suite's programs copied) is not one.
pub(crate) fn holds_own_files<'a>(path: &Path, own: &'a [PathBuf]) -> Option<&'a PathBuf> {
    let cache = cache_root();
    let cache_real = std::fs::canonicalize(&cache).ok();
    let real = std::fs::canonicalize(path).ok();
    own.iter().find(|dir| {
        let is_cache = **dir == cache || cache_real.as_ref() == Some(*dir);
        [Some(path), real.as_deref()]
            .into_iter()
            .flatten()
            .any(|p| dir.starts_with(p) || (!is_cache && p.starts_with(dir.as_path())))
    })
}

/// Refuses a build cache that another user owns or every user may write:
/// whoever can change a build there decides what is judged.
#[cfg(unix)]
pub(crate) fn ensure_own_cache(root: &Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(root)
        .with_context(|| format!("failed to read the build cache {}", root.display()))?;
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me || meta.mode() & 0o002 != 0 {
        anyhow::bail!(
            "the build cache {} {}, so builds there could be changed by another user; set \
             SUDOKU_JUDGE_CACHE to a directory of your own",
            root.display(),
            if meta.uid() != me {
                format!("belongs to uid {}, not to you (uid {me})", meta.uid())
            } else {
                "is writable by every user".to_string()
            }
        );
    }
    Ok(())
}

/// Windows: a directory's owner and who may write to it are its access
/// list's, which the judge does not read; the cache is under the user's
/// own profile unless `SUDOKU_JUDGE_CACHE` says otherwise.
#[cfg(not(unix))]
pub(crate) fn ensure_own_cache(_root: &Path) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_holds_the_judges_files_is_told_and_a_build_is_not() {
        let own = vec![
            PathBuf::from("/home/ana/.local/share/sudoku-judge"),
            cache_root(),
        ];
        assert!(holds_own_files(Path::new("/home/ana/.local"), &own).is_some());
        assert!(holds_own_files(Path::new("/home/ana"), &own).is_some());
        assert!(
            holds_own_files(Path::new("/home/ana/.local/share/sudoku-judge/trust"), &own).is_some()
        );
        assert!(holds_own_files(Path::new("/home/ana/.local/bin/python3"), &own).is_none());
        assert!(holds_own_files(&cache_root().join("abc/a.out"), &own).is_none());
        assert!(holds_own_files(cache_root().parent().unwrap(), &own).is_some());
    }
}
