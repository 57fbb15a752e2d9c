//! What building a submission gives: how to start it ([`Runtime`]) and
//! what its runs must see ([`Launch`]). The languages make launches, `--cmd` makes one from a
//! command line, and the runner starts them; kept apart from both so that
//! neither imports the other.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context as _;

use super::language::{Interface, Language, SourceName};
use crate::case::Limits;
use crate::runner::sandbox::{self, Containment};
use crate::runner::{plan, process};

pub(crate) use crate::runner::process::ANSWERS_VAR;

/// The answer channel's path on Unix: the pipe the process is given as
/// fd 3, reopened through `/dev/fd` (which the sandbox's root links to
/// `/proc/self/fd`).
pub(crate) const ANSWERS_PATH: &str = "/dev/fd/3";

/// How to start the submission's process. Every path is absolute.
#[derive(Clone, Debug)]
pub(crate) enum Runtime {
    /// A program and its arguments, `argv[0]` first.
    Exec {
        program: PathBuf,
        argv: Vec<OsString>,
    },
    /// A class on a classpath (entries joined by `:`), started with a heap
    /// limit.
    Java {
        java: PathBuf,
        classpath: OsString,
        class: String,
    },
}

/// A submission ready to run on cases.
#[derive(Clone, Debug)]
pub(crate) struct Launch {
    pub(crate) label: String,
    pub(crate) interface: Interface,
    pub(crate) runtime: Runtime,
    /// Known for `--submission` files; `None` for `--cmd`.
    pub(crate) language: Option<Language>,
    /// The user's file, as its runtime names it in a crash's report.
    pub(crate) source: Option<SourceName>,
    /// What the run must see besides the system: its build, its toolchain.
    pub(crate) read_only: Vec<PathBuf>,
    pub(crate) containment: Containment,
}

/// What the JVM is allowed on top of the memory limit, which is its heap
/// (`-Xmx`; an `OutOfMemoryError` is MLE): its own code, metadata and
/// collector (about 40 MB), and its thread stack (`-Xss`, a quarter of the
/// limit, from 8 to 64 MB) with what its compiler takes for deep
/// recursion, measured at up to four times the stack. So recursion without
/// end fills the stack and ends in `StackOverflowError` (RE), not in a
/// memory verdict.
pub(crate) const JVM_OWN_KB: u64 = 64 << 10;

/// The JVM's thread stack under a memory limit of `memory_kb`.
pub(crate) fn jvm_stack_kb(memory_kb: u64) -> u64 {
    (memory_kb / 4).clamp(8 << 10, 64 << 10)
}

impl Launch {
    /// A program given as a command line, e.g. `./a.out` or `python3 sol.py`,
    /// run without a shell. Its program is found now (on `PATH`, or as a
    /// path), once, rather than failing on every case.
    pub(crate) fn command(command_line: &str, containment: &Containment) -> anyhow::Result<Launch> {
        let words = crate::quote::command_words(command_line)
            .with_context(|| format!("cannot split the command `{command_line}` into words"))?;
        let Some(first) = words.first() else {
            anyhow::bail!("--cmd is empty; give the command that runs your program");
        };
        let cwd = std::env::current_dir().context("cannot read the working directory")?;
        let program = if crate::quote::names_a_path(first) {
            let path = cwd.join(first);
            anyhow::ensure!(
                path.is_file(),
                "`{first}` (in --cmd) does not exist; build your program first, or fix the path"
            );
            path
        } else {
            which::which(first).map_err(|_| {
                anyhow::anyhow!(
                    "`{first}` (in --cmd) is not on PATH; give the path to your program, e.g. \
                     ./{first}"
                )
            })?
        };
        let home = dirs::home_dir();
        let mut read_only = sandbox::program_paths(&program, home.as_deref());
        // Files named on the command line (a script, a jar, a program in
        // an `sh -c` script) are seen too.
        for word in &words[1..] {
            let tokens = word
                .split(|c: char| c.is_whitespace() || ";|&'\"()<>".contains(c))
                .filter(|t| !t.is_empty());
            for token in std::iter::once(word.as_str()).chain(tokens) {
                let path = cwd.join(token);
                if path.is_file() && !read_only.iter().any(|p| path.starts_with(p)) {
                    read_only.push(path);
                }
            }
        }
        Ok(Launch {
            label: format!("`{command_line}`"),
            interface: Interface::Program,
            runtime: Runtime::Exec {
                program,
                argv: words.into_iter().map(OsString::from).collect(),
            },
            language: None,
            source: None,
            read_only,
            containment: containment.clone(),
        })
    }

    /// The program and its `argv` for a case judged under `limits`.
    pub(crate) fn command_for(&self, limits: &Limits) -> (PathBuf, Vec<OsString>) {
        match &self.runtime {
            Runtime::Exec { program, argv } => (program.clone(), argv.clone()),
            Runtime::Java {
                java,
                classpath,
                class,
            } => {
                let mut argv: Vec<OsString> = vec![
                    java.into(),
                    format!("-Xmx{}m", (limits.memory_kb / 1024).max(16)).into(),
                    format!("-Xss{}m", jvm_stack_kb(limits.memory_kb) >> 10).into(),
                    "-XX:+UseSerialGC".into(),
                    "-XX:-UsePerfData".into(),
                    "-cp".into(),
                ];
                argv.push(classpath.clone());
                argv.push(class.into());
                (java.clone(), argv)
            }
        }
    }

    /// How to run it under `limits`: what it sees, where it starts, and
    /// (for LeetCode-style files) with the process filter. The caller sets
    /// the watchdog's bounds.
    pub(crate) fn spec(&self, limits: &Limits, no_fork: bool) -> process::ProcessSpec {
        let (program, argv) = self.command_for(limits);
        let mut read_only = self.read_only.clone();
        read_only.push(program.clone());
        let plan = plan(
            read_only,
            limits.memory_kb + self.memory_allowance_kb(limits),
            no_fork,
            &self.containment,
        );
        process::ProcessSpec::new(program, argv, plan, self.containment.clone())
    }

    /// Memory the runtime takes on its own under `limits`, allowed on top.
    pub(crate) fn memory_allowance_kb(&self, limits: &Limits) -> u64 {
        match self.runtime {
            Runtime::Java { .. } => JVM_OWN_KB + 4 * jvm_stack_kb(limits.memory_kb),
            Runtime::Exec { .. } => self.language.map_or(0, Language::runtime_kb),
        }
    }
}

// These tests run Unix programs or read Unix paths.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_is_split_like_a_shell_does_and_found_once() {
        let plain = Containment::default();
        let launch = Launch::command("sh -c 'echo \"hi there\"'", &plain).unwrap();
        let Runtime::Exec { program, argv } = &launch.runtime else {
            panic!("{launch:?}")
        };
        assert!(program.is_absolute(), "{program:?}");
        assert_eq!(argv, &["sh", "-c", "echo \"hi there\""]);
        let missing = Launch::command("no-such-program-here x", &plain).unwrap_err();
        assert!(missing.to_string().contains("not on PATH"), "{missing}");
        let script = Launch::command("sh -c 'sleep 1; exec /bin/true'", &plain).unwrap();
        assert!(
            script.read_only.contains(&PathBuf::from("/bin/true")),
            "{:?}",
            script.read_only
        );
        let missing = Launch::command("./no-such-program", &plain).unwrap_err();
        assert!(missing.to_string().contains("does not exist"), "{missing}");
        assert!(Launch::command("  ", &plain).is_err());
    }
}
