//! Running a toolchain's programs: a compiler, in the sandbox, held to a
//! time, memory and size limit, its message kept for the report; and every
//! question put to a toolchain (its version, where it lives), run the same
//! way, whoever named it: the user's `PATH`, their configuration, or a
//! suite they allowed.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::cache::{size_words, usage, BUILD_VARIABLE};
use super::Toolchain;
use crate::runner::process::{Conversation, Input, Kill, Meter};
use crate::runner::{process, sandbox, spawner, TASKS};

/// A compiler is held to this much CPU time, twice that in wall time, and
/// this much memory: a build that hangs or balloons (a huge template
/// instantiation, `#include "/dev/zero"`) is a compile error saying which
/// limit it passed.
pub(super) const COMPILE_CPU: Duration = Duration::from_secs(30);
const COMPILE_MEMORY_KB: u64 = 1 << 20;

/// What a build directory may grow by while its compiler runs, and how
/// to say it passed that.
#[derive(Clone, Copy, Debug)]
pub(super) struct SizeCap {
    /// The directory's size before the compile.
    pub(super) before: u64,
    /// What the compile may add to it.
    pub(super) bytes: u64,
}

impl SizeCap {
    /// The compile error of a build that wrote more than it may.
    pub(super) fn exceeded(&self) -> String {
        format!(
            "the build wrote more than {} to its directory, the build size limit ({} or \
             `[cache] build_max` in config.toml sets it), and was removed",
            size_words(self.bytes),
            BUILD_VARIABLE
        )
    }
}

/// A compiler's exchange: no input, its stdout kept, and its build
/// directory looked at as it grows. The look takes longer the more files
/// there are, so it comes less often then: at most a fifth of the time is
/// spent looking.
struct Compiling<'a> {
    stdout: Vec<u8>,
    dir: &'a Path,
    cap: SizeCap,
    next_look: Instant,
    over: bool,
}

impl Conversation for Compiling<'_> {
    fn input(&mut self, _: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        Ok(Input::End)
    }

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        self.stdout.extend_from_slice(chunk);
    }

    fn check(&mut self, _: &mut Meter) -> Option<Kill> {
        let now = Instant::now();
        if now < self.next_look {
            return None;
        }
        let bound = self.cap.before.saturating_add(self.cap.bytes);
        let used = usage(self.dir, Some(bound));
        let took = now.elapsed();
        self.next_look = Instant::now() + (took * 4).max(Duration::from_millis(5));
        if used > bound {
            self.over = true;
            // Its output is what it made too much of.
            return Some(Kill::Output);
        }
        None
    }
}

