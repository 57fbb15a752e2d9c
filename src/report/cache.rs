//! What `sudoku-judge cache` says: where the build cache is, how big it is
//! against its cap, its builds last used first, and what `cache clear`
//! removed.

use std::io::{self, Write};
use std::path::Path;

use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::runner::lang::cache::{
    ago, size_words, Cleared, EntryKind, Summary, BUILD_VARIABLE, TOTAL_VARIABLE,
};
use crate::words::plural;

/// The cache, for people.
pub(crate) fn summary(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    let limits = &summary.limits;
    let total: u64 = summary.entries.iter().map(|e| e.bytes).sum();
    let from = |from: &str, set_by: &str| {
        if from == "the default" {
            format!("the default; {set_by} sets it")
        } else {
            format!("set by {}", Outside::new(from).terminal())
        }
    };
    writeln!(
        out,
        "build cache: {} ({})",
        OutsidePath::new(&summary.root).terminal(),
        from(summary.root_from, "SUDOKU_JUDGE_CACHE")
    )?;
    writeln!(
        out,
        "size: {} of {}, the cap ({})",
        size_words(total),
        size_words(limits.total_bytes),
        from(
            &limits.total_from,
            &format!("{TOTAL_VARIABLE} or `[cache] max` in config.toml")
        )
    )?;
    writeln!(
        out,
        "one build may write: {} ({})",
        size_words(limits.build_bytes),
        from(
            &limits.build_from,
            &format!("{BUILD_VARIABLE} or `[cache] build_max` in config.toml")
        )
    )?;
    let builds: Vec<_> = summary
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Build)
        .collect();
    if builds.is_empty() {
        writeln!(out, "no builds")?;
    } else {
        writeln!(out, "{}, last used first:", plural(builds.len(), "build"))?;
        for build in builds {
            let used = build
                .used
                .map_or_else(String::new, |t| format!("used {}", ago(t)));
            let in_use = if build.in_use {
                ", in use by a judge running now"
            } else {
                ""
            };
            writeln!(
                out,
                "  {:>9}  {}  {used}{in_use}",
                size_words(build.bytes),
                OutsideName::new(&build.name).terminal()
            )?;
        }
    }
    for (kind, what) in [
        (EntryKind::CompilerCaches, "compilers' own caches (.compiler-caches)"),
        (EntryKind::Versions, "compilers' versions (.versions)"),
        (
            EntryKind::Unfinished,
            "builds going on or left unfinished, removed by the next build once no judge holds them",
        ),
        (EntryKind::Other, "other files"),
    ] {
        let bytes: u64 = summary
            .entries
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.bytes)
            .sum();
        let count = summary.entries.iter().filter(|e| e.kind == kind).count();
        if count > 0 {
            writeln!(out, "{what}: {}", size_words(bytes))?;
        }
    }
    writeln!(out, "clear it: sudoku-judge cache clear")
}

/// What `cache clear` removed.
pub(crate) fn cleared(out: &mut dyn Write, root: &Path, cleared: &Cleared) -> io::Result<()> {
    write!(
        out,
        "removed {} from {}: {}",
        plural(cleared.entries, "item"),
        OutsidePath::new(root).terminal(),
        size_words(cleared.bytes)
    )?;
    if cleared.in_use > 0 {
        write!(
            out,
            "; kept {} in use by a judge running now",
            plural(cleared.in_use, "build")
        )?;
    }
    writeln!(out)
}
