//! What a case is ([`Case`]) and how cases are found: the pairing rule
//! of an input with its expected answer, and the sorted walk over the paths
//! the user named ([`find`], [`discover`]).

use std::cmp::Ordering;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use walkdir::WalkDir;

use crate::files::OutsideLinks;

/// One case found on disk, not yet read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Where it is, relative to the path it was found under, without
    /// extension: `acwing166/sample`.
    pub id: String,
    /// The directory given on the command line that the case was found
    /// under (the one holding it, for a case named by its file): its
    /// files must not resolve outside it (see [`crate::files::Fence`]),
    /// unless `links` says they may.
    pub(crate) root: PathBuf,
    pub(crate) links: OutsideLinks,
    pub input: PathBuf,
    pub(crate) expected: Option<PathBuf>,
}

impl Case {
    /// The directory whose `judge.toml` (and its parents') applies.
    pub(crate) fn dir(&self) -> &Path {
        self.input.parent().unwrap_or(Path::new("."))
    }

    /// The suite the case belongs to: the directory holding its case
    /// directory, or holding its flat pair.
    pub fn suite(&self) -> &Path {
        let dir = self.dir();
        if case_in_dir(dir).is_some_and(|(input, _)| input == self.input) {
            dir.parent().unwrap_or(dir)
        } else {
            dir
        }
    }

    /// The highest directory whose `judge.toml` applies to the case: the
    /// directory named on the command line that it was found under, or,
    /// for a case named directly (by its file or its case directory), its
    /// suite, so that `cases/leetcode37/example1` keeps
    /// `cases/leetcode37/judge.toml`. No `judge.toml` above it is read.
    pub(crate) fn settings_top(&self) -> PathBuf {
        let (root, suite) = (absolute(&self.root), absolute(self.suite()));
        if root.starts_with(&suite) {
            suite
        } else {
            root
        }
    }
}

/// Input and expected file names inside a case directory, in order of preference.
const DIR_INPUTS: [&str; 3] = ["input.txt", "input", "in"];
const DIR_EXPECTED: [&str; 3] = ["expected.txt", "expected", "out"];
/// Extensions of a flat pair's expected file.
const FLAT_EXPECTED: [&str; 2] = ["out", "ans"];

/// Whether `path` names something to take as a case's file: anything but
/// a directory, so that a FIFO, a device or a broken link is refused by
/// name when the case is read (see [`files`](mod@crate::files)) rather than
/// passed over.
fn present(path: &Path) -> bool {
    path.symlink_metadata().is_ok() && !path.is_dir()
}

/// The input and expected file of a case directory, if `dir` is one.
pub fn case_in_dir(dir: &Path) -> Option<(PathBuf, Option<PathBuf>)> {
    let input = DIR_INPUTS
        .iter()
        .map(|n| dir.join(n))
        .find(|p| present(p))?;
    let expected = DIR_EXPECTED
        .iter()
        .map(|n| dir.join(n))
        .find(|p| present(p));
    Some((input, expected))
}

/// The expected file of a flat `NAME.in`: `NAME.out`, else `NAME.ans`.
pub fn flat_expected(input: &Path) -> Option<PathBuf> {
    FLAT_EXPECTED
        .iter()
        .map(|ext| input.with_extension(ext))
        .find(|p| present(p))
}

fn is_hidden_or_backup(name: &str) -> bool {
    name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || [".bak", ".orig", ".swp", ".tmp"]
            .iter()
            .any(|ext| name.ends_with(ext))
}

/// Natural order of paths, name by name: the order of a walk that visits
/// each directory's entries in natural order (`case2` before `case10`).
fn natural(a: &Path, b: &Path) -> Ordering {
    let mut a = a.components();
    let mut b = b.components();
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) => {
                let order = natord::compare(
                    &x.as_os_str().to_string_lossy(),
                    &y.as_os_str().to_string_lossy(),
                );
                if order != Ordering::Equal {
                    return order;
                }
            }
            (x, y) => return x.is_some().cmp(&y.is_some()),
        }
    }
}

fn id_of(root: &Path, case_path: &Path) -> String {
    let relative = case_path.strip_prefix(root).unwrap_or(case_path);
    let relative = if relative.as_os_str().is_empty() {
        // The path given was the case itself.
        Path::new(case_path.file_name().unwrap_or(case_path.as_os_str()))
    } else {
        relative
    };
    let id = relative.with_extension("");
    id.to_string_lossy().replace('\\', "/")
}

/// Cases found on disk, and files that look like part of a case but are
/// not judged, each named in a warning.
#[derive(Debug, Default)]
pub struct Found {
    pub(crate) cases: Vec<Case>,
    pub(crate) warnings: Vec<String>,
}

