//! The suites shipped with sudoku-judge (the repository's `cases/`),
//! carried in the binary, so a judge installed with `cargo install` has
//! them too: `sudoku-judge test` finds them when there is no `cases/`
//! where it runs, and `sudoku-judge cases --out DIR` writes a copy to
//! edit or extend.
//!
//! Judging reads cases from files, so the shipped suites are written out
//! once per version of their content, into the user's data directory,
//! made whole in a directory of their own and then renamed into place:
//! a judge stopped half way never leaves half a suite to be read.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use include_dir::{include_dir, Dir, DirEntry};
use sha2::{Digest as _, Sha256};

static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cases");

/// Every shipped file, by its path under `cases/`, with its content.
pub fn files() -> Vec<(&'static Path, &'static [u8])> {
    fn walk(dir: &'static Dir<'static>, out: &mut Vec<(&'static Path, &'static [u8])>) {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(dir) => walk(dir, out),
                DirEntry::File(file) => out.push((file.path(), file.contents())),
            }
        }
    }
    let mut out = Vec::new();
    walk(&SHIPPED, &mut out);
    out.sort_by_key(|(path, _)| *path);
    out
}

/// The shipped suites' names (`acwing166`, `leetcode37`, ...), sorted.
pub(crate) fn suites() -> Vec<&'static str> {
    let mut names: Vec<&str> = SHIPPED
        .dirs()
        .filter_map(|dir| dir.path().to_str())
        .collect();
    names.sort_unstable();
    names
}

/// A short hash of everything shipped: a copy written out is named by it,
/// so a judge with other cases writes its own.
fn fingerprint() -> String {
    let mut hasher = Sha256::new();
    for (path, contents) in files() {
        hasher.update(path.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update((contents.len() as u64).to_le_bytes());
        hasher.update(contents);
    }
    hasher.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The shipped suites as files to judge: written out into the user's data
/// directory the first time (or the temporary directory, when there is no
/// data directory to write), and found there after.
pub(crate) fn on_disk() -> anyhow::Result<PathBuf> {
    let base = dirs::data_dir()
        .map(|dir| dir.join("sudoku-judge").join("shipped-cases"))
        .unwrap_or_else(|| std::env::temp_dir().join("sudoku-judge-shipped-cases"));
    let dir = base.join(format!("{}-{}", env!("CARGO_PKG_VERSION"), fingerprint()));
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&base)
        .with_context(|| format!("failed to create {}", base.display()))?;
    let making = tempfile::Builder::new()
        .prefix(".making-")
        .tempdir_in(&base)
        .with_context(|| format!("failed to write the shipped cases into {}", base.display()))?;
    write_all(making.path())?;
    std::fs::write(making.path().join(".complete"), "")
        .with_context(|| format!("failed to write the shipped cases into {}", base.display()))?;
    match std::fs::rename(making.path(), &dir) {
        Ok(()) => {
            // Renamed away: nothing is left for the guard to remove.
            let _ = making.keep();
            Ok(dir)
        }
        // Another judge wrote them meanwhile.
        Err(_) if dir.join(".complete").is_file() => Ok(dir),
        Err(error) => Err(error)
            .with_context(|| format!("failed to put the shipped cases at {}", dir.display())),
    }
}

/// Writes every shipped file under `dir` (made if missing), through the
/// file door ([`crate::files`]): no link found below `dir` is followed,
/// and no file there is replaced. One in the way (a file at a name, or a
/// link at a directory's) is an error naming it, before anything is
/// written.
pub(crate) fn write_all(dir: &Path) -> anyhow::Result<usize> {
    let files = files();
    let out = crate::files::Dir::open_given(dir)?;
    // All or nothing: no file is written where one would be refused.
    for (path, _) in &files {
        out.ensure_free(path).map_err(|e| {
            anyhow::anyhow!("{e:#}, so nothing was written: give a new or empty directory")
        })?;
    }
    for (path, contents) in &files {
        out.create_at(path, contents)?;
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_carries_every_shipped_file_as_it_is_in_the_repository() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
        let on_disk: Vec<PathBuf> = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.path().strip_prefix(&root).unwrap().to_path_buf())
            .collect();
        let carried: Vec<PathBuf> = files().iter().map(|(p, _)| p.to_path_buf()).collect();
        let mut on_disk_sorted = on_disk.clone();
        on_disk_sorted.sort();
        assert_eq!(carried, on_disk_sorted);
        for (path, contents) in files() {
            assert_eq!(
                std::fs::read(root.join(path)).unwrap(),
                contents,
                "{path:?}"
            );
        }
        assert_eq!(
            suites(),
            ["acwing166", "formats", "leetcode37", "leetcode37-hard"]
        );
    }

    #[test]
    fn writing_them_out_replaces_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let written = write_all(dir.path()).unwrap();
        assert_eq!(written, files().len());
        let before = std::fs::read(dir.path().join("acwing166/judge.toml")).unwrap();
        std::fs::write(dir.path().join("acwing166/judge.toml"), "# mine\n").unwrap();
        let again = write_all(dir.path()).unwrap_err();
        assert!(
            format!("{again:#}").contains("README.md exists, so nothing was written"),
            "{again:#}"
        );
        assert_eq!(
            std::fs::read(dir.path().join("acwing166/judge.toml")).unwrap(),
            b"# mine\n",
            "a file of the user's is kept"
        );
        assert_ne!(before, b"# mine\n");
    }
}
