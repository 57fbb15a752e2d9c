//! Consent to run the programs a suite names.
//!
//! A suite's `judge.toml` may name programs: the compiler or interpreter
//! to judge a language with (`[toolchain]`), and reference submissions
//! that `calibrate` builds and runs (`[[reference]]`). Suites come from
//! elsewhere (cloned, unzipped, shared by a coach), so none of these runs
//! until the user has allowed that very file, as direnv asks before it
//! loads an `.envrc`: `sudoku-judge trust DIR` records the consent under a
//! digest of the content, and any change to it takes the consent back.
//! What a suite may set without consent (limits, problem, checker,
//! `time_scale`) runs nothing.
//!
//! The digest covers the `judge.toml`'s bytes and the bytes of every file
//! of its suite that it names as a program: a `[toolchain]` path (every
//! file under it, for a directory) and each `[[reference]]`, so a shipped
//! executable changed after the consent is not run on it; and where each
//! link among them leads, so one led elsewhere is not either. A program
//! found on `PATH` by its name alone is covered by that name in the file's
//! bytes: it is the machine's, not the pack's. A program named by a path
//! must be the suite's own: a path that is absolute, goes up (`..`), or
//! leads out of the suite's directory once its links are followed (or a
//! named directory holding a link out of itself) is refused, with what to
//! do instead ([`Uncovered`]): such a file is not the pack's to vouch for,
//! and whoever owns it could change it after the consent.
//!
//! What runs is what was hashed: each file is opened once, read whole and
//! hashed, and its bytes are kept ([`Held`]) for the private copy the judge
//! runs in its place (`runner::lang::copied`), so a program renamed over
//! the suite's after the hash never runs. The copy holds what was hashed
//! and nothing else, and the sandbox every program of a suite runs in
//! shows it the copy, not the suite: a program that needs files beside it
//! (a compiler's own libraries) is named by its directory, which is hashed
//! and copied whole. A record holds the file's real path too: consent is to a file in a place,
//! as direnv's.
//!
//! Records are data: one small JSON file per consent in the user's data
//! directory (`~/.local/share/sudoku-judge/trust`; on Windows
//! `%APPDATA%\sudoku-judge\trust`), named by a hash of the
//! path and the digest, created with `O_EXCL` (so never through a link
//! planted at its name), and read back only as a regular file, never
//! through a link, of bounded size. Records are read and written through
//! the file door ([`crate::files`]) with the same checks: on Unix the
//! directory must be reached without a link at its last name, belong to
//! the user running the judge and be written by no one else, and a record
//! must be that user's own file with one link, so another user's records
//! (a data directory reached through `XDG_DATA_HOME` or a `HOME` that
//! `sudo -E` kept) are never taken for the user's consent.
//!
//! The suites shipped in `cases/` name references, and `calibrate` runs
//! them (CI does, on a fresh checkout, with no step of anyone's). Their
//! files are carried in the judge ([`crate::shipped`]), and a `judge.toml`
//! whose digest is that of a shipped one is allowed without a record,
//! wherever it lies: no pack can pass for one without being, byte for
//! byte, the judge's own files, whose programs are the judge's own.

use std::fmt;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::judge_toml;
pub(crate) use super::judge_toml::{Named, ProgramKind};
use crate::files::{Dir, OutsideLinks};
use crate::quote::{command_words, names_a_path};

/// A `judge.toml` that names programs, as the user is asked to allow it.
#[derive(Clone, Debug)]
pub(crate) struct Subject {
    /// The file, as the judge found it.
    pub(crate) file: PathBuf,
    pub(crate) named: Vec<Named>,
    /// The files of its suite hashed with it, relative to its directory.
    pub(crate) hashed: Vec<String>,
    /// The digest of its content, in hex.
    pub(crate) digest: String,
    /// The bytes hashed: what runs, once allowed (see [`Held`]).
    pub(crate) held: Held,
}

/// The programs of a suite as they were read to be hashed: each file's
/// bytes, read once, and where each link among them leads. Once the
/// consent is given, what runs is a private copy made of these bytes
/// (`runner::lang::copied`), never the suite's files, which their owner
/// may change after the hash.
#[derive(Clone, Default)]
pub(crate) struct Held(std::sync::Arc<Programs>);

/// What [`Held`] holds.
#[derive(Default)]
pub(crate) struct Programs {
    /// The suite's directory, as the judge found it: a `[toolchain]`
    /// path is this joined with the value written.
    pub(crate) dir: PathBuf,
    /// The digest of the suite's `judge.toml` and these programs, in hex.
    pub(crate) digest: String,
    /// Regular files, by name relative to `dir` (with `/` between names).
    pub(crate) files: Vec<HeldFile>,
    /// A named path, or a link under a named directory: its name and the
    /// name of what it leads to, both relative to `dir` and inside it.
    pub(crate) links: Vec<(String, String)>,
}

/// One file of a suite's programs, as read.
pub(crate) struct HeldFile {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
    /// Whether it may be executed (on Unix, any of its execute bits).
    pub(crate) executable: bool,
}

impl Held {
    pub(crate) fn programs(&self) -> &Programs {
        &self.0
    }
}

