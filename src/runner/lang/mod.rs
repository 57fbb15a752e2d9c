//! Source files in the languages users submit in: which language a file is,
//! whether it is a program or a LeetCode-style file, and how to build and
//! start it the way the judges do.
//!
//! A language is a declaration, not a branch: each one is a [`Spec`] in a
//! file of its own beside this one (its extensions, toolchain, flags, the
//! files and commands that build and start it, what its runtime says when
//! it crashes, the LeetCode template it takes), plus its driver in
//! `drivers/`. Nothing else in the judge asks which language it runs; the
//! README's table of languages is made from the same declarations
//! ([`table`]), and a test keeps the two in step.
//!
//! Builds are cached: the build directory is named by a hash of the
//! source, the driver, the flags and the toolchain's versions, so judging
//! the same file again starts at once. A build happens in a fresh
//! directory that is renamed into place only when it succeeded, so an
//! interrupted or failed build is never mistaken for a good one.

mod c;
mod cause;
mod cpp;
mod csharp;
pub mod export;
mod go;
mod harness;
mod java;
mod javascript;
mod kotlin;
pub mod launch;
mod php;
mod python;
mod racket;
mod ruby;
mod rust;
mod scala;
pub mod table;
mod typescript;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use regex::Regex;
use sha2::{Digest as _, Sha256};

use super::process;
use crate::problem::Problem;
use launch::{Interface, Launch, Runtime};

pub use cause::{crash_cause, out_of_memory};

/// Everything the judge knows about one language.
pub struct Spec {
    /// The name `--lang` takes, then other names it accepts.
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    /// As people write it: `C++`, `C#`.
    pub name: &'static str,
    /// File extensions, without the dot; the first is the usual one.
    pub extensions: &'static [&'static str],
    /// The programs it needs, found on `PATH`.
    pub tools: &'static [Tool],
    /// The toolchain the fixtures were judged with, for the README.
    pub tested: &'static str,
    /// Turns the tools found on `PATH` into what runs in the sandbox.
    pub resolve: fn(Vec<PathBuf>) -> Toolchain,
    /// The flags sources are built with, as the judges build them: `@FLAGS@`
    /// in a compile command.
    pub flags: &'static [&'static str],
    /// Why these flags, for the README.
    pub flags_why: &'static str,
    /// Judges that build programs in this language with other flags.
    pub profiles: &'static [Profile],
    /// What makes a file a program or a LeetCode-style file.
    pub detect: Detect,
    /// How a program (AcWing style) is built and started.
    pub program: Build,
    /// How a LeetCode-style file is built behind its driver and started.
    pub function: Build,
    /// The entry class of a program (`@CLASS@`), from its source and file
    /// name, for languages that run a class.
    pub entry: Option<fn(&str, &str) -> Option<String>>,
    /// The source as it is built, before it goes into the build's files:
    /// a prelude that keeps its line numbers, an opening tag it lacks.
    pub prepare: Option<fn(&str, &str, Interface) -> String>,
    /// The driver: `@DRIVER@` in a build's files.
    pub driver: &'static str,
    /// Extra environment for the compiler.
    pub compile_env: &'static [(&'static str, &'static str)],
    /// Built to machine code that reserves no more address space than it
    /// uses, so it gets `RLIMIT_AS` as a backstop (Go's runtime, the JVM,
    /// V8 and Mono reserve far more than they use, and do not).
    pub native: bool,
    /// Memory its runtime takes on its own before any of the solution's,
    /// allowed on top of the limit (the JVM's is worked out from the limit;
    /// see [`launch::JVM_OWN_KB`]).
    pub runtime_kb: u64,
    /// What its runtime says when the program dies of an error.
    pub causes: &'static [cause::Cause],
    /// A stack frame in its runtime's report: where in the user's file.
    pub frame: Option<cause::Frame>,
    /// What its runtime says when an allocation fails (an MLE, not an RE).
    pub out_of_memory: &'static [&'static str],
    /// How LeetCode offers problem 37 in this language.
    pub leetcode: LeetCode,
    /// A program that echoes its first input line, to prove the toolchain
    /// works: `sudoku-judge doctor` builds it as a submission is built and
    /// judges it in the sandbox on a solved board, which the echo answers.
    pub self_test: &'static str,
}

