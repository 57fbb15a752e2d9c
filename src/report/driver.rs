//! What `driver` says of the program it wrote out: its files, and how to
//! build, run and debug it. The files are named after the user's file,
//! which may come from anywhere: they are shown escaped, and quoted in the
//! commands to paste.

use std::io::{self, Write};
use std::path::Path;

use crate::outside::{Outside, OutsidePath};
use crate::runner::lang::export::Exported;
use crate::runner::lang::Interface;

/// `dir` is where the files went, absolute; paths are shown relative to
/// `here` (the current directory) when they are under it.
pub(crate) fn exported(
    out: &mut dyn Write,
    exported: &Exported,
    dir: &Path,
    here: &Path,
) -> io::Result<()> {
    let relative = |p: &Path| OutsidePath::new(p.strip_prefix(here).unwrap_or(p));
    let names: Vec<String> = exported
        .files
        .iter()
        .map(|p| relative(p).terminal().to_string())
        .collect();
    writeln!(out, "wrote {}", names.join(", "))?;
    let script = relative(&exported.script).shell();
    writeln!(out, "build and run it on board.txt: sh {script}")?;
    writeln!(
        out,
        "on boards of your own:         sh {script} FILE  (81-character lines, then `end`)"
    )?;
    let answers = match exported.interface {
        Interface::Function => {
            "; its driver answers on the file SUDOKU_JUDGE_ANSWERS names, so set it to /dev/fd/3 \
             and keep fd 3 open (3>&1)"
        }
        Interface::Program => "",
    };
    writeln!(
        out,
        "to debug: start `{}` under your debugger, its input from {}/board.txt{answers}",
        Outside::new(&exported.run).terminal(),
        relative(dir).terminal()
    )
}
