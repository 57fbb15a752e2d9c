//! [`Dir`] on Windows, keeping what std lets it keep of the Unix promise.
//!
//! Held: a symbolic link or a junction (any name-surrogate reparse point)
//! where the judge expects its directory is refused, as on Unix; a file is
//! created only where no name was (`CREATE_NEW`, which a link at the name
//! also fails), written under a temporary name and renamed over the old
//! one, which replaces a link rather than writing through it; a record is
//! opened with `FILE_FLAG_OPEN_REPARSE_POINT`, so a link planted at its
//! name is seen as a link and refused, never followed.
//!
//! Not held: std has no `openat` on Windows, so names are reached by path,
//! and a junction swapped in for a directory between the check and the
//! write is not caught; and the owner and access rights of `.sudoku-judge/`
//! and of a record (Unix's uid and mode checks) are not checked, as std
//! does not show a file's owner or its access list. docs/security.md says
//! so.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::windows::ffi::{OsStrExt as _, OsStringExt as _};
use std::os::windows::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::{read_capped, refused_dir, temp_name, Kind, Refused, STATE_DIR};

/// `CreateFileW`'s flag that opens a reparse point (a link, a junction)
/// itself instead of what it leads to: Windows' `O_NOFOLLOW`.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

/// A directory checked to be one, not a link to one: what is made and
/// read in it is reached by its path.
#[derive(Debug)]
pub struct Dir {
    /// Where it is, and how it is named in messages.
    path: PathBuf,
}

/// What a name is, as seen without following it.
fn kind_of(file_type: std::fs::FileType) -> Kind {
    // A link (or junction) to a directory is a link, not a directory.
    if file_type.is_symlink() {
        Kind::Other
    } else if file_type.is_dir() {
        Kind::Dir
    } else if file_type.is_file() {
        Kind::File
    } else {
        Kind::Other
    }
}

impl Dir {
    /// Opens the directory `path` as the user named it (a link there is
    /// followed: the user gave the path), made with its parents if
    /// missing.
    pub fn open_given(path: &Path) -> anyhow::Result<Dir> {
        std::fs::create_dir_all(path)
            .with_context(|| format!("failed to create {}", path.display()))?;
        let meta = std::fs::metadata(path)
            .with_context(|| format!("failed to open {}", path.display()))?;
        if !meta.is_dir() {
            return Err(refused_dir(path, Refused::NotDir));
        }
        Ok(Dir {
            path: path.to_path_buf(),
        })
    }

    /// How it is named in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What `name` is here, not following a link; `None` when absent.
    pub fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
        match std::fs::symlink_metadata(self.path.join(name)) {
            Ok(meta) => Ok(Some(kind_of(meta.file_type()))),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The directory `name` here, refused when it is a link or a junction;
    /// made when `create` and missing. `Ok(None)` when missing and not
    /// `create`.
    pub fn subdir(&self, name: &str, create: bool) -> anyhow::Result<Option<Dir>> {
        let path = self.path.join(name);
        let seen = |path: &Path| std::fs::symlink_metadata(path).map(|m| m.file_type());
        let file_type = match seen(&path) {
            Ok(file_type) => file_type,
            Err(error) if error.kind() == io::ErrorKind::NotFound && create => {
                match std::fs::create_dir(&path) {
                    Ok(()) => {}
                    Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(error) => {
                        return Err(error)
                            .with_context(|| format!("failed to create {}", path.display()))
                    }
                }
                seen(&path).map_err(|e| refused_dir(&path, Refused::Other(e.into())))?
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(refused_dir(&path, Refused::Other(error.into()))),
        };
        if file_type.is_symlink() {
            return Err(refused_dir(&path, Refused::Link));
        }
        if !file_type.is_dir() {
            return Err(refused_dir(&path, Refused::NotDir));
        }
        Ok(Some(Dir { path }))
    }

    /// Makes the directory `name` here, which must not exist yet.
    pub fn make_dir(&self, name: &str) -> io::Result<()> {
        std::fs::create_dir(self.path.join(name))
    }

    /// Creates the file `name` here, which must not exist yet (nor be a
    /// link): nothing is ever written through a name that was there.
    pub fn create_new(&self, name: &str) -> io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(self.path.join(name))
    }

    /// A file to become `name` here once [`Pending::keep`] is called; until
    /// then a temporary file, removed if it is dropped.
    pub fn pending(&self, name: &str) -> anyhow::Result<Pending> {
        let temp = temp_name(name);
        let file = self
            .create_new(&temp)
            .with_context(|| format!("failed to create a file in {}", self.path.display()))?;
        Ok(Pending {
            path: self.path.join(name),
            temp: self.path.join(temp),
            file,
            kept: false,
        })
    }

    /// Reads the file `name` here, at most [`super::MAX_RECORD_BYTES`] of
    /// it, never through a link. `Ok(None)` when it is missing. Whose it
    /// is, Windows does not tell std: see the module's note.
    pub fn read_own(&self, name: &str) -> anyhow::Result<Option<String>> {
        let path = self.path.join(name);
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(&path)
        {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(error).with_context(|| format!("failed to read {}", path.display()))
            }
        };
        let meta = file
            .metadata()
            .with_context(|| format!("failed to read {}", path.display()))?;
        if meta.file_type().is_symlink() {
            return Err(super::link_not_read(&path));
        }
        if !meta.is_file() {
            return Err(super::not_regular(&path));
        }
        read_capped(file, &path).map(Some)
    }

