//! The macOS backend: a run forked as on any Unix ([`super::posix`]: its own
//! process group, killed as a group; `wait4`'s rusage; `RLIMIT_CPU`,
//! `RLIMIT_FSIZE`), with `RLIMIT_NOFILE` too, in a scratch directory of its
//! own, under a Seatbelt profile ([`super::seatbelt`]) applied by
//! `/usr/bin/sandbox-exec`: no network, no write outside its scratch and
//! its plan's writable directories, reads of the system, Homebrew and its
//! plan only.
//!
//! macOS has no namespaces, cgroups or seccomp: nothing caps a run's
//! memory while it runs (the kernel refuses `RLIMIT_AS`, so it is not
//! set; the peak is `wait4`'s, at the end), nothing bounds its scratch
//! directory or its processes, and a process that leaves its group
//! (`setsid`) outlives the run. The report's header says so
//! ([`sandbox::Protections::macos`]).

use std::ffi::OsString;
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use super::launch::{Reaped, Spawn};
use super::posix::Direct;
use super::seatbelt::{self, Access};
use crate::runner::sandbox::{Layer, Mode, Plan, Protections};
use crate::runner::sys::Rlimits;

/// The program that applies a Seatbelt profile and execs the run.
pub(crate) const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// Descriptors a run may have open at once: a judge's own allow 256 or
/// fewer, and compilers and runtimes need well under that.
const OPEN_FILES: u64 = 256;

/// What holds on this Mac, for the report's header.
pub(crate) fn protections(mode: Mode) -> Protections {
    if mode == Mode::Off {
        return Protections::off();
    }
    let seatbelt = if Path::new(SANDBOX_EXEC).is_file() {
        Layer::On
    } else {
        Layer::Missing(format!("no {SANDBOX_EXEC}"))
    };
    Protections::macos(mode, seatbelt)
}

/// A run under Seatbelt, with the scratch directory it owns: removed when
/// the run is let go.
pub(crate) struct Seatbelted {
    pub(super) direct: Direct,
    _scratch: tempfile::TempDir,
}

/// Starts `launch` under a Seatbelt profile, or `None` where there is to
/// be none (`--sandbox off`, or no `sandbox-exec`, which the header says):
/// the run then starts as on any Unix.
pub(super) fn start(launch: &Spawn<'_>, stdio: &[&OwnedFd]) -> Option<io::Result<Seatbelted>> {
    if !protections(launch.containment.mode)
        .seatbelt
        .as_ref()
        .is_some_and(Layer::is_on)
    {
        return None;
    }
    Some(start_seatbelted(launch, stdio))
}

fn start_seatbelted(launch: &Spawn<'_>, stdio: &[&OwnedFd]) -> io::Result<Seatbelted> {
    let scratch = tempfile::Builder::new()
        .prefix("sudoku-judge-run-")
        .tempdir()?;
    // Seatbelt matches resolved paths: /var is /private/var.
    let scratch_path = std::fs::canonicalize(scratch.path())?;
    let writable = canonical(&launch.plan.writable);
    let mut readable = canonical(&launch.plan.read_only);
    readable.extend(canonical(&[launch.program.to_path_buf()]));
    let text = seatbelt::profile(&Access {
        scratch: &scratch_path,
        writable: &writable,
        readable: &readable,
        no_fork: launch.plan.no_fork,
    })?;
    // sandbox-exec execs the program by its path: argv[0] is that path.
    let mut argv: Vec<OsString> = vec![
        "sandbox-exec".into(),
        "-p".into(),
        text.into(),
        "--".into(),
        launch.program.as_os_str().to_owned(),
    ];
    argv.extend(launch.argv.iter().skip(1).cloned());
    // Home and temporary files in the scratch directory: the only place,
    // with a compiler's build directory, that it may write.
    let env: Vec<(OsString, OsString)> = launch
        .env
        .iter()
        .filter(|(key, _)| key != "HOME" && key != "TMPDIR")
        .cloned()
        .chain([
            ("HOME".into(), scratch_path.clone().into_os_string()),
            ("TMPDIR".into(), scratch_path.clone().into_os_string()),
        ])
        .collect();
    // It starts where the plan says when it may write there (a compiler
    // in its build directory); else in its scratch, as on Linux, where the
    // directory it starts in is a fresh, empty one.
    let cwd = if writable.iter().any(|dir| launch.plan.cwd.starts_with(dir))
        || launch
            .plan
            .writable
            .iter()
            .any(|dir| launch.plan.cwd.starts_with(dir))
    {
        launch.plan.cwd.clone()
    } else {
        scratch_path.clone()
    };
    let plan = Plan {
        cwd,
        ..launch.plan.clone()
    };
    let direct = Direct::spawn(
        &Spawn {
            program: Path::new(SANDBOX_EXEC),
            argv: &argv,
            env: &env,
            plan: &plan,
            limits: limits(launch.limits),
            containment: launch.containment,
        },
        stdio,
    )?;
    Ok(Seatbelted {
        direct,
        _scratch: scratch,
    })
}

/// The limits a run gets on macOS: `RLIMIT_AS` is refused there (setting
/// it fails, and the run with it), `RLIMIT_NPROC` counts every process of
/// the user, not the run's; `RLIMIT_NOFILE` is added.
fn limits(asked: Rlimits) -> Rlimits {
    Rlimits {
        address_space: None,
        tasks: None,
        open_files: Some(OPEN_FILES),
        ..asked
    }
}

/// `paths` resolved, each as it is when it cannot be.
fn canonical(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect()
}

impl Seatbelted {
    pub(super) fn pid(&self) -> i32 {
        self.direct.pid()
    }

    pub(super) fn exit_fd(&self) -> Option<RawFd> {
        self.direct.exit_fd()
    }

    pub(super) fn kill(&self) {
        self.direct.kill();
    }

    pub(super) fn try_exit(&self) -> io::Result<Option<Reaped>> {
        self.direct.try_exit()
    }

    /// Kills it with its group, reaps it, and removes its scratch.
    pub(super) fn kill_and_wait(self) {
        self.direct.kill_and_wait();
    }
}
