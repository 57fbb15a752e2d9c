//! Opening the files a suite supplies: case inputs, expected outputs,
//! `judge.toml`s and the references they name. People judge suites they
//! download, so nothing in one may hang the judge, grow it without bound,
//! or make it read a file outside the suite.
//!
//! - Only regular files are read. A FIFO, device, socket or directory is
//!   refused before it is opened, and the open itself never blocks
//!   (`O_NONBLOCK`, then `fstat` on what was opened, for a file swapped
//!   after the check).
//! - No line is longer than [`MAX_LINE_BYTES`]: a longer one is an error
//!   naming its file and line, found after reading at most that much of it.
//!   Text parsed whole is at most [`MAX_WHOLE_BYTES`].
//! - A file whose real path (symbolic links resolved) lies outside the
//!   directory it was found under is refused, naming the link and nothing
//!   of what it points to, unless `--follow-outside-links` allows it. The
//!   check is made again on what was opened (its device and inode), so a
//!   link swapped in between the check and the open is caught.
//! - A file with other hard links that belongs to someone else than the
//!   suite's owner (the owner of the directory given on the command line)
//!   is refused before a byte of it is read ([`Fence::open`]): a hard link
//!   is how a pack would show a root-run judge `/etc/shadow` as an expected
//!   output. The check is made on the open descriptor, so nothing swapped
//!   in meanwhile escapes it.
//! - Whether the user running the judge owns a file is kept with it
//!   ([`Opened::own`]): only then do error messages quote its bytes.
//!
//! On Windows std shows neither a file's owner nor its count of hard
//! links, nor an inode: there the hard-link check is not made, every file
//! counts as the user's own, and what was opened is matched to what the
//! path led to by its creation and write times, size and attributes
//! instead of its inode (the `os` functions at the end of this file;
//! docs/security.md says so). The rest holds as on Unix.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context as _};

/// The longest line read: a thousand times the longest line a board takes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most text parsed whole (a LeetCode literal or a grid file, a
/// `judge.toml`): some ten thousand boards.
pub const MAX_WHOLE_BYTES: u64 = 4 << 20;

/// Whether links out of a suite are followed (`--follow-outside-links`).
static FOLLOW_OUTSIDE_LINKS: AtomicBool = AtomicBool::new(false);

/// Lets files of a suite resolve outside it, for suites that share files
/// by links on purpose.
pub fn follow_outside_links(follow: bool) {
    FOLLOW_OUTSIDE_LINKS.store(follow, Ordering::SeqCst);
}

/// What a file that is not a regular file is, in words.
#[cfg(unix)]
fn kind(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
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

/// What a file that is not a regular file is, in words.
#[cfg(windows)]
fn kind(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Refuses `path` unless it is a regular file: `what` names its role
/// (`case input`, `expected output`).
pub fn ensure_regular(path: &Path, what: &str) -> anyhow::Result<()> {
    let meta = std::fs::metadata(path)
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{what} {} is {}, not a regular file; only regular files are read",
            path.display(),
            kind(meta.file_type())
        );
    }
    Ok(())
}

/// Opens the regular file `path` for reading, without blocking on what
/// is not one.
pub fn open_regular(path: &Path, what: &str) -> anyhow::Result<File> {
    ensure_regular(path, what)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opening a FIFO swapped in after the check must not wait for a
    // writer. (Windows has no FIFO in a directory to open.)
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{what} {} is {}, not a regular file; only regular files are read",
            path.display(),
            kind(meta.file_type())
        );
    }
    Ok(file)
}

/// Refuses `path` when its real path lies outside `root`'s (the directory
/// given on the command line), unless links out are allowed. The error
/// names the link, never what it points to.
pub fn ensure_inside(root: &Path, path: &Path, what: &str) -> anyhow::Result<()> {
    if FOLLOW_OUTSIDE_LINKS.load(Ordering::SeqCst) {
        return Ok(());
    }
    let Ok(real) = std::fs::canonicalize(path) else {
        // A missing file is for the open to report.
        return Ok(());
    };
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if !real.starts_with(&real_root) {
        return Err(outside(what, path, root));
    }
    Ok(())
}

