//! [`Dir`] on Unix: every name is reached through an open directory's
//! descriptor (`openat`, `mkdirat`, `renameat`, `O_NOFOLLOW`), so nothing
//! swapped in after a check is followed, and the judge's records must be
//! the user's own.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::stat::Mode;

use super::{read_capped, refused_dir, temp_name, Kind, Refused, STATE_DIR};

/// A directory opened without following a link to it: what is made and
/// read in it is reached through its descriptor.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    /// How it is named in messages.
    path: PathBuf,
}

fn kind_of(mode: libc::mode_t) -> Kind {
    match mode & libc::S_IFMT {
        libc::S_IFREG => Kind::File,
        libc::S_IFDIR => Kind::Dir,
        _ => Kind::Other,
    }
}

impl Dir {
    /// Opens the directory `path` as the user named it (a link there is
    /// followed: the user gave the path), made with its parents if
    /// missing.
    pub fn open_given(path: &Path) -> anyhow::Result<Dir> {
        std::fs::create_dir_all(path)
            .with_context(|| format!("failed to create {}", path.display()))?;
        let fd = nix::fcntl::open(
            path,
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .with_context(|| format!("failed to open {}", path.display()))?;
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// How it is named in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What `name` is here, not following a link; `None` when absent.
    pub fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
        match nix::sys::stat::fstatat(&self.fd, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(kind_of(stat.st_mode))),
            Err(Errno::ENOENT) => Ok(None),
            Err(errno) => Err(errno.into()),
        }
    }

    /// The directory `name` here, opened without following a link; made
    /// (mode 0755, less the umask) when `create` and missing. `Ok(None)`
    /// when missing and not `create`.
    pub fn subdir(&self, name: &str, create: bool) -> anyhow::Result<Option<Dir>> {
        let path = self.path.join(name);
        let open = || {
            nix::fcntl::openat(
                &self.fd,
                name,
                OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
                Mode::empty(),
            )
        };
        let fd = match open() {
            Ok(fd) => fd,
            Err(Errno::ENOENT) if create => {
                match nix::sys::stat::mkdirat(&self.fd, name, Mode::from_bits_truncate(0o755)) {
                    Ok(()) | Err(Errno::EEXIST) => {}
                    Err(errno) => {
                        return Err(errno)
                            .with_context(|| format!("failed to create {}", path.display()))
                    }
                }
                open().map_err(|errno| self.refused_dir(name, errno))?
            }
            Err(Errno::ENOENT) => return Ok(None),
            Err(errno) => return Err(self.refused_dir(name, errno)),
        };
        Ok(Some(Dir { fd, path }))
    }

    /// Makes the directory `name` here, which must not exist yet.
    pub fn make_dir(&self, name: &str) -> io::Result<()> {
        nix::sys::stat::mkdirat(&self.fd, name, Mode::from_bits_truncate(0o755))
            .map_err(io::Error::from)
    }

    /// Creates the file `name` here, which must not exist yet (nor be a
    /// link): nothing is ever written through a name that was there.
    pub fn create_new(&self, name: &str) -> io::Result<File> {
        let fd = nix::fcntl::openat(
            &self.fd,
            name,
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(0o644),
        )?;
        Ok(File::from(fd))
    }

    /// A file to become `name` here once [`Pending::keep`] is called; until
    /// then a temporary file, removed if it is dropped.
    pub fn pending(&self, name: &str) -> anyhow::Result<Pending> {
        let temp = temp_name(name);
        let file = self
            .create_new(&temp)
            .with_context(|| format!("failed to create a file in {}", self.path.display()))?;
        Ok(Pending {
            dir: self
                .fd
                .try_clone()
                .context("failed to keep a directory open")?,
            path: self.path.join(name),
            temp,
            name: name.to_string(),
            file,
            kept: false,
        })
    }

    /// Reads the file `name` here, at most [`super::MAX_RECORD_BYTES`] of
    /// it, never through a link; only a file of the user's own is read.
    /// `Ok(None)` when it is missing.
    pub fn read_own(&self, name: &str) -> anyhow::Result<Option<String>> {
        let path = self.path.join(name);
        let fd = match nix::fcntl::openat(
            &self.fd,
            name,
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(Errno::ENOENT) => return Ok(None),
            Err(Errno::ELOOP) => return Err(super::link_not_read(&path)),
            Err(errno) => {
                return Err(errno).with_context(|| format!("failed to read {}", path.display()))
            }
        };
        let file = File::from(fd);
        let meta = file
            .metadata()
            .with_context(|| format!("failed to read {}", path.display()))?;
        if !meta.is_file() {
            return Err(super::not_regular(&path));
        }
        let me = nix::unistd::geteuid().as_raw();
        if meta.uid() != me {
            bail!(
                "{} belongs to uid {}, not to you (uid {me}), so it is not read: the judge \
                 reads only records it wrote for you; remove it (`rm {}`)",
                path.display(),
                meta.uid(),
                path.display()
            );
        }
        read_capped(file, &path).map(Some)
    }

