//! `sudoku-judge driver FILE --out DIR`: the exact program the judge runs
//! for a source file, written out to be stepped through in a debugger. The
//! files are the build's own (for a LeetCode-style file, the user's code
//! inside its language's driver), and `run.sh` builds and starts them with
//! the judge's commands, flags and environment, on one case. Only the
//! sandbox and the limits are left out: a debugger must be able to attach,
//! and the code is the user's own.
//!
//! Nothing is ever overwritten: `DIR` must be new or empty, since the
//! build that `run.sh` starts writes there too.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::language::{Interface, Language};
use super::launch::{Launch, ANSWERS_PATH, ANSWERS_VAR};
use super::plan::{plan, Planned};
use crate::case::Limits;
use crate::problem::{DEFAULT_MEMORY_LIMIT_KB, DEFAULT_TIME_LIMIT};
use crate::runner::sandbox::Containment;

/// What [`export`] wrote.
pub(crate) struct Exported {
    /// Every file, the script last.
    pub(crate) files: Vec<PathBuf>,
    pub(crate) script: PathBuf,
    /// The command that starts the program, as the script's last line runs
    /// it (without its environment), for a debugger's command line.
    pub(crate) run: String,
    pub(crate) interface: Interface,
}

/// The script's name in `DIR`.
pub(crate) const SCRIPT: &str = "run.sh";
/// The boards the script runs on by default.
pub(crate) const BOARDS: &str = "board.txt";

