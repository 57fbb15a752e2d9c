//! The user's interruption (Ctrl-C, SIGTERM, SIGHUP) and `test --watch`'s
//! restart: one flag that every running [`super::watchdog::run`] looks at in its
//! watchdog's rounds, set from a signal handler or another thread.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP), or 0.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// Asks every running and future [`super::watchdog::run`] to kill its process at once, the
/// judge having received `signal`; for a signal handler. Safe to call from
/// any thread.
pub(crate) fn interrupt(signal: i32) {
    // A signal wins over a restart asked for before it.
    let _ = INTERRUPTED.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
        (now == 0 || now == RESTART).then_some(signal)
    });
}

/// Stands in [`INTERRUPTED`] for "stop this run to start it again" (`test
/// --watch`, when a file changes during a run): no signal has this number.
const RESTART: i32 = -1;

/// Stops every running [`super::watchdog::run`] as [`interrupt`] does, to judge again;
/// [`resume`] clears it. A signal's interruption is kept.
pub(crate) fn restart() {
    let _ = INTERRUPTED.compare_exchange(0, RESTART, Ordering::SeqCst, Ordering::SeqCst);
}

/// Whether [`restart`] stopped the runs (and no signal since).
pub(crate) fn restarting() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) == RESTART
}

/// Lets runs go on after a [`restart`]; a signal's interruption stays.
pub(crate) fn resume() {
    let _ = INTERRUPTED.compare_exchange(RESTART, 0, Ordering::SeqCst, Ordering::SeqCst);
}

/// Whether [`interrupt`] (or [`restart`]) was called.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) != 0
}

/// The signal [`interrupt`] was called with, if it was.
pub(crate) fn interrupting_signal() -> Option<i32> {
    Some(INTERRUPTED.load(Ordering::SeqCst)).filter(|&s| s > 0)
}
