//! `cargo bench --bench harness [SECTION...]`: what judging costs on top of
//! running the submission. Each section compares within one run, so the
//! ratios hold on a noisy machine where the absolute figures do not:
//!
//! - `programs`: 1,000 one-puzzle AcWing cases judged with an external
//!   program (`sudoku-judge solve`, itself an AcWing 166 submission), one
//!   process per case as AcWing runs it, against a plain shell loop
//!   (`for f in *.in; do prog < $f | cmp -s - ${f%.in}.out; done`), the same
//!   loop running the program alone, and the judge with `--jobs 2` and with
//!   `--sandbox off` (what containment costs). Median of five interleaved
//!   rounds.
//! - `leetcode`: 1,000 one-board LeetCode cases (LeetCode's example 1) with
//!   a LeetCode-style Python, Java and C++ file, all cases in one process as
//!   LeetCode runs them, against `--fresh-process` (a process per case) on
//!   the first 100 of them. A language whose toolchain is absent is skipped
//!   with a line that says so.
//! - `flat`: 100,000 flat one-puzzle cases with the built-in solver.
//! - `million`: one AcWing case of a million 17-given puzzles (the public
//!   set from `$SUDOKU_JUDGE_DATASETS`, default `../shared/datasets`,
//!   repeated), judged with the built-in solver against `sudoku-judge solve`
//!   on the same input, five interleaved rounds, with the judge's own peak
//!   memory. Skipped with a message when the set is absent.
//! - `toolchains`: what asking a toolchain costs. One case judged with a
//!   C++, a Python and a Rust program whose builds are cached: warm (the
//!   compiler's version known from the cache; Python's and Rust's
//!   interpreter or sysroot are still asked on every run), and cold (the
//!   cache of versions removed first, so the compiler is asked again, then
//!   the cached build found). Median of ten interleaved rounds; cold minus
//!   warm is what one version query costs.
//!
//! With no SECTION, all five run (about five minutes on a 2-core machine).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_judge::board::Format;
use sudoku_judge::generate::{self, GenPlan, Layout, Target};