/// The error for `path`, which links out of `root`: naming the link,
/// never what it points to.
fn outside(what: &str, path: &Path, root: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{what} {} links outside {}, so it is not read; give --follow-outside-links to read \
         files a suite links to elsewhere",
        path.display(),
        root.display()
    )
}

/// The directory a suite's files were found under (given on the command
/// line, or holding a `judge.toml`) and its owner: what [`Fence::open`]
/// holds the files to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    root: PathBuf,
    /// `root` with its links resolved, once.
    real_root: PathBuf,
    /// The uid owning `root`; `None` when it cannot be read (the open then
    /// reports what is wrong).
    owner: Option<u32>,
}

/// A suite's file, opened: read from `file`, and quote it only when `own`.
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    /// The user running the judge owns it, so its bytes may be quoted back
    /// to them in an error; a file of someone else's is named by line and
    /// column only.
    pub own: bool,
}

impl Fence {
    /// The fence of `root`, as it is now.
    pub fn new(root: &Path) -> Fence {
        Fence {
            root: root.to_path_buf(),
            real_root: std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()),
            owner: std::fs::metadata(root).ok().and_then(|m| os::owner(&m)),
        }
    }

    /// Opens `path`, a file of the suite, for reading: `what` names its
    /// role in errors (`case input`, `expected output`). Refused: a file
    /// that is not a regular file, one that resolves outside the fence
    /// (unless links out are allowed), and one with other hard links that
    /// is not the suite owner's. Nothing is read before these checks.
    pub fn open(&self, path: &Path, what: &str) -> anyhow::Result<Opened> {
        let follow = FOLLOW_OUTSIDE_LINKS.load(Ordering::SeqCst);
        // Where the path leads, before anything is opened; a missing file
        // is for the open to report.
        let real = match std::fs::canonicalize(path) {
            Ok(real) if !follow && !real.starts_with(&self.real_root) => {
                return Err(outside(what, path, &self.root))
            }
            Ok(real) => Some(real),
            Err(_) => None,
        };
        let file = open_regular(path, what)?;
        let meta = file
            .metadata()
            .with_context(|| format!("failed to read {what} {}", path.display()))?;
        if let Some(uid) = os::foreign_link(&meta, self.owner) {
            let owner = self
                .owner
                .map_or_else(|| "unknown".to_string(), |uid| format!("uid {uid}"));
            bail!(
                "{what} {} is a hard link to a file of uid {uid}, not of {}'s owner ({owner}), \
                 so it is not read: a suite may hold only its owner's files; copy the file into \
                 the suite if it belongs there",
                path.display(),
                self.root.display(),
            );
        }
        if !follow {
            // What was opened must be what the path led to inside the
            // suite: a link swapped in meanwhile leads elsewhere.
            let same = real
                .and_then(|real| std::fs::metadata(real).ok())
                .is_some_and(|seen| os::same_file(&seen, &meta));
            if !same {
                bail!(
                    "{what} {} changed while it was opened (a link swapped in?), so it is not \
                     read",
                    path.display()
                );
            }
        }
        Ok(Opened {
            file,
            own: os::runs_as_owner(&meta),
        })
    }
}

/// The directory a case's files must stay in: `path` itself when it is a
/// directory, else the one holding it.
pub fn fence_of(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.to_path_buf()
    } else {
        match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }
}

/// Reads at most [`MAX_WHOLE_BYTES`] of `input`, an error past that.
pub fn read_whole(mut input: impl Read, name: &dyn std::fmt::Display) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut input)
        .take(MAX_WHOLE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("failed to read {name}"))?;
    if bytes.len() as u64 > MAX_WHOLE_BYTES {
        bail!(
            "{name} is larger than {} MiB, more than the judge reads of a file in this format; \
             AcWing lines (one puzzle a line) have no such limit",
            MAX_WHOLE_BYTES >> 20
        );
    }
    Ok(bytes)
}

