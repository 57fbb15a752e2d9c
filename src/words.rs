//! How numbers read in what people see: a count with its noun, a time, a
//! size. Every message of the judge says them through these, so `1 case`,
//! `4.20 ms` and `2.1 MB` read the same in a verdict's reason, the table
//! and every command's summary.

use std::time::Duration;

/// The word for `n` things: `one` for exactly one, `many` otherwise
/// (`was`/`were`, `puzzle`/`puzzles`).
pub(crate) fn one_or_many<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// A count with its noun: `1 case`, `2 cases`, `1 guess`, `3 guesses`.
/// Nouns ending in `s` take `es`.
pub(crate) fn plural(n: impl Into<Count>, noun: &str) -> String {
    let n = n.into().0;
    if n == 1 {
        format!("{n} {noun}")
    } else if noun.ends_with('s') {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// A number of things, from whichever unsigned type counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Count(pub(crate) u64);

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count(n)
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Count {
        Count(n as u64)
    }
}

impl From<u32> for Count {
    fn from(n: u32) -> Count {
        Count(u64::from(n))
    }
}

/// Milliseconds with precision that suits the size: `0.042 ms`, `4.20 ms`,
/// `123 ms`. What the table and its comparisons show.
pub fn format_ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 1.0 {
        format!("{ms:.3} ms")
    } else if ms < 100.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// Whole milliseconds, `1000 ms`: a limit, or a time set beside one.
pub fn whole_ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

/// Seconds with `places` decimals, `12.3 s`: how long a whole run took.
pub(crate) fn seconds(d: Duration, places: usize) -> String {
    format!("{:.places$} s", d.as_secs_f64())
}

/// Kilobytes as people read memory: `812 KB`, `2.1 MB`.
pub(crate) fn format_kb(kb: u64) -> String {
    if kb < 1024 {
        format!("{kb} KB")
    } else {
        format_mb(kb)
    }
}

/// Kilobytes always in megabytes, `64.0 MB`: a memory limit and a peak set
/// beside it in one unit.
pub(crate) fn format_mb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(plural(1usize, "case"), "1 case");
        assert_eq!(plural(0usize, "case"), "0 cases");
        assert_eq!(plural(2u64, "guess"), "2 guesses");
        assert_eq!(plural(1u64, "guess"), "1 guess");
        assert_eq!(one_or_many(3, "was", "were"), "were");
        assert_eq!(one_or_many(1, "was", "were"), "was");
    }

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(format_ms(Duration::from_micros(42)), "0.042 ms");
        assert_eq!(format_ms(Duration::from_micros(4200)), "4.20 ms");
        assert_eq!(format_ms(Duration::from_millis(1234)), "1234 ms");
        assert_eq!(whole_ms(Duration::from_micros(1_499_600)), "1500 ms");
        assert_eq!(seconds(Duration::from_millis(12_345), 1), "12.3 s");
        assert_eq!(seconds(Duration::from_millis(1_320), 2), "1.32 s");
        assert_eq!(format_kb(812), "812 KB");
        assert_eq!(format_kb(2150), "2.1 MB");
        assert_eq!(format_mb(65_536), "64.0 MB");
    }
}
