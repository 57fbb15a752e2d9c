//! The cases of one judging run, found and read once: each case with the
//! settings its `judge.toml` files give it, and what the suite as a whole
//! says (the problem every case is, the toolchains its files name). The
//! build of the submission and the judge both read it, so a suite is
//! walked once a run, and a watch reads it again at each change.

use std::path::PathBuf;

use super::discover::{find, Case};
use super::settings::Choice;
use super::settings::{Settings, SettingsCache};
use super::trust;
use crate::files::OutsideLinks;
use crate::problem::Problem;

/// The cases under the paths of a run, sorted, each with its settings.
#[derive(Debug, Default)]
pub(crate) struct Suite {
    pub(crate) cases: Vec<Listed>,
    /// Files that look like part of a case but are not judged.
    pub(crate) warnings: Vec<String>,
}

/// One case and the settings its `judge.toml` files give it, or why they
/// could not be read (the case's fault: the others are judged still).
#[derive(Debug)]
pub(crate) struct Listed {
    pub(crate) case: Case,
    pub(crate) settings: Result<Settings, String>,
}

impl Suite {
    /// Finds the cases under `paths` and reads each directory's settings
    /// once. A path that does not exist or holds no case is an error.
    ///
    /// So is a `judge.toml` naming a program out of its suite
    /// ([`trust::Uncovered`]): the suite is refused whole, as `trust`
    /// refuses it, before anything is built or shown with its toolchains
    /// (every command that builds or runs with a suite's settings reads
    /// them here), rather than case by case after a build with others.
    pub(crate) fn read(paths: &[PathBuf], links: OutsideLinks) -> anyhow::Result<Suite> {
        let found = find(paths, links)?;
        let mut cache = SettingsCache::new(links);
        let mut cases = Vec::with_capacity(found.cases.len());
        for case in found.cases {
            let settings = match cache.for_case(&case) {
                Err(error) if error.chain().any(|e| e.is::<trust::Uncovered>()) => {
                    return Err(error)
                }
                read => read.map_err(|e| format!("{e:#}")),
            };
            cases.push(Listed { case, settings });
        }
        Ok(Suite {
            cases,
            warnings: found.warnings,
        })
    }

    /// The problem every case is judged as by its `judge.toml`, if they
    /// all are one: a file that could be read either way is then read as
    /// that judge reads it, and built as it builds.
    pub(crate) fn problem(&self) -> Option<Problem> {
        let mut problems = self
            .cases
            .iter()
            .map(|c| c.settings.as_ref().ok().and_then(|s| s.problem));
        let first = problems.next()??;
        problems.all(|p| p == Some(first)).then_some(first)
    }

