//! `gen`: reproducible, checked cases, written all or none.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{cases_of, drawings, eventually, on_terminal, rate_rows, run, run_in};

fn read_dir_sorted(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn gen_is_reproducible_checked_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let gen = |out: &str| {
        run_in(
            dir.path(),
            &[
                "gen",
                "--out",
                out,
                "--count",
                "3",
                "--per-file",
                "4",
                "--seed",
                "42",
            ],
            "",
        )
    };
    let first = gen("a");
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first
            .stdout
            .contains("3 cases with 12 puzzles in a (seed 42)"),
        "{}",
        first.stdout
    );
    assert_eq!(gen("b").code, 0);
    let a = read_dir_sorted(&dir.path().join("a"));
    assert_eq!(a.len(), 6, "three .in/.out pairs");
    assert_eq!(
        a,
        read_dir_sorted(&dir.path().join("b")),
        "same seed, same files"
    );

    let check = run_in(dir.path(), &["check", "a"], "");
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(check
        .stdout
        .contains("checked 3 cases with 12 puzzles: no problems"));
    let judged = run_in(dir.path(), &["test", "a"], "");
    assert_eq!(judged.code, 0, "{}", judged.stdout);

    // A clash is an error naming the file, and nothing changes.
    let again = gen("a");
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("gen-001.in already exists"),
        "{}",
        again.stderr
    );
    assert_eq!(a, read_dir_sorted(&dir.path().join("a")));
}

#[test]
fn gen_writes_every_format_and_both_layouts() {
    let dir = tempfile::tempdir().unwrap();
    for (format, layout) in [("leetcode", "dir"), ("grid", "flat"), ("acwing", "dir")] {
        let out = format!("{format}-{layout}");
        let run = run_in(
            dir.path(),
            &[
                "gen", "--out", &out, "--count", "2", "--format", format, "--layout", layout,
                "--givens", "24", "--seed", "9",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        let judged = run_in(dir.path(), &["test", &out, "--format", "json"], "");
        assert_eq!(judged.code, 0, "{format}: {}", judged.stdout);
        for case in cases_of(&judged.json()) {
            assert_eq!(case["format"], format, "{case}");
        }
    }
    let rate = run_in(dir.path(), &["rate", "grid-flat/gen-001.in"], "");
    assert_eq!(rate.code, 0, "{}", rate.stdout);
    let row = rate.stdout.lines().nth(1).unwrap();
    assert!(row.starts_with("grid-flat/gen-001.in:1"), "{row}");
    assert_eq!(row.split_whitespace().nth(1), Some("24"), "{row}");
}

#[test]
fn gen_reaches_seventeen_givens() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "m",
            "--count",
            "2",
            "--per-file",
            "3",
            "--givens",
            "17",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rate = run_in(dir.path(), &["rate", "m/gen-001.in", "m/gen-002.in"], "");
    let givens: Vec<&str> = rate_rows(&rate.stdout).iter().map(|r| r[1]).collect();
    assert_eq!(givens, ["17"; 6]);
    assert_eq!(run_in(dir.path(), &["check", "m"], "").code, 0);
}

/// The example `gen --help` and the README give, for several seeds: it
/// must never fail for want of fiendish puzzles.
#[test]
fn the_help_example_makes_100_fiendish_puzzles_for_any_seed() {
    let help = run(&["gen", "--help"]);
    let example = "gen --out cases/mine --grade fiendish --count 10 --per-file 10";
    assert!(help.stdout.contains(example), "{}", help.stdout);
    let dir = tempfile::tempdir().unwrap();
    for seed in ["0", "1", "2"] {
        let mut args: Vec<&str> = example.split(' ').collect();
        args[2] = seed;
        args.extend(["--seed", seed]);
        let made = run_in(dir.path(), &args, "");
        assert_eq!(made.code, 0, "seed {seed}: {}", made.stderr);
        assert!(
            made.stdout.contains(&format!(
                "10 cases with 100 puzzles in {seed} (seed {seed})"
            )),
            "{}",
            made.stdout
        );
        let rate = run_in(dir.path(), &["rate", seed, "--max-nodes", "1000"], "");
        assert_eq!(rate.code, 0, "{}", rate.stdout);
        let grades: Vec<&str> = rate_rows(&rate.stdout).iter().map(|r| r[4]).collect();
        assert_eq!(grades, ["fiendish"; 100]);
    }
    assert_eq!(run_in(dir.path(), &["check", "0", "1", "2"], "").code, 0);
}

/// Ctrl-C in the middle of a long `gen` leaves no case behind, and no
/// staging directory either.
#[test]
fn an_interrupted_gen_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "gen",
            "--out",
            "mine/suite",
            "--grade",
            "fiendish",
            "--count",
            "1000",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until it has made cases (staged), then interrupt it.
    let suite = dir.path().join("mine/suite");
    assert!(
        eventually(Duration::from_secs(60), || fs::read_dir(&suite)
            .is_ok_and(|mut d| d.next().is_some())),
        "gen never started staging"
    );
    // SAFETY: kill(2) on our own child, still running (not yet waited for).
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing was written"));
    assert!(
        !dir.path().join("mine").exists(),
        "left behind: {:?}",
        read_dir_sorted(&suite)
    );
}

