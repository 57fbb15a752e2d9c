//! People judge case packs they download and read reports that carry what
//! a submission wrote. Nothing in them may hang the judge, grow it without
//! bound, show a file outside the suite, reach the terminal as a control
//! sequence, put a command in the report that does more than judge, or run
//! a program the pack names without the user's consent or outside the
//! sandbox (the packs of tests/fixtures/hostile-packs).

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{
    manifest_dir, run_in, run_in_env, write, Run, ANSWER, EXAMPLE_IN, EXAMPLE_OUT, PUZZLE,
};

/// Runs the binary in `dir` and returns what it did and, when GNU time is
/// installed, its peak memory (the largest resident set, in KB), killing
/// it past `patience`. `time` starts the judge: a process started straight
/// from this test binary would count this binary's memory in its peak,
/// since the kernel keeps the high-water mark across exec.
fn run_measured(dir: &Path, args: &[&str], patience: Duration) -> (Run, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    let measured = tempfile::NamedTempFile::new().unwrap();
    let mut command = if time.exists() {
        let mut command = Command::new(time);
        command
            .args(["-f", "%M", "-o"])
            .arg(measured.path())
            .arg(env!("CARGO_BIN_EXE_sudoku-judge"));
        command
    } else {
        super::skip_or_fail(
            "the judge's peak memory",
            "GNU time (/usr/bin/time) not installed",
        );
        Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
    };
    let mut child = command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > patience {
            let _ = child.kill();
            panic!("sudoku-judge {args:?} hung for {patience:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // time writes a line of its own first when the command fails.
    let peak_kb = fs::read_to_string(measured.path())
        .ok()
        .and_then(|text| text.lines().last()?.trim().parse().ok());
    (
        Run {
            code: status.code().expect("exited, not killed"),
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        },
        peak_kb,
    )
}

#[test]
fn a_fifo_as_a_case_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", PUZZLE);
    nix::unistd::mkfifo(&suite.join("b.in"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    // A FIFO as an expected file is refused too, not passed over.
    write(&suite, "c.in", PUZZLE);
    nix::unistd::mkfifo(&suite.join("c.out"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    write(&suite, "d/input.txt", PUZZLE);
    nix::unistd::mkfifo(&suite.join("d/expected.txt"), nix::sys::stat::Mode::S_IRWXU).unwrap();
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
    for fifo in ["c.out", "d/expected.txt"] {
        assert!(
            run.stdout
                .contains(&format!("{fifo} is a FIFO, not a regular file")),
            "{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("1 passed, 3 failed"), "{}", run.stdout);
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
    if let Some(peak_kb) = peak_kb {
        assert!(peak_kb < 64 << 10, "the judge grew to {peak_kb} KB");
    }

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

#[test]
fn follow_outside_links_reaches_every_command_that_reads_the_suite() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = tmp.path().join("shared");
    write(&shared, "a.txt", ANSWER);
    write(&shared, "judge.toml", "time_limit = \"5s\"\n");
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", PUZZLE);
    symlink(shared.join("a.txt"), suite.join("a.out")).unwrap();
    symlink(shared.join("judge.toml"), suite.join("judge.toml")).unwrap();
    let suite = suite.to_str().unwrap();
    for command in ["check", "test"] {
        let refused = run_in(&manifest_dir(), &[command, suite], "");
        let all = format!("{}{}", refused.stdout, refused.stderr);
        assert_ne!(refused.code, 0, "{command}: {all}");
        assert!(all.contains("links outside"), "{command}: {all}");
        let followed = run_in(
            &manifest_dir(),
            &[command, suite, "--follow-outside-links"],
            "",
        );
        let all = format!("{}{}", followed.stdout, followed.stderr);
        assert_eq!(followed.code, 0, "{command}: {all}");
        assert!(!all.contains("links outside"), "{command}: {all}");
    }
}

/// Escape sequences a case name, a program's stderr and a LeetCode-style
/// file's prints carry: clear the screen, set the title, write the
/// clipboard, draw a green AC; one C1 control too.
const HOSTILE: &str = "\x1b[2J\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x07\x1b[32mAC \u{9b}2J";

/// Whether `text` holds a control character other than newline and tab
/// (and CR, which XML and some reports use at line ends).
fn has_control(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && !matches!(c, '\n' | '\t' | '\r')) || ('\u{80}'..='\u{9f}').contains(&c)
    })
}

#[test]
fn escape_sequences_from_cases_and_submissions_are_shown_escaped_everywhere() {
    if !super::have(&["python3"], "escape sequences") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    write(&suite, &format!("n{HOSTILE}.in"), PUZZLE);
    let json = tmp.path().join("report.json");
    let junit = tmp.path().join("report.xml");
    let report_files = |run: &Run| {
        for file in [&json, &junit] {
            let text = fs::read_to_string(file).unwrap();
            assert!(!has_control(&text), "{}: {text:?}", file.display());
        }
        serde_json::from_str::<serde_json::Value>(&fs::read_to_string(&json).unwrap())
            .unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    };
    // A program whose stderr is hostile.
    let program = "sh -c 'printf \"\\033[2J\\033]0;owned\\007\\033[32mAC\\n\" >&2; exit 3'";
    let args = [
        "test",
        suite.to_str().unwrap(),
        "--cmd",
        program,
        "--color",
        "always",
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    let run = super::judge_with(&args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("RE"), "{}", run.stdout);
    // The judge's own colour is there; nothing of the hostile text is raw.
    assert!(run.stdout.contains("\x1b[1m"), "{:?}", run.stdout);
    let without_colour = strip_colour(&run.stdout);
    assert!(!has_control(&without_colour), "{without_colour:?}");
    assert!(
        without_colour.contains("\\x1b[2J\\x1b]0;owned\\x07"),
        "{without_colour}"
    );
    assert!(!has_control(&run.stderr), "{:?}", run.stderr);
    report_files(&run);

    // A LeetCode-style file that prints them, in every report format.
    let fixture = manifest_dir().join("tests/fixtures/submissions/wa_prints_escapes.py");
    for format in ["table", "json"] {
        let run = super::judge_with(&[
            "test",
            suite.to_str().unwrap(),
            "--submission",
            fixture.to_str().unwrap(),
            "--format",
            format,
            "--json",
            json.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert!(!run.stdout.contains('\x1b'), "{:?}", run.stdout);
        assert!(!has_control(&run.stdout), "{:?}", run.stdout);
        assert!(!has_control(&run.stderr), "{:?}", run.stderr);
        assert!(run.stdout.contains("\\u{9b}2J"), "{}", run.stdout);
        report_files(&run);
    }
}

/// `text` without the judge's own colour (SGR sequences).
fn strip_colour(text: &str) -> String {
    regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(text, "")
        .into_owned()
}

/// The commands a report tells people to run: each `rerun:` line, and each
/// command quoted in backticks, that starts with `sudoku-judge`.
fn printed_commands(report: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for line in report.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("rerun:") {
            commands.push(rest.trim().to_string());
        }
        for (n, part) in line.split('`').enumerate() {
            if n % 2 == 1 && part.starts_with("sudoku-judge ") {
                commands.push(part.to_string());
            }
        }
    }
    commands
}

#[test]
fn every_printed_command_pasted_into_a_shell_only_runs_the_judge() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("s$(touch PWN1)");
    // A case the program fails (a rerun line) and a malformed one (a hint
    // that rechecks it), both with names that run commands if unquoted.
    let failing = write(&suite, "nm/$(touch PWN2)`touch PWN3`'\".in", PUZZLE);
    let malformed = write(&suite, &format!("bad;touch PWN4{HOSTILE}.in"), "x\n");
    let program = "sh -c 'exit 3' # $(touch PWN5)";
    let run = run_in(
        tmp.path(),
        &["test", suite.to_str().unwrap(), "--cmd", program],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let commands = printed_commands(&run.stdout);
    assert!(commands.len() >= 2, "{}", run.stdout);
    // A stand-in for the judge that records its arguments.
    let bin = tmp.path().join("bin");
    let log = tmp.path().join("args.log");
    write(
        &bin,
        "sudoku-judge",
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done >> \"$LOG\"\nprintf '\\n' >> \"$LOG\"\n",
    );
    fs::set_permissions(
        bin.join("sudoku-judge"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let work = tmp.path().join("work");
    fs::create_dir(&work).unwrap();
    for command in &commands {
        assert!(!has_control(command), "{command:?}");
        let status = Command::new("sh")
            .args(["-c", command])
            .current_dir(&work)
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .env("LOG", &log)
            .status()
            .unwrap();
        assert!(status.success(), "{command}");
    }
    let pwned: Vec<_> = fs::read_dir(&work)
        .unwrap()
        .chain(fs::read_dir(tmp.path()).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("PWN"))
        .collect();
    assert!(pwned.is_empty(), "pasting ran {pwned:?}: {commands:#?}");
    // Each command named the case it was printed for, exactly.
    let log = fs::read(&log).unwrap();
    let calls: Vec<Vec<&[u8]>> = log
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| l.split(|&b| b == 0).filter(|a| !a.is_empty()).collect())
        .collect();
    assert_eq!(calls.len(), commands.len(), "{commands:#?}");
    use std::os::unix::ffi::OsStrExt as _;
    let named: Vec<&[u8]> = calls.iter().map(|c| c[1]).collect();
    assert!(named.contains(&failing.as_os_str().as_bytes()), "{calls:?}");
    assert!(
        named.contains(&malformed.as_os_str().as_bytes()),
        "{calls:?}"
    );
    let rerun = calls
        .iter()
        .find(|c| c.len() > 2)
        .expect("a rerun with --cmd");
    assert_eq!(rerun[2..], [b"--cmd".as_slice(), program.as_bytes()]);
}

#[test]
fn time_scale_is_checked_like_the_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", EXAMPLE_IN);
    for (toml, says) in [
        (
            "time_scale = 1e308",
            "a time_scale must be a number from 0.01 to 100",
        ),
        (
            "time_scale = 1e-308",
            "a time_scale must be a number from 0.01 to 100",
        ),
        (
            "time_limit = \"1h\"\ntime_scale = 1000",
            "a time_scale must be a number from 0.01 to 100",
        ),
        (
            "time_limit = \"1h\"\ntime_scale = 2",
            "time_limit 1h times time_scale 2 is 7200.0000 s, outside the range",
        ),
        (
            "time_limit = \"1ms\"\ntime_scale = 0.5",
            "outside the range",
        ),
    ] {
        write(&suite, "judge.toml", toml);
        let run = run_in(&manifest_dir(), &["test", suite.to_str().unwrap()], "");
        assert_eq!(run.code, 2, "{toml}: {}{}", run.stdout, run.stderr);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(all.contains(says), "{toml}: {all}");
        assert!(!all.contains("panicked"), "{toml}: {all}");
    }
    fs::remove_file(suite.join("judge.toml")).unwrap();
    for scale in ["1e308", "1e-308", "NaN", "inf"] {
        let run = run_in(
            &manifest_dir(),
            &["test", suite.to_str().unwrap(), "--time-scale", scale],
            "",
        );
        assert_eq!(run.code, 2, "{scale}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("invalid --time-scale"),
            "{scale}: {}",
            run.stderr
        );
    }
    // Counts on the command line name their flag and range.
    let out = tmp.path().join("gen");
    for (args, says) in [
        (
            vec!["gen", "--out", out.to_str().unwrap(), "--count", "0"],
            "'--count <N>': 0 is not in 1..=1000000",
        ),
        (
            vec!["stress", "--puzzles", "18446744073709551615"],
            "is not in 1..=100000",
        ),
        (
            vec!["test", "--time-limit", "0.0001s"],
            "shorter than the shortest time limit",
        ),
    ] {
        let run = run_in(&manifest_dir(), &args, "");
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

/// Judges `cases` copies of the example with `program`, reads the report
/// up to the line `enough` says is enough and closes the pipe: the exit
/// code, and the JUnit report it wrote.
fn closed_after(
    enough: impl Fn(usize, &str) -> bool,
    cases: usize,
    program: &str,
) -> (i32, String) {
    use std::io::BufRead as _;
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    for n in 0..cases {
        write(&suite, &format!("c{n:02}.in"), EXAMPLE_IN);
        write(&suite, &format!("c{n:02}.out"), EXAMPLE_OUT);
    }
    let junit = tmp.path().join("report.xml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(["test", suite.to_str().unwrap(), "--cmd", program, "--junit"])
        .arg(&junit)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    for n in 1.. {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 || enough(n, &line) {
            break;
        }
    }
    drop(out);
    let closed = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // A backstop only a hang fails: the cases' own sleeps alone take
        // a tenth of it.
        assert!(
            closed.elapsed() < Duration::from_secs(120),
            "the judge went on"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let report = fs::read_to_string(&junit).unwrap_or_default();
    (status.code().unwrap_or(-1), report)
}

#[test]
fn a_closed_pipe_stops_the_judge_and_never_reads_as_success() {
    // `| head -3` on a run whose cases fail: 1, and the report file says
    // what was judged.
    // It stopped short of the last case: the report, which says what was
    // judged, counts fewer than all 20 (each takes half a second, so the
    // judge cannot have finished them before the reader closed), whatever
    // time a busy machine took over it.
    let (code, report) = closed_after(|n, _| n == 3, 20, "sh -c 'sleep 0.5; exit 3'");
    assert_eq!(code, 1);
    assert!(report.contains("<testsuites"), "{report}");
    let judged = report.matches("<testcase").count();
    assert!((1..20).contains(&judged), "{judged} cases in {report}");
    // All accepted so far: what a shell expects of a broken pipe.
    let slow = format!(
        "sh -c 'sleep 0.5; exec {} solve'",
        env!("CARGO_BIN_EXE_sudoku-judge")
    );
    let (code, report) = closed_after(|n, _| n == 2, 20, &slow);
    assert_eq!(code, 141);
    // Closed before the first case's line, maybe before its end: a whole
    // report of none or one case, not of all 20.
    assert!(report.contains("</testsuites>"), "{report}");
    let judged = report.matches("<testcase").count();
    assert!(judged < 20, "{judged} cases in {report}");
    // (A pipe closed during the last lines is not checked here: the judge
    // may write them all before the reader closes, and then nothing was
    // lost; on a loaded machine it often does.)
}

#[test]
fn no_progress_line_when_stdout_is_a_pipe_to_the_same_terminal() {
    if !super::have(&["script"], "progress into a pipe") {
        return;
    }
    let slow = format!(
        "sh -c 'sleep 0.3; exec {} solve'",
        env!("CARGO_BIN_EXE_sudoku-judge")
    );
    let command = [
        env!("CARGO_BIN_EXE_sudoku-judge"),
        "test",
        "cases/acwing166/generated",
        "--cmd",
        &slow,
    ]
    .iter()
    .map(|w| shell_words::quote(w).into_owned())
    .collect::<Vec<_>>()
    .join(" ");
    let output = Command::new("script")
        .args(["-qec", &format!("{command} | cat"), "/dev/null"])
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(screen.contains(" passed, 0 failed"), "{screen:?}");
    assert!(!screen.contains("judging ["), "{screen:?}");
    assert!(!screen.contains("\x1b[2K"), "{screen:?}");
}

/// Whether this test runs as root, as it must to hand a suite to another
/// user (chown); `.ci/as-user` leaves such tests out by name.
fn as_root(what: &str) -> bool {
    if nix::unistd::geteuid().is_root() {
        return true;
    }
    super::skip_or_fail(what, "needs root, to give a suite to another user (chown)");
    false
}

/// The uid a hostile pack belongs to: nobody.
const PACK_OWNER: u32 = 65534;

/// Gives `paths` to [`PACK_OWNER`], each itself (a hard link's target is
/// left alone: it is the file the pack must not reach).
fn give_away(paths: &[&Path]) {
    for path in paths {
        std::os::unix::fs::lchown(path, Some(PACK_OWNER), Some(PACK_OWNER)).unwrap();
    }
}

/// What no output may hold of the secret: its words, and its first byte
/// quoted as a parse error would quote it.
fn leaks_secret(text: &str) -> bool {
    ["root", "$6$", "hash", "19000", "'r'"]
        .iter()
        .any(|part| text.contains(part))
}

#[test]
fn a_hard_link_to_a_file_of_another_user_is_refused_before_a_byte_is_read() {
    if !as_root("a hard-linked secret in a pack of another user's") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let secret = secret(tmp.path());
    fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let pack = tmp.path().join("pack");
    let input = write(&pack, "a.in", &format!("{PUZZLE}\nend\n"));
    fs::hard_link(&secret, pack.join("a.out")).unwrap();
    let other_in = write(&pack, "b.in", &format!("{PUZZLE}\nend\n"));
    let other_out = write(&pack, "b.out", &format!("{ANSWER}\n"));
    give_away(&[&pack, &input, &other_in, &other_out]);
    let report = tmp.path().join("report.json");
    let run = run_in(
        tmp.path(),
        &[
            "test",
            pack.to_str().unwrap(),
            "--json",
            report.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let json = fs::read_to_string(&report).unwrap();
    let all = format!("{}{}{json}", run.stdout, run.stderr);
    assert!(
        all.contains(&format!(
            "{} is a hard link (the file has 2 names), so it is not read",
            pack.join("a.out").display()
        )),
        "{all}"
    );
    assert!(!leaks_secret(&all), "{all}");
    // The pack's own case is judged as ever.
    assert!(run.stdout.contains("AC "), "{}", run.stdout);

    // A judge.toml hard-linked to it is refused the same way.
    fs::remove_file(pack.join("a.out")).unwrap();
    fs::hard_link(&secret, pack.join("judge.toml")).unwrap();
    let run = run_in(
        tmp.path(),
        &["test", pack.to_str().unwrap(), "--format", "json"],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains("judge.toml is a hard link (the file has 2 names)"),
        "{all}"
    );
    assert!(!leaks_secret(&all), "{all}");
}

/// An AcWing input whose line 1 has a bad cell at column 4: `x`.
fn unparsable() -> String {
    format!("{}x{}\nend\n", &PUZZLE[..3], &PUZZLE[4..])
}

#[test]
fn a_file_of_another_user_that_does_not_parse_is_named_by_line_and_column_only() {
    if !as_root("an unparsable file of another user's") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("pack");
    let input = write(&pack, "a.in", &unparsable());
    let toml = write(&pack, "judge.toml", "time_limit = 'soon\n");
    give_away(&[&pack, &input, &toml]);
    let run = run_in(tmp.path(), &["test", pack.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("not valid TOML or not the settings at line 1, column")
            && run
                .stdout
                .contains("the file is not yours, so its text is not shown"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("soon"), "{}", run.stdout);
    fs::remove_file(&toml).unwrap();
    let run = run_in(tmp.path(), &["test", pack.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains("a.in:1:4: this character is not a cell: use 1-9 for a digit"),
        "{all}"
    );
    assert!(!all.contains("'x'"), "{all}");
}

#[test]
fn a_users_own_file_that_does_not_parse_is_quoted() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "mine/a.in", &unparsable());
    let run = run_in(tmp.path(), &["test", "mine"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "mine/a.in:1:4: 'x' is not a cell: use 1-9 for a digit, '.' or '0' for a blank"
        ),
        "{}",
        run.stdout
    );
}

/// The most a directory's files hold, by their sizes, looked at every few
/// milliseconds until `stop`.
fn peak_size(
    dir: std::path::PathBuf,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut peak = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            let size: u64 = walkdir::WalkDir::new(&dir)
                .into_iter()
                .flatten()
                .filter_map(|entry| entry.metadata().ok())
                .map(|meta| meta.len())
                .sum();
            peak = peak.max(size);
            std::thread::sleep(Duration::from_millis(2));
        }
        peak
    })
}

#[test]
fn code_run_at_compile_time_cannot_fill_the_disk() {
    if !super::have(
        &["raco", "racket"],
        "Racket code that fills its build directory",
    ) {
        return;
    }
    const CAP: u64 = 4 << 20;
    for fixture in [
        "ce_fills_the_build_directory.rkt",
        "ce_writes_one_huge_file.rkt",
    ] {
        let cache = tempfile::tempdir().unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watcher = peak_size(cache.path().to_path_buf(), stop.clone());
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args([
                "test",
                "cases/acwing166/sample.in",
                "--submission",
                &format!("tests/fixtures/hostile/{fixture}"),
                "--format",
                "json",
            ])
            .current_dir(manifest_dir())
            .env("SUDOKU_JUDGE_CACHE", cache.path())
            .env("SUDOKU_JUDGE_BUILD_MAX", "4M")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let peak = watcher.join().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let report: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{fixture}: {e}: {stdout}"));
        assert_eq!(report["cases"][0]["verdict"], "CE", "{fixture}: {report}");
        let error = report["build"]["error"].as_str().unwrap();
        assert!(
            error.contains("the build wrote more than 4 MB to its directory, the build size limit"),
            "{fixture}: {error}"
        );
        // Nothing of the build is left: only the compilers' versions.
        let left: Vec<String> = fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, [".versions"], "{fixture}");
        // Stopped near the cap, far from the 256 MB it would write: what
        // it writes between two looks at its directory at most.
        assert!(
            peak < CAP + (64 << 20),
            "{fixture}: {peak} bytes at the peak"
        );
    }
}
/// A copy of the hostile pack `name` (tests/fixtures/hostile-packs) at
/// `to`, modes kept: what a download gives, in a directory of the test's
/// own, which a run that goes wrong may write into.
fn hostile_pack(name: &str, to: &Path) -> std::path::PathBuf {
    let from = manifest_dir()
        .join("tests/fixtures/hostile-packs")
        .join(name);
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(&from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
    to.to_path_buf()
}

/// Every file named `pwned` under `dir`: what a pack's program left
/// behind.
fn pwned_under(dir: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_name() == "pwned")
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// A scene for a hostile pack: the pack, the directory the judge runs in,
/// and the user's data directory (where consent is kept) and build cache,
/// all the test's own.
struct Scene {
    _tmp: tempfile::TempDir,
    pack: std::path::PathBuf,
    work: std::path::PathBuf,
    data: std::path::PathBuf,
    cache: std::path::PathBuf,
}

impl Scene {
    fn new(pack: &str) -> Scene {
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        fs::create_dir(&work).unwrap();
        Scene {
            pack: hostile_pack(pack, &tmp.path().join("pack")),
            data: tmp.path().join("data"),
            // A cache of its own: the compiler is asked its version anew.
            cache: tmp.path().join("cache"),
            work,
            _tmp: tmp,
        }
    }

    fn judge(&self, args: &[&str]) -> Run {
        run_in_env(
            &self.work,
            args,
            "",
            &[
                ("XDG_DATA_HOME", &self.data),
                ("SUDOKU_JUDGE_CACHE", &self.cache),
            ],
        )
    }

    /// Judges the pack with the submission fixture `file`.
    fn judge_pack(&self, file: &str) -> Run {
        let submission = manifest_dir().join("tests/fixtures/submissions").join(file);
        // --verbose: the toolchain line on every run, a cached build's too.
        self.judge(&[
            "test",
            self.pack.to_str().unwrap(),
            "--submission",
            submission.to_str().unwrap(),
            "--verbose",
        ])
    }

    /// The refusal of the pack's judge.toml, at `line` and `column`.
    fn assert_refused(&self, run: &Run, line: usize, column: usize, changed: bool) {
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        let file = self.pack.join("judge.toml");
        let said = format!(
            "{} (line {line}, column {column}) names a program for the judge to run, [toolchain] ",
            file.display()
        );
        assert!(run.stderr.contains(&said), "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "read it, then run `sudoku-judge trust {}`",
                self.pack.display()
            )),
            "{}",
            run.stderr
        );
        assert_eq!(
            run.stderr.contains("it changed since you allowed it"),
            changed,
            "{}",
            run.stderr
        );
        // Nothing was judged, and nothing of the pack ran.
        assert!(!run.stdout.contains("AC "), "{}", run.stdout);
        assert_eq!(
            pwned_under(self._tmp.path()),
            Vec::<std::path::PathBuf>::new()
        );
    }
}

#[test]
fn a_suites_toolchain_command_runs_only_once_allowed_and_then_only_in_the_sandbox() {
    if !super::have(&["g++"], "a suite's toolchain command") {
        return;
    }
    let scene = Scene::new("toolchain-command");
    let refused = scene.judge_pack("ac_program.cpp");
    scene.assert_refused(&refused, 15, 1, false);

    // `trust` shows what it allows, where.
    let allowed = run_in_env(
        &scene.work,
        &["trust", scene.pack.to_str().unwrap()],
        "",
        &[("XDG_DATA_HOME", &scene.data)],
    );
    assert_eq!(allowed.code, 0, "{}{}", allowed.stdout, allowed.stderr);
    assert!(
        allowed.stdout.contains(&format!(
            "allowed {}",
            scene.pack.join("judge.toml").display()
        )) && allowed.stdout.contains(
            "line 15, column 1: [toolchain] cpp = \"sh -c 'id > pwned; exec g++ \\\"$@\\\"' sh\""
        ),
        "{}",
        allowed.stdout
    );

    // Allowed, it is the compiler; asked its version in the sandbox, in a
    // scratch directory of the judge's working directory's path, it leaves
    // nothing there.
    let run = scene.judge_pack("ac_program.cpp");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("AC "), "{}", run.stdout);
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("toolchain: C++ sh -c ") && l.contains("judge.toml")),
        "{}",
        run.stdout
    );
    assert!(
        !scene.work.join("pwned").exists(),
        "the version query ran outside"
    );
    // Its compile ran as a compile does, writing only its build directory
    // (kept in the build cache), as the sandbox's user.
    let left = pwned_under(scene._tmp.path());
    assert!(
        !left.is_empty() && left.iter().all(|p| p.starts_with(&scene.cache)),
        "{left:?}"
    );
    if nix::unistd::Uid::effective().is_root() {
        for file in &left {
            let id = fs::read_to_string(file).unwrap();
            assert!(!id.starts_with("uid=0("), "{}: {id}", file.display());
        }
    }

    // A change to the file, if only a comment, takes the consent back.
    let mut text = fs::read_to_string(scene.pack.join("judge.toml")).unwrap();
    text.push_str("# one more line\n");
    fs::write(scene.pack.join("judge.toml"), text).unwrap();
    for file in &left {
        fs::remove_file(file).unwrap();
    }
    let again = scene.judge_pack("ac_program.cpp");
    scene.assert_refused(&again, 15, 1, true);
}

#[test]
fn a_shipped_interpreter_runs_only_once_allowed_and_never_outside_the_sandbox() {
    if !super::have(&["python3"], "a pack's own interpreter") {
        return;
    }
    let scene = Scene::new("shipped-python");
    let refused = scene.judge_pack("ac_program.py");
    scene.assert_refused(&refused, 13, 1, false);

    let allowed = super::allow(&scene.pack, &scene.data);
    assert!(
        allowed.stdout.contains("hashed with it: bin/python3"),
        "{}",
        allowed.stdout
    );
    // Allowed, it runs in the sandbox, where the pack is read-only: it
    // leaves nothing beside itself, and the case is judged as before.
    let run = scene.judge_pack("ac_program.py");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("AC "), "{}", run.stdout);
    assert_eq!(
        pwned_under(scene._tmp.path()),
        Vec::<std::path::PathBuf>::new()
    );

    // The program is hashed with the file: changed, it is refused again.
    let interpreter = scene.pack.join("bin/python3");
    let mut text = fs::read_to_string(&interpreter).unwrap();
    text.push_str("# changed after the consent\n");
    fs::write(&interpreter, text).unwrap();
    let again = scene.judge_pack("ac_program.py");
    scene.assert_refused(&again, 13, 1, true);
}

/// Attacks: a `[toolchain]` path up out of the pack (`../tools/cc`), which
/// `trust` once allowed as "a program of the suite" without hashing it, so
/// its owner could change it after the consent. Holding means: `trust`,
/// `test` and `driver` refuse it (exit 2) naming the file, the line and
/// what to do instead, the last two before they build anything; nothing
/// is recorded and nothing of `../tools` runs.
#[test]
fn a_toolchain_named_out_of_the_suite_is_refused_before_it_can_be_allowed() {
    let scene = Scene::new("outside-toolchain");
    let tools = scene._tmp.path().join("tools");
    write(&tools, "cc", "#!/bin/sh\nid > pwned\nexec g++ \"$@\"\n");
    let said = format!(
        "{} (line 13, column 1) names a program for the judge to run, [toolchain] cpp = \
         \"../tools/cc\", by a path that goes up out of the suite's directory (`..`); consent \
         to a judge.toml covers only the programs its suite holds, so it is neither allowed \
         nor run: name a program on PATH by its name alone",
        scene.pack.join("judge.toml").display()
    );
    let trusted = scene.judge(&["trust", scene.pack.to_str().unwrap()]);
    assert_eq!(trusted.code, 2, "{}{}", trusted.stdout, trusted.stderr);
    assert!(trusted.stderr.contains(&said), "{}", trusted.stderr);
    assert!(!trusted.stdout.contains("allowed"), "{}", trusted.stdout);
    // Judged, or built by `driver` with the suite's toolchains, it is
    // refused as a whole, before anything is built: no build or toolchain
    // line (of the compiler on PATH, which the suite did not name), no
    // case row.
    let submission = manifest_dir().join("tests/fixtures/submissions/ac_program.cpp");
    let out = scene.work.join("driver");
    for (command, run) in [
        ("test", scene.judge_pack("ac_program.cpp")),
        (
            "driver",
            scene.judge(&[
                "driver",
                submission.to_str().unwrap(),
                "--case",
                scene.pack.join("sample.in").to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]),
        ),
    ] {
        let shown = format!("{command}:\n{}{}", run.stdout, run.stderr);
        assert_eq!(run.code, 2, "{shown}");
        assert!(run.stderr.contains(&format!("error: {said}")), "{shown}");
        for built in ["compil", "toolchain:", "sample", "judging"] {
            assert!(!run.stdout.contains(built), "{shown}");
            assert!(!run.stderr.contains(built), "{shown}");
        }
    }
    assert!(!out.exists(), "driver wrote {}", out.display());
    let listed = scene.judge(&["trust", "--list"]);
    assert!(
        listed
            .stdout
            .starts_with("no suite is allowed to run programs"),
        "{}",
        listed.stdout
    );
    assert_eq!(
        pwned_under(scene._tmp.path()),
        Vec::<std::path::PathBuf>::new()
    );
}

/// Attacks: the pack's owner renames another program over `bin/cc` after
/// the judge hashed it and before the judge runs it (found as a race with
/// inotify). Here the swap is made at a fixed point between the two: the
/// submission is a FIFO, which the judge reads after it has read the suite
/// and before it asks for the compiler, so the swap lands while the judge
/// waits for the source. Holding means: the case is AC built by the
/// program allowed, run from the judge's private copy; the swapped one
/// never runs (no `pwned`, no failed build); the next run hashes the
/// swapped file and refuses it as changed.
#[test]
fn a_compiler_swapped_between_the_hash_and_its_use_never_runs() {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    if !super::have(&["g++"], "a compiler swapped after its hash") {
        return;
    }
    const PATIENCE: Duration = Duration::from_secs(300);
    let scene = Scene::new("swapped-compiler");
    super::allow(&scene.pack, &scene.data);
    let source = scene.work.join("main.cpp");
    nix::unistd::mkfifo(&source, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let mut judge = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            scene.pack.to_str().unwrap(),
            "--submission",
            source.to_str().unwrap(),
            "--verbose",
        ])
        .current_dir(&scene.work)
        .env("XDG_DATA_HOME", &scene.data)
        .env("SUDOKU_JUDGE_CACHE", &scene.cache)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The FIFO opens for writing once the judge opens it to read: it has
    // hashed bin/cc by then, and not yet run it.
    let started = Instant::now();
    let mut writer = loop {
        let opened = fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&source);
        match opened {
            Ok(writer) => break writer,
            Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                if judge.try_wait().unwrap().is_some() || started.elapsed() > PATIENCE {
                    let _ = judge.kill();
                    panic!(
                        "the judge never read the submission: {:?}",
                        judge.wait_with_output()
                    );
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(error) => panic!("{error}"),
        }
    };
    let swapped = scene.pack.join("bin/.cc-new");
    fs::write(
        &swapped,
        "#!/bin/sh\nid > pwned\necho 'the swapped compiler ran' >&2\nexit 1\n",
    )
    .unwrap();
    fs::set_permissions(
        &swapped,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    fs::rename(&swapped, scene.pack.join("bin/cc")).unwrap();
    let program =
        fs::read(manifest_dir().join("tests/fixtures/submissions/ac_program.cpp")).unwrap();
    writer.write_all(&program).unwrap();
    drop(writer);
    // Should the judge read the source again, it is a file now.
    let file = scene.work.join(".main.cpp");
    fs::write(&file, &program).unwrap();
    fs::rename(&file, &source).unwrap();
    while judge.try_wait().unwrap().is_none() {
        if started.elapsed() > PATIENCE {
            let _ = judge.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let ran = judge.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr),
    );
    assert_eq!(ran.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("AC "), "{stdout}");
    assert!(
        !stdout.contains("swapped") && !stderr.contains("swapped"),
        "{stdout}{stderr}"
    );
    // The toolchain is the judge's copy, in its cache.
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("toolchain: C++ ") && l.contains(".suite-programs")),
        "{stdout}"
    );
    assert_eq!(
        pwned_under(scene._tmp.path()),
        Vec::<std::path::PathBuf>::new()
    );
    // Read again, the pack's bin/cc is what it now is: not what was allowed.
    let again = scene.judge_pack("ac_program.cpp");
    scene.assert_refused(&again, 12, 1, true);
}

/// What a submission does to read what the judge keeps in the data
/// directory (`sys.argv[1]`): print, for each puzzle it is given, the
/// answer the shipped suite holds for it, and, if it can read the user's
/// private file `secret`, say so and fail. It solves nothing: AC only if
/// it saw the answers.
const PEEK: &str = r#"import os, sys
data = sys.argv[1]
try:
    print("read", open(os.path.join(data, "sudoku-judge", "secret")).read(), file=sys.stderr)
    sys.exit(3)
except OSError:
    pass
answers = {}
for root, _, files in os.walk(data):
    for name in files:
        if name.endswith(".in"):
            try:
                puzzles = open(os.path.join(root, name)).read().split()
                solved = open(os.path.join(root, name[:-3] + ".out")).read().split()
            except OSError:
                continue
            answers.update(zip(puzzles, solved))
for line in sys.stdin:
    if line.strip() in answers:
        print(answers[line.strip()])
"#;

/// Attacks: with `python3` installed in the home's `~/.local` (uv, pipx,
/// `pip --user`), the run was shown all of `~/.local` to start it, which
/// holds the judge's data: the shipped suites with their answers, and any
/// file of the user's there. A submission that printed the shipped answers
/// got every case AC without solving one. Holding means: in a home where
/// `~/.local/bin/python3` leads into uv's install tree, the run sees that
/// tree and not the rest of `~/.local`: the submission that looks for the
/// answers finds none (no case AC) and cannot read the user's 0600 file,
/// while an honest solution run by the same `python3` is AC.
#[test]
fn a_submission_never_sees_the_judges_answers_through_an_interpreter_in_the_home() {
    use std::os::unix::fs::PermissionsExt as _;
    let Ok(real) = fs::canonicalize("/usr/bin/python3") else {
        super::skip_or_fail(
            "an interpreter in the home",
            "/usr/bin/python3 not installed",
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let work = tmp.path().join("work");
    fs::create_dir_all(&work).unwrap();
    // As uv installs it: the interpreter in its own tree under
    // ~/.local/share/uv, linked from ~/.local/bin.
    let tree = home.join(".local/share/uv/python/cpython-3-linux/bin");
    fs::create_dir_all(&tree).unwrap();
    fs::copy(&real, tree.join("python3")).unwrap();
    fs::create_dir_all(home.join(".local/bin")).unwrap();
    symlink(tree.join("python3"), home.join(".local/bin/python3")).unwrap();
    let data = home.join(".local/share");
    let secret = write(
        &data,
        "sudoku-judge/secret",
        "the user's own secret words\n",
    );
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    write(&work, "peek.py", PEEK);
    fs::copy(
        manifest_dir().join("tests/fixtures/submissions/ac_program.py"),
        work.join("solve.py"),
    )
    .unwrap();
    let path = format!("{}:/usr/bin:/bin", home.join(".local/bin").display());
    let env: [(&str, &Path); 6] = [
        ("HOME", &home),
        ("PATH", Path::new(&path)),
        ("XDG_DATA_HOME", &data),
        ("XDG_CACHE_HOME", &home.join(".cache")),
        ("XDG_CONFIG_HOME", &home.join(".config")),
        ("SUDOKU_JUDGE_CACHE", &home.join(".cache/sudoku-judge")),
    ];
    let peek = format!("python3 peek.py {}", data.display());
    let peeked = run_in_env(
        &work,
        &["test", "acwing166", "--cmd", &peek, "--format", "json"],
        "",
        &env,
    );
    assert_eq!(peeked.code, 1, "{}{}", peeked.stdout, peeked.stderr);
    let report = peeked.json();
    let cases = super::cases_of(&report);
    assert!(cases.len() > 1, "{report}");
    // The shipped suite was written out where the judge keeps it, and the
    // run found none of it: every case is WA, none AC, none failed on the
    // secret.
    assert!(data.join("sudoku-judge/shipped-cases").is_dir());
    for case in cases {
        assert_eq!(case["verdict"], "WA", "{report}");
    }
    assert!(!peeked.stdout.contains("secret words"), "{}", peeked.stdout);
    assert!(!peeked.stderr.contains("secret words"), "{}", peeked.stderr);
    // The same interpreter solving honestly is judged as ever.
    let solved = run_in_env(
        &work,
        &[
            "test",
            "acwing166/sample",
            "--cmd",
            "python3 solve.py",
            "--format",
            "json",
        ],
        "",
        &env,
    );
    assert_eq!(solved.code, 0, "{}{}", solved.stdout, solved.stderr);
    let report = solved.json();
    for case in super::cases_of(&report) {
        assert_eq!(case["verdict"], "AC", "{report}");
    }
}

#[test]
fn a_judge_toml_planted_above_the_suite_is_never_read() {
    if !super::have(&["g++"], "a judge.toml above the suite") {
        return;
    }
    let scene = Scene::new("above-the-suite");
    let submission = manifest_dir().join("tests/fixtures/submissions/ac_program.cpp");
    let suite = scene.pack.join("mycases");
    let case = suite.join("sample.in");
    // Judged from the shared directory itself, from elsewhere, and by a
    // case named directly.
    for (dir, cases) in [
        (&scene.pack, "mycases"),
        (&scene.work, suite.to_str().unwrap()),
        (&scene.work, case.to_str().unwrap()),
    ] {
        let run = run_in_env(
            dir,
            &[
                "test",
                cases,
                "--submission",
                submission.to_str().unwrap(),
                "--format",
                "json",
            ],
            "",
            &[
                ("XDG_DATA_HOME", &scene.data),
                ("SUDOKU_JUDGE_CACHE", &super::build_cache()),
            ],
        );
        assert_eq!(run.code, 0, "{cases}: {}{}", run.stdout, run.stderr);
        let report = run.json();
        let case = &super::cases_of(&report)[0];
        assert_eq!(case["verdict"], "AC", "{report}");
        assert_eq!(case["time_limit_ms"], 1000.0, "{report}");
        assert_eq!(
            pwned_under(scene._tmp.path()),
            Vec::<std::path::PathBuf>::new()
        );
    }
}

#[test]
fn a_reference_runs_only_once_its_suite_is_allowed_and_shipped_suites_are() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let suite = tmp.path().join("suite");
    write(&suite, "a.in", EXAMPLE_IN);
    write(
        &suite,
        "judge.toml",
        "time_limit = \"4s\"\n\n[[reference]]\nfile = \"ref.py\"\nverdict = \"AC\"\n",
    );
    write(&suite, "ref.py", "print('not run')\n");
    let run = run_in_env(
        &manifest_dir(),
        &["calibrate", suite.to_str().unwrap()],
        "",
        &[("XDG_DATA_HOME", &data)],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{} (line 4, column 8) names a program for the judge to run, [[reference]] file = \
             \"ref.py\", and you have not allowed it",
            suite.join("judge.toml").display()
        )),
        "{}",
        run.stderr
    );
    // The suites the judge ships run their references as shipped.
    for shipped in ["cases/acwing166", "cases/leetcode37"] {
        let run = run_in_env(
            &manifest_dir(),
            &["trust", shipped],
            "",
            &[("XDG_DATA_HOME", &data)],
        );
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("is a suite as sudoku-judge ships it"),
            "{}",
            run.stdout
        );
    }
    let listed = run_in_env(
        &manifest_dir(),
        &["trust", "--list"],
        "",
        &[("XDG_DATA_HOME", &data)],
    );
    assert!(
        listed
            .stdout
            .starts_with("no suite is allowed to run programs"),
        "{}",
        listed.stdout
    );
}

