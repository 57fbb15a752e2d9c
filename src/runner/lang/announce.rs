//! What a build says to the user while it works (`compiling Sol.kt ...`),
//! once a step has been silent for a while: shared by the build and the
//! toolchains' own caches, below both.

use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Says what a build is doing, to the user.
pub(crate) type Announce = Arc<dyn Fn(&str) + Send + Sync>;

/// How long a step of a build may be silent.
const SILENT: Duration = Duration::from_secs(1);

/// Says `message` through `announce` if the returned guard lives longer
/// than [`SILENT`].
pub(super) fn announce_after(
    announce: Option<&Announce>,
    message: String,
) -> Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)> {
    let announce = Arc::clone(announce?);
    let (done, wait) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(SILENT) {
            announce(&message);
        }
    });
    Some((done, thread))
}

/// Ends what [`announce_after`] started.
pub(super) fn announced(guard: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>) {
    if let Some((done, thread)) = guard {
        drop(done);
        let _ = thread.join();
    }
}
