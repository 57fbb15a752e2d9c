//! The files `sudoku-judge new` writes to start from, declared with each
//! language (its [`super::language::Spec`]'s `starter`): for LeetCode 37, LeetCode's
//! own template (from the language's declaration, so the two cannot
//! differ); for AcWing 166 and POJ 3074, a program that reads puzzle lines until `end` and prints one line per
//! puzzle. Each leaves the solving to the user and is still a program that
//! builds and runs: the program prints each puzzle as it read it, so the
//! judge's first word on it is a wrong answer, never a compile error.
//!
//! The C++ program stays within C++98, which POJ 3074 builds with.

use super::language::{Interface, Language};

/// A file to start from.
pub(crate) struct Starter {
    /// The name it gets when the user gives none.
    pub(crate) file_name: &'static str,
    pub(crate) text: String,
    /// Why it is not LeetCode's template exactly, when it is not.
    pub(crate) changed: Option<&'static str>,
}

/// The file to start from in `language`: LeetCode's template for a
/// LeetCode-style file, the skeleton for a program.
pub(crate) fn starter(language: Language, interface: Interface) -> Starter {
    let row = &language.spec().starter;
    match interface {
        Interface::Function => {
            let (text, changed) = match row.leetcode_instead {
                Some((text, why)) => (text.to_string(), Some(why)),
                None => (format!("{}\n", language.spec().leetcode.template), None),
            };
            Starter {
                file_name: row.leetcode_file,
                text,
                changed,
            }
        }
        Interface::Program => Starter {
            file_name: row.program_file,
            text: row.program.to_string(),
            changed: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::lang::interface_of;

    #[test]
    fn each_starter_reads_as_the_kind_of_file_it_is() {
        for &language in Language::all() {
            for interface in [Interface::Function, Interface::Program] {
                let starter = starter(language, interface);
                assert_eq!(
                    interface_of(language, &starter.text),
                    Some(interface),
                    "{language:?} {interface:?}:\n{}",
                    starter.text
                );
                assert_eq!(
                    Language::from_path(std::path::Path::new(starter.file_name)),
                    Some(language),
                    "{}",
                    starter.file_name
                );
            }
        }
    }

    #[test]
    fn a_leetcode_file_is_leetcodes_template_unless_it_says_why_not() {
        for &language in Language::all() {
            let starter = starter(language, Interface::Function);
            let template = language.spec().leetcode.template;
            assert_eq!(
                starter.text == format!("{template}\n"),
                starter.changed.is_none(),
                "{language:?}"
            );
        }
    }
}
