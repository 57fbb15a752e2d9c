//! `stress`: a bug found against a reference and shrunk, with progress.

use std::fs;
use std::path::PathBuf;

use super::{drawings, have, judge_with, on_terminal, run, slow_by};

#[test]
fn stress_draws_its_bar_under_its_first_line_and_within_the_terminal() {
    let save = tempfile::tempdir().unwrap();
    let Some(screen) = on_terminal(
        80,
        &[
            "stress",
            "--solver",
            "faulty-leaves-blank",
            "--rounds",
            "3",
            "--save",
            save.path().to_str().unwrap(),
        ],
    ) else {
        return;
    };
    assert!(
        screen.starts_with("stress: solver faulty-leaves-blank against the reference solver"),
        "{screen:?}"
    );
    let bars = drawings(&screen, "stress [");
    assert!(!bars.is_empty(), "no bar was drawn: {screen:?}");
    assert!(
        screen
            .lines()
            .nth(1)
            .is_some_and(|line| line.starts_with("stress [")),
        "the bar is not under the first line: {screen:?}"
    );
    for line in bars {
        assert!(line.chars().count() <= 77, "{line:?}");
        assert!(!line.contains("eta 0s"), "{line:?}");
    }
}

#[test]
fn stress_finds_a_bug_that_needs_two_puzzles_and_shrinks_to_them() {
    if !have(&["g++"], "stress with C++") {
        return;
    }
    let save = tempfile::tempdir().unwrap();
    let save_dir = save.path().to_str().unwrap();
    let fixture = "tests/fixtures/submissions/wa_stale_state.cpp";
    let run = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "20",
        "--save",
        save_dir,
    ]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with("round 1 failed with WA: puzzle 2"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("-> 2 puzzles with"), "{}", run.stdout);
    let saved: Vec<PathBuf> = fs::read_dir(save.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 2, "{saved:?}");
    let input = save.path().join("stress-0.in");
    assert!(
        run.stdout
            .contains(&format!("saved:     {}", input.display())),
        "{}",
        run.stdout
    );
    let puzzles = fs::read_to_string(&input).unwrap();
    assert_eq!(
        puzzles.lines().count(),
        3,
        "two puzzles and `end`:\n{puzzles}"
    );

    // The saved case reproduces the failure, and a correct program passes it.
    let input = input.to_str().unwrap();
    let replay = judge_with(&["test", input, "--submission", fixture]);
    assert_eq!(replay.code, 1);
    assert!(replay.stdout.contains("\nWA "), "{}", replay.stdout);
    let correct = judge_with(&[
        "test",
        input,
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
    ]);
    assert_eq!(correct.code, 0, "{}", correct.stdout);

    // A second failure is saved beside the first, never over it.
    let again = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "1",
        "--save",
        save_dir,
    ]);
    assert_eq!(again.code, 1);
    assert!(save.path().join("stress-0-2.in").is_file());
}