/// A reader that fails on a line longer than [`MAX_LINE_BYTES`], so that
/// whatever reads it line by line holds at most that much.
pub struct LineCapped<R> {
    inner: R,
    /// Bytes since the last newline.
    run: usize,
    /// The line being read, 1-based.
    line: usize,
    cap: usize,
}

impl<R: BufRead> LineCapped<R> {
    pub fn new(inner: R) -> Self {
        Self::with_cap(inner, MAX_LINE_BYTES)
    }

    pub fn with_cap(inner: R, cap: usize) -> Self {
        Self {
            inner,
            run: 0,
            line: 1,
            cap,
        }
    }

    fn too_long(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "line {} is longer than {}, longer than any board can be",
                self.line,
                words_of(self.cap)
            ),
        )
    }
}

fn words_of(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

impl<R: BufRead> Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineCapped<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > self.cap {
            return Err(self.too_long());
        }
        let room = self.cap + 1 - self.run;
        let buf = self.inner.fill_buf()?;
        // Hand out no more than the line may still take, so a reader never
        // gets past the cap unnoticed.
        let end = match memchr::memchr(b'\n', &buf[..buf.len().min(room)]) {
            Some(at) if at < room => at + 1,
            _ => buf.len().min(room),
        };
        Ok(&buf[..end])
    }

    fn consume(&mut self, amount: usize) {
        // `amount` is at most what `fill_buf` handed out, which holds a
        // newline only as its last byte.
        let ends_line = {
            let buf = self.inner.fill_buf().unwrap_or(&[]);
            amount > 0 && buf.get(amount - 1) == Some(&b'\n')
        };
        self.inner.consume(amount);
        if ends_line {
            self.run = 0;
            self.line += 1;
        } else {
            self.run += amount;
        }
    }
}

/// What Unix shows of a file: its owner, hard links and inode.
#[cfg(unix)]
mod os {
    use std::fs::Metadata;
    use std::os::unix::fs::MetadataExt as _;

    /// The effective uid of the judge: whose files it may quote.
    pub fn running_uid() -> u32 {
        nix::unistd::geteuid().as_raw()
    }

    /// The uid owning a file.
    pub fn owner(meta: &Metadata) -> Option<u32> {
        Some(meta.uid())
    }

    /// The owner of a file with other hard links that `owner` (the
    /// suite's) does not own: a file the suite may not show.
    pub fn foreign_link(meta: &Metadata, owner: Option<u32>) -> Option<u32> {
        (meta.nlink() > 1 && Some(meta.uid()) != owner).then_some(meta.uid())
    }

    /// Whether the two are one file: the same device and inode.
    pub fn same_file(a: &Metadata, b: &Metadata) -> bool {
        a.dev() == b.dev() && a.ino() == b.ino()
    }

    /// Whether the user running the judge owns the file.
    pub fn runs_as_owner(meta: &Metadata) -> bool {
        meta.uid() == running_uid()
    }
}

/// What std shows of a file on Windows: no owner, no count of hard links,
/// no file index (those need `windows_by_handle`, not stable).
#[cfg(windows)]
mod os {
    use std::fs::Metadata;
    use std::os::windows::fs::MetadataExt as _;

    /// Not shown: a suite has no owner to hold its files to.
    pub fn owner(_: &Metadata) -> Option<u32> {
        None
    }

    /// Not checked: the link count is not shown. (NTFS lets a user make a
    /// hard link only to a file they may write, so a pack made elsewhere
    /// cannot carry one to a file of this machine.)
    pub fn foreign_link(_: &Metadata, _: Option<u32>) -> Option<u32> {
        None
    }