const ROUNDS: usize = 5;
const EXE: &str = env!("CARGO_BIN_EXE_sudoku-judge");

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The wall time of a command that must succeed: a benchmark of a run that
/// failed would measure the failure.
fn time(mut command: Command) -> Duration {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let output = command.output().expect("the command runs");
    let elapsed = started.elapsed();
    if !output.status.success() {
        let stdout = String::from_utf8_lossy(&output.stdout);
        let failed: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("AC ")).collect();
        panic!(
            "{command:?} failed ({}):\n{}\n{}",
            output.status,
            failed[failed.len().saturating_sub(30)..].join("\n"),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    elapsed
}

fn judge(args: &[&str], cases: &Path) -> Command {
    let mut command = Command::new(EXE);
    command.arg("test").args(args).arg(cases);
    command
}

fn per_case_ms(d: Duration, cases: usize) -> f64 {
    d.as_secs_f64() * 1e3 / cases as f64
}

/// Writes `files` generated one-puzzle cases in `format`, flat.
fn generated(dir: &Path, files: usize, format: Format) -> PathBuf {
    let cases = dir.join("cases");
    let plan = GenPlan {
        seed: 2024,
        files,
        per_file: 1,
        target: Target::default(),
        format,
        layout: Layout::Flat,
        out: cases.clone(),
        name: "c".into(),
        attempts: 100,
    };
    generate::write_cases(&plan, |_| {}, &|| false).expect("cases are written");
    cases
}

fn programs() {
    const CASES: usize = 1000;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = generated(dir.path(), CASES, Format::AcWing);
    let program = format!("{EXE} solve");
    let shell = |script: String| {
        let mut command = Command::new("sh");
        command.current_dir(&cases).arg("-c").arg(script);
        command
    };
    let with_cmp = format!(
        "for f in *.in; do {program} < \"$f\" | cmp -s - \"${{f%.in}}.out\" || exit 1; done"
    );
    let bare = format!("for f in *.in; do {program} < \"$f\" > /dev/null; done");
    // As an ordinary user the sandbox is made in a user namespace, with no
    // cgroup: measured through setpriv where the bench runs as root.
    let as_user = nix::unistd::Uid::effective().is_root() && have(&["setpriv"]);
    if as_user {
        use std::os::unix::fs::PermissionsExt as _;
        for open in [dir.path(), cases.as_path()] {
            fs::set_permissions(open, fs::Permissions::from_mode(0o755)).expect("chmod");
        }
    }
    let user_judge = || {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .args([
                "env",
                "HOME=/tmp",
                EXE,
                "test",
                "--cmd",
                &program,
                "--jobs",
                "1",
            ])
            .arg(&cases);
        command
    };
    let mut rounds: [Vec<Duration>; 6] = Default::default();
    // Interleaved rounds, so a slow spell of the machine hits them all.
    for _ in 0..ROUNDS {
        rounds[0].push(time(shell(with_cmp.clone())));
        rounds[1].push(time(shell(bare.clone())));
        rounds[2].push(time(judge(&["--cmd", &program, "--jobs", "1"], &cases)));
        rounds[3].push(time(judge(&["--cmd", &program, "--jobs", "2"], &cases)));
        rounds[4].push(time(judge(
            &["--cmd", &program, "--jobs", "1", "--sandbox", "off"],
            &cases,
        )));
        if as_user {
            rounds[5].push(time(user_judge()));
        }
    }
    let user = (!rounds[5].is_empty()).then(|| median(std::mem::take(&mut rounds[5])));
    let [base, bare, one, two, off, _] = rounds.map(|r| {
        if r.is_empty() {
            Duration::ZERO
        } else {
            median(r)
        }
    });
    println!("programs: {CASES} one-puzzle cases, `sudoku-judge solve` as the program, median of {ROUNDS} rounds");
    println!(
        "  shell loop (run + cmp)        {:>8.3} s  {:>7.3} ms/case",
        base.as_secs_f64(),
        per_case_ms(base, CASES)
    );
    for (label, d) in [
        ("shell loop (run only)", bare),
        ("judge --jobs 1", one),
        ("judge --jobs 2", two),
        ("judge --jobs 1 --sandbox off", off),
    ]
    .into_iter()
    .chain(user.map(|d| ("judge --jobs 1 as a user", d)))
    {
        println!(
            "  {label:<29} {:>8.3} s  {:>7.3} ms/case  {:.2}x the shell loop",
            d.as_secs_f64(),
            per_case_ms(d, CASES),
            d.as_secs_f64() / base.as_secs_f64()
        );
    }
    if user.is_none() {
        println!(
            "  judge --jobs 1 as a user: SKIP (run the bench as root, with setpriv, to measure it)"
        );
    }
}

/// Whether every command is on the PATH.
fn have(tools: &[&str]) -> bool {
    tools.iter().all(|tool| which::which(tool).is_ok())
}

fn leetcode() {
    const CASES: usize = 1000;
    const FRESH: usize = 100;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = root.join("cases/leetcode37/example1");
    let input = fs::read(example.join("input.txt")).expect("example 1 is shipped");
    let expected = fs::read(example.join("expected.txt")).expect("example 1 is shipped");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |name: &str, count: usize| {
        let cases = dir.path().join(name);
        fs::create_dir(&cases).unwrap();
        for i in 1..=count {
            fs::write(cases.join(format!("c{i:04}.in")), &input).unwrap();
            fs::write(cases.join(format!("c{i:04}.out")), &expected).unwrap();
        }
        cases
    };
    let (all, first) = (write("all", CASES), write("first", FRESH));
    println!(
        "leetcode: LeetCode's example 1 as one-board cases, one process for all {CASES} against \
         a process per case (--fresh-process) on {FRESH}"
    );
    for (language, file, tools) in [
        ("Python", "ac_leetcode.py", &["python3"][..]),
        ("Java", "ac_leetcode.java", &["javac", "java"][..]),
        ("C++", "ac_leetcode.cpp", &["g++"][..]),
    ] {
        if !have(tools) {
            println!("  {language:<7} SKIP ({} not found)", tools.join(", "));
            continue;
        }
        let file = root.join("tests/fixtures/submissions").join(file);
        let file = file.to_str().unwrap();
        // The first run builds and caches the submission: not timed.
        time(judge(&["--submission", file], &first));
        let shared = time(judge(&["--submission", file], &all));
        let fresh = time(judge(&["--submission", file, "--fresh-process"], &first));
        let (shared_ms, fresh_ms) = (per_case_ms(shared, CASES), per_case_ms(fresh, FRESH));
        println!(
            "  {language:<7} one process {:>7.2} s  {shared_ms:>7.3} ms/case   fresh process \
             {:>7.2} s  {fresh_ms:>7.3} ms/case   {:.1}x faster per case",
            shared.as_secs_f64(),
            fresh.as_secs_f64(),
            fresh_ms / shared_ms
        );
    }
}

fn flat() {
    const CASES: usize = 100_000;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let started = Instant::now();
    let cases = generated(dir.path(), CASES, Format::AcWing);
    let written = started.elapsed();
    let judged = time(judge(&[], &cases));
    println!(
        "flat: {CASES} one-puzzle cases with the built-in solver: {:.2} s, {:.3} ms/case \
         (writing them took {:.1} s)",
        judged.as_secs_f64(),
        per_case_ms(judged, CASES),
        written.as_secs_f64()
    );
}

fn million() {
    const PUZZLES: usize = 1_000_000;
    let datasets = std::env::var_os("SUDOKU_JUDGE_DATASETS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"),
        PathBuf::from,
    );
    let (puzzles, solutions) = (
        datasets.join("puzzles2_17_clue.txt"),
        datasets.join("puzzles2_17_clue.solutions.txt"),
    );
    let (Ok(puzzles), Ok(solutions)) =
        (fs::read_to_string(&puzzles), fs::read_to_string(&solutions))
    else {
        println!(
            "million: SKIP ({} is absent; set SUDOKU_JUDGE_DATASETS to the public sets)",
            puzzles.display()
        );
        return;
    };
    // tdoku's reader rule: comment lines and short lines are not puzzles.
    let puzzles: Vec<&str> = puzzles
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .collect();
    let solutions: Vec<&str> = solutions.lines().collect();
    assert_eq!(puzzles.len(), solutions.len(), "one solution per puzzle");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = dir.path().join("million");
    fs::create_dir(&cases).unwrap();
    let mut input = String::with_capacity(PUZZLES * 82 + 4);
    let mut output = String::with_capacity(PUZZLES * 82);
    for i in 0..PUZZLES {
        input.push_str(puzzles[i % puzzles.len()]);
        input.push('\n');
        output.push_str(solutions[i % solutions.len()]);
        output.push('\n');
    }
    input.push_str("end\n");
    let case = cases.join("million.in");
    fs::write(&case, &input).unwrap();
    fs::write(cases.join("million.out"), &output).unwrap();
    let solve = || {
        let mut command = Command::new(EXE);
        command.arg("solve").stdin(fs::File::open(&case).unwrap());
        command
    };
    let (mut solving, mut judging, mut ratios, mut peak_kb) =
        (Vec::new(), Vec::new(), Vec::new(), 0);
    // Interleaved rounds, each judged run against the solve just before
    // it, so a busy spell of the machine weighs on both alike.
    for _ in 0..ROUNDS {
        let solved = time(solve());
        // AcWing's 1 s is for its own input; this one is 1,000 times larger.
        let (judged, kb) = time_and_peak(judge(&["--time-limit", "120s"], &cases));
        ratios.push(judged.as_secs_f64() / solved.as_secs_f64());
        solving.push(solved);
        judging.push(judged);
        peak_kb = peak_kb.max(kb);
    }
    let (solving, judging) = (median(solving), median(judging));
    ratios.sort_by(f64::total_cmp);
    println!(
        "million: {PUZZLES} 17-given puzzles in one case, {ROUNDS} interleaved rounds: solve {:.2} \
         s, judged with the built-in solver {:.2} s (medians), {:.2}x solve (rounds {:.2}x to \
         {:.2}x); the judge's peak memory {:.1} MB",
        solving.as_secs_f64(),
        judging.as_secs_f64(),
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
        peak_kb as f64 / 1024.0,
    );
}

