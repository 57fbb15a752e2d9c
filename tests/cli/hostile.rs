//! People judge case packs they download and read reports that carry what
//! a submission wrote. Nothing in them may hang the judge, grow it without
//! bound, show a file outside the suite, reach the terminal as a control
//! sequence, or put a command in the report that does more than judge.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{manifest_dir, run_in, write, Run, ANSWER, EXAMPLE_IN, EXAMPLE_OUT, PUZZLE};

/// Runs the binary in `dir` and returns what it did and its peak memory
/// (the largest resident set, in KB), killing it past `patience`.
fn run_measured(dir: &Path, args: &[&str], patience: Duration) -> (Run, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let pid = child.id() as i32;
    let started = Instant::now();
    let output = std::thread::spawn(move || {
        use std::io::Read as _;
        let (mut out, mut err) = (String::new(), String::new());
        let mut child = child;
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        // The child is reaped below, by wait4, for its rusage.
        std::mem::forget(child);
        (out, err)
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 on our own child, which nothing else reaps.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        if started.elapsed() > patience {
            // SAFETY: kill(2) of our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("sudoku-judge {args:?} hung for {patience:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (stdout, stderr) = output.join().unwrap();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    (
        Run {
            code,
            stdout,
            stderr,
        },
        usage.ru_maxrss as u64,
    )
}

#[test]
fn a_fifo_as_a_case_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", PUZZLE);
    nix::unistd::mkfifo(&suite.join("b.in"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let (run, _) = run_measured(
        &manifest_dir(),
        &["test", suite.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("b.in is a FIFO, not a regular file"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("1 passed"), "{}", run.stdout);
}

#[test]
fn an_endless_line_is_a_case_error_read_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", PUZZLE);
    // Two gigabytes with no newline, holes on disk.
    let endless = fs::File::create(suite.join("endless.in")).unwrap();
    endless.set_len(2 << 30).unwrap();
    let (run, peak_kb) = run_measured(
        &manifest_dir(),
        &["test", suite.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("endless.in:1:1: line 1 is longer than 1 MiB"),
        "{}",
        run.stdout
    );
    // The judge itself is some 10 MB; a line held whole would be 2 GB.
    assert!(peak_kb < 200 << 10, "the judge grew to {peak_kb} KB");

    // /dev/zero, once a link out of the suite is allowed, is a device.
    symlink("/dev/zero", suite.join("zero.in")).unwrap();
    fs::remove_file(suite.join("endless.in")).unwrap();
    let (run, _) = run_measured(
        &manifest_dir(),
        &["test", suite.to_str().unwrap(), "--follow-outside-links"],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("zero.in is a device, not a regular file"),
        "{}",
        run.stdout
    );
}

/// A file outside the suite, like /etc/shadow, that nothing may show.
fn secret(dir: &Path) -> std::path::PathBuf {
    write(dir, "secret", "root:$6$hash:19000:0:99999:7:::\n")
}

#[test]
fn an_expected_file_linked_out_of_the_suite_is_refused_without_a_byte_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = secret(tmp.path());
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", PUZZLE);
    symlink(&secret, suite.join("a.out")).unwrap();
    let run = run_in(&manifest_dir(), &["test", suite.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("a.out links outside"), "{all}");
    assert!(all.contains("--follow-outside-links"), "{all}");
    assert!(!all.contains("'r'") && !all.contains("root"), "{all}");
    assert!(!all.contains("secret"), "{all}");

    // Links that stay inside are followed.
    fs::remove_file(suite.join("a.out")).unwrap();
    write(&suite, "answers/a.txt", ANSWER);
    symlink("answers/a.txt", suite.join("a.out")).unwrap();
    let run = run_in(&manifest_dir(), &["test", suite.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn a_reference_or_judge_toml_linked_out_of_the_suite_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = secret(tmp.path());
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", EXAMPLE_IN);
    write(&suite, "a.out", EXAMPLE_OUT);
    write(
        &suite,
        "judge.toml",
        "[[reference]]\nfile = \"ref.py\"\nverdict = \"AC\"\n",
    );
    symlink(&secret, suite.join("ref.py")).unwrap();
    let run = run_in(&manifest_dir(), &["calibrate", suite.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("ref.py links outside"), "{all}");
    assert!(!all.contains("root") && !all.contains("secret"), "{all}");

    fs::remove_file(suite.join("judge.toml")).unwrap();
    symlink(&secret, suite.join("judge.toml")).unwrap();
    let run = run_in(&manifest_dir(), &["test", suite.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("judge.toml links outside"), "{all}");
    assert!(!all.contains("root") && !all.contains("secret"), "{all}");
}