/// A judge whose build of a program differs from a language's usual flags,
/// used when every case of a run is that judge's problem.
pub struct Profile {
    pub problem: Problem,
    pub flags: &'static [&'static str],
    /// What the judge's compiler is, for the report.
    pub why: &'static str,
}

/// A program a language needs, and where to get it.
pub struct Tool {
    /// As found on `PATH`.
    pub command: &'static str,
    /// The Debian package that provides it.
    pub package: &'static str,
    /// Arguments that make it print its version.
    pub version_args: &'static [&'static str],
}

/// How a file shows which kind of submission it is. Comments are removed
/// first, so a comment saying "no main()" does not make a program.
pub struct Detect {
    pub comments: Comments,
    /// A program's entry point (or, for scripts, reading stdin).
    pub program: &'static str,
    /// LeetCode's function or class.
    pub function: &'static str,
    /// A script needs no entry point: a file with neither is a program.
    pub script: bool,
}

/// The comment syntax of a language.
#[derive(Clone, Copy)]
pub enum Comments {
    /// `//` and `/* */`.
    CLike,
    /// `#`.
    Hash,
    /// `//`, `/* */` and `#`.
    CLikeAndHash,
    /// `;` and `#| |#`.
    Lisp,
}

/// The files and commands of one kind of build. Strings may hold
/// placeholders: `@NAME@` the file's name, `@SOURCE@` its (prepared)
/// text, `@DRIVER@` the driver, `@CLASS@` the entry class, `@DIR@` the
/// build directory, `@TOOL0@`... the tools, `@HOME0@`... the directory a
/// tool is installed in (its program's grandparent), `@FLAGS@` (a whole
/// argument) the flags.
pub struct Build {
    /// Written into the build directory: name, contents.
    pub files: &'static [(&'static str, &'static str)],
    /// The file holding the user's code, whose name in messages is the
    /// user's file's name.
    pub source_as: &'static str,
    /// The compiler's command, run in the build directory; empty when
    /// there is nothing to build.
    pub compile: &'static [&'static str],
    /// Whether the compile step is shown as compiling: a syntax check of a
    /// script is not.
    pub shown: bool,
    pub run: Run,
}

/// How a build starts.
pub enum Run {
    /// A program and its arguments, `argv[0]` first (an absolute path).
    Exec(&'static [&'static str]),
    /// A class on the JVM, with a heap limit (see [`Runtime::Java`]).
    Jvm {
        java: &'static str,
        classpath: &'static [&'static str],
        class: &'static str,
    },
}

/// LeetCode's problem 37 in a language.
pub struct LeetCode {
    /// The method or function to define, as the template names it.
    pub method: &'static str,
    /// The template, as LeetCode shows it.
    pub template: &'static str,
    /// What the driver gives a LeetCode-style file, for the README.
    pub gets: &'static str,
}

/// A language's tools as they are run, and what a run must see of them.
pub struct Toolchain {
    /// The tools, resolved to the programs that do the work (not a
    /// version manager's shims).
    pub programs: Vec<PathBuf>,
    /// Directories outside the system that the sandbox shows read-only.
    pub read_only: Vec<PathBuf>,
    /// Directories to put first on `PATH`.
    pub path_dirs: Vec<PathBuf>,
}

/// The languages judged, in the order the README lists them.
static ALL: [Language; 14] = [
    Language(&cpp::SPEC),
    Language(&c::SPEC),
    Language(&rust::SPEC),
    Language(&python::SPEC),
    Language(&java::SPEC),
    Language(&go::SPEC),
    Language(&javascript::SPEC),
    Language(&typescript::SPEC),
    Language(&csharp::SPEC),
    Language(&kotlin::SPEC),
    Language(&scala::SPEC),
    Language(&ruby::SPEC),
    Language(&php::SPEC),
    Language(&racket::SPEC),
];

