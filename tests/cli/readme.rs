//! The samples of output in the README and the book (`docs/`) are what the
//! judge prints: each sample is checked against a real run, its times and
//! counts aside.

use std::sync::LazyLock;

use super::{drawings, have, judge_with, manifest_dir, on_terminal, run, run_in};

/// The ```text block of the README or of a page of `docs/` that holds
/// `marker`.
pub(crate) fn readme_sample(marker: &str) -> String {
    let mut pages = vec![manifest_dir().join("README.md")];
    let mut book: Vec<_> = std::fs::read_dir(manifest_dir().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    book.sort();
    pages.extend(book);
    let text: String = pages
        .iter()
        .map(|page| std::fs::read_to_string(page).unwrap())
        .collect();
    text.split("```text\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("```").map(|(block, _)| block))
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("neither the README nor docs/ has a sample holding {marker:?}"))
        .to_string()
}

/// A line as its shape: numbers as `N`, runs of spaces as one.
fn shape(line: &str) -> String {
    static NUMBER: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\d+(?:[.,]\d+)*").unwrap());
    NUMBER
        .replace_all(line.trim_end(), "N")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks that `sample` is what `output` holds: each of its lines, but
/// those `skip` says are the machine's own, has the shape of a line of the
/// output, in order; lines next to each other in the sample are next to
/// each other in the output, and `...` stands for lines left out.
fn assert_sample_of(sample: &str, output: &str, skip: impl Fn(&str) -> bool) {
    let real: Vec<String> = output.lines().filter(|l| !skip(l)).map(shape).collect();
    let mut at = 0;
    let mut adjacent = false;
    for line in sample.lines().filter(|l| !skip(l)) {
        if line.trim() == "..." {
            adjacent = false;
            continue;
        }
        let want = shape(line);
        let found = if adjacent {
            (real.get(at) == Some(&want)).then_some(at)
        } else {
            real[at..].iter().position(|r| *r == want).map(|i| at + i)
        };
        let Some(found) = found else {
            panic!(
                "the README's sample line\n  {line}\nis not {} in what the judge printed:\n{output}\n\
                 (the sample:\n{sample})",
                if adjacent { "the next line" } else { "found" }
            );
        };
        at = found + 1;
        adjacent = true;
    }
}

/// The machine's own: how it contains runs.
fn sandbox_line(line: &str) -> bool {
    line.starts_with("sandbox:")
}

#[test]
fn the_readme_make_run_sample_is_what_make_run_prints() {
    let run = judge_with(&["test", "cases"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_sample_of(
        &readme_sample("judging 35 cases with solver propagate"),
        &run.stdout,
        sandbox_line,
    );
}

#[test]
fn the_readme_stress_samples_are_what_stress_prints() {
    if !have(&["g++", "python3"], "the README's stress samples") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fixtures = manifest_dir().join("tests/fixtures");
    std::fs::copy(
        fixtures.join("submissions/wa_stale_state.cpp"),
        dir.path().join("main.cpp"),
    )
    .unwrap();
    let run = run_in(dir.path(), &["stress", "--submission", "main.cpp"], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_sample_of(
        &readme_sample("reproduce: sudoku-judge stress --submission main.cpp --seed 0"),
        &format!("{}{}", run.stderr, run.stdout),
        |_| false,
    );

    for (from, name) in [
        ("submissions/wa_stale_state.cpp", "wa_stale_state.cpp"),
        ("submissions/ac_program.py", "ac_program.py"),
        ("programs/gen_relabelled.py", "gen_relabelled.py"),
    ] {
        std::fs::copy(fixtures.join(from), dir.path().join(name)).unwrap();
    }
    let args = [
        "stress",
        "--submission",
        "wa_stale_state.cpp",
        "--gen",
        "python3 gen_relabelled.py",
        "--brute",
        "ac_program.py",
        "--rounds",
        "2",
        "--save",
        "brute-cases",
    ];
    let run = run_in(dir.path(), &args, "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let sample = readme_sample("$ sudoku-judge stress --submission wa_stale_state.cpp");
    assert_sample_of(
        &sample.replace("stress-cases/", "brute-cases/"),
        &format!("{}{}", run.stderr, run.stdout),
        |l| l.starts_with("$ "),
    );
}

/// Every kind of line `output` holds (its first word) is in the README's
/// sample that holds `marker`: a sample leaves out no line the tool prints.
pub(crate) fn assert_sample_has_every_kind_of_line(marker: &str, output: &str) {
    let sample = readme_sample(marker);
    let kind = |line: &str| line.split_whitespace().next().unwrap_or("").to_string();
    let kinds: Vec<String> = sample.lines().map(kind).collect();
    for line in output.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            kinds.contains(&kind(line)),
            "the README's sample leaves out a kind of line the tool prints:\n  {line}\n\
             (the sample:\n{sample})"
        );
    }
}

/// `stress --time` alone: the book's sample of a run that stopped on time,
/// with the line a log gets every 5 s.
#[test]
fn the_stress_time_sample_is_what_stress_prints() {
    let save = tempfile::tempdir().unwrap();
    let run = run(&[
        "stress",
        "--solver",
        "propagate",
        "--time",
        "6s",
        "--save",
        save.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_sample_of(
        &readme_sample("$ sudoku-judge stress --solver propagate --time 8s"),
        &format!("{}{}", run.stderr, run.stdout),
        |l| l.starts_with("$ "),
    );
}

/// `--repeat`: the book's sample row with the range of the runs' times.
#[test]
fn the_repeat_sample_is_what_test_prints() {
    let run = run(&[
        "test",
        "cases/acwing166/anti-backtracking.in",
        "--repeat",
        "5",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_sample_of(
        &readme_sample("anti-backtracking  5 runs: "),
        &run.stdout,
        sandbox_line,
    );
}

/// `gen --hard-for` on a terminal: the book's sample of the progress line
/// has the shape of a line drawn.
#[test]
fn the_hard_for_progress_sample_is_what_a_terminal_shows() {
    let out = tempfile::tempdir().unwrap();
    let Some(screen) = on_terminal(
        80,
        &[
            "gen",
            "--out",
            out.path().join("made").to_str().unwrap(),
            "--count",
            "1",
            "--hard-for",
            "backtrack",
            "--min-nodes",
            "200000",
        ],
    ) else {
        return;
    };
    let sample = readme_sample("making puzzles 0/5");
    let drawn = drawings(&screen, "making puzzles ").join("\n");
    assert_sample_of(sample.trim_end(), &drawn, |_| false);
}

/// `$ sudoku-judge ARGS` and what it printed, stderr first, for each of
/// `commands` run in `dir` in turn.
fn transcript(dir: &std::path::Path, commands: &[&[&str]]) -> String {
    let mut out = String::new();
    for args in commands {
        let run = super::new::run_here(dir, args);
        assert!(run.code <= 1, "{args:?}: {}{}", run.stdout, run.stderr);
        out.push_str(&format!(
            "$ sudoku-judge {}\n{}{}",
            args.join(" "),
            run.stderr,
            run.stdout
        ));
    }
    out
}

#[test]
fn the_book_new_sample_is_what_new_and_test_print() {
    if !have(&["python3", "g++"], "the book's `new` sample") {
        return;
    }
    // A clone's cases/: more than one problem, so the default is LeetCode.
    let dir = tempfile::tempdir().unwrap();
    for suite in ["leetcode37", "acwing166"] {
        super::new::copy_dir(
            &manifest_dir().join("cases").join(suite),
            &dir.path().join("cases").join(suite),
        );
    }
    let output = transcript(
        dir.path(),
        &[
            &["new", "--lang", "python"],
            &["test", "cases/leetcode37", "--submission", "solution.py"],
            &["new", "--lang", "cpp", "--problem", "acwing166"],
            &["test", "cases/acwing166", "--submission", "main.cpp"],
        ],
    );
    assert_sample_of(
        &readme_sample("$ sudoku-judge new --lang python"),
        &output,
        sandbox_line,
    );
}

#[test]
fn the_book_show_output_sample_is_what_test_prints() {
    if !have(&["python3"], "the book's --show-output sample") {
        return;
    }
    let output = transcript(
        &manifest_dir(),
        &[&[
            "test",
            "cases/leetcode37/example1",
            "--submission",
            "tests/fixtures/submissions/ac_leetcode.py",
            "--show-output",
        ]],
    );
    assert_sample_of(&readme_sample("--show-output\n..."), &output, sandbox_line);
}

#[test]
fn the_book_cache_sample_is_what_cache_prints() {
    if !have(&["python3", "g++"], "the book's `cache` sample") {
        return;
    }
    // The default place, under a home of the test's own.
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join(".cache");
    for (fixture, name) in [("ac_program.py", "main.py"), ("ac_program.cpp", "main.cpp")] {
        std::fs::copy(
            manifest_dir()
                .join("tests/fixtures/submissions")
                .join(fixture),
            home.path().join(name),
        )
        .unwrap();
    }
    let sample_case = manifest_dir().join("cases/acwing166/sample.in");
    let judge = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(args)
            .current_dir(home.path())
            .env_remove("SUDOKU_JUDGE_CACHE")
            .env("XDG_CACHE_HOME", &cache)
            .env("XDG_CONFIG_HOME", home.path().join(".config"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    for file in ["main.py", "main.cpp"] {
        judge(&["test", sample_case.to_str().unwrap(), "--submission", file]);
    }
    let output = format!(
        "$ sudoku-judge cache\n{}$ sudoku-judge cache clear\n{}",
        judge(&["cache"]),
        judge(&["cache", "clear"])
    )
    .replace(
        &cache.join("sudoku-judge").display().to_string(),
        "/home/you/.cache/sudoku-judge",
    );
    // A build's line names its hash and when it was used: the machine's.
    let build = |line: &str| line.contains("  main-");
    assert_sample_of(&readme_sample("$ sudoku-judge cache\n"), &output, build);
    assert_eq!(output.lines().filter(|l| build(l)).count(), 2, "{output}");
}
