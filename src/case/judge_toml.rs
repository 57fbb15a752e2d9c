//! A `judge.toml` as it is written: the keys it may hold, how its text is
//! read and its errors placed by line and column, and the programs it
//! names. Below both [`super::settings`], which gives the file its meaning
//! for a case, and [`super::trust`], which asks whether what it names may
//! run, so that neither reads the file through the other.

use std::fmt;
use std::path::Path;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::problem::Problem;

/// A `[toolchain]` table: language, program or directory.
/// Keys keep where they are in the file, so a key that is no language
/// is named with its line and column where the languages are known.
pub(crate) type ToolchainTable = std::collections::BTreeMap<toml::Spanned<String>, String>;

/// The line and column, counted from 1, of byte `at` of `text`.
pub(crate) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CheckerKind {
    /// Any valid solution that keeps the givens (a special judge).
    #[default]
    Sudoku,
    /// The text must equal the expected output (CRLF and trailing whitespace ignored).
    Exact,
}

impl CheckerKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            CheckerKind::Sudoku => "sudoku",
            CheckerKind::Exact => "exact",
        }
    }
}

/// What a `judge.toml` may say. Unknown keys are errors, so a typo is caught.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    pub(super) problem: Option<Problem>,
    /// `"1s"`, `"1500ms"`.
    pub(super) time_limit: Option<String>,
    /// `"64M"`, `"256MiB"`; K, M and G are powers of 1024, as judges mean them.
    pub(super) memory_limit: Option<String>,
    pub(super) checker: Option<CheckerKind>,
    /// Multiplies the time limit: `1.5` on a machine half again as slow as
    /// the judge's.
    pub(super) time_scale: Option<f64>,
    #[serde(default)]
    pub(super) reference: Vec<ReferenceEntry>,
    /// Per language, the compiler or interpreter to use: a program on
    /// `PATH`, a path, or a directory holding the language's tools.
    #[serde(default)]
    pub(super) toolchain: ToolchainTable,
}

/// One `[[reference]]` of a `judge.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReferenceEntry {
    /// Beside the `judge.toml`; where it is written, for a refusal.
    pub(super) file: toml::Spanned<String>,
    pub(super) verdict: RealVerdict,
}

/// The verdicts a reference can be known to get from the real judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(
    clippy::upper_case_acronyms,
    reason = "the judges' codes, as users know them"
)]
pub(crate) enum RealVerdict {
    AC,
    TLE,
}

impl RealVerdict {
    pub(crate) fn verdict(self) -> crate::verdict::Verdict {
        match self {
            RealVerdict::AC => crate::verdict::Verdict::AC,
            RealVerdict::TLE => crate::verdict::Verdict::TLE,
        }
    }
}

/// Reads the `judge.toml` at `path`, with its text: a regular file of
/// bounded size that does not link out of its own directory, nor is a hard
/// link (see [`crate::files::read`]).
pub(super) fn parse_text(
    path: &Path,
    links: crate::files::OutsideLinks,
) -> anyhow::Result<(File, String)> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let opened = crate::files::Fence::new(dir, links).open(path, "settings file")?;
    let bytes = crate::files::read_whole(opened.file, &path.display())?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("invalid {}: it is not UTF-8 text", path.display()))?;
    let file = toml::from_str(&text)
        .map_err(|error| match opened.own {
            true => toml_error(error),
            false => toml_error_unquoted(&error, &text),
        })
        .with_context(|| format!("invalid {}", path.display()))?;
    Ok((file, text))
}

/// A `judge.toml` that is not valid TOML, or not the settings: what is
/// wrong and where on the first line, which a table row shows, then toml's
/// drawing of the line with the place marked.
pub(crate) fn toml_error(error: toml::de::Error) -> anyhow::Error {
    let message = error
        .message()
        .trim()
        .lines()
        .collect::<Vec<_>>()
        .join("; ");
    let full = error.to_string();
    let mut lines = full.lines();
    match lines
        .next()
        .and_then(|l| l.strip_prefix("TOML parse error at "))
    {
        Some(at) => {
            let drawing: Vec<&str> = lines.take(3).collect();
            anyhow::anyhow!("{message} ({at})\n{}", drawing.join("\n"))
        }
        None => anyhow::anyhow!("{}", full.trim().lines().collect::<Vec<_>>().join("; ")),
    }
}

/// A `judge.toml` of someone else's that is not valid: where, without a
/// byte of it (toml's message and drawing quote the file).
fn toml_error_unquoted(error: &toml::de::Error, text: &str) -> anyhow::Error {
    let at = error.span().map_or(String::new(), |span| {
        let (line, column) = line_column(text, span.start);
        format!(" at line {line}, column {column}")
    });
    anyhow::anyhow!(
        "not valid TOML or not the settings{at} (the file is not yours, so its text is not \
         shown)"
    )
}

/// The programs a `judge.toml` names, in the order they are written.
pub(super) fn named_in(file: &File, text: &str) -> Vec<Named> {
    let mut named: Vec<Named> = file
        .toolchain
        .iter()
        .map(|(language, value)| Named {
            kind: ProgramKind::Toolchain {
                language: language.get_ref().clone(),
                value: value.clone(),
            },
            at: line_column(text, language.span().start),
        })
        .chain(file.reference.iter().map(|entry| Named {
            kind: ProgramKind::Reference {
                file: entry.file.get_ref().clone(),
            },
            at: line_column(text, entry.file.span().start),
        }))
        .collect();
    named.sort_by_key(|n| n.at);
    named
}

/// The programs the `judge.toml` text `text` names.
pub(super) fn named_in_text(text: &str) -> anyhow::Result<Vec<Named>> {
    let file: File = toml::from_str(text).map_err(toml_error)?;
    Ok(named_in(&file, text))
}

/// A program a `judge.toml` names, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Named {
    pub(crate) kind: ProgramKind,
    /// Line and column in the file, counted from 1.
    pub(crate) at: (usize, usize),
}

/// What kind of program a `judge.toml` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ProgramKind {
    /// `[toolchain]`: a language, and the program, path or directory as
    /// written.
    Toolchain { language: String, value: String },
    /// `[[reference]]`: the submission's file, as written.
    Reference { file: String },
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ProgramKind::Toolchain { language, value } => {
                write!(f, "[toolchain] {language} = {value:?}")
            }
            ProgramKind::Reference { file } => write!(f, "[[reference]] file = {file:?}"),
        }
    }
}
