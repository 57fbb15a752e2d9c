//! A language as a declaration: its [`Spec`], the types its fields use
//! (how a file talks to the judge, [`Interface`], among them) and the
//! [`Language`] handle over it; the table of them is [`super::known`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use regex::Regex;

use crate::problem::Problem;
use crate::reason::Stdout;
use crate::runner::sandbox::Containment;

/// How a submission talks to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// A program: puzzles on stdin in AcWing 166's format, answers on stdout.
    Program,
    /// LeetCode's `solveSudoku(board)`, called by a driver once per board,
    /// whose answers go on the channel [`ANSWERS_VAR`](crate::runner::process::ANSWERS_VAR) names.
    Function,
}

/// Everything the judge knows about one language.
pub struct Spec {
    /// The name `--lang` takes, then other names it accepts.
    pub id: &'static str,
    pub(crate) aliases: &'static [&'static str],
    /// As people write it: `C++`, `C#`.
    pub name: &'static str,
    /// File extensions, without the dot; the first is the usual one.
    pub(crate) extensions: &'static [&'static str],
    /// The programs it needs, found on `PATH`.
    pub tools: &'static [Tool],
    /// The toolchain the fixtures were judged with, for the table of languages.
    pub(crate) tested: &'static str,
    /// Turns the tools found on `PATH` into what runs in the sandbox.
    pub(crate) resolve: fn(Vec<PathBuf>, &Containment) -> Toolchain,
    /// The flags sources are built with, as the judges build them: `@FLAGS@`
    /// in a compile command.
    pub flags: &'static [&'static str],
    /// Why these flags, for the table of languages (made by a test).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) flags_why: &'static str,
    /// Judges that build programs in this language with other flags.
    pub profiles: &'static [Profile],
    /// What its compilers say of a feature past their standard, naming
    /// it: said with a remedy in a file that did not compile.
    pub(crate) needs: &'static [Need],
    /// What makes a file a program or a LeetCode-style file.
    pub(crate) detect: Detect,
    /// How a program (AcWing style) is built and started.
    pub(crate) program: Build,
    /// How a LeetCode-style file is built behind its driver and started.
    pub(crate) function: Build,
    /// The entry class of a program (`@CLASS@`), from its source and file
    /// name, for languages that run a class.
    pub(crate) entry: Option<fn(&str, &str) -> Option<String>>,
    /// The source as it is built, before it goes into the build's files:
    /// a prelude that keeps its line numbers, an opening tag it lacks.
    pub(crate) prepare: Option<fn(&str, &str, Interface) -> String>,
    /// The driver: `@DRIVER@` in a build's files.
    pub(crate) driver: &'static str,
    /// Extra environment for the compiler.
    pub(crate) compile_env: &'static [(&'static str, &'static str)],
    /// Built to machine code that reserves no more address space than it
    /// uses, so it gets `RLIMIT_AS` as a backstop (Go's runtime, the JVM,
    /// V8 and Mono reserve far more than they use, and do not).
    pub(crate) native: bool,
    /// Memory its runtime takes on its own before any of the solution's,
    /// allowed on top of the limit (the JVM's is worked out from the limit;
    /// see [`super::launch::JVM_OWN_KB`]).
    pub(crate) runtime_kb: u64,
    /// What its runtime says when the program dies of an error.
    pub(crate) causes: &'static [Cause],
    /// A stack frame in its runtime's report: where in the user's file.
    pub(crate) frame: Option<Frame>,
    /// What its runtime says when an allocation fails (an MLE, not an RE).
    pub(crate) out_of_memory: &'static [&'static str],
    /// How LeetCode offers problem 37 in this language.
    pub leetcode: LeetCode,
    /// What only this language's files look like (a regex, empty for
    /// none): in a file that did not compile as the language of its
    /// extension, and named as unknown by its compiler, it says which
    /// `--lang` judges it ([`super::another_language`]).
    pub(crate) marks: &'static str,
    /// How its runtime writes a program's stdout into a pipe, as the judge
    /// gives it one: what a killed program printed last may be lost.
    pub(crate) stdout: Stdout,
    /// A program that echoes its first input line, to prove the toolchain
    /// works: `sudoku-judge doctor` builds it as a submission is built and
    /// judges it in the sandbox on a solved board, which the echo answers.
    pub(crate) self_test: &'static str,
    /// What `sudoku-judge new` writes to start from.
    pub(crate) starter: StarterFiles,
}

/// A feature past a compiler's standard, as the compiler names it.
pub(crate) struct Need {
    /// What the compiler says of it, with the feature's name in
    /// `(?P<feature>)`.
    pub(crate) error: &'static str,
    /// The standard that brought it, as the compiler's words imply: `C#
    /// 7.1 or later`.
    pub(crate) standard: &'static str,
    /// The compilers that have it, and what else to do.
    pub(crate) remedy: &'static str,
}

