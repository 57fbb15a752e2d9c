//! The files the judge writes where the user works: its records in
//! `.sudoku-judge/` (the last run for `--baseline last`, baselines saved
//! by name, the failures `--failed` reruns), and what `--keep` writes.
//!
//! People judge in directories they did not make: a cloned case pack, a
//! shared directory such as `/tmp`. A symbolic link planted there as
//! `.sudoku-judge/failed` would have the judge overwrite whatever it points
//! to, with the rights of whoever runs it. So every such file is reached
//! from an open directory, never through a link:
//!
//! - A directory is opened with `O_DIRECTORY | O_NOFOLLOW`, checked by its
//!   descriptor, and everything in it is reached through that descriptor
//!   (`openat`, `mkdirat`, `renameat`), so nothing swapped in after the
//!   check is followed.
//! - A file is written anew: a temporary file created with `O_EXCL |
//!   O_NOFOLLOW`, then renamed over the old one, which replaces a link
//!   rather than writing through it.
//! - `.sudoku-judge/` must be the user's own and not writable by every
//!   user; a file read from it must be the user's own too. Otherwise the
//!   judge refuses, and says what to do.
//!
//! The rules are the file door's ([`crate::files`]); Windows keeps what
//! std lets it there: a link or junction is refused and never written
//! through, files are created new and renamed into place; names are
//! reached by path, not descriptor, and owners are not checked.
//!
//! The record of failures ([`Failed`]) is data the judge reads back, one
//! JSON document a line, so no case name can break a line or become a
//! command.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};

use crate::files::Dir;

/// The judge's own directory, in the working directory.
pub(crate) const STATE_DIR: &str = ".sudoku-judge";

/// The most the judge reads of one of its records.
pub(crate) const MAX_RECORD_BYTES: u64 = 256 << 20;

/// `.sudoku-judge/` in the working directory, reached without a link and
/// checked to be the user's own (on Unix: owned by them, written by no one
/// else): made when `create` and missing; `Ok(None)` when missing and not
/// `create`.
pub(crate) fn state_dir(create: bool) -> anyhow::Result<Option<Dir>> {
    let cwd = Dir::open_existing(Path::new(""))?.context("the working directory is gone")?;
    let made = create && cwd.kind(STATE_DIR)?.is_none();
    let Some(dir) = cwd.subdir(STATE_DIR, create)? else {
        return Ok(None);
    };
    if made {
        dir.restrict(0o7755)?;
    }
    dir.ensure_own()?;
    Ok(Some(dir))
}

/// A path as a record holds it: text when it is UTF-8, else its bytes
/// (Unix) or UTF-16 units (Windows), so that any name survives the round
/// trip on the OS that wrote it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
enum PathText {
    Text(String),
    Bytes { bytes: Vec<u8> },
    Wide { wide: Vec<u16> },
}

impl PathText {
    fn of(path: &Path) -> PathText {
        match path.to_str() {
            Some(text) => PathText::Text(text.to_string()),
            None => path_bytes(path),
        }
    }

    fn path(self) -> PathBuf {
        match self {
            PathText::Text(text) => PathBuf::from(text),
            PathText::Bytes { bytes } => from_bytes(bytes),
            PathText::Wide { wide } => from_wide(&wide),
        }
    }
}

/// The bytes of a path that is not UTF-8, as a record keeps them.
#[cfg(unix)]
fn path_bytes(path: &Path) -> PathText {
    use std::os::unix::ffi::OsStrExt as _;
    PathText::Bytes {
        bytes: path.as_os_str().as_bytes().to_vec(),
    }
}

/// A path that is not valid Unicode (an unpaired surrogate), as a record
/// keeps it: its UTF-16 units.
#[cfg(windows)]
fn path_bytes(path: &Path) -> PathText {
    use std::os::windows::ffi::OsStrExt as _;
    PathText::Wide {
        wide: path.as_os_str().encode_wide().collect(),
    }
}

/// A path kept as bytes, read back (as near as a Windows name can be).
fn from_bytes(bytes: Vec<u8>) -> PathBuf {
    #[cfg(unix)]
    return PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes));
    #[cfg(windows)]
    return PathBuf::from(String::from_utf8_lossy(&bytes).into_owned());
}

/// A path kept as UTF-16 units, read back (as near as a Unix name can be).
fn from_wide(wide: &[u16]) -> PathBuf {
    #[cfg(unix)]
    return PathBuf::from(String::from_utf16_lossy(wide));
    #[cfg(windows)]
    return PathBuf::from(
        <std::ffi::OsString as std::os::windows::ffi::OsStringExt>::from_wide(wide),
    );
}

/// The device and inode of `dir`: which directory it is, wherever it was
/// reached from.
#[cfg(unix)]
fn dir_id(dir: &Path) -> anyhow::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    let meta =
        std::fs::metadata(dir).with_context(|| format!("failed to read {}", dir.display()))?;
    Ok((meta.dev(), meta.ino()))
}

/// The volume's serial number and the directory's index there: which
/// directory it is, as a device and inode are on Unix.
#[cfg(windows)]
fn dir_id(dir: &Path) -> anyhow::Result<(u64, u64)> {
    use std::os::windows::fs::OpenOptionsExt as _;
    // A directory is opened as a handle only with backup semantics.
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(dir)
        .and_then(|opened| crate::runner::sys::file_identity(&opened))
        .with_context(|| format!("failed to read {}", dir.display()))
}

