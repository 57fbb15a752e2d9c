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
//!   working tree and the build cache are not there at all.
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
#[cfg(target_os = "linux")]
mod root;
#[cfg(target_os = "linux")]
pub(crate) mod running;
#[cfg(target_os = "linux")]
mod sampler;
#[cfg(target_os = "linux")]
pub mod seccomp;

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

/// Whether one protection is in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layer {
    On,
    /// The kernel refused it, and why.
    Missing(String),
    /// `--sandbox off`.
    Off,
}

impl Layer {
    pub fn is_on(&self) -> bool {
        *self == Layer::On
    }

    /// What a report from an older judge says of a layer it did not know.
    fn unknown() -> Layer {
        Layer::Missing("not checked".into())
    }
}

/// Which protections a spawner could set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Protections {
    pub mode: Mode,
    /// A PID namespace per run.
    pub processes: Layer,
    /// A mount namespace per run with its own root.
    pub filesystem: Layer,
    /// A network namespace with loopback only.
    pub network: Layer,
    /// An IPC namespace per run.
    pub ipc: Layer,
    /// A cgroup per run, and which version.
    pub accounting: Layer,
    pub cgroup_version: Option<String>,
    /// Threads only for LeetCode-style files.
    pub no_fork: Layer,
    /// A limit on a run's tasks: its cgroup's, else `RLIMIT_NPROC` on a
    /// user that is the run's own.
    #[serde(default = "Layer::unknown")]
    pub tasks: Layer,
    /// No keyring of the judge's user within reach.
    #[serde(default = "Layer::unknown")]
    pub keyrings: Layer,
    /// The namespaces were made in a user namespace (the judge is not root).
    pub user_namespace: bool,
    /// On macOS, the Seatbelt profile every run starts under, in place of
    /// the layers above, which macOS does not have; `None` on Linux.
    #[serde(default)]
    pub seatbelt: Option<Layer>,
    /// On Windows, the Job Object every run starts in, in place of the
    /// layers above, which Windows does not have; `None` elsewhere.
    #[serde(default)]
    pub job_object: Option<Layer>,
}

impl Protections {
    /// Everything off, as `--sandbox off` asks.
    pub fn off() -> Protections {
        Protections {
            mode: Mode::Off,
            processes: Layer::Off,
            filesystem: Layer::Off,
            network: Layer::Off,
            ipc: Layer::Off,
            accounting: Layer::Off,
            cgroup_version: None,
            no_fork: Layer::Off,
            tasks: Layer::Off,
            keyrings: Layer::Off,
            user_namespace: false,
            seatbelt: None,
            // A job holds every run on Windows, sandbox or not: it is how
            // a run is killed whole and accounted.
            job_object: cfg!(windows).then_some(Layer::Off),
        }
    }

    /// What holds on macOS: a Seatbelt profile (`seatbelt`), and none of
    /// Linux's layers, which macOS lacks and the report names once.
    pub fn macos(mode: Mode, seatbelt: Layer) -> Protections {
        let none = || Layer::Missing("macOS has none".into());
        Protections {
            mode,
            processes: none(),
            filesystem: none(),
            network: none(),
            ipc: none(),
            accounting: none(),
            cgroup_version: None,
            no_fork: none(),
            tasks: none(),
            keyrings: none(),
            user_namespace: false,
            seatbelt: Some(seatbelt),
            job_object: None,
        }
    }

    /// What holds on Windows: a Job Object per run, and none of Linux's
    /// layers, which Windows lacks and the report names once.
    pub fn windows(mode: Mode) -> Protections {
        let none = || Layer::Missing("Windows has none".into());
        Protections {
            mode,
            processes: none(),
            filesystem: none(),
            network: none(),
            ipc: none(),
            accounting: none(),
            cgroup_version: None,
            no_fork: none(),
            tasks: none(),
            keyrings: none(),
            user_namespace: false,
            seatbelt: None,
            job_object: Some(Layer::On),
        }
    }

