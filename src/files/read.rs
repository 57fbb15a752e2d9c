//! Reading: every file the judge did not write, whoever supplies it (a
//! case pack's inputs, expected outputs, `judge.toml`s and references; the
//! puzzle files of `bench`, `rate`, `check`, `calibrate` and `hack`; a
//! baseline report; the judge's own records, which a planted file could
//! pose as). People judge suites they download, so nothing read may hang
//! the judge, grow it without bound, or show it a file it was not given.
//!
//! - Only regular files are read. A FIFO, device, socket or directory is
//!   refused before it is opened, and the open itself never blocks
//!   (`O_NONBLOCK`, then `fstat` on what was opened, for a file swapped
//!   after the check).
//! - A file with more than one name (a hard link, `nlink > 1`) is refused
//!   before a byte of it is read, whoever owns it, root's files included:
//!   a hard link is how a pack would show a root-run judge `/etc/shadow` as
//!   an expected output. The check is made on the open descriptor, so
//!   nothing swapped in meanwhile escapes it.
//! - Reading is bounded: no line is longer than [`MAX_LINE_BYTES`]
//!   ([`LineCapped`], for formats read line by line, which then hold one
//!   line at a time), text parsed whole is at most [`MAX_WHOLE_BYTES`]
//!   ([`read_whole`]), and a file read whole with a cap of its own
//!   ([`read_capped`]) is refused by its size before a byte is read.
//! - A file whose real path (symbolic links resolved) lies outside the
//!   directory it was found under is refused, naming the link and nothing
//!   of what it points to, unless `--follow-outside-links` allows it
//!   ([`Fence`]). The check is made again on what was opened (its device
//!   and inode), so a link swapped in between the check and the open is
//!   caught.
//! - Whether the user running the judge owns a file is kept with it
//!   ([`Opened::own`]): only then do error messages quote its bytes.
//! - A record of the judge's own is read only through
//!   [`super::Dir::read_own`]: not through a link, and only when it is the
//!   user's own file in a directory of theirs.
//!
//! On Windows std shows neither a file's owner nor its count of hard
//! links, nor an inode: there the hard-link check is not made, every file
//! counts as the user's own, and what was opened is matched to what the
//! path led to by its creation and write times, size and attributes
//! instead of its inode (see `windows.rs`; docs/security.md says so). The
//! rest holds as on Unix.

use std::fs::{File, Metadata};
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::os;

/// The longest line read: a thousand times the longest line a board takes.
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// The most text parsed whole (a LeetCode literal or a grid file, a
/// `judge.toml`): some ten thousand boards.
pub(crate) const MAX_WHOLE_BYTES: u64 = 4 << 20;

/// Whether a suite's files may resolve outside it: `Followed` with
/// `--follow-outside-links`, for suites that share files by links on
/// purpose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum OutsideLinks {
    #[default]
    Refused,
    Followed,
}

/// The metadata `meta` read of `path`, unless it failed or is not a
/// regular file's: `what` names the file's role (`case input`, `expected
/// output`).
fn regular(meta: io::Result<Metadata>, path: &Path, what: &str) -> anyhow::Result<Metadata> {
    let meta = meta.with_context(|| format!("failed to read {what} {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{what} {} is {}, not a regular file; only regular files are read",
            path.display(),
            os::kind_words(meta.file_type())
        );
    }
    Ok(meta)
}

/// Opens the regular file `path` for reading, without blocking on what
/// is not one; a file with other names (hard links) is refused before a
/// byte of it is read. `what` names its role in errors.
pub(crate) fn open_regular(path: &Path, what: &str) -> anyhow::Result<File> {
    regular(std::fs::metadata(path), path, what)?;
    // Opening a FIFO swapped in after the check must not wait for a
    // writer.
    let file = os::open_nonblocking(path)
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    let meta = regular(file.metadata(), path, what)?;
    let links = os::links(&meta);
    if links > 1 {
        bail!(
            "{what} {} is a hard link (the file has {links} names), so it is not read: a hard \
             link can make any file, another user's included, look like one of yours; if the \
             file belongs here, put a copy of it in the link's place",
            path.display(),
        );
    }
    Ok(file)
}

/// Opens the regular file `path` (see [`open_regular`]) to read at most
/// `cap` bytes of it: a larger file is refused by its size before a byte
/// is read. Returns it limited to one byte past the cap, so a file that
/// grows while it is read is caught by [`ensure_within`].
fn open_capped(path: &Path, what: &str, cap: u64) -> anyhow::Result<io::Take<File>> {
    let file = open_regular(path, what)?;
    let size = file
        .metadata()
        .with_context(|| format!("failed to read {what} {}", path.display()))?
        .len();
    ensure_within(size, path, what, cap)?;
    Ok(file.take(cap + 1))
}

