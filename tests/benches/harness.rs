//! `cargo bench --bench harness`: what judging costs on top of running the
//! program. The same 1,000 one-puzzle AcWing cases are judged with an
//! external program (`sudoku-judge solve`, which is itself an AcWing 166
//! submission) three ways, in one run:
//!
//! - a plain shell loop, `for f in *.in; do prog < $f | cmp -s - ${f%.in}.out; done`,
//!   the baseline the harness is held to;
//! - the same loop running the program alone (`prog < $f > /dev/null`), the
//!   least any judge must spend;
//! - `sudoku-judge test DIR --cmd prog --jobs 1`, in the sandbox;
//! - the same with `--jobs 2`;
//! - the same with `--jobs 1 --sandbox off`, to show what containment costs.
//!
//! It prints each median of five rounds and the ratios to the shell loop.
//! The harness does more per case than the loop (fresh namespaces, a
//! root filesystem and a cgroup per run, limits, a watchdog, parsing and
//! checking every answer), and the ratio says what that costs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_judge::board::Format;
use sudoku_judge::generate::{self, Layout, Plan, Target};

const CASES: usize = 1000;
const ROUNDS: usize = 5;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time(mut command: Command) -> Duration {
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let status = command.status().expect("the command runs");
    let elapsed = started.elapsed();
    assert!(status.code().is_some(), "{command:?} was killed");
    elapsed
}

fn main() {
    // `cargo bench` passes its own flags (e.g. --bench); none apply here.
    let exe = env!("CARGO_BIN_EXE_sudoku-judge");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = dir.path().join("cases");
    let plan = Plan {
        seed: 2024,
        files: CASES,
        per_file: 1,
        target: Target::default(),
        format: Format::AcWing,
        layout: Layout::Flat,
        out: cases.clone(),
        name: "c".into(),
        attempts: 100,
    };
    generate::write_cases(&plan, |_| {}, &|| false).expect("cases are written");
    let program = format!("{exe} solve");

    let shell = |cases: &Path| {
        let mut command = Command::new("sh");
        command.current_dir(cases).arg("-c").arg(format!(
            "for f in *.in; do {program} < \"$f\" | cmp -s - \"${{f%.in}}.out\" || echo \"$f\"; done"
        ));
        command
    };
    let bare = |cases: &Path| {
        let mut command = Command::new("sh");
        command.current_dir(cases).arg("-c").arg(format!(
            "for f in *.in; do {program} < \"$f\" > /dev/null; done"
        ));
        command
    };
    let judge = |jobs: &str, sandbox: &str| {
        let mut command = Command::new(exe);
        command
            .args([
                "test",
                "--cmd",
                &program,
                "--jobs",
                jobs,
                "--sandbox",
                sandbox,
            ])
            .arg(&cases);
        command
    };
    let (mut loop_times, mut bare_times, mut one, mut two, mut unsandboxed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // Interleaved rounds, so a slow spell of the machine hits them all.
    for _ in 0..ROUNDS {
        loop_times.push(time(shell(&cases)));
        bare_times.push(time(bare(&cases)));
        one.push(time(judge("1", "auto")));
        two.push(time(judge("2", "auto")));
        unsandboxed.push(time(judge("1", "off")));
    }
    let (base, bare, one, two, unsandboxed) = (
        median(loop_times),
        median(bare_times),
        median(one),
        median(two),
        median(unsandboxed),
    );
    let per_case = |d: Duration| d.as_secs_f64() * 1e3 / CASES as f64;
    println!(
        "{CASES} one-puzzle cases judged with `sudoku-judge solve`, median of {ROUNDS} rounds:"
    );
    println!(
        "  shell loop (run + cmp)       {:>8.3} s  {:.3} ms/case",
        base.as_secs_f64(),
        per_case(base)
    );
    for (label, d) in [
        ("shell loop (run only)", bare),
        ("judge --jobs 1", one),
        ("judge --jobs 2", two),
        ("judge --jobs 1 --sandbox off", unsandboxed),
    ] {
        println!(
            "  {label:<28} {:>8.3} s  {:.3} ms/case  {:.2}x the shell loop",
            d.as_secs_f64(),
            per_case(d),
            d.as_secs_f64() / base.as_secs_f64()
        );
    }
}
