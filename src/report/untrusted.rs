//! Text the judge did not write: case names and paths from a suite, what a
//! submission printed, what a compiler said of its source. It is shown,
//! never obeyed: every renderer passes it through here, so no control
//! character reaches a terminal, a pipe or a file from it, and every
//! command the judge prints is safe to paste into a shell.
//!
//! Escaped are the C0 controls but newline and tab, DEL and the C1
//! controls, as `\x1b` or `\u{9b}`: an escape sequence then shows as the
//! characters it is made of (`\x1b[2J`), and clears nothing. The judge's
//! own colour is added after, by the renderer, and stays colour.
//!
//! Commands are quoted for the shell of the OS: POSIX shells on Unix;
//! on Windows PowerShell, in a form that cmd also reads as one argument
//! and that runs nothing in either (`powershell_word`, in
//! [`crate::quote`]).

use std::borrow::Cow;
use std::path::Path;

use crate::quote::is_control;
pub use crate::quote::{shell_path, shell_word};
use crate::results::{CaseOutcome, CaseResult};

/// `text` with every control character but newline and tab escaped.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !is_control(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// A path as shown: lossy UTF-8, control characters escaped.
pub fn shown_path(path: &Path) -> String {
    shown(&path.to_string_lossy()).into_owned()
}

/// `result` as it may be shown: its name, paths and every text that came
/// from the case or the submission escaped.
pub fn case_result(result: &CaseResult) -> CaseResult {
    let mut shown_result = result.clone();
    let text = &|s: &mut String| {
        if let Cow::Owned(escaped) = shown(s) {
            *s = escaped;
        }
    };
    let path = |p: &mut std::path::PathBuf| {
        if p.to_str().is_none_or(|s| s.chars().any(is_control)) {
            *p = shown_path(p).into();
        }
    };
    text(&mut shown_result.id);
    path(&mut shown_result.suite);
    path(&mut shown_result.input);
    if let Some(expected) = &mut shown_result.expected {
        path(expected);
    }
    match &mut shown_result.outcome {
        CaseOutcome::Judged(j) => {
            j.reason.texts_mut().into_iter().for_each(text);
            for field in [&mut j.details, &mut j.output, &mut j.stdout, &mut j.stderr] {
                text(field);
            }
            j.stdout_last_line.iter_mut().for_each(text);
            j.notes.iter_mut().for_each(text);
            j.warnings.iter_mut().for_each(text);
        }
        CaseOutcome::Error(error) => {
            let (texts, paths) = error.texts_mut();
            texts.into_iter().for_each(text);
            paths.into_iter().for_each(path);
        }
    }
    shown_result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(shown("plain\ttext\nok é"), "plain\ttext\nok é");
        assert_eq!(
            shown("\x1b[2J\x1b]0;title\x07\x7f\r\u{9b}31m"),
            "\\x1b[2J\\x1b]0;title\\x07\\x7f\\x0d\\u{9b}31m"
        );
        assert!(matches!(shown("nothing to do"), Cow::Borrowed(_)));
    }
}
