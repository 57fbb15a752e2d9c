//! The languages the judge knows: [`ALL`] that it judges, those LeetCode
//! offers that it does not ([`NOT_JUDGED`]), and finding one by name or by
//! a file's extension.

use std::path::Path;

use super::language::Language;
use super::{
    c, cpp, csharp, go, java, javascript, kotlin, php, python, racket, ruby, rust, scala,
    typescript,
};

/// The languages judged, in the order the table of languages lists them.
pub(super) static ALL: [Language; 14] = [
    Language(&cpp::SPEC),
    Language(&c::SPEC),
    Language(&rust::SPEC),
    Language(&python::SPEC),
    Language(&java::SPEC),
    Language(&go::SPEC),
    Language(&javascript::SPEC),
    Language(&typescript::SPEC),
    Language(&csharp::SPEC),
    Language(&kotlin::SPEC),
    Language(&scala::SPEC),
    Language(&ruby::SPEC),
    Language(&php::SPEC),
    Language(&racket::SPEC),
];

/// Languages LeetCode offers for problem 37 that are not judged here, with
/// their extensions and why.
pub(crate) const NOT_JUDGED: [(&str, &[&str], &str); 2] = [
    (
        "Swift",
        &["swift"],
        "no Swift toolchain can be installed from Debian 12, npm or PyPI, so none was tested. \
         A LeetCode-style class Solution cannot be judged: it has no main, and the judge has \
         no driver to call it. A program with a main that reads the puzzles on stdin can be, \
         with your own toolchain: `swiftc -O main.swift -o main`, then `sudoku-judge test \
         acwing166 --cmd ./main`",
    ),
    (
        "Dart",
        &["dart"],
        "no Dart SDK can be installed from Debian 12, npm or PyPI, so none was tested. \
         A LeetCode-style class Solution cannot be judged: it has no main, and the judge has \
         no driver to call it. A program with a main that reads the puzzles on stdin can be, \
         with your own SDK: `dart compile exe main.dart -o main`, then `sudoku-judge test \
         acwing166 --cmd ./main`",
    ),
];

impl Language {
    /// Every language judged.
    pub fn all() -> &'static [Language] {
        &ALL
    }

    /// The language named `id` (as `--lang` takes it).
    pub fn find(id: &str) -> Option<Language> {
        ALL.iter()
            .copied()
            .find(|l| l.0.id == id || l.0.aliases.contains(&id))
    }

    /// The language of `path`, from its extension.
    pub(crate) fn from_path(path: &Path) -> Option<Language> {
        let extension = path.extension()?.to_str()?;
        ALL.iter()
            .copied()
            .find(|l| l.0.extensions.contains(&extension))
    }
}
