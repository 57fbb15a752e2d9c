//! Serde for a path as raw bytes (see [`super::bytes`]).

use std::path::{Path, PathBuf};

use serde::{Deserializer, Serializer};

pub(crate) fn serialize<S: Serializer>(value: &Path, s: S) -> Result<S::Ok, S::Error> {
    super::bytes::serialize(&value.as_os_str().to_owned(), s)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
    super::bytes::deserialize(d).map(PathBuf::from)
}