    /// Every layer this system could have, named as the report names it:
    /// on macOS the Seatbelt profile alone.
    pub fn layers(&self) -> Vec<(&'static str, &Layer)> {
        if let Some(seatbelt) = &self.seatbelt {
            return vec![("Seatbelt profile", seatbelt)];
        }
        if let Some(job) = &self.job_object {
            return vec![("Job Object", job)];
        }
        vec![
            ("PID namespace", &self.processes),
            ("mount namespace", &self.filesystem),
            ("network namespace", &self.network),
            ("IPC namespace", &self.ipc),
            ("cgroup accounting", &self.accounting),
            ("task limit", &self.tasks),
            ("process filter", &self.no_fork),
            ("keyring filter", &self.keyrings),
        ]
    }

    /// The layers the kernel refused, with why.
    pub fn missing(&self) -> Vec<(&'static str, &str)> {
        self.layers()
            .into_iter()
            .filter_map(|(name, layer)| match layer {
                Layer::Missing(why) => Some((name, why.as_str())),
                _ => None,
            })
            .collect()
    }

    /// How a run's CPU time and memory are measured, in a few words.
    pub fn accounting_summary(&self) -> String {
        if self.seatbelt.is_some() {
            return "rusage accounting of the processes waited for".into();
        }
        if self.job_object.is_some() {
            return WINDOWS_ACCOUNTING.into();
        }
        match (&self.accounting, &self.cgroup_version) {
            (Layer::On, Some(version)) => format!("{version} accounting of every process"),
            // The init of a run's PID namespace reaps every process of
            // the run, the killed ones too, and in the /proc of the run's
            // own root it samples them all, those the kernel reaps too.
            _ if self.processes.is_on() && self.filesystem.is_on() => {
                "rusage and sampled CPU time of every process".into()
            }
            _ if self.processes.is_on() => "rusage accounting of every process".into(),
            _ => "rusage accounting of the processes waited for".into(),
        }
    }
}

/// What a run's Seatbelt profile holds it to on macOS (`platform::seatbelt`).
pub const MACOS_SEATBELT: &str =
    "Seatbelt: no network, writes only in the run's scratch directory (and a compiler's build \
     directory)";

/// What macOS holds every run to beside its Seatbelt profile.
pub const MACOS_HOLDS: &str =
    "a process group per run, killed as a group; RLIMIT_CPU, RLIMIT_FSIZE and RLIMIT_NOFILE";

/// What macOS lacks, said once: no namespaces, cgroups or seccomp, so no
/// memory cap while a run runs (macOS refuses RLIMIT_AS), no task limit,
/// and no hold on a process that leaves its group.
pub const MACOS_LACKS: &str =
    "macOS has no namespaces, cgroups or seccomp: no memory limit while a run runs (macOS \
     refuses RLIMIT_AS; the peak is its rusage at the end), no task limit, no scratch size \
     limit, and a process that leaves its group outlives the run";

/// What a run's Job Object holds it to on Windows (`platform::windows`).
pub const WINDOWS_HOLDS: &str =
    "a Job Object per run: its processes killed as one, at most 256 at once (one for a \
     LeetCode-style file), its memory capped by the job";

/// How Windows measures a run: its job's accounting.
pub const WINDOWS_ACCOUNTING: &str =
    "CPU time and peak memory from the job's accounting of every process";

/// What Windows lacks, said once: a Job Object alone isolates nothing.
pub const WINDOWS_LACKS: &str =
    "a Job Object isolates nothing: no network or filesystem isolation (runs can reach the \
     network and read and write wherever you can) and no system-call filter";

