//! The Seatbelt profile a run starts under on macOS, as text: a function
//! of the run's scratch directory, the directories it may write and the
//! paths it may read. Kept apart from the backend that uses it
//! ([`super::macos`]) so that it is built and tested on every Unix: the text
//! is the whole of the protection, and a path that could break out of its
//! string would undo it.
//!
//! The profile denies by default, then allows what a compiler or a
//! submission needs: to exec and (unless the run is a LeetCode-style file)
//! fork, to signal its own sandbox, to read the system's directories,
//! Homebrew's and Xcode's, the paths of its plan and its scratch, and to
//! write only there and to a few character devices (`/dev/null`, its own
//! descriptors under `/dev/fd`). Every kind of network access is denied,
//! last, so that no earlier rule can let any of it through.
//!
//! Seatbelt matches the paths the kernel resolved, so every path given
//! here must already be canonical (`/private/var/...`, not `/var/...`).

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// The directories every run may read on macOS: the system's programs and
/// libraries, its configuration, Apple's developer tools, and the prefixes
/// Homebrew installs toolchains under (`/opt/homebrew` on Apple silicon,
/// `/usr/local` on Intel).
pub(crate) const SYSTEM_READABLE: [&str; 12] = [
    "/usr",
    "/bin",
    "/sbin",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var/db/timezone",
    "/private/var/db/dyld",
    "/private/var/select",
    "/Applications/Xcode.app",
    "/opt/homebrew",
    "/dev",
];

/// What a run may reach, as the profile is made from it.
pub(crate) struct Access<'a> {
    /// The run's own scratch directory: readable and writable.
    pub(crate) scratch: &'a Path,
    /// Other directories it may write (a compiler's build directory).
    pub(crate) writable: &'a [PathBuf],
    /// Files and directories it may read, beyond the system's.
    pub(crate) readable: &'a [PathBuf],
    /// Whether it may not start other processes (LeetCode-style files:
    /// threads only, as seccomp holds them to on Linux).
    pub(crate) no_fork: bool,
}

/// The SBPL text of the profile for `access`. An error when a path is not
/// absolute or not UTF-8 (a profile is text: a path it cannot spell
/// exactly would name another).
pub(crate) fn profile(access: &Access<'_>) -> io::Result<String> {
    let mut text = String::from(
        "(version 1)\n\
         (deny default)\n\
         (allow process-exec)\n",
    );
    if !access.no_fork {
        text.push_str("(allow process-fork)\n");
    }
    text.push_str(
        "(allow signal (target same-sandbox))\n\
         (allow process-info* (target same-sandbox))\n\
         (allow sysctl-read)\n\
         (allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n\
         (allow mach-lookup (global-name \"com.apple.system.notification_center\"))\n\
         (allow mach-lookup (global-name \"com.apple.system.logger\"))\n\
         (allow ipc-posix-shm-read-data (ipc-posix-name \"apple.shm.notification_center\"))\n\
         (allow file-read-metadata)\n",
    );
    // Reads: the system's directories, the plan's paths, and what it may
    // write; and mapping code from them, which macOS asks of its own for
    // every library and program (dyld's `mmap` with `PROT_EXEC`).
    text.push_str("(allow file-read* file-map-executable");
    for dir in SYSTEM_READABLE {
        write_filter(&mut text, "subpath", Path::new(dir))?;
    }
    for path in access.readable {
        write_filter(&mut text, "subpath", path)?;
    }
    write_filter(&mut text, "subpath", access.scratch)?;
    for dir in access.writable {
        write_filter(&mut text, "subpath", dir)?;
    }
    text.push_str(")\n");
    // Writes: its scratch, its writable directories, and devices that
    // reach nothing (its own descriptors, already open, under /dev/fd).
    text.push_str("(allow file-write*");
    write_filter(&mut text, "subpath", access.scratch)?;
    for dir in access.writable {
        write_filter(&mut text, "subpath", dir)?;
    }
    for device in ["/dev/null", "/dev/zero", "/dev/dtracehelper"] {
        write_filter(&mut text, "literal", Path::new(device))?;
    }
    write_filter(&mut text, "subpath", Path::new("/dev/fd"))?;
    text.push_str(")\n");
    text.push_str("(allow file-ioctl (literal \"/dev/dtracehelper\"))\n");
    // Denied by default already; said again last, where it wins.
    text.push_str("(deny network*)\n");
    Ok(text)
}

/// Appends ` (KIND "PATH")`, the path as an SBPL string literal.
fn write_filter(text: &mut String, kind: &str, path: &Path) -> io::Result<()> {
    let Some(spelled) = path.to_str().filter(|_| path.is_absolute()) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the Seatbelt profile cannot name {}: not an absolute UTF-8 path",
                path.display()
            ),
        ));
    };
    let _ = write!(text, "\n    ({kind} {})", quoted(spelled));
    Ok(())
}