/// What `new` writes for one language: a part of its [`Spec`].
pub(crate) struct StarterFiles {
    /// The file name a LeetCode-style file gets by default.
    pub(crate) leetcode_file: &'static str,
    /// The file name a program gets by default: the name its public class
    /// needs, where it has one.
    pub(crate) program_file: &'static str,
    /// What is written instead of LeetCode's template, when the template
    /// as LeetCode shows it does not build or run here, and why.
    pub(crate) leetcode_instead: Option<(&'static str, &'static str)>,
    /// The program skeleton.
    pub(crate) program: &'static str,
}

/// A judge whose build of a program differs from a language's usual flags,
/// used when every case of a run is that judge's problem.
pub struct Profile {
    /// The judge's problem, or every problem (`None`): a LeetCode-style
    /// file is always built as LeetCode builds.
    pub problem: Option<Problem>,
    /// The kind of file it builds.
    pub interface: Interface,
    pub flags: &'static [&'static str],
    /// What the judge's compiler is, for the report.
    pub(crate) why: &'static str,
    /// Files its flags name, written into the build beside the source.
    pub(crate) files: &'static [(&'static str, &'static str)],
    /// What a compiler says of a file written for this judge's compiler
    /// when it is built with the language's usual flags: a note then says
    /// which `--problem` builds it as this judge does.
    pub(crate) signs: &'static [Sign],
}

/// A compiler message that shows a file written for another judge's
/// compiler: what that compiler took and this build does not (a name, a
/// construct).
pub(crate) struct Sign {
    /// What the compiler says, with the name in `(?P<name>)`.
    pub(crate) message: &'static str,
    /// What that shows, `$name` standing for the name.
    pub(crate) says: &'static str,
}

/// A program a language needs, and where to get it.
pub struct Tool {
    /// As found on `PATH`.
    pub command: &'static str,
    /// The Debian package that provides it.
    pub package: &'static str,
    /// Arguments that make it print its version.
    pub(crate) version_args: &'static [&'static str],
    /// Other programs that do its work, taken when it is not found
    /// (`clang++` for `g++`).
    pub(crate) alternatives: &'static [&'static str],
    /// Installed side by side under versioned names (`g++-14`, `g++-12`),
    /// of which the newest is taken. Interpreters are not: a version
    /// manager's shims (pyenv's `python3.13`) name versions it may not
    /// run.
    pub(crate) versioned: bool,
}

impl Tool {
    /// A tool with no alternatives, installed under one name.
    pub(crate) const fn new(
        command: &'static str,
        package: &'static str,
        version_args: &'static [&'static str],
    ) -> Tool {
        Tool {
            command,
            package,
            version_args,
            alternatives: &[],
            versioned: false,
        }
    }
}

/// How a file shows which kind of submission it is. Comments are removed
/// first, so a comment saying "no main()" does not make a program.
pub(crate) struct Detect {
    pub(crate) comments: Comments,
    /// A program's entry point (or, for scripts, reading stdin).
    pub(crate) program: &'static str,
    /// LeetCode's function or class.
    pub(crate) function: &'static str,
    /// A script needs no entry point: a file with neither is a program.
    pub(crate) script: bool,
}

/// The comment syntax of a language.
#[derive(Clone, Copy)]
pub(crate) enum Comments {
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
pub(crate) struct Build {
    /// Written into the build directory: name, contents.
    pub(crate) files: &'static [(&'static str, &'static str)],
    /// The file holding the user's code, whose name in messages is the
    /// user's file's name.
    pub(crate) source_as: &'static str,
    /// The compiler's command, run in the build directory; empty when
    /// there is nothing to build.
    pub(crate) compile: &'static [&'static str],
    /// Whether the compile step is shown as compiling: a syntax check of a
    /// script is not.
    pub(crate) shown: bool,
    pub(crate) run: Run,
}

/// A program compiled from the user's file alone into `main` (C++, Rust).
pub(super) const NATIVE_PROGRAM: Build = Build {
    files: &[("@NAME@", "@SOURCE@")],
    source_as: "@NAME@",
    compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "@NAME@"],
    shown: true,
    run: Run::Exec(&["@DIR@/main"]),
};

/// How a build starts.
pub(crate) enum Run {
    /// A program and its arguments, `argv[0]` first (an absolute path).
    Exec(&'static [&'static str]),
    /// A class on the JVM, with a heap limit (see [`super::launch::Runtime::Java`]).
    Jvm {
        java: &'static str,
        classpath: &'static [&'static str],
        class: &'static str,
    },
}

/// LeetCode's problem 37 in a language.
pub struct LeetCode {
    /// The method or function to define, as the template names it.
    pub(crate) method: &'static str,
    /// The template, as LeetCode shows it.
    pub(crate) template: &'static str,
    /// What the driver gives a LeetCode-style file, for the table of
    /// languages (made by a test).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) gets: &'static str,
    /// The version LeetCode runs, where it is known: what a file judged
    /// here may meet there (the toolchains tested here are Debian's).
    pub(crate) version: Option<&'static str>,
}

