//! One door for files: every file the judge did not write is read through
//! [`read`] (a regular file, with one link, bounded, fenced to the
//! directory the user named), and every file it writes where the user
//! works goes through [`mod@write`] (no link followed below the directory the
//! user named, never over a file of the user's, created new and renamed
//! into place, under a name made safe by [`name`]). A command gets these
//! protections by using the door, not by copying them.
//!
//! The OS side lives in `unix.rs` and `windows.rs`, one backend each,
//! chosen at compile time; Windows keeps what std lets it keep (see
//! `windows.rs`).

pub(crate) mod name;
pub(crate) mod read;
pub(crate) mod write;

#[cfg(unix)]
#[path = "unix.rs"]
mod os;
#[cfg(windows)]
#[path = "windows.rs"]
mod os;

pub(crate) use os::{Dir, Pending};
pub(crate) use read::{
    fence_of, open_regular, read_lines, read_text, read_whole, Fence, LineCapped, OutsideLinks,
    MAX_WHOLE_BYTES,
};
pub(crate) use write::{replace, write_new, Kind};

#[cfg(test)]
pub(crate) mod tests;
