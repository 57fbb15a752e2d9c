//! How much a run's pipes move at a time: the one size the watchdog's
//! buffers (`streams`) and its Windows threads (`threads`) share.

/// Bytes moved per read or write.
pub(super) const CHUNK: usize = 64 * 1024;
