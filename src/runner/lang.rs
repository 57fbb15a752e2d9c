//! Source files in the languages users submit in: which language a file is,
//! whether it is a program or a LeetCode-style class, and how to build and
//! start it the way the judges do.
//!
//! Builds use fixed, documented flags (see [`Language::flags`]) and are
//! cached: the build directory is named by a hash of the source, the driver,
//! the flags and the compiler's version, so judging the same file again
//! starts at once. A build happens in a fresh directory that is renamed into
//! place only when it succeeded, so an interrupted or failed build is never
//! mistaken for a good one.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use regex::Regex;
use sha2::{Digest as _, Sha256};

use super::external::{Interface, Launch, Runtime};
use super::process;

/// The languages a `--submission` file may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    Cpp,
    Rust,
    Python,
    Java,
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::Python => "Python 3",
            Language::Java => "Java",
        })
    }
}

/// How long a language's runtime may take to start, on top of the limits:
/// a JVM needs a moment before the first call, a native binary none.
pub fn startup_allowance(language: Option<Language>) -> Duration {
    match language {
        Some(Language::Java) => Duration::from_millis(1000),
        Some(Language::Python) => Duration::from_millis(300),
        _ => Duration::from_millis(100),
    }
}

/// A compiler is held to this much CPU time, twice that in wall time, and
/// this much memory: a build that hangs or balloons (a huge template
/// instantiation, `#include "/dev/zero"`) is a compile error saying which
/// limit it passed.
const COMPILE_CPU: Duration = Duration::from_secs(30);
const COMPILE_MEMORY_KB: u64 = 1 << 20;

impl Language {
    /// Whether it builds to a native binary, which gets the address-space
    /// backstop (runtimes such as the JVM reserve far more than they use).
    pub fn is_native(self) -> bool {
        matches!(self, Language::Cpp | Language::Rust)
    }

    /// The language of `path`, from its extension.
    pub fn from_path(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "cpp" | "cc" | "cxx" | "c++" | "C" => Some(Language::Cpp),
            "rs" => Some(Language::Rust),
            "py" => Some(Language::Python),
            "java" => Some(Language::Java),
            _ => None,
        }
    }

    /// The compiler or interpreter it needs, and how to install it.
    fn tools(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Language::Cpp => &[("g++", "apt install g++")],
            Language::Rust => &[("rustc", "https://rustup.rs")],
            Language::Python => &[("python3", "apt install python3")],
            Language::Java => &[
                ("javac", "apt install default-jdk-headless"),
                ("java", "apt install default-jdk-headless"),
            ],
        }
    }

    /// The flags sources are built with, as the judges build them.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Language::Cpp => &["-O2", "-std=c++17", "-DONLINE_JUDGE"],
            Language::Rust => &["--edition", "2021", "-O"],
            Language::Python => &[],
            Language::Java => &["-encoding", "UTF-8"],
        }
    }

    fn driver(self) -> &'static str {
        match self {
            Language::Cpp => include_str!("drivers/driver.cpp"),
            Language::Rust => include_str!("drivers/driver.rs"),
            Language::Python => include_str!("drivers/driver.py"),
            Language::Java => include_str!("drivers/driver.java"),
        }
    }
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid pattern"))
}

/// `source` without its comments, so that a comment saying "no main()"
/// does not make a program. Strings are not parsed: a `//` inside one cuts
/// the rest of its line, which cannot hide a definition.
fn without_comments(language: Language, source: &str) -> String {
    static C_LIKE: OnceLock<Regex> = OnceLock::new();
    static HASH: OnceLock<Regex> = OnceLock::new();
    match language {
        Language::Python => regex(&HASH, r"#[^\n]*")
            .replace_all(source, "")
            .into_owned(),
        _ => regex(&C_LIKE, r"(?s)/\*.*?\*/|//[^\n]*")
            .replace_all(source, " ")
            .into_owned(),
    }
}