/// [`time`], with the peak resident memory of the command's own process
/// (its `VmHWM`, sampled until it ends; its children are not counted), in
/// KB.
fn toolchains() {
    const TOOLCHAIN_ROUNDS: usize = 10;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    for end in ["in", "out"] {
        fs::copy(
            root.join("cases/acwing166/sample").with_extension(end),
            cases.join("sample").with_extension(end),
        )
        .expect("the sample is shipped");
    }
    let cache = dir.path().join("cache");
    let run = |file: &Path| {
        let mut command = judge(&["--submission", file.to_str().unwrap()], &cases);
        command.env("SUDOKU_JUDGE_CACHE", &cache);
        command
    };
    println!(
        "toolchains: one case with a cached build, the compiler's version known (warm) or asked \
         again (cold), median of {TOOLCHAIN_ROUNDS} rounds"
    );
    for (language, file, tools) in [
        ("C++", "ac_program.cpp", &["g++"][..]),
        ("Python", "ac_program.py", &["python3"][..]),
        ("Rust", "ac_program.rs", &["rustc"][..]),
    ] {
        if !have(tools) {
            println!("  {language:<7} SKIP ({} not found)", tools.join(", "));
            continue;
        }
        let file = root.join("tests/fixtures/submissions").join(file);
        // The first run builds and caches the submission: not timed.
        time(run(&file));
        let (mut warm, mut cold) = (Vec::new(), Vec::new());
        for _ in 0..TOOLCHAIN_ROUNDS {
            warm.push(time(run(&file)));
            let _ = fs::remove_dir_all(cache.join(".versions"));
            cold.push(time(run(&file)));
        }
        let (warm, cold) = (median(warm), median(cold));
        println!(
            "  {language:<7} warm {:>7.1} ms   cold {:>7.1} ms   a version query {:>6.1} ms",
            warm.as_secs_f64() * 1e3,
            cold.as_secs_f64() * 1e3,
            (cold.as_secs_f64() - warm.as_secs_f64()) * 1e3
        );
    }
}

fn time_and_peak(mut command: Command) -> (Duration, u64) {
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let mut child = command.spawn().expect("the command runs");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        let hwm = fs::read_to_string(&status).ok().and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        });
        peak = peak.max(hwm.unwrap_or(0));
        if let Some(status) = child.try_wait().expect("the command is waited for") {
            assert!(status.success(), "{command:?} failed ({status})");
            return (started.elapsed(), peak);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn main() {
    // `cargo bench` passes its own flags (e.g. --bench); the rest name
    // sections.
    let chosen: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let sections: [(&str, fn()); 5] = [
        ("programs", programs),
        ("leetcode", leetcode),
        ("flat", flat),
        ("million", million),
        ("toolchains", toolchains),
    ];
    for name in &chosen {
        assert!(
            sections.iter().any(|(n, _)| n == name),
            "no section {name}; the sections are programs, leetcode, flat, million and toolchains"
        );
    }
    for (name, section) in sections {
        if chosen.is_empty() || chosen.iter().any(|c| c == name) {
            section();
        }
    }
}
