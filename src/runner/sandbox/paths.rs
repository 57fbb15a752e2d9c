//! Serde for a list of paths as raw bytes (see [`super::bytes`]).

use std::path::PathBuf;

use serde::{Deserialize as _, Deserializer, Serializer};

pub(crate) fn serialize<S: Serializer>(value: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
    let all: Vec<Vec<u8>> = value
        .iter()
        .map(|p| super::bytes::of(p.as_os_str()))
        .collect();
    s.collect_seq(all.iter().map(|b| serde_bytes(b)))
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
    Ok(Vec::<Vec<u8>>::deserialize(d)?
        .into_iter()
        .map(|b| PathBuf::from(super::bytes::to_os(b)))
        .collect())
}

/// Bytes that serialize as bytes, not as a sequence of numbers.
fn serde_bytes(bytes: &[u8]) -> impl serde::Serialize + '_ {
    struct Bytes<'a>(&'a [u8]);
    impl serde::Serialize for Bytes<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    Bytes(bytes)
}