/// Whether `source` is a program with its own `main` (AcWing style) or a
/// LeetCode-style class with the problem's method and no `main`.
pub fn interface_of(language: Language, source: &str) -> Option<Interface> {
    let source = &without_comments(language, source);
    static MAIN: [OnceLock<Regex>; 4] = [const { OnceLock::new() }; 4];
    static METHOD: [OnceLock<Regex>; 4] = [const { OnceLock::new() }; 4];
    let (i, main, method) = match language {
        Language::Cpp => (0, r"\bmain\s*\(", r"\bsolveSudoku\s*\("),
        Language::Rust => (1, r"\bfn\s+main\s*\(", r"\bfn\s+solve_sudoku\b"),
        Language::Python => (
            2,
            r#"__name__\s*==\s*['"]__main__['"]"#,
            r"(?s)\bclass\s+Solution\b.*\bdef\s+solveSudoku\b",
        ),
        Language::Java => (3, r"\bstatic\s+void\s+main\s*\(", r"\bsolveSudoku\s*\("),
    };
    if regex(&MAIN[i], main).is_match(source) {
        Some(Interface::Program)
    } else if regex(&METHOD[i], method).is_match(source) {
        Some(Interface::Function)
    } else if language == Language::Python {
        // A Python script needs no main: anything else is a program.
        Some(Interface::Program)
    } else {
        None
    }
}

/// What preparing a source file did, for the report.
#[derive(Clone, Debug)]
pub struct BuildInfo {
    pub source: PathBuf,
    pub language: Language,
    pub interface: Interface,
    /// The compiler command, as a user would type it; empty for Python.
    pub command: String,
    /// Found in the cache: nothing was compiled.
    pub cached: bool,
    pub time: Duration,
    /// The compiler's message when it failed, paths made relative.
    pub error: Option<String>,
}

/// A prepared submission: ready to launch, or rejected by the compiler.
pub struct Built {
    pub launch: Option<Launch>,
    pub info: BuildInfo,
}

fn find_tool(name: &str, install: &str, language: Language) -> anyhow::Result<PathBuf> {
    which::which(name).map_err(|_| {
        anyhow::anyhow!(
            "`{name}` is not installed or not on PATH, and judging {language} needs it; \
             install it ({install}), or build the program yourself and judge it with --cmd"
        )
    })
}