/// Finds the cases under each of `paths`, in natural order within each path,
/// each case once. A path that does not exist, or that holds no case, is an
/// error that says what a case looks like. Its files are not to link out
/// of the path they were found under ([`find`] may let them).
pub fn discover(paths: &[PathBuf]) -> anyhow::Result<Vec<Case>> {
    Ok(find(paths, OutsideLinks::Refused)?.cases)
}

/// [`discover`], with a warning for each expected output that has no input
/// beside it (so it is never judged, which is likely a mistake); the
/// cases' files may link out of their path as `links` says.
pub(crate) fn find(paths: &[PathBuf], links: OutsideLinks) -> anyhow::Result<Found> {
    let mut cases = Vec::new();
    let mut warnings = Vec::new();
    let mut seen = HashSet::new();
    for root in paths {
        let before = cases.len();
        let meta = std::fs::metadata(root).with_context(|| {
            format!(
                "cannot read case path {}; give the suite directories, case directories or \
                     NAME.in files to judge, e.g. `sudoku-judge test path/to/cases`",
                root.display()
            )
        })?;
        if meta.is_file() {
            cases.push(file_case(root, links)?);
        } else {
            walk(root, links, &mut cases, &mut warnings)?;
        }
        if cases.len() == before {
            bail!(
                "no cases found under {}; a case is a NAME.in file (with NAME.out or NAME.ans \
                 beside it), or a directory holding input.txt (and expected.txt)",
                root.display()
            );
        }
    }
    // Paths that overlap name some cases twice; one path cannot.
    if paths.len() > 1 {
        cases.retain(|c| seen.insert(c.input.clone()));
        let mut said = HashSet::new();
        warnings.retain(|w| said.insert(w.clone()));
    }
    Ok(Found { cases, warnings })
}

/// A case named by one of its files: `x.in`, or `input.txt` in a case directory.
fn file_case(path: &Path, links: OutsideLinks) -> anyhow::Result<Case> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Some((input, expected)) = case_in_dir(dir).filter(|(input, _)| input == path) {
            return Ok(Case {
                id: id_of(dir, dir),
                root: crate::files::fence_of(path),
                links,
                input,
                expected,
            });
        }
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("in") => Ok(Case {
            id: id_of(path, path),
            root: crate::files::fence_of(path),
            links,
            input: path.to_path_buf(),
            expected: flat_expected(path),
        }),
        Some(ext) if FLAT_EXPECTED.contains(&ext) => {
            bail!(
                "{} is an expected output; name the input {} instead",
                path.display(),
                path.with_extension("in").display()
            )
        }
        _ => Ok(Case {
            // Any other single file is taken as an input without expected output.
            id: id_of(path, path),
            root: crate::files::fence_of(path),
            links,
            input: path.to_path_buf(),
            expected: None,
        }),
    }
}

/// Finds the cases under `root`, sorted. The walk itself is unsorted, which
/// keeps it from holding a whole directory's entries at once (200,000 for a
/// flat suite of 100,000 cases); the cases are sorted once found.
fn walk(
    root: &Path,
    links: OutsideLinks,
    cases: &mut Vec<Case>,
    warnings: &mut Vec<String>,
) -> anyhow::Result<()> {
    let first = cases.len();
    let mut entries = WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden_or_backup(&e.file_name().to_string_lossy()));
    while let Some(entry) = entries.next() {
        let entry =
            entry.with_context(|| format!("cannot walk the cases under {}", root.display()))?;
        let path = entry.path();
        if entry.file_type().is_dir() {
            if let Some((input, expected)) = case_in_dir(path) {
                cases.push(Case {
                    id: id_of(root, path),
                    root: root.to_path_buf(),
                    links,
                    input,
                    expected,
                });
                entries.skip_current_dir();
            } else if let Some(expected) = ["expected.txt", "expected"]
                .iter()
                .map(|name| path.join(name))
                .find(|p| p.is_file())
            {
                warnings.push(format!(
                    "{} has no input beside it, so it is not judged; a case directory holds \
                     input.txt (or input, in) with it",
                    expected.display()
                ));
            }
        } else if path.extension().is_some_and(|e| e == "in") {
            cases.push(Case {
                id: id_of(root, path),
                root: root.to_path_buf(),
                links,
                input: path.to_path_buf(),
                expected: flat_expected(path),
            });
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| FLAT_EXPECTED.contains(&e))
            && !path.with_extension("in").is_file()
        {
            warnings.push(format!(
                "{} has no input beside it, so it is not judged; its input would be {}",
                path.display(),
                path.with_extension("in").display()
            ));
        }
    }
    cases[first..].sort_by(|a, b| natural(&a.input, &b.input));
    Ok(())
}

/// Creates the case file `path` with `text`, through the file door: an
/// existing file is an error and is never replaced, and a link at its name
/// is not written through; nothing the user wrote is overwritten.
pub fn write_new(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::files::write_new(path, text.as_bytes())
}