/// The first line of a record of failures.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FailedHeader {
    /// What the file is, for a person who opens it.
    record: String,
    version: u32,
    /// The directory the run was judged from, and its device and inode
    /// (on Windows: 0 and its creation time), so that a record copied from elsewhere (shipped in a pack) is not
    /// taken for this directory's.
    dir: PathText,
    dir_id: (u64, u64),
    /// The paths judged, absolute.
    paths: Vec<PathText>,
}

/// Each following line: a case not accepted.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FailedCase {
    /// Its input file, absolute.
    input: PathText,
}

const FAILED_RECORD: &str = "the cases of the last `sudoku-judge test` here that were not accepted";

/// The record `--failed` reads: which paths the last run here judged, and
/// which of their cases were not accepted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Failed {
    /// The paths judged (files or directories), absolute.
    pub(crate) paths: Vec<PathBuf>,
    /// The inputs of the cases not accepted, absolute.
    pub(crate) inputs: Vec<PathBuf>,
}

impl Failed {
    /// The record as written from the directory `here`.
    pub(crate) fn to_text(&self, here: &Path) -> anyhow::Result<String> {
        let header = FailedHeader {
            record: FAILED_RECORD.to_string(),
            version: 1,
            dir: PathText::of(here),
            dir_id: dir_id(here)?,
            paths: self.paths.iter().map(|p| PathText::of(p)).collect(),
        };
        let mut text = serde_json::to_string(&header)?;
        text.push('\n');
        for input in &self.inputs {
            text.push_str(&serde_json::to_string(&FailedCase {
                input: PathText::of(input),
            })?);
            text.push('\n');
        }
        Ok(text)
    }

    /// Reads a record written from the directory `here` (`name` names it
    /// in errors, which give the line and column of what is wrong).
    pub(crate) fn parse(text: &str, name: &Path, here: &Path) -> anyhow::Result<Failed> {
        let malformed = |line: usize, error: serde_json::Error| {
            anyhow::anyhow!(
                "{}:{line}:{}: not a record of failed cases this judge wrote ({}); run \
                 `sudoku-judge test` here to record one anew",
                name.display(),
                error.column(),
                in_words(&error),
            )
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let Some((_, first)) = lines.next() else {
            bail!(
                "{}:1:1: the record is empty; run `sudoku-judge test` here to record one anew",
                name.display()
            );
        };
        let header: FailedHeader = serde_json::from_str(first).map_err(|e| malformed(1, e))?;
        if header.version != 1 {
            bail!(
                "{} was written by another version of sudoku-judge; run `sudoku-judge test` \
                 here to record one anew",
                name.display()
            );
        }
        let recorded = header.dir.clone().path();
        if header.dir_id != dir_id(here)? {
            bail!(
                "{} records a run judged from {}, not from here ({}): a record copied from \
                 elsewhere is not this directory's; run `sudoku-judge test` here first",
                name.display(),
                recorded.display(),
                here.display()
            );
        }
        let mut inputs = Vec::new();
        for (number, line) in lines {
            if line.is_empty() {
                continue;
            }
            let case: FailedCase = serde_json::from_str(line).map_err(|e| malformed(number, e))?;
            inputs.push(case.input.path());
        }
        Ok(Failed {
            paths: header.paths.into_iter().map(PathText::path).collect(),
            inputs,
        })
    }

    /// The inputs, as a set to select cases by.
    pub(crate) fn input_set(&self) -> HashSet<PathBuf> {
        self.inputs.iter().cloned().collect()
    }
}

/// Words for what serde_json found wrong.
fn in_words(error: &serde_json::Error) -> String {
    // serde_json's message ends with its own " at line L column C".
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name no UTF-8 text can hold.
    fn not_unicode(before: &str) -> PathBuf {
        #[cfg(unix)]
        return PathBuf::from(
            <std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(
                [before.as_bytes(), b"\xff.in"].concat(),
            ),
        );
        #[cfg(windows)]
        return PathBuf::from(
            <std::ffi::OsString as std::os::windows::ffi::OsStringExt>::from_wide(
                &before
                    .encode_utf16()
                    .chain([0xd800])
                    .chain(".in".encode_utf16())
                    .collect::<Vec<u16>>(),
            ),
        );
    }

    #[test]
    fn the_failed_record_is_data_that_no_name_can_break() {
        let tmp = tempfile::tempdir().unwrap();
        let here = tmp.path();
        let odd = not_unicode("/cases/a\n$(touch PWN)");
        let record = Failed {
            paths: vec![here.join("cases")],
            inputs: vec![here.join("cases/b.in"), odd.clone()],
        };
        let text = record.to_text(here).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.lines().all(|l| l.starts_with('{')), "{text}");
        let read = Failed::parse(&text, Path::new(".sudoku-judge/failed"), here).unwrap();
        assert_eq!(read, record);
        assert!(read.input_set().contains(&odd));
        // A record written from another directory is not this one's.
        let other = tempfile::tempdir().unwrap();
        let error = Failed::parse(&text, Path::new("failed"), other.path())
            .unwrap_err()
            .to_string();
        assert!(error.contains("not from here"), "{error}");
        // The old line-per-path form, or anything else, says where it fails.
        let error = Failed::parse("/cases/a.in\n", Path::new("failed"), here)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("failed:1:1: not a record of failed cases"),
            "{error}"
        );
    }
}