/// File names a pack may hold to take over the terminal that shows them:
/// one retitles the window (OSC 0, ended by BEL), one clears the screen.
const RETITLE: &str = "\x1b]0;pwned\x07";
const CLEAR: &str = "\x1b[2J";

/// A pack of two cases named [`RETITLE`] and [`CLEAR`], the same puzzle
/// in both and no expected outputs, so that `check` names both files (a
/// note each, and a duplicate naming the other).
fn pack_of_hostile_names(dir: &Path) -> std::path::PathBuf {
    let pack = dir.join("pack");
    let case = format!("{PUZZLE}\nend\n");
    write(&pack, &format!("{RETITLE}.in"), &case);
    write(&pack, &format!("{CLEAR}.in"), &case);
    pack
}

/// Whether `text` holds either hostile name as it is, rather than escaped.
fn holds_a_raw_name(text: &str) -> bool {
    text.contains(RETITLE) || text.contains(CLEAR) || text.contains("\x1b]0;")
}

/// `check` is the tool for vetting a pack, `rate` and `bench` read one's
/// puzzles: each prints the pack's file names, and a name that is an
/// escape sequence would retitle or clear the terminal, so that `check`
/// could be made to look clean. Holding means no ESC byte reaches stdout
/// or stderr (nor a progress line on a terminal), and each name is shown
/// as the characters it is made of.
#[test]
fn a_packs_file_names_are_shown_escaped_by_check_rate_and_bench() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = pack_of_hostile_names(tmp.path());
    let retitle_file = pack.join(format!("{RETITLE}.in"));
    let runs = [
        ("check", vec!["check", pack.to_str().unwrap()]),
        ("rate", vec!["rate", pack.to_str().unwrap()]),
        (
            "bench",
            vec![
                "bench",
                retitle_file.to_str().unwrap(),
                "--rounds",
                "1",
                "--warmup",
                "1",
            ],
        ),
        (
            "bench --format json",
            vec![
                "bench",
                retitle_file.to_str().unwrap(),
                "--rounds",
                "1",
                "--warmup",
                "1",
                "--format",
                "json",
            ],
        ),
    ];
    for (what, args) in &runs {
        let run = run_in(tmp.path(), args, "");
        assert!(
            run.code == 0 || run.code == 1,
            "{what}: {}{}",
            run.stdout,
            run.stderr
        );
        for text in [&run.stdout, &run.stderr] {
            assert!(!text.contains('\x1b'), "{what}: {text:?}");
            assert!(!has_control(text), "{what}: {text:?}");
        }
        // The name is there, as the characters it is made of.
        let shown = "\\x1b]0;pwned\\x07";
        if what.contains("json") {
            // In JSON too, the name reads back escaped.
            let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            let file = value["results"][0]["file"].as_str().unwrap();
            assert!(file.ends_with(&format!("{shown}.in")), "{what}: {file:?}");
        } else {
            assert!(run.stdout.contains(shown), "{what}: {}", run.stdout);
        }
    }
    // `check` names both files, and the duplicate's message names the other.
    let check = run_in(tmp.path(), &["check", pack.to_str().unwrap()], "");
    assert!(check.stdout.contains("\\x1b[2J.in"), "{}", check.stdout);
    // On a terminal, the progress lines of `rate` and `bench` too.
    for args in [&runs[1].1, &runs[2].1] {
        let Some(screen) = super::on_terminal_with(100, args, None, &[]) else {
            return;
        };
        assert!(!holds_a_raw_name(&screen), "{args:?}: {screen:?}");
        assert!(
            screen.contains("\\x1b]0;pwned\\x07"),
            "{args:?}: {screen:?}"
        );
    }
}