impl fmt::Debug for Held {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes: usize = self.0.files.iter().map(|file| file.bytes.len()).sum();
        write!(
            f,
            "Held({} files, {} links, {bytes} bytes)",
            self.0.files.len(),
            self.0.links.len()
        )
    }
}

/// The same content: the same digest.
impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        self.0.digest == other.0.digest && self.0.dir == other.0.dir
    }
}

impl Eq for Held {}

/// Whether a program named somewhere may run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Consent {
    /// The user's own choice: the command line, `config.toml`, the
    /// environment. No suite's.
    #[default]
    Own,
    /// A suite as sudoku-judge ships it.
    Shipped,
    /// A suite whose `judge.toml` the user allowed, as it is now.
    Allowed,
    /// A suite whose `judge.toml` the user never allowed.
    Refused,
    /// A suite whose `judge.toml` the user allowed, since changed (the file
    /// or a program it names).
    Changed,
}

impl Consent {
    /// Whether what was named may run.
    pub(crate) fn given(self) -> bool {
        matches!(self, Consent::Own | Consent::Shipped | Consent::Allowed)
    }
}

/// A program of a suite that would have run without the user's consent:
/// the error that says which, where, and what to do.
#[derive(Debug)]
pub(crate) struct Refused {
    /// The `judge.toml`.
    pub(crate) file: PathBuf,
    pub(crate) named: Named,
    /// It was allowed once, with other content.
    pub(crate) changed: bool,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = self.file.parent().unwrap_or(Path::new("."));
        let (line, column) = self.named.at;
        write!(
            f,
            "{} (line {line}, column {column}) names a program for the judge to run, {}, and \
             {}; a suite's programs run only once you allow its judge.toml: read it, then run \
             `sudoku-judge trust {}`",
            self.file.display(),
            self.named,
            if self.changed {
                "it changed since you allowed it (the file, or a program it names)"
            } else {
                "you have not allowed it"
            },
            // Quoted for the OS's shell; what it prints is escaped where
            // it is shown (a path may hold control characters).
            crate::quote::shell_path(dir)
        )
    }
}

impl std::error::Error for Refused {}

/// A program a `judge.toml` names by a path that does not stay inside its
/// suite's directory: consent to the file could not cover it (another
/// user, or a later download, may change it without changing the pack),
/// so it is refused before anything is allowed or run.
#[derive(Debug)]
pub(crate) struct Uncovered {
    /// The `judge.toml`.
    pub(crate) file: PathBuf,
    pub(crate) named: Named,
    pub(crate) why: Outside,
}

/// How a named path leaves its suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outside {
    /// An absolute path.
    Absolute,
    /// A path with `..` in it.
    Up,
    /// A path that, its links resolved, lies elsewhere (or leads nowhere).
    LinksOut,
    /// A directory holding a link that leads out of that directory.
    LinkInDirectory,
}

impl fmt::Display for Uncovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, column) = self.named.at;
        let why = match self.why {
            Outside::Absolute => "an absolute path, outside the suite's directory",
            Outside::Up => "a path that goes up out of the suite's directory (`..`)",
            Outside::LinksOut => {
                "a path that, its links followed, leads out of the suite's directory"
            }
            Outside::LinkInDirectory => {
                "a directory holding a link that leads out of that directory"
            }
        };
        let what = match self.named.kind {
            ProgramKind::Toolchain { .. } => {
                "name a program on PATH by its name alone (as `g++-14`), set your own in the \
                 [toolchain] of your config.toml or in CXX, CC, RUSTC, JAVA_HOME or GOROOT, or \
                 copy the program into the suite's directory"
            }
            ProgramKind::Reference { .. } => "copy the file into the suite's directory",
        };
        write!(
            f,
            "{} (line {line}, column {column}) names a program for the judge to run, {}, by {why}; \
             consent to a judge.toml covers only the programs its suite holds, so it is neither \
             allowed nor run: {what}",
            self.file.display(),
            self.named,
        )
    }
}

impl std::error::Error for Uncovered {}

