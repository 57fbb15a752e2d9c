//! Text the judge did not write: case and file names and paths from a
//! pack, what a submission printed, what a compiler said of its source,
//! the version a tool reports. It is shown, never obeyed: a pack can name
//! a file `\x1b]0;title\x07.in` or `s<newline>touch X<newline>#.py`, and a
//! program can print U+FFFE, so such text is an [`Outside`] (or an
//! [`OutsideName`], an [`OutsidePath`]) from where it enters to where it
//! is shown.
//!
//! A name (a case's id, a suite's or a file's name, a path, a tool's
//! name) is an [`OutsideName`] or an [`OutsidePath`]: every form of it is
//! one line, as the table row, the `check` finding or the progress line it
//! sits in, so newline, tab, U+2028 and U+2029 are escaped too (`\x0a`,
//! `\x09`, `\u{2028}`): a case named `x<newline>AC 0.1 ms ...` cannot draw
//! a row of its own. A block of text (what a program printed, a
//! compiler's message, a failure's details) is an [`Outside`], and keeps
//! its newlines and tabs.
//!
//! In every medium and both kinds, the bidirectional formatting
//! characters (U+202A-U+202E, U+2066-U+2069, and the marks U+200E, U+200F,
//! U+061C: see [`crate::quote::is_bidi_control`]) are escaped, so no text
//! reorders how the judge's line reads ("Trojan Source").
//!
//! Neither type has a `Display` or derefs to `str`: a renderer must say
//! where the text goes, and gets it escaped for that medium
//! (askama's and maud's split between escaped and unescaped text):
//!
//! - [`Outside::terminal`]: a terminal, a pipe, a plain text file. The C0
//!   controls but newline and tab (in a name, those too), DEL, the C1
//!   controls and the bidirectional formatting characters are written as
//!   `\x1b` or `\u{9b}`: an escape sequence shows as the characters it is
//!   made of (`\x1b[2J`), and clears nothing. The judge's own colour is
//!   added after, by the renderer, and stays colour.
//! - [`Outside::xml`]: text handed to an XML writer (the JUnit report's
//!   quick-junit escapes markup itself). As for a terminal, and U+FFFE and
//!   U+FFFF escaped too, so every character is a `Char` of XML 1.0 and the
//!   document stays well-formed. (A Rust string holds no lone surrogate; a
//!   path that is not Unicode is shown lossily, with U+FFFD.)
//! - [`Outside::html`]: as for a terminal, then `&`, `<`, `>` and both
//!   quotes as entities, for text and attribute values alike.
//! - [`OutsidePath::shell`]: one word of a command, quoted for the OS's shell
//!   by [`crate::quote`]; on one line and free of control characters, so
//!   it is safe in a script's comment too.
//! - JSON: all three types serialise as their terminal form. serde_json
//!   escapes the C0 controls but writes DEL and the C1 controls as they
//!   are, and U+009B is a terminal's CSI: a script that prints a name from
//!   the JSON report (`jq -r`) must not be handed one. So a name's JSON
//!   string holds `\x0a` (a backslash and three characters; `\\x0a` in
//!   the JSON text) where the name held a newline, and `jq -r` prints it
//!   on one line; a block's newline is JSON's `\n`.
//!
//! [`Outside::as_raw`] is the one way to the text itself, to compare, key,
//! parse or open by: never to show.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::quote::is_control;
/// Quoting for the shell, for the binary's commands: see [`crate::quote`].
pub(crate) use crate::quote::{shell_path, shell_word};

/// A string from a pack or a submission. See the module's doc for the
/// media it can be shown in.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Outside(String);

/// A name from a pack or a submission (a case's id, a suite's name, a
/// tool's name), or any outside text shown as one line of the judge's (a
/// table row's short reason): escaped as [`Outside`] is, and on one line
/// in every form.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct OutsideName(String);

/// A path from a pack or a submission: shown lossily (U+FFFD for what is
/// not Unicode), then escaped as an [`OutsideName`] is, on one line.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct OutsidePath(PathBuf);

/// Where a text is shown, which decides how it is escaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Medium {
    Terminal,
    Xml,
    Html,
}

/// Outside text escaped for one medium; made by [`Outside::terminal`],
/// [`Outside::xml`], [`Outside::html`] and their [`OutsideName`] and
/// [`OutsidePath`] twins.
#[derive(Clone, Debug)]
pub(crate) struct Escaped<'a> {
    text: Cow<'a, str>,
    medium: Medium,
    /// A name's: the line breaks are escaped too.
    one_line: bool,
}

