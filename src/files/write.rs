//! Writing: every file the judge writes where the user works (its records
//! in `.sudoku-judge/` and in the user's data directory, `--keep`, `cases
//! --out`, `gen --out`, `new`, `driver --out`, `stress` cases, reports
//! named by `--json`, `--junit`, `--html`), and the private copies of a
//! suite's programs in the build cache ([`Dir::private_subdir`],
//! [`PendingDir`]).
//!
//! People judge in directories they did not make: a cloned case pack, a
//! shared directory such as `/tmp`. A symbolic link planted there would
//! have the judge overwrite whatever it points to, with the rights of
//! whoever runs it. So:
//!
//! - The directory the user named is opened as named (a link in the path
//!   they typed is theirs); below it every directory is opened without
//!   following a link ([`Dir::subdir`], [`Dir::open_relative`]), and every
//!   name is reached through the open directory, so nothing swapped in
//!   after a check is followed (by descriptor on Unix, see `unix.rs`).
//! - A file is created new (`O_EXCL | O_NOFOLLOW`), under a temporary name
//!   when it replaces something, then renamed into place
//!   ([`Pending::keep`]), which replaces a link rather than writing through
//!   it; a file that must not replace anything is linked to its name only
//!   where none is ([`Pending::keep_new`], [`write_new`]).
//! - A name the judge makes from outside text (a case's id) is made safe
//!   first ([`super::name::safe`]).

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;

use super::os::{Dir, Pending};

/// What a name in a directory is, as seen without following it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    /// A symbolic link (or a junction), a FIFO, a device, a socket.
    Other,
}

impl Dir {
    /// Opens the directory `path` as the user named it (a link there is
    /// followed: the user gave the path), made with its parents if
    /// missing.
    pub(crate) fn open_given(path: &Path) -> anyhow::Result<Dir> {
        std::fs::create_dir_all(path)
            .with_context(|| format!("failed to create {}", path.display()))?;
        Dir::open_existing(path)?
            .with_context(|| format!("failed to open {}: it went missing", path.display()))
    }

    /// The names here, sorted (listed by path: only names are read).
    pub(crate) fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    /// Writes `bytes` as the file `name` here, anew: a temporary file,
    /// renamed over what was there (a link is replaced, not followed).
    pub(crate) fn write(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let pending = self.pending(name)?;
        pending
            .file()
            .write_all(bytes)
            .with_context(|| format!("failed to write {}", pending.path().display()))?;
        pending.keep().map(drop)
    }

    /// The directory `relative` below this one, each level opened without
    /// following a link, made when `create` and missing; `Ok(None)` when a
    /// level is missing and not `create`. A level that is a link or not a
    /// directory is an error naming it; so is a path that climbs (`..`) or
    /// is absolute.
    pub(crate) fn open_relative(
        &self,
        relative: &Path,
        create: bool,
    ) -> anyhow::Result<Option<Dir>> {
        let mut names = Vec::new();
        for component in relative.components() {
            match component {
                Component::Normal(name) => names.push(name.to_str().with_context(|| {
                    format!(
                        "{} is not a name the judge writes under",
                        self.path().join(relative).display()
                    )
                })?),
                Component::CurDir => {}
                _ => anyhow::bail!(
                    "{} leaves {}, so nothing is written there",
                    relative.display(),
                    self.path().display()
                ),
            }
        }
        let Some((first, rest)) = names.split_first() else {
            return Dir::open_existing(self.path());
        };
        let Some(mut dir) = self.subdir(first, create)? else {
            return Ok(None);
        };
        for name in rest {
            let Some(next) = dir.subdir(name, create)? else {
                return Ok(None);
            };
            dir = next;
        }
        Ok(Some(dir))
    }

    /// Whether the file `relative` could be made here without following a
    /// link or replacing anything: `Err` naming what is in the way (`PATH
    /// exists`, or a level that is a link or not a directory).
    pub(crate) fn ensure_free(&self, relative: &Path) -> anyhow::Result<()> {
        let (parent, name) = split(relative)?;
        let Some(dir) = self.open_relative(parent, false)? else {
            return Ok(());
        };
        if dir.kind(name)?.is_some() {
            anyhow::bail!("{} exists", dir.path().join(name).display());
        }
        Ok(())
    }

    /// Creates the file `relative` below this directory with `bytes`: the
    /// directories on the way made without following a link, the file
    /// created new (never over anything). Returns its path.
    pub(crate) fn create_at(&self, relative: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
        let (parent, name) = split(relative)?;
        let dir = self
            .open_relative(parent, true)?
            .with_context(|| format!("failed to create {}", self.path().join(parent).display()))?;
        let path = dir.path().join(name);
        dir.create_new(name)
            .and_then(|mut file| file.write_all(bytes))
            .with_context(|| {
                format!(
                    "failed to create {} (a file is never overwritten)",
                    path.display()
                )
            })?;
        Ok(path)
    }
}