/// Languages LeetCode offers for problem 37 that are not judged here, with
/// their extensions and why.
pub const NOT_JUDGED: [(&str, &[&str], &str); 2] = [
    (
        "Swift",
        &["swift"],
        "no Swift toolchain can be installed from Debian 12, npm or PyPI, so none was tested; \
         build your program yourself and judge it with --cmd",
    ),
    (
        "Dart",
        &["dart"],
        "no Dart SDK can be installed from Debian 12, npm or PyPI, so none was tested; \
         build your program yourself and judge it with --cmd",
    ),
];

/// A language a `--submission` file may be written in.
#[derive(Clone, Copy)]
pub struct Language(&'static Spec);

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Language {}

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

/// A compiler is held to this much CPU time, twice that in wall time, and
/// this much memory: a build that hangs or balloons (a huge template
/// instantiation, `#include "/dev/zero"`) is a compile error saying which
/// limit it passed.
const COMPILE_CPU: Duration = Duration::from_secs(30);
const COMPILE_MEMORY_KB: u64 = 1 << 20;

impl Language {
    /// Every language judged.
    pub fn all() -> &'static [Language] {
        &ALL
    }

    /// The language named `id` (as `--lang` takes it).
    pub fn find(id: &str) -> Option<Language> {
        ALL.iter()
            .copied()
            .find(|l| l.0.id == id || l.0.aliases.contains(&id))
    }

    pub fn spec(self) -> &'static Spec {
        self.0
    }

    /// Whether it builds to a native binary, which gets the address-space
    /// backstop.
    pub fn is_native(self) -> bool {
        self.0.native
    }

    /// Memory its runtime takes on its own, allowed on top of the limit
    /// (the JVM's is counted apart, from the limit).
    pub fn runtime_kb(self) -> u64 {
        self.0.runtime_kb
    }

    /// The language of `path`, from its extension.
    pub fn from_path(path: &Path) -> Option<Language> {
        let extension = path.extension()?.to_str()?;
        ALL.iter()
            .copied()
            .find(|l| l.0.extensions.contains(&extension))
    }

    /// The flags sources are built with, as the judges build them.
    pub fn flags(self) -> &'static [&'static str] {
        self.0.flags
    }
}

/// A compiled pattern of a declaration, compiled once.
fn regex(pattern: &'static str) -> Regex {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Regex>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cache
        .entry(pattern)
        .or_insert_with(|| Regex::new(pattern).expect("a valid pattern"))
        .clone()
}

/// A pattern made at run time, compiled each time it is asked for.
fn regex_of(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid pattern")
}

/// `source` without its comments. Strings are not parsed: a comment
/// marker inside one cuts the rest of its line, which cannot hide a
/// definition.
fn without_comments(comments: Comments, source: &str) -> String {
    let pattern = match comments {
        Comments::CLike => r"(?s)/\*.*?\*/|//[^\n]*",
        Comments::Hash => r"#[^\n]*",
        Comments::CLikeAndHash => r"(?s)/\*.*?\*/|//[^\n]*|#[^\n]*",
        Comments::Lisp => r"(?s)#\|.*?\|#|;[^\n]*",
    };
    regex(pattern).replace_all(source, " ").into_owned()
}

/// Whether `source` has an entry point of its own (a `main`, or for a
/// script, reading stdin), and whether it has LeetCode's function.
pub fn readings(language: Language, source: &str) -> (bool, bool) {
    let detect = &language.0.detect;
    let source = &without_comments(detect.comments, source);
    (
        regex(detect.program).is_match(source),
        regex(detect.function).is_match(source),
    )
}

/// Whether `source` is a program with its own entry point (AcWing style)
/// or a LeetCode-style file with the problem's function and none.
pub fn interface_of(language: Language, source: &str) -> Option<Interface> {
    match readings(language, source) {
        (true, _) => Some(Interface::Program),
        (false, true) => Some(Interface::Function),
        (false, false) if language.0.detect.script => Some(Interface::Program),
        (false, false) => None,
    }
}