impl Outside {
    pub(crate) fn new(text: impl Into<String>) -> Self {
        Outside(text.into())
    }

    /// The text itself, to compare, key, parse or measure by: never for
    /// showing (use the method of the medium it goes to).
    pub(crate) fn as_raw(&self) -> &str {
        &self.0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// For a terminal, a pipe or a plain text file.
    pub(crate) fn terminal(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Terminal)
    }

    /// For an XML writer that escapes markup itself: every character a
    /// `Char` of XML 1.0.
    pub(crate) fn xml(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Xml)
    }

    /// For HTML text or an attribute value in quotes.
    pub(crate) fn html(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Html)
    }
}

impl From<String> for Outside {
    fn from(text: String) -> Self {
        Outside(text)
    }
}

impl From<&str> for Outside {
    fn from(text: &str) -> Self {
        Outside(text.to_string())
    }
}

/// As [`Outside::terminal`]: see the module's doc.
impl serde::Serialize for Outside {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.terminal())
    }
}

impl OutsideName {
    pub(crate) fn new(name: impl Into<String>) -> Self {
        OutsideName(name.into())
    }

    /// The name itself, to compare, key, parse or open by: never for
    /// showing (use the method of the medium it goes to).
    pub(crate) fn as_raw(&self) -> &str {
        &self.0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// For a terminal, a pipe or a plain text file; one line.
    pub(crate) fn terminal(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Terminal).one_line()
    }

    /// For an XML writer that escapes markup itself; one line.
    pub(crate) fn xml(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Xml).one_line()
    }

    /// For HTML text or an attribute value in quotes; one line.
    pub(crate) fn html(&self) -> Escaped<'_> {
        Escaped::new(&self.0, Medium::Html).one_line()
    }
}

impl From<String> for OutsideName {
    fn from(name: String) -> Self {
        OutsideName(name)
    }
}

impl From<&str> for OutsideName {
    fn from(name: &str) -> Self {
        OutsideName(name.to_string())
    }
}

/// As [`OutsideName::terminal`]: see the module's doc.
impl serde::Serialize for OutsideName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.terminal())
    }
}

impl OutsidePath {
    pub(crate) fn new(path: impl Into<PathBuf>) -> Self {
        OutsidePath(path.into())
    }

    /// The path itself, to open, compare or key by: never for showing
    /// (use the method of the medium it goes to).
    pub(crate) fn as_raw(&self) -> &Path {
        &self.0
    }

    /// Its last component, itself from outside.
    pub(crate) fn file_name(&self) -> Option<OutsidePath> {
        self.0.file_name().map(OutsidePath::new)
    }

    /// For a terminal, a pipe or a plain text file; one line.
    pub(crate) fn terminal(&self) -> Escaped<'_> {
        Escaped::of_path(&self.0, Medium::Terminal)
    }

    /// For an XML writer that escapes markup itself; one line.
    pub(crate) fn xml(&self) -> Escaped<'_> {
        Escaped::of_path(&self.0, Medium::Xml)
    }

    /// One word of a shell command: see [`crate::quote::shell_path`].
    pub(crate) fn shell(&self) -> String {
        crate::quote::shell_path(&self.0)
    }
}

impl From<PathBuf> for OutsidePath {
    fn from(path: PathBuf) -> Self {
        OutsidePath(path)
    }
}

impl From<&Path> for OutsidePath {
    fn from(path: &Path) -> Self {
        OutsidePath(path.to_path_buf())
    }
}

/// As [`OutsidePath::terminal`]: see the module's doc.
impl serde::Serialize for OutsidePath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.terminal())
    }
}

impl<'a> Escaped<'a> {
    fn new(text: &'a str, medium: Medium) -> Self {
        Escaped {
            text: Cow::Borrowed(text),
            medium,
            one_line: false,
        }
    }

    /// A path is a name: one line.
    fn of_path(path: &'a Path, medium: Medium) -> Self {
        Escaped {
            text: path.to_string_lossy(),
            medium,
            one_line: true,
        }
    }

    fn one_line(self) -> Self {
        Escaped {
            one_line: true,
            ..self
        }
    }
}

/// Whether `c` is written as an escape in `medium`, in a name if
/// `one_line`.
fn escaped_in(c: char, medium: Medium, one_line: bool) -> bool {
    is_control(c)
        || (one_line && breaks_line(c))
        || (medium == Medium::Xml && matches!(c, '\u{fffe}' | '\u{ffff}'))
}