/// The process of a toolchain's program in the compile sandbox: `argv`
/// (the program first) run in `cwd`, seeing the system and `toolchain`'s
/// files, writing only `writable`, with `env` on top of the fixed
/// environment, held to `cpu` of CPU time (twice that in wall time) and
/// the compile's memory. Also whether the run's cgroup accounts for it.
///
/// The watchdog sees the memory of the compiler's whole tree only through
/// a cgroup. Without one (a user without a delegated cgroup), the kernel
/// holds each of its processes to the limits instead, `RLIMIT_CPU` and,
/// for a native compiler, `RLIMIT_AS`; a compiler stopped there is told
/// apart by what its run used, which its init counted.
fn contained(
    argv: &[String],
    cwd: &Path,
    writable: Vec<PathBuf>,
    toolchain: &Toolchain,
    env: &[(&str, &str)],
    native: bool,
    cpu: Duration,
) -> (process::Spec, bool) {
    let tool = PathBuf::from(&argv[0]);
    let mut args: Vec<OsString> = vec![tool.file_name().unwrap_or_default().into()];
    args.extend(argv[1..].iter().map(OsString::from));
    let plan = sandbox::Plan {
        read_only: toolchain.read_only.clone(),
        writable,
        cwd: cwd.to_path_buf(),
        scratch_kb: 256 << 10,
        memory_cap_kb: COMPILE_MEMORY_KB + (64 << 10),
        tasks: TASKS,
        no_fork: false,
    };
    let mut spec = process::Spec::new(tool, args, plan);
    spec.env = sandbox::environment(cwd, &toolchain.path_dirs);
    spec.env.extend(
        env.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    spec.kill_after = cpu * 2;
    spec.kill_after_cpu = Some(cpu);
    spec.kill_above_memory_kb = Some(COMPILE_MEMORY_KB);
    let accounted = matches!(
        spawner::protections(),
        Some(Ok(protections)) if protections.accounting.is_on()
    );
    if !accounted {
        spec.cpu_limit = Some(cpu);
        if native {
            spec.address_space_limit = Some((COMPILE_MEMORY_KB + (64 << 10)) << 10);
        }
    }
    spec.stdout_limit = 1 << 20;
    spec.stderr_tail = 64 << 10;
    (spec, accounted)
}

/// Runs a compiler in the sandbox, in `dir`: `Ok(Err(message))` when it
/// rejected the source or passed a limit. `native`: the compiler is a
/// native program (gcc, rustc), not a JVM's, which reserves far more
/// address space than it uses. `cpu`: its CPU time, [`COMPILE_CPU`] but
/// for a compiler's cache of its own, which takes longer to fill (see
/// `caches`). `cap`: what it may write into `dir`; no file it writes may
/// be larger (`RLIMIT_FSIZE`), and the directory is watched as it
/// compiles, the compiler stopped once it passes the cap.
pub(super) fn run_compiler(
    argv: &[String],
    dir: &Path,
    toolchain: &Toolchain,
    env: &[(&str, &str)],
    native: bool,
    cpu: Duration,
    cap: SizeCap,
) -> anyhow::Result<Result<(), String>> {
    // A compile that a busy machine starved of CPU until its wall-clock
    // cap stopped it is not the source's fault: it is run again with a cap
    // that fits the share of a CPU it got, and still starved, it is the
    // harness's failure (the machine's), never a compile error.
    let mut wall_factor = 2;
    let mut tries = 0;
    let (finished, mut compiling, accounted) = loop {
        let writable = vec![dir.to_path_buf()];
        let (mut spec, accounted) = contained(argv, dir, writable, toolchain, env, native, cpu);
        spec.kill_after = cpu * wall_factor;
        // One byte over the cap, so that a file stopped at the limit is
        // also seen to pass it, whatever the compiler makes of the error.
        spec.file_size_limit = Some(cap.bytes.saturating_add(1));
        let tool = spec.program.clone();
        let mut compiling = Compiling {
            stdout: Vec::new(),
            dir,
            cap,
            next_look: Instant::now(),
            over: false,
        };
        let finished = process::run(spec, &mut compiling)
            .with_context(|| format!("failed to start {}", tool.display()))?;
        let starved = finished.killed == Some(process::Kill::Wall)
            && finished.cpu < cpu
            && finished
                .cpu_wait
                .is_some_and(|waited| waited * 4 >= finished.wall);
        if !starved {
            break (finished, compiling, accounted);
        }
        tries += 1;
        if tries > 2 {
            anyhow::bail!(
                "the machine was too busy to compile: {tries} times the compiler was stopped at \
                 its wall-clock cap ({} s) with {} of CPU time used, under the {} s limit, \
                 having waited {} for a CPU; compile again on a quieter machine, or with fewer \
                 --jobs",
                (cpu * wall_factor).as_secs(),
                crate::words::format_ms(finished.cpu),
                cpu.as_secs(),
                crate::words::format_ms(finished.cpu_wait.unwrap_or_default()),
            );
        }
        let limits = crate::case::Limits {
            time: cpu,
            memory_kb: 0,
            wall_factor,
        };
        wall_factor = limits.for_share(finished.cpu, finished.wall).wall_factor;
    };
    let stdout = std::mem::take(&mut compiling.stdout);
    let mut message = String::from_utf8_lossy(&finished.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&stdout));
    // RLIMIT_FSIZE's signal: Windows has no such limit.
    #[cfg(unix)]
    let past_file_size = finished.exit == process::Exit::Signal(libc::SIGXFSZ);
    #[cfg(not(unix))]
    let past_file_size = false;
    let too_big = compiling.over || past_file_size;
    if too_big {
        return Ok(Err(format!("{}\n{}", message.trim_end(), cap.exceeded())
            .trim_start()
            .to_string()));
    }
    if finished.killed.is_none() && finished.exit == process::Exit::Code(0) {
        return Ok(Ok(()));
    }
    let killed = match finished.killed {
        None if !accounted && finished.cpu >= cpu => Some(process::Kill::Cpu),
        None if !accounted && finished.memory_kb >= COMPILE_MEMORY_KB => {
            Some(process::Kill::Memory)
        }
        killed => killed,
    };
    if let Some(limit) = killed.and_then(|kill| limit_passed(kill, cpu, wall_factor)) {
        message = format!("{}\n{limit}", message.trim_end());
    }
    Ok(Err(message))
}

/// What a compile stopped by the watchdog passed, in words.
fn limit_passed(kill: process::Kill, cpu: Duration, wall_factor: u32) -> Option<String> {
    match kill {
        process::Kill::Cpu => Some(format!(
            "the compiler was stopped after {} s of CPU time, the compile time limit",
            cpu.as_secs()
        )),
        process::Kill::Wall => Some(format!(
            "the compiler was stopped after {} s, the compile time limit",
            (cpu * wall_factor).as_secs()
        )),
        process::Kill::Memory => Some(format!(
            "the compiler was stopped at {} MB of memory, the compile memory limit",
            COMPILE_MEMORY_KB >> 10
        )),
        process::Kill::Output => Some("the compiler printed more than 1 MB".to_string()),
        _ => None,
    }
}

/// What a toolchain's program said when asked something.
pub(super) struct Answer {
    /// It exited with 0, within the limits.
    pub success: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Asks one of a toolchain's programs something (its version, where it
/// lives): `program args`, run as a compile is, in the sandbox with the
/// compile's limits, seeing the system and what `toolchain` shows, with
/// `env` on top of the fixed environment. Its working directory is a
/// scratch one at the judge's own path, gone when it ends: a question
/// writes nothing that stays. The program may be a suite's, or a name a
/// user's `PATH` resolves: either way it gets no more than a compile.
pub(super) fn ask(
    program: &Path,
    args: &[&str],
    toolchain: &Toolchain,
    env: &[(&str, &str)],
) -> anyhow::Result<Answer> {
    let argv: Vec<String> = std::iter::once(program.display().to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .collect();
    let cwd = crate::runner::working_dir();
    let (spec, _) = contained(&argv, &cwd, Vec::new(), toolchain, env, false, COMPILE_CPU);
    let (finished, stdout) = process::run_captured(spec, b"")
        .with_context(|| format!("failed to start {}", program.display()))?;
    Ok(Answer {
        success: finished.killed.is_none() && finished.exit == process::Exit::Code(0),
        stdout,
        stderr: finished.stderr,
    })
}
