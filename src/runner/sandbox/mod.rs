//! Containment: what a submission (or a compiler) can reach while it runs,
//! and how all of its work is accounted.
//!
//! The layers, each set up by the spawner (`runner::spawner`) and each
//! checked when the spawner starts, as isolate's `isolate-check-environment`
//! does:
//!
//! - **Processes**: every run starts in a fresh PID namespace whose first
//!   process is a small init of the judge's. The submission cannot see,
//!   signal, stop or trace anything outside it, and when the run ends the
//!   kernel kills everything in the namespace, however it detached
//!   (`setsid`, double forks, new process groups).
//! - **Filesystem**: a fresh mount namespace whose root is a read-only
//!   tmpfs holding read-only binds of the system directories, the
//!   toolchain and the submission's own files, a fresh `/proc`, a minimal
//!   read-only `/dev`, and a scratch directory (the working directory, `/tmp`, `/dev/shm`) bounded
//!   in size and gone when the run ends. Case files, the user's home, the
//!   working tree and the build cache are not there at all: a toolchain in
//!   the home is shown with its own installation only, and a plan that
//!   would show the judge's own files is refused where every run starts
//!   ([`seen`]).
//! - **Network**: a network namespace with only its own loopback.
//! - **IPC**: a fresh IPC namespace per run, so no System V segment
//!   outlives it.
//! - **Privileges**: run as root, the judge runs submissions as an
//!   unprivileged user of their own (uid 60000 + job); run as a user, it
//!   makes the namespaces inside a user namespace of its own, where the
//!   submission has no capabilities. `no_new_privs` always.
//! - **Accounting** ([`cgroup`]): a cgroup per run counts the CPU time and
//!   peak memory of the whole tree and caps its memory and processes.
//!   Without one, the run's init reaps every process of the run and
//!   samples the CPU time of each ([`sampler`]).
//! - **Processes for LeetCode-style files** ([`seccomp`]): threads only, so
//!   that the per-board CPU clock sees all their work.
//!
//! Where the kernel refuses a layer, the judge goes on without it and says
//! so once in the report's header ([`Protections`]); `--sandbox require`
//! makes that an error, and `--sandbox off` (for debugging) runs
//! submissions as plain child processes.

#[cfg(target_os = "linux")]
pub mod cgroup;
#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "the submission's process between clone and exec, in the memory of its parent: raw calls that may not allocate"
)]
mod child;
#[cfg(target_os = "linux")]
pub(crate) mod failure;
#[cfg(target_os = "linux")]
mod init;
#[cfg(target_os = "linux")]
pub(crate) mod jail;
#[cfg(target_os = "linux")]
mod messages;
#[cfg(target_os = "linux")]
mod namespaces;
mod protections;
#[cfg(target_os = "linux")]
mod root;
#[cfg(target_os = "linux")]
pub(crate) mod running;
#[cfg(target_os = "linux")]
mod sampler;
#[cfg(target_os = "linux")]
pub mod seccomp;
mod seen;

pub use protections::*;
pub use seen::{ensure_unseen, may_show_whole, program_paths};

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// How much containment to insist on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Every protection the kernel allows; say which are missing.
    #[default]
    Auto,
    /// Every protection, or refuse to judge.
    Require,
    /// None: submissions run as plain child processes (for debugging).
    Off,
}

static MODE: OnceLock<Mode> = OnceLock::new();

/// Sets the containment for the rest of the process; the first call wins.
pub fn configure(mode: Mode) {
    let _ = MODE.set(mode);
}

/// The containment asked for.
pub fn mode() -> Mode {
    MODE.get().copied().unwrap_or_default()
}

/// What one run may see and use, beyond the system directories.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Host files and directories it sees read-only, at the same paths.
    #[serde(with = "paths")]
    pub read_only: Vec<PathBuf>,
    /// Host directories it may write (a compiler's build directory).
    #[serde(with = "paths")]
    pub writable: Vec<PathBuf>,
    /// Where it starts: a fresh scratch directory is mounted there, unless
    /// it is one of the writable directories.
    #[serde(with = "path")]
    pub cwd: PathBuf,
    /// Size of the scratch directory and of `/tmp`, each.
    pub scratch_kb: u64,
    /// Memory past which the kernel stops the run.
    pub memory_cap_kb: u64,
    /// Processes and threads at once.
    pub tasks: u32,
    /// Threads only: no other processes (LeetCode-style files).
    pub no_fork: bool,
}