#[test]
fn stress_says_it_is_shrinking_when_stderr_is_not_a_terminal() {
    let save = tempfile::tempdir().unwrap();
    let run = run(&[
        "stress",
        "--solver",
        "faulty-leaves-blank",
        "--rounds",
        "3",
        "--save",
        save.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("\nstress: shrinking the failing input: 5 puzzles with 1"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with("round 1 failed with WA"),
        "{}",
        run.stdout
    );
}

#[test]
fn stress_finds_a_rare_bug_within_bounded_rounds() {
    if !have(&["g++"], "stress with C++") {
        return;
    }
    let save = tempfile::tempdir().unwrap();
    let fixture = "tests/fixtures/submissions/wa_sometimes.cpp";
    let run = judge_with(&[
        "stress",
        "--submission",
        fixture,
        "--rounds",
        "100",
        "--puzzles",
        "1",
        "--seed",
        "100",
        "--save",
        save.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "not found in 100 rounds:\n{}", run.stdout);
    assert!(
        run.stdout.contains("failed with WA: the answer: r1c1"),
        "{}",
        run.stdout
    );
    let reproduce = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: sudoku-judge "))
        .expect("a reproduce line");
    let args = shell_words::split(reproduce).unwrap();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    let other = tempfile::tempdir().unwrap();
    args.extend(["--save", other.path().to_str().unwrap()]);
    let replay = judge_with(&args);
    assert!(
        replay.stdout.starts_with("round 1 failed with WA"),
        "{}",
        replay.stdout
    );

    // A correct program passes the same rounds.
    let fine = judge_with(&[
        "stress",
        "--submission",
        "tests/fixtures/submissions/ac_program.cpp",
        "--rounds",
        "30",
        "--puzzles",
        "1",
        "--seed",
        "100",
        "--save",
        other.path().to_str().unwrap(),
    ]);
    assert_eq!(fine.code, 0, "{}", fine.stdout);
    assert!(
        fine.stdout.starts_with("all 30 rounds accepted"),
        "{}",
        fine.stdout
    );
}

/// The summary's elapsed seconds: `all N rounds accepted in 2.0 s ...`.
fn elapsed_s(summary: &str) -> f64 {
    summary
        .split(" accepted in ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no elapsed time in {summary:?}"))
}

/// `--time` alone runs for that long, with no cap on rounds, and the
/// summary says it stopped on time; with `--rounds` as well, whichever
/// comes first ends the run.
#[test]
fn stress_runs_for_the_time_given() {
    let save = tempfile::tempdir().unwrap();
    let save = save.path().to_str().unwrap();
    let timed = run(&[
        "stress",
        "--solver",
        "propagate",
        "--puzzles",
        "1",
        "--time",
        "2s",
        "--save",
        save,
    ]);
    assert_eq!(timed.code, 0, "{}{}", timed.stdout, timed.stderr);
    assert!(
        timed.stdout.starts_with("all ") && timed.stdout.contains(", stopped at --time; "),
        "{}",
        timed.stdout
    );
    assert!(elapsed_s(&timed.stdout) >= 2.0, "{}", timed.stdout);

    // The rounds come first: all of them, and no word of the time.
    let capped = run(&[
        "stress",
        "--solver",
        "propagate",
        "--rounds",
        "3",
        "--time",
        "10m",
        "--save",
        save,
    ]);
    assert_eq!(capped.code, 0, "{}{}", capped.stdout, capped.stderr);
    assert!(
        capped.stdout.starts_with("all 3 rounds accepted in ") && !capped.stdout.contains("--time"),
        "{}",
        capped.stdout
    );

    // The time comes first: it stops on time with rounds left.
    let slow = run(&[
        "stress",
        "--solver",
        "propagate",
        "--rounds",
        "1000000",
        "--time",
        "1s",
        "--save",
        save,
    ]);
    assert_eq!(slow.code, 0, "{}{}", slow.stdout, slow.stderr);
    assert!(
        slow.stdout.contains(", stopped at --time; "),
        "{}",
        slow.stdout
    );
    assert!(elapsed_s(&slow.stdout) >= 1.0, "{}", slow.stdout);

    let bad = run(&["stress", "--solver", "propagate", "--time", "soon"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("invalid --time"), "{}", bad.stderr);
}

/// With `--time` and no cap on rounds, a terminal shows the rounds
/// accepted and when the run stops, within the width.
#[test]
fn stress_with_time_alone_shows_rounds_and_when_it_stops() {
    let save = tempfile::tempdir().unwrap();
    let Some(screen) = on_terminal(
        80,
        &[
            "stress",
            "--solver",
            "propagate",
            "--time",
            "1s",
            "--save",
            save.path().to_str().unwrap(),
        ],
    ) else {
        return;
    };
    let lines: Vec<&str> = screen
        .split("\x1b[2K")
        .map(|rest| rest.split(['\r', '\n', '\x1b']).next().unwrap())
        .filter(|line| line.contains(" stress ") && line.contains("accepted, stopping at 1s"))
        .collect();
    assert!(!lines.is_empty(), "no progress was drawn: {screen:?}");
    for line in lines {
        assert!(line.chars().count() <= 77, "{line:?}");
    }
    assert!(screen.contains(", stopped at --time; "), "{screen:?}");
}

/// A brute force whose build takes over a second says so, as a submission
/// does: `compiling brute.cpp ...`, before the run starts. The compiler is
/// slowed by a wrapper first on PATH.
#[test]
fn a_slow_brute_force_build_says_it_is_compiling() {
    if !have(&["g++"], "a slow brute force build") {
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let real = which::which("g++").unwrap();
    let bin = dir.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    // The newest g++ on PATH by its name, so it is the one taken.
    let wrapper = bin.join("g++-99");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ncase \"$*\" in *version*|-v|-dump*) exec '{0}' \"$@\";; esac\n\
             sleep 1.5\nexec '{0}' \"$@\"\n",
            real.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    fs::copy(
        "tests/fixtures/submissions/ac_program.cpp",
        dir.path().join("brute.cpp"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(["stress", "--solver", "propagate", "--brute", "brute.cpp"])
        .args(["--rounds", "1", "--save", "saved"])
        .current_dir(dir.path())
        .env("PATH", path)
        .env("SUDOKU_JUDGE_CACHE", dir.path().join("cache"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.starts_with("compiling brute.cpp ...\n"), "{stderr}");
}

#[test]
fn a_tle_in_stress_is_a_failure_only_when_it_repeats_with_the_limit_raised_by_half() {
    if !have(&["python3"], "stress's margin for a TLE") {
        return;
    }
    let stress = |cpu: f64| {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("stressed");
        let command = slow_by(cpu);
        judge_with(&[
            "stress",
            "--cmd",
            &command,
            "--time-limit",
            "1s",
            "--rounds",
            "1",
            "--puzzles",
            "1",
            "--shrink-runs",
            "0",
            "--save",
            save.to_str().unwrap(),
        ])
    };
    // About 1.2 s of CPU time: over the 1 s limit, within 1.5 s.
    let close = stress(1.1);
    assert_eq!(close.code, 0, "{}\n{}", close.stdout, close.stderr);
    assert!(
        close
            .stderr
            .contains("stress: round 1 ran out of time, then took ")
            && close
                .stderr
                .contains(" with the limit raised to 1500 ms: too close to call, not a failure"),
        "{}",
        close.stderr
    );
    assert!(
        close.stdout.starts_with("all 1 rounds accepted")
            && close.stdout.contains(
                "no failure found, but 1 round ran out of time once and passed only with the limit raised by half"
            ),
        "{}",
        close.stdout
    );
    // Past 1.5 s as well: a failure, with the reason at the limit given.
    let slow = stress(2.0);
    assert_eq!(slow.code, 1, "{}\n{}", slow.stdout, slow.stderr);
    assert!(
        slow.stdout.starts_with("round 1 failed with TLE: ")
            && slow.stdout.contains("the 1000 ms limit"),
        "{}",
        slow.stdout
    );
}
