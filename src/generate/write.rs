//! Putting generated cases on disk: all of them or none.
//!
//! A run that stops halfway (no puzzle met the target, Ctrl-C, a full disk)
//! must not leave some cases behind: the next run with the same names would
//! refuse to overwrite them, and a suite with half its cases looks whole.
//! So every file is written first into a hidden staging directory inside
//! `--out` (the same file system, and skipped by case discovery), and only
//! when all are made are they moved into place. A move never replaces a
//! file: each is a hard link that fails if the name is taken, so a file
//! that appeared meanwhile is not overwritten either; if any move fails,
//! the ones already made are taken back, and so are the directories the
//! run created.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::generator::Generator;
use super::goal::Target;
use super::rating::Rating;
use crate::board::{format, Board, Format};

/// How `gen` lays cases out on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `NAME.in` with `NAME.out`, as online-judge-tools keeps them.
    Flat,
    /// `NAME/input.txt` with `NAME/expected.txt`.
    Dir,
}

/// What `gen` writes.
#[derive(Clone, Debug)]
pub struct GenPlan {
    pub seed: u64,
    /// Case files to write.
    pub files: usize,
    pub per_file: usize,
    pub target: Target,
    pub format: Format,
    pub layout: Layout,
    pub out: PathBuf,
    /// Case names are this prefix and a number: `gen-001`.
    pub name: String,
    /// Candidates tried per puzzle before giving up on a target.
    pub attempts: usize,
}

/// A case `gen` wrote.
#[derive(Clone, Debug)]
pub struct Written {
    pub(crate) input: PathBuf,
    pub(crate) ratings: Vec<Rating>,
}

impl GenPlan {
    /// Where case `index` goes, relative to `--out`.
    fn relative_paths(&self, index: usize) -> (PathBuf, PathBuf) {
        let width = self.files.to_string().len().max(3);
        let stem = format!("{}{:0width$}", self.name, index + 1);
        match self.layout {
            Layout::Flat => (
                PathBuf::from(format!("{stem}.in")),
                PathBuf::from(format!("{stem}.out")),
            ),
            Layout::Dir => (
                Path::new(&stem).join("input.txt"),
                Path::new(&stem).join("expected.txt"),
            ),
        }
    }
}

/// Creates `dir` and its missing parents; returns the ones it created,
/// outermost first, so a failed run can remove them again.
fn create_dirs(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(path) = at.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
        missing.push(path.to_path_buf());
        at = path.parent();
    }
    missing.reverse();
    for path in &missing {
        std::fs::create_dir(path)
            .with_context(|| format!("failed to create {}", path.display()))?;
    }
    Ok(missing)
}

/// What a run has put in place so far, taken back unless it is kept.
struct Placed {
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    keep: bool,
}

impl Drop for Placed {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        for file in self.files.iter().rev() {
            let _ = std::fs::remove_file(file);
        }
        for dir in self.dirs.iter().rev() {
            // Only if still empty: nothing of anyone else's goes.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Writes the cases `plan` asks for, all or none. Every target path is
/// checked first: if any exists, nothing is written and the error names
/// it. `on_case` hears of each case once it is made (still staged);
/// `stop` is asked between puzzles whether to give up (Ctrl-C).
pub fn write_cases(
    plan: &GenPlan,
    on_case: impl FnMut(&Written),
    stop: &dyn Fn() -> bool,
) -> anyhow::Result<Vec<Written>> {
    write_cases_with(plan, Generator::new(plan.seed), on_case, stop)
}

/// One file's puzzles, each with its solution and rating, made by
/// `generator` for the plan's target.
fn file_puzzles(
    plan: &GenPlan,
    generator: &mut Generator,
    stop: &dyn Fn() -> bool,
) -> anyhow::Result<Vec<(Board, Board, Rating)>> {
    (0..plan.per_file)
        .map(|_| {
            if stop() {
                bail!("interrupted; nothing was written");
            }
            let made = generator
                .puzzle(plan.target, plan.attempts)
                .with_context(|| {
                    format!(
                        "no puzzle{} in {} attempts; nothing was written; try another --seed or \
                         raise --attempts",
                        plan.target.describe(),
                        plan.attempts
                    )
                })?;
            Ok((made.puzzle, made.solution, made.rating))
        })
        .collect()
}

/// [`write_cases`], with the puzzles made by `generator` (seeded with the
/// plan's seed, and perhaps reporting its search).
pub fn write_cases_with(
    plan: &GenPlan,
    mut generator: Generator,
    mut on_case: impl FnMut(&Written),
    stop: &dyn Fn() -> bool,
) -> anyhow::Result<Vec<Written>> {
    if plan.per_file > 1 && plan.format != Format::AcWing {
        bail!(
            "several puzzles per file need --format acwing (AcWing 166 lines closed by `end`); \
             {} files hold one board each",
            plan.format
        );
    }
    for index in 0..plan.files {
        let (input, expected) = plan.relative_paths(index);
        for path in [input, expected].map(|p| plan.out.join(p)) {
            if path.exists() {
                bail!(
                    "{} already exists; gen never overwrites a file: choose another --out or --name",
                    path.display()
                );
            }
        }
    }
    let mut placed = Placed {
        files: Vec::new(),
        dirs: create_dirs(&plan.out)?,
        keep: false,
    };
    let staging = tempfile::Builder::new()
        .prefix(".gen-staging-")
        .tempdir_in(&plan.out)
        .with_context(|| {
            format!(
                "failed to create a staging directory in {}",
                plan.out.display()
            )
        })?;

    let mut made = Vec::with_capacity(plan.files);
    for index in 0..plan.files {
        let puzzles = file_puzzles(plan, &mut generator, stop)?;
        let boards: Vec<Board> = puzzles.iter().map(|p| p.0).collect();
        let answers: Vec<Board> = puzzles.iter().map(|p| p.1).collect();
        let input_text = match plan.format {
            Format::AcWing => format::acwing_input(&boards),
            other => format::render_boards(other, &boards),
        };
        let (input, expected) = plan.relative_paths(index);
        for (path, text) in [
            (&input, input_text),
            (&expected, format::render_boards(plan.format, &answers)),
        ] {
            let staged = staging.path().join(path);
            if let Some(dir) = staged.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("failed to create {}", dir.display()))?;
            }
            crate::case::write_new(&staged, &text)?;
        }
        let case = Written {
            input: plan.out.join(input),
            ratings: puzzles.into_iter().map(|p| p.2).collect(),
        };
        on_case(&case);
        made.push(case);
    }

