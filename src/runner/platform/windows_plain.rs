//! What the Windows backend makes of Windows' own figures, as plain
//! arithmetic on plain numbers: an exit code that is an exception's
//! `NTSTATUS`, a Job Object's accounting (100 ns units, bytes), the
//! limits the job is given, the command line `CreateProcessW` takes and
//! the environment block it reads. None of it calls Windows, so it is
//! compiled and tested on every OS: the Windows calls around it cannot be
//! run here (Wine reads a job's CPU time and peak memory as 0).

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use super::launch::Exit;

/// How a process that ended with `code` ended: an exception's
/// `NTSTATUS` (severity "error", the top two bits set: 0xC0000005 and
/// the like), or a code the program chose. A C `exit(-1)` is 0xFFFFFFFF,
/// whose top bits are set too, but no exception has it: it stays a code.
pub(crate) fn exit_of(code: u32) -> Exit {
    if code >> 30 == 0b11 && code != u32::MAX {
        Exit::Exception(code)
    } else {
        Exit::Code(code as i32)
    }
}

/// The exceptions a submission dies of, by name, with what they usually
/// mean, e.g. `0xC0000005 (access violation: a bad pointer or index)`:
/// as the Unix signals are said.
pub(crate) fn describe_exception(code: u32) -> String {
    let meaning = match code {
        0xC000_0005 => "access violation: a bad pointer or index",
        0xC000_00FD => "stack overflow",
        0xC000_0094 => "integer division by zero",
        0xC000_0095 => "integer overflow",
        0xC000_008C => "array bounds exceeded",
        0xC000_008E => "floating-point division by zero",
        0xC000_001D => "illegal instruction",
        0xC000_0096 => "privileged instruction",
        0xC000_0017 | 0xC000_012D => "out of memory",
        0xC000_0409 => "aborted: a failed check or an uncaught exception (fast fail)",
        0xC000_0135 => "a DLL it needs was not found",
        0xC000_0139 => "an entry point it needs was not found in a DLL",
        0xC000_0142 => "a DLL failed to initialise",
        0xC000_013A => "interrupted (Ctrl-C)",
        0xC000_0374 => "heap corruption",
        0xC000_0602 => "aborted: an unhandled exception (fail fast)",
        _ => return format!("exception {code:#010X}"),
    };
    format!("{code:#010X} ({meaning})")
}

/// A Job Object's CPU time: its user and kernel times, which Windows
/// counts in 100 ns units (negative never, but the fields are signed).
pub(crate) fn cpu_of(user_100ns: i64, kernel_100ns: i64) -> Duration {
    let ticks = |t: i64| u64::try_from(t).unwrap_or(0);
    let total = ticks(user_100ns).saturating_add(ticks(kernel_100ns));
    Duration::from_secs(total / 10_000_000) + Duration::from_nanos(total % 10_000_000 * 100)
}

/// A run's peak memory in KB, from its job's extended limit information:
/// the most its processes held together, or the most one of them did, if
/// the job's figure is missing (bytes, rounded up: a run that touched any
/// memory used some).
pub(crate) fn peak_kb(peak_job_bytes: usize, peak_process_bytes: usize) -> u64 {
    (peak_job_bytes.max(peak_process_bytes) as u64).div_ceil(1024)
}

/// The job's memory limit in bytes for a cap in KB: the kernel's backstop
/// behind the watchdog, as the cgroup's cap is on Linux.
pub(crate) fn job_memory_bytes(cap_kb: u64) -> usize {
    usize::try_from(cap_kb.saturating_mul(1024)).unwrap_or(usize::MAX)
}

/// A CPU limit as the job's time limit takes it, in 100 ns units: the
/// kernel's backstop behind the watchdog, as `RLIMIT_CPU` is on Unix.
pub(crate) fn job_time_100ns(limit: Duration) -> i64 {
    i64::try_from(limit.as_nanos() / 100).unwrap_or(i64::MAX)
}

/// The command line `CreateProcessW` takes for `argv`, each argument
/// quoted as the C runtime's parser (and `CommandLineToArgvW`) splits it
/// back: quotes around one with a space, a tab or a quote, or an empty
/// one; a quote escaped with a backslash, and the backslashes before a
/// quote or the closing quote doubled.
pub(crate) fn command_line(argv: &[OsString]) -> OsString {
    let mut line = String::new();
    for (i, arg) in argv.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        let arg = arg.to_string_lossy();
        let quote = arg.is_empty() || arg.contains([' ', '\t', '"', '\n']);
        if !quote {
            line.push_str(&arg);
            continue;
        }
        line.push('"');
        let mut backslashes = 0;
        for c in arg.chars() {
            match c {
                '\\' => backslashes += 1,
                '"' => {
                    line.extend(std::iter::repeat_n('\\', backslashes * 2 + 1));
                    line.push('"');
                    backslashes = 0;
                }
                _ => {
                    line.extend(std::iter::repeat_n('\\', backslashes));
                    line.push(c);
                    backslashes = 0;
                }
            }
        }
        line.extend(std::iter::repeat_n('\\', backslashes * 2));
        line.push('"');
    }
    OsString::from(line)
}