/// A command line as `sh` reads it. Each word is quoted, a name from
/// outside (the user's file may be called `s<newline>touch X<newline>#.py`)
/// too: no word holds a control character, so none ends the line.
fn shell_line(words: impl IntoIterator<Item = String>) -> String {
    words
        .into_iter()
        .map(|w| crate::quote::sh_word(&w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `env -i` and the variables of `env`: a command's environment, alone.
fn env_words(env: &[(OsString, OsString)]) -> Vec<String> {
    let variables = env
        .iter()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()));
    ["env".to_string(), "-i".to_string()]
        .into_iter()
        .chain(variables)
        .collect()
}

/// Writes the program judged for `path` into `out`, with `boards` (AcWing
/// lines closed by `end`) as the case `run.sh` runs by default.
/// A file that could be read either way is read as `reading` says.
pub(crate) fn export(
    path: &Path,
    language: Option<Language>,
    reading: super::language::Reading,
    toolchains: Vec<super::tools::Choice>,
    out: &Path,
    boards: &str,
    containment: &Containment,
) -> anyhow::Result<Exported> {
    let options = super::plan::Options {
        reading,
        toolchains,
        containment: containment.clone(),
        ..Default::default()
    };
    let planned = plan(path, language, &options)?;
    let out = new_directory(out)?;
    let launch = Launch {
        label: String::new(),
        interface: planned.interface,
        runtime: planned.runtime(&out),
        language: Some(planned.language),
        source: None,
        read_only: Vec::new(),
        containment: planned.toolchain.containment.clone(),
    };
    // The JVM's heap and stack are set from the limits: the defaults'.
    let limits = Limits {
        time: DEFAULT_TIME_LIMIT,
        memory_kb: DEFAULT_MEMORY_LIMIT_KB,
        wall_factor: 2,
    };
    let (_, argv) = launch.command_for(&limits);
    let run_words: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut env = crate::runner::sandbox::environment(&out, &planned.toolchain.path_dirs);
    if planned.interface == Interface::Function {
        env.push((ANSWERS_VAR.into(), ANSWERS_PATH.into()));
    }
    let own = planned
        .spec
        .compile_env
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    let compile_env: Vec<_> = env.iter().cloned().chain(own).collect();

    let script = script(&planned, &compile_env, &env, &run_words);
    let files = write_out(&out, &planned.files, boards, &script)?;
    Ok(Exported {
        script: out.join(SCRIPT),
        files,
        run: shell_line(run_words),
        interface: planned.interface,
    })
}

/// `out` made absolute and created, new or empty: the build that run.sh
/// starts writes into the directory too (a binary, class files,
/// compiled/), under names no list can foresee, so only such a directory
/// is safe.
fn new_directory(out: &Path) -> anyhow::Result<PathBuf> {
    let out = std::path::absolute(out)
        .with_context(|| format!("cannot make {} an absolute path", out.display()))?;
    if let Some(first) = std::fs::read_dir(&out)
        .ok()
        .and_then(|mut entries| entries.next())
        .and_then(Result::ok)
    {
        bail!(
            "{} already holds {}, and `driver` never overwrites a file (nor does the build its \
             run.sh starts there); export into a new or empty directory with another --out",
            out.display(),
            first.file_name().to_string_lossy()
        );
    }
    std::fs::create_dir_all(&out).with_context(|| format!("failed to create {}", out.display()))?;
    Ok(out)
}

/// The text of run.sh: what it is, how to use it, then the build's and
/// the run's commands, each with its environment.
fn script(
    planned: &Planned,
    compile_env: &[(OsString, OsString)],
    env: &[(OsString, OsString)],
    run_words: &[String],
) -> String {
    let kind = match planned.interface {
        Interface::Function => "LeetCode-style file, inside its driver",
        Interface::Program => "program",
    };
    // The file's names are quoted even in the comment: a name with a
    // newline would end it, and the rest of the name would be a command.
    let built: Vec<String> = planned
        .files
        .iter()
        .map(|(n, _)| crate::quote::sh_word(n))
        .collect();
    let mut script = format!(
        "#!/bin/sh\n\
         # What sudoku-judge runs to judge {name} ({language} {kind}): {files},\n\
         # built and started with the judge's commands, flags and environment,\n\
         # but outside its sandbox and limits, so that a debugger can attach.\n\
         #\n\
         #   sh {SCRIPT}            builds it, then runs it on {BOARDS}\n\
         #   sh {SCRIPT} FILE       ... on boards of your own: one 81-character line\n\
         #                        each ('.' for a blank), then a line `end`\n\
         #\n\
         # A LeetCode-style file's driver says `ready`, then answers each board on\n\
         # the file {ANSWERS_VAR} names as its nine rows joined by `/` (here\n\
         # {ANSWERS_PATH}, with `3>&1` to show them); what the solution prints\n\
         # itself goes to stdout. To debug, start the last line's command under\n\
         # your debugger (gdb --args, python3 -m pdb, jdb, ...) with its input from\n\
         # {BOARDS}, {ANSWERS_VAR}={ANSWERS_PATH} and fd 3 open.\n\
         set -e\n\
         here=$(cd \"$(dirname \"$0\")\" && pwd)\n\
         input=${{1:-$here/{BOARDS}}}\n\
         case \"$input\" in /*) ;; *) input=\"$PWD/$input\" ;; esac\n\
         cd \"$here\"\n",
        name = crate::quote::sh_word(&planned.name),
        language = planned.language,
        files = built.join(", "),
    );
    if let Some(compile) = &planned.compile {
        let mut words = env_words(compile_env);
        words.extend(compile.iter().cloned());
        script.push_str(&shell_line(words));
        script.push('\n');
    }
    let mut words = env_words(env);
    words.extend(run_words.iter().cloned());
    script.push_str(&format!("{} 3>&1 < \"$input\"\n", shell_line(words)));
    script
}

/// Writes the build's `files`, the `boards` and the `script` into `out`,
/// each made anew: a name that appeared meanwhile (a link included) is an
/// error, never written through. Returns the files written, the script
/// last.
fn write_out(
    out: &Path,
    built: &[(String, String)],
    boards: &str,
    script: &str,
) -> anyhow::Result<Vec<PathBuf>> {
    // Through the file door: no link under `out` is followed, and each
    // file is created new.
    let dir = crate::files::Dir::open_given(out)?;
    let mut files = Vec::new();
    for (name, text) in built {
        files.push(dir.create_at(Path::new(name), text.as_bytes())?);
    }
    files.push(dir.create_at(Path::new(BOARDS), boards.as_bytes())?);
    let script_path = dir.create_at(Path::new(SCRIPT), script.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&script_path, std::fs::Permissions::from_mode(0o755))?;
    }
    files.push(script_path);
    Ok(files)
}