impl LeetCode {
    /// The function's name alone: `solveSudoku`, `solve_sudoku`.
    pub fn function(&self) -> &'static str {
        self.method.rsplit(' ').next().unwrap_or(self.method)
    }
}

/// A language's tools as they are run, and what a run must see of them.
pub(crate) struct Toolchain {
    /// The tools, resolved to the programs that do the work (not a
    /// version manager's shims).
    pub(crate) programs: Vec<PathBuf>,
    /// Directories outside the system that the sandbox shows read-only.
    pub(crate) read_only: Vec<PathBuf>,
    /// Directories to put first on `PATH`.
    pub(crate) path_dirs: Vec<PathBuf>,
    /// The variables naming a cache the compiler keeps of its own (zig's
    /// libc++, built on first use, for minutes). The judge fills it once
    /// outside the sandbox, building its own self-test, and each compile
    /// gets a copy in its build directory: the cache is never written by
    /// a compile of a submission, so none can change what a later build
    /// links.
    pub(crate) caches: &'static [&'static str],
    /// How its compilers and questions are contained.
    pub(crate) containment: Containment,
}

/// A language a `--submission` file may be written in.
#[derive(Clone, Copy)]
pub struct Language(pub(super) &'static Spec);

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

impl Language {
    pub fn spec(self) -> &'static Spec {
        self.0
    }

    /// Whether it builds to a native binary, which gets the address-space
    /// backstop.
    pub(crate) fn is_native(self) -> bool {
        self.0.native
    }

    /// Memory its runtime takes on its own, allowed on top of the limit
    /// (the JVM's is counted apart, from the limit).
    pub(crate) fn runtime_kb(self) -> u64 {
        self.0.runtime_kb
    }
}

/// One way a runtime reports a fatal error: a pattern over the whole of
/// stderr, and how to say what it matched (`$name` for its groups).
pub(crate) struct Cause {
    pub(crate) pattern: &'static str,
    pub(crate) says: &'static str,
}

/// A stack frame in a runtime's report, with groups `file` and `line` (and
/// `column`, if it says one).
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) pattern: &'static str,
    /// Whether the innermost call comes last (Python) rather than first.
    pub(crate) innermost_last: bool,
}

/// A compiled pattern of a declaration, compiled once.
pub(super) fn regex(pattern: &'static str) -> Regex {
    static CACHE: Mutex<BTreeMap<&'static str, Regex>> = Mutex::new(BTreeMap::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(pattern)
        .or_insert_with(|| Regex::new(pattern).expect("a valid pattern"))
        .clone()
}

/// A pattern made at run time, compiled each time it is asked for.
pub(super) fn regex_of(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid pattern")
}

/// `source` without its comments. Strings are not parsed: a comment
/// marker inside one cuts the rest of its line, which cannot hide a
/// definition.
pub(super) fn without_comments(comments: Comments, source: &str) -> String {
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
pub(crate) fn readings(language: Language, source: &str) -> (bool, bool) {
    let detect = &language.0.detect;
    let source = &without_comments(detect.comments, source);
    (
        regex(detect.program).is_match(source),
        regex(detect.function).is_match(source),
    )
}

/// Whether `source` is a program with its own entry point (AcWing style)
/// or a LeetCode-style file with the problem's function and none.
pub(crate) fn interface_of(language: Language, source: &str) -> Option<Interface> {
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
pub(crate) enum Reading {
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
pub(crate) struct BuildInfo {
    pub(crate) source: PathBuf,
    pub(crate) language: Language,
    pub(crate) interface: Interface,
    /// The compiler command, as a user would type it; empty when nothing is
    /// compiled (a script's syntax check is not shown).
    pub(crate) command: String,
    /// Found in the cache: nothing was compiled.
    pub(crate) cached: bool,
    pub(crate) time: Duration,
    /// The compiler's message when it failed, paths made relative.
    pub(crate) error: Option<String>,
    /// How the file was read, when worth saying: a local harness left
    /// out, or a file that could be read either way.
    pub(crate) notes: Vec<String>,
    /// The tools it was built and run with.
    pub(crate) toolchain: Vec<UsedTool>,
    /// What the compiler lacks of the standard the judge builds with, and
    /// what to do: `g++ 12.2 stops at C++20; LeetCode builds C++23: ...`.
    pub(crate) short_of: Option<String>,
}

/// A tool a build used, for the report's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UsedTool {
    /// As the user would type it: `g++`, `clang++-19`.
    pub(crate) name: String,
    /// The program that ran.
    pub(crate) program: PathBuf,
    /// The first line of what it says of its version.
    pub(crate) version: String,
    /// Why it was taken: `the newest on PATH`, `CXX`, a file's path.
    pub(crate) origin: String,
}

/// The user's file as a run names it: in messages and stack traces,
/// `built_as` (the build's copy) is the user's `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceName {
    pub(crate) name: String,
    pub(crate) built_as: String,
}