/// Whether `c` ends a line where text is shown, beyond what
/// [`is_control`] escapes everywhere: newline, tab (a name's columns), and
/// Unicode's line and paragraph separators.
fn breaks_line(c: char) -> bool {
    matches!(c, '\n' | '\t' | '\u{2028}' | '\u{2029}')
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: &str = &self.text;
        let markup =
            |c: char| self.medium == Medium::Html && matches!(c, '&' | '<' | '>' | '"' | '\'');
        let plain = |c: char| !(escaped_in(c, self.medium, self.one_line) || markup(c));
        // Runs of plain characters are written at once.
        let mut start = 0;
        for (at, c) in text.char_indices() {
            if plain(c) {
                continue;
            }
            f.write_str(&text[start..at])?;
            start = at + c.len_utf8();
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&#39;")?,
                c if (c as u32) < 0x80 => write!(f, "\\x{:02x}", c as u32)?,
                c => write!(f, "\\u{{{:x}}}", c as u32)?,
            }
        }
        f.write_str(&text[start..])
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        let shown = |s: &str| Outside::new(s).terminal().to_string();
        assert_eq!(shown("plain\ttext\nok é"), "plain\ttext\nok é");
        assert_eq!(
            shown("\x1b[2J\x1b]0;title\x07\x7f\r\u{9b}31m\u{fffe}"),
            "\\x1b[2J\\x1b]0;title\\x07\\x7f\\x0d\\u{9b}31m\u{fffe}"
        );
        assert_eq!(
            Outside::new("a\u{fffe}<b>\u{ffff}\x0c").xml().to_string(),
            "a\\u{fffe}<b>\\u{ffff}\\x0c"
        );
        assert_eq!(
            Outside::new("<i a=\"1\" b='2'>&\x1b").html().to_string(),
            "&lt;i a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;\\x1b"
        );
    }

    /// Characters a hostile text is made of, each as likely as the others:
    /// every C0 and C1 control, DEL, U+FFFE and U+FFFF, the characters
    /// markup and shells act on, and any other character.
    fn hostile_char(rng: &mut ChaCha8Rng) -> char {
        const SPECIAL: &[char] = &[
            '\x1b', '\x07', '\0', '\r', '\n', '\t', '\x7f', '\u{9b}', '\u{85}', '\u{fffe}',
            '\u{ffff}', '\u{fffd}', '<', '>', '&', '"', '\'', '`', '$', '\\', '%', ';', '|', '#',
            '(', ')', ' ', '*', '\u{2028}', '\u{2029}', '\u{202e}', '\u{202a}', '\u{2066}',
            '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}',
        ];
        match rng.random_range(0..4) {
            0 => SPECIAL[rng.random_range(0..SPECIAL.len())],
            1 => char::from_u32(rng.random_range(0..0xa0)).unwrap(),
            _ => loop {
                if let Some(c) = char::from_u32(rng.random_range(0..0x11_0000)) {
                    break c;
                }
            },
        }
    }

    /// Seeded arbitrary strings, the first few the worst cases by hand.
    fn hostile_strings() -> Vec<String> {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0e5c);
        let mut strings: Vec<String> = [
            "",
            "\x1b]0;pwned\x07",
            "\x1b[2J",
            "s\ntouch X\n#.py",
            "\u{fffe}\u{ffff}",
            "'; touch X; '",
            "\"$(touch X)\"",
            "a\\",
            "%s%n",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..2000 {
            let len = rng.random_range(0..24);
            strings.push((0..len).map(|_| hostile_char(&mut rng)).collect());
        }
        strings
    }

    /// Whether `c` is a `Char` of XML 1.0.
    fn xml_char(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    }

    #[test]
    fn the_terminal_form_holds_no_control_character_and_means_the_same() {
        for text in hostile_strings() {
            let shown = Outside::new(text.as_str()).terminal().to_string();
            assert!(
                !shown
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{text:?} -> {shown:?}"
            );
            // Nothing but the controls changed: each is its escape.
            let mut expected = String::new();
            for c in text.chars() {
                match c {
                    c if is_control(c) && (c as u32) < 0x80 => {
                        expected.push_str(&format!("\\x{:02x}", c as u32))
                    }
                    c if is_control(c) => expected.push_str(&format!("\\u{{{:x}}}", c as u32)),
                    c => expected.push(c),
                }
            }
            assert_eq!(shown, expected);
        }
    }

    /// Whether `c` could reorder a line's reading, as U+202E does.
    fn bidi(c: char) -> bool {
        matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
    }

    /// Whether `c` ends a line in some terminal, browser or editor.
    fn line_break(c: char) -> bool {
        matches!(
            c,
            '\n' | '\r' | '\x0b' | '\x0c' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    }

    #[test]
    fn a_name_is_one_line_in_every_medium_and_reorders_nothing() {
        let mut texts = hostile_strings();
        texts.push("x\nAC     0.1 ms  leetcode37/fake".to_string());
        texts.push("\u{202e}lmth.exe\u{202c}\u{2066}\u{200f}\u{61c}\t".to_string());
        for text in texts {
            let name = OutsideName::new(text.as_str());
            let path = OutsidePath::new(text.as_str());
            for shown in [
                name.terminal().to_string(),
                name.xml().to_string(),
                name.html().to_string(),
                serde_json::from_str::<String>(&serde_json::to_string(&name).unwrap()).unwrap(),
                path.terminal().to_string(),
                path.xml().to_string(),
                path.shell(),
                serde_json::from_str::<String>(&serde_json::to_string(&path).unwrap()).unwrap(),
            ] {
                assert!(
                    !shown
                        .chars()
                        .any(|c| c.is_control() || line_break(c) || bidi(c)),
                    "{text:?} -> {shown:?}"
                );
            }
            // In a terminal, nothing but those characters changed: each
            // is its escape.
            let mut expected = String::new();
            for c in text.chars() {
                match c {
                    c if (c.is_control() || line_break(c) || bidi(c)) && (c as u32) < 0x80 => {
                        expected.push_str(&format!("\\x{:02x}", c as u32))
                    }
                    c if c.is_control() || line_break(c) || bidi(c) => {
                        expected.push_str(&format!("\\u{{{:x}}}", c as u32))
                    }
                    c => expected.push(c),
                }
            }
            assert_eq!(name.terminal().to_string(), expected);
            assert_eq!(path.terminal().to_string(), expected);
        }
        assert_eq!(
            OutsideName::new("a\nb\r\tc\u{202e}").terminal().to_string(),
            "a\\x0ab\\x0d\\x09c\\u{202e}"
        );
    }

    /// A block keeps its lines and tabs, but no medium shows a bidi
    /// control raw.
    #[test]
    fn a_block_keeps_its_lines_and_reorders_nothing() {
        let block = Outside::new("line 1\n\tline \u{202e}2\u{2069}\u{200e}");
        for shown in [
            block.terminal().to_string(),
            block.xml().to_string(),
            block.html().to_string(),
        ] {
            assert_eq!(shown, "line 1\n\tline \\u{202e}2\\u{2069}\\u{200e}");
        }
        for text in hostile_strings() {
            let block = Outside::new(text.as_str());
            for shown in [
                block.terminal().to_string(),
                block.xml().to_string(),
                block.html().to_string(),
            ] {
                assert!(!shown.chars().any(bidi), "{text:?} -> {shown:?}");
            }
            assert_eq!(
                block.terminal().to_string().matches('\n').count(),
                text.matches('\n').count(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_xml_form_is_well_formed_xml_1_0_and_reads_back_as_written() {
        use quick_xml::events::Event;
        for text in hostile_strings() {
            let outside = Outside::new(text.as_str());
            let written = outside.xml().to_string();
            assert!(written.chars().all(xml_char), "{text:?} -> {written:?}");
            // Through the writer the JUnit report uses, in text and in an
            // attribute: a parser reads it back unchanged.
            let mut case = quick_junit::TestCase::new(
                written.as_str(),
                quick_junit::TestCaseStatus::success(),
            );
            case.set_system_err(written.as_str());
            let mut suite = quick_junit::TestSuite::new(written.as_str());
            suite.add_test_case(case);
            let mut report = quick_junit::Report::new("r");
            report.add_test_suite(suite);
            let xml = report.to_string().unwrap();
            assert!(xml.chars().all(xml_char), "{text:?}: {xml}");
            let mut reader = quick_xml::Reader::from_str(&xml);
            reader.config_mut().check_end_names = true;
            let mut names = Vec::new();
            loop {
                match reader.read_event() {
                    Ok(Event::Eof) => break,
                    Ok(Event::Start(e) | Event::Empty(e)) => {
                        for a in e.attributes() {
                            let a = a.unwrap_or_else(|e| panic!("{text:?}: {e}: {xml}"));
                            if a.key.as_ref() == b"name" {
                                names.push(
                                    a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                                        .unwrap()
                                        .into_owned(),
                                );
                            }
                        }
                    }
                    Ok(_) => {}
                    Err(e) => panic!("{text:?}: {e}: {xml}"),
                }
            }
            // The name reads back, but for its whitespace: quick-junit
            // drops a tab, and an attribute's newline reads as a space.
            let squeezed =
                |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
            assert!(
                names.iter().any(|n| squeezed(n) == squeezed(&written)),
                "{text:?}: {names:?} {xml}"
            );
        }
    }

    #[test]
    fn the_html_form_holds_no_markup_nor_control_character() {
        for text in hostile_strings() {
            let shown = Outside::new(text.as_str()).html().to_string();
            assert!(
                !shown.chars().any(|c| matches!(c, '<' | '>' | '"' | '\'')
                    || (c.is_control() && c != '\n' && c != '\t')),
                "{text:?} -> {shown:?}"
            );
            // Every `&` starts one of the entities.
            for (at, _) in shown.match_indices('&') {
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                        .iter()
                        .any(|e| shown[at..].starts_with(e)),
                    "{text:?} -> {shown:?}"
                );
            }
        }
    }

    /// A shell word is one line without a control character (safe in a
    /// comment), and `sh` reads it back as the very text, running nothing.
    #[cfg(unix)]
    #[test]
    fn the_shell_form_is_one_word_that_runs_nothing() {
        use std::ffi::OsString;
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        if std::process::Command::new("sh")
            .arg("-c")
            .arg("true")
            .status()
            .is_err()
        {
            panic!("no sh to read the words back");
        }
        let dir = tempfile::tempdir().unwrap();
        // No name holds NUL; and one that ends in a newline is named
        // without it, a known limit of the `printf` form (see
        // `crate::quote`).
        let mut texts: Vec<OsString> = hostile_strings()
            .into_iter()
            .filter(|t| !t.contains('\0') && !t.ends_with('\n'))
            .map(OsString::from)
            .collect();
        texts.push(OsString::from("-n\x1b"));
        // Names that are not UTF-8, as a Unix file name may be.
        texts.push(OsString::from_vec(b"a\xff\xfe\x1b[2J".to_vec()));
        texts.push(OsString::from_vec(b"\xed\xa0\x80 lone surrogate".to_vec()));
        // One script, a word a line, inside a comment and as an argument.
        let mut script = String::new();
        for text in &texts {
            let word = crate::quote::shell_word(text);
            assert!(
                !word.chars().any(|c| c.is_control()),
                "{text:?} -> {word:?}"
            );
            script.push_str(&format!("# {word}\nprintf '%s\\0' {word}\n"));
        }
        let file = dir.path().join("words.sh");
        std::fs::write(&file, &script).unwrap();
        let checked = std::process::Command::new("sh")
            .arg("-n")
            .arg(&file)
            .output()
            .unwrap();
        assert!(checked.status.success(), "{checked:?}");
        let ran = std::process::Command::new("sh")
            .arg(&file)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(ran.status.success(), "{ran:?}");
        let back: Vec<&[u8]> = ran.stdout.split(|&b| b == 0).collect();
        assert_eq!(back.len(), texts.len() + 1, "one word each");
        for (text, back) in texts.iter().zip(back) {
            assert_eq!(text.as_bytes(), back);
        }
        // Nothing but the script is in the directory: no word ran `touch`.
        let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(entries.len(), 1, "{entries:?}");
    }

    /// serde_json would write DEL and the C1 controls raw: the JSON holds
    /// the terminal form, and reads back as it.
    #[test]
    fn json_holds_the_terminal_form() {
        for text in hostile_strings() {
            let outside = Outside::new(text.as_str());
            let json = serde_json::to_string(&outside).unwrap();
            assert!(
                !json.chars().any(|c| c.is_control()),
                "{text:?} -> {json:?}"
            );
            assert_eq!(
                serde_json::from_str::<String>(&json).unwrap(),
                outside.terminal().to_string()
            );
        }
        let path = serde_json::to_string(&OutsidePath::new("a/\x1b\u{9b}.in")).unwrap();
        assert_eq!(
            serde_json::from_str::<String>(&path).unwrap(),
            "a/\\x1b\\u{9b}.in"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_path_not_unicode_is_shown_lossily_and_escaped() {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStringExt;
        let path = OutsidePath::new(OsString::from_vec(b"s/\xff\x1b[2J.in".to_vec()));
        assert_eq!(path.terminal().to_string(), "s/\u{fffd}\\x1b[2J.in");
        assert_eq!(path.xml().to_string(), "s/\u{fffd}\\x1b[2J.in");
    }
}