    // Every case is made: move them into place, through the file door: a
    // case's own directory under --out is gen's to make, and one that is a
    // link (planted beside the cases) is not followed.
    let out = crate::files::Dir::open_given(&plan.out)?;
    for index in 0..plan.files {
        let (input, expected) = plan.relative_paths(index);
        for path in [input, expected] {
            let target = plan.out.join(&path);
            let parent = path.parent().unwrap_or(Path::new(""));
            let made = match parent.to_str().filter(|p| !p.is_empty()) {
                Some(first) => out.kind(first)?.is_none(),
                None => false,
            };
            let dir = out
                .open_relative(parent, true)
                .map_err(|e| anyhow::anyhow!("{e:#}; nothing was written"))?
                .with_context(|| format!("failed to create {}", plan.out.join(parent).display()))?;
            if made {
                placed.dirs.push(plan.out.join(parent));
            }
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .context("a case's file name")?;
            dir.link_from(&staging.path().join(&path), name)
                .with_context(|| {
                    format!(
                        "failed to move {} into place; nothing was written",
                        target.display()
                    )
                })?;
            placed.files.push(target);
        }
    }
    placed.keep = true;
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn plan(out: &Path) -> GenPlan {
        GenPlan {
            seed: 5,
            files: 3,
            per_file: 2,
            target: Target::default(),
            format: Format::AcWing,
            layout: Layout::Flat,
            out: out.to_path_buf(),
            name: "g-".into(),
            attempts: 10,
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn a_run_that_stops_halfway_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("new/suite");
        let made = Cell::new(0);
        let error = write_cases(&plan(&out), |_| made.set(made.get() + 1), &|| {
            made.get() == 2
        })
        .unwrap_err();
        assert_eq!(made.get(), 2, "two cases were made before the stop");
        assert!(error.to_string().contains("nothing was written"), "{error}");
        assert!(
            !tmp.path().join("new").exists(),
            "{:?}",
            entries(tmp.path())
        );
    }

    #[test]
    fn a_move_that_fails_takes_back_the_ones_before() {
        let tmp = tempfile::tempdir().unwrap();
        let mut plan = plan(tmp.path());
        plan.layout = Layout::Dir;
        plan.per_file = 1;
        plan.format = Format::LeetCode;
        // A file where the second case's directory must go.
        std::fs::write(tmp.path().join("g-002"), "mine").unwrap();
        let error = write_cases(&plan, |_| {}, &|| false).unwrap_err();
        assert!(format!("{error:#}").contains("g-002"), "{error:#}");
        assert_eq!(entries(tmp.path()), ["g-002"]);
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("g-002")).unwrap(),
            "mine"
        );
    }

    #[test]
    fn gen_writes_both_layouts_and_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let mut plan = plan(tmp.path());
        plan.files = 2;
        plan.per_file = 3;
        let written = write_cases(&plan, |_| {}, &|| false).unwrap();
        assert_eq!(written.len(), 2);
        assert_eq!(
            entries(tmp.path()),
            ["g-001.in", "g-001.out", "g-002.in", "g-002.out"]
        );
        let cases = crate::case::discover(&[tmp.path().to_path_buf()]).unwrap();
        for case in &cases {
            let data = crate::case::load(case, true).unwrap();
            assert_eq!(data.puzzles, 3);
            assert!(data.warnings.is_empty());
        }
        let before = std::fs::read(tmp.path().join("g-001.in")).unwrap();
        let error = write_cases(&plan, |_| {}, &|| false)
            .unwrap_err()
            .to_string();
        assert!(error.contains("g-001.in already exists"), "{error}");
        assert_eq!(std::fs::read(tmp.path().join("g-001.in")).unwrap(), before);

        plan.layout = Layout::Dir;
        plan.per_file = 1;
        plan.format = Format::LeetCode;
        write_cases(&plan, |_| {}, &|| false).unwrap();
        let case = crate::case::discover(&[tmp.path().join("g-002")]).unwrap();
        assert_eq!(
            crate::case::load(&case[0], true).unwrap().format,
            Format::LeetCode
        );

        plan.per_file = 2;
        plan.name = "other-".into();
        assert!(write_cases(&plan, |_| {}, &|| false)
            .unwrap_err()
            .to_string()
            .contains("--format acwing"));
    }
}