/// `calibrate` prints each case's name in its table and its progress line.
/// A pack that copies the shipped acwing166 `judge.toml` and references
/// byte for byte is calibrated without asking consent; a case of it named
/// as an escape sequence must not reach the terminal as one. Holding means
/// the table names the case escaped, in a pipe and on a terminal, and no
/// ESC of the name is written.
#[test]
fn calibrate_shows_a_packs_case_names_escaped() {
    if !super::have(&["g++"], "calibrate of a hostile pack") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("acwing166");
    let shipped = manifest_dir().join("cases/acwing166");
    for file in [
        "judge.toml",
        "references/tle_naive_dfs.cpp",
        "references/ac_fewest_candidates.cpp",
    ] {
        fs::create_dir_all(pack.join(file).parent().unwrap()).unwrap();
        fs::copy(shipped.join(file), pack.join(file)).unwrap();
    }
    fs::copy(
        shipped.join("sample.in"),
        pack.join(format!("{RETITLE}.in")),
    )
    .unwrap();
    fs::copy(
        shipped.join("sample.out"),
        pack.join(format!("{RETITLE}.out")),
    )
    .unwrap();
    let data = tmp.path().join("data");
    let run = run_in_env(
        tmp.path(),
        &["calibrate", pack.to_str().unwrap()],
        "",
        &[
            ("XDG_DATA_HOME", &data),
            ("SUDOKU_JUDGE_CACHE", &super::build_cache()),
        ],
    );
    assert_ne!(run.code, 2, "{}{}", run.stdout, run.stderr);
    for text in [&run.stdout, &run.stderr] {
        assert!(!text.contains('\x1b'), "{text:?}");
    }
    assert!(
        run.stdout.contains("\\x1b]0;pwned\\x07"),
        "the table names the case: {}",
        run.stdout
    );
    let Some(screen) = super::on_terminal_with(
        100,
        &["calibrate", pack.to_str().unwrap()],
        None,
        &[("XDG_DATA_HOME", &data)],
    ) else {
        return;
    };
    assert!(!holds_a_raw_name(&screen), "{screen:?}");
    assert!(screen.contains("\\x1b]0;pwned\\x07"), "{screen:?}");
}