/// `s` as an SBPL (Scheme) string literal: in quotes, with every quote and
/// backslash escaped, so that nothing in it ends the string early.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access<'a>(
        scratch: &'a Path,
        writable: &'a [PathBuf],
        readable: &'a [PathBuf],
    ) -> Access<'a> {
        Access {
            scratch,
            writable,
            readable,
            no_fork: false,
        }
    }

    /// The filters of the first rule that opens a line with `head`.
    fn rule<'t>(text: &'t str, head: &str) -> &'t str {
        let start = 1 + text
            .find(&format!("\n{head}"))
            .unwrap_or_else(|| panic!("no {head} in\n{text}"));
        let end = text[start..]
            .find(")\n(")
            .map_or(text.len(), |i| start + i + 1);
        &text[start..end]
    }

    /// Reads an SBPL string literal at the start of `s`: its contents and
    /// the rest of `s` after it, as Seatbelt's reader would.
    fn read_string(s: &str) -> (String, &str) {
        let mut chars = s.char_indices();
        assert_eq!(chars.next().map(|(_, c)| c), Some('"'));
        let mut value = String::new();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => value.push(chars.next().unwrap().1),
                '"' => return (value, &s[i + 1..]),
                _ => value.push(c),
            }
        }
        panic!("unterminated string in {s}");
    }

    /// Every `(KIND "PATH")` filter of a rule, as (kind, path) after
    /// reading its string.
    fn filters(rule: &str) -> Vec<(String, String)> {
        let mut found = Vec::new();
        let mut rest = rule;
        while let Some(open) = rest.find("\n    (") {
            let after = &rest[open + 6..];
            let space = after.find(' ').unwrap();
            let (path, tail) = read_string(&after[space + 1..]);
            assert!(
                tail.starts_with(')'),
                "a filter ends after its string: {tail}"
            );
            found.push((after[..space].to_string(), path));
            rest = tail;
        }
        found
    }

    #[test]
    fn the_network_is_denied_last_and_nothing_allows_it() {
        let text = profile(&access(Path::new("/private/tmp/run"), &[], &[])).unwrap();
        assert!(text.starts_with("(version 1)\n(deny default)\n"));
        assert_eq!(text.lines().last(), Some("(deny network*)"));
        assert!(!text.contains("(allow network"));
    }

    #[test]
    fn writes_are_allowed_only_in_the_scratch_and_the_writable_directories() {
        let writable = [PathBuf::from("/Users/ana/Library/Caches/sudoku-judge/b1")];
        let readable = [PathBuf::from("/Users/ana/work/a.out")];
        let text = profile(&access(
            Path::new("/private/var/folders/x/T/run"),
            &writable,
            &readable,
        ))
        .unwrap();
        assert_eq!(text.matches("(allow file-write*").count(), 1);
        let writes = filters(rule(&text, "(allow file-write*"));
        let subpaths: Vec<&str> = writes
            .iter()
            .filter(|(kind, _)| kind == "subpath")
            .map(|(_, path)| path.as_str())
            .collect();
        assert_eq!(
            subpaths,
            [
                "/private/var/folders/x/T/run",
                "/Users/ana/Library/Caches/sudoku-judge/b1",
                "/dev/fd"
            ]
        );
        let literals: Vec<&str> = writes
            .iter()
            .filter(|(kind, _)| kind == "literal")
            .map(|(_, path)| path.as_str())
            .collect();
        assert_eq!(literals, ["/dev/null", "/dev/zero", "/dev/dtracehelper"]);
        // What it reads is not what it may write.
        assert!(!subpaths.contains(&"/Users/ana/work/a.out"));
        let reads = filters(rule(&text, "(allow file-read* file-map-executable"));
        assert!(reads.contains(&("subpath".into(), "/Users/ana/work/a.out".into())));
        assert!(reads.contains(&("subpath".into(), "/opt/homebrew".into())));
    }

    #[test]
    fn a_quote_or_a_backslash_in_a_path_cannot_end_its_string() {
        let hostile = PathBuf::from("/tmp/x\")) (allow file-write* (subpath \"/\") ;\\");
        let scratch = Path::new("/private/tmp/a\\\"b");
        let text = profile(&access(scratch, std::slice::from_ref(&hostile), &[])).unwrap();
        let writes = filters(rule(&text, "(allow file-write*"));
        assert_eq!(
            writes[0],
            ("subpath".into(), scratch.to_str().unwrap().into())
        );
        assert_eq!(
            writes[1],
            ("subpath".into(), hostile.to_str().unwrap().into())
        );
        // Nothing but the filters the profile made: no rule of the path's.
        assert_eq!(writes.len(), 6);
        assert_eq!(text.matches("\n(allow file-write*").count(), 1);
        assert_eq!(quoted(r#"a"b\c"#), r#""a\"b\\c""#);
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_cannot_be_spelled_exactly_is_refused() {
        use std::os::unix::ffi::OsStrExt as _;
        let odd = PathBuf::from(std::ffi::OsStr::from_bytes(b"/tmp/caf\xe9"));
        assert!(profile(&access(&odd, &[], &[])).is_err());
        assert!(profile(&access(Path::new("relative"), &[], &[])).is_err());
    }

    #[test]
    fn a_leetcode_style_file_may_not_fork() {
        let mut asked = access(Path::new("/private/tmp/run"), &[], &[]);
        assert!(profile(&asked).unwrap().contains("(allow process-fork)"));
        asked.no_fork = true;
        let text = profile(&asked).unwrap();
        assert!(!text.contains("process-fork"));
        assert!(text.contains("(allow process-exec)"));
    }
}
