//! Where a toolchain's programs are found when nothing names them: on
//! `PATH`, the newest version of a versioned name first; then where
//! installers put them on Windows (MSYS2, the JDKs, Go, Node.js, ...) and
//! Homebrew's prefixes on macOS, after `PATH`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A tool of a language as chosen: the program, the name it is shown by,
/// and why it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chosen {
    pub(crate) program: PathBuf,
    /// Arguments that come first in each of its commands: `c++` of
    /// `zig c++`.
    pub(crate) args: Vec<String>,
    /// As a user would type it: `g++`, `clang++-19`.
    pub(crate) name: String,
    /// `the newest on PATH`, `CXX`, a file's path.
    pub(crate) origin: String,
}

/// The newest `command` on `PATH`: `g++-14` over `g++-12` over `g++`,
/// versions compared as numbers; the plain name when it is the same
/// program as the newest.
pub(super) fn newest_on_path(command: &str, versioned: bool) -> Option<Chosen> {
    let path = search_path();
    if !versioned {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        return which::which_in(command, Some(&path), cwd)
            .ok()
            .map(|program| Chosen {
                program,
                args: Vec::new(),
                name: command.to_string(),
                origin: "found on PATH".to_string(),
            });
    }
    let pattern = super::language::regex_of(&format!(
        r"^{}[-.]?(\d+(?:\.\d+)*)$",
        regex::escape(command)
    ));
    let mut best: Option<(Vec<u64>, String, PathBuf)> = None;
    let mut plain: Option<PathBuf> = None;
    for dir in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let name = program_stem(name, cfg!(windows));
            let version: Vec<u64> = if name == command {
                Vec::new()
            } else if let Some(found) = pattern.captures(name) {
                found[1].split('.').filter_map(|n| n.parse().ok()).collect()
            } else {
                continue;
            };
            let program = entry.path();
            if !is_executable(&program) {
                continue;
            }
            if version.is_empty() && plain.is_none() {
                plain = Some(program.clone());
            }
            // The first on PATH wins among equals.
            if best.as_ref().is_none_or(|(v, _, _)| version > *v) {
                best = Some((version, name.to_string(), program));
            }
        }
    }
    let (_, mut name, mut program) = best?;
    if let Some(plain) = plain {
        if std::fs::canonicalize(&plain).ok() == std::fs::canonicalize(&program).ok() {
            name = command.to_string();
            program = plain;
        }
    }
    Some(Chosen {
        program,
        args: Vec::new(),
        name,
        origin: "the newest on PATH".to_string(),
    })
}

/// Where toolchains are looked for: `PATH`, and on macOS Homebrew's
/// prefixes after it (`/opt/homebrew/bin` on Apple silicon,
/// `/usr/local/bin` on Intel), which a shell started from the Dock or an
/// editor may not have on its `PATH`; on Windows the usual install
/// directories after it ([`WINDOWS_DIRS`]), which installers often leave
/// off `PATH`.
fn search_path() -> OsString {
    let path = with_homebrew(
        std::env::var_os("PATH").unwrap_or_default(),
        cfg!(target_os = "macos"),
    );
    if !cfg!(windows) {
        return path;
    }
    let installed = windows_dirs(&|name| std::env::var_os(name).map(PathBuf::from));
    appended(path, installed.into_iter().filter(|dir| dir.is_dir()))
}

/// `path` with `dirs` after it, each unless it is on it already.
fn appended(path: OsString, dirs: impl IntoIterator<Item = PathBuf>) -> OsString {
    let mut all: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .collect();
    for dir in dirs {
        if !all.contains(&dir) {
            all.push(dir);
        }
    }
    std::env::join_paths(all).unwrap_or(path)
}

/// A program's name without Windows' `.exe` (`g++-14.exe` is `g++-14`),
/// where `windows`.
fn program_stem(name: &str, windows: bool) -> &str {
    if !windows {
        return name;
    }
    match name.len().checked_sub(4) {
        Some(cut) if name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".exe") => {
            &name[..cut]
        }
        _ => name,
    }
}

/// Windows' names for a tool whose Unix name it lacks, tried after it:
/// Python's installer gives `python.exe` and the `py` launcher, not
/// `python3.exe`.
pub(super) fn windows_alternatives(command: &str, windows: bool) -> &'static [&'static str] {
    match command {
        "python3" if windows => &["python", "py"],
        _ => &[],
    }
}