/// CI's test reporters drop a whole JUnit file that is not XML 1.0, and
/// XML 1.0 cannot hold U+FFFE, U+FFFF nor most C0 controls, not even as
/// character references. A suite, a case name and a program's stderr
/// carry them. Holding means the report validates against the JUnit
/// schema with xmllint, and shows them escaped (`\u{fffe}`).
#[test]
fn a_junit_report_is_xml_whatever_the_names_and_output_hold() {
    if !super::have(&["xmllint"], "JUnit of hostile names") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("s\u{fffe}");
    write(
        &suite,
        "n\u{fffe}\u{ffff}\x01.in",
        &format!("{PUZZLE}\nend\n"),
    );
    write(&suite, "ok\u{ffff}.in", &format!("{PUZZLE}\nend\n"));
    let junit = tmp.path().join("report.xml");
    // Fails with U+FFFE, U+FFFF and a C0 control on stderr.
    let program = "sh -c 'printf \"\\357\\277\\276 \\357\\277\\277 \\001\\n\" >&2; exit 3'";
    let run = super::judge_with(&[
        "test",
        suite.to_str().unwrap(),
        "--cmd",
        program,
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(!xml.contains(['\u{fffe}', '\u{ffff}', '\x01']), "{xml:?}");
    assert!(xml.contains("n\\u{fffe}\\u{ffff}\\x01"), "the case: {xml}");
    assert!(xml.contains("s\\u{fffe}"), "the suite: {xml}");
    assert!(
        xml.contains("<system-err>\\u{fffe} \\u{ffff} \\x01"),
        "the stderr: {xml}"
    );
    let schema = manifest_dir().join("tests/fixtures/junit.xsd");
    let checked = Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(&schema)
        .arg(&junit)
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    // xmllint is a real check: the character itself makes it fail.
    let raw = tmp.path().join("raw.xml");
    fs::write(&raw, xml.replacen("\\u{fffe}", "\u{fffe}", 1)).unwrap();
    let refused = Command::new("xmllint")
        .arg("--noout")
        .arg(&raw)
        .output()
        .unwrap();
    assert!(!refused.status.success(), "xmllint took U+FFFE");
}

/// `driver` writes `run.sh`, which the judge says to run with `sh`, outside
/// any sandbox. Its comment and commands name the user's file, and a file
/// named `s<newline>touch X<newline>#.py` would end the comment and run
/// `touch X`. Holding means `sh -n` reads the script, running it creates
/// no `X`, and no line of it holds the name raw.
#[test]
fn a_file_name_never_becomes_a_command_of_the_exported_run_sh() {
    if !super::have(&["python3"], "driver of a hostile name") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let name = "s\ntouch X\n#.py";
    let source = tmp.path().join(name);
    fs::copy(
        manifest_dir().join("tests/fixtures/submissions/ac_leetcode.py"),
        &source,
    )
    .unwrap();
    let out = tmp.path().join("out");
    let run = run_in(
        tmp.path(),
        &[
            "driver",
            source.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        !has_control(&run.stdout.replace('\n', "")),
        "{:?}",
        run.stdout
    );
    let script = out.join("run.sh");
    let text = fs::read_to_string(&script).unwrap();
    assert!(
        !text.lines().any(|line| line == "touch X" || line == "#.py"),
        "{text}"
    );
    let checked = Command::new("sh").arg("-n").arg(&script).output().unwrap();
    assert!(checked.status.success(), "{checked:?}\n{text}");
    let ran = Command::new("sh")
        .arg(&script)
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let made: Vec<_> = walkdir::WalkDir::new(tmp.path())
        .into_iter()
        .flatten()
        .filter(|e| e.file_name() == "X")
        .map(walkdir::DirEntry::into_path)
        .collect();
    assert!(made.is_empty(), "run.sh ran `touch X`: {made:?}\n{text}");
    // It still does its work: the program answers the example board.
    assert!(
        ran.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&ran.stderr),
        text
    );
}

/// A pack that hard-links a file of the user running the judge (root's
/// `/etc/shadow`, when root judges) as an expected output: the file passes
/// every check of ownership, since it is the user's own. It must be
/// refused before a byte of it is read, as root and as an ordinary user,
/// and the error must say to put a copy in the link's place; nothing of it
/// may show, not even its first byte quoted as a bad cell.
#[test]
fn a_hard_link_to_a_file_of_the_judges_own_user_is_refused_before_a_byte_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = secret(tmp.path());
    fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let pack = tmp.path().join("pack");
    write(&pack, "shadow.in", &format!("{PUZZLE}\nend\n"));
    fs::hard_link(&secret, pack.join("shadow.out")).unwrap();
    write(&pack, "b.in", &format!("{PUZZLE}\nend\n"));
    write(&pack, "b.out", &format!("{ANSWER}\n"));
    let run = run_in(tmp.path(), &["test", pack.to_str().unwrap()], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains(&format!(
            "{} is a hard link (the file has 2 names), so it is not read",
            pack.join("shadow.out").display()
        )) && all.contains("put a copy of it in the link's place"),
        "{all}"
    );
    assert!(!leaks_secret(&all), "{all}");
    assert!(run.stdout.contains("AC "), "{}", run.stdout);
    // `check` and `--keep` read it through the same door.
    let run = run_in(tmp.path(), &["check", pack.to_str().unwrap()], "");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert_ne!(run.code, 0, "{all}");
    assert!(all.contains("shadow.out is a hard link"), "{all}");
    assert!(!leaks_secret(&all), "{all}");
}

/// `cases --out DIR` where DIR already holds a link named as a shipped
/// suite (`DIR/leetcode37 -> ../victim`), as a cloned directory or a
/// shared `/tmp` may: not one file may be written through the link (85
/// were), nor anything else under DIR, and the error names the link.
/// `gen --out` refuses the same link.
#[test]
fn cases_out_never_writes_through_a_planted_link() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    fs::create_dir(&victim).unwrap();
    write(&victim, "mine.txt", "mine");
    let out = tmp.path().join("out");
    fs::create_dir(&out).unwrap();
    symlink("../victim", out.join("leetcode37")).unwrap();
    let run = run_in(tmp.path(), &["cases", "--out", "out"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("out/leetcode37 is a symbolic link")
            && run.stderr.contains("nothing was written"),
        "{}",
        run.stderr
    );
    let in_victim: Vec<_> = fs::read_dir(&victim).unwrap().flatten().collect();
    assert_eq!(in_victim.len(), 1, "{in_victim:?}");
    assert_eq!(fs::read_to_string(victim.join("mine.txt")).unwrap(), "mine");
    let in_out: Vec<_> = fs::read_dir(&out).unwrap().flatten().collect();
    assert_eq!(in_out.len(), 1, "{in_out:?}");

    // gen, with a case directory planted as a link.
    symlink("../victim", out.join("g-001")).unwrap();
    let run = run_in(
        tmp.path(),
        &[
            "gen", "--out", "out", "--name", "g-", "--count", "1", "--layout", "dir",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
    assert_eq!(fs::read_dir(&victim).unwrap().count(), 1);
}

/// `bench` on puzzle files no judge should read whole: a sparse file of
/// 1.2 GB that takes 4 KB on disk (it took the judge to 3.7 GB), a FIFO
/// (it blocked) and `/dev/zero` (it grew until killed). Each must be
/// refused at once, naming the file, with the judge's memory bounded, as
/// `check` and `rate` refuse them.
#[test]
fn bench_refuses_sparse_special_and_endless_files_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let sparse = tmp.path().join("sparse.txt");
    fs::File::create(&sparse)
        .unwrap()
        .set_len(1_200 << 20)
        .unwrap();
    let fifo = tmp.path().join("fifo.txt");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let cases: [(&Path, &str); 3] = [
        (&sparse, "sparse.txt is larger than"),
        (&fifo, "fifo.txt is a FIFO, not a regular file"),
        (
            Path::new("/dev/zero"),
            "/dev/zero is a device, not a regular file",
        ),
    ];
    for (file, said) in cases {
        for command in [&["bench", "--solver", "mrv"][..], &["rate"][..]] {
            let args: Vec<&str> = command
                .iter()
                .copied()
                .chain([file.to_str().unwrap()])
                .collect();
            let command = command[0];
            let (run, peak_kb) = run_measured(tmp.path(), &args, Duration::from_secs(60));
            assert_eq!(run.code, 2, "{command}: {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains(said), "{command}: {}", run.stderr);
            if let Some(peak_kb) = peak_kb {
                assert!(peak_kb < 64 << 10, "{command} grew to {peak_kb} KB");
            }
        }
    }
    // Within the size, a line longer than a board can be is refused after
    // reading a MiB of it.
    let wide = tmp.path().join("wide.txt");
    fs::File::create(&wide).unwrap().set_len(200 << 20).unwrap();
    let (run, peak_kb) = run_measured(
        tmp.path(),
        &["bench", "wide.txt", "--solver", "mrv"],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("wide.txt: line 1 is longer than 1 MiB"),
        "{}",
        run.stderr
    );
    if let Some(peak_kb) = peak_kb {
        assert!(peak_kb < 64 << 10, "bench grew to {peak_kb} KB");
    }
}

/// `--keep` with cases whose ids are longer than a file name may be (a
/// case two levels down in a pack; one broke it: "File name too long",
/// exit 2, no case named, nothing kept) or hold a control character: every failing case is kept under a
/// name made safe (cut with a hash, so two long names stay apart), its
/// verdict.txt names it whole, and the run ends as a run that judged.
#[test]
fn keep_keeps_cases_whose_names_no_file_system_takes() {
    let tmp = tempfile::tempdir().unwrap();
    // Each level fits a file name; the case's id, both levels, does not.
    let long = "x".repeat(200);
    let names = [
        format!("{long}/{long}a"),
        format!("{long}/{long}b"),
        "tab\there".to_string(),
    ];
    for name in &names {
        write(
            &tmp.path().join("pack"),
            &format!("{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
        write(
            &tmp.path().join("pack"),
            &format!("{name}.out"),
            &format!("{ANSWER}\n"),
        );
    }
    let run = run_in(
        tmp.path(),
        &[
            "test",
            "pack",
            "--solver",
            "faulty-leaves-blank",
            "--keep",
            "kept",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("kept what 3 cases not accepted were given and gave back in kept/"),
        "{}",
        run.stderr
    );
    let mut kept: Vec<String> = fs::read_dir(tmp.path().join("kept"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    kept.sort();
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert!(
        kept.iter().all(|n| n.len() <= 255 && !n.contains('\t')),
        "{kept:?}"
    );
    assert!(kept.contains(&"tab%09here".to_string()), "{kept:?}");
    let mut named: Vec<String> = kept
        .iter()
        .map(|dir| {
            let verdict =
                fs::read_to_string(tmp.path().join("kept").join(dir).join("verdict.txt")).unwrap();
            verdict.lines().next().unwrap().to_string()
        })
        .collect();
    named.sort();
    // The verdict's line names the case on one line: its tab shown `\x09`.
    let mut expected: Vec<String> = names
        .iter()
        .map(|n| format!("WA {}", n.replace('\t', "\\x09")))
        .collect();
    expected.sort();
    assert_eq!(named, expected);
}

/// Consent another user recorded: a data directory (`XDG_DATA_HOME`, or a
/// `HOME` that `sudo -E` kept) whose records belong to someone else must
/// not count as the user's consent. Root gives the records to another uid;
/// an ordinary user cannot, so the test shows the same rule with what they
/// can make: a records directory others may write (where anyone could
/// plant a record), and a record with a second name (a hard link, how a
/// readable record of another user's is brought in). In each, the pack
/// is refused as if never allowed, and nothing of it runs.
#[test]
fn consent_recorded_by_another_user_is_not_taken_for_yours() {
    let scene = Scene::new("toolchain-command");
    let allowed = scene.judge(&["trust", scene.pack.to_str().unwrap()]);
    assert_eq!(allowed.code, 0, "{}{}", allowed.stdout, allowed.stderr);
    let records = scene.data.join("sudoku-judge/trust");
    let listed = scene.judge(&["trust", "--list"]);
    assert_eq!(listed.code, 0, "{}{}", listed.stdout, listed.stderr);
    assert!(listed.stdout.contains("judge.toml"), "{}", listed.stdout);
    let record = fs::read_dir(&records)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a record");

    if nix::unistd::geteuid().is_root() {
        give_away(&[&records, &record]);
        let run = scene.judge_pack("ac_program.cpp");
        scene.assert_refused(&run, 15, 1, false);
        let listed = scene.judge(&["trust", "--list"]);
        assert_eq!(listed.code, 2, "{}{}", listed.stdout, listed.stderr);
        assert!(
            listed.stderr.contains(&format!(
                "{} belongs to uid {PACK_OWNER}, not to you (uid 0)",
                records.display()
            )),
            "{}",
            listed.stderr
        );
        std::os::unix::fs::lchown(&records, Some(0), Some(0)).unwrap();
        let run = scene.judge_pack("ac_program.cpp");
        scene.assert_refused(&run, 15, 1, false);
        std::os::unix::fs::lchown(&record, Some(0), Some(0)).unwrap();
    }

    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(&records, fs::Permissions::from_mode(0o777)).unwrap();
    let run = scene.judge_pack("ac_program.cpp");
    scene.assert_refused(&run, 15, 1, false);
    fs::set_permissions(&records, fs::Permissions::from_mode(0o700)).unwrap();

    let second = scene.data.join("second-name.json");
    fs::hard_link(&record, &second).unwrap();
    let run = scene.judge_pack("ac_program.cpp");
    scene.assert_refused(&run, 15, 1, false);
    fs::remove_file(&second).unwrap();

    // The record as the user made it, alone: the consent holds again.
    let run = scene.judge_pack("ac_program.cpp");
    assert!(
        !run.stderr.contains("names a program for the judge to run"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

/// Fragments of the names a generated pack gives its files and
/// directories: terminal escapes (CSI, OSC, a C1 CSI), C0 controls, the
/// non-characters XML cannot hold, a newline, shell and markup syntax.
const NAME_PARTS: &[&str] = &[
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\u{9b}31m",
    "\u{85}",
    "\u{fffe}",
    "\u{ffff}",
    "\x01",
    "\x7f",
    "\n",
    "\r",
    "\t",
    "$(touch pwned)",
    "`touch pwned`",
    "'\"",
    "<b>&amp;]]>",
    "\u{202e}",
    " ",
    "plain",
];

/// Text a case file holds when it is meant not to parse: escapes and
/// controls the error quoting it must not pass on raw.
const BAD_CELLS: &[u8] = b"\x1b[2J\x1b]0;pwned\x07\xc2\x9b31m\x01\x7f\xef\xbf\xbe\n";

/// What the test knows of one entry of a directory, to tell whether a run
/// changed it: the bytes and time of a file (the length and time of a
/// large one, which is never read here), a link's target, a directory's
/// time, or the kind of a special file.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    File(Vec<u8>, std::time::SystemTime),
    Large(u64, std::time::SystemTime),
    Link(std::path::PathBuf),
    Dir(std::time::SystemTime),
    Special(std::time::SystemTime),
}

/// Every entry under `dir`, links not followed, except what is under
/// the directories in `skip`.
fn seen_under(dir: &Path, skip: &[&Path]) -> std::collections::BTreeMap<std::path::PathBuf, Seen> {
    let mut seen = std::collections::BTreeMap::new();
    let walk = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| !skip.contains(&e.path()));
    for entry in walk {
        let entry = entry.unwrap();
        let meta = entry.path().symlink_metadata().unwrap();
        let time = meta.modified().unwrap();
        let kind = if meta.is_symlink() {
            Seen::Link(fs::read_link(entry.path()).unwrap())
        } else if meta.is_dir() {
            Seen::Dir(time)
        } else if meta.is_file() && meta.len() <= 1 << 20 {
            Seen::File(fs::read(entry.path()).unwrap(), time)
        } else if meta.is_file() {
            Seen::Large(meta.len(), time)
        } else {
            Seen::Special(time)
        };
        seen.insert(entry.path().to_path_buf(), kind);
    }
    seen
}

/// A hostile pack made from a seed, in a directory of its own:
///
/// - `outside/`: the files a pack must never show nor change (a secret,
///   a directory of them), linked to from the pack;
/// - `pack/`: the pack, with links at every level (out of it, to
///   `/dev/zero`, to its own parent, to nowhere, to itself), FIFOs,
///   a sparse file, a hard link to an outside file, names holding
///   controls and non-characters, cases that parse and cases that do
///   not, and a `judge.toml` that names programs, does not parse, links
///   out or is a FIFO; `pack/out/` is where `cases --out` writes, with a
///   link named as a shipped suite planted in it;
/// - `reports/`: where `test` writes its reports and kept cases;
/// - `state/`: the judge's own data and cache directories, and `work/`
///   the directory it runs in.
///
/// A program the pack names would create `pwned` (by absolute path,
/// and in its working directory): no run may make one.
struct HostileTree {
    tmp: tempfile::TempDir,
    seed: u64,
    pack: std::path::PathBuf,
    outside: std::path::PathBuf,
    out: std::path::PathBuf,
    reports: std::path::PathBuf,
    state: std::path::PathBuf,
    work: std::path::PathBuf,
    marker: std::path::PathBuf,
    /// Every file-like entry made (files, links, FIFOs), for `rate` and
    /// `bench`, which take files.
    files: Vec<std::path::PathBuf>,
    /// What was made, to print with the seed when a check fails.
    made: Vec<String>,
}

impl HostileTree {
    fn new(seed: u64) -> HostileTree {
        use rand::{Rng as _, SeedableRng as _};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let outside = root.join("outside");
        write(&outside, "secret", "root:$6$hash:19000:0:99999:7:::\n");
        write(&outside, "dir/secret.in", &format!("{PUZZLE}\nend\n"));
        write(&outside, "dir/secret.out", "root:$6$hash\n");
        write(&outside, "victim/mine.txt", "mine");
        let pack = root.join("pack");
        fs::create_dir(&pack).unwrap();
        let out = pack.join("out");
        fs::create_dir(&out).unwrap();
        // A link where `cases` writes a suite, within a suite's directory
        // where it writes a file, or beside what it writes.
        let planted = [
            "leetcode37",
            "acwing166",
            "leetcode37/example1",
            "leetcode37/example1/input.txt",
            "mine",
        ][rng.random_range(0..5)];
        let link = out.join(planted);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        let target = if planted.ends_with(".txt") {
            "outside/secret"
        } else {
            "outside/victim"
        };
        let up = "../".repeat(planted.matches('/').count() + 2);
        symlink(format!("{up}{target}"), &link).unwrap();
        let mut tree = HostileTree {
            seed,
            pack: pack.clone(),
            out,
            reports: root.join("reports"),
            state: root.join("state"),
            work: root.join("work"),
            marker: root.join("pwned"),
            outside,
            files: Vec::new(),
            made: vec![format!("out/{planted} -> {up}{target}")],
            tmp,
        };
        for dir in [&tree.reports, &tree.state, &tree.work] {
            fs::create_dir(dir).unwrap();
        }
        // Links planted where `test` writes its reports and keeps cases.
        if rng.random_bool(0.5) {
            for (report, target) in [
                ("report.json", "../outside/secret"),
                ("report.xml", "../outside/secret"),
                ("report.html", "../outside/dir/secret.out"),
                ("kept", "../outside/victim"),
            ] {
                symlink(target, tree.reports.join(report)).unwrap();
            }
            tree.made
                .push("reports/ and kept/ planted as links out".into());
        }
        tree.judge_toml(&mut rng, &pack);
        // Directories down to three levels, each with hostile entries.
        let mut dirs = vec![pack.clone()];
        let mut count = 0;
        while let Some(dir) = dirs.pop() {
            let depth = dir.strip_prefix(&pack).unwrap().components().count();
            for _ in 0..rng.random_range(2..6) {
                count += 1;
                let name = format!(
                    "{count}{}{}",
                    NAME_PARTS[rng.random_range(0..NAME_PARTS.len())],
                    NAME_PARTS[rng.random_range(0..NAME_PARTS.len())]
                );
                tree.entry(&mut rng, &dir, &name, depth);
            }
            if depth < 3 {
                for _ in 0..rng.random_range(0..3) {
                    count += 1;
                    let name = format!(
                        "d{count}{}",
                        NAME_PARTS[rng.random_range(0..NAME_PARTS.len())]
                    );
                    let sub = dir.join(&name);
                    fs::create_dir(&sub).unwrap();
                    if rng.random_bool(0.3) {
                        tree.judge_toml(&mut rng, &sub);
                    }
                    dirs.push(sub);
                }
            }
        }
        tree
    }

    fn note(&mut self, path: &Path, what: &str) {
        let path = path.strip_prefix(&self.pack).unwrap_or(path);
        self.made.push(format!("{path:?}: {what}"));
    }

    /// A `judge.toml` in `dir`, one of the ways a pack's can be hostile.
    fn judge_toml(&mut self, rng: &mut rand_chacha::ChaCha8Rng, dir: &Path) {
        use rand::Rng as _;
        let file = dir.join("judge.toml");
        let marker = self.marker.display();
        let kind = rng.random_range(0..7);
        match kind {
            0 => {
                let text = format!(
                    "problem = \"acwing166\"\n[toolchain]\ncpp = '''sh -c 'touch {marker} pwned; exec g++ \"$@\"' sh'''\npython = '''sh -c 'touch {marker} pwned' sh'''\n"
                );
                fs::write(&file, text).unwrap();
            }
            1 => {
                fs::write(
                    &file,
                    "problem = \"acwing166\"\n[toolchain]\npython = \"bin/python3\"\n",
                )
                .unwrap();
                write(
                    dir,
                    "bin/python3",
                    &format!("#!/bin/sh\ntouch {marker} pwned\n"),
                );
                use std::os::unix::fs::PermissionsExt as _;
                fs::set_permissions(dir.join("bin/python3"), fs::Permissions::from_mode(0o755))
                    .unwrap();
            }
            2 => {
                fs::write(
                    &file,
                    "time_limit = \"1s\"\n[[reference]]\nfile = \"ref.py\"\nverdict = \"AC\"\n[[reference]]\nfile = \"ref.cpp\"\nverdict = \"TLE\"\n",
                )
                .unwrap();
                write(
                    dir,
                    "ref.py",
                    &format!("open({:?}, 'w')\nopen('pwned', 'w')\n", marker.to_string()),
                );
                write(
                    dir,
                    "ref.cpp",
                    &format!(
                        "#include <cstdio>\nint main() {{ fopen(\"{marker}\", \"w\"); fopen(\"pwned\", \"w\"); }}\n"
                    ),
                );
            }
            3 => {
                let mut text =
                    b"problem = \"\x1b[2J\xc2\x9b\x01\"\n[[[ \x1b]0;pwned\x07\n".to_vec();
                text.extend_from_slice(b"time_limit = \"\xef\xbf\xbf\"\n");
                fs::write(&file, text).unwrap();
            }
            4 => symlink(self.outside.join("secret"), &file).unwrap(),
            5 => nix::unistd::mkfifo(&file, nix::sys::stat::Mode::S_IRWXU).unwrap(),
            _ => fs::write(&file, "time_limit = \"2s\"\nmemory_limit = \"64M\"\n").unwrap(),
        }
        self.note(&file, &format!("judge.toml of kind {kind}"));
    }

    /// One entry named `name` (plus an extension) in `dir`, `depth` levels
    /// down the pack.
    fn entry(&mut self, rng: &mut rand_chacha::ChaCha8Rng, dir: &Path, name: &str, depth: usize) {
        use rand::Rng as _;
        let ext = ["in", "out", "txt"][rng.random_range(0..3)];
        let path = dir.join(format!("{name}.{ext}"));
        // How to reach outside/ from `dir` by a relative link.
        let up = "../".repeat(depth + 1);
        let kind = rng.random_range(0..16);
        let what = match kind {
            0 | 1 => {
                write(dir, &format!("{name}.in"), &format!("{PUZZLE}\nend\n"));
                write(dir, &format!("{name}.out"), &format!("{ANSWER}\n"));
                self.files.push(dir.join(format!("{name}.out")));
                let path = dir.join(format!("{name}.in"));
                self.files.push(path.clone());
                self.note(&path, "a case and its answer");
                return;
            }
            2 => {
                fs::write(&path, BAD_CELLS).unwrap();
                "cells with escapes"
            }
            3 => {
                fs::write(&path, b"\xff\xfe\x1b[2J\x80\x9b not UTF-8\n").unwrap();
                "bytes that are not UTF-8"
            }
            4 => {
                symlink(self.outside.join("secret"), &path).unwrap();
                "an absolute link to the secret"
            }
            5 => {
                symlink(format!("{up}outside/secret"), &path).unwrap();
                "a relative link to the secret"
            }
            6 => {
                let link = dir.join(name);
                symlink(format!("{up}outside/dir"), &link).unwrap();
                self.note(&link, "a link to an outside directory");
                return;
            }
            7 => {
                nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
                "a FIFO"
            }
            8 => {
                fs::File::create(&path)
                    .unwrap()
                    .set_len(1_200 << 20)
                    .unwrap();
                "a sparse 1.2 GB file"
            }
            9 => {
                fs::hard_link(self.outside.join("secret"), &path).unwrap();
                "a hard link to the secret"
            }
            10 => {
                symlink("/dev/zero", &path).unwrap();
                "a link to /dev/zero"
            }
            11 => {
                let link = dir.join(name);
                symlink("..", &link).unwrap();
                self.note(&link, "a link to its parent");
                return;
            }
            12 => {
                symlink(format!("{name}.{ext}"), &path).unwrap();
                "a link to itself"
            }
            13 => {
                symlink("nowhere/at/all", &path).unwrap();
                "a link to nowhere"
            }
            14 => {
                fs::create_dir(&path).unwrap();
                "a directory named as a file"
            }
            _ => {
                // A case as a directory, its expected output hostile.
                let case = dir.join(name);
                write(&case, "input.txt", &format!("{PUZZLE}\nend\n"));
                let expected = case.join("expected.txt");
                let what = match rng.random_range(0..3) {
                    0 => {
                        nix::unistd::mkfifo(&expected, nix::sys::stat::Mode::S_IRWXU).unwrap();
                        "a case directory, its expected.txt a FIFO"
                    }
                    1 => {
                        symlink(format!("../{up}outside/secret"), &expected).unwrap();
                        "a case directory, its expected.txt a link to the secret"
                    }
                    _ => {
                        fs::hard_link(self.outside.join("secret"), &expected).unwrap();
                        "a case directory, its expected.txt a hard link to the secret"
                    }
                };
                self.files.push(expected);
                self.note(&case, what);
                return;
            }
        };
        self.files.push(path.clone());
        self.note(&path, what);
    }

    /// What identifies this tree in a failure: its seed and what it made.
    fn said(&self) -> String {
        format!("seed {}: {:#?}", self.seed, self.made)
    }

    /// Every entry the test checks: all but the reports and the judge's
    /// own state (its data and cache directories, and `.sudoku-judge/` in
    /// the directory it runs in, where `test` keeps its last run).
    fn seen(&self) -> std::collections::BTreeMap<std::path::PathBuf, Seen> {
        let last_run = self.work.join(".sudoku-judge");
        seen_under(self.tmp.path(), &[&self.reports, &self.state, &last_run])
    }
}

/// A run of the judge in bytes, as written.
struct RawRun {
    code: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    peak_kb: u64,
}

/// Runs the binary under GNU time in `tree`'s work directory, its data,
/// cache and config directories in the tree's `state/` (HOME is kept:
/// an interpreter's shim may need it), killing it past `patience` (a
/// FIFO that blocked it would hang it).
fn run_raw(tree: &HostileTree, args: &[std::ffi::OsString], patience: Duration) -> RawRun {
    let measured = tree.state.join("time");
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&measured)
        .arg(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(&tree.work)
        .env("XDG_DATA_HOME", tree.state.join("data"))
        .env("XDG_CONFIG_HOME", tree.state.join("config"))
        .env("XDG_CACHE_HOME", tree.state.join("cache"))
        .env("SUDOKU_JUDGE_CACHE", tree.state.join("build-cache"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > patience {
            let _ = child.kill();
            // time's child, the judge, goes with its parent's pipes.
            let _ = child.wait();
            panic!(
                "sudoku-judge {args:?} hung for {patience:?}; {}",
                tree.said()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    // time writes "Command terminated by signal N" or "Command exited
    // with non-zero status N" first when the judge did not exit 0.
    let measured = fs::read_to_string(&measured).unwrap();
    assert!(
        !measured.contains("signal"),
        "sudoku-judge {args:?} was killed: {measured}; {}",
        tree.said()
    );
    let peak_kb = measured
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("time said {measured:?}"));
    RawRun {
        code: status.code().expect("exited, not killed"),
        stdout,
        stderr,
        peak_kb,
    }
}

/// The first raw control in `bytes`: a C0 control other than tab and
/// newline, DEL, or a C1 control (U+0080 to U+009F, in UTF-8 `C2 80` to
/// `C2 9F`), with its offset.
fn raw_control(bytes: &[u8]) -> Option<(usize, u8)> {
    bytes.iter().enumerate().find_map(|(at, &b)| {
        let c0 = b < 0x20 && b != b'\t' && b != b'\n';
        let c1 = b == 0xc2 && bytes.get(at + 1).is_some_and(|n| (0x80..=0x9f).contains(n));
        (c0 || b == 0x7f || c1).then_some((at, b))
    })
}

/// The report files of a `test` run.
struct Reports {
    json: std::path::PathBuf,
    junit: std::path::PathBuf,
    html: std::path::PathBuf,
}

/// Packs made from fixed seeds, each with every kind of hostile entry
/// at some level (links out, to devices, to themselves, FIFOs, a sparse
/// file, a hard link, controls and non-characters in names and bytes, a
/// judge.toml naming programs), judged by every command that reads a
/// pack. Whatever a pack holds, each run must end (a FIFO must not block
/// it) in bounded memory, with exit 0, 1 or 2, never by a signal; leave
/// every file outside the directories it was asked to write as it was
/// (not a byte written through a planted link); print no raw control;
/// write reports that parse (JSON), are XML (JUnit) and hold no raw
/// control (HTML); name a file in each error; and run none of the
/// programs the pack names, since no one allowed them.
#[test]
fn generated_hostile_packs_leave_everything_outside_as_it_was() {
    if !Path::new("/usr/bin/time").exists() {
        super::skip_or_fail(
            "the judge's peak memory",
            "GNU time (/usr/bin/time) not installed",
        );
        return;
    }
    if !super::have(&["xmllint", "python3"], "generated hostile packs") {
        return;
    }
    const SEEDS: std::ops::Range<u64> = 1..13;
    const PATIENCE: Duration = Duration::from_secs(90);
    // The judge is some 10 MB; reading a sparse file or /dev/zero whole
    // would take gigabytes.
    const PEAK_KB: u64 = 128 << 10;
    for seed in SEEDS {
        let tree = HostileTree::new(seed);
        let said = tree.said();
        let runs = hostile_runs(&tree);
        for (what, args, reports) in &runs {
            let before = tree.seen();
            let run = run_raw(&tree, args, PATIENCE);
            let shown = format!(
                "{what} exited {}:\n{}{}\n{said}",
                run.code,
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            );
            assert!((0..=2).contains(&run.code), "{shown}");
            assert!(
                run.peak_kb < PEAK_KB,
                "{what} grew to {} KB; {shown}",
                run.peak_kb
            );
            for (stream, bytes) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
                assert!(
                    raw_control(bytes).is_none(),
                    "{what}'s {stream} holds a raw control {:?}: {shown}",
                    raw_control(bytes)
                );
                assert!(
                    std::str::from_utf8(bytes).is_ok(),
                    "{what}'s {stream}: {shown}"
                );
            }
            // The commands that read a pack read nothing it links to
            // outside (`rate` and `bench` read the files they are named).
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            );
            if !matches!(*what, "rate" | "bench") {
                assert!(
                    !all.contains("$6$hash") && !all.contains("'r'"),
                    "{what} showed the secret: {shown}"
                );
            }
            // Each error names the file it is about.
            let stderr = String::from_utf8_lossy(&run.stderr);
            for line in stderr.lines().filter(|l| l.starts_with("error")) {
                let tmp = tree.tmp.path().to_str().unwrap();
                assert!(
                    line.contains(tmp),
                    "{what}: an error naming no file: {line}\n{shown}"
                );
            }
            // Nothing outside what it was asked to write changed, and
            // nothing new is there but under `cases --out`'s directory,
            // in real directories (walked without following links).
            let after = tree.seen();
            for (path, was) in &before {
                let is = after.get(path);
                // `.sudoku-judge/` comes and goes in the work directory.
                // `cases` may write into the directories under its --out.
                let may_change = (*what == "cases"
                    && path.starts_with(&tree.out)
                    && matches!(was, Seen::Dir(_)))
                    || path == &tree.work;
                assert!(
                    may_change || is == Some(was),
                    "{what} changed {path:?}: {was:?} is now {is:?}\n{shown}"
                );
            }
            for path in after.keys().filter(|p| !before.contains_key(*p)) {
                assert!(
                    *what == "cases" && path.starts_with(&tree.out),
                    "{what} made {path:?}\n{shown}"
                );
            }
            assert!(!tree.marker.exists(), "a program of the pack ran: {shown}");
            assert_eq!(
                pwned_under(tree.tmp.path()),
                Vec::<std::path::PathBuf>::new(),
                "{shown}"
            );
            if let Some(reports) = reports {
                check_reports(reports, run.code, &shown, &said);
            }
        }
    }
}

/// Every command that reads a pack, on `tree`'s: each with its
/// arguments, and the reports a `test` run writes.
fn hostile_runs(
    tree: &HostileTree,
) -> Vec<(&'static str, Vec<std::ffi::OsString>, Option<Reports>)> {
    let os = |p: &Path| p.as_os_str().to_owned();
    let mut files: Vec<std::ffi::OsString> = tree.files.iter().map(|p| os(p)).collect();
    files.truncate(8);
    // `test` with a built-in solver, then with a submission in a
    // language the pack's [toolchain] names; each with reports of its
    // own (the first where links may be planted).
    let solver = ["--solver".into(), "propagate".into()];
    let python = manifest_dir().join("tests/fixtures/submissions/ac_leetcode.py");
    let submission = ["--submission".into(), os(&python)];
    let mut runs: Vec<(&str, Vec<std::ffi::OsString>, Option<Reports>)> = vec![
        ("check", vec!["check".into(), os(&tree.pack)], None),
        (
            "cases",
            vec!["cases".into(), "--out".into(), os(&tree.out)],
            None,
        ),
        ("calibrate", vec!["calibrate".into(), os(&tree.pack)], None),
    ];
    for (prefix, judged) in [("", solver), ("py-", submission)] {
        let reports = Reports {
            json: tree.reports.join(format!("{prefix}report.json")),
            junit: tree.reports.join(format!("{prefix}report.xml")),
            html: tree.reports.join(format!("{prefix}report.html")),
        };
        let mut args = vec!["test".into(), os(&tree.pack)];
        args.extend(judged);
        for (flag, path) in [
            ("--json", &reports.json),
            ("--junit", &reports.junit),
            ("--html", &reports.html),
            ("--keep", &tree.reports.join(format!("{prefix}kept"))),
        ] {
            args.extend([flag.into(), os(path)]);
        }
        runs.push(("test", args, Some(reports)));
    }
    // Each stops at the first file it cannot read: one run a file,
    // and one with them all.
    for file in files
        .iter()
        .map(|file| vec![file.clone()])
        .chain([files.clone()])
    {
        let rate = std::iter::once(std::ffi::OsString::from("rate")).chain(file.clone());
        runs.push(("rate", rate.collect(), None));
        let bench = ["bench", "--rounds", "1", "--warmup", "1", "--limit", "3"];
        let bench = bench
            .iter()
            .map(|arg| std::ffi::OsString::from(*arg))
            .chain(file);
        runs.push(("bench", bench.collect(), None));
    }
    runs
}

/// The reports of a `test` run that exited `code`: written whenever
/// cases were judged, and well-formed whenever written (a link planted in
/// a report's place is replaced or refused, never written through).
fn check_reports(reports: &Reports, code: i32, shown: &str, said: &str) {
    let Reports { json, junit, html } = reports;
    // The reports: written whenever cases were judged, and
    // well-formed whenever written (a link planted in a report's
    // place is replaced or refused, never written through, as the
    // check of outside/ above shows).
    let written = |report: &Path| report.symlink_metadata().is_ok_and(|meta| meta.is_file());
    if code != 2 {
        for report in [&json, &junit, &html] {
            assert!(written(report), "no {report:?}: {shown}");
        }
    }
    for report in [&json, &junit, &html] {
        if !written(report) {
            continue;
        }
        let bytes = fs::read(report).unwrap();
        let without_cr: Vec<u8> = bytes.iter().copied().filter(|b| *b != b'\r').collect();
        assert!(
            raw_control(&without_cr).is_none(),
            "{report:?} holds a raw control: {}\n{said}",
            String::from_utf8_lossy(&bytes)
        );
    }
    if written(html) {
        let text = fs::read_to_string(html).unwrap();
        assert!(
            text.contains("</html>"),
            "{html:?} is cut short: {text}\n{shown}"
        );
    }
    if written(json) {
        let text = fs::read_to_string(json).unwrap();
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{json:?} is not JSON ({e}): {text}\n{shown}"));
    }
    if written(junit) {
        let checked = Command::new("xmllint")
            .arg("--noout")
            .arg(junit)
            .output()
            .unwrap();
        assert!(
            checked.status.success(),
            "{}\n{said}",
            String::from_utf8_lossy(&checked.stderr)
        );
    }
}

/// A run that stops before it judges (here a `--keep` directory that is
/// not empty, with a report file linked out of it as a pack could plant
/// one) writes no report: the report of the run before stays as it was,
/// not replaced by an empty file no reader takes for JSON or XML, and the
/// link is neither written through nor replaced by an empty file.
#[test]
fn a_run_stopped_before_judging_leaves_the_reports_as_they_were() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("pack");
    write(&pack, "a.in", &format!("{PUZZLE}\nend\n"));
    write(&pack, "a.out", &format!("{ANSWER}\n"));
    write(tmp.path(), "kept/mine.txt", "mine");
    let secret = secret(tmp.path());
    let json = write(tmp.path(), "report.json", "{\"cases\": []}\n");
    let junit = tmp.path().join("report.xml");
    symlink(&secret, &junit).unwrap();
    let run = run_in(
        tmp.path(),
        &[
            "test",
            "pack",
            "--json",
            "report.json",
            "--junit",
            "report.xml",
            "--html",
            "report.html",
            "--keep",
            "kept",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--keep kept"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&json).unwrap(), "{\"cases\": []}\n");
    assert!(junit.symlink_metadata().unwrap().is_symlink());
    assert!(fs::read_to_string(&secret).unwrap().starts_with("root:"));
    assert!(!tmp.path().join("report.html").exists());
    // Nothing is left behind under a temporary name either.
    let mut names: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["kept", "pack", "report.json", "report.xml", "secret"]
    );
}

/// A row of the table as the judge draws one, forged in a case's name
/// after a newline.
const FORGED_ROW: &str = "AC     0.1 ms  fake";

/// A name that reads backwards from U+202E on: on screen, `evil.in`
/// shows as `ni.live`.
const REVERSED: &str = "\u{202e}ni.live";

/// A case name is one line of the judge's output: a name holding a
/// newline could draw a row of its own (a fake AC), and one holding a
/// right-to-left override could reorder how its line reads. Holding
/// means, for `test` (the table and the JSON report), `check` and
/// `rate`, that no line of stdout or stderr starts with the forged row,
/// that no U+202E nor any bidi control is written raw, and that each
/// name is shown with its escapes, on its one line.
#[test]
fn a_case_name_cannot_forge_a_line_nor_reorder_one() {
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}');
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("pack");
    let case = format!("{PUZZLE}\nend\n");
    write(&pack, &format!("x\n{FORGED_ROW}\r\t.in"), &case);
    write(&pack, &format!("{REVERSED}\u{2066}.in"), &case);
    let json = tmp.path().join("report.json");
    let pack_arg = pack.to_str().unwrap();
    let runs = [
        (
            "test",
            vec![
                "test",
                pack_arg,
                "--cmd",
                "sh -c 'exit 3'",
                "--json",
                json.to_str().unwrap(),
            ],
        ),
        ("check", vec!["check", pack_arg]),
        ("rate", vec!["rate", pack_arg]),
    ];
    for (what, args) in &runs {
        let run = run_in(tmp.path(), args, "");
        assert!(
            run.code == 0 || run.code == 1,
            "{what}: {}{}",
            run.stdout,
            run.stderr
        );
        for text in [&run.stdout, &run.stderr] {
            assert!(!text.chars().any(bidi), "{what}: {text:?}");
            assert!(!text.contains('\r'), "{what}: {text:?}");
            for line in text.lines() {
                assert!(
                    !line.trim_start().starts_with("AC "),
                    "{what}: a forged line {line:?} in {text}"
                );
            }
        }
        // Both names are there, escaped, each on one line.
        assert!(
            run.stdout
                .contains(&format!("x\\x0a{FORGED_ROW}\\x0d\\x09")),
            "{what}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("\\u{202e}ni.live\\u{2066}"),
            "{what}: {}",
            run.stdout
        );
    }
    // The JSON report is valid, and its ids are the names as shown: one
    // line, with `\x0a` (backslash, x, 0, a) where the name held a newline.
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let ids: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{report}");
    for id in &ids {
        assert!(
            !id.contains(['\n', '\r', '\t']) && !id.chars().any(bidi),
            "{id:?}"
        );
    }
    assert!(
        ids.iter()
            .any(|id| id.ends_with(&format!("x\\x0a{FORGED_ROW}\\x0d\\x09"))),
        "{ids:?}"
    );
}
