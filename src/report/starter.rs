//! What `new` says of the file it wrote: what it is, why that problem, what
//! the judge will say of it as it stands, and the command that judges it.

use std::io::{self, Write};
use std::path::Path;

use crate::outside::OutsidePath;
use crate::problem::Problem;
use crate::runner::lang::Interface;
use crate::runner::lang::Language;

/// Where the problem of a new file came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProblemFrom {
    /// `--problem`.
    Flag,
    /// The `judge.toml` of every case under `cases/`.
    Cases,
    /// Nothing said: LeetCode 37.
    Default,
}

/// A file `new` wrote.
pub(crate) struct Written<'a> {
    pub(crate) path: &'a Path,
    pub(crate) language: Language,
    pub(crate) problem: Problem,
    pub(crate) problem_from: ProblemFrom,
    pub(crate) interface: Interface,
    /// Why it is not LeetCode's template exactly, when it is not.
    pub(crate) changed: Option<&'a str>,
    /// The command that judges it.
    pub(crate) next: &'a str,
}

pub(crate) fn wrote(out: &mut dyn Write, written: &Written<'_>) -> io::Result<()> {
    let path = OutsidePath::new(written.path).terminal().to_string();
    let language = written.language;
    let function = language.spec().leetcode.function();
    let (what, until) = match written.interface {
        Interface::Function => (
            format!("LeetCode's {language} template for problem 37, with {function}"),
            format!("until you fill in {function}, the judge says WA: your {function} left the board unchanged"),
        ),
        Interface::Program => (
            format!(
                "a {language} program for {} reading puzzle lines until `end`, one answer line each",
                written.problem.name()
            ),
            "until you fill in its solve function, the judge says WA: your program printed the \
             puzzle unchanged"
                .to_string(),
        ),
    };
    writeln!(out, "wrote {path}: {what}")?;
    if let Some(why) = written.changed {
        writeln!(out, "note: not LeetCode's template exactly: {why}")?;
    }
    match written.problem_from {
        ProblemFrom::Flag => {}
        ProblemFrom::Cases => writeln!(
            out,
            "problem: {}, as every case under cases/ is (--problem picks another)",
            written.problem.name()
        )?,
        ProblemFrom::Default => writeln!(
            out,
            "problem: leetcode37, the default (--problem acwing166 or poj3074 writes a program \
             reading stdin)"
        )?,
    }
    writeln!(out, "{until}")?;
    writeln!(out, "next: {}", written.next)
}
