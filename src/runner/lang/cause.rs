//! What a crashed submission's runtime said about why, in one line, and
//! where in the user's file: a Rust or Go panic, a Java, .NET, Node or C++
//! exception, a Python traceback, a Ruby or PHP error. Each language
//! declares what its runtime prints ([`Cause`](super::language::Cause),
//! [`Frame`], in its [`Spec`](super::language::Spec)); a program given with
//! `--cmd` is read with every language's declarations.

use super::language::{regex, Frame, Language, SourceName};

/// What stderr says of an allocation that failed, in any language.
const OUT_OF_MEMORY: [&str; 1] = ["Cannot allocate memory"];

/// The line of `stderr` that says an allocation failed, if one does.
pub(crate) fn out_of_memory(stderr: &str, language: Option<Language>) -> Option<String> {
    let mut markers: Vec<&str> = OUT_OF_MEMORY.to_vec();
    for language in languages(language) {
        markers.extend(language.0.out_of_memory);
    }
    stderr
        .lines()
        .find(|line| markers.iter().any(|m| line.contains(m)))
        .map(|line| line.trim().to_string())
}

/// The languages whose declarations read a run's stderr.
fn languages(language: Option<Language>) -> Vec<Language> {
    match language {
        Some(language) => vec![language],
        None => Language::all().to_vec(),
    }
}

/// Why a run crashed, as its runtime said it, with the place in the user's
/// file `source` when a stack frame names it: `panicked at sol.rs:6:14:
/// index out of bounds`, `threw Error: no digit fits at sol.js:4:11`.
pub(crate) fn crash_cause(
    stderr: &str,
    language: Option<Language>,
    source: Option<&SourceName>,
) -> Option<String> {
    for language in languages(language) {
        let spec = language.0;
        let Some(said) = spec.causes.iter().find_map(|cause| {
            let found = regex(cause.pattern).captures(stderr)?;
            let mut said = String::new();
            found.expand(cause.says, &mut said);
            Some(said.trim().to_string())
        }) else {
            continue;
        };
        let place = spec
            .frame
            .as_ref()
            .zip(source)
            .and_then(|(frame, source)| place(stderr, frame, source));
        return Some(match place {
            Some(place) if !said.contains(&place) => format!("{said} at {place}"),
            _ => said,
        });
    }
    None
}

/// The innermost frame of `stderr` in the user's file, as `name:line` (and
/// `:column` when the runtime says it).
fn place(stderr: &str, frame: &Frame, source: &SourceName) -> Option<String> {
    let pattern = regex(frame.pattern);
    let mut places = pattern.captures_iter(stderr).filter_map(|found| {
        let file = found.name("file")?.as_str();
        let base = file.rsplit('/').next().unwrap_or(file);
        if base != source.name && base != source.built_as {
            return None;
        }
        let mut place = format!("{}:{}", source.name, found.name("line")?.as_str());
        if let Some(column) = found.name("column") {
            place = format!("{place}:{}", column.as_str());
        }
        Some(place)
    });
    if frame.innermost_last {
        places.last()
    } else {
        places.next()
    }
}