/// Refuses `size` bytes of `path` when they are more than `cap`.
fn ensure_within(size: u64, path: &Path, what: &str, cap: u64) -> anyhow::Result<()> {
    if size > cap {
        bail!(
            "{what} {} is larger than {}, more than the judge reads of such a file",
            path.display(),
            bytes_in_words(cap)
        );
    }
    Ok(())
}

/// Reads the regular file `path` whole (see [`open_regular`]), at most
/// `cap` bytes: a larger file is refused by its size before a byte is
/// read, and one that grows while read is cut off past the cap with an
/// error. `what` names its role in errors.
pub(crate) fn read_capped(path: &Path, what: &str, cap: u64) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_capped(path, what, cap)?
        .read_to_end(&mut bytes)
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    ensure_within(bytes.len() as u64, path, what, cap)?;
    Ok(bytes)
}

/// [`read_capped`], as text: what is not UTF-8 is an error naming the
/// file.
pub(crate) fn read_text(path: &Path, what: &str, cap: u64) -> anyhow::Result<String> {
    String::from_utf8(read_capped(path, what, cap)?)
        .map_err(|_| anyhow::anyhow!("{what} {} is not UTF-8 text", path.display()))
}

/// Reads the regular file `path` (see [`open_regular`]) as text of a
/// format read line by line: at most `cap` bytes (a larger file is refused
/// by its size before a byte is read), no line longer than
/// [`MAX_LINE_BYTES`] (found after reading at most that much of it), so
/// an endless or sparse file is refused in bounded memory. Errors name
/// the file, and the line when one is too long.
pub(crate) fn read_lines(path: &Path, what: &str, cap: u64) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    LineCapped::new(io::BufReader::new(open_capped(path, what, cap)?))
        .read_to_end(&mut bytes)
        .with_context(|| format!("failed to read {what} {}", path.display()))?;
    ensure_within(bytes.len() as u64, path, what, cap)?;
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{what} {} is not UTF-8 text", path.display()))
}

/// A record already opened and checked (see [`super::Dir::read_own`]),
/// read whole: at most `cap` bytes.
pub(super) fn read_record(file: File, path: &Path, cap: u64) -> anyhow::Result<String> {
    let mut text = String::new();
    file.take(cap + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("failed to read {}", path.display()))?;
    if text.len() as u64 > cap {
        bail!(
            "{} is larger than {}, larger than any record the judge writes",
            path.display(),
            bytes_in_words(cap)
        );
    }
    Ok(text)
}

/// A size as people read it: in MiB or KiB when whole, else in bytes.
fn bytes_in_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
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
/// line, or holding a `judge.toml`): what [`Fence::open`] holds the files
/// to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fence {
    root: PathBuf,
    /// `root` with its links resolved, once.
    real_root: PathBuf,
    links: OutsideLinks,
}

/// A suite's file, opened: read from `file`, and quote it only when `own`.
#[derive(Debug)]
pub(crate) struct Opened {
    pub(crate) file: File,
    /// The user running the judge owns it, so its bytes may be quoted back
    /// to them in an error; a file of someone else's is named by line and
    /// column only.
    pub(crate) own: bool,
}