/// A list as people write it: `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One line for the report's header: what is in force, and what is not.
impl fmt::Display for Protections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mode == Mode::Off {
            return write!(
                f,
                "off (--sandbox off): submissions run unconfined, {}",
                self.accounting_summary()
            );
        }
        if let Some(seatbelt) = &self.seatbelt {
            if seatbelt.is_on() {
                write!(f, "{MACOS_SEATBELT}; ")?;
            }
            write!(f, "{MACOS_HOLDS}; {}", self.accounting_summary())?;
            if let Layer::Missing(why) = seatbelt {
                write!(f, "; MISSING Seatbelt profile: {why}")?;
            }
            return write!(f, "; {MACOS_LACKS}");
        }
        if self.job_object.is_some() {
            return write!(f, "{WINDOWS_HOLDS}; {WINDOWS_ACCOUNTING}; {WINDOWS_LACKS}");
        }
        let namespaces: Vec<&str> = [
            ("PID", &self.processes),
            ("mount", &self.filesystem),
            ("network", &self.network),
            ("IPC", &self.ipc),
        ]
        .into_iter()
        .filter(|(_, layer)| layer.is_on())
        .map(|(name, _)| name)
        .collect();
        let mut parts = Vec::new();
        if !namespaces.is_empty() {
            parts.push(format!(
                "{} namespace{}{}",
                and_list(&namespaces),
                if namespaces.len() == 1 { "" } else { "s" },
                if self.user_namespace {
                    " (in a user namespace)"
                } else {
                    ""
                }
            ));
        }
        parts.push(self.accounting_summary());
        if self.tasks.is_on() && !self.accounting.is_on() {
            parts.push("a task limit per run (RLIMIT_NPROC on a user of the run's own)".into());
        }
        if self.no_fork.is_on() {
            parts.push("no child processes for LeetCode-style files".into());
        }
        if self.keyrings.is_on() {
            parts.push("no keyrings".into());
        }
        write!(f, "{}", parts.join("; "))?;
        for (name, why) in self.missing() {
            write!(f, "; MISSING {name}: {why}")?;
        }
        Ok(())
    }
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

/// What a run must see to start `program` (an absolute, resolved path):
/// nothing when it is a system program; else the file itself and, for a
/// program kept in a hidden directory of the user's home (a toolchain
/// manager's, such as `~/.pyenv` or `~/.cargo`), that whole directory, so
/// its shims find what they run. A `#!` script's interpreter is followed
/// the same way.
pub fn program_paths(program: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let add = |path: &Path, paths: &mut Vec<PathBuf>| {
        if is_system_path(path) || paths.iter().any(|p| path.starts_with(p)) {
            return;
        }
        let toolchain = home.and_then(|home| {
            let first = path.strip_prefix(home).ok()?.components().next()?;
            first
                .as_os_str()
                .to_str()
                .filter(|name| name.starts_with('.'))
                .map(|name| home.join(name))
        });
        paths.push(toolchain.unwrap_or_else(|| path.to_path_buf()));
    };
    let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    for path in [program, &real] {
        add(path, &mut paths);
    }
    if let Some(interpreter) = shebang(&real) {
        let resolved = std::fs::canonicalize(&interpreter).unwrap_or(interpreter);
        add(&resolved, &mut paths);
    }
    paths
}

