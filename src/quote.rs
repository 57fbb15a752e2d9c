//! Commands the judge prints (`rerun:`, a hint's recheck, `reproduce:`),
//! quoted for the shell of the OS: POSIX shells on Unix; on Windows
//! PowerShell, in a form that cmd also reads as one argument and that
//! runs nothing in either ([`powershell_word`]); and command lines the
//! user or a suite gives (`--cmd`, a `[toolchain]` value) split into words
//! by the same OS's rules ([`command_words`]). Below every room that
//! prints or splits a command: the runner, the suites' consent and the
//! reports take one rule from here.

use std::ffi::OsStr;
use std::path::Path;

/// Whether `c` is a control character that is escaped when shown: a C0
/// control but newline and tab, DEL, a C1 control, or a bidirectional
/// formatting character ([`is_bidi_control`]).
pub(crate) fn is_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{80}'..='\u{9f}').contains(&c)
        || is_bidi_control(c)
}

/// Whether `c` is escaped in a shell word, which is one line: a control
/// character, newline and tab included, or Unicode's line and paragraph
/// separators.
fn escaped_in_word(c: char) -> bool {
    c.is_control() || is_control(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether `c` changes the order a line reads in on screen while showing
/// nothing itself ("Trojan Source", CVE-2021-42574): the embeddings,
/// overrides and their pop (U+202A-U+202E), the isolates and their pop
/// (U+2066-U+2069), and the implicit marks LRM, RLM and ALM (U+200E,
/// U+200F, U+061C), which reorder the digits, spaces and punctuation
/// beside them. Invisible, so a reader could not tell one is there.
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
    )
}

/// One argument of a command the judge prints, quoted so that pasted into
/// the OS's shell it is that argument and nothing more: see
/// [`posix_word`] and [`powershell_word`].
pub(crate) fn shell_word(arg: &OsStr) -> String {
    #[cfg(unix)]
    return posix_word(std::os::unix::ffi::OsStrExt::as_bytes(arg));
    // A name that is not valid UTF-16 (an unpaired surrogate) is shown
    // with U+FFFD: it names no other file that way than it would anyway.
    #[cfg(windows)]
    return powershell_word(&arg.to_string_lossy());
}

/// `text` quoted for a POSIX shell whatever the OS: for a script run with
/// `sh` (the `run.sh` that `driver` writes). See [`posix_word`].
pub(crate) fn sh_word(text: &str) -> String {
    posix_word(text.as_bytes())
}

/// `bytes` quoted for a POSIX shell. An argument with a control character
/// (or bytes that are not UTF-8) is written as a `printf` of octal
/// escapes, so the command holds none itself: the word is one line, safe
/// in a comment too. (The command substitution drops newlines at the end
/// of such a word: a name that ends in one is named without it.)
fn posix_word(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(escaped_in_word) => shell_words::quote(text).into_owned(),
        _ => {
            let mut format = String::new();
            for (i, &b) in bytes.iter().enumerate() {
                match b {
                    // A format that starts with `-` would be read as an option.
                    b'-' if i == 0 => format.push_str("\\055"),
                    b'\\' => format.push_str("\\\\"),
                    b'%' => format.push_str("%%"),
                    b'\'' => format.push_str("'\\''"),
                    0x20..=0x7e => format.push(b as char),
                    _ => format.push_str(&format!("\\{b:03o}")),
                }
            }
            format!("\"$(printf '{format}')\"")
        }
    }
}

/// `text` quoted for PowerShell (Windows' shell), in a form cmd reads as
/// one argument too. A word of letters, digits and `_-./\\:+=` only is
/// left as it is. Any other is put in double quotes, the one quoting both
/// shells have, with what each would act on inside them made inert: a
/// `"` is doubled (both read `""` there as one `"`, and cmd stays inside
/// the quotes, so no `&` or `|` after it is a command), PowerShell's `$`,
/// backtick and typographic double quotes are escaped with a backtick, a
/// control character is written `$([char]0xNN)`, and backslashes before a
/// quote are doubled as programs' argument parsing wants. cmd then reads
/// a name with `$`, a backtick or a control character with the escapes in
/// it, and expands `%VAR%`: a different argument there, never a command.
#[cfg_attr(
    all(unix, not(test)),
    expect(dead_code, reason = "Windows quotes with it; tested on every OS")
)]
fn powershell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./\\:+=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_string();
    }
    let mut word = String::from("\"");
    // Backslashes not yet written: doubled if a quote follows.
    let mut backslashes = 0;
    for c in text.chars() {
        if c == '\\' {
            backslashes += 1;
            continue;
        }
        word.push_str(&"\\".repeat(if c == '"' {
            2 * backslashes
        } else {
            backslashes
        }));
        backslashes = 0;
        match c {
            '"' => word.push_str("\"\""),
            '$' | '`' | '\u{201c}' | '\u{201d}' | '\u{201e}' => {
                word.push('`');
                word.push(c);
            }
            c if escaped_in_word(c) => {
                word.push_str(&format!("$([char]0x{:02x})", c as u32));
            }
            c => word.push(c),
        }
    }
    // The closing quote follows them.
    word.push_str(&"\\".repeat(2 * backslashes));
    word.push('"');
    word
}