/// Refuses any program `named` (in the `judge.toml` at `file`, in `dir`)
/// by a path that leaves `dir`: lexically (absolute, `..`), or once its
/// links are resolved; and a named directory holding a link that leads
/// out of it. A program found on `PATH` by its name is the machine's, and
/// its name is in the file's bytes.
fn ensure_covered(file: &Path, dir: &Path, named: &[Named]) -> Result<(), Uncovered> {
    let real_dir = std::fs::canonicalize(dir).ok();
    for n in named {
        let refuse = |why| Uncovered {
            file: file.to_path_buf(),
            named: n.clone(),
            why,
        };
        let path = match &n.kind {
            ProgramKind::Toolchain { value, .. } => match toolchain_path(dir, value) {
                Some(path) => path,
                None => continue,
            },
            ProgramKind::Reference { file } => dir.join(file),
        };
        let Ok(own) = path.strip_prefix(dir) else {
            return Err(refuse(Outside::Absolute));
        };
        for component in own.components() {
            match component {
                std::path::Component::ParentDir => return Err(refuse(Outside::Up)),
                std::path::Component::RootDir | std::path::Component::Prefix(_) => {
                    return Err(refuse(Outside::Absolute))
                }
                _ => {}
            }
        }
        // A missing file is for its use to report: nothing runs it.
        if path.symlink_metadata().is_err() {
            continue;
        }
        let real = std::fs::canonicalize(&path).map_err(|_| refuse(Outside::LinksOut))?;
        if !real_dir.as_ref().is_some_and(|d| real.starts_with(d)) {
            return Err(refuse(Outside::LinksOut));
        }
        if real.is_dir() {
            for entry in walkdir::WalkDir::new(&real).into_iter().flatten() {
                if entry.path_is_symlink() {
                    let inside = std::fs::canonicalize(entry.path())
                        .is_ok_and(|target| target.starts_with(&real));
                    if !inside {
                        return Err(refuse(Outside::LinkInDirectory));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Allows `named` of `subject` only with consent: `Ok` when it is given,
/// else the error that says what to do.
pub(crate) fn check(subject: &Subject, named: &Named) -> anyhow::Result<Consent> {
    let consent = consent(subject);
    if consent.given() {
        return Ok(consent);
    }
    Err(Refused {
        file: subject.file.clone(),
        named: named.clone(),
        changed: consent == Consent::Changed,
    }
    .into())
}

/// The program a `[toolchain]` value names by path, as the judge takes
/// it ([`crate::runner::lang::tools`]), by the same rules: a value with a
/// directory in it ([`names_a_path`]: on Windows a `\` too) is a path from
/// the file's directory `dir`, and one that is no file there is a program
/// with words after it (`bin/zig c++`), split as the OS splits a command
/// line. `None` for a name found on `PATH`.
pub(crate) fn toolchain_path(dir: &Path, value: &str) -> Option<PathBuf> {
    if !names_a_path(value) {
        return None;
    }
    let joined = dir.join(value);
    if joined.symlink_metadata().is_ok() {
        return Some(joined);
    }
    let words = command_words(&joined.to_string_lossy()).ok()?;
    words.first().map(PathBuf::from)
}

/// What the digest covers of the suite in `dir` besides the `judge.toml`:
/// the files that `named` names (by name relative to `dir`), and where
/// each link among them leads.
#[derive(Debug, Default)]
struct Parts {
    /// Regular files whose real path lies in `dir`; a directory gives every
    /// file under it.
    files: Vec<(String, PathBuf)>,
    /// A named path, or a link under a named directory, that leads
    /// elsewhere than its own name: name, and where it leads. Retargeting
    /// a link of the pack changes what runs as surely as changing a file.
    links: Vec<(String, String)>,
    /// The same links for the copy that runs: name, and the name of what
    /// it leads to, resolved, relative to `dir`.
    resolved: Vec<(String, String)>,
}

fn suite_parts(dir: &Path, named: &[Named]) -> Parts {
    let mut parts = Parts::default();
    let Ok(real_dir) = std::fs::canonicalize(dir) else {
        return parts;
    };
    let relative = |real: &Path| match real.strip_prefix(&real_dir) {
        Ok(inside) => slashed(inside),
        Err(_) => real.to_string_lossy().into_owned(),
    };
    for n in named {
        let path = match &n.kind {
            ProgramKind::Toolchain { value, .. } => toolchain_path(dir, value),
            ProgramKind::Reference { file } => Some(dir.join(file)),
        };
        let Some(path) = path else { continue };
        // A missing file is for its use to report: nothing runs it.
        let Ok(real) = std::fs::canonicalize(&path) else {
            continue;
        };
        // A path of the pack (not one up out of it, or absolute) that
        // resolves elsewhere: where it leads is part of what was allowed.
        if let Ok(own) = path.strip_prefix(dir) {
            let inside = own
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if inside && slashed(own) != relative(&real) {
                parts.links.push((slashed(own), relative(&real)));
                parts.resolved.push((slashed(own), relative(&real)));
            }
        }
        if !real.starts_with(&real_dir) {
            continue;
        }
        if real.is_dir() {
            let walk = walkdir::WalkDir::new(&real).sort_by_file_name();
            for entry in walk.into_iter().flatten() {
                let kind = entry.file_type();
                if kind.is_file() {
                    parts
                        .files
                        .push((relative(entry.path()), entry.into_path()));
                } else if kind.is_symlink() {
                    let target = std::fs::read_link(entry.path()).unwrap_or_default();
                    parts.links.push((
                        relative(entry.path()),
                        target.to_string_lossy().into_owned(),
                    ));
                    if let Ok(resolved) = std::fs::canonicalize(entry.path()) {
                        parts
                            .resolved
                            .push((relative(entry.path()), relative(&resolved)));
                    }
                }
            }
        } else if real.is_file() {
            parts.files.push((relative(&real), real));
        }
    }
    parts.files.sort();
    parts.files.dedup();
    parts.links.sort();
    parts.links.dedup();
    parts.resolved.sort();
    parts.resolved.dedup();
    parts
}

/// A relative path with `/` between its names, as the digest takes it.
fn slashed(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The digest of a `judge.toml` and the files of its suite it names: each
/// part with its length first, so no two contents share a stream.
struct Digest(Sha256);

impl Digest {
    fn new(settings: &[u8]) -> Digest {
        let mut hasher = Sha256::new();
        hasher.update(b"sudoku-judge trust 1\n");
        hasher.update(format!("judge.toml {}\n", settings.len()));
        hasher.update(settings);
        Digest(hasher)
    }

    fn file(&mut self, name: &str, bytes: &[u8]) {
        self.0.update(format!("\nfile {} {name}\n", bytes.len()));
        self.0.update(bytes);
    }

    fn link(&mut self, name: &str, target: &str) {
        self.0.update(format!(
            "\nlink {} {name} {} {target}\n",
            name.len(),
            target.len()
        ));
    }

    fn hex(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The `judge.toml` at `path` as the user is asked to allow it: what it
/// names, and the digest of it and of its suite's programs; `None` when it
/// names no program. It is read as `links` allows.
pub(crate) fn inspect(path: &Path, links: OutsideLinks) -> anyhow::Result<Option<Subject>> {
    let (file, text) = judge_toml::parse_text(path, links)?;
    let named = judge_toml::named_in(&file, &text);
    if named.is_empty() {
        return Ok(None);
    }
    subject(path, text.as_bytes(), named).map(Some)
}

/// The `judge.toml` at `file`, whose bytes are `settings` and which names
/// `named`, with its digest: the file and the programs of its suite.
///
/// A program named by a path that leaves the suite's directory is refused
/// here ([`Uncovered`]), where every command that reads a `judge.toml`'s
/// programs passes. Each file is opened once and read whole; its bytes
/// are hashed and kept ([`Held`]), so what runs is what was hashed.
pub(crate) fn subject(file: &Path, settings: &[u8], named: Vec<Named>) -> anyhow::Result<Subject> {
    let dir = file.parent().unwrap_or(Path::new("."));
    ensure_covered(file, dir, &named)?;
    let mut digest = Digest::new(settings);
    let mut hashed = Vec::new();
    let mut files = Vec::new();
    let parts = suite_parts(dir, &named);
    for (name, target) in &parts.links {
        digest.link(name, target);
    }
    for (name, path) in parts.files {
        let mut bytes = Vec::new();
        let mut executable = false;
        crate::files::open_regular(&path, "program")
            .and_then(|mut opened| {
                executable = is_executable(&opened);
                opened
                    .read_to_end(&mut bytes)
                    .with_context(|| format!("failed to read {}", path.display()))
            })
            .with_context(|| {
                format!(
                    "failed to read {}, which {} names",
                    path.display(),
                    file.display()
                )
            })?;
        digest.file(&name, &bytes);
        hashed.push(name.clone());
        files.push(HeldFile {
            name,
            bytes,
            executable,
        });
    }
    let digest = digest.hex();
    Ok(Subject {
        file: file.to_path_buf(),
        named,
        hashed,
        held: Held(std::sync::Arc::new(Programs {
            dir: dir.to_path_buf(),
            digest: digest.clone(),
            files,
            links: parts.resolved,
        })),
        digest,
    })
}

/// Whether the open file may be executed: any execute bit on Unix; on
/// Windows, where a program is told by its name, always.
fn is_executable(file: &std::fs::File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        file.metadata()
            .is_ok_and(|meta| meta.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        true
    }
}

/// What this build ships in `cases/` (carried in the binary, see
/// [`crate::shipped`]), by its path under `cases/` with `/` between names.
fn shipped_files() -> &'static [(String, &'static [u8])] {
    static FILES: LazyLock<Vec<(String, &'static [u8])>> = LazyLock::new(|| {
        crate::shipped::files()
            .into_iter()
            .map(|(path, bytes)| (slashed(path), bytes))
            .collect()
    });
    &FILES
}

/// The digest of each shipped `judge.toml` with its files, or why one
/// cannot be made (a file it names is not compiled in).
fn shipped_digests() -> &'static [Result<String, String>] {
    static DIGESTS: LazyLock<Vec<Result<String, String>>> = LazyLock::new(|| {
        shipped_files()
            .iter()
            .filter_map(|(name, bytes)| {
                let suite = name.strip_suffix("/judge.toml")?;
                Some(shipped_digest(suite, bytes))
            })
            .collect()
    });
    &DIGESTS
}

fn shipped_digest(suite: &str, settings: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(settings).map_err(|e| e.to_string())?;
    let named = judge_toml::named_in_text(text).map_err(|e| format!("{e:#}"))?;
    let mut files = Vec::new();
    for n in &named {
        let name = match &n.kind {
            ProgramKind::Reference { file } => slashed(Path::new(file)),
            ProgramKind::Toolchain { value, .. } if !names_a_path(value) => continue,
            ProgramKind::Toolchain { value, .. } => slashed(Path::new(value)),
        };
        let wanted = format!("{suite}/{name}");
        let (_, bytes) = shipped_files()
            .iter()
            .find(|(shipped, _)| *shipped == wanted)
            .ok_or_else(|| format!("{wanted} is named in {suite}/judge.toml but not shipped"))?;
        files.push((name, *bytes));
    }
    files.sort();
    files.dedup();
    let mut digest = Digest::new(settings);
    for (name, bytes) in files {
        digest.file(&name, bytes);
    }
    Ok(digest.hex())
}

/// Whether `subject` may run what it names: shipped content, or content
/// the user allowed at its place.
pub(crate) fn consent(subject: &Subject) -> Consent {
    if is_shipped(subject) {
        return Consent::Shipped;
    }
    match Store::user() {
        Ok(store) => store.consent(subject),
        Err(_) => Consent::Refused,
    }
}

/// Whether `subject` is, byte for byte, a suite this build ships.
pub(crate) fn is_shipped(subject: &Subject) -> bool {
    shipped_digests()
        .iter()
        .any(|d| d.as_deref() == Ok(subject.digest.as_str()))
}

/// The consent the user gave to one `judge.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The file's real path.
    pub(crate) file: PathBuf,
    pub(crate) digest: String,
    /// When, in seconds since the Unix epoch.
    pub(crate) allowed_at: u64,
    /// What it named then.
    pub(crate) named: Vec<Named>,
    /// The files of its suite hashed with it then.
    pub(crate) hashed: Vec<String>,
}

/// How a record stands against the file now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Standing {
    /// The file is as it was allowed.
    Holds,
    /// The file, or a program it names, changed since: the consent is void.
    Changed,
    /// The file is gone.
    Gone,
    /// The file cannot be read now.
    Unreadable,
}

/// What [`allow`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Allowed {
    /// A record was written; `replaced` records of the same file with
    /// older content were removed.
    Recorded { record: PathBuf, replaced: usize },
    /// The same content was allowed before.
    Already,
    /// Shipped content needs no record.
    Shipped,
}

/// Records `subject`'s content as allowed by the user.
pub(crate) fn allow(subject: &Subject) -> anyhow::Result<Allowed> {
    if is_shipped(subject) {
        return Ok(Allowed::Shipped);
    }
    Store::user()?.allow(subject)
}

/// Removes the consent given to each `judge.toml` at `path` or under it
/// (a suite directory); returns the records removed.
pub(crate) fn revoke(path: &Path) -> anyhow::Result<Vec<Record>> {
    let store = Store::user()?;
    let real = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .with_context(|| format!("cannot find {}", path.display()))?;
    store.revoke(&real)
}

/// Every consent the user gave, oldest first, with how each stands now.
pub(crate) fn records(links: OutsideLinks) -> anyhow::Result<Vec<(Record, Standing)>> {
    let store = Store::user()?;
    Ok(store
        .records()?
        .into_iter()
        .map(|record| {
            let standing = standing(&record, links);
            (record, standing)
        })
        .collect())
}

/// How `record` stands against its file now.
fn standing(record: &Record, links: OutsideLinks) -> Standing {
    if record.file.symlink_metadata().is_err() {
        return Standing::Gone;
    }
    match inspect(&record.file, links) {
        Ok(Some(now)) if now.digest == record.digest => Standing::Holds,
        Ok(_) => Standing::Changed,
        Err(_) => Standing::Unreadable,
    }
}

/// Where the user's records are: `$XDG_DATA_HOME/sudoku-judge/trust`
/// (`~/.local/share/sudoku-judge/trust`; on Windows
/// `%APPDATA%\sudoku-judge\trust`).
pub(crate) fn records_dir() -> anyhow::Result<PathBuf> {
    let data = dirs::data_dir().context(
        "this user has no data directory to keep consent in; set XDG_DATA_HOME (or HOME)",
    )?;
    Ok(data.join("sudoku-judge").join("trust"))
}

/// The largest record read: a record names a file and a few programs.
const MAX_RECORD_BYTES: u64 = 256 << 10;

/// The records in one directory.
struct Store {
    dir: PathBuf,
}

impl Store {
    fn user() -> anyhow::Result<Store> {
        Ok(Store {
            dir: records_dir()?,
        })
    }

    /// The name of the record of `subject`'s content at its place.
    fn record_name(file: &Path, digest: &str) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"sudoku-judge trust record 1\n");
        // The bytes of the name as the OS has it (UTF-8 or WTF-8 on
        // Windows): a key, never read back.
        hasher.update(file.as_os_str().as_encoded_bytes());
        hasher.update(b"\n");
        hasher.update(digest.as_bytes());
        let key: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{key}.json")
    }

    /// Where the record of `subject`'s content at its place is.
    #[cfg(test)]
    fn record_path(&self, file: &Path, digest: &str) -> PathBuf {
        self.dir.join(Self::record_name(file, digest))
    }

    /// The directory, opened without following a link at its last name and
    /// checked to be the user's own (see [`crate::files::Dir::ensure_own`]);
    /// made, readable by the user alone, when `create` and missing.
    /// `Ok(None)` when missing and not `create`.
    fn open(&self, create: bool) -> anyhow::Result<Option<Dir>> {
        let name = self
            .dir
            .file_name()
            .and_then(|n| n.to_str())
            .with_context(|| format!("{} names no directory", self.dir.display()))?;
        let above = self.dir.parent().unwrap_or(Path::new(""));
        let parent = if create {
            Some(Dir::open_given(above)?)
        } else {
            Dir::open_existing(above)?
        };
        let Some(parent) = parent else {
            return Ok(None);
        };
        let made = create && parent.kind(name)?.is_none();
        let Some(dir) = parent.subdir(name, create)? else {
            return Ok(None);
        };
        if made {
            dir.restrict(0o7700)?;
        }
        dir.ensure_own()
            .context("consent is read and kept only in a directory of your own")?;
        Ok(Some(dir))
    }

    fn consent(&self, subject: &Subject) -> Consent {
        let Ok(real) = std::fs::canonicalize(&subject.file) else {
            return Consent::Refused;
        };
        let Ok(Some(dir)) = self.open(false) else {
            return Consent::Refused;
        };
        match read_record(&dir, &Self::record_name(&real, &subject.digest)) {
            Ok(record) if record.file == real && record.digest == subject.digest => {
                Consent::Allowed
            }
            _ if records_in(&dir).iter().any(|(r, _)| r.file == real) => Consent::Changed,
            _ => Consent::Refused,
        }
    }

    fn allow(&self, subject: &Subject) -> anyhow::Result<Allowed> {
        let real = std::fs::canonicalize(&subject.file)
            .with_context(|| format!("cannot find {}", subject.file.display()))?;
        let dir = self
            .open(true)?
            .with_context(|| format!("failed to create {}", self.dir.display()))?;
        let name = Self::record_name(&real, &subject.digest);
        let path = dir.path().join(&name);
        if read_record(&dir, &name).is_ok_and(|r| r.file == real && r.digest == subject.digest) {
            return Ok(Allowed::Already);
        }
        // Consent to older content of the same file goes: it is void, and
        // a list of records should say what holds.
        let mut replaced = 0;
        for (old, old_name) in records_in(&dir) {
            if old.file == real && old_name != name {
                dir.remove(&old_name).with_context(|| {
                    format!("failed to remove {}", dir.path().join(&old_name).display())
                })?;
                replaced += 1;
            }
        }
        let record = Record {
            file: real,
            digest: subject.digest.clone(),
            allowed_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            named: subject.named.clone(),
            hashed: subject.hashed.clone(),
        };
        let text = serde_json::to_vec_pretty(&record)?;
        // Written whole under a fresh name (`O_EXCL`, mode 0600), then
        // linked to its own name, which must not exist: a link planted
        // there is never followed, and a record is never half written.
        let staged = dir.pending_private(&name)?;
        staged
            .file()
            .write_all(&text)
            .and_then(|()| staged.file().sync_all())
            .with_context(|| format!("failed to write a record in {}", dir.path().display()))?;
        match staged.keep_new() {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                anyhow::bail!(
                    "{} exists and is not a record of this file; remove it, then allow again",
                    path.display()
                )
            }
            Err(error) => {
                return Err(error).with_context(|| format!("failed to write {}", path.display()))
            }
        }
        Ok(Allowed::Recorded {
            record: path,
            replaced,
        })
    }

    fn revoke(&self, under: &Path) -> anyhow::Result<Vec<Record>> {
        let Some(dir) = self.open(false)? else {
            return Ok(Vec::new());
        };
        let mut revoked = Vec::new();
        for (record, name) in records_in(&dir) {
            if record.file.starts_with(under) {
                dir.remove(&name).with_context(|| {
                    format!("failed to remove {}", dir.path().join(&name).display())
                })?;
                revoked.push(record);
            }
        }
        Ok(revoked)
    }

    fn records(&self) -> anyhow::Result<Vec<Record>> {
        let Some(dir) = self.open(false)? else {
            return Ok(Vec::new());
        };
        Ok(records_in(&dir)
            .into_iter()
            .map(|(record, _)| record)
            .collect())
    }
}