/// The interpreter a `#!` line names (its first word).
fn shebang(path: &Path) -> Option<PathBuf> {
    use std::io::Read as _;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let text = std::str::from_utf8(line).ok()?;
    text.split_whitespace().next().map(PathBuf::from)
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

#[cfg(test)]
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
    fn a_toolchain_in_the_home_is_seen_whole_and_a_program_alone() {
        let home = Path::new("/home/ana");
        assert_eq!(
            program_paths(Path::new("/home/ana/.pyenv/shims/python3"), Some(home)),
            [PathBuf::from("/home/ana/.pyenv")]
        );
        assert_eq!(
            program_paths(Path::new("/home/ana/work/a.out"), Some(home)),
            [PathBuf::from("/home/ana/work/a.out")]
        );
        assert!(program_paths(Path::new("/usr/bin/python3"), Some(home)).is_empty());
    }

    #[test]
    fn the_working_directory_keeps_its_path_where_it_can() {
        assert_eq!(run_cwd(Path::new("/work/sol")), Path::new("/work/sol"));
        assert_eq!(run_cwd(Path::new("/")), Path::new(FALLBACK_CWD));
        assert_eq!(run_cwd(Path::new("/proc/1")), Path::new(FALLBACK_CWD));
    }

    #[test]
    fn the_header_names_what_is_missing_and_why() {
        let mut protections = Protections::off();
        assert!(protections.to_string().starts_with("off (--sandbox off)"));
        protections.mode = Mode::Auto;
        protections.processes = Layer::On;
        protections.filesystem = Layer::On;
        protections.network = Layer::Missing("Operation not permitted".into());
        protections.ipc = Layer::On;
        protections.accounting = Layer::On;
        protections.cgroup_version = Some("cgroup v1".into());
        protections.no_fork = Layer::On;
        protections.tasks = Layer::On;
        protections.keyrings = Layer::On;
        assert_eq!(
            protections.to_string(),
            "PID, mount and IPC namespaces; cgroup v1 accounting of every process; no child \
             processes for LeetCode-style files; no keyrings; MISSING network namespace: \
             Operation not permitted"
        );
        protections.accounting = Layer::Missing("no permission".into());
        protections.cgroup_version = None;
        assert_eq!(
            protections.to_string(),
            "PID, mount and IPC namespaces; rusage and sampled CPU time of every process; a \
             task limit per run (RLIMIT_NPROC on a user of the run's own); no child processes \
             for LeetCode-style files; no keyrings; MISSING network namespace: Operation not \
             permitted; MISSING cgroup accounting: no permission"
        );
        // Without a root of its own, the init has no /proc of the run's
        // namespace to sample: what it reaps is all it counts.
        protections.filesystem = Layer::Missing("no tmpfs".into());
        assert!(protections
            .to_string()
            .starts_with("PID and IPC namespaces; rusage accounting of every process; "));
    }

    #[test]
    fn on_macos_the_header_names_the_profile_and_what_macos_lacks_once() {
        let protections = Protections::macos(Mode::Auto, Layer::On);
        let said = protections.to_string();
        assert!(said.starts_with("Seatbelt: no network, writes only in the run's scratch"));
        assert!(said.contains("RLIMIT_CPU, RLIMIT_FSIZE and RLIMIT_NOFILE"));
        assert_eq!(said.matches("macOS has no").count(), 1);
        assert!(!said.contains("MISSING"));
        assert!(protections.missing().is_empty());
        assert_eq!(protections.layers().len(), 1);
        let without = Protections::macos(Mode::Auto, Layer::Missing("no sandbox-exec".into()));
        assert_eq!(without.missing(), [("Seatbelt profile", "no sandbox-exec")]);
        let said = without.to_string();
        assert!(!said.contains("Seatbelt: no network"));
        assert!(said.contains("MISSING Seatbelt profile: no sandbox-exec"));
    }

    #[test]
    fn on_windows_the_header_names_the_job_object_and_what_it_lacks_once() {
        let protections = Protections::windows(Mode::Auto);
        let said = protections.to_string();
        assert!(said.starts_with("a Job Object per run: its processes killed as one"));
        assert!(said.contains("at most 256 at once"));
        assert!(said.contains("CPU time and peak memory from the job's accounting"));
        assert_eq!(said.matches("isolates nothing").count(), 1);
        assert!(said.contains("network"));
        assert!(said.contains("system-call filter"));
        assert!(!said.contains("MISSING"));
        assert!(!said.contains("namespace"));
        assert!(protections.missing().is_empty(), "--sandbox require holds");
        assert_eq!(protections.layers(), [("Job Object", &Layer::On)]);
        // The number said is the one the job is given.
        assert!(said.contains(&format!("at most {} at once", crate::runner::TASKS)));
    }
}