    /// Removes `name` here: a directory with all it holds (links in it are
    /// removed, never followed), or anything else itself.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        let path = self.path.join(name);
        let file_type = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta.file_type(),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(error) => return Err(error),
        };
        if file_type.is_symlink_dir() {
            // A link or junction to a directory: the link goes, as a
            // directory entry, and nothing it leads to.
            std::fs::remove_dir(&path)
        } else if file_type.is_dir() {
            // std's removal does not follow links it finds inside.
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        }
    }
}

/// A file written under a temporary name, put in place by [`Self::keep`].
#[derive(Debug)]
pub struct Pending {
    path: PathBuf,
    temp: PathBuf,
    file: File,
    kept: bool,
}

impl Pending {
    /// The file being written.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Where it goes, as named in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts it in place of whatever had its name (a link there is
    /// replaced, not followed); returns where. std opens files sharing
    /// deletion, so the open file can be renamed.
    pub fn keep(mut self) -> anyhow::Result<PathBuf> {
        std::fs::rename(&self.temp, &self.path)
            .with_context(|| format!("failed to write {}", self.path.display()))?;
        self.kept = true;
        Ok(self.path.clone())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// `.sudoku-judge/` in the working directory, refused when it is a link or
/// a junction: made when `create` and missing; `Ok(None)` when missing and
/// not `create`. Its owner and access list are not checked (see the
/// module's note).
pub fn state_dir(create: bool) -> anyhow::Result<Option<Dir>> {
    let cwd = Dir {
        path: PathBuf::new(),
    };
    cwd.subdir(STATE_DIR, create)
}

/// When `dir` was created, in the file system's 100 ns ticks: which
/// directory it is, as near as std shows on Windows (it has no stable
/// file index). A record copied from another directory was written where
/// that directory's creation time was, to the tick.
pub(super) fn dir_id(dir: &Path) -> anyhow::Result<(u64, u64)> {
    // A directory is opened as a handle only with backup semantics.
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(dir)
        .and_then(|opened| crate::runner::sys::file_identity(&opened))
        .with_context(|| format!("failed to read {}", dir.display()))
}

/// A path that is not valid Unicode (an unpaired surrogate), as a record
/// keeps it: its UTF-16 units.
pub(super) fn path_bytes(path: &Path) -> super::PathText {
    super::PathText::Wide {
        wide: path.as_os_str().encode_wide().collect(),
    }
}

/// A path kept as bytes (written on Unix), read back as near as a
/// Windows name can be.
pub(super) fn from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// A path kept as UTF-16 units, read back.
pub(super) fn from_wide(wide: &[u16]) -> PathBuf {
    PathBuf::from(std::ffi::OsString::from_wide(wide))
}
