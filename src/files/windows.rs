//! The Windows side of the door, keeping what std lets it keep of the
//! Unix promise (`unix.rs`).
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
//! does not show a file's owner or its access list; nor is a file's count
//! of hard links (std does not show it either). docs/security.md says so.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::read::read_record;
use super::write::{link_not_read, not_regular, refused_dir, temp_name, Kind, Refused};

/// `CreateFileW`'s flag that opens a reparse point (a link, a junction)
/// itself instead of what it leads to: Windows' `O_NOFOLLOW`.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

/// A directory checked to be one, not a link to one: what is made and
/// read in it is reached by its path.
#[derive(Debug)]
pub(crate) struct Dir {
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
    /// Opens the directory `path` as the user named it; `Ok(None)` when it
    /// is missing.
    pub(crate) fn open_existing(path: &Path) -> anyhow::Result<Option<Dir>> {
        let at = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        let meta = match std::fs::metadata(at) {
            Ok(meta) => meta,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(error).with_context(|| format!("failed to open {}", path.display()))
            }
        };
        if !meta.is_dir() {
            return Err(refused_dir(path, Refused::NotDir));
        }
        Ok(Some(Dir {
            path: path.to_path_buf(),
        }))
    }

    /// How it is named in messages.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// What `name` is here, not following a link; `None` when absent.
    pub(crate) fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
        match std::fs::symlink_metadata(self.path.join(name)) {
            Ok(meta) => Ok(Some(kind_of(meta.file_type()))),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The directory `name` here, refused when it is a link or a junction;
    /// made when `create` and missing. `Ok(None)` when missing and not
    /// `create`.
    pub(crate) fn subdir(&self, name: &str, create: bool) -> anyhow::Result<Option<Dir>> {
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

    /// The directory `name` here for the judge alone, refused when it is a
    /// link or a junction; made when missing, with the access list it
    /// inherits (its owner and access list are not checked: see the
    /// module's note).
    pub(crate) fn private_subdir(&self, name: &str) -> anyhow::Result<Dir> {
        self.subdir(name, true)?
            .with_context(|| format!("failed to create {}", self.path.join(name).display()))
    }

    /// Makes the directory `name` here, which must not exist yet.
    pub(crate) fn make_dir(&self, name: &str) -> io::Result<()> {
        std::fs::create_dir(self.path.join(name))
    }

    /// Creates the file `name` here, which must not exist yet (nor be a
    /// link): nothing is ever written through a name that was there.
    pub(crate) fn create_new(&self, name: &str) -> io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(self.path.join(name))
    }

    /// [`Self::create_new`]: a program is told by its name on Windows, and
    /// the file gets the access list it inherits from its directory.
    pub(crate) fn create_read_only(&self, name: &str, _executable: bool) -> io::Result<File> {
        self.create_new(name)
    }

    /// Renames `from` here to `to` here: a directory only where nothing has
    /// its name.
    pub(crate) fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        std::fs::rename(self.path.join(from), self.path.join(to))
    }

    /// [`Self::pending`]; the file gets the access list it inherits from
    /// its directory.
    pub(crate) fn pending_private(&self, name: &str) -> anyhow::Result<Pending> {
        self.pending(name)
    }

    /// A file to become `name` here once [`Pending::keep`] (or
    /// [`Pending::keep_new`]) is called; until then a temporary file,
    /// removed if it is dropped.
    pub(crate) fn pending(&self, name: &str) -> anyhow::Result<Pending> {
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

    /// Gives the file at `source` the name `name` here too (a hard link),
    /// only where nothing has that name: an error of kind `AlreadyExists`
    /// otherwise. How a file staged elsewhere on the same volume is moved
    /// into place without replacing anything.
    pub(crate) fn link_from(&self, source: &Path, name: &str) -> io::Result<()> {
        std::fs::hard_link(source, self.path.join(name))
    }

    /// Reads the record `name` here, at most `cap` bytes of it, never
    /// through a link. `Ok(None)` when it is missing. Whose it is, Windows
    /// does not tell std: see the module's note.
    pub(crate) fn read_own(&self, name: &str, cap: u64) -> anyhow::Result<Option<String>> {
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
            return Err(link_not_read(&path));
        }
        if !meta.is_file() {
            return Err(not_regular(&path));
        }
        read_record(file, &path, cap).map(Some)
    }

    /// Not checked on Windows: std shows neither the directory's owner nor
    /// its access list (see the module's note).
    pub(crate) fn ensure_own(&self) -> anyhow::Result<()> {
        Ok(())
    }

    /// Nothing to do on Windows: a directory made in the user's profile
    /// inherits its access list.
    pub(crate) fn restrict(&self, _mask: u32) -> anyhow::Result<()> {
        Ok(())
    }

    /// Removes `name` here: a directory with all it holds (links in it are
    /// removed, never followed), or anything else itself.
    pub(crate) fn remove(&self, name: &str) -> io::Result<()> {
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
pub(crate) struct Pending {
    path: PathBuf,
    temp: PathBuf,
    file: File,
    kept: bool,
}

impl Pending {
    /// The file being written.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Where it goes, as named in messages.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Puts it in place of whatever had its name (a link there is
    /// replaced, not followed); returns where. std opens files sharing
    /// deletion, so the open file can be renamed.
    pub(crate) fn keep(mut self) -> anyhow::Result<PathBuf> {
        std::fs::rename(&self.temp, &self.path)
            .with_context(|| format!("failed to write {}", self.path.display()))?;
        self.kept = true;
        Ok(self.path.clone())
    }

    /// Puts it in place only where nothing has its name: an error of kind
    /// `AlreadyExists` otherwise, and nothing there is touched. (A second
    /// name for the file, made only where none is; the temporary name goes
    /// when this is dropped.)
    pub(crate) fn keep_new(self) -> io::Result<PathBuf> {
        std::fs::hard_link(&self.temp, &self.path)?;
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

/// Opens `path` for reading. (Windows has no FIFO in a directory to
/// block on.)
pub(super) fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// What a file that is not a regular file is, in words.
pub(super) fn kind_words(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Taken as one: std does not show the count of hard links on Windows.
/// (NTFS lets a user make a hard link only to a file they may write, so a
/// pack made elsewhere cannot carry one to a file of this machine.)
pub(super) fn links(_: &Metadata) -> u64 {
    1
}

/// Whether the two are one file, as near as std shows: the same creation
/// and write times (100 ns ticks), size and attributes. A file swapped in
/// would have to match all four.
pub(super) fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::windows::fs::MetadataExt as _;
    (
        a.creation_time(),
        a.last_write_time(),
        a.file_size(),
        a.file_attributes(),
    ) == (
        b.creation_time(),
        b.last_write_time(),
        b.file_size(),
        b.file_attributes(),
    )
}

/// Taken as yes: the owner is not shown, and a file that led outside the
/// suite is refused before this. Errors quote the suite's bytes.
pub(super) fn runs_as_owner(_: &Metadata) -> bool {
    true
}