/// `path` made absolute against the working directory (`.` for an empty
/// one), without resolving links: names compare as the user gave
/// them, and the same case compares equal across runs.
pub fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A temporary directory holding each of `files`, empty.
    fn tree(files: &[&str]) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        for file in files {
            let path = tmp.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        tmp
    }

    fn ids(cases: &[Case]) -> Vec<&str> {
        cases.iter().map(|c| c.id.as_str()).collect()
    }

    #[test]
    fn finds_both_layouts_in_natural_order_skipping_hidden_and_backups() {
        let tmp = tree(&[
            "acwing/case10.in",
            "acwing/case10.out",
            "acwing/case2.in",
            "acwing/case2.ans",
            "acwing/case3.in",
            "acwing/.hidden.in",
            "acwing/old.in~",
            "acwing/notes.txt",
            ".git/x.in",
            "leetcode/example1/input.txt",
            "leetcode/example1/expected.txt",
            "leetcode/example1/extra.in",
            "leetcode/bare/in",
            "leetcode/bare/out",
        ]);
        let root = tmp.path();
        let cases = discover(&[root.to_path_buf()]).unwrap();
        assert_eq!(
            ids(&cases),
            [
                "acwing/case2",
                "acwing/case3",
                "acwing/case10",
                "leetcode/bare",
                "leetcode/example1"
            ]
        );
        assert_eq!(cases[0].expected, Some(root.join("acwing/case2.ans")));
        assert_eq!(cases[1].expected, None);
        assert_eq!(cases[2].expected, Some(root.join("acwing/case10.out")));
        assert_eq!(cases[3].input, root.join("leetcode/bare/in"));
        assert_eq!(
            cases[4].expected,
            Some(root.join("leetcode/example1/expected.txt"))
        );
    }

    #[test]
    fn a_path_may_name_one_case_and_duplicates_are_dropped() {
        let tmp = tree(&["s/a.in", "s/a.out", "s/dir/input.txt"]);
        let root = tmp.path();
        let cases = discover(&[
            root.join("s/a.in"),
            root.join("s/dir"),
            root.join("s/dir/input.txt"),
            root.join("s"),
        ])
        .unwrap();
        assert_eq!(ids(&cases), ["a", "dir"]);
        assert_eq!(cases[0].expected, Some(root.join("s/a.out")));
        let err = discover(&[root.join("s/a.out")]).unwrap_err().to_string();
        assert!(
            err.contains("is an expected output; name the input"),
            "{err}"
        );
    }

    #[test]
    fn settings_are_read_up_to_the_named_directory_or_a_named_cases_suite() {
        let tmp = tree(&["s/a.in", "s/d/input.txt", "s/sub/b.in"]);
        let s = tmp.path().join("s");
        let tops = |path: &Path| -> Vec<PathBuf> {
            discover(&[path.to_path_buf()])
                .unwrap()
                .iter()
                .map(Case::settings_top)
                .collect()
        };
        // A suite named: every case reads up to it, and no higher.
        assert_eq!(tops(&s), vec![s.clone(); 3]);
        assert_eq!(tops(&s.join("sub")), [s.join("sub")]);
        // A case named by its file or its case directory: its suite.
        for named in ["a.in", "d", "d/input.txt"] {
            assert_eq!(tops(&s.join(named)), vec![s.clone()], "{named}");
        }
        assert_eq!(tops(&s.join("sub/b.in")), [s.join("sub")]);
    }

    #[test]
    fn an_expected_output_without_its_input_is_named() {
        let tmp = tree(&[
            "s/a.in",
            "s/a.out",
            "s/lost.out",
            "s/lost.ans",
            "s/d/expected.txt",
        ]);
        let root = tmp.path();
        let found = find(&[root.join("s")], OutsideLinks::Refused).unwrap();
        assert_eq!(ids(&found.cases), ["a"]);
        let mut warnings = found.warnings;
        warnings.sort();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        let lost_answer = Path::new("d").join("expected.txt");
        assert!(warnings[0].contains(&format!("{} has no input beside it", lost_answer.display())));
        assert!(warnings[1].contains("lost.ans has no input beside it"));
        let lost = root.join("s").join("lost.in");
        assert!(
            warnings[2].ends_with(&format!("its input would be {}", lost.display())),
            "{warnings:?}"
        );
    }

    #[test]
    fn missing_paths_and_empty_directories_say_what_a_case_is() {
        let tmp = tempfile::tempdir().unwrap();
        let err = discover(&[tmp.path().join("nope")]).unwrap_err();
        assert!(format!("{err:#}").contains("cannot read case path"));
        let err = discover(&[tmp.path().to_path_buf()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("a case is a NAME.in file"), "{err}");
    }
}
