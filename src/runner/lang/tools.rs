//! Which programs build and run a language, and what they are: where each
//! tool comes from, what version it is, the programs a version manager's
//! shims stand for, and what the sandbox must show of them.
//!
//! A language's tools come from, highest first: the suite's `judge.toml`
//! (`[toolchain]`), the usual environment variables (`CXX`, `CC`, `RUSTC`,
//! `JAVA_HOME`, `GOROOT`), the user's `config.toml` (`[toolchain]`, in
//! `$XDG_CONFIG_HOME/sudoku-judge`), and else the first on `PATH`; for a
//! compiler installed under versioned names, the newest (`g++-14` over
//! `g++-12` over `g++`).
//!
//! A suite's choice runs only with the user's consent (see
//! [`crate::case::trust`]): a `[toolchain]` of a `judge.toml` the user has not
//! allowed is refused here, where it would be used, naming the file, the
//! line and the command that allows it.
//!
//! Every question put to a tool (its version, where a version manager's
//! shim leads, a compiler cache's first fill) runs as a compile does, in
//! the sandbox with the compile's limits (`compile::ask`): a tool may be a
//! suite's, and a name on `PATH` may be anything.
//!
//! Asking a compiler its version can take seconds (`kotlinc -version`, on a
//! JVM), so it is asked once per compiler: the answer is kept on disk beside
//! the build cache, under the compiler's identity (its real path, size and
//! modification time), which an upgrade changes.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::cache::user_config;
use super::found;
pub(crate) use super::found::Chosen;
use super::language::{Language, Toolchain};

pub(crate) use crate::case::settings::Choice;
use crate::case::trust::{self, Consent};
use crate::runner::sandbox::Containment;

/// A `[toolchain]` table: language, program or directory.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserConfig {
    #[serde(default)]
    toolchain: crate::case::settings::ToolchainTable,
    /// `[cache]`, the build cache's caps: read by `cache::CacheLimits`.
    #[serde(default, rename = "cache")]
    _cache: super::cache::CacheConfig,
}

