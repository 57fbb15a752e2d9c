//! The Unix side of the door: a directory is held by its descriptor and
//! every name in it is reached through that descriptor (`openat`,
//! `mkdirat`, `renameat`, `linkat`, `O_NOFOLLOW`), so nothing swapped in
//! after a check is followed; a file is opened without blocking; owners,
//! modes and link counts are read from what was opened.

use std::fs::{File, Metadata};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag};
use nix::sys::stat::Mode;

use super::read::read_record;
use super::write::{refused_dir, temp_name, Kind, Refused};

/// A directory opened without following a link to it: what is made and
/// read in it is reached through its descriptor.
#[derive(Debug)]
pub(crate) struct Dir {
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

/// The flags every directory is opened with.
fn dir_flags() -> OFlag {
    OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC
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
        match nix::fcntl::open(at, dir_flags(), Mode::empty()) {
            Ok(fd) => Ok(Some(Dir {
                fd,
                path: path.to_path_buf(),
            })),
            Err(Errno::ENOENT) => Ok(None),
            Err(errno) => Err(errno).with_context(|| format!("failed to open {}", path.display())),
        }
    }

    /// How it is named in messages.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// What `name` is here, not following a link; `None` when absent.
    pub(crate) fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
        match nix::sys::stat::fstatat(&self.fd, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(kind_of(stat.st_mode))),
            Err(Errno::ENOENT) => Ok(None),
            Err(errno) => Err(errno.into()),
        }
    }

    /// The directory `name` here, opened without following a link; made
    /// (mode 0755, less the umask) when `create` and missing. `Ok(None)`
    /// when missing and not `create`.
    pub(crate) fn subdir(&self, name: &str, create: bool) -> anyhow::Result<Option<Dir>> {
        self.subdir_made(name, create, 0o755)
    }

    /// The directory `name` here for the judge alone, opened without
    /// following a link; made (mode 0700) when missing. Refused unless it
    /// is the user's own and no one else may enter it: what is found in it
    /// was then put there by the user's judge.
    pub(crate) fn private_subdir(&self, name: &str) -> anyhow::Result<Dir> {
        let dir = self
            .subdir_made(name, true, 0o700)?
            .with_context(|| format!("failed to create {}", self.path.join(name).display()))?;
        let stat = nix::sys::stat::fstat(&dir.fd)
            .with_context(|| format!("failed to read {}", dir.path.display()))?;
        let me = nix::unistd::geteuid().as_raw();
        if stat.st_uid != me {
            bail!(
                "{} belongs to uid {}, not to you (uid {me}); remove it and run again",
                dir.path.display(),
                stat.st_uid
            );
        }
        if stat.st_mode & 0o077 != 0 {
            bail!(
                "{} may be read or written by other users, and the judge keeps there what \
                 only you may change; remove it and run again",
                dir.path.display()
            );
        }
        Ok(dir)
    }

    fn subdir_made(
        &self,
        name: &str,
        create: bool,
        mode: libc::mode_t,
    ) -> anyhow::Result<Option<Dir>> {
        let path = self.path.join(name);
        let open = || {
            nix::fcntl::openat(
                &self.fd,
                name,
                dir_flags() | OFlag::O_NOFOLLOW,
                Mode::empty(),
            )
        };
        let fd = match open() {
            Ok(fd) => fd,
            Err(Errno::ENOENT) if create => {
                match nix::sys::stat::mkdirat(&self.fd, name, Mode::from_bits_truncate(mode)) {
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
    pub(crate) fn make_dir(&self, name: &str) -> io::Result<()> {
        nix::sys::stat::mkdirat(&self.fd, name, Mode::from_bits_truncate(0o755))
            .map_err(io::Error::from)
    }

    /// Creates the file `name` here, which must not exist yet (nor be a
    /// link): nothing is ever written through a name that was there.
    pub(crate) fn create_new(&self, name: &str) -> io::Result<File> {
        self.create_with_mode(name, 0o644)
    }

    /// [`Self::create_new`], readable by its owner alone.
    pub(crate) fn create_private(&self, name: &str) -> io::Result<File> {
        self.create_with_mode(name, 0o600)
    }

    /// [`Self::create_new`], read-only: a program the judge copied
    /// (executable when `executable`) or its data, which no run changes.
    pub(crate) fn create_read_only(&self, name: &str, executable: bool) -> io::Result<File> {
        self.create_with_mode(name, if executable { 0o555 } else { 0o444 })
    }

    fn create_with_mode(&self, name: &str, mode: libc::mode_t) -> io::Result<File> {
        let fd = nix::fcntl::openat(
            &self.fd,
            name,
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(mode),
        )?;
        Ok(File::from(fd))
    }

    /// A file to become `name` here once [`Pending::keep`] (or
    /// [`Pending::keep_new`]) is called; until then a temporary file,
    /// removed if it is dropped.
    pub(crate) fn pending(&self, name: &str) -> anyhow::Result<Pending> {
        self.pending_with(name, false)
    }

    /// [`Self::pending`], for a file readable by its owner alone.
    pub(crate) fn pending_private(&self, name: &str) -> anyhow::Result<Pending> {
        self.pending_with(name, true)
    }

    fn pending_with(&self, name: &str, private: bool) -> anyhow::Result<Pending> {
        let temp = temp_name(name);
        let file = if private {
            self.create_private(&temp)
        } else {
            self.create_new(&temp)
        }
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

    /// Gives the file at `source` the name `name` here too (a hard link),
    /// only where nothing has that name: an error of kind `AlreadyExists`
    /// otherwise. How a file staged elsewhere on the same file system is
    /// moved into place without replacing anything.
    pub(crate) fn link_from(&self, source: &Path, name: &str) -> io::Result<()> {
        nix::unistd::linkat(
            nix::fcntl::AT_FDCWD,
            source,
            &self.fd,
            name,
            AtFlags::empty(),
        )
        .map_err(io::Error::from)
    }

    /// Makes the symbolic link `name` here, leading to `target`, only where
    /// nothing has that name.
    pub(crate) fn symlink(&self, target: &Path, name: &str) -> io::Result<()> {
        nix::unistd::symlinkat(target, &self.fd, name).map_err(io::Error::from)
    }

    /// Renames `from` here to `to` here: a directory only where nothing has
    /// its name, or an empty directory does.
    pub(crate) fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        nix::fcntl::renameat(&self.fd, from, &self.fd, to).map_err(io::Error::from)
    }

    /// Reads the record `name` here, at most `cap` bytes of it, never
    /// through a link; only a regular file of the user's own with one link
    /// is read. `Ok(None)` when it is missing.
    pub(crate) fn read_own(&self, name: &str, cap: u64) -> anyhow::Result<Option<String>> {
        let path = self.path.join(name);
        let fd = match nix::fcntl::openat(
            &self.fd,
            name,
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(Errno::ENOENT) => return Ok(None),
            Err(Errno::ELOOP) => return Err(super::write::link_not_read(&path)),
            Err(errno) => {
                return Err(errno).with_context(|| format!("failed to read {}", path.display()))
            }
        };
        let file = File::from(fd);
        let meta = file
            .metadata()
            .with_context(|| format!("failed to read {}", path.display()))?;
        if !meta.is_file() {
            return Err(super::write::not_regular(&path));
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
        if meta.nlink() > 1 {
            bail!(
                "{} has {} hard links, and a record the judge wrote has one, so it is not \
                 read; remove it (`rm {}`)",
                path.display(),
                meta.nlink(),
                path.display()
            );
        }
        read_record(file, &path, cap).map(Some)
    }

    /// Refuses this directory, which should hold the judge's records, when
    /// another user owns it or other users may write it: their records
    /// could be planted.
    pub(crate) fn ensure_own(&self) -> anyhow::Result<()> {
        let stat = nix::sys::stat::fstat(&self.fd)
            .with_context(|| format!("failed to read {}", self.path.display()))?;
        let me = nix::unistd::geteuid().as_raw();
        if stat.st_uid != me {
            bail!(
                "{} belongs to uid {}, not to you (uid {me}), and the judge keeps its records \
                 only in a directory of your own; remove it (`rm -r {}`), or run from a \
                 directory of yours",
                self.path.display(),
                stat.st_uid,
                self.path.display()
            );
        }
        for (bit, who, flag) in [(0o002, "every user", "o-w"), (0o020, "its group", "g-w")] {
            if stat.st_mode & bit != 0 {
                bail!(
                    "{} is writable by {who}, so anyone could plant records in it; make it \
                     yours alone (`chmod {flag} {}`) or remove it",
                    self.path.display(),
                    self.path.display()
                );
            }
        }
        Ok(())
    }

    /// Keeps only the access bits of `mask` on this directory, which the
    /// judge made for its records (`0o7755`: no one else writes it;
    /// `0o7700`: no one else reads it either).
    pub(crate) fn restrict(&self, mask: u32) -> anyhow::Result<()> {
        let stat = nix::sys::stat::fstat(&self.fd)
            .with_context(|| format!("failed to read {}", self.path.display()))?;
        let mode = Mode::from_bits_truncate(stat.st_mode & mask as libc::mode_t);
        nix::sys::stat::fchmod(&self.fd, mode)
            .with_context(|| format!("failed to set the mode of {}", self.path.display()))
    }

    /// Removes `name` here: a directory with all it holds (links in it are
    /// removed, never followed), or anything else itself.
    pub(crate) fn remove(&self, name: &str) -> io::Result<()> {
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

    /// Why `name` here, which should be a directory, cannot be opened as
    /// one.
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

/// A file written under a temporary name, put in place by [`Self::keep`]
/// or [`Self::keep_new`].
#[derive(Debug)]
pub(crate) struct Pending {
    dir: OwnedFd,
    path: PathBuf,
    temp: String,
    name: String,
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
    /// replaced, not followed); returns where.
    pub(crate) fn keep(mut self) -> anyhow::Result<PathBuf> {
        nix::fcntl::renameat(&self.dir, self.temp.as_str(), &self.dir, self.name.as_str())
            .with_context(|| format!("failed to write {}", self.path.display()))?;
        self.kept = true;
        Ok(self.path.clone())
    }

    /// Puts it in place only where nothing has its name: an error of kind
    /// `AlreadyExists` otherwise, and nothing there is touched.
    pub(crate) fn keep_new(self) -> io::Result<PathBuf> {
        nix::unistd::linkat(
            &self.dir,
            self.temp.as_str(),
            &self.dir,
            self.name.as_str(),
            AtFlags::empty(),
        )?;
        // The temporary name goes in Drop.
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

/// Opens `path` for reading without blocking on a FIFO or a device
/// swapped in for a regular file.
pub(super) fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// What a file that is not a regular file is, in words.
pub(super) fn kind_words(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_block_device() || file_type.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// How many names the file has: more than one is a hard link.
pub(super) fn links(meta: &Metadata) -> u64 {
    meta.nlink()
}

/// Whether the two are one file: the same device and inode.
pub(super) fn same_file(a: &Metadata, b: &Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// Whether the user running the judge owns the file.
pub(super) fn runs_as_owner(meta: &Metadata) -> bool {
    meta.uid() == nix::unistd::geteuid().as_raw()
}
