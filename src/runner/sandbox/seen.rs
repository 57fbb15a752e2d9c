//! What of the user's files a run is shown to start its program, and
//! what it is never shown.
//!
//! A program outside the system directories is shown alone, and so is
//! where its links lead. One installed under a hidden directory of the
//! home is shown with its own installation and no more:
//!
//! - a program that lies as `PREFIX/bin/NAME` below that directory (uv's
//!   `~/.local/share/uv/python/cpython-3.12…/bin/python3.12`, pipx's
//!   venv, rustup's `~/.rustup/toolchains/X/bin/rustc`, pyenv's
//!   `~/.pyenv/versions/3.12.1/bin/python3.12`) is shown with `PREFIX`;
//! - a version manager's own directory ([`MANAGERS`]: `~/.pyenv`,
//!   `~/.nvm`, ...), which holds its shims, what they run, and no
//!   credentials, is shown whole, so its shims work;
//! - anything else there (`~/.local/bin/python3`, rustup's proxy
//!   `~/.cargo/bin/rustc`, a `pip --user` script) is shown alone: the
//!   directories that hold it hold much else (`~/.local` holds every
//!   program's data, the judge's own with the shipped answers; `~/.cargo`
//!   holds registry tokens).
//!
//! Whatever a plan holds, a path that would show the judge's own files
//! ([`crate::runner::places`]) is refused where every run starts
//! ([`ensure_unseen`]): the judge never shows a run its answers, its
//! records or its whole cache, even through a toolchain installed beside
//! them. Refused rather than masked: masking would need a mount over each
//! of them in every backend's view, where a refusal is one check above
//! the seam, and a toolchain that lives inside the judge's directories is
//! not one to run.

use std::path::{Path, PathBuf};

use super::plan::{is_system_path, Plan};
use crate::runner::places;

/// Version managers whose directory in the home holds their shims, the
/// toolchains the shims run, and nothing a run may not read: shown whole
/// when a program is in it and is no installation of its own.
pub(crate) const MANAGERS: [&str; 14] = [
    ".pyenv", ".rbenv", ".nodenv", ".goenv", ".jenv", ".nvm", ".asdf", ".sdkman", ".volta",
    ".rustup", ".ghcup", ".juliaup", ".bun", ".deno",
];

/// What a run must see to start `program` (an absolute path): nothing
/// when it is a system program; else the file itself, where its links
/// lead, and, under a hidden directory of the home, its installation (see
/// the module's documentation). A `#!` script's interpreter is followed
/// the same way.
pub(crate) fn program_paths(program: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let add = |path: &Path, paths: &mut Vec<PathBuf>| {
        if is_system_path(path) || paths.iter().any(|p| path.starts_with(p)) {
            return;
        }
        paths.push(shown_with(path, home));
    };
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    for path in [program, &real] {
        add(path, &mut paths);
    }
    if let Some(interpreter) = shebang(&real) {
        let resolved = std::fs::canonicalize(&interpreter).unwrap_or(interpreter);
        add(&resolved, &mut paths);
    }
    paths
}

/// What is shown for the program at `path`: itself, its installation, or
/// its version manager's directory.
fn shown_with(path: &Path, home: Option<&Path>) -> PathBuf {
    let Some(home) = home else {
        return path.to_path_buf();
    };
    let Some(hidden) = hidden_dir(path, home) else {
        return path.to_path_buf();
    };
    let prefix = path
        .parent()
        .filter(|bin| bin.file_name().is_some_and(|name| name == "bin"))
        .and_then(Path::parent);
    if let Some(prefix) = prefix.filter(|p| p.starts_with(&hidden) && *p != hidden) {
        if may_show_whole(prefix, Some(home)) {
            return prefix.to_path_buf();
        }
    }
    if may_show_whole(&hidden, Some(home)) {
        return hidden;
    }
    path.to_path_buf()
}

/// The hidden directory of `home` that `path` lies in (`~/.local`).
fn hidden_dir(path: &Path, home: &Path) -> Option<PathBuf> {
    let first = path.strip_prefix(home).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    name.starts_with('.').then(|| home.join(name))
}