/// The first line of `tool --version`, so a compiler upgrade means a rebuild.
fn version(tool: &Path) -> String {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| {
            let text = if o.stdout.is_empty() {
                o.stderr
            } else {
                o.stdout
            };
            String::from_utf8_lossy(&text)
                .lines()
                .next()
                .unwrap_or_default()
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

/// The Java class a program's file declares public (its entry point), else
/// the first class.
fn java_main_class(source: &str) -> Option<String> {
    static PUBLIC: OnceLock<Regex> = OnceLock::new();
    static ANY: OnceLock<Regex> = OnceLock::new();
    regex(&PUBLIC, r"\bpublic\s+(?:final\s+)?class\s+(\w+)")
        .captures(source)
        .or_else(|| regex(&ANY, r"\bclass\s+(\w+)").captures(source))
        .map(|c| c[1].to_string())
}

/// A source file to build: its files in the build directory and the
/// commands that build and start it.
struct Recipe {
    /// File name → contents, written into the build directory.
    files: Vec<(String, String)>,
    /// The compiler and its arguments, run in the build directory.
    compile: Option<(PathBuf, Vec<String>)>,
    runtime: Box<dyn Fn(&Path) -> Runtime>,
}

fn plan(
    language: Language,
    interface: Interface,
    name: &str,
    source: &str,
    tools: &[PathBuf],
) -> anyhow::Result<Recipe> {
    let flags = || language.flags().iter().map(|s| s.to_string());
    let function = interface == Interface::Function;
    Ok(match language {
        Language::Cpp => {
            let file = if function { "main.cpp" } else { name };
            let text = if function {
                // The judge's prelude, then the submission with its own line
                // numbers, then the driver.
                format!(
                    "#include <bits/stdc++.h>\nusing namespace std;\n#line 1 \"{name}\"\n{source}\n{}",
                    language.driver()
                )
            } else {
                source.to_string()
            };
            let mut args: Vec<String> = flags().collect();
            args.extend(["-o".into(), "main".into(), file.into()]);
            Recipe {
                files: vec![(file.to_string(), text)],
                compile: Some((tools[0].clone(), args)),
                runtime: Box::new(|dir| Runtime::Exec {
                    program: dir.join("main"),
                    argv: vec!["main".into()],
                }),
            }
        }
        Language::Rust => {
            let mut files = vec![(name.to_string(), source.to_string())];
            let entry = if function {
                files.push((
                    "driver.rs".into(),
                    language.driver().replace("SUBMISSION", name),
                ));
                "driver.rs"
            } else {
                name
            };
            let mut args: Vec<String> = flags().collect();
            args.extend(["-o".into(), "main".into(), entry.into()]);
            Recipe {
                files,
                compile: Some((tools[0].clone(), args)),
                runtime: Box::new(|dir| Runtime::Exec {
                    program: dir.join("main"),
                    argv: vec!["main".into()],
                }),
            }
        }
        Language::Python => {
            let python = tools[0].clone();
            let name = name.to_string();
            let mut files = vec![(name.clone(), source.to_string())];
            if function {
                files.push(("driver.py".into(), language.driver().into()));
            }
            // Syntax errors are compile errors, as on LeetCode.
            let check = vec![
                "-B".into(),
                "-c".into(),
                "import sys; compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec')"
                    .into(),
                name.clone(),
            ];
            Recipe {
                files,
                compile: Some((python.clone(), check)),
                runtime: Box::new(move |dir| {
                    // argv[0] is the interpreter's own path: CPython finds
                    // its standard library from it, and a bare name would
                    // find another Python on PATH.
                    let mut argv: Vec<OsString> = vec![python.clone().into(), "-B".into()];
                    if function {
                        argv.extend([
                            dir.join("driver.py").into(),
                            dir.join(&name).into(),
                            name.clone().into(),
                        ]);
                    } else {
                        argv.push(dir.join(&name).into());
                    }
                    Runtime::Exec {
                        program: python.clone(),
                        argv,
                    }
                }),
            }
        }
        Language::Java => {
            let (javac, java) = (tools[0].clone(), tools[1].clone());
            let (files, class) = if function {
                // `import java.util.*;` on the submission's first line keeps
                // its line numbers.
                (
                    vec![
                        (
                            "Solution.java".to_string(),
                            format!("import java.util.*; {source}"),
                        ),
                        ("SudokuJudgeDriver.java".into(), language.driver().into()),
                    ],
                    "SudokuJudgeDriver".to_string(),
                )
            } else {
                let class = java_main_class(source).with_context(|| {
                    format!("{name} declares no class; a Java program needs `public class Main`")
                })?;
                (vec![(format!("{class}.java"), source.to_string())], class)
            };
            let mut args: Vec<String> = flags().collect();
            args.extend(["-d".into(), ".".into()]);
            args.extend(files.iter().map(|(f, _)| f.clone()));
            Recipe {
                files,
                compile: Some((javac, args)),
                runtime: Box::new(move |dir| Runtime::Java {
                    java: java.clone(),
                    classpath: dir.to_path_buf(),
                    class: class.clone(),
                }),
            }
        }
    })
}

/// Makes the compiler's message about the build directory read as if the
/// user's file had been compiled where it is.
fn normalize(message: &str, dir: &Path, name: &str, function_java: bool) -> String {
    let mut text = message.replace(&format!("{}/", dir.display()), "");
    if function_java {
        text = text.replace("Solution.java:", &format!("{name}:"));
    }
    text
}

/// Prepares `path` for judging: detects its language (unless given) and
/// interface, and builds it with the judges' flags, from the cache when it
/// was built before. A compile error is not an `Err`: it comes back in
/// [`BuildInfo::error`], and the judge gives every case CE.
pub fn build(path: &Path, language: Option<Language>) -> anyhow::Result<Built> {
    let language = language
        .or_else(|| Language::from_path(path))
        .with_context(|| {
            format!(
                "cannot tell the language of {} from its extension; name it .cpp, .rs, .py or \
             .java, or say which with --lang",
                path.display()
            )
        })?;
    let source = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read the submission {}", path.display()))?;
    let source = source
        .strip_prefix('\u{feff}')
        .unwrap_or(&source)
        .to_string();
    let interface = interface_of(language, &source).with_context(|| {
        format!(
            "{} has neither a main function (an AcWing program reading stdin) nor a \
             class Solution with the method {} (a LeetCode submission); which is it?",
            path.display(),
            if language == Language::Rust {
                "solve_sudoku"
            } else {
                "solveSudoku"
            }
        )
    })?;
    let tools = language
        .tools()
        .iter()
        .map(|(tool, install)| find_tool(tool, install, language))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.contains('"') && !n.contains('\\'))
        .unwrap_or(match language {
            Language::Cpp => "solution.cpp",
            Language::Rust => "solution.rs",
            Language::Python => "solution.py",
            Language::Java => "Solution.java",
        })
        .to_string();
    let toolchain = toolchain(language, tools)?;
    let tools = &toolchain.programs;
    let plan = plan(language, interface, &name, &source, tools)?;
    let command = match &plan.compile {
        // Named as the user calls it, not as the toolchain resolved it.
        Some((_, args)) if language != Language::Python => {
            format!("{} {}", language.tools()[0].0, args.join(" "))
        }
        _ => String::new(),
    };

    let mut hasher = Sha256::new();
    hasher.update(format!("{language:?} {interface:?}\n{name}\n{command}\n"));
    for tool in tools {
        hasher.update(tool.as_os_str().as_encoded_bytes());
        hasher.update(version(tool));
    }
    for (file, text) in &plan.files {
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
        command,
        cached: true,
        time: Duration::ZERO,
        error: None,
    };
    let label = format!(
        "{} ({language} {})",
        path.display(),
        match interface {
            Interface::Program => "program",
            Interface::Function => "LeetCode-style",
        }
    );
    let launch = |dir: &Path| Launch {
        label: label.clone(),
        interface,
        runtime: (plan.runtime)(dir),
        language: Some(language),
        read_only: std::iter::once(dir.to_path_buf())
            .chain(toolchain.read_only.iter().cloned())
            .collect(),
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
    for (file, text) in &plan.files {
        std::fs::write(scratch.path().join(file), text)
            .with_context(|| format!("failed to write {file} into the build directory"))?;
    }
    info.cached = false;
    let started = Instant::now();
    if let Some((tool, args)) = &plan.compile {
        let finished = compile(tool, args, scratch.path(), &toolchain)?;
        info.time = started.elapsed();
        if let Err(message) = finished {
            let function_java = language == Language::Java && interface == Interface::Function;
            info.error = Some(normalize(
                message.trim_end(),
                scratch.path(),
                &name,
                function_java,
            ));
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

/// A language's tools as they are run, and what a run must see of them.
struct Toolchain {
    /// The tools of [`Language::tools`], resolved to the programs that do
    /// the work (not a version manager's shims).
    programs: Vec<PathBuf>,
    /// Directories outside the system that the sandbox shows read-only.
    read_only: Vec<PathBuf>,
    /// Directories to put first on `PATH`.
    path_dirs: Vec<PathBuf>,
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

/// Resolves `tools` (as found on `PATH`) to what runs inside the sandbox.
fn toolchain(language: Language, tools: Vec<PathBuf>) -> anyhow::Result<Toolchain> {
    let home = dirs::home_dir();
    let mut read_only = Vec::new();
    let mut path_dirs = Vec::new();
    let programs = match language {
        // rustup's `rustc` is a proxy: run the toolchain's own compiler.
        Language::Rust => {
            let sysroot = ask(&tools[0], &["--print", "sysroot"]).map(PathBuf::from);
            match sysroot {
                Some(sysroot) if sysroot.join("bin/rustc").is_file() => {
                    read_only.push(sysroot.clone());
                    path_dirs.push(sysroot.join("bin"));
                    vec![sysroot.join("bin/rustc")]
                }
                _ => tools,
            }
        }
        // pyenv's `python3` is a shim: run the interpreter it picks.
        Language::Python => {
            let found = ask(
                &tools[0],
                &[
                    "-c",
                    "import sys; print(sys.executable); print(sys.base_prefix)",
                ],
            );
            let mut lines = found.as_deref().unwrap_or_default().lines();
            match (lines.next(), lines.next()) {
                (Some(executable), Some(prefix)) if Path::new(executable).is_absolute() => {
                    read_only.push(PathBuf::from(prefix));
                    vec![PathBuf::from(executable)]
                }
                _ => tools,
            }
        }
        Language::Cpp | Language::Java => tools
            .into_iter()
            .map(|tool| std::fs::canonicalize(&tool).unwrap_or(tool))
            .collect(),
    };
    for program in &programs {
        for path in super::sandbox::program_paths(program, home.as_deref()) {
            if !read_only.iter().any(|p| path.starts_with(p)) {
                read_only.push(path);
            }
        }
    }
    Ok(Toolchain {
        programs,
        read_only,
        path_dirs,
    })
}

/// Runs a compiler in the sandbox, in `dir`: `Ok(Err(message))` when it
/// rejected the source or passed a limit.
fn compile(
    tool: &Path,
    args: &[String],
    dir: &Path,
    toolchain: &Toolchain,
) -> anyhow::Result<Result<(), String>> {
    let mut argv: Vec<OsString> = vec![tool.file_name().unwrap_or_default().into()];
    argv.extend(args.iter().map(OsString::from));
    let plan = super::sandbox::Plan {
        read_only: toolchain.read_only.clone(),
        writable: vec![dir.to_path_buf()],
        cwd: dir.to_path_buf(),
        scratch_kb: 256 << 10,
        memory_cap_kb: COMPILE_MEMORY_KB + (64 << 10),
        tasks: super::TASKS,
        no_fork: false,
    };
    let mut spec = process::Spec::new(tool.to_path_buf(), argv, plan);
    spec.env = super::sandbox::environment(dir, &toolchain.path_dirs);
    spec.kill_after = COMPILE_CPU * 2;
    spec.kill_after_cpu = Some(COMPILE_CPU);
    spec.kill_above_memory_kb = Some(COMPILE_MEMORY_KB);
    spec.stdout_limit = 1 << 20;
    spec.stderr_tail = 64 << 10;
    let (finished, stdout) = process::run_captured(spec, b"")
        .with_context(|| format!("failed to start {}", tool.display()))?;
    if finished.killed.is_none() && finished.exit == process::Exit::Code(0) {
        return Ok(Ok(()));
    }
    let mut message = String::from_utf8_lossy(&finished.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&stdout));
    let limit = match finished.killed {
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
mod tests {
    use super::*;

    #[test]
    fn the_language_comes_from_the_extension() {
        for (file, language) in [
            ("a.cpp", Language::Cpp),
            ("a.cc", Language::Cpp),
            ("a.cxx", Language::Cpp),
            ("a.rs", Language::Rust),
            ("a.py", Language::Python),
            ("Main.java", Language::Java),
        ] {
            assert_eq!(
                Language::from_path(Path::new(file)),
                Some(language),
                "{file}"
            );
        }
        assert_eq!(Language::from_path(Path::new("a.txt")), None);
    }

    #[test]
    fn programs_have_a_main_and_leetcode_files_the_method() {
        use Interface::{Function, Program};
        let cases = [
            (Language::Cpp, "int main() { return 0; }", Some(Program)),
            (
                Language::Cpp,
                "class Solution { public: void solveSudoku(vector<vector<char>>& b) {} };",
                Some(Function),
            ),
            (Language::Cpp, "int x;", None),
            (
                Language::Cpp,
                "// no main() here\n/* int main() */ class Solution { void solveSudoku(vector<vector<char>>& b); };",
                Some(Function),
            ),
            (Language::Rust, "fn main() {}", Some(Program)),
            (
                Language::Rust,
                "impl Solution { pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {} }",
                Some(Function),
            ),
            (
                Language::Python,
                "class Solution:\n    def solveSudoku(self, board):\n        pass\n",
                Some(Function),
            ),
            (Language::Python, "print(input())\n", Some(Program)),
            (
                Language::Java,
                "public class Main { public static void main(String[] a) {} }",
                Some(Program),
            ),
            (
                Language::Java,
                "class Solution { public void solveSudoku(char[][] board) {} }",
                Some(Function),
            ),
        ];
        for (language, source, expected) in cases {
            assert_eq!(interface_of(language, source), expected, "{source}");
        }
    }

    #[test]
    fn the_java_entry_point_is_the_public_class() {
        assert_eq!(
            java_main_class("class Helper {}\npublic class Main { }").as_deref(),
            Some("Main")
        );
        assert_eq!(java_main_class("class Only {}").as_deref(), Some("Only"));
    }
}