/// Where Windows installers put toolchains, as (a variable naming a base
/// directory, or a drive's root for `None`, then a path below it whose
/// one `*` stands for a version): MSYS2's MinGW compilers, the JDKs,
/// Go, Node.js, Ruby, PHP, Racket, .NET, Python and Rust.
const WINDOWS_DIRS: &[(Option<&str>, &str)] = &[
    (None, r"msys64\ucrt64\bin"),
    (None, r"msys64\mingw64\bin"),
    (Some("ProgramFiles"), r"Eclipse Adoptium\jdk-*\bin"),
    (Some("ProgramFiles"), r"Microsoft\jdk-*\bin"),
    (Some("ProgramFiles"), r"Java\jdk-*\bin"),
    (Some("ProgramFiles"), r"Go\bin"),
    (Some("ProgramFiles"), r"nodejs"),
    (None, r"Ruby*\bin"),
    (None, r"php"),
    (Some("ProgramFiles"), r"Racket"),
    (Some("ProgramFiles"), r"dotnet"),
    (Some("LOCALAPPDATA"), r"Programs\Python\Python*"),
    (Some("USERPROFILE"), r".cargo\bin"),
];

/// The directories of [`WINDOWS_DIRS`] that exist, the newest version
/// first where a `*` matches several (`jdk-21` over `jdk-17`), with `var`
/// reading the environment (`SystemDrive` for a drive's root).
fn windows_dirs(var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    // `C:` names the drive's current directory; `C:\` its root.
    let drive = var("SystemDrive").map_or_else(
        || PathBuf::from(r"C:\"),
        |d| PathBuf::from(format!(r"{}\", d.display())),
    );
    let mut found = Vec::new();
    for (base, below) in WINDOWS_DIRS {
        let Some(base) = base.map_or(Some(drive.clone()), var) else {
            continue;
        };
        let Some((before, after)) = below.split_once('*') else {
            found.push(base.join(below));
            continue;
        };
        // `before` is a parent and a name's start: `Java\jdk-`.
        let (parent, start) = before.rsplit_once('\\').unwrap_or(("", before));
        let (end, rest) = after.split_once('\\').unwrap_or((after, ""));
        let parent = base.join(parent);
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        let mut versions: Vec<(Vec<u64>, PathBuf)> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let version = name.strip_prefix(start)?.strip_suffix(end)?;
                let numbers = version
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .collect();
                Some((numbers, entry.path().join(rest)))
            })
            .collect();
        versions.sort_by(|a, b| b.0.cmp(&a.0));
        found.extend(versions.into_iter().map(|(_, dir)| dir));
    }
    found
}

/// `path` with Homebrew's prefixes appended, where `macos`, unless it has
/// them already.
fn with_homebrew(path: OsString, macos: bool) -> OsString {
    if !macos {
        return path;
    }
    appended(path, HOMEBREW_BINS.map(PathBuf::from))
}

/// Homebrew's directories of programs: Apple silicon's, then Intel's.
const HOMEBREW_BINS: [&str; 2] = ["/opt/homebrew/bin", "/usr/local/bin"];

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Windows runs a file by its name (`.exe`), not by a mode bit.
#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_windows_a_program_is_known_by_its_name_without_exe() {
        assert_eq!(program_stem("g++-14.exe", true), "g++-14");
        assert_eq!(program_stem("PYTHON.EXE", true), "PYTHON");
        assert_eq!(program_stem("g++", true), "g++");
        assert_eq!(program_stem("g++-14.exe", false), "g++-14.exe");
        assert_eq!(windows_alternatives("python3", true), ["python", "py"]);
        assert!(windows_alternatives("python3", false).is_empty());
        assert!(windows_alternatives("g++", true).is_empty());
    }

    #[test]
    fn windows_install_directories_are_found_newest_version_first() {
        let root = tempfile::tempdir().unwrap();
        let files = root.path().join("Program Files");
        for dir in [
            "Java/jdk-17.0.2/bin",
            "Java/jdk-21.0.1/bin",
            "Java/jre-8",
            "Go/bin",
        ] {
            std::fs::create_dir_all(files.join(dir)).unwrap();
        }
        let var = |name: &str| match name {
            "ProgramFiles" => Some(files.clone()),
            _ => None,
        };
        let found = windows_dirs(&var);
        let java: Vec<&PathBuf> = found
            .iter()
            .filter(|d| d.starts_with(files.join("Java")))
            .collect();
        // The `\\` of the table is Windows' separator: on Unix the found
        // directory ends in a name with a backslash, which is all this
        // test needs of it.
        assert_eq!(java.len(), 2, "{found:?}");
        assert!(java[0].to_string_lossy().contains("jdk-21"), "{found:?}");
        assert!(java[1].to_string_lossy().contains("jdk-17"), "{found:?}");
        assert!(found.contains(&files.join(r"Go\bin")));
        // No base directory: nothing under it.
        assert!(!found.iter().any(|d| d.to_string_lossy().contains("Python")));
    }

    #[cfg(unix)]
    #[test]
    fn on_macos_homebrew_is_searched_after_path() {
        let path = OsString::from("/usr/bin:/usr/local/bin");
        assert_eq!(with_homebrew(path.clone(), false), path);
        assert_eq!(
            with_homebrew(path, true),
            OsString::from("/usr/bin:/usr/local/bin:/opt/homebrew/bin")
        );
        assert_eq!(
            with_homebrew("".into(), true),
            OsString::from("/opt/homebrew/bin:/usr/local/bin")
        );
    }
}