/// The environment block `CreateProcessW` reads: `NAME=value` strings in
/// UTF-16, each ended by a NUL, sorted by name without regard to case as
/// Windows expects, and a last NUL. A name given twice keeps its last
/// value (names are one whatever their case).
pub(crate) fn environment_block(env: &[(OsString, OsString)]) -> Vec<u16> {
    let mut vars: Vec<(String, &OsStr, &OsStr)> = Vec::new();
    for (name, value) in env {
        let key = name.to_string_lossy().to_uppercase();
        match vars.iter_mut().find(|(k, _, _)| *k == key) {
            Some(slot) => *slot = (key, name, value),
            None => vars.push((key, name, value)),
        }
    }
    vars.sort_by(|a, b| a.0.cmp(&b.0));
    let mut block = Vec::new();
    for (_, name, value) in vars {
        block.extend(name.to_string_lossy().encode_utf16());
        block.push(u16::from(b'='));
        block.extend(value.to_string_lossy().encode_utf16());
        block.push(0);
    }
    if block.is_empty() {
        block.push(0);
    }
    block.push(0);
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exception_code_is_a_crash_and_a_chosen_code_is_a_code() {
        assert_eq!(exit_of(0), Exit::Code(0));
        assert_eq!(exit_of(3), Exit::Code(3));
        assert_eq!(exit_of(0xC000_0005), Exit::Exception(0xC000_0005));
        assert_eq!(exit_of(0xC000_00FD), Exit::Exception(0xC000_00FD));
        // exit(-1) and exit(-2): codes, whatever their bits.
        assert_eq!(exit_of(u32::MAX), Exit::Code(-1));
        assert_eq!(exit_of(0x8000_0003), Exit::Code(0x8000_0003_u32 as i32));
    }

    #[test]
    fn exceptions_are_named_by_what_they_mean() {
        assert_eq!(
            describe_exception(0xC000_0005),
            "0xC0000005 (access violation: a bad pointer or index)"
        );
        assert_eq!(
            describe_exception(0xC000_00FD),
            "0xC00000FD (stack overflow)"
        );
        assert_eq!(describe_exception(0xC000_1234), "exception 0xC0001234");
    }

    #[test]
    fn a_jobs_cpu_time_adds_user_and_kernel_time_in_100_ns_units() {
        assert_eq!(cpu_of(0, 0), Duration::ZERO);
        assert_eq!(cpu_of(10_000_000, 0), Duration::from_secs(1));
        assert_eq!(cpu_of(15_000_000, 5_000_001), Duration::new(2, 100));
        assert_eq!(cpu_of(-5, 7), Duration::from_nanos(700));
    }

    #[test]
    fn peak_memory_is_the_jobs_or_one_process_in_kb_rounded_up() {
        assert_eq!(peak_kb(0, 0), 0);
        assert_eq!(peak_kb(2048 * 1024, 1024), 2048);
        assert_eq!(peak_kb(0, 1025), 2);
        assert_eq!(job_memory_bytes(256 << 10), 256 << 20);
        assert_eq!(job_time_100ns(Duration::from_millis(1500)), 15_000_000);
    }

    #[test]
    fn arguments_are_quoted_as_the_c_runtime_splits_them() {
        let line = |args: &[&str]| {
            let argv: Vec<OsString> = args.iter().map(OsString::from).collect();
            command_line(&argv).into_string().unwrap()
        };
        assert_eq!(line(&["a.exe", "x", "y"]), "a.exe x y");
        assert_eq!(
            line(&[r"C:\Program Files\Java\bin\java.exe", "-cp", r"C:\a b\"]),
            r#""C:\Program Files\Java\bin\java.exe" -cp "C:\a b\\""#
        );
        assert_eq!(line(&["", r#"say "hi""#]), r#""" "say \"hi\"""#);
        assert_eq!(line(&[r#"a\"b c"#]), r#""a\\\"b c""#);
        // Backslashes not before a quote are as they are.
        assert_eq!(line(&[r"C:\dir\file"]), r"C:\dir\file");
    }

    #[test]
    fn the_environment_block_is_sorted_without_case_and_ends_twice() {
        let env = |pairs: &[(&str, &str)]| {
            let env: Vec<(OsString, OsString)> =
                pairs.iter().map(|(k, v)| (k.into(), v.into())).collect();
            String::from_utf16(&environment_block(&env)).unwrap()
        };
        assert_eq!(
            env(&[("Path", r"C:\bin"), ("a", "1"), ("PATH", r"C:\x")]),
            "a=1\0PATH=C:\\x\0\0"
        );
        assert_eq!(env(&[]), "\0\0");
    }
}