    /// The toolchains the `judge.toml`s of the cases name, nearest first,
    /// one for each language (`language` tells which one an id or alias
    /// names); cases that name different ones for a language are an error,
    /// to judge apart.
    pub(crate) fn toolchains<L: PartialEq>(
        &self,
        language: impl Fn(&str) -> L,
    ) -> anyhow::Result<Vec<Choice>> {
        let mut chosen: Vec<Choice> = Vec::new();
        for settings in self.cases.iter().filter_map(|c| c.settings.as_ref().ok()) {
            let mut seen = Vec::new();
            for choice in &settings.toolchain {
                let this = language(&choice.language);
                if seen.contains(&this) {
                    continue;
                }
                match chosen.iter().find(|c| language(&c.language) == this) {
                    Some(earlier) if earlier.value != choice.value => anyhow::bail!(
                        "{} and {} name different {} toolchains ({} and {}); judge their \
                         cases apart",
                        earlier.origin,
                        choice.origin,
                        choice.language,
                        earlier.value,
                        choice.value
                    ),
                    Some(_) => {}
                    None => chosen.push(choice.clone()),
                }
                seen.push(this);
            }
        }
        Ok(chosen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(files: &[(&str, &str)]) -> (tempfile::TempDir, Suite) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let suite = Suite::read(&[dir.path().to_path_buf()], OutsideLinks::Refused).unwrap();
        (dir, suite)
    }

    #[test]
    fn the_problem_of_a_suite_is_the_one_every_case_is() {
        let (_dir, one) = suite(&[
            ("a/judge.toml", "problem = \"acwing166\"\n"),
            ("a/x.in", ""),
            ("a/y.in", ""),
        ]);
        assert_eq!(one.problem(), Some(Problem::Acwing166));
        let (_dir, two) = suite(&[
            ("a/judge.toml", "problem = \"acwing166\"\n"),
            ("a/x.in", ""),
            ("b/judge.toml", "problem = \"leetcode37\"\n"),
            ("b/y.in", ""),
        ]);
        assert_eq!(two.problem(), None);
        let (_dir, some) = suite(&[
            ("a/judge.toml", "problem = \"acwing166\"\n"),
            ("a/x.in", ""),
            ("b/y.in", ""),
        ]);
        assert_eq!(some.problem(), None, "a case of no problem");
    }

    /// Cases build one submission: two files naming different compilers
    /// for one language cannot both be obeyed.
    #[test]
    fn a_suite_names_one_toolchain_a_language_and_refuses_two() {
        // `c++` is another name of `cpp`.
        let language = |name: &str| {
            if name == "c++" {
                "cpp".into()
            } else {
                name.to_string()
            }
        };
        let (_dir, same) = suite(&[
            ("a/judge.toml", "[toolchain]\ncpp = \"g++-12\"\n"),
            ("a/x.in", ""),
            ("b/judge.toml", "[toolchain]\n\"c++\" = \"g++-12\"\n"),
            ("b/y.in", ""),
        ]);
        let chosen = same.toolchains(language).unwrap();
        assert_eq!(chosen.len(), 1, "{chosen:?}");
        assert_eq!(chosen[0].value, "g++-12");

        let (_dir, two) = suite(&[
            ("a/judge.toml", "[toolchain]\ncpp = \"g++-12\"\n"),
            ("a/x.in", ""),
            ("b/judge.toml", "[toolchain]\n\"c++\" = \"clang++\"\n"),
            ("b/y.in", ""),
        ]);
        let error = two.toolchains(language).unwrap_err().to_string();
        for suite in ["a", "b"] {
            let file = std::path::Path::new(suite).join("judge.toml");
            assert!(error.contains(&file.display().to_string()), "{error}");
        }
        assert!(error.contains("(g++-12 and clang++)"), "{error}");
    }

    /// Refused as `trust` refuses it, not case by case: every command
    /// that reads the suite stops here, before a build.
    #[test]
    fn a_suite_naming_a_program_out_of_itself_is_refused_whole() {
        let dir = tempfile::tempdir().unwrap();
        let pack = dir.path().join("pack");
        std::fs::create_dir(&pack).unwrap();
        std::fs::write(pack.join("judge.toml"), "[toolchain]\ncpp = \"../cc\"\n").unwrap();
        std::fs::write(pack.join("x.in"), "").unwrap();
        std::fs::create_dir(pack.join("fine")).unwrap();
        std::fs::write(pack.join("fine/y.in"), "").unwrap();
        let error = Suite::read(&[pack], OutsideLinks::Refused).unwrap_err();
        let uncovered = error.downcast_ref::<trust::Uncovered>().expect("refused");
        assert_eq!(uncovered.why, trust::Outside::Up);
        assert_eq!(uncovered.named.at, (2, 1));
    }

    #[test]
    fn a_case_whose_settings_cannot_be_read_keeps_its_place_and_says_why() {
        let (_dir, suite) = suite(&[
            ("a/judge.toml", "time_limit = \n"),
            ("a/x.in", ""),
            ("b/y.in", ""),
        ]);
        assert_eq!(suite.cases.len(), 2);
        let error = suite.cases[0].settings.as_ref().unwrap_err();
        assert!(error.contains("judge.toml"), "{error}");
        assert!(suite.cases[1].settings.is_ok());
    }
}