    /// Whether the two are one file, as near as std shows: the same
    /// creation and write times (100 ns ticks), size and attributes. A file
    /// swapped in would have to match all four.
    pub fn same_file(a: &Metadata, b: &Metadata) -> bool {
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

    /// Taken as yes: the owner is not shown, and a file that led outside
    /// the suite is refused before this. Errors quote the suite's bytes.
    pub fn runs_as_owner(_: &Metadata) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_cap_is_an_error_naming_it() {
        let text = "short\nlonger than ten\nok\n";
        let mut lines = LineCapped::with_cap(text.as_bytes(), 10);
        let mut line = Vec::new();
        assert_eq!(lines.read_until(b'\n', &mut line).unwrap(), 6);
        line.clear();
        let err = lines.read_until(b'\n', &mut line).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2 is longer than 10 bytes, longer than any board can be"
        );
        assert!(line.len() <= 11, "{}", line.len());
        // Lines within the cap read as they are.
        let mut all = String::new();
        LineCapped::with_cap("a\nbb\n\nccc".as_bytes(), 3)
            .read_to_string(&mut all)
            .unwrap();
        assert_eq!(all, "a\nbb\n\nccc");
    }

    #[test]
    fn an_endless_line_is_read_in_bounded_memory() {
        let zeros = io::BufReader::new(io::repeat(b'0'));
        let mut line = Vec::new();
        let err = LineCapped::new(zeros)
            .read_until(b'\n', &mut line)
            .unwrap_err();
        assert!(err.to_string().starts_with("line 1 is longer than 1 MiB"));
        assert!(line.len() <= MAX_LINE_BYTES + 1);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_opened() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("fifo.in");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let err = open_regular(&fifo, "case input").unwrap_err().to_string();
        assert!(
            err.ends_with("fifo.in is a FIFO, not a regular file; only regular files are read"),
            "{err}"
        );
        let err = open_regular(tmp.path(), "case input")
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a directory"), "{err}");
        let err = open_regular(Path::new("/dev/zero"), "case input")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/dev/zero is a device"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_to_a_file_of_someone_else_is_refused_before_it_is_read() {
        use super::os::running_uid;
        let tmp = tempfile::tempdir().unwrap();
        let suite = tmp.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        std::fs::write(tmp.path().join("secret"), "root:x:0:0\n").unwrap();
        std::fs::hard_link(tmp.path().join("secret"), suite.join("a.out")).unwrap();
        std::fs::write(suite.join("b.out"), "mine").unwrap();
        // The suite as another user's: the file, ours, is not its owner's.
        let theirs = Fence {
            owner: Some(running_uid().wrapping_add(1)),
            ..Fence::new(&suite)
        };
        let err = theirs
            .open(&suite.join("a.out"), "expected output")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!(
                "a.out is a hard link to a file of uid {}, not of",
                running_uid()
            )),
            "{err}"
        );
        assert!(!err.contains("secret") && !err.contains("root:"), "{err}");
        // A file with one link is the suite's, whoever owns it; and the
        // owner's own hard links are theirs to make.
        assert!(theirs.open(&suite.join("b.out"), "expected output").is_ok());
        let opened = Fence::new(&suite)
            .open(&suite.join("a.out"), "expected output")
            .unwrap();
        assert!(opened.own);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_suite_is_refused_without_quoting_its_target() {
        let tmp = tempfile::tempdir().unwrap();
        let suite = tmp.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        std::fs::write(tmp.path().join("secret"), "root:x:0:0\n").unwrap();
        std::fs::write(suite.join("inside"), "x").unwrap();
        std::os::unix::fs::symlink("../secret", suite.join("a.out")).unwrap();
        std::os::unix::fs::symlink("inside", suite.join("b.out")).unwrap();
        let err = ensure_inside(&suite, &suite.join("a.out"), "expected output")
            .unwrap_err()
            .to_string();
        assert!(err.contains("a.out links outside"), "{err}");
        assert!(!err.contains("secret") && !err.contains("root"), "{err}");
        ensure_inside(&suite, &suite.join("b.out"), "expected output").unwrap();
    }
}
