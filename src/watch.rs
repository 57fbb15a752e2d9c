//! What `test --watch` watches: the submission file, the cases and their
//! `judge.toml`s. Editors save in many ways (write in place, write a new
//! file and rename it over the old one, leave swap files beside it), so
//! directories are watched rather than files, and each change is sorted
//! into one that matters or not by its path alone. The judge's own files
//! (`.sudoku-judge/`, the report files) never matter, or every run would
//! start the next.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

/// Changes closer together than this are one change (an editor's save is
/// several file system events): the watch loop waits this long after the
/// first before it judges.
pub const SETTLE: Duration = Duration::from_millis(150);

/// The paths a judging run depends on.
#[derive(Clone, Debug)]
pub struct Watched {
    submission: Option<PathBuf>,
    /// Directories whose files are cases (a case file given alone stands
    /// for its directory: its expected output is beside it).
    roots: Vec<PathBuf>,
    /// Files and directories the run writes itself.
    ignore: Vec<PathBuf>,
}

impl Watched {
    pub fn new(submission: Option<&Path>, cases: &[PathBuf], ignore: &[PathBuf]) -> Watched {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        Watched {
            submission: submission.map(absolute),
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
    pub fn matters(&self, path: &Path) -> bool {
        if self.ignore.iter().any(|p| path.starts_with(p))
            || path.components().any(|c| c.as_os_str() == ".sudoku-judge")
        {
            return false;
        }
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return false;
        };
        if self.submission.as_deref() == Some(path) {
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
        if let Some(parent) = self.submission.as_deref().and_then(Path::parent) {
            targets.push((parent.to_path_buf(), RecursiveMode::NonRecursive));
        }
        for root in &self.roots {
            targets.push((root.clone(), RecursiveMode::Recursive));
            // A judge.toml above the cases applies to them too.
            for dir in crate::case::settings::settings_dirs(root)
                .into_iter()
                .skip(1)
            {
                targets.push((dir, RecursiveMode::NonRecursive));
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
    pub fn start(
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

/// Watching goes on while this lives.
pub struct Watcher {
    _watcher: RecommendedWatcher,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directories_above_the_cases_are_watched_for_a_judge_toml_up_to_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("repo");
        std::fs::create_dir_all(top.join(".git")).unwrap();
        std::fs::create_dir_all(top.join("suites/cases")).unwrap();
        let watched = Watched::new(None, &[top.join("suites/cases")], &[]);
        let targets = watched.targets();
        assert!(targets.contains(&(top.join("suites/cases"), RecursiveMode::Recursive)));
        assert!(targets.contains(&(top.join("suites"), RecursiveMode::NonRecursive)));
        assert!(targets.contains(&(top.clone(), RecursiveMode::NonRecursive)));
        assert!(
            !targets.iter().any(|(d, _)| d == dir.path()),
            "above the repository: {targets:?}"
        );
        assert!(watched.matters(&top.join("judge.toml")));
    }

    #[test]
    fn only_the_submission_the_cases_and_judge_toml_matter() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("cases/suite")).unwrap();
        // A repository's top: no judge.toml above it applies.
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let watched = Watched::new(
            Some(&root.join("sol.py")),
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
}