/// The choices of the user's `config.toml`, none without one.
fn user_choices() -> anyhow::Result<Vec<Choice>> {
    let Some((path, text)) = user_config()? else {
        return Ok(Vec::new());
    };
    let config: UserConfig = toml::from_str(&text)
        .map_err(crate::case::settings::toml_error)
        .with_context(|| format!("invalid {}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("/"));
    config
        .toolchain
        .into_iter()
        .map(|(language, value)| {
            let at = crate::case::settings::line_column(&text, language.span().start);
            choice(language.into_inner(), value, dir, &path, at)
        })
        .collect()
}

/// A `[toolchain]` entry of the file at `file`, in `dir`: a path in it is
/// taken from `dir`, a bare name is found on `PATH`.
pub(crate) fn choice(
    language: String,
    value: String,
    dir: &Path,
    file: &Path,
    at: (usize, usize),
) -> anyhow::Result<Choice> {
    let value = if crate::quote::names_a_path(&value) {
        dir.join(&value).display().to_string()
    } else {
        value
    };
    let choice = Choice {
        language,
        value,
        origin: file.display().to_string(),
        at: Some(at),
        consent: Consent::Own,
        held: None,
    };
    known_language(&choice)?;
    Ok(choice)
}

/// That a file's `[toolchain]` key is a language: else an error naming
/// the file, the line and column, and the keys it takes.
fn known_language(choice: &Choice) -> anyhow::Result<()> {
    if Language::find(&choice.language).is_some() {
        return Ok(());
    }
    let at = choice.at.map_or(String::new(), |(line, column)| {
        format!(" (line {line}, column {column})")
    });
    anyhow::bail!(
        "invalid {}: [toolchain] has `{}`, which is not a language; the keys are {}{at}",
        choice.origin,
        choice.language,
        Language::all()
            .iter()
            .map(|l| l.0.id)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The environment variables that name a toolchain (a program, or a home
/// directory), as build tools use them, and the languages each is for.
const ENVIRONMENT: [(&str, &[&str]); 5] = [
    ("CXX", &["cpp"]),
    ("CC", &["c"]),
    ("RUSTC", &["rust"]),
    ("JAVA_HOME", &["java", "kotlin", "scala"]),
    ("GOROOT", &["go"]),
];

fn environment_choices() -> Vec<Choice> {
    let mut choices = Vec::new();
    for (variable, languages) in ENVIRONMENT {
        let Some(value) = std::env::var_os(variable).filter(|v| !v.is_empty()) else {
            continue;
        };
        for language in languages {
            choices.push(Choice {
                language: language.to_string(),
                value: value.to_string_lossy().into_owned(),
                origin: variable.to_string(),
                at: None,
                consent: Consent::Own,
                held: None,
            });
        }
    }
    choices
}

/// Finds a language's tools as the user chose them (`suite` first, from
/// the cases' `judge.toml`s), else the newest on `PATH`, or says which
/// package to install.
pub(super) fn find_tools(language: Language, suite: &[Choice]) -> anyhow::Result<Vec<Chosen>> {
    let spec = language.0;
    let mut choices: Vec<Choice> = suite.to_vec();
    choices.extend(environment_choices());
    choices.extend(user_choices()?);
    for choice in suite {
        known_language(choice)?;
    }
    let choices: Vec<Choice> = choices
        .into_iter()
        .filter(|c| Language::find(&c.language) == Some(language))
        .collect();
    // The nearest choice is the one taken: a suite's that the user has not
    // allowed is refused, never passed over for the next, which would
    // judge with another toolchain than the suite says.
    if let Some(choice) = choices.first().filter(|c| !c.consent.given()) {
        return Err(refused(choice).into());
    }
    // A suite's program runs as the bytes that were hashed, from a copy.
    let choices = choices
        .iter()
        .map(super::copied::run_from_copy)
        .collect::<anyhow::Result<Vec<Choice>>>()?;
    spec.tools
        .iter()
        .enumerate()
        .map(|(i, tool)| {
            for choice in &choices {
                if let Some((program, args)) = chosen_program(choice, tool.command, i == 0)? {
                    // A later tool from a suite's choice further out, which
                    // the user has not allowed, is refused as the first is.
                    if !choice.consent.given() {
                        return Err(refused(choice).into());
                    }
                    let name = if Path::new(&choice.value).is_dir() {
                        program.display().to_string()
                    } else if crate::quote::names_a_path(&choice.value) {
                        std::iter::once(program.display().to_string())
                            .chain(args.iter().cloned())
                            .collect::<Vec<_>>()
                            .join(" ")
                    } else {
                        choice.value.clone()
                    };
                    return Ok(Chosen {
                        program,
                        args,
                        name,
                        origin: choice.origin.clone(),
                    });
                }
            }
            std::iter::once(tool.command)
                .chain(tool.alternatives.iter().copied())
                .chain(
                    found::windows_alternatives(tool.command, cfg!(windows))
                        .iter()
                        .copied(),
                )
                .find_map(|command| found::newest_on_path(command, tool.versioned))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "`{}` is not installed or not on PATH, and judging {language} needs it; \
                         install Debian's package {} (apt install {}), or build the program \
                         yourself and judge it with --cmd",
                        tool.command,
                        tool.package,
                        tool.package
                    )
                })
        })
        .collect()
}

/// The refusal of a suite's `choice` made without the user's consent.
fn refused(choice: &Choice) -> trust::Refused {
    trust::Refused {
        file: PathBuf::from(&choice.origin),
        named: trust::Named {
            kind: trust::ProgramKind::Toolchain {
                language: choice.language.clone(),
                value: choice.value.clone(),
            },
            at: choice.at.unwrap_or((1, 1)),
        },
        changed: choice.consent == Consent::Changed,
    }
}

/// The program `choice` gives for the tool `command`, and the arguments
/// that come first in its commands: a directory gives each tool it holds,
/// a program only the first (`first`), with the words after it (`zig c++`,
/// as `CXX` is often set).
fn chosen_program(
    choice: &Choice,
    command: &str,
    first: bool,
) -> anyhow::Result<Option<(PathBuf, Vec<String>)>> {
    let path = Path::new(&choice.value);
    if path.is_dir() {
        return Ok([path.join("bin").join(command), path.join(command)]
            .into_iter()
            .find(|p| p.is_file())
            .map(|program| (program, Vec::new())));
    }
    if !first {
        return Ok(None);
    }
    let words = crate::quote::command_words(&choice.value).unwrap_or_default();
    let (program, args) = match words.split_first() {
        Some((program, args)) if !args.is_empty() && !path.exists() => {
            (program.clone(), args.to_vec())
        }
        _ => (choice.value.clone(), Vec::new()),
    };
    which::which(&program)
        .map(|p| Some((p, args)))
        .map_err(|_| {
            anyhow::anyhow!(
                "{} sets the {} toolchain to `{}`, which is not a program{}; set it to a compiler \
             or interpreter on PATH, or a path to one",
                choice.origin,
                Language::find(&choice.language).map_or(choice.language.as_str(), |l| l.0.name),
                choice.value,
                if crate::quote::names_a_path(&choice.value) {
                    ""
                } else {
                    " on PATH"
                }
            )
        })
}

/// What makes a program the same program: its real path, size and
/// modification time. An upgrade changes it.
pub(crate) fn identity(program: &Path) -> String {
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    let (size, modified) = std::fs::metadata(&real).map_or((0, 0), |m| {
        let modified = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |since| since.as_nanos() as i128);
        (m.len(), modified)
    });
    format!("{} {size} {modified}", real.display())
}

/// The first line of what `tool args` prints, asked once per compiler in
/// the sandbox, seeing what `toolchain` shows (as its compiles do): the
/// answer is kept in the build cache under the program's [`identity`]. An
/// error when the question could not be put: the tool would not start, or
/// the machine was too busy to let it answer (see `compile::ask`).
pub(crate) fn version(tool: &Path, args: &[&str], toolchain: &Toolchain) -> anyhow::Result<String> {
    let kept = version_file(tool, args);
    if let Ok(text) = std::fs::read_to_string(&kept) {
        return Ok(text);
    }
    let answer = ask_version(tool, args, toolchain)?;
    // A cache that cannot be written only costs the question next time.
    if let Some(dir) = kept.parent().filter(|_| !answer.is_empty()) {
        let _ = std::fs::create_dir_all(dir).and_then(|()| {
            let file = tempfile::NamedTempFile::new_in(dir)?;
            std::fs::write(file.path(), &answer)?;
            file.persist(&kept).map(drop).map_err(Into::into)
        });
    }
    Ok(answer)
}

/// Whether `tool`'s version is known without asking it.
pub(crate) fn version_known(tool: &Path, args: &[&str]) -> bool {
    version_file(tool, args).is_file()
}

/// Where the answer of `tool args` is kept.
fn version_file(tool: &Path, args: &[&str]) -> PathBuf {
    let mut hasher = Sha256::new();
    hasher.update(identity(tool));
    hasher.update(args.join(" "));
    crate::runner::places::cache_root()
        .join(".versions")
        .join(super::cache::key(hasher, 12))
}

/// What `tool args` says of its version: the first line, on stdout or
/// stderr, that [names a version](names_a_version) (a JVM's warnings come
/// before kotlinc's version), else the first line it printed.
fn ask_version(tool: &Path, args: &[&str], toolchain: &Toolchain) -> anyhow::Result<String> {
    let answer = super::compile::ask(tool, args, toolchain, &[])?;
    let lines: Vec<String> = [answer.stdout, answer.stderr]
        .iter()
        .flat_map(|text| {
            String::from_utf8_lossy(text)
                .lines()
                .map(|line| line.trim().to_string())
                .filter(|line| !line.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(lines
        .iter()
        .find(|line| names_a_version(line))
        .or(lines.first())
        .cloned()
        .unwrap_or_default())
}

/// Whether a line a tool printed names its version: it holds a version
/// number and is not a warning.
pub(crate) fn names_a_version(line: &str) -> bool {
    super::language::regex(r"\d+\.\d+").is_match(line) && !line.to_lowercase().contains("warning")
}

/// The output of `program args...`, trimmed, when it succeeds; for asking
/// a toolchain where it lives (a version manager's shim, which program it
/// stands for). Asked in the sandbox as a compile runs (see
/// `compile::ask`), seeing the program (with a version manager's hidden
/// directory of the home, see `sandbox::program_paths`) and `read_only`,
/// with `env`.
pub(super) fn ask(
    program: &Path,
    args: &[&str],
    read_only: Vec<PathBuf>,
    env: &[(&str, &str)],
    containment: &Containment,
) -> Option<String> {
    let view = toolchain(vec![program.into()], read_only, Vec::new(), containment);
    let answer = super::compile::ask(program, args, &view, env).ok()?;
    answer
        .success
        .then(|| String::from_utf8_lossy(&answer.stdout).trim().to_string())
}

/// Where `program` is installed, when it lies as `PREFIX/bin/NAME` outside
/// the system directories (conda's `~/miniconda3/bin/python3`, a
/// `/opt/python/bin/python3`): `PREFIX`, which an interpreter needs to
/// see to start (its library). Never the home directory or one above it,
/// which a question has no business seeing (`~/bin/python3`), nor a
/// hidden directory of the home that holds much else (`~/.local`, for a
/// `~/.local/bin/python3`), nor one that holds the judge's own files (see
/// `sandbox::may_show_whole`).
pub(super) fn installation(program: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(program).ok()?;
    let bin = real.parent()?;
    let prefix = bin.parent()?;
    let home = dirs::home_dir();
    (bin.file_name()? == "bin"
        && prefix.parent().is_some()
        && !crate::runner::sandbox::is_system_path(prefix)
        && crate::runner::sandbox::may_show_whole(prefix, home.as_deref()))
    .then(|| prefix.to_path_buf())
}

/// The nearest file named `name` in the working directory or above it: a
/// version manager's pin of the project (`.python-version`,
/// `rust-toolchain.toml`), which the sandbox does not show a question, so
/// it is told what the pin says instead.
pub(super) fn nearest_pin(name: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// The usual resolution: each tool's real path (past symbolic links),
/// seen by the sandbox with what it needs (see `sandbox::program_paths`).
pub(super) fn resolve_links(tools: Vec<PathBuf>, containment: &Containment) -> Toolchain {
    let programs = tools
        .into_iter()
        .map(|tool| std::fs::canonicalize(&tool).unwrap_or(tool))
        .collect();
    toolchain(programs, Vec::new(), Vec::new(), containment)
}

/// The variables that name zig's caches, global and local.
const ZIG_CACHES: &[&str] = &["ZIG_GLOBAL_CACHE_DIR", "ZIG_LOCAL_CACHE_DIR"];

/// A C or C++ compiler: as [`resolve_links`], and zig (`zig c++`, as the
/// `ziglang` wheel on PyPI installs it) with its library beside it and
/// the cache where it keeps the libc++ it builds once (see
/// [`Toolchain::caches`]).
pub(super) fn resolve_compiler(tools: Vec<PathBuf>, containment: &Containment) -> Toolchain {
    let mut toolchain = resolve_links(tools, containment);
    let zig = toolchain
        .programs
        .first()
        .filter(|p| p.file_name().is_some_and(|name| name == "zig"))
        .and_then(|zig| zig.parent())
        .map(Path::to_path_buf);
    if let Some(dir) = zig {
        if !crate::runner::sandbox::is_system_path(&dir) {
            toolchain.read_only.push(dir);
        }
        toolchain.caches = ZIG_CACHES;
    }
    toolchain
}

/// A toolchain of `programs`, seen by the sandbox with `read_only` and
/// whatever else the programs need.
pub(crate) fn toolchain(
    programs: Vec<PathBuf>,
    mut read_only: Vec<PathBuf>,
    path_dirs: Vec<PathBuf>,
    containment: &Containment,
) -> Toolchain {
    let home = dirs::home_dir();
    for program in &programs {
        for path in crate::runner::sandbox::program_paths(program, home.as_deref()) {
            if !read_only.iter().any(|p| path.starts_with(p)) {
                read_only.push(path);
            }
        }
    }
    Toolchain {
        programs,
        read_only,
        path_dirs,
        caches: &[],
        containment: containment.clone(),
    }
}

// These tests run Unix programs or read Unix paths.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn an_interpreter_outside_the_system_is_seen_with_its_installation() {
        let tmp = tempfile::tempdir().unwrap();
        let prefix = tmp.path().join("miniconda3");
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::fs::write(prefix.join("bin/python3.11"), "").unwrap();
        std::os::unix::fs::symlink("python3.11", prefix.join("bin/python3")).unwrap();
        std::fs::write(tmp.path().join("python3"), "").unwrap();
        let real = std::fs::canonicalize(&prefix).unwrap();
        assert_eq!(installation(&prefix.join("bin/python3")), Some(real));
        assert_eq!(installation(&tmp.path().join("python3")), None);
        assert_eq!(installation(Path::new("/usr/bin/python3")), None);
        if let Some(home) = dirs::home_dir() {
            assert_eq!(installation(&home.join("bin/python3")), None);
        }
    }

    #[test]
    fn the_version_is_the_line_with_a_number_past_any_warning() {
        // As kotlinc says it: the JVM's warning first, on stderr.
        let kotlinc = "echo 'OpenJDK 64-Bit Server VM warning: -Xverify:none was deprecated in \
                       JDK 13' >&2; echo 'info: kotlinc-jvm 1.3.31 (JRE 17.0.15)' >&2";
        let sh = toolchain(
            vec!["/bin/sh".into()],
            Vec::new(),
            Vec::new(),
            &Default::default(),
        );
        assert_eq!(
            ask_version(Path::new("/bin/sh"), &["-c", kotlinc], &sh).unwrap(),
            "info: kotlinc-jvm 1.3.31 (JRE 17.0.15)"
        );
        // raco says no version at all: its first line stands for it in the
        // build cache's key, and names no version.
        let raco = "echo 'A command can be specified by an unambiguous prefix.'";
        let said = ask_version(Path::new("/bin/sh"), &["-c", raco], &sh).unwrap();
        assert_eq!(said, "A command can be specified by an unambiguous prefix.");
        assert!(!names_a_version(&said));
    }
}
