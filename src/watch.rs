//! What `test --watch` watches: the submission file (or, for `--cmd`, the
//! program and the files its command line names), the cases and their
//! `judge.toml`s. Editors save in many ways (write in place, write a new
//! file and rename it over the old one, leave swap files beside it), and
//! compilers replace the binary they build by a new file, so directories
//! are watched rather than files, and each change is sorted into one that
//! matters or not by its path alone. The judge's own files
//! (`.sudoku-judge/`, the report files) never matter, or every run would
//! start the next.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

use crate::case::absolute;

/// Changes closer together than this are one change (an editor's save is
/// several file system events): the watch loop waits this long after the
/// first before it judges.
pub(crate) const SETTLE: Duration = Duration::from_millis(150);

/// The paths a judging run depends on.
#[derive(Clone, Debug)]
pub(crate) struct Watched {
    /// The submission's own files: a source file, or what a `--cmd`
    /// command line runs.
    files: Vec<PathBuf>,
    /// Directories whose files are cases (a case file given alone stands
    /// for its directory: its expected output is beside it).
    roots: Vec<PathBuf>,
    /// Files and directories the run writes itself.
    ignore: Vec<PathBuf>,
}

impl Watched {
    pub(crate) fn new(files: &[PathBuf], cases: &[PathBuf], ignore: &[PathBuf]) -> Watched {
        Watched {
            files: files.iter().map(|f| absolute(f)).collect(),
            roots: cases
                .iter()
                .map(|p| {
                    let p = absolute(p);
                    match p.parent() {
                        Some(parent) if p.is_file() => parent.to_path_buf(),
                        _ => p,
                    }
                })
                .collect(),
            ignore: ignore.iter().map(|p| absolute(p)).collect(),
        }
    }

    /// Whether a change to `path` (absolute) calls for judging again.
    pub(crate) fn matters(&self, path: &Path) -> bool {
        if self.ignore.iter().any(|p| path.starts_with(p))
            || path.components().any(|c| c.as_os_str() == ".sudoku-judge")
        {
            return false;
        }
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return false;
        };
        if self.files.iter().any(|f| f == path) {
            return true;
        }
        // Case discovery skips these too: hidden files, editors' swap and
        // backup files.
        let scratch = name.starts_with('.')
            || [".swp", ".swx", ".tmp", ".bak", ".orig", "~"]
                .iter()
                .any(|end| name.ends_with(end));
        !scratch && (name == "judge.toml" || self.roots.iter().any(|r| path.starts_with(r)))
    }

    /// The directories to watch, each with how deep.
    fn targets(&self) -> Vec<(PathBuf, RecursiveMode)> {
        let mut targets: Vec<(PathBuf, RecursiveMode)> = Vec::new();
        for parent in self.files.iter().filter_map(|f| f.parent()) {
            targets.push((parent.to_path_buf(), RecursiveMode::NonRecursive));
        }
        for root in &self.roots {
            targets.push((root.clone(), RecursiveMode::Recursive));
            // No judge.toml above a directory named is read, but a case
            // directory named reads its suite's (see
            // `Case::settings_top`).
            if crate::case::case_in_dir(root).is_some() {
                if let Some(suite) = root.parent() {
                    targets.push((suite.to_path_buf(), RecursiveMode::NonRecursive));
                }
            }
        }
        targets.sort_by(|a, b| a.0.cmp(&b.0));
        targets.dedup_by(|b, a| {
            // A directory watched recursively covers itself watched flat.
            if a.0 == b.0 {
                if b.1 == RecursiveMode::Recursive {
                    a.1 = RecursiveMode::Recursive;
                }
                true
            } else {
                false
            }
        });
        targets
    }

    /// Starts watching; `on_change` is called (on the watcher's thread)
    /// with the paths of each change that matters, as it happens (see
    /// [`SETTLE`]). Watching stops when the returned watcher is dropped.
    pub(crate) fn start(
        self,
        mut on_change: impl FnMut(Vec<PathBuf>) + Send + 'static,
    ) -> anyhow::Result<Watcher> {
        let targets = self.targets();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else {
                    return;
                };
                // Files opened and read are no change: the judge reads the
                // cases, and the compiler the submission, at every run.
                if matches!(event.kind, EventKind::Access(_)) {
                    return;
                }
                let changed: Vec<PathBuf> = event
                    .paths
                    .into_iter()
                    .filter(|p| self.matters(p))
                    .collect();
                if !changed.is_empty() {
                    on_change(changed);
                }
            })
            .context("failed to start watching files")?;
        for (dir, mode) in targets {
            watcher.watch(&dir, mode).with_context(|| {
                format!(
                    "failed to watch {} for changes; on Linux, raise \
                     fs.inotify.max_user_watches if it is reached",
                    dir.display()
                )
            })?;
        }
        Ok(Watcher { _watcher: watcher })
    }
}

