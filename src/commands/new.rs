//! `new`: the file to start a solution from, and the command to judge it.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::NewArgs;
use crate::outside::shell_path;
use crate::problem::Problem;
use crate::report::starter;
use crate::runner::lang;
use crate::runner::lang::Interface;

use super::shared::problem_of_every_case;
use crate::files::OutsideLinks;

/// Writes the file to start a solution from; see `sudoku-judge new --help`.
pub(crate) fn new(args: &NewArgs, links: OutsideLinks) -> anyhow::Result<ExitCode> {
    let ids: Vec<&str> = lang::Language::all().iter().map(|l| l.spec().id).collect();
    let from_name = args
        .file
        .as_deref()
        .filter(|f| !f.is_dir())
        .and_then(lang::Language::from_path);
    let language = match (args.lang, &args.file) {
        (Some(lang), _) => lang.0,
        (None, _) if from_name.is_some() => from_name.expect("just checked"),
        (None, Some(file)) => anyhow::bail!(
            "{} does not say its language by its extension; name it with --lang, one of {}",
            file.display(),
            ids.join(", ")
        ),
        (None, None) => anyhow::bail!(
            "which language? name it with --lang (one of {}), e.g. `sudoku-judge new --lang \
             cpp`, or give the file to write with its extension, e.g. `sudoku-judge new \
             main.cpp`",
            ids.join(", ")
        ),
    };
    let cases = PathBuf::from("cases");
    let (problem, problem_from) = match args.problem {
        Some(problem) => (problem.problem(), starter::ProblemFrom::Flag),
        None if cases.is_dir() => {
            match problem_of_every_case(std::slice::from_ref(&cases), links) {
                Some(problem) => (problem, starter::ProblemFrom::Cases),
                None => (Problem::Leetcode37, starter::ProblemFrom::Default),
            }
        }
        None => (Problem::Leetcode37, starter::ProblemFrom::Default),
    };
    let interface = match problem {
        Problem::Leetcode37 => Interface::Function,
        Problem::Acwing166 | Problem::Poj3074 => Interface::Program,
    };
    let start = lang::starter::starter(language, interface);
    let path = match &args.file {
        None => PathBuf::from(start.file_name),
        Some(dir) if dir.is_dir() || dir.as_os_str().as_encoded_bytes().ends_with(b"/") => {
            dir.join(start.file_name)
        }
        Some(file) => file.clone(),
    };
    // `--lang` again in the commands, when the name does not tell.
    let lang_flag = if lang::Language::from_path(&path) == Some(language) {
        String::new()
    } else {
        format!(" --lang {}", language.spec().id)
    };
    // Created only if it is not there, through the file door: nothing of
    // the user's is replaced, even a file made a moment ago, and a link at
    // the name is not written through.
    match crate::files::write_new(&path, start.text.as_bytes()) {
        Ok(()) => {}
        Err(error)
            if error
                .chain()
                .filter_map(|e| e.downcast_ref::<io::Error>())
                .any(|e| e.kind() == io::ErrorKind::AlreadyExists) =>
        {
            let other = free_name(&path);
            anyhow::bail!(
                "{} exists, and `sudoku-judge new` never overwrites a file; name another, e.g. \
                 `sudoku-judge new --lang {} --problem {} {}`, or a directory to write {} in",
                path.display(),
                language.spec().id,
                problem.name(),
                shell_path(&other),
                start.file_name
            )
        }
        Err(error) => return Err(error),
    }
    let next = next_command(problem, problem_from, &path, &lang_flag, &cases, links);
    let written = starter::Written {
        path: &path,
        language,
        problem,
        problem_from,
        interface,
        changed: start.changed,
        next: &next,
    };
    starter::wrote(&mut io::stdout().lock(), &written)?;
    Ok(ExitCode::SUCCESS)
}

/// `path` with a number before its extension, the first that is free:
/// `solution2.py`.
fn free_name(path: &std::path::Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|n| path.with_file_name(format!("{stem}{n}{extension}")))
        .find(|p| p.symlink_metadata().is_err())
        .expect("some number is free")
}

/// The `test` command that judges a new file on the problem's cases: the
/// shipped suite of that problem under `cases` when there is one.
fn next_command(
    problem: Problem,
    from: starter::ProblemFrom,
    path: &std::path::Path,
    lang_flag: &str,
    cases: &std::path::Path,
    links: OutsideLinks,
) -> String {
    let submission = format!("--submission {}{lang_flag}", shell_path(path));
    if from == starter::ProblemFrom::Cases {
        return format!("sudoku-judge test {submission}");
    }
    // POJ 3074's input is AcWing 166's.
    let (suite, flag) = match problem {
        Problem::Poj3074 => (cases.join("acwing166"), " --problem poj3074"),
        _ => (cases.join(problem.name()), ""),
    };
    if problem_of_every_case(std::slice::from_ref(&suite), links)
        .is_some_and(|p| p == problem || problem == Problem::Poj3074)
    {
        format!(
            "sudoku-judge test {}{flag} {submission}",
            shell_path(&suite)
        )
    } else if !cases.exists() {
        // No cases/ here: `test` judges the shipped suites, picked by id.
        let suite = suite.file_name().map(|n| n.to_string_lossy().into_owned());
        format!(
            "sudoku-judge test {}{flag} {submission}",
            suite.unwrap_or_default()
        )
    } else {
        // A cases/ of the user's without this problem's suite: a copy of
        // the shipped ones beside it.
        format!(
            "sudoku-judge cases --out shipped-cases && sudoku-judge test \
             shipped-cases/{}{flag} {submission}",
            match problem {
                Problem::Poj3074 => "acwing166",
                _ => problem.name(),
            }
        )
    }
}