/// How to read a file that has both LeetCode's function and an entry
/// point of its own (a local test harness beside the class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reading {
    /// As a program: the entry point wins.
    #[default]
    Detect,
    /// As LeetCode reads it, the class through the driver: the file is
    /// judged on a LeetCode problem.
    LeetCodeFirst,
    /// As the user said (`--interface`).
    Forced(Interface),
}

/// What preparing a source file did, for the report.
#[derive(Clone, Debug)]
pub struct BuildInfo {
    pub source: PathBuf,
    pub language: Language,
    pub interface: Interface,
    /// The compiler command, as a user would type it; empty when nothing is
    /// compiled (a script's syntax check is not shown).
    pub command: String,
    /// Found in the cache: nothing was compiled.
    pub cached: bool,
    pub time: Duration,
    /// The compiler's message when it failed, paths made relative.
    pub error: Option<String>,
    /// How the file was read, when worth saying: a local harness left
    /// out, or a file that could be read either way.
    pub notes: Vec<String>,
}

/// A prepared submission: ready to launch, or rejected by the compiler.
pub struct Built {
    pub launch: Option<Launch>,
    pub info: BuildInfo,
}

/// The user's file as a run names it: in messages and stack traces,
/// `built_as` (the build's copy) is the user's `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceName {
    pub name: String,
    pub built_as: String,
}

