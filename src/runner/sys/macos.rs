//! The calls only macOS has: what the kernel counts of a running process,
//! by pid (`proc_pid_rusage`), which stands in for Linux's per-process CPU
//! clock and `/proc`.

use std::sync::OnceLock;
use std::time::Duration;

/// What the kernel has counted of a running process so far.
pub(crate) struct ProcessUsage {
    /// User and system time of all its threads.
    pub(crate) cpu: Duration,
    /// Its resident memory now, in KiB.
    pub(crate) resident_kb: u64,
}

/// [`ProcessUsage`] of `pid`; `None` once it is gone, or when it is not
/// this user's to look at.
pub(crate) fn process_usage(pid: i32) -> Option<ProcessUsage> {
    // SAFETY: rusage_info_v4 is plain data; all-zero is a valid value.
    let mut info: libc::rusage_info_v4 = unsafe { std::mem::zeroed() };
    // SAFETY: the kernel writes one rusage_info_v4, the flavour asked for,
    // into the live local it is given.
    let done = unsafe {
        libc::proc_pid_rusage(
            pid,
            libc::RUSAGE_INFO_V4,
            (&mut info as *mut libc::rusage_info_v4).cast::<libc::rusage_info_t>(),
        )
    };
    if done != 0 {
        return None;
    }
    let ticks = info.ri_user_time.saturating_add(info.ri_system_time);
    Some(ProcessUsage {
        cpu: Duration::from_nanos(ticks_to_ns(ticks)),
        resident_kb: info.ri_resident_size / 1024,
    })
}

/// `ticks` of Mach absolute time in nanoseconds: `proc_pid_rusage` counts
/// CPU time in them, which are nanoseconds on Intel Macs and not on Apple
/// silicon (125/3 ns there).
fn ticks_to_ns(ticks: u64) -> u64 {
    static TIMEBASE: OnceLock<(u64, u64)> = OnceLock::new();
    let &(numer, denom) = TIMEBASE.get_or_init(timebase);
    u64::try_from(u128::from(ticks) * u128::from(numer) / u128::from(denom)).unwrap_or(u64::MAX)
}

/// Mach absolute time's ratio to nanoseconds, as (numerator, denominator).
#[expect(
    deprecated,
    reason = "libc's Mach bindings point to the mach2 crate, not worth a dependency for one call"
)]
fn timebase() -> (u64, u64) {
    let mut base = libc::mach_timebase_info { numer: 0, denom: 0 };
    // SAFETY: the kernel fills the live local it is given.
    let done = unsafe { libc::mach_timebase_info(&mut base) };
    if done == 0 && base.numer > 0 && base.denom > 0 {
        (u64::from(base.numer), u64::from(base.denom))
    } else {
        (1, 1)
    }
}
