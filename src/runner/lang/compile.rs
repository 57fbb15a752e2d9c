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
use super::language::Toolchain;
use crate::runner::process::{Conversation, Input, Kill, Meter};
use crate::runner::{process, sandbox, spawner, TASKS};

/// A compiler is held to this much CPU time unless the user says
/// otherwise ([`compile_cpu`]), twice that in wall time, and this much
/// memory: a build that hangs or balloons (a huge template instantiation,
/// `#include "/dev/zero"`) is a compile error saying which limit it passed.
const COMPILE_CPU: Duration = Duration::from_secs(30);
const COMPILE_MEMORY_KB: u64 = 1 << 20;

/// The environment variable that sets the compile time limit, in whole
/// seconds of CPU time.
const TIME_VARIABLE: &str = "SUDOKU_JUDGE_COMPILE_TIME";

/// The CPU time a compile, and every question put to a toolchain, is held
/// to: [`TIME_VARIABLE`]'s seconds, else [`COMPILE_CPU`]. A slow machine
/// may need more for a JVM's compilers; less stops a runaway compile
/// sooner.
pub(super) fn compile_cpu() -> anyhow::Result<Duration> {
    compile_time(std::env::var_os(TIME_VARIABLE).as_deref())
}

/// The compile time limit [`TIME_VARIABLE`] says, or the default.
fn compile_time(value: Option<&std::ffi::OsStr>) -> anyhow::Result<Duration> {
    let Some(value) = value else {
        return Ok(COMPILE_CPU);
    };
    let text = value.to_string_lossy();
    match text.trim().parse::<u64>() {
        Ok(seconds @ 1..=3600) => Ok(Duration::from_secs(seconds)),
        _ => anyhow::bail!(
            "{TIME_VARIABLE} is `{text}`, which is not a compile time limit; give whole seconds \
             of CPU time from 1 to 3600, like 30"
        ),
    }
}

/// How many times a toolchain's program starved of CPU by a busy machine
/// is run again before the machine is given up as too busy.
const STARVED_RETRIES: u32 = 2;

/// Whether only a busy machine stopped a toolchain's program held to
/// `cpu`: the watchdog stopped it at its wall-clock cap, under its CPU
/// time, and it waited a quarter of its wall time or more for a CPU, as a
/// run the cap stopped is judged (`Run::starved`). A compiler that sleeps
/// or blocks waits for no CPU: it passed the compile time limit.
fn starved(finished: &process::Finished, cpu: Duration) -> bool {
    finished.killed == Some(Kill::Wall)
        && finished.cpu < cpu
        && finished
            .cpu_wait
            .is_some_and(|waited| waited * 4 >= finished.wall)
}

/// What a toolchain's program was run for, in the words of the error that
/// says the machine was too busy for it.
struct Doing<'a> {
    /// `compile`, or `ask cc --version`.
    what: &'a str,
    /// Who the cap stopped: `the compiler`, `it`.
    who: &'a str,
    /// What the user may do: `compile again`.
    again: &'a str,
}

