//! Names the judge makes from outside text (a case's id, as `--keep`
//! names a directory after it): one name of the directory it goes in,
//! hidden from nothing, with no control character, and short enough for
//! the file system.

use sha2::{Digest as _, Sha256};

/// The longest name the judge makes, in bytes: most file systems take 255,
/// and a name may still get a number (`-2`) or be written under a
/// temporary name beside it.
pub(crate) const MAX_NAME_BYTES: usize = 200;

/// `text` as one safe name: `/` and `\` become `__` (the name stays one
/// level), a control character, `%` and (on Windows) `<>:"|?*` become
/// `%XX`, a leading `.` gets a `_` before it (nothing the judge makes is
/// hidden), and a name past [`MAX_NAME_BYTES`] is cut and ended with a
/// hash of the whole text, so two long names that differ stay distinct.
pub(crate) fn safe(text: &str) -> String {
    let mut name = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '/' | '\\' => name.push_str("__"),
            c if c.is_control() || c == '%' || reserved(c) => {
                let mut utf8 = [0; 4];
                for byte in c.encode_utf8(&mut utf8).bytes() {
                    name.push_str(&format!("%{byte:02X}"));
                }
            }
            c => name.push(c),
        }
    }
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    if name.len() <= MAX_NAME_BYTES {
        return name;
    }
    let hash: String = Sha256::digest(text.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    // `~` and 16 hex digits end it.
    let mut cut = MAX_NAME_BYTES - 17;
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    name.truncate(cut);
    format!("{name}~{hash}")
}

/// A character Windows does not allow in a name.
fn reserved(c: char) -> bool {
    cfg!(windows) && matches!(c, '<' | '>' | ':' | '"' | '|' | '?' | '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_stays_one_level_and_shows_no_control_character() {
        assert_eq!(safe("leetcode37/example1"), "leetcode37__example1");
        assert_eq!(safe(".hidden"), "_.hidden");
        assert_eq!(safe(""), "_");
        assert_eq!(safe("a\x1b[31mred\nb"), "a%1B[31mred%0Ab");
        // `%` is escaped too, so no two texts make one name.
        assert_ne!(safe("a\n"), safe("a%0A"));
        assert_eq!(safe("100%"), "100%25");
        assert_eq!(safe("Grüße"), "Grüße");
    }

    #[test]
    fn a_long_name_is_cut_with_a_hash_and_stays_distinct() {
        let long = "x".repeat(400);
        let a = safe(&format!("{long}a"));
        let b = safe(&format!("{long}b"));
        assert!(a.len() <= MAX_NAME_BYTES, "{}", a.len());
        assert_ne!(a, b);
        assert!(a.starts_with("xxxx") && a.contains('~'), "{a}");
        // Cut on a character boundary.
        let wide = safe(&"é".repeat(300));
        assert!(wide.len() <= MAX_NAME_BYTES);
        // A name within the limit is kept whole.
        assert_eq!(
            safe(&"y".repeat(MAX_NAME_BYTES)),
            "y".repeat(MAX_NAME_BYTES)
        );
    }
}