/// Finds a language's tools on `PATH`, or says which package to install.
fn find_tools(language: Language) -> anyhow::Result<Vec<PathBuf>> {
    language
        .0
        .tools
        .iter()
        .map(|tool| {
            which::which(tool.command).map_err(|_| {
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

/// The first line of what `tool args` prints, so an upgrade means a rebuild.
pub fn version(tool: &Path, args: &[&str]) -> String {
    Command::new(tool)
        .args(args)
        .output()
        .map(|o| {
            let text = if o.stdout.is_empty() {
                o.stderr
            } else {
                o.stdout
            };
            String::from_utf8_lossy(&text)
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

/// Where builds are cached: `$SUDOKU_JUDGE_CACHE`, else the user's cache
/// directory (`~/.cache/sudoku-judge` on Linux).
pub fn cache_root() -> PathBuf {
    std::env::var_os("SUDOKU_JUDGE_CACHE")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("sudoku-judge")))
        .unwrap_or_else(|| std::env::temp_dir().join("sudoku-judge-cache"))
}

/// `template` with each placeholder of `vars` replaced, in one pass (so a
/// placeholder inside a value stays as it is).
fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match vars.iter().find(|(key, _)| rest.starts_with(key)) {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[key.len()..];
            }
            None => {
                out.push('@');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A command of a declaration made real: `@FLAGS@` becomes the flags, the
/// other placeholders their values.
fn command(template: &[&str], flags: &[&str], vars: &[(&str, &str)]) -> Vec<String> {
    let mut argv = Vec::new();
    for arg in template {
        if *arg == "@FLAGS@" {
            argv.extend(flags.iter().map(|f| f.to_string()));
        } else {
            argv.push(fill(arg, vars));
        }
    }
    argv
}

/// The placeholders for the tools: `@TOOL0@` and `@HOME0@`, ...
fn tool_vars(programs: &[PathBuf]) -> Vec<(String, String)> {
    let mut vars = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.clone());
        let home = real
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"));
        vars.push((format!("@TOOL{i}@"), program.display().to_string()));
        vars.push((format!("@HOME{i}@"), home.display().to_string()));
    }
    vars
}

/// Makes the compiler's message about the build directory read as if the
/// user's file had been compiled where it is.
fn normalize(message: &str, dir: &Path, source: &SourceName) -> String {
    // The JVM's own warnings (kotlinc and scalac run on it) are never about
    // the user's code.
    let mut text: String = message
        .lines()
        .filter(|line| !line.starts_with("OpenJDK 64-Bit Server VM warning:"))
        .map(|line| format!("{line}\n"))
        .collect::<String>()
        .replace(&format!("{}/", dir.display()), "")
        .replace(&format!("./{}", source.name), &source.name);
    if source.built_as != source.name {
        for end in [":", "(", "\""] {
            text = text.replace(
                &format!("{}{end}", source.built_as),
                &format!("{}{end}", source.name),
            );
        }
    }
    text
}

/// A source file's build, worked out but not done: what [`build`] builds
/// in the cache and [`export`] writes out for a debugger.
struct Planned {
    language: Language,
    spec: &'static Spec,
    interface: Interface,
    /// The user's file's name, as the build names it.
    name: String,
    class: String,
    /// The build's files: name, contents.
    files: Vec<(String, String)>,
    compile: Option<Vec<String>>,
    /// The compile command as a user would type it.
    shown: String,
    source_name: SourceName,
    toolchain: Toolchain,
    /// The placeholders and their values (all but `@DIR@`).
    vars: Vec<(String, String)>,
    recipe: &'static Build,
    /// The flags it is built with: the language's, or its judge's.
    flags: &'static [&'static str],
    notes: Vec<String>,
}

/// Works out the build of `path`, read as `reading` says, for cases of
/// `problem` when they all are.
fn plan(
    path: &Path,
    language: Option<Language>,
    reading: Reading,
    problem: Option<Problem>,
) -> anyhow::Result<Planned> {
    let language = match language.or_else(|| Language::from_path(path)) {
        Some(language) => language,
        None => bail!("{}", unknown_language(path)),
    };
    let spec = language.0;
    let source = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read the submission {}", path.display()))?;
    let source = source
        .strip_prefix('\u{feff}')
        .unwrap_or(&source)
        .to_string();
    let (own_main, function) = readings(language, &source);
    let mut notes = Vec::new();
    let interface = match reading {
        Reading::Forced(Interface::Function) if !function => bail!(
            "{} has no {}, LeetCode's {}: it cannot be judged as a LeetCode-style file",
            path.display(),
            spec.leetcode.method,
            spec.name
        ),
        Reading::Forced(interface) => interface,
        Reading::LeetCodeFirst if function => Interface::Function,
        _ => interface_of(language, &source).with_context(|| {
            format!(
                "{} has neither a main function (an AcWing program reading stdin) nor \
                 LeetCode's {} (a LeetCode submission); which is it?",
                path.display(),
                spec.leetcode.method
            )
        })?,
    };
    if own_main && function && reading == Reading::Detect {
        notes.push(format!(
            "{} has LeetCode's {} and a main of its own: judged as a program; \
             `--interface leetcode` judges the class through the driver, as LeetCode does",
            path.display(),
            spec.leetcode.method
        ));
    }
    let tools = find_tools(language)?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.contains(['"', '\\', '@']))
        .map_or_else(
            || format!("solution.{}", spec.extensions[0]),
            str::to_string,
        );
    let toolchain = (spec.resolve)(tools);
    let recipe = match interface {
        Interface::Program => &spec.program,
        Interface::Function => &spec.function,
    };
    let class = match (interface, spec.entry) {
        (Interface::Program, Some(entry)) => entry(&source, &name).with_context(|| {
            format!(
                "{} declares no class or object with a main method to start",
                path.display()
            )
        })?,
        _ => String::new(),
    };
    // A LeetCode-style file is judged on what LeetCode would be given: a
    // local harness beside the class is left out.
    let source = match interface {
        Interface::Function => {
            let submitted = harness::leetcode_part(language, &source, &path.display().to_string());
            notes.extend(submitted.notes);
            submitted.source
        }
        Interface::Program => source,
    };
    let prepared = match spec.prepare {
        Some(prepare) => prepare(&source, &name, interface),
        None => source.clone(),
    };
    let tools_vars = tool_vars(&toolchain.programs);
    // The driver may name the user's file (Rust's `include!`).
    let driver = fill(spec.driver, &[("@NAME@", &name)]);
    let mut vars: Vec<(&str, &str)> = vec![
        ("@NAME@", &name),
        ("@SOURCE@", &prepared),
        ("@DRIVER@", &driver),
        ("@CLASS@", &class),
    ];
    vars.extend(tools_vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let files: Vec<(String, String)> = recipe
        .files
        .iter()
        .map(|(file, text)| (fill(file, &vars), fill(text, &vars)))
        .collect();
    let source_name = SourceName {
        name: name.clone(),
        built_as: fill(recipe.source_as, &vars),
    };
    // A program judged on a problem whose judge builds it otherwise is
    // built as that judge builds it.
    let profile = spec
        .profiles
        .iter()
        .find(|p| interface == Interface::Program && Some(p.problem) == problem);
    let flags = profile.map_or(spec.flags, |p| p.flags);
    if let Some(profile) = profile {
        notes.push(format!(
            "built for {} with {}: {}",
            profile.problem.name(),
            flags.join(" "),
            profile.why
        ));
    }
    let compile = (!recipe.compile.is_empty()).then(|| command(recipe.compile, flags, &vars));
    // Named as the user calls it, not as the toolchain resolved it.
    let shown = match &compile {
        Some(argv) if recipe.shown => {
            let mut words = vec![spec.tools[0].command.to_string()];
            words.extend(argv[1..].iter().cloned());
            words.join(" ")
        }
        _ => String::new(),
    };
    let vars = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Ok(Planned {
        language,
        spec,
        interface,
        name,
        class,
        files,
        compile,
        shown,
        source_name,
        toolchain,
        vars,
        recipe,
        flags,
        notes,
    })
}

/// Prepares `path` for judging: detects its language (unless given) and
/// interface, and builds it with the judges' flags, from the cache when it
/// was built before. A compile error is not an `Err`: it comes back in
/// [`BuildInfo::error`], and the judge gives every case CE.
pub fn build(path: &Path, language: Option<Language>) -> anyhow::Result<Built> {
    build_as(path, language, Reading::Detect, None)
}

/// [`build`], reading a file that could be a program or a LeetCode-style
/// file as `reading` says, for cases of `problem` when they all are (a
/// judge may build programs with flags of its own).
pub fn build_as(
    path: &Path,
    language: Option<Language>,
    reading: Reading,
    problem: Option<Problem>,
) -> anyhow::Result<Built> {
    let Planned {
        language,
        spec,
        interface,
        name,
        class,
        files,
        compile,
        shown,
        source_name,
        toolchain,
        vars: owned_vars,
        recipe,
        flags,
        notes,
    } = plan(path, language, reading, problem)?;
    let vars: Vec<(&str, &str)> = owned_vars
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();

    let mut hasher = Sha256::new();
    hasher.update(format!("{} {interface:?}\n{name}\n{class}\n", spec.id));
    for arg in compile.iter().flatten() {
        hasher.update(format!("{arg}\n"));
    }
    for (tool, program) in spec.tools.iter().zip(&toolchain.programs) {
        hasher.update(program.as_os_str().as_encoded_bytes());
        hasher.update(version(program, tool.version_args));
    }
    for (file, text) in &files {
        hasher.update(format!("\n--- {file} {}\n", text.len()));
        hasher.update(text);
    }
    let hash: String = hasher
        .finalize()
        .iter()
        .take(10)
        .map(|b| format!("{b:02x}"))
        .collect();
    let root = cache_root();
    let dir = root.join(format!("{}-{hash}", name.replace('.', "-")));
    let mut info = BuildInfo {
        source: path.to_path_buf(),
        language,
        interface,
        command: shown,
        cached: true,
        time: Duration::ZERO,
        error: None,
        notes,
    };
    let label = format!(
        "{} ({language} {})",
        path.display(),
        match interface {
            Interface::Program => "program",
            Interface::Function => "LeetCode-style",
        }
    );
    let launch = |dir: &Path| {
        let dir_text = dir.display().to_string();
        let mut vars = vars.clone();
        vars.push(("@DIR@", &dir_text));
        Launch {
            label: label.clone(),
            interface,
            runtime: runtime(&recipe.run, flags, &vars),
            language: Some(language),
            source: Some(source_name.clone()),
            read_only: std::iter::once(dir.to_path_buf())
                .chain(toolchain.read_only.iter().cloned())
                .collect(),
        }
    };
    if dir.join(".built").is_file() {
        return Ok(Built {
            launch: Some(launch(&dir)),
            info,
        });
    }

    std::fs::create_dir_all(&root)
        .with_context(|| format!("failed to create the build cache {}", root.display()))?;
    let scratch = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(&root)
        .with_context(|| format!("failed to create a build directory in {}", root.display()))?;
    for (file, text) in &files {
        std::fs::write(scratch.path().join(file), text)
            .with_context(|| format!("failed to write {file} into the build directory"))?;
    }
    info.cached = false;
    let started = Instant::now();
    if let Some(argv) = &compile {
        let finished = run_compiler(
            argv,
            scratch.path(),
            &toolchain,
            spec.compile_env,
            language.is_native(),
        )?;
        info.time = started.elapsed();
        if let Err(message) = finished {
            info.error = Some(normalize(message.trim_end(), scratch.path(), &source_name));
            return Ok(Built { launch: None, info });
        }
    }
    std::fs::write(scratch.path().join(".built"), "")?;
    let built = scratch.keep();
    if std::fs::rename(&built, &dir).is_err() {
        // Another run built the same thing meanwhile; use that one.
        let _ = std::fs::remove_dir_all(&built);
        if !dir.join(".built").is_file() {
            bail!("failed to move the build into {}", dir.display());
        }
    }
    Ok(Built {
        launch: Some(launch(&dir)),
        info,
    })
}

/// What to say of a file whose language is not known from its extension.
fn unknown_language(path: &Path) -> String {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if let Some((name, _, why)) = NOT_JUDGED
        .iter()
        .find(|(_, extensions, _)| extensions.contains(&extension))
    {
        return format!(
            "{} is {name}, which sudoku-judge does not judge: {why}",
            path.display()
        );
    }
    let known: Vec<String> = ALL
        .iter()
        .map(|l| format!(".{}", l.0.extensions[0]))
        .collect();
    format!(
        "cannot tell the language of {} from its extension; name it {}, or say which with \
         --lang",
        path.display(),
        known.join(" ")
    )
}

/// How a build starts, its placeholders filled.
fn runtime(run: &Run, flags: &[&str], vars: &[(&str, &str)]) -> Runtime {
    match run {
        Run::Exec(argv) => {
            let argv = command(argv, flags, vars);
            Runtime::Exec {
                program: PathBuf::from(&argv[0]),
                argv: argv.into_iter().map(OsString::from).collect(),
            }
        }
        Run::Jvm {
            java,
            classpath,
            class,
        } => Runtime::Java {
            java: PathBuf::from(fill(java, vars)),
            classpath: command(classpath, &[], vars).join(":").into(),
            class: fill(class, vars),
        },
    }
}

/// The output of `program args...`, trimmed; for asking a toolchain where
/// it lives. Runs outside the sandbox: it is the user's own toolchain.
fn ask(program: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The usual resolution: each tool's real path (past symbolic links),
/// seen by the sandbox with what it needs (see `sandbox::program_paths`).
fn resolve_links(tools: Vec<PathBuf>) -> Toolchain {
    let programs = tools
        .into_iter()
        .map(|tool| std::fs::canonicalize(&tool).unwrap_or(tool))
        .collect();
    toolchain(programs, Vec::new(), Vec::new())
}

/// A toolchain of `programs`, seen by the sandbox with `read_only` and
/// whatever else the programs need.
fn toolchain(
    programs: Vec<PathBuf>,
    mut read_only: Vec<PathBuf>,
    path_dirs: Vec<PathBuf>,
) -> Toolchain {
    let home = dirs::home_dir();
    for program in &programs {
        for path in super::sandbox::program_paths(program, home.as_deref()) {
            if !read_only.iter().any(|p| path.starts_with(p)) {
                read_only.push(path);
            }
        }
    }
    Toolchain {
        programs,
        read_only,
        path_dirs,
    }
}

/// Runs a compiler in the sandbox, in `dir`: `Ok(Err(message))` when it
/// rejected the source or passed a limit. `native`: the compiler is a
/// native program (gcc, rustc), not a JVM's, which reserves far more
/// address space than it uses.
///
/// The watchdog sees the memory of the compiler's whole tree only through
/// a cgroup. Without one (a user without a delegated cgroup), the kernel
/// holds each of its processes to the limits instead, `RLIMIT_CPU` and,
/// for a native compiler, `RLIMIT_AS`; a compiler stopped there is told
/// apart by what its run used, which its init counted.
fn run_compiler(
    argv: &[String],
    dir: &Path,
    toolchain: &Toolchain,
    env: &[(&str, &str)],
    native: bool,
) -> anyhow::Result<Result<(), String>> {
    let tool = PathBuf::from(&argv[0]);
    let mut args: Vec<OsString> = vec![tool.file_name().unwrap_or_default().into()];
    args.extend(argv[1..].iter().map(OsString::from));
    let plan = super::sandbox::Plan {
        read_only: toolchain.read_only.clone(),
        writable: vec![dir.to_path_buf()],
        cwd: dir.to_path_buf(),
        scratch_kb: 256 << 10,
        memory_cap_kb: COMPILE_MEMORY_KB + (64 << 10),
        tasks: super::TASKS,
        no_fork: false,
    };
    let mut spec = process::Spec::new(tool.clone(), args, plan);
    spec.env = super::sandbox::environment(dir, &toolchain.path_dirs);
    spec.env.extend(
        env.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    spec.kill_after = COMPILE_CPU * 2;
    spec.kill_after_cpu = Some(COMPILE_CPU);
    spec.kill_above_memory_kb = Some(COMPILE_MEMORY_KB);
    let accounted = matches!(
        super::spawner::protections(),
        Some(Ok(protections)) if protections.accounting.is_on()
    );
    if !accounted {
        spec.cpu_limit = Some(COMPILE_CPU);
        if native {
            spec.address_space_limit = Some((COMPILE_MEMORY_KB + (64 << 10)) << 10);
        }
    }
    spec.stdout_limit = 1 << 20;
    spec.stderr_tail = 64 << 10;
    let (finished, stdout) = process::run_captured(spec, b"")
        .with_context(|| format!("failed to start {}", tool.display()))?;
    if finished.killed.is_none() && finished.exit == process::Exit::Code(0) {
        return Ok(Ok(()));
    }
    let mut message = String::from_utf8_lossy(&finished.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&stdout));
    let killed = match finished.killed {
        None if !accounted && finished.cpu >= COMPILE_CPU => Some(process::Kill::Cpu),
        None if !accounted && finished.memory_kb >= COMPILE_MEMORY_KB => {
            Some(process::Kill::Memory)
        }
        killed => killed,
    };
    let limit = match killed {
        Some(process::Kill::Cpu) => Some(format!(
            "the compiler was stopped after {} s of CPU time, the compile time limit",
            COMPILE_CPU.as_secs()
        )),
        Some(process::Kill::Wall) => Some(format!(
            "the compiler was stopped after {} s, the compile time limit",
            (COMPILE_CPU * 2).as_secs()
        )),
        Some(process::Kill::Memory) => Some(format!(
            "the compiler was stopped at {} MB of memory, the compile memory limit",
            COMPILE_MEMORY_KB >> 10
        )),
        Some(process::Kill::Output) => Some("the compiler printed more than 1 MB".to_string()),
        _ => None,
    };
    if let Some(limit) = limit {
        message = format!("{}\n{limit}", message.trim_end());
    }
    Ok(Err(message))
}

#[cfg(test)]
mod tests;