/// Runs a toolchain's program held to `cpu` of CPU time, as the machine
/// allows, the one way for a compile and a question: `attempt` runs it
/// once, its wall-clock cap `cpu` times the factor it is given (2 at
/// first). A run a busy machine starved until the cap stopped it
/// ([`starved`]) is not the program's fault: it is run again, at most
/// [`STARVED_RETRIES`] times, with a cap that fits the share of a CPU it
/// got (`Limits::for_share`); still starved, the error says the machine
/// was too busy for it, with the figures. Gives the last run, what
/// `attempt` gave beside it, and the factor it ran under.
fn patiently<T>(
    cpu: Duration,
    doing: &Doing<'_>,
    mut attempt: impl FnMut(u32) -> anyhow::Result<(process::Finished, T)>,
) -> anyhow::Result<(process::Finished, T, u32)> {
    let mut wall_factor = 2;
    for tries in 1.. {
        let (finished, beside) = attempt(wall_factor)?;
        if !starved(&finished, cpu) {
            return Ok((finished, beside, wall_factor));
        }
        if tries > STARVED_RETRIES {
            anyhow::bail!(
                "the machine was too busy to {}: {tries} times {} was stopped at its \
                 wall-clock cap ({} s) with {} of CPU time used, under the {} s limit, having \
                 waited {} for a CPU; {} on a quieter machine, or with fewer --jobs",
                doing.what,
                doing.who,
                (cpu * wall_factor).as_secs(),
                crate::words::format_ms(finished.cpu),
                cpu.as_secs(),
                crate::words::format_ms(finished.cpu_wait.unwrap_or_default()),
                doing.again,
            );
        }
        let limits = crate::case::Limits {
            time: cpu,
            memory_kb: 0,
            wall_factor,
        };
        wall_factor = limits.for_share(finished.cpu, finished.wall).wall_factor;
    }
    unreachable!("the loop returns by its last round")
}

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
) -> (process::ProcessSpec, bool) {
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
    let mut spec = process::ProcessSpec::new(tool, args, plan, toolchain.containment.clone());
    spec.env = sandbox::environment(cwd, &toolchain.path_dirs);
    spec.env.extend(
        env.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    spec.kill_after = cpu * 2;
    spec.kill_after_cpu = Some(cpu);
    spec.kill_above_memory_kb = Some(COMPILE_MEMORY_KB);
    let accounted = matches!(
        spawner::protections(&toolchain.containment),
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
/// address space than it uses. `cpu`: its CPU time, [`compile_cpu`] but
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
    // cap stopped it is not the source's fault: it is run again, and still
    // starved, it is the harness's failure (the machine's), never a
    // compile error.
    let doing = Doing {
        what: "compile",
        who: "the compiler",
        again: "compile again",
    };
    let (finished, (mut compiling, accounted), wall_factor) =
        patiently(cpu, &doing, |wall_factor| {
            let writable = vec![dir.to_path_buf()];
            let (mut spec, accounted) = contained(argv, dir, writable, toolchain, env, native, cpu);
            spec.kill_after = cpu * wall_factor;
            // One byte over the cap, so that a file stopped at the limit
            // is also seen to pass it, whatever the compiler makes of the
            // error.
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
            Ok((finished, (compiling, accounted)))
        })?;
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
    pub(crate) success: bool,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

/// Asks one of a toolchain's programs something (its version, where it
/// lives): `program args`, run as a compile is, in the sandbox with the
/// compile's limits, seeing the system and what `toolchain` shows, with
/// `env` on top of the fixed environment; starved of CPU by a busy
/// machine, asked again as a compile is run again ([`patiently`]), and
/// still starved, an error: a question the machine left unanswered never
/// makes a toolchain's version unknown. Its working directory is a
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
    let cwd = crate::runner::working_dir(&toolchain.containment);
    let cpu = compile_cpu()?;
    let what = format!("ask `{}`", argv.join(" "));
    let doing = Doing {
        what: &what,
        who: "it",
        again: "try again",
    };
    let (finished, stdout, _) = patiently(cpu, &doing, |wall_factor| {
        let (mut spec, _) = contained(&argv, &cwd, Vec::new(), toolchain, env, false, cpu);
        spec.kill_after = cpu * wall_factor;
        process::run_captured(spec, b"")
            .with_context(|| format!("failed to start {}", program.display()))
    })?;
    Ok(Answer {
        success: finished.killed.is_none() && finished.exit == process::Exit::Code(0),
        stdout,
        stderr: finished.stderr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(
        killed: Option<Kill>,
        cpu_ms: u64,
        wall_ms: u64,
        waited_ms: Option<u64>,
    ) -> process::Finished {
        let ms = Duration::from_millis;
        process::Finished {
            exit: process::Exit::Signal(9),
            wall: ms(wall_ms),
            cpu: ms(cpu_ms),
            memory_kb: 0,
            stderr: Vec::new(),
            killed,
            fork_refusals: 0,
            cpu_wait: waited_ms.map(ms),
        }
    }

    const COMPILE: Doing<'static> = Doing {
        what: "compile",
        who: "the compiler",
        again: "compile again",
    };

    /// A compiler the wall-clock cap stopped under its CPU time is the
    /// machine's doing when it waited a quarter of that time or more for a
    /// CPU; one that slept or blocked there, or used its CPU time, or was
    /// stopped for another limit, is not.
    #[test]
    fn a_compiler_is_starved_only_when_its_wait_for_a_cpu_explains_the_cap() {
        let cpu = Duration::from_secs(2);
        let wall = Some(Kill::Wall);
        assert!(starved(&finished(wall, 30, 4000, Some(3900)), cpu));
        assert!(starved(&finished(wall, 900, 4000, Some(1000)), cpu));
        // Asleep or blocked: no wait for a CPU.
        assert!(!starved(&finished(wall, 5, 4000, Some(20)), cpu));
        assert!(!starved(&finished(wall, 900, 4000, Some(999)), cpu));
        // Its CPU time used up: the compile time limit, however busy.
        assert!(!starved(&finished(wall, 2000, 4000, Some(3900)), cpu));
        // Stopped at another limit, or not stopped.
        assert!(!starved(
            &finished(Some(Kill::Cpu), 30, 4000, Some(3900)),
            cpu
        ));
        assert!(!starved(
            &finished(Some(Kill::Memory), 30, 4000, Some(3900)),
            cpu
        ));
        assert!(!starved(&finished(None, 30, 4000, Some(3900)), cpu));
        // Where the kernel does not say how long it waited, none is.
        assert!(!starved(&finished(wall, 30, 4000, None), cpu));
    }

    /// Starved, a compile is run again under a wall-clock cap that fits
    /// the share of a CPU it got; starved every time, it fails as the
    /// machine's fault with the figures, never as the compiler's.
    #[test]
    fn a_compile_starved_every_time_fails_as_the_machines_fault() {
        let cpu = Duration::from_secs(2);
        let mut factors = Vec::new();
        let error = patiently(cpu, &COMPILE, |factor| {
            factors.push(factor);
            let wall = 2000 * u64::from(factor);
            Ok((finished(Some(Kill::Wall), 40, wall, Some(wall - 50)), ()))
        })
        .unwrap_err()
        .to_string();
        assert_eq!(factors, [2, 20, 20]);
        assert!(
            error.starts_with("the machine was too busy to compile: 3 times the compiler was stopped at its wall-clock cap (40 s)"),
            "{error}"
        );
        assert!(
            error.contains("40.00 ms of CPU time used, under the 2 s limit"),
            "{error}"
        );
        assert!(
            error.contains("for a CPU; compile again on a quieter machine"),
            "{error}"
        );

        // Starved once, then given a CPU: the second run is the compile.
        let mut tries = 0;
        let (done, (), factor) = patiently(cpu, &COMPILE, |factor| {
            tries += 1;
            let wall = 2000 * u64::from(factor);
            let run = if tries == 1 {
                finished(Some(Kill::Wall), 800, wall, Some(3000))
            } else {
                finished(None, 700, 1500, Some(800))
            };
            Ok((run, ()))
        })
        .unwrap();
        assert_eq!((tries, factor, done.killed), (2, 10, None));
    }

    /// A compiler that hangs without using a CPU (it sleeps) is a compile
    /// that passed its time limit, said as it always was: never the
    /// machine's fault, however busy the machine, and it is run once.
    #[cfg(unix)]
    #[test]
    fn a_compiler_that_sleeps_past_its_cap_timed_out() {
        let dir = tempfile::tempdir().unwrap();
        let sh = Toolchain {
            programs: vec![PathBuf::from("/bin/sh")],
            read_only: Vec::new(),
            path_dirs: Vec::new(),
            caches: &[],
            containment: Default::default(),
        };
        let argv: Vec<String> = ["/bin/sh", "-c", "echo started >>tries; sleep 60"]
            .map(String::from)
            .to_vec();
        let cap = SizeCap {
            before: 0,
            bytes: 1 << 20,
        };
        let said = run_compiler(
            &argv,
            dir.path(),
            &sh,
            &[],
            true,
            Duration::from_secs(1),
            cap,
        )
        .unwrap()
        .unwrap_err();
        assert!(
            said.ends_with("the compiler was stopped after 2 s, the compile time limit"),
            "{said}"
        );
        let tries = std::fs::read_to_string(dir.path().join("tries")).unwrap();
        assert_eq!(tries.lines().count(), 1, "run once");
    }

    #[test]
    fn the_compile_time_limit_is_whole_seconds_the_user_may_set() {
        let time = |text: &str| compile_time(Some(std::ffi::OsStr::new(text)));
        assert_eq!(compile_time(None).unwrap(), Duration::from_secs(30));
        assert_eq!(time("5").unwrap(), Duration::from_secs(5));
        assert_eq!(time(" 120 ").unwrap(), Duration::from_secs(120));
        for bad in ["0", "1.5", "30s", "", "3601"] {
            let error = time(bad).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "SUDOKU_JUDGE_COMPILE_TIME is `{bad}`, which is not a compile time limit; \
                     give whole seconds of CPU time from 1 to 3600, like 30"
                )
            );
        }
    }
}