/// [`shell_word`] of a path.
pub(crate) fn shell_path(path: &Path) -> String {
    shell_word(path.as_os_str())
}

/// The words of a command line (`--cmd`, a `[toolchain]` value, `CXX`),
/// split as this OS's shell would:
/// POSIX quoting on Unix (`'…'`, `"…"`, `\`), and on Windows the rules
/// programs there split their command lines by, so that a backslash in
/// `C:\Users\Ana Lee\a.exe` stays a backslash.
pub(crate) fn command_words(line: &str) -> anyhow::Result<Vec<String>> {
    if cfg!(windows) {
        Ok(windows_words(line))
    } else {
        Ok(shell_words::split(line)?)
    }
}

/// Whether a command word (or a `[toolchain]` value) is a path rather
/// than a name to look up on `PATH`: it has a directory in it (on Windows
/// `\` or a drive's `C:` too).
pub(crate) fn names_a_path(word: &str) -> bool {
    word.contains('/') || (cfg!(windows) && (word.contains('\\') || word.contains(':')))
}

/// Splits a command line as the Windows C runtime splits `argv`:
/// whitespace between words, `"…"` groups (`""` inside a group is one
/// quote), and backslashes literal unless a quote follows them: then
/// each pair is one backslash, and an odd one out makes the quote
/// literal. A plain function, so that it is tested on every OS.
pub(crate) fn windows_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let mut backslashes = 1;
                while chars.peek() == Some(&'\\') {
                    chars.next();
                    backslashes += 1;
                }
                in_word = true;
                if chars.peek() == Some(&'"') {
                    word.extend(std::iter::repeat_n('\\', backslashes / 2));
                    if backslashes % 2 == 1 {
                        word.push('"');
                        chars.next();
                    }
                } else {
                    word.extend(std::iter::repeat_n('\\', backslashes));
                }
            }
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                word.push('"');
            }
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_and_hold_no_control_character() {
        let word = |s: &str| posix_word(s.as_bytes());
        assert_eq!(word("cases/a.in"), "cases/a.in");
        assert_eq!(word("nm/$(touch PWN2).in"), "'nm/$(touch PWN2).in'");
        let hostile = word("a\x1b[2J'%\\b.in");
        assert_eq!(hostile, "\"$(printf 'a\\033[2J'\\''%%\\\\b.in')\"");
        assert!(!hostile.chars().any(|c| c.is_control()));
    }

    #[test]
    fn windows_words_are_one_argument_and_run_nothing() {
        let word = powershell_word;
        assert_eq!(word(r"cases\acwing166\a.in"), r"cases\acwing166\a.in");
        assert_eq!(word("C:/x/a.cpp"), "C:/x/a.cpp");
        assert_eq!(word(""), "\"\"");
        assert_eq!(word(r"C:\My Cases\a.in"), r#""C:\My Cases\a.in""#);
        // What runs a command in cmd stays inside the quotes.
        assert_eq!(word("a & calc"), r#""a & calc""#);
        assert_eq!(word(r#"a" & calc & ""#), r#""a"" & calc & """"#);
        // PowerShell's subexpressions and escapes are escaped.
        assert_eq!(word("$(calc).in"), r#""`$(calc).in""#);
        assert_eq!(word("a`\u{201c}b"), "\"a```\u{201c}b\"");
        // No control character is in the line.
        let hostile = word("a\x1b[2J\nb");
        assert_eq!(hostile, r#""a$([char]0x1b)[2J$([char]0x0a)b""#);
        assert!(!hostile.chars().any(|c| c.is_control()));
        // A backslash before the closing quote is doubled, so the quote
        // still closes for the program's argument parsing.
        assert_eq!(word(r"C:\My Cases\"), r#""C:\My Cases\\""#);
    }

    #[test]
    fn a_windows_command_line_keeps_its_backslashes_and_groups_by_quotes() {
        assert_eq!(
            windows_words(r#""C:\Users\Ana Lee\a.exe" --fast  C:\in\x.txt"#),
            [r"C:\Users\Ana Lee\a.exe", "--fast", r"C:\in\x.txt"]
        );
        assert_eq!(windows_words(r#"py sol.py"#), ["py", "sol.py"]);
        // Backslashes before a quote: pairs halve, an odd one makes the
        // quote literal.
        assert_eq!(windows_words(r#"a\\"b c" d\"e"#), [r"a\b c", r#"d"e"#]);
        assert_eq!(windows_words(r#""say ""hi""" """#), [r#"say "hi""#, ""]);
        assert!(windows_words("   ").is_empty());
    }

    #[test]
    fn a_path_is_told_from_a_name_on_path() {
        assert!(names_a_path("./a.out"));
        assert!(!names_a_path("python3"));
        assert_eq!(names_a_path(r"C:\a.exe"), cfg!(windows));
    }
}