/// A directory made whole under a temporary name, then put in place by
/// [`Self::keep`]; removed with what it holds if dropped before.
#[derive(Debug)]
pub(crate) struct PendingDir<'p> {
    parent: &'p Dir,
    temp: String,
    name: String,
    dir: Dir,
    kept: bool,
}

impl Dir {
    /// A directory to become `name` here once [`PendingDir::keep`] is
    /// called; until then a fresh one under a temporary name.
    pub(crate) fn pending_dir(&self, name: &str) -> anyhow::Result<PendingDir<'_>> {
        let temp = temp_name(name);
        let made = |error: std::io::Error| {
            anyhow::Error::new(error).context(format!(
                "failed to create a directory in {}",
                self.path().display()
            ))
        };
        self.make_dir(&temp).map_err(made)?;
        let pending = PendingDir {
            parent: self,
            dir: self
                .subdir(&temp, false)?
                .with_context(|| format!("{} went missing", self.path().join(&temp).display()))?,
            temp,
            name: name.to_string(),
            kept: false,
        };
        Ok(pending)
    }
}

impl PendingDir<'_> {
    /// The directory being made.
    pub(crate) fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Puts it in place where nothing (or an empty directory) has its
    /// name; returns where.
    pub(crate) fn keep(mut self) -> std::io::Result<PathBuf> {
        self.parent.rename(&self.temp, &self.name)?;
        self.kept = true;
        Ok(self.parent.path().join(&self.name))
    }
}

impl Drop for PendingDir<'_> {
    fn drop(&mut self) {
        if !self.kept {
            let _ = self.parent.remove(&self.temp);
        }
    }
}

/// `relative` as its directory and its file name.
fn split(relative: &Path) -> anyhow::Result<(&Path, &str)> {
    let name = relative
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{} names no file to write", relative.display()))?;
    Ok((relative.parent().unwrap_or(Path::new("")), name))
}

/// The directory holding the file the user named at `path`, opened as the
/// user named it (made if missing), and the file's name.
fn parent_of(path: &Path) -> anyhow::Result<(Dir, String)> {
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file to write", path.display()))?
        .to_str()
        .with_context(|| format!("{} is not a name the judge can write", path.display()))?
        .to_string();
    let parent = path.parent().unwrap_or(Path::new(""));
    Ok((Dir::open_given(parent)?, name))
}

/// Creates the file the user named at `path` with `bytes`, only if nothing
/// has its name (a link there is not followed): an error of kind
/// `AlreadyExists` in its chain otherwise, and nothing of the user's is
/// touched.
pub(crate) fn write_new(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let (dir, name) = parent_of(path)?;
    dir.create_new(&name)
        .with_context(|| {
            format!(
                "failed to create {} (it is never overwritten)",
                path.display()
            )
        })?
        .write_all(bytes)
        .with_context(|| format!("failed to write {}", path.display()))
}

/// A file the user named at `path` that is replaced on each run (a
/// report): written under a temporary name beside it and renamed over it
/// on [`Pending::keep`], so a link at its name is replaced, never written
/// through.
pub(crate) fn replace(path: &Path) -> anyhow::Result<Pending> {
    let (dir, name) = parent_of(path)?;
    dir.pending(&name)
}

/// A fresh name for a file that is to become `name`: hidden, and unlike
/// any other run's or this one's.
pub(super) fn temp_name(name: &str) -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    // Short enough beside any name the judge makes (see `name::safe`).
    let stem: String = name.chars().take(64).collect();
    format!(
        ".{stem}.{}-{}-{:x}.tmp",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed),
        rand::random::<u32>()
    )
}

/// The error for a record that is a link.
pub(super) fn link_not_read(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is a symbolic link, not a record of the judge's, so it is not read; remove it \
         (`rm {}`)",
        path.display(),
        path.display()
    )
}

/// The error for a record that is neither a link nor a regular file.
pub(super) fn not_regular(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is not a regular file, not a record of the judge's; remove it",
        path.display()
    )
}

/// Why a directory is not opened as one.
pub(super) enum Refused {
    /// It is a symbolic link (or, on Windows, a junction).
    Link,
    NotDir,
    Other(anyhow::Error),
}

/// Why a directory the judge writes in cannot be opened as one.
pub(super) fn refused_dir(path: &Path, why: Refused) -> anyhow::Error {
    match why {
        Refused::Link => anyhow::anyhow!(
            "{} is a symbolic link, and the judge writes only into directories it reaches \
             without a link (one shipped in a case pack could make it overwrite a file of \
             yours); remove the link (`rm {}`) and run again",
            path.display(),
            path.display()
        ),
        Refused::NotDir => anyhow::anyhow!(
            "{} is not a directory, and the judge writes into a directory of that name; \
             remove it (`rm {}`) and run again",
            path.display(),
            path.display()
        ),
        Refused::Other(error) => error.context(format!("failed to open {}", path.display())),
    }
}