/// The files a `--cmd` command line runs, to judge again when one
/// changes: the program when it is given as a path (`./a.out`, even while
/// a rebuild has it gone for a moment), and every other word that names a
/// file from `cwd` (the script of `python3 sol.py`, a jar, a file named in
/// an `sh -c` script). A program found on `PATH` is a tool, not the user's
/// build, and is not watched.
pub(crate) fn command_files(command: &str, cwd: &Path) -> Vec<PathBuf> {
    let Ok(words) = crate::quote::command_words(command) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = Vec::new();
    let mut add = |path: PathBuf| {
        if !files.contains(&path) {
            files.push(path);
        }
    };
    for (i, word) in words.iter().enumerate() {
        if i == 0 {
            if crate::quote::names_a_path(word) {
                add(cwd.join(word));
            }
            continue;
        }
        let tokens = word
            .split(|c: char| c.is_whitespace() || ";|&'\"()<>".contains(c))
            .filter(|t| !t.is_empty());
        for token in std::iter::once(word.as_str()).chain(tokens) {
            let path = cwd.join(token);
            if path.is_file() {
                add(path);
            }
        }
    }
    files
}

/// Watching goes on while this lives.
pub(crate) struct Watcher {
    _watcher: RecommendedWatcher,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_above_a_named_suite_is_watched_but_a_named_case_directorys_suite() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("repo");
        std::fs::create_dir_all(top.join("suites/cases/c1")).unwrap();
        std::fs::write(top.join("suites/cases/c1/input.txt"), "").unwrap();
        // A suite named: its own judge.toml files, none above (none is read).
        let watched = Watched::new(&[], &[top.join("suites/cases")], &[]);
        assert_eq!(
            watched.targets(),
            [(top.join("suites/cases"), RecursiveMode::Recursive)]
        );
        // A case directory named reads its suite's judge.toml: watched too.
        let watched = Watched::new(&[], &[top.join("suites/cases/c1")], &[]);
        let targets = watched.targets();
        assert!(targets.contains(&(top.join("suites/cases/c1"), RecursiveMode::Recursive)));
        assert!(targets.contains(&(top.join("suites/cases"), RecursiveMode::NonRecursive)));
        assert!(
            !targets.iter().any(|(d, _)| d == &top.join("suites")),
            "above the suite: {targets:?}"
        );
        assert!(watched.matters(&top.join("suites/cases/judge.toml")));
    }

    #[test]
    fn only_the_submission_the_cases_and_judge_toml_matter() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("cases/suite")).unwrap();
        let watched = Watched::new(
            &[root.join("sol.py")],
            &[root.join("cases")],
            &[root.join("cases/report.json")],
        );
        assert!(watched.matters(&root.join("sol.py")));
        assert!(watched.matters(&root.join("cases/suite/a.in")));
        assert!(watched.matters(&root.join("cases/suite/judge.toml")));
        assert!(
            !watched.matters(&root.join("other.py")),
            "beside the submission"
        );
        assert!(!watched.matters(&root.join(".sol.py.swp")), "a swap file");
        assert!(
            !watched.matters(&root.join("cases/suite/a.in~")),
            "a backup"
        );
        assert!(
            !watched.matters(&root.join("cases/report.json")),
            "its own report"
        );
        assert!(!watched.matters(&root.join(".sudoku-judge/last.json")));
        let targets = watched.targets();
        assert_eq!(
            targets,
            vec![
                (root.to_path_buf(), RecursiveMode::NonRecursive),
                (root.join("cases"), RecursiveMode::Recursive),
            ]
        );
    }

    #[test]
    fn a_command_line_is_watched_by_the_files_it_runs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("wprog.py"), "print()").unwrap();
        std::fs::create_dir(root.join("lib")).unwrap();
        std::fs::write(root.join("lib/helper.py"), "").unwrap();
        assert_eq!(
            command_files("python3 wprog.py -O", root),
            vec![root.join("wprog.py")],
            "the interpreter on PATH and a flag are not files of the user's"
        );
        // A program given as a path is watched even while it is gone.
        assert_eq!(command_files("./a.out", root), vec![root.join("./a.out")]);
        assert_eq!(
            command_files("sh -c 'python3 lib/helper.py < /dev/null'", root),
            vec![root.join("lib/helper.py")]
        );
        let watched = Watched::new(&command_files("./a.out", root), &[], &[]);
        assert!(watched.matters(&root.join("a.out")), "a rebuilt binary");
        assert!(!watched.matters(&root.join("a.out.o")));
        assert_eq!(
            watched.targets(),
            vec![(root.to_path_buf(), RecursiveMode::NonRecursive)]
        );
    }
}