impl Fence {
    /// The fence of `root`, as it is now; links out of it are as `links`
    /// says.
    pub(crate) fn new(root: &Path, links: OutsideLinks) -> Fence {
        Fence {
            root: root.to_path_buf(),
            real_root: std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()),
            links,
        }
    }

    /// Refuses `path` when its real path lies outside the fence, unless
    /// links out are followed. The error names the link, never what it
    /// points to.
    pub(crate) fn ensure_inside(&self, path: &Path, what: &str) -> anyhow::Result<()> {
        match std::fs::canonicalize(path) {
            // A missing file is for the open to report.
            Ok(real)
                if self.links == OutsideLinks::Refused && !real.starts_with(&self.real_root) =>
            {
                Err(outside(what, path, &self.root))
            }
            _ => Ok(()),
        }
    }

    /// Opens `path`, a file of the suite, for reading: `what` names its
    /// role in errors (`case input`, `expected output`). Refused: a file
    /// that is not a regular file, one that resolves outside the fence
    /// (unless links out are allowed), and one with other hard links (see
    /// [`open_regular`]). Nothing is read before these checks.
    pub(crate) fn open(&self, path: &Path, what: &str) -> anyhow::Result<Opened> {
        let follow = self.links == OutsideLinks::Followed;
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
pub(crate) fn fence_of(path: &Path) -> PathBuf {
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
pub(crate) fn read_whole(
    mut input: impl Read,
    name: &dyn std::fmt::Display,
) -> anyhow::Result<Vec<u8>> {
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
pub(crate) struct LineCapped<R> {
    inner: R,
    /// Bytes since the last newline.
    run: usize,
    /// The line being read, 1-based.
    line: usize,
    cap: usize,
}

impl<R: BufRead> LineCapped<R> {
    pub(crate) fn new(inner: R) -> Self {
        Self::with_cap(inner, MAX_LINE_BYTES)
    }

    pub(crate) fn with_cap(inner: R, cap: usize) -> Self {
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
                bytes_in_words(self.cap as u64)
            ),
        )
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
    fn a_hard_link_is_refused_before_it_is_read_whoever_owns_it() {
        let tmp = tempfile::tempdir().unwrap();
        let suite = tmp.path().join("suite");
        std::fs::create_dir(&suite).unwrap();
        std::fs::write(tmp.path().join("secret"), "root:x:0:0\n").unwrap();
        std::fs::hard_link(tmp.path().join("secret"), suite.join("a.out")).unwrap();
        std::fs::write(suite.join("b.out"), "mine").unwrap();
        // Ours (root's, when the tests run as root): refused all the same.
        let err = Fence::new(&suite, OutsideLinks::Refused)
            .open(&suite.join("a.out"), "expected output")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("expected output ")
                && err.contains("a.out is a hard link (the file has 2 names), so it is not read")
                && err.contains("put a copy of it in the link's place"),
            "{err}"
        );
        assert!(!err.contains("secret") && !err.contains("root:"), "{err}");
        // Every reader of the door refuses it too.
        for err in [
            open_regular(&suite.join("a.out"), "puzzle file").unwrap_err(),
            read_capped(&suite.join("a.out"), "puzzle file", 1 << 20).unwrap_err(),
            read_lines(&suite.join("a.out"), "puzzle file", 1 << 20).unwrap_err(),
        ] {
            assert!(err.to_string().contains("is a hard link"), "{err}");
        }
        // A file with one link is read, and it is ours to quote.
        let opened = Fence::new(&suite, OutsideLinks::Refused)
            .open(&suite.join("b.out"), "expected output")
            .unwrap();
        assert!(opened.own);
    }

    #[cfg(unix)]
    #[test]
    fn a_sparse_file_is_refused_by_its_size_and_a_device_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let sparse = tmp.path().join("sparse.txt");
        // A gigabyte that takes no room on disk.
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        for err in [
            read_capped(&sparse, "puzzle file", 256 << 20).unwrap_err(),
            read_lines(&sparse, "puzzle file", 256 << 20).unwrap_err(),
        ] {
            let err = err.to_string();
            assert!(
                err.ends_with(
                    "sparse.txt is larger than 256 MiB, more than the judge reads of such a file"
                ),
                "{err}"
            );
        }
        // Within the cap, no line may pass the line cap: a file of NULs
        // with no newline fails after a MiB, not after reading it all.
        let err = format!(
            "{:#}",
            read_lines(&sparse, "puzzle file", 2 << 30).unwrap_err()
        );
        assert!(
            err.contains("sparse.txt: line 1 is longer than 1 MiB"),
            "{err}"
        );
        for device in ["/dev/zero", "/dev/null"] {
            let err = read_lines(Path::new(device), "puzzle file", 1 << 20)
                .unwrap_err()
                .to_string();
            assert!(err.contains(&format!("{device} is a device")), "{err}");
        }
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
        let fence = Fence::new(&suite, OutsideLinks::Refused);
        let err = fence
            .ensure_inside(&suite.join("a.out"), "expected output")
            .unwrap_err()
            .to_string();
        assert!(err.contains("a.out links outside"), "{err}");
        assert!(!err.contains("secret") && !err.contains("root"), "{err}");
        fence
            .ensure_inside(&suite.join("b.out"), "expected output")
            .unwrap();
        // With --follow-outside-links, the link out is read.
        let followed = Fence::new(&suite, OutsideLinks::Followed);
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut followed
                .open(&suite.join("a.out"), "expected output")
                .unwrap()
                .file,
            &mut text,
        )
        .unwrap();
        assert_eq!(text, "root:x:0:0\n");
    }
}