/// Whether a run may be shown `dir` whole as a toolchain's: not the home
/// or above it, nor a hidden directory of the home other than a version
/// manager's, nor one that holds the judge's own files.
pub(crate) fn may_show_whole(dir: &Path, home: Option<&Path>) -> bool {
    if let Some(home) = home {
        if home.starts_with(dir) {
            return false;
        }
        if let Ok(inside) = dir.strip_prefix(home) {
            let mut names = inside.components();
            let first = names.next().and_then(|c| c.as_os_str().to_str());
            let top_level = names.next().is_none();
            if top_level && first.is_some_and(|name| name.starts_with('.')) {
                return first.is_some_and(|name| MANAGERS.contains(&name));
            }
        }
    }
    places::holds_own_files(dir, &places::own_dirs()).is_none()
}

/// The interpreter a `#!` line names (its first word).
fn shebang(path: &Path) -> Option<PathBuf> {
    use std::io::Read as _;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let text = std::str::from_utf8(line).ok()?;
    text.split_whitespace().next().map(PathBuf::from)
}

/// Refuses a `plan` that would show a run the judge's own files: a path
/// it binds that holds one of the judge's directories, or lies in its
/// data, configuration or records (see [`crate::runner::places`]).
pub(crate) fn ensure_unseen(plan: &Plan) -> std::io::Result<()> {
    let own = places::own_dirs();
    for path in plan.read_only.iter().chain(&plan.writable) {
        if let Some(dir) = places::holds_own_files(path, &own) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "a run would see {}, which holds the judge's own files ({}): no run is \
                     shown them; install the toolchain elsewhere, or name the program itself",
                    path.display(),
                    dir.display()
                ),
            ));
        }
    }
    Ok(())
}

// These tests read Unix paths.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_in_the_home_is_seen_with_its_installation_alone() {
        let home = Path::new("/home/ana");
        let seen = |p: &str| program_paths(Path::new(p), Some(home));
        // A version manager's shim: its directory.
        assert_eq!(
            seen("/home/ana/.pyenv/shims/python3"),
            [PathBuf::from("/home/ana/.pyenv")]
        );
        // An installation below a hidden directory: its prefix.
        assert_eq!(
            seen("/home/ana/.local/share/uv/python/cpython-3.12.8/bin/python3.12"),
            [PathBuf::from(
                "/home/ana/.local/share/uv/python/cpython-3.12.8"
            )]
        );
        assert_eq!(
            seen("/home/ana/.rustup/toolchains/stable/bin/rustc"),
            [PathBuf::from("/home/ana/.rustup/toolchains/stable")]
        );
        // A program of a directory that holds much else: itself alone.
        assert_eq!(
            seen("/home/ana/.local/bin/python3"),
            [PathBuf::from("/home/ana/.local/bin/python3")]
        );
        assert_eq!(
            seen("/home/ana/.cargo/bin/rustc"),
            [PathBuf::from("/home/ana/.cargo/bin/rustc")]
        );
        assert_eq!(
            seen("/home/ana/work/a.out"),
            [PathBuf::from("/home/ana/work/a.out")]
        );
        assert!(seen("/usr/bin/python3").is_empty());
    }

    #[test]
    fn neither_the_home_nor_a_shared_hidden_directory_is_shown_whole() {
        let home = Path::new("/home/ana");
        assert!(!may_show_whole(home, Some(home)));
        assert!(!may_show_whole(Path::new("/home"), Some(home)));
        assert!(!may_show_whole(Path::new("/home/ana/.local"), Some(home)));
        assert!(!may_show_whole(Path::new("/home/ana/.cargo"), Some(home)));
        assert!(may_show_whole(Path::new("/home/ana/.pyenv"), Some(home)));
        assert!(may_show_whole(
            Path::new("/home/ana/miniconda3"),
            Some(home)
        ));
    }

    #[test]
    fn a_plan_that_would_show_the_judges_own_files_is_refused() {
        let data = dirs::data_dir().expect("a data directory");
        let plan = |read_only: Vec<PathBuf>| Plan {
            read_only,
            ..Plan::default()
        };
        for shown in [
            data.clone(),
            data.join("sudoku-judge"),
            data.join("sudoku-judge/shipped-cases"),
        ] {
            let refused = ensure_unseen(&plan(vec![shown.clone()])).unwrap_err();
            assert!(
                refused.to_string().contains("holds the judge's own files"),
                "{}: {refused}",
                shown.display()
            );
        }
        let build = places::cache_root().join("0123/a.out");
        ensure_unseen(&plan(vec![build, PathBuf::from("/opt/x")])).unwrap();
    }
}