/// Every readable record in `dir` and its name, oldest first. What is not
/// a record (another file, a link, a file of another user's, a record cut
/// short) is passed over.
fn records_in(dir: &Dir) -> Vec<(Record, String)> {
    let mut records: Vec<(Record, String)> = dir
        .names()
        .into_iter()
        .filter(|name| name.ends_with(".json"))
        .filter_map(|name| read_record(dir, &name).ok().map(|record| (record, name)))
        .collect();
    records.sort_by(|a, b| (a.0.allowed_at, &a.0.file).cmp(&(b.0.allowed_at, &b.0.file)));
    records
}

/// The record `name` in `dir`, read as every record is (see
/// [`crate::files::Dir::read_own`]): a regular file of the user's own,
/// with one link, not a link itself, of bounded size.
fn read_record(dir: &Dir, name: &str) -> anyhow::Result<Record> {
    let path = dir.path().join(name);
    let text = dir
        .read_own(name, MAX_RECORD_BYTES)?
        .with_context(|| format!("{} is missing", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a record", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::tests::{link_dir, link_file};

    fn suite(dir: &Path, settings: &str) -> Subject {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("judge.toml"), settings).unwrap();
        inspect(&dir.join("judge.toml"), OutsideLinks::Refused)
            .unwrap()
            .expect("it names programs")
    }

    /// A store of records in `tmp`, not the user's.
    fn store(tmp: &Path) -> Store {
        Store {
            dir: tmp.join("records"),
        }
    }

    #[test]
    fn every_shipped_suite_that_names_programs_is_allowed_as_shipped() {
        let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
        let mut naming = Vec::new();
        for entry in std::fs::read_dir(&cases).unwrap() {
            let settings = entry.unwrap().path().join("judge.toml");
            if !settings.is_file() {
                continue;
            }
            if let Some(subject) = inspect(&settings, OutsideLinks::Refused).unwrap() {
                assert!(
                    is_shipped(&subject),
                    "{} names programs and is not allowed as shipped",
                    settings.display()
                );
                naming.push(settings);
            }
        }
        assert_eq!(naming.len(), 2, "{naming:?}");
        for digest in shipped_digests() {
            assert!(digest.is_ok(), "{digest:?}");
        }
    }

    #[test]
    fn shipped_content_changed_by_a_byte_is_not_shipped() {
        let tmp = tempfile::tempdir().unwrap();
        let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/leetcode37");
        let copy = tmp.path().join("leetcode37");
        std::fs::create_dir_all(copy.join("references")).unwrap();
        for name in [
            "judge.toml",
            "references/ac_textbook.py",
            "references/ac_textbook.cpp",
        ] {
            std::fs::copy(cases.join(name), copy.join(name)).unwrap();
        }
        let settings = copy.join("judge.toml");
        let subject = inspect(&settings, OutsideLinks::Refused).unwrap().unwrap();
        assert!(is_shipped(&subject));
        assert_eq!(
            subject.hashed,
            ["references/ac_textbook.cpp", "references/ac_textbook.py"]
        );
        let mut reference = std::fs::read(copy.join("references/ac_textbook.py")).unwrap();
        reference.push(b'\n');
        std::fs::write(copy.join("references/ac_textbook.py"), reference).unwrap();
        let subject = inspect(&settings, OutsideLinks::Refused).unwrap().unwrap();
        assert!(!is_shipped(&subject));
    }

    #[test]
    fn consent_holds_for_the_content_allowed_and_no_other() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store(tmp.path());
        let dir = tmp.path().join("pack");
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/python3"), "#!/bin/sh\nexec python3 \"$@\"\n").unwrap();
        let text = "time_limit = \"1s\"\n[toolchain]\npython = \"bin/python3\"\ncpp = \"g++\"\n";
        let subject = suite(&dir, text);
        assert_eq!(subject.hashed, ["bin/python3"]);
        assert_eq!(
            subject.named[1],
            Named {
                kind: ProgramKind::Toolchain {
                    language: "cpp".into(),
                    value: "g++".into()
                },
                at: (4, 1)
            }
        );
        assert_eq!(store.consent(&subject), Consent::Refused);
        assert!(matches!(
            store.allow(&subject).unwrap(),
            Allowed::Recorded { replaced: 0, .. }
        ));
        assert_eq!(store.consent(&subject), Consent::Allowed);
        assert_eq!(store.allow(&subject).unwrap(), Allowed::Already);

        // A changed program of the suite voids the consent...
        std::fs::write(dir.join("bin/python3"), "#!/bin/sh\nid\n").unwrap();
        let changed = suite(&dir, text);
        assert_eq!(store.consent(&changed), Consent::Changed);
        // ...and so does a changed file, even by a comment.
        std::fs::write(dir.join("bin/python3"), "#!/bin/sh\nexec python3 \"$@\"\n").unwrap();
        let commented = suite(&dir, &format!("{text}# hello\n"));
        assert_eq!(store.consent(&commented), Consent::Changed);
        // Allowing the new content replaces the old record.
        assert!(matches!(
            store.allow(&commented).unwrap(),
            Allowed::Recorded { replaced: 1, .. }
        ));
        assert_eq!(store.records().unwrap().len(), 1);
        // The same content elsewhere is another file: not allowed.
        let elsewhere = tmp.path().join("copy");
        std::fs::create_dir_all(elsewhere.join("bin")).unwrap();
        std::fs::copy(dir.join("bin/python3"), elsewhere.join("bin/python3")).unwrap();
        assert_eq!(
            store.consent(&suite(&elsewhere, &format!("{text}# hello\n"))),
            Consent::Refused
        );
        // Revoking takes it back.
        assert_eq!(
            store
                .revoke(&std::fs::canonicalize(&dir).unwrap())
                .unwrap()
                .len(),
            1
        );
        assert_eq!(store.consent(&commented), Consent::Refused);
    }

    #[test]
    fn a_toolchain_path_is_told_and_split_as_the_judge_takes_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/gcc"), "").unwrap();
        // A file of the suite, and a program of it with words after it.
        assert_eq!(toolchain_path(dir, "bin/gcc"), Some(dir.join("bin/gcc")));
        assert_eq!(
            toolchain_path(dir, "bin/zig c++"),
            Some(dir.join("bin/zig"))
        );
        // A name is found on PATH: nothing of the suite to hash.
        assert_eq!(toolchain_path(dir, "g++"), None);
        // Windows' own separator names a path there, as it does for the
        // judge when it runs the toolchain, so the file is in the digest.
        assert_eq!(
            toolchain_path(dir, r"bin\gcc").is_some(),
            cfg!(windows),
            "a value with a backslash is a path on Windows only"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_of_the_pack_led_elsewhere_voids_the_consent() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store(tmp.path());
        let dir = tmp.path().join("pack");
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/good"), "#!/bin/sh\n").unwrap();
        std::fs::write(dir.join("bin/other"), "#!/bin/sh\nid\n").unwrap();
        std::os::unix::fs::symlink("good", dir.join("bin/python3")).unwrap();
        let text = "[toolchain]\npython = \"bin/python3\"\n";
        let subject = suite(&dir, text);
        // Its target is hashed, and where it leads.
        assert_eq!(subject.hashed, ["bin/good"]);
        assert_eq!(
            subject.held.programs().links,
            [("bin/python3".to_string(), "bin/good".to_string())]
        );
        store.allow(&subject).unwrap();
        assert_eq!(store.consent(&suite(&dir, text)), Consent::Allowed);
        std::fs::remove_file(dir.join("bin/python3")).unwrap();
        std::os::unix::fs::symlink("other", dir.join("bin/python3")).unwrap();
        assert_eq!(store.consent(&suite(&dir, text)), Consent::Changed);
    }

    #[cfg(unix)]
    #[test]
    fn a_program_named_outside_the_suite_is_refused_with_what_to_do() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pack");
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::create_dir_all(dir.join("tools/lib")).unwrap();
        std::fs::create_dir_all(tmp.path().join("tools")).unwrap();
        std::fs::write(tmp.path().join("tools/cc"), "#!/bin/sh\n").unwrap();
        std::os::unix::fs::symlink("/bin/true", dir.join("bin/cc")).unwrap();
        std::os::unix::fs::symlink("/usr/lib", dir.join("tools/lib/sys")).unwrap();
        let why = |value: &str| {
            std::fs::write(
                dir.join("judge.toml"),
                format!("problem = \"acwing166\"\n[toolchain]\ncpp = {value:?}\n"),
            )
            .unwrap();
            let error = inspect(&dir.join("judge.toml"), OutsideLinks::Refused).unwrap_err();
            let uncovered = error
                .downcast_ref::<Uncovered>()
                .expect("refused as uncovered");
            assert_eq!(uncovered.named.at, (3, 1));
            (uncovered.why, error.to_string())
        };
        let (up, said) = why("../tools/cc");
        assert_eq!(up, Outside::Up);
        assert!(
            said.contains(
                "names a program for the judge to run, [toolchain] cpp = \"../tools/cc\""
            ) && said.contains("neither allowed nor run")
                && said.contains("name a program on PATH by its name alone"),
            "{said}"
        );
        assert_eq!(why("/usr/bin/g++").0, Outside::Absolute);
        assert_eq!(why("/usr/bin/zig c++").0, Outside::Absolute);
        assert_eq!(why("bin/cc").0, Outside::LinksOut);
        assert_eq!(why("./tools").0, Outside::LinkInDirectory);
        // A name on PATH is the machine's, covered by its name.
        std::fs::write(dir.join("judge.toml"), "[toolchain]\ncpp = \"g++-14\"\n").unwrap();
        assert!(inspect(&dir.join("judge.toml"), OutsideLinks::Refused)
            .unwrap()
            .is_some());
        // A reference up out of the suite is refused too.
        std::fs::write(
            dir.join("judge.toml"),
            "[[reference]]\nfile = \"../tools/cc\"\nverdict = \"AC\"\n",
        )
        .unwrap();
        let error = inspect(&dir.join("judge.toml"), OutsideLinks::Refused).unwrap_err();
        assert_eq!(error.downcast_ref::<Uncovered>().unwrap().why, Outside::Up);
    }

    #[cfg_attr(
        windows,
        ignore = "Wine shows a link as its target, so this is not run there"
    )]
    #[test]
    fn a_link_or_a_stranger_at_a_records_name_is_never_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store(tmp.path());
        let dir = tmp.path().join("pack");
        let subject = suite(&dir, "[toolchain]\ncpp = \"g++\"\n");
        std::fs::create_dir_all(&store.dir).unwrap();
        let real = std::fs::canonicalize(&subject.file).unwrap();
        let planted = store.record_path(&real, &subject.digest);
        let target = tmp.path().join("target");
        std::fs::write(&target, "kept").unwrap();
        link_file(&target, &planted);
        // A link is no record: not allowed, and allowing writes nothing
        // through it.
        assert_eq!(store.consent(&subject), Consent::Refused);
        let error = store.allow(&subject).unwrap_err().to_string();
        assert!(error.contains("is not a record of this file"), "{error}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
        // A records directory that is a link is refused.
        let linked = Store {
            dir: tmp.path().join("linked"),
        };
        link_dir(&store.dir, &linked.dir);
        let error = format!("{:#}", linked.allow(&subject).unwrap_err());
        assert!(error.contains("linked is a symbolic link"), "{error}");
    }

    #[test]
    fn the_refusal_names_the_file_the_place_and_the_command() {
        let refused = Refused {
            file: PathBuf::from("/packs/my pack/judge.toml"),
            named: Named {
                kind: ProgramKind::Toolchain {
                    language: "cpp".into(),
                    value: "sh -c 'id'".into(),
                },
                at: (3, 1),
            },
            changed: false,
        };
        assert_eq!(
            refused.to_string(),
            format!(
                "/packs/my pack/judge.toml (line 3, column 1) names a program for the judge to run, \
             [toolchain] cpp = \"sh -c 'id'\", and you have not allowed it; a suite's programs \
             run only once you allow its judge.toml: read it, then run `sudoku-judge trust \
             {}`",
                crate::quote::shell_word("/packs/my pack".as_ref())
            )
        );
    }
}