/// `--hard-for` puzzles cost the named solver what they promise, counted
/// by `rate` with the built-in solvers.
#[test]
fn hard_for_puzzles_meet_their_node_bound() {
    let dir = tempfile::tempdir().unwrap();
    for (solver, min, column) in [("backtrack", "300000", 5), ("mrv", "20000", 6)] {
        let made = run_in(
            dir.path(),
            &[
                "gen",
                "--out",
                solver,
                "--count",
                "1",
                "--per-file",
                "3",
                "--hard-for",
                solver,
                "--min-nodes",
                min,
                "--seed",
                "4",
            ],
            "",
        );
        assert_eq!(made.code, 0, "{solver}: {}", made.stderr);
        let rate = run_in(
            dir.path(),
            &["rate", solver, "--max-nodes", "100000000"],
            "",
        );
        let rows = rate_rows(&rate.stdout);
        assert_eq!(rows.len(), 3, "{}", rate.stdout);
        for row in &rows {
            let nodes: u64 = row[column].parse().unwrap_or_else(|_| panic!("{row:?}"));
            assert!(nodes >= min.parse().unwrap(), "{solver}: {row:?}");
        }
    }
    let made = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "p",
            "--count",
            "2",
            "--hard-for",
            "propagate",
            "--min-nodes",
            "50",
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let rate = run_in(dir.path(), &["rate", "p"], "");
    for row in rate_rows(&rate.stdout) {
        let guesses: u64 = row[3].parse().unwrap();
        assert!(guesses >= 50, "{row:?}");
    }
    let bad = run_in(dir.path(), &["gen", "--out", "q", "--hard-for", "mrv"], "");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--min-nodes"), "{}", bad.stderr);
}

/// A `--hard-for` puzzle can take minutes: on a terminal the line says the
/// work its search has reached so far against the work asked for; in a
/// pipe nothing is drawn.
#[test]
fn hard_for_says_the_work_reached_on_a_terminal_and_nothing_in_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &str| {
        [
            "gen",
            "--out",
            out,
            "--count",
            "2",
            "--hard-for",
            "backtrack",
            "--min-nodes",
            "200000",
            "--seed",
            "3",
        ]
        .map(String::from)
    };
    let piped_out = dir.path().join("piped");
    let piped = args(piped_out.to_str().unwrap());
    let piped = run(&piped.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert_eq!(piped.stderr, "", "nothing is drawn in a pipe");
    let shown_out = dir.path().join("shown");
    let shown = args(shown_out.to_str().unwrap());
    let Some(screen) = on_terminal(80, &shown.iter().map(String::as_str).collect::<Vec<_>>())
    else {
        return;
    };
    let lines = drawings(&screen, "making puzzles ");
    let reached: Vec<u64> = lines
        .iter()
        .filter_map(|line| line.split(" reached ").nth(1))
        .map(|rest| {
            assert!(rest.ends_with(" of 200000 backtrack nodes"), "{rest:?}");
            rest.split(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    assert!(!reached.is_empty(), "no work reached was shown: {lines:?}");
    assert!(
        reached.contains(&200_000),
        "the goal was never shown reached: {reached:?}"
    );
    for line in lines {
        assert!(line.chars().count() <= 77, "{line:?}");
    }
    assert!(screen.contains("2 cases with 2 puzzles"), "{screen:?}");
}

/// The shipped generated cases whose README says the command still makes
/// them: `gen` grades and builds puzzles with the pinned search
/// (`reference::graded_search`), so a faster search must not change them.
#[test]
fn the_shipped_generated_cases_are_what_their_readme_commands_make() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let dir = tempfile::tempdir().unwrap();
    // As the READMEs write them: `--grade NAME`, or `--givens 17`.
    let gen = |command: String| {
        let args: Vec<&str> = command.split_whitespace().collect();
        let made = run_in(dir.path(), &args, "");
        assert_eq!(made.code, 0, "{command}: {}", made.stderr);
    };
    let pick = |name: &str| match name {
        "seventeen" => "--givens 17".to_string(),
        grade => format!("--grade {grade}"),
    };
    for name in ["easy", "hard", "seventeen"] {
        gen(format!(
            "gen --out a --name {name}- --count 1 --per-file 10 --seed 166 {}",
            pick(name)
        ));
        for ext in ["in", "out"] {
            let file = format!("{name}-001.{ext}");
            assert_eq!(
                fs::read_to_string(dir.path().join("a").join(&file)).unwrap(),
                fs::read_to_string(root.join("acwing166/generated").join(&file)).unwrap(),
                "{file}"
            );
        }
    }
    for name in ["medium", "seventeen"] {
        gen(format!(
            "gen --out l --format leetcode --layout dir --name {name}- --count 2 --seed 37 {}",
            pick(name)
        ));
        for case in ["001", "002"] {
            let case = format!("{name}-{case}");
            assert_eq!(
                read_dir_sorted(&dir.path().join("l").join(&case)),
                read_dir_sorted(&root.join("leetcode37-hard/generated").join(&case)),
                "{case}"
            );
        }
    }
}
