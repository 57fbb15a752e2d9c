//! What every Unix has: the process is forked here, in a process group
//! of its own, with its limits set between fork and exec, and waited for
//! with `wait4`, whose rusage gives its CPU time and peak memory. Killing
//! it kills its whole group. The fallback on Linux where no spawner starts
//! runs (tests), and the base of a macOS backend.

use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::launch::{Reaped, Spawn};
use crate::runner::sys::{kill_group, limit_between_fork_and_exec, pidfd_open, try_wait4};

/// A process forked by the judge itself.
pub(crate) struct Direct {
    /// Readable at its exit, where the kernel has pidfds.
    pidfd: Option<OwnedFd>,
    process: std::process::Child,
}

impl Direct {
    /// Forks and execs `launch`'s program with `stdio` (stdin, stdout,
    /// stderr, and a driver's answers as fd 3 when there are four).
    pub(super) fn spawn(launch: &Spawn<'_>, stdio: &[&OwnedFd]) -> io::Result<Direct> {
        let [stdin, stdout, stderr, rest @ ..] = stdio else {
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        };
        let mut command = Command::new(launch.program);
        if let Some((first, rest)) = launch.argv.split_first() {
            command.arg0(first).args(rest);
        }
        command
            .env_clear()
            .envs(launch.env.iter().map(|(k, v)| (k, v)));
        if launch.plan.cwd.is_dir() {
            command.current_dir(&launch.plan.cwd);
        }
        command
            .stdin(Stdio::from(stdin.try_clone()?))
            .stdout(Stdio::from(stdout.try_clone()?))
            .stderr(Stdio::from(stderr.try_clone()?))
            .process_group(0);
        let answers = rest.first().map(|write| write.as_raw_fd());
        limit_between_fork_and_exec(&mut command, answers, launch.limits);
        let process = command.spawn()?;
        Ok(Direct {
            pidfd: pidfd_open(process.id() as i32),
            process,
        })
    }

    pub(super) fn pid(&self) -> i32 {
        self.process.id() as i32
    }

    /// Becomes readable when the process exits, where there are pidfds.
    pub(super) fn exit_fd(&self) -> Option<RawFd> {
        self.pidfd.as_ref().map(|fd| fd.as_raw_fd())
    }

    /// Kills its process group: the process and everything it started.
    pub(super) fn kill(&self) {
        // The group is ours until the process is reaped.
        kill_group(self.pid());
    }

    /// Its end and what the kernel accounted of it, once it has exited.
    pub(super) fn try_exit(&self) -> io::Result<Option<Reaped>> {
        Ok(try_wait4(self.pid())?.map(|(status, usage)| Reaped {
            status,
            cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
            max_rss_kb: max_rss_kb(usage.ru_maxrss, MAX_RSS_IN_BYTES),
            held_kb: 0,
            wall: None,
            oom_kills: 0,
            fork_refusals: 0,
        }))
    }

    /// Kills it, with its group, and reaps it: the harness stopped early.
    pub(super) fn kill_and_wait(mut self) {
        self.kill();
        let _ = self.process.wait();
    }
}

/// Whether this system's `ru_maxrss` counts bytes: Apple's kernels do,
/// Linux and the BSDs count KiB.
const MAX_RSS_IN_BYTES: bool = cfg!(target_vendor = "apple");

/// `ru_maxrss` in KiB, from a kernel that reports it in bytes or in KiB
/// (rounded up: a run that touched any memory used some).
pub(super) fn max_rss_kb(max_rss: libc::c_long, in_bytes: bool) -> u64 {
    let raw = u64::try_from(max_rss).unwrap_or(0);
    if in_bytes {
        raw.div_ceil(1024)
    } else {
        raw
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::sandbox::Plan;
    use crate::runner::sys::Rlimits;
    use std::io::Read as _;
    use std::path::Path;

    /// Runs `script` with `sh` under `limits` in `dir`, as the macOS backend
    /// runs a submission (without its profile): its stdout and its end.
    fn run(script: &str, limits: Rlimits, dir: &Path) -> (String, Reaped, i32) {
        let argv = ["sh".into(), "-c".into(), script.into()];
        let plan = Plan {
            cwd: dir.to_path_buf(),
            ..Plan::default()
        };
        let launch = Spawn {
            program: Path::new("/bin/sh"),
            argv: &argv,
            env: &[],
            plan: &plan,
            limits,
            containment: &Default::default(),
        };
        let (read, write) = nix::unistd::pipe().unwrap();
        let null = OwnedFd::from(std::fs::File::open("/dev/null").unwrap());
        let direct = Direct::spawn(&launch, &[&null, &write, &write]).unwrap();
        drop(write);
        let mut out = String::new();
        std::fs::File::from(read).read_to_string(&mut out).unwrap();
        // Ended but not reaped, it keeps its group.
        let group = nix::unistd::getpgid(Some(nix::unistd::Pid::from_raw(direct.pid())));
        let reaped = loop {
            if let Some(reaped) = direct.try_exit().unwrap() {
                break reaped;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let group = group.map_or(0, |g| g.as_raw());
        assert_eq!(
            group,
            direct.pid(),
            "a run leads a process group of its own"
        );
        (out, reaped, group)
    }

    #[test]
    fn the_limits_a_run_shares_with_macos_hold_between_fork_and_exec() {
        let dir = tempfile::tempdir().unwrap();
        let limits = Rlimits {
            cpu_seconds: Some(7),
            file_size: Some(4096),
            open_files: Some(32),
            ..Rlimits::default()
        };
        let (out, reaped, _) = run(
            "ulimit -t; ulimit -n; exec head -c 65536 /dev/zero > big",
            limits,
            dir.path(),
        );
        assert_eq!(out, "7\n32\n");
        // Past RLIMIT_FSIZE the kernel stops the writer with SIGXFSZ, and
        // the file holds no more than the limit.
        assert!(libc::WIFSIGNALED(reaped.status), "{}", reaped.status);
        assert_eq!(libc::WTERMSIG(reaped.status), libc::SIGXFSZ);
        assert_eq!(
            std::fs::metadata(dir.path().join("big")).unwrap().len(),
            4096
        );
        assert!(reaped.max_rss_kb > 0);
    }

    #[test]
    fn peak_memory_is_in_kib_whichever_unit_the_kernel_counts() {
        // Linux: KiB as given.
        assert_eq!(max_rss_kb(2048, false), 2048);
        // macOS: bytes, rounded up to whole KiB.
        assert_eq!(max_rss_kb(2048 * 1024, true), 2048);
        assert_eq!(max_rss_kb(2048 * 1024 + 1, true), 2049);
        assert_eq!(max_rss_kb(0, true), 0);
        assert_eq!(max_rss_kb(-1, false), 0);
        // This machine's own unit.
        assert_eq!(MAX_RSS_IN_BYTES, cfg!(target_os = "macos"));
    }
}