    /// Removes `name` here: a directory with all it holds (links in it are
    /// removed, never followed), or anything else itself.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        match self.kind(name)? {
            None => Ok(()),
            // std's removal opens each level without following links.
            Some(Kind::Dir) => std::fs::remove_dir_all(self.path.join(name)),
            Some(_) => {
                nix::unistd::unlinkat(&self.fd, name, nix::unistd::UnlinkatFlags::NoRemoveDir)
                    .map_err(io::Error::from)
            }
        }
    }

    /// Why `name` here, which should be a directory of the judge's, cannot
    /// be opened as one.
    fn refused_dir(&self, name: &str, errno: Errno) -> anyhow::Error {
        let path = self.path.join(name);
        // A link to a directory fails as "not a directory" under
        // O_NOFOLLOW; say what it is.
        let link = matches!(errno, Errno::ELOOP | Errno::ENOTDIR)
            && nix::fcntl::readlinkat(&self.fd, name).is_ok();
        let why = match errno {
            Errno::ELOOP => Refused::Link,
            _ if link => Refused::Link,
            Errno::ENOTDIR => Refused::NotDir,
            errno => Refused::Other(anyhow::Error::new(errno)),
        };
        refused_dir(&path, why)
    }
}

/// A file written under a temporary name, put in place by [`Self::keep`].
#[derive(Debug)]
pub struct Pending {
    dir: OwnedFd,
    path: PathBuf,
    temp: String,
    name: String,
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

    /// Puts it in place of whatever had its name; returns where.
    pub fn keep(mut self) -> anyhow::Result<PathBuf> {
        nix::fcntl::renameat(&self.dir, self.temp.as_str(), &self.dir, self.name.as_str())
            .with_context(|| format!("failed to write {}", self.path.display()))?;
        self.kept = true;
        Ok(self.path.clone())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.kept {
            let _ = nix::unistd::unlinkat(
                self.dir.as_fd(),
                self.temp.as_str(),
                nix::unistd::UnlinkatFlags::NoRemoveDir,
            );
        }
    }
}

/// `.sudoku-judge/` in the working directory, checked to be the user's
/// own: made when `create` and missing; `Ok(None)` when missing and not
/// `create`.
pub fn state_dir(create: bool) -> anyhow::Result<Option<Dir>> {
    let cwd = Dir {
        fd: nix::fcntl::open(
            ".",
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .context("failed to open the working directory")?,
        path: PathBuf::new(),
    };
    let Some(dir) = cwd.subdir(STATE_DIR, create)? else {
        return Ok(None);
    };
    ensure_own(&dir)?;
    Ok(Some(dir))
}

/// Refuses a directory of the judge's records that another user owns or
/// every user may write: their records could be planted.
fn ensure_own(dir: &Dir) -> anyhow::Result<()> {
    let stat = nix::sys::stat::fstat(&dir.fd)
        .with_context(|| format!("failed to read {}", dir.path.display()))?;
    let me = nix::unistd::geteuid().as_raw();
    if stat.st_uid != me {
        bail!(
            "{} belongs to uid {}, not to you (uid {me}), and the judge keeps its records only \
             in a directory of your own; remove it (`rm -r {}`), or judge from a directory of \
             yours",
            dir.path.display(),
            stat.st_uid,
            dir.path.display()
        );
    }
    if stat.st_mode & 0o002 != 0 {
        bail!(
            "{} is writable by every user, so anyone could plant records in it; make it yours \
             alone (`chmod o-w {}`) or remove it",
            dir.path.display(),
            dir.path.display()
        );
    }
    Ok(())
}

/// The device and inode of `dir`: which directory it is, wherever it was
/// reached from.
pub(super) fn dir_id(dir: &Path) -> anyhow::Result<(u64, u64)> {
    let meta =
        std::fs::metadata(dir).with_context(|| format!("failed to read {}", dir.display()))?;
    Ok((meta.dev(), meta.ino()))
}

/// The bytes of a path that is not UTF-8, as a record keeps them.
pub(super) fn path_bytes(path: &Path) -> super::PathText {
    super::PathText::Bytes {
        bytes: path.as_os_str().as_bytes().to_vec(),
    }
}

/// A path kept as bytes, read back.
pub(super) fn from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// A path kept as UTF-16 (written on Windows), read back as near as
/// a Unix name can be.
pub(super) fn from_wide(wide: &[u16]) -> PathBuf {
    PathBuf::from(String::from_utf16_lossy(wide))
}
