//! What a run may see and use ([`Plan`]), how much containment to insist on
//! ([`Mode`]), the request the spawner gets ([`SpawnRequest`]) and what it
//! reports back ([`ExitReport`]), with the paths and environment a run
//! starts with.

use super::bytes;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// How much containment to insist on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Mode {
    /// Every protection the kernel allows; say which are missing.
    #[default]
    Auto,
    /// Every protection, or refuse to judge.
    Require,
    /// None: submissions run as plain child processes (for debugging).
    Off,
}

/// How runs are contained: decided once from the command line and handed
/// down with every run. The default (tests) forks runs plainly, mode Auto.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Containment {
    pub(crate) mode: Mode,
    /// This program's binary, started as `sudoku-judge spawner` to start
    /// runs (Linux); `None`: the harness forks them itself.
    pub(crate) spawner: Option<PathBuf>,
}

/// What one run may see and use, beyond the system directories.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Plan {
    /// Host files and directories it sees read-only, at the same paths.
    #[serde(with = "super::paths")]
    pub(crate) read_only: Vec<PathBuf>,
    /// Host directories it may write (a compiler's build directory).
    #[serde(with = "super::paths")]
    pub(crate) writable: Vec<PathBuf>,
    /// Where it starts: a fresh scratch directory is mounted there, unless
    /// it is one of the writable directories.
    #[serde(with = "super::path")]
    pub(crate) cwd: PathBuf,
    /// Size of the scratch directory and of `/tmp`, each.
    pub(crate) scratch_kb: u64,
    /// Memory past which the kernel stops the run.
    pub(crate) memory_cap_kb: u64,
    /// Processes and threads at once.
    pub(crate) tasks: u32,
    /// Threads only: no other processes (LeetCode-style files).
    pub(crate) no_fork: bool,
}

/// What a run is asked to be, as the harness sends it to the spawner: its
/// command and what it may see.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) struct SpawnRequest {
    /// An absolute path.
    pub(crate) program: Vec<u8>,
    /// Including `argv[0]`.
    pub(crate) argv: Vec<Vec<u8>>,
    /// The whole environment.
    pub(crate) env: Vec<(Vec<u8>, Vec<u8>)>,
    pub(crate) limits: crate::runner::sys::Rlimits,
    pub(crate) plan: Plan,
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
impl SpawnRequest {
    /// The command of `spec`, as the wire carries it.
    pub(crate) fn new(
        program: &OsStr,
        argv: &[OsString],
        env: &[(OsString, OsString)],
        limits: crate::runner::sys::Rlimits,
        plan: Plan,
    ) -> SpawnRequest {
        let wire = |s: &OsStr| bytes::of(s);
        SpawnRequest {
            program: wire(program),
            argv: argv.iter().map(|a| wire(a)).collect(),
            env: env.iter().map(|(k, v)| (wire(k), wire(v))).collect(),
            limits,
            plan,
        }
    }
}

/// How a run ended, all counted, as the spawner reports it.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) struct ExitReport {
    /// As `wait` reports it.
    pub(crate) status: i32,
    /// CPU time of the tree: the cgroup's, else the rusage of every
    /// process waited for or, if more, what the run's init sampled of
    /// every process.
    pub(crate) cpu_ns: u64,
    /// The largest resident set among the processes waited for.
    pub(crate) max_rss_kb: u64,
    pub(crate) wall_ns: u64,
    pub(crate) oom_kills: u64,
    pub(crate) fork_refusals: u64,
    /// Memory its cgroup still held when it was over (files left in its
    /// `/tmp` and `/dev/shm`), in KB.
    #[serde(default)]
    pub(crate) held_kb: u64,
}

/// The kernel refused to exec the submission's program (not a program
/// for this machine, a script without `#!`, not readable by the user it
/// runs as): the program's fault, where other failures to start a run are
/// the judge's. Carried inside the `io::Error` a failed start becomes;
/// it reads as the system's error.
#[derive(Debug)]
pub(crate) struct ProgramRefused(pub(crate) std::io::Error);

impl fmt::Display for ProgramRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ProgramRefused {}

impl ProgramRefused {
    /// Whether `error` carries such a refusal.
    pub(crate) fn is_in(error: &std::io::Error) -> bool {
        error
            .get_ref()
            .is_some_and(|inner| inner.is::<ProgramRefused>())
    }
}

/// Where the judge's working directory is mounted as the scratch directory
/// when it cannot be used (it is `/`, or inside `/proc`, `/dev`, `/sys`).
pub(crate) const FALLBACK_CWD: &str = "/box";

/// The host directories every run sees read-only: the system's programs,
/// libraries and configuration. A symbolic link among them (`/lib` ->
/// `usr/lib`) is recreated as one.
pub(crate) const SYSTEM_PATHS: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// Whether `path` lies in the system directories every run sees.
pub(crate) fn is_system_path(path: &Path) -> bool {
    SYSTEM_PATHS.iter().any(|dir| path.starts_with(dir))
}

/// The working directory a run gets for the judge's `cwd`: the same path,
/// so that relative paths on a command line mean what they mean outside.
pub(crate) fn run_cwd(cwd: &Path) -> PathBuf {
    let unusable = cwd == Path::new("/")
        || !cwd.is_absolute()
        || ["/proc", "/dev", "/sys"].iter().any(|d| cwd.starts_with(d));
    if unusable {
        PathBuf::from(FALLBACK_CWD)
    } else {
        cwd.to_path_buf()
    }
}

/// The environment every run gets, whatever the judge's own: as on a
/// judge, nothing of the user's shell leaks in.
pub(crate) fn environment(cwd: &Path, path_dirs: &[PathBuf]) -> Vec<(OsString, OsString)> {
    let mut path: OsString = OsString::new();
    for dir in path_dirs {
        path.push(dir.as_os_str());
        path.push(":");
    }
    path.push("/usr/local/bin:/usr/bin:/bin");
    vec![
        ("PATH".into(), path),
        ("HOME".into(), cwd.as_os_str().to_owned()),
        ("TMPDIR".into(), "/tmp".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("LC_ALL".into(), "C.UTF-8".into()),
    ]
}

// These tests run Unix programs or read Unix paths.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_plan_survives_the_trip_to_the_spawner() {
        use std::os::unix::ffi::OsStringExt as _;
        let odd = PathBuf::from(OsString::from_vec(b"/tmp/caf\xe9/a.out".to_vec()));
        let plan = Plan {
            read_only: vec![odd.clone(), "/opt/x".into()],
            writable: vec!["/root/.cache/b".into()],
            cwd: odd,
            scratch_kb: 1024,
            memory_cap_kb: 65536,
            tasks: 64,
            no_fork: true,
        };
        let text = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<Plan>(&text).unwrap(), plan);
    }

    #[test]
    fn the_working_directory_keeps_its_path_where_it_can() {
        assert_eq!(run_cwd(Path::new("/work/sol")), Path::new("/work/sol"));
        assert_eq!(run_cwd(Path::new("/")), Path::new(FALLBACK_CWD));
        assert_eq!(run_cwd(Path::new("/proc/1")), Path::new(FALLBACK_CWD));
    }
}
