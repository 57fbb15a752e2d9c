//! What `sudoku-judge trust` says: what each `judge.toml` names, so that
//! consent is given knowing what runs, what it allowed, what it took back,
//! and what stands. Everything quoted from a suite is shown escaped.

use std::io::{self, Write};
use std::path::Path;

use crate::case::trust::{Allowed, Named, ProgramKind, Record, Standing, Subject};
use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::words::plural;

/// One named program, on a line of its own under its file.
fn named_line(out: &mut dyn Write, named: &Named, dir: &Path) -> io::Result<()> {
    let (line, column) = named.at;
    let what = match &named.kind {
        // A path that leaves the suite is refused before anything is
        // allowed (`trust::Uncovered`): every path here is the suite's.
        ProgramKind::Toolchain { value, .. } => {
            match crate::case::trust::toolchain_path(dir, value) {
                Some(_) => "a program of the suite, hashed with this file and run from a copy",
                None => "the machine's program of that name on PATH, run with any words after it",
            }
        }
        ProgramKind::Reference { .. } => "a submission `calibrate` builds and runs",
    };
    writeln!(
        out,
        "  line {line}, column {column}: {}  ({what})",
        OutsideName::new(named.to_string()).terminal()
    )
}

/// The programs a file in `dir` names, a line each, and the files hashed
/// with it.
fn programs(out: &mut dyn Write, named: &[Named], hashed: &[String], dir: &Path) -> io::Result<()> {
    for named in named {
        named_line(out, named, dir)?;
    }
    if !hashed.is_empty() {
        writeln!(
            out,
            "  hashed with it: {}",
            Outside::new(hashed.join(", ")).terminal()
        )?;
    }
    Ok(())
}

/// A `judge.toml` under a path given to `trust` that names no program:
/// nothing of it needs consent.
pub(crate) fn nothing_to_allow(out: &mut dyn Write, file: &Path) -> io::Result<()> {
    writeln!(
        out,
        "{} names no program (no [toolchain], no [[reference]]): nothing to allow",
        OutsidePath::new(file).terminal()
    )
}

/// What `trust` allowed for `subject`.
pub(crate) fn allowed(out: &mut dyn Write, subject: &Subject, allowed: &Allowed) -> io::Result<()> {
    let file = OutsidePath::new(&subject.file).terminal().to_string();
    let digest = &subject.digest[..16.min(subject.digest.len())];
    match allowed {
        Allowed::Shipped => writeln!(
            out,
            "{file} is a suite as sudoku-judge ships it (sha256 {digest}...): its programs run \
             without a record"
        )?,
        Allowed::Already => writeln!(
            out,
            "{file} was allowed before, as it is now (sha256 {digest}...); it may run:"
        )?,
        Allowed::Recorded { replaced, .. } => writeln!(
            out,
            "allowed {file} (sha256 {digest}...){}; it may now run:",
            if *replaced > 0 {
                " in place of the content allowed before"
            } else {
                ""
            }
        )?,
    }
    let dir = subject.file.parent().unwrap_or(Path::new("."));
    programs(out, &subject.named, &subject.hashed, dir)?;
    if matches!(allowed, Allowed::Recorded { .. } | Allowed::Already) {
        writeln!(
            out,
            "  every program a suite names runs in the sandbox; a change to this file{} takes \
             the consent back, and `sudoku-judge trust --revoke {}` takes it back now",
            if subject.hashed.is_empty() {
                ""
            } else {
                " or to a file hashed with it"
            },
            crate::outside::shell_path(dir)
        )?;
    }
    Ok(())
}

/// What `trust --revoke` took back under `path`.
pub(crate) fn revoked(out: &mut dyn Write, path: &Path, records: &[Record]) -> io::Result<()> {
    if records.is_empty() {
        return writeln!(
            out,
            "nothing under {} was allowed; nothing to take back",
            OutsidePath::new(path).terminal()
        );
    }
    for record in records {
        writeln!(
            out,
            "took back the consent to {}: its programs no longer run",
            OutsidePath::new(&record.file).terminal()
        )?;
    }
    Ok(())
}

/// What `trust --list` shows: every consent and how it stands now.
pub(crate) fn list(
    out: &mut dyn Write,
    records: &[(Record, Standing)],
    dir: &Path,
) -> io::Result<()> {
    if records.is_empty() {
        return writeln!(
            out,
            "no suite is allowed to run programs (records are kept in {}); the suites \
             sudoku-judge ships need none",
            OutsidePath::new(dir).terminal()
        );
    }
    for (record, standing) in records {
        let when = humantime::format_rfc3339_seconds(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(record.allowed_at),
        );
        let now = match standing {
            Standing::Holds => "allowed",
            Standing::Changed => "CHANGED since it was allowed: its programs do not run",
            Standing::Gone => "gone",
            Standing::Unreadable => "unreadable now: its programs do not run",
        };
        writeln!(
            out,
            "{}  {now} (allowed {when})",
            OutsidePath::new(&record.file).terminal()
        )?;
        let dir = record.file.parent().unwrap_or(Path::new("."));
        programs(out, &record.named, &record.hashed, dir)?;
    }
    writeln!(
        out,
        "{} allowed, kept in {}",
        plural(records.len(), "file"),
        OutsidePath::new(dir).terminal()
    )
}