/// What a run is asked to be, as the harness sends it to the spawner: its
/// command and what it may see.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SpawnRequest {
    /// An absolute path.
    pub program: Vec<u8>,
    /// Including `argv[0]`.
    pub argv: Vec<Vec<u8>>,
    /// The whole environment.
    pub env: Vec<(Vec<u8>, Vec<u8>)>,
    pub limits: crate::runner::sys::Rlimits,
    pub plan: Plan,
}

impl SpawnRequest {
    /// The command of `spec`, as the wire carries it.
    pub fn new(
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
pub struct ExitReport {
    /// As `wait` reports it.
    pub status: i32,
    /// CPU time of the tree: the cgroup's, else the rusage of every
    /// process waited for or, if more, what the run's init sampled of
    /// every process.
    pub cpu_ns: u64,
    /// The largest resident set among the processes waited for.
    pub max_rss_kb: u64,
    pub wall_ns: u64,
    pub oom_kills: u64,
    pub fork_refusals: u64,
    /// Memory its cgroup still held when it was over (files left in its
    /// `/tmp` and `/dev/shm`), in KB.
    #[serde(default)]
    pub held_kb: u64,
}

/// The kernel refused to exec the submission's program (not a program
/// for this machine, a script without `#!`, not readable by the user it
/// runs as): the program's fault, where other failures to start a run are
/// the judge's. Carried inside the `io::Error` a failed start becomes;
/// it reads as the system's error.
#[derive(Debug)]
pub struct ProgramRefused(pub std::io::Error);

impl fmt::Display for ProgramRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ProgramRefused {}

impl ProgramRefused {
    /// Whether `error` carries such a refusal.
    pub fn is_in(error: &std::io::Error) -> bool {
        error
            .get_ref()
            .is_some_and(|inner| inner.is::<ProgramRefused>())
    }
}

/// Where the judge's working directory is mounted as the scratch directory
/// when it cannot be used (it is `/`, or inside `/proc`, `/dev`, `/sys`).
pub const FALLBACK_CWD: &str = "/box";

/// The host directories every run sees read-only: the system's programs,
/// libraries and configuration. A symbolic link among them (`/lib` ->
/// `usr/lib`) is recreated as one.
pub const SYSTEM_PATHS: [&str; 8] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];

/// Whether `path` lies in the system directories every run sees.
pub fn is_system_path(path: &Path) -> bool {
    SYSTEM_PATHS.iter().any(|dir| path.starts_with(dir))
}

/// The working directory a run gets for the judge's `cwd`: the same path,
/// so that relative paths on a command line mean what they mean outside.
pub fn run_cwd(cwd: &Path) -> PathBuf {
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
pub fn environment(cwd: &Path, path_dirs: &[PathBuf]) -> Vec<(OsString, OsString)> {
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

/// Serde for paths and OS strings as raw bytes: they need not be UTF-8.
pub(crate) mod bytes {
    use std::ffi::{OsStr, OsString};

    use serde::{Deserialize as _, Deserializer, Serializer};

    /// The bytes of an OS string: on Unix its own; on Windows (where no
    /// spawner reads them) their UTF-8, as nearly as it can be made.
    #[cfg(unix)]
    pub fn of(value: &OsStr) -> Vec<u8> {
        use std::os::unix::ffi::OsStrExt as _;
        value.as_bytes().to_vec()
    }

    #[cfg(not(unix))]
    pub fn of(value: &OsStr) -> Vec<u8> {
        value.to_string_lossy().into_owned().into_bytes()
    }

    /// The OS string of bytes made by [`of`].
    #[cfg(unix)]
    pub fn to_os(bytes: Vec<u8>) -> OsString {
        use std::os::unix::ffi::OsStringExt as _;
        OsString::from_vec(bytes)
    }

    #[cfg(not(unix))]
    pub fn to_os(bytes: Vec<u8>) -> OsString {
        OsString::from(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub fn serialize<S: Serializer>(value: &OsString, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&of(value))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OsString, D::Error> {
        Ok(to_os(Vec::<u8>::deserialize(d)?))
    }
}

pub(crate) mod path {
    use std::path::{Path, PathBuf};

    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Path, s: S) -> Result<S::Ok, S::Error> {
        super::bytes::serialize(&value.as_os_str().to_owned(), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        super::bytes::deserialize(d).map(PathBuf::from)
    }
}

pub(crate) mod paths {
    use std::path::PathBuf;

    use serde::{Deserialize as _, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        let all: Vec<Vec<u8>> = value
            .iter()
            .map(|p| super::bytes::of(p.as_os_str()))
            .collect();
        s.collect_seq(all.iter().map(|b| serde_bytes(b)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
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
