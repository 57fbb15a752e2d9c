//! Running a compiler: in the sandbox, held to a time and memory limit, its
//! message kept for the report.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use super::Toolchain;
use crate::runner::{process, sandbox, spawner, TASKS};

/// A compiler is held to this much CPU time, twice that in wall time, and
/// this much memory: a build that hangs or balloons (a huge template
/// instantiation, `#include "/dev/zero"`) is a compile error saying which
/// limit it passed.
const COMPILE_CPU: Duration = Duration::from_secs(30);
const COMPILE_MEMORY_KB: u64 = 1 << 20;

/// Runs a compiler in the sandbox, in `dir`: `Ok(Err(message))` when it
/// rejected the source or passed a limit. `native`: the compiler is a
/// native program (gcc, rustc), not a JVM's, which reserves far more
/// address space than it uses.
///
/// The watchdog sees the memory of the compiler's whole tree only through
/// a cgroup. Without one (a user without a delegated cgroup), the kernel
/// holds each of its processes to the limits instead, `RLIMIT_CPU` and,
/// for a native compiler, `RLIMIT_AS`; a compiler stopped there is told
/// apart by what its run used, which its init counted.
pub(super) fn run_compiler(
    argv: &[String],
    dir: &Path,
    toolchain: &Toolchain,
    env: &[(&str, &str)],
    native: bool,
) -> anyhow::Result<Result<(), String>> {
    let tool = PathBuf::from(&argv[0]);
    let mut args: Vec<OsString> = vec![tool.file_name().unwrap_or_default().into()];
    args.extend(argv[1..].iter().map(OsString::from));
    let plan = sandbox::Plan {
        read_only: toolchain.read_only.clone(),
        writable: vec![dir.to_path_buf()],
        cwd: dir.to_path_buf(),
        scratch_kb: 256 << 10,
        memory_cap_kb: COMPILE_MEMORY_KB + (64 << 10),
        tasks: TASKS,
        no_fork: false,
    };
    let mut spec = process::Spec::new(tool.clone(), args, plan);
    spec.env = sandbox::environment(dir, &toolchain.path_dirs);
    spec.env.extend(
        env.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    spec.kill_after = COMPILE_CPU * 2;
    spec.kill_after_cpu = Some(COMPILE_CPU);
    spec.kill_above_memory_kb = Some(COMPILE_MEMORY_KB);
    let accounted = matches!(
        spawner::protections(),
        Some(Ok(protections)) if protections.accounting.is_on()
    );
    if !accounted {
        spec.cpu_limit = Some(COMPILE_CPU);
        if native {
            spec.address_space_limit = Some((COMPILE_MEMORY_KB + (64 << 10)) << 10);
        }
    }
    spec.stdout_limit = 1 << 20;
    spec.stderr_tail = 64 << 10;
    let (finished, stdout) = process::run_captured(spec, b"")
        .with_context(|| format!("failed to start {}", tool.display()))?;
    if finished.killed.is_none() && finished.exit == process::Exit::Code(0) {
        return Ok(Ok(()));
    }
    let mut message = String::from_utf8_lossy(&finished.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&stdout));
    let killed = match finished.killed {
        None if !accounted && finished.cpu >= COMPILE_CPU => Some(process::Kill::Cpu),
        None if !accounted && finished.memory_kb >= COMPILE_MEMORY_KB => {
            Some(process::Kill::Memory)
        }
        killed => killed,
    };
    let limit = match killed {
        Some(process::Kill::Cpu) => Some(format!(
            "the compiler was stopped after {} s of CPU time, the compile time limit",
            COMPILE_CPU.as_secs()
        )),
        Some(process::Kill::Wall) => Some(format!(
            "the compiler was stopped after {} s, the compile time limit",
            (COMPILE_CPU * 2).as_secs()
        )),
        Some(process::Kill::Memory) => Some(format!(
            "the compiler was stopped at {} MB of memory, the compile memory limit",
            COMPILE_MEMORY_KB >> 10
        )),
        Some(process::Kill::Output) => Some("the compiler printed more than 1 MB".to_string()),
        _ => None,
    };
    if let Some(limit) = limit {
        message = format!("{}\n{limit}", message.trim_end());
    }
    Ok(Err(message))
}
