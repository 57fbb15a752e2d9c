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
//! That is the Unix promise (`state/unix.rs`). Windows keeps what std lets
//! it (`state/windows.rs`): a link or junction is refused and never
//! written through, files are created new and renamed into place; names
//! are reached by path, not descriptor, and owners are not checked.
//!
//! The record of failures ([`Failed`]) is data the judge reads back, one
//! JSON document a line, so no case name can break a line or become a
//! command.

use std::collections::HashSet;
use std::fs::File;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};

// How a directory is held and its names reached is each OS's own: by
// descriptor on Unix; by path on Windows, which std gives no `openat`.
#[cfg(unix)]
#[path = "state/unix.rs"]
mod os;
#[cfg(windows)]
#[path = "state/windows.rs"]
mod os;

use os::{dir_id, from_bytes, from_wide, path_bytes};
pub use os::{state_dir, Dir, Pending};

/// The judge's own directory, in the working directory.
pub const STATE_DIR: &str = ".sudoku-judge";

/// The most the judge reads of one of its records.
const MAX_RECORD_BYTES: u64 = 256 << 20;

/// What a name in a directory is, as seen without following it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A symbolic link (or a junction), a FIFO, a device, a socket.
    Other,
}

impl Dir {
    /// The names here, sorted (listed by path: only names are read).
    pub fn names(&self) -> Vec<String> {
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
    pub fn write(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        use std::io::Write as _;
        let pending = self.pending(name)?;
        pending
            .file()
            .write_all(bytes)
            .with_context(|| format!("failed to write {}", pending.path().display()))?;
        pending.keep().map(drop)
    }
}

/// A fresh name for a file that is to become `name`: hidden, and unlike
/// any other run's or this one's.
fn temp_name(name: &str) -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    format!(
        ".{name}.{}-{}-{:x}.tmp",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed),
        rand::random::<u32>()
    )
}

/// A record opened and checked, read whole: at most [`MAX_RECORD_BYTES`].
fn read_capped(file: File, path: &Path) -> anyhow::Result<String> {
    let mut text = String::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("failed to read {}", path.display()))?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        bail!(
            "{} is larger than {} MiB, larger than any record the judge writes",
            path.display(),
            MAX_RECORD_BYTES >> 20
        );
    }
    Ok(text)
}

/// The error for a record that is a link.
fn link_not_read(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is a symbolic link, not a record of the judge's, so it is not read; remove it \
         (`rm {}`)",
        path.display(),
        path.display()
    )
}

/// The error for a record that is neither a link nor a regular file.
fn not_regular(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{} is not a regular file, not a record of the judge's; remove it",
        path.display()
    )
}

/// Why a directory that should be the judge's own is not opened as one.
enum Refused {
    /// It is a symbolic link (or, on Windows, a junction).
    Link,
    NotDir,
    Other(anyhow::Error),
}

/// Why a directory that should be the judge's own cannot be opened as one.
fn refused_dir(path: &Path, why: Refused) -> anyhow::Error {
    match why {
        Refused::Link => anyhow::anyhow!(
            "{} is a symbolic link, and the judge writes its records only into a directory of \
             its own, never through a link (one shipped in a case pack could make it overwrite \
             a file of yours); remove the link (`rm {}`) and run again",
            path.display(),
            path.display()
        ),
        Refused::NotDir => anyhow::anyhow!(
            "{} is not a directory, and the judge keeps its records in a directory of that \
             name; remove it (`rm {}`) and run again",
            path.display(),
            path.display()
        ),
        Refused::Other(error) => error.context(format!("failed to open {}", path.display())),
    }
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
pub struct Failed {
    /// The paths judged (files or directories), absolute.
    pub paths: Vec<PathBuf>,
    /// The inputs of the cases not accepted, absolute.
    pub inputs: Vec<PathBuf>,
}

impl Failed {
    /// The record as written from the directory `here`.
    pub fn to_text(&self, here: &Path) -> anyhow::Result<String> {
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
    pub fn parse(text: &str, name: &Path, here: &Path) -> anyhow::Result<Failed> {
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
    pub fn input_set(&self) -> HashSet<PathBuf> {
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

    fn dir(path: &Path) -> Dir {
        Dir::open_given(path).unwrap()
    }

    /// A link at `at` to the file `target`.
    fn link_file(target: &Path, at: &Path) {
        #[cfg(unix)]
        std::os::unix::fs::symlink(target, at).unwrap();
        #[cfg(windows)]
        std::os::windows::fs::symlink_file(target, at).unwrap();
    }

    /// A link at `at` to the directory `target`.
    fn link_dir(target: &Path, at: &Path) {
        #[cfg(unix)]
        std::os::unix::fs::symlink(target, at).unwrap();
        #[cfg(windows)]
        std::os::windows::fs::symlink_dir(target, at).unwrap();
    }

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

    #[cfg_attr(
        windows,
        ignore = "Wine shows a link as its target, so this is not run there"
    )]
    #[test]
    fn writing_replaces_a_planted_link_and_never_follows_it() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "mine\n").unwrap();
        let state = tmp.path().join("state");
        std::fs::create_dir(&state).unwrap();
        link_file(&victim, &state.join("failed"));
        let state = dir(&state);
        // Read: refused by name, nothing of the target.
        let error = state.read_own("failed").unwrap_err().to_string();
        assert!(error.contains("failed is a symbolic link"), "{error}");
        // Written: the link is replaced, the target untouched.
        state.write("failed", b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
        assert_eq!(state.read_own("failed").unwrap().unwrap(), "new\n");
        // Nothing of the write is left behind.
        assert_eq!(state.names(), ["failed"]);
    }

    #[cfg_attr(
        windows,
        ignore = "Wine shows a link as its target, so this is not run there"
    )]
    #[test]
    fn a_directory_link_is_refused_and_nothing_is_written_through_it() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        link_dir(&elsewhere, &tmp.path().join("baselines"));
        let top = dir(tmp.path());
        let error = top.subdir("baselines", true).unwrap_err().to_string();
        assert!(error.contains("baselines is a symbolic link"), "{error}");
        assert!(error.contains("rm "), "{error}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    #[test]
    fn a_pending_file_is_gone_unless_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let state = dir(tmp.path());
        {
            let pending = state.pending("last.json").unwrap();
            use std::io::Write as _;
            pending.file().write_all(b"{}").unwrap();
        }
        assert!(state.names().is_empty(), "{:?}", state.names());
        let pending = state.pending("last.json").unwrap();
        assert_eq!(pending.keep().unwrap(), tmp.path().join("last.json"));
        assert_eq!(state.names(), ["last.json"]);
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
