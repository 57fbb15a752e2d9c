//! Where there is no spawner (it needs Linux: `SOCK_SEQPACKET` with
//! `SCM_RIGHTS`, namespaces, cgroups), runs start through the platform's
//! own backend ([`super::platform`]); this is the spawner's public face,
//! which has nothing to do. See `spawner.rs` for what a spawner is for.

use std::io;

use super::sandbox::{Containment, Protections};

pub(crate) fn let_idle_go() {}

/// Which protections hold: on macOS and Windows, the platform's (Seatbelt,
/// a Job Object); else no spawner says, `None`.
pub(crate) fn protections(containment: &Containment) -> Option<io::Result<Protections>> {
    #[cfg(any(target_os = "macos", windows))]
    return Some(Ok(super::platform::protections(containment.mode)));
    #[cfg(not(any(target_os = "macos", windows)))]
    None
}

/// Reads `message` as a spawner would: there is none to read it.
pub(crate) fn decode_any(_message: &[u8]) {}

pub(crate) fn serve() -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the spawner needs Linux",
    ))
}
