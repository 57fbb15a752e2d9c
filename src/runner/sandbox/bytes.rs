//! Serde for paths and OS strings as raw bytes: they need not be UTF-8.

use std::ffi::{OsStr, OsString};

use serde::{Deserialize as _, Deserializer, Serializer};

/// The bytes of an OS string: on Unix its own; on Windows (where no
/// spawner reads them) their UTF-8, as nearly as it can be made.
#[cfg(unix)]
pub(crate) fn of(value: &OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt as _;
    value.as_bytes().to_vec()
}

#[cfg(not(unix))]
pub(crate) fn of(value: &OsStr) -> Vec<u8> {
    value.to_string_lossy().into_owned().into_bytes()
}

/// The OS string of bytes made by [`of`].
#[cfg(unix)]
pub(crate) fn to_os(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt as _;
    OsString::from_vec(bytes)
}

#[cfg(not(unix))]
pub(crate) fn to_os(bytes: Vec<u8>) -> OsString {
    OsString::from(String::from_utf8_lossy(&bytes).into_owned())
}

pub(crate) fn serialize<S: Serializer>(value: &OsString, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(&of(value))
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OsString, D::Error> {
    Ok(to_os(Vec::<u8>::deserialize(d)?))
}
