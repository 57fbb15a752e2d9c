//! The command line, as clap derive types: [`Cli`] and its subcommands'
//! arguments. The handlers in [`crate::commands`] turn these into the
//! library's configuration, and [`crate::app::main`] parses the command
//! line with them; nothing else in the library knows clap.
//!
//! The doc comments here are `--help`'s text, written for a terminal:
//! `<memory limit>` there is a placeholder, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::board::Format;
use crate::case::CheckerKind;
use crate::generate::{Grade, HardFor, Layout, Measure, Target};
use crate::problem::Problem;
use crate::runner::lang::Language;

/// A local online judge for Sudoku submissions: LeetCode 37 "Sudoku Solver"
/// and AcWing 166 / POJ 3074.
///
/// Judge solvers against case directories the way the real judges do:
/// verdicts (AC, WA, PE, TLE, MLE, OLE, RE, CE), the reason for a wrong
/// answer with a 9×9 diff, and the time and memory each case took against
/// its limits.
#[derive(Debug, Parser)]
#[command(name = "sudoku-judge", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    sudoku-judge test                       judge the default solver on cases/\n  \
    sudoku-judge new --lang python          solution.py: LeetCode's template, to start from\n  \
    sudoku-judge test cases/acwing166 --submission main.cpp\n  \
    sudoku-judge test cases/leetcode37 --submission solution.py\n  \
    sudoku-judge test cases/acwing166 --cmd './a.out'\n  \
    sudoku-judge test cases/acwing166 --solver backtrack --time-limit 2s\n  \
    sudoku-judge test --format json > report.json\n  \
    sudoku-judge test cases/acwing166 --submission main.cpp --watch    judge at every save\n  \
    sudoku-judge test --submission main.cpp --baseline last           what changed since the last run\n  \
    sudoku-judge driver solution.cpp --out debug                      the judged program, to debug\n  \
    sudoku-judge gen --out cases/mine --grade fiendish --count 10 --per-file 10\n  \
    sudoku-judge hack --submission main.cpp --time-limit 1s\n  \
    sudoku-judge calibrate                  check the suites' limits against references\n  \
    sudoku-judge solve < puzzles.txt        solve puzzles in any format\n  \
    sudoku-judge solvers                    list the built-in solvers")]
pub(crate) struct Cli {
    /// When to colour the output: on a terminal (auto, and never when
    /// NO_COLOR is set), always, or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub(crate) color: ColorChoice,

    /// How submissions and compilers are contained: auto uses every
    /// protection the kernel allows (PID, mount, network and IPC
    /// namespaces, a cgroup per run, a process filter for LeetCode-style
    /// files) and says in the report which are missing; require refuses to
    /// judge without all of them; off runs submissions as plain child
    /// processes, for debugging.
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto, global = true)]
    pub(crate) sandbox: SandboxArg,

    /// Read case files, expected outputs, judge.toml files and references
    /// that are symbolic links to files outside the directory given on the
    /// command line. Without it they are refused, so a downloaded suite
    /// cannot make the judge show a file elsewhere on the machine.
    #[arg(long, global = true)]
    pub(crate) follow_outside_links: bool,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// A count from `min` to `max`: clap names the flag and the range when a
/// value is out of it.
fn count_in(min: usize, max: usize) -> impl clap::builder::TypedValueParser<Value = usize> {
    use clap::builder::TypedValueParser as _;
    clap::value_parser!(u64)
        .range(min as u64..=u64::try_from(max).unwrap_or(u64::MAX))
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SandboxArg {
    Auto,
    Require,
    Off,
}

impl SandboxArg {
    pub(crate) fn mode(self) -> crate::runner::sandbox::Mode {
        use crate::runner::sandbox::Mode;
        match self {
            SandboxArg::Auto => Mode::Auto,
            SandboxArg::Require => Mode::Require,
            SandboxArg::Off => Mode::Off,
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Judge a solver, program or source file on cases and print a verdict table.
    ///
    /// A case is a directory holding input.txt and expected.txt (also
    /// input/expected, in/out), or a flat pair NAME.in with NAME.out or
    /// NAME.ans. The expected file may be missing: then the rules of Sudoku
    /// alone judge the answer. Each case's format (LeetCode literal, AcWing
    /// lines closed by `end`, or a 9-line grid) is detected from its content.
    ///
    /// A judge.toml in a suite directory sets that suite's defaults:
    /// problem = "acwing166", time_limit = "1s", memory_limit = "64M",
    /// checker = "exact". Flags override it. Those from a case's directory
    /// up to the PATH given are read, never above it; a case named by its
    /// file or case directory reads its suite's. A [toolchain] it names
    /// runs only once you allow the file (`sudoku-judge trust`).
    ///
    /// Limits: the time limit covers a whole case file. Programs are charged
    /// their CPU time (and held to twice the limit in wall time); built-in
    /// solvers and LeetCode-style files the time spent inside solveSudoku.
    /// Peak memory is the kernel's count for the process; a submission is
    /// stopped when it passes the memory limit, or prints more than 64 MB.
    ///
    /// Compiler flags: C++ g++ -O2 -std=c++17 -DONLINE_JUDGE; Rust rustc
    /// --edition 2021 -O; Java javac, then java -Xmx<memory limit>
    /// -Xss<a quarter of it, 8 to 64 MB>; Python python3. Builds are cached in ~/.cache/sudoku-judge
    /// (or $SUDOKU_JUDGE_CACHE).
    ///
    /// Exit code: 0 when every case is accepted, 1 when some case is not,
    /// 2 when a case could not be judged (e.g. a malformed input), 130 when
    /// interrupted with Ctrl-C, 141 when stdout was closed early (`| head`)
    /// and no case judged so far failed (1 when one did).
    ///
    /// Suites are untrusted: only regular files are read, a line past 1 MiB
    /// is a case error, files linking outside the given directory are
    /// refused (see --follow-outside-links), and control characters from
    /// cases and submissions are shown escaped.
    #[allow(
        rustdoc::broken_intra_doc_links,
        reason = "clap's help: [toolchain] is judge.toml's table, not a link"
    )]
    Test(TestArgs),

    /// Solve puzzles read on stdin and print them in the same format.
    ///
    /// Reads LeetCode literals, AcWing 166 lines (closed by `end`) or grids,
    /// so this command is itself a working AcWing 166 submission.
    Solve {
        /// Built-in solver to use (see `sudoku-judge solvers`).
        #[arg(long, value_name = "NAME")]
        solver: Option<String>,
    },

    /// Generate cases: puzzles with exactly one solution, with expected outputs.
    ///
    /// Reproducible from --seed. Puzzles are carved from random full grids
    /// (removing givens while the solution stays unique); fewer than 22
    /// givens start from a shuffled known 17-given puzzle with givens added
    /// back. Fiendish puzzles and --hard-for targets come from a hill climb
    /// over unique puzzles with the solver's work as the objective. All the
    /// files are written or none, and existing files are never overwritten.
    #[command(after_help = "Examples:\n  \
        100 fiendish puzzles as AcWing cases, 10 per file:\n    \
        sudoku-judge gen --out cases/mine --grade fiendish --count 10 --per-file 10\n  \
        a case that times out plain backtracking but not fewest-candidates search:\n    \
        sudoku-judge gen --out cases/mine --name slow- --count 1 --per-file 5 \\\n      \
        --hard-for backtrack --min-nodes 20000000")]
    Gen(GenArgs),

    /// Rate puzzles: givens, solutions, grade, and the work of the textbook
    /// solvers.
    ///
    /// Reads files (any format; AcWing files may hold many puzzles; `-` or
    /// nothing reads stdin). The grade comes from the guesses the reference
    /// search needs to solve the puzzle and prove its solution unique:
    /// easy = none (singles, locked candidates and triads solve it),
    /// medium = 1 to 3, hard = 4 to 20, fiendish = more than 20. The
    /// `backtrack` and `mrv` columns count the digits the built-in solvers
    /// of those names place before their first solution (plain row-major
    /// backtracking, and fewest-candidates backtracking): what decides
    /// whether such a submission times out. A count that reaches
    /// --max-nodes is shown as "more than N".
    Rate(RateArgs),

    /// Calibrate suites: run the reference submissions each suite's
    /// judge.toml lists with their real verdicts, and say whether the
    /// suite's time limit gives each that verdict on this machine, with a
    /// factor of 2 to spare either way.
    ///
    /// A reference is `[[reference]]` in judge.toml, with `file` (beside
    /// the judge.toml) and `verdict = "AC"` or `"TLE"`. Each is judged on
    /// every case with the time limit raised to 2.5 times, and its time per
    /// case is printed. When the limit does not reproduce every verdict
    /// with the margin, the range of limits that would is given, and a
    /// time_scale for this machine (judge.toml's `time_scale`, or `test
    /// --time-scale`). References run only once you allow the suite's
    /// judge.toml (`sudoku-judge trust`); the suites shipped in cases/ run
    /// as shipped.
    ///
    /// Exit code: 0 when every suite's limit reproduces every real verdict
    /// with the margin, 1 when not.
    Calibrate {
        /// Suite directories [default: every suite under cases/ whose
        /// judge.toml lists references].
        #[arg(value_name = "SUITE")]
        suites: Vec<PathBuf>,

        /// Calibrate with the limits multiplied by this factor (as `test
        /// --time-scale`), to try a suggested one.
        #[arg(long, value_name = "FACTOR")]
        time_scale: Option<f64>,
    },

    /// Check a corpus without judging: every input reads, every puzzle has
    /// exactly one solution, every expected output solves its input, and no
    /// suite holds the same puzzle twice.
    ///
    /// Each problem is printed with its file and line; nothing is modified.
    /// Exit code: 0 when there are no problems, 1 when there are.
    Check {
        /// Suite directories, case directories or case files.
        #[arg(value_name = "PATH", default_value = "cases")]
        paths: Vec<PathBuf>,
    },

    /// Stress test (对拍): judge a submission on generated puzzles round after
    /// round until it fails, then shrink the input and save it as a case.
    ///
    /// Each round judges --puzzles freshly generated puzzles (with exactly
    /// one solution) as one AcWing 166 input. On the first verdict other
    /// than AC, the input is shrunk while it fails the same way (fewer
    /// puzzles, then givens added back from the solution) and saved under
    /// --save with its expected output; the seed that replays it is printed.
    /// A TLE counts only when it repeats with the time limit raised by half
    /// (a run just over the limit on a busy machine is too close to call).
    ///
    /// Exit code: 0 when every round passed, 1 when a failure was found.
    #[command(after_help = "Examples:\n  \
        sudoku-judge stress --submission main.cpp --brute brute.py\n    \
        judge main.cpp against your own brute force, on the built-in puzzles\n  \
        sudoku-judge stress --submission main.cpp --gen 'python3 gen.py' --brute brute.py\n    \
        ... on what `python3 gen.py SEED` prints, for seeds 0, 1, 2, ...")]
    Stress(StressArgs),

    /// Hack a submission: search for an input it fails on, by local search
    /// over puzzles that maximises its measured time.
    ///
    /// Starts from inputs hard for each kind of search people write (many
    /// guesses for a strong solver, many nodes for fewest-candidates or
    /// row-major backtracking), then mutates the slowest input found:
    /// harder puzzles of the kind that hurts, neighbours of a puzzle (one
    /// solution kept), relabelled puzzles. Stops at the first verdict
    /// other than AC that repeats (a TLE must repeat with the limit raised
    /// by half, so that the saved input fails on a quieter machine too), or
    /// when --budget is spent, and saves the failing (or slowest) input
    /// under --save with its expected output.
    ///
    /// Exit code: 1 when the submission failed, 0 when it survived.
    #[command(after_help = "Example:\n  \
        sudoku-judge hack --submission main.cpp --time-limit 1s --budget 60s")]
    Hack(HackArgs),

    /// Measure solvers' speed on puzzle files: µs per puzzle and guesses.
    ///
    /// FILES hold one puzzle a line (`#` comments allowed), like the standard
    /// benchmark sets, or any case format. Each built-in solver is run
    /// in-process: one validating warm-up round (a wrong answer disqualifies
    /// it), then --rounds timed rounds over the whole file; the table shows
    /// the median, min and max µs per puzzle. --cmd also times a program on
    /// the same puzzles given as one AcWing 166 input (whole process time
    /// per puzzle), so you can compare yours with the built-ins.
    ///
    /// Example: sudoku-judge bench --solver all --limit 300 puzzles.txt
    Bench(BenchArgs),

    /// Write out the exact program judged for a source file, to step
    /// through it in a debugger.
    ///
    /// For a LeetCode-style file that is your code inside its language's
    /// driver, as the judge builds it; for a program, the program. DIR gets
    /// the build's files, board.txt (the boards it runs on: --case, or
    /// LeetCode's example) and run.sh, which builds and runs it with the
    /// judge's commands, flags and environment, but outside the sandbox so
    /// that a debugger can attach. DIR must be new or empty, since the
    /// build run.sh starts writes there too: nothing is ever overwritten.
    #[command(after_help = "Examples:\n  \
        sudoku-judge driver solution.cpp --out debug --case cases/leetcode37/example1\n  \
        sh debug/run.sh                  build it and run it on debug/board.txt\n  \
        SUDOKU_JUDGE_ANSWERS=/dev/fd/3 gdb --args debug/main\n                                         then: run 3>&1 < debug/board.txt")]
    Driver(DriverArgs),

    /// Write the file to start a solution from: LeetCode's template, or a
    /// program that reads AcWing 166 input.
    ///
    /// For LeetCode 37, LeetCode's own template in that language (the
    /// class Solution and solveSudoku as LeetCode shows them); for AcWing
    /// 166 and POJ 3074, a program that reads puzzle lines until `end` and
    /// prints one line per puzzle, with the solving left to a function that
    /// returns the puzzle unchanged. Either builds and runs as written: the
    /// judge's first verdict on it is WA, "left the board unchanged".
    ///
    /// The problem is --problem, else the one every case under cases/ is
    /// (by its judge.toml, as `test` reads it), else leetcode37. FILE's
    /// name defaults to what the language needs (Solution.java for a
    /// LeetCode Java file, Main.java for a program); a directory gets the
    /// file inside it. A file that exists is never overwritten: name
    /// another.
    #[command(after_help = "Examples:\n  \
        sudoku-judge new --lang python          solution.py, LeetCode's template\n  \
        sudoku-judge new --lang cpp --problem acwing166    main.cpp, a program reading until `end`\n  \
        sudoku-judge new Solution.java          the language from the extension")]
    New(NewArgs),

    /// Check that this machine can judge: every language's toolchain, and
    /// the sandbox. Start here.
    ///
    /// For each language: the toolchain found on PATH, with its path and
    /// version, beside the version the judge was tested with and the
    /// versions the real judges run where they are known; then its
    /// self-test, a tiny program that echoes a line, built with the judges'
    /// flags and judged in the sandbox on one built-in case, as a
    /// submission is. Then the protections the kernel grants the sandbox
    /// (the report's `sandbox:` line) and the cgroup runs are accounted in.
    /// A language whose toolchain is missing says which Debian package to
    /// install; it is not a failure unless --require-all. Which language is
    /// being checked is said on stderr: each takes a few seconds.
    ///
    /// Exit code: 0 when every toolchain found passes its self-test, 1 when
    /// a self-test fails (or, with --require-all, a toolchain is missing;
    /// with --sandbox require, a protection), 2 when the check itself could
    /// not run.
    #[command(after_help = "Examples:\n  \
        sudoku-judge doctor\n  \
        sudoku-judge doctor --lang cpp --lang python\n  \
        sudoku-judge doctor --json --require-all")]
    Doctor(DoctorArgs),

    /// The suites shipped with sudoku-judge: list them, or write a copy.
    ///
    /// sudoku-judge carries its own suites (LeetCode 37's and AcWing 166's
    /// tests and more), so an installed judge has them anywhere:
    /// `sudoku-judge test` judges them when there is no cases/ directory
    /// where it runs, and a filter picks them by id (`sudoku-judge test
    /// acwing166`). --out DIR writes them into DIR, to edit or add to; no
    /// file there is replaced.
    #[command(after_help = "Examples:\n  \
        sudoku-judge cases\n  \
        sudoku-judge cases --out my-cases\n  \
        sudoku-judge test acwing166 --submission main.cpp")]
    Cases {
        /// Write the shipped suites into DIR (made if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },

    /// Show the build cache: where it is, its size and cap, and its builds,
    /// last used first; `cache clear` empties it.
    ///
    /// Builds are cached in ~/.cache/sudoku-judge (or $SUDOKU_JUDGE_CACHE).
    /// The cache holds at most 2 GB: past that, each new build removes the
    /// builds used least recently. One build may write at most 256 MB; one
    /// that writes more (by code run at compile time) is a compile error and
    /// is removed. Set the caps with SUDOKU_JUDGE_CACHE_MAX and
    /// SUDOKU_JUDGE_BUILD_MAX, or `[cache] max` and `build_max` in
    /// ~/.config/sudoku-judge/config.toml. A build a judge running now uses
    /// is never removed.
    #[command(after_help = "Examples:\n  \
        sudoku-judge cache\n  \
        sudoku-judge cache clear")]
    Cache {
        #[command(subcommand)]
        action: Option<CacheAction>,
    },
    /// Allow the programs a suite's judge.toml names to run: its
    /// [toolchain] compilers and interpreters, and the [[reference]]
    /// submissions `calibrate` builds and runs.
    ///
    /// Suites come from elsewhere (cloned, unzipped, shared), so a
    /// judge.toml that names programs is refused, with its file and line,
    /// until you allow it. This command shows what each judge.toml at or
    /// under DIR names, then records your consent under a SHA-256 of the
    /// file and of every file of its suite it names as a program (a
    /// [toolchain] path, each reference): any change to them takes the
    /// consent back, as direnv's `allow` does for an .envrc. A program
    /// named by a path out of the suite (absolute, `..`, a link out) is
    /// refused, not allowed; one found on PATH by its name is your
    /// machine's. What runs is a copy of the bytes hashed, in the sandbox.
    /// Limits, problem, checker and
    /// time_scale need no consent; the suites shipped with sudoku-judge
    /// need none as shipped. Records are kept in
    /// ~/.local/share/sudoku-judge/trust ($XDG_DATA_HOME).
    #[command(after_help = "Examples:\n  \
        sudoku-judge trust packs/coach         allow every judge.toml under packs/coach\n  \
        sudoku-judge trust --list              what is allowed, and whether it changed since\n  \
        sudoku-judge trust --revoke packs/coach   take the consent back")]
    #[allow(
        rustdoc::broken_intra_doc_links,
        reason = "clap's help: [toolchain] is judge.toml's table, not a link"
    )]
    Trust(TrustArgs),

    /// List the built-in solvers, one a line, name first; the first is the default.
    Solvers {
        /// Also list the deliberately broken solvers, one for each way a
        /// submission fails, to see what each verdict looks like.
        #[arg(long)]
        all: bool,
    },

    /// Internal: host a built-in solver for the judge, as a LeetCode driver
    /// (one puzzle a line on stdin, one answer a line on the answer channel).
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        solver: String,
    },

    /// Internal: start submissions for the judge (requests on a socket as
    /// stdin), so that the memory each one is charged is its own.
    #[command(hide = true)]
    Spawner,
}

/// What `cache` does beyond showing the cache.
#[derive(Subcommand, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheAction {
    /// Remove every build, compiler version and compiler cache, but the
    /// builds a judge running now uses.
    Clear,
}

// The limit flags are the ones `stress` and `hack` take; judging cases,
// their help speaks of case files and names what `--problem` sets.
#[derive(Debug, Args)]
#[command(
    mut_arg("problem", |arg| arg.help(
        "Judge on this problem's terms: its time and memory limits and its interface (acwing166 \
         and poj3074: programs, 1 s and 64 MB for the whole input; leetcode37: a class \
         Solution; LeetCode publishes no limits, so a generous 1 s per case file and 256 MB are \
         used)"
    )),
    mut_arg("time_limit", |arg| arg.help(
        "Time limit for each case file, e.g. 1s or 1500ms [default: 1s]"
    )),
    mut_arg("memory_limit", |arg| arg.help(
        "Memory limit for each case, e.g. 64M or 256MB [default: 256M]"
    )),
)]
pub(crate) struct TestArgs {
    /// Suite directories, case directories or case files to judge; an
    /// argument that is not a path picks cases by id under cases/: the
    /// name of a suite or a case picks it alone (`leetcode37` is not
    /// `leetcode37-hard`), a glob picks what it matches (`leetcode37*`),
    /// and any other text every id holding it (`hard`) [default: cases].
    #[arg(value_name = "PATH|FILTER")]
    pub(crate) paths: Vec<String>,

    #[command(flatten)]
    pub(crate) submission: SubmissionArgs,

    /// How answers are checked: sudoku accepts any valid solution that keeps
    /// the givens (a special judge); exact compares text with the expected
    /// file, ignoring CRLF and trailing whitespace.
    #[arg(long, value_enum)]
    pub(crate) checker: Option<CheckerArg>,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Multiply every time limit by this factor, e.g. 1.5 on a machine
    /// half again as slow as the judge's (`sudoku-judge calibrate` suggests
    /// one); overrides `time_scale` in judge.toml.
    #[arg(long, value_name = "FACTOR")]
    pub(crate) time_scale: Option<f64>,

    /// Run each case N times and report the median time (min/max in JSON).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(crate) repeat: u32,

    /// The report on stdout: a table for people, one JSON document, or
    /// JUnit XML. To write a JSON or JUnit report beside the table, give
    /// --json FILE or --junit FILE.
    #[arg(long, value_enum, default_value_t = TestFormat::Table)]
    pub(crate) format: TestFormat,

    /// Judge N cases at a time. Each case's CPU time and memory stay its
    /// own, but wall times are taken under load; 1 keeps them faithful.
    #[arg(long, short = 'j', default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: u16,

    /// Judge only the K-th of N shares of the sorted case list (every N-th
    /// case), so N CI machines judge one corpus together, e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub(crate) partition: Option<String>,

    /// Start a new process for every case. By default a LeetCode-style
    /// file or a built-in solver runs all its cases in one process (one a
    /// job), as LeetCode runs all the tests of a submission: a global or
    /// static keeps its value from one case to the next, and a case that
    /// fails only after others is said to. Programs always get a process
    /// per case, as AcWing and POJ run them.
    #[arg(long)]
    pub(crate) fresh_process: bool,

    /// Show only the rows of cases not accepted and the summary: no
    /// header, no failure blocks (a compile error is still shown).
    #[arg(long, short = 'q', conflicts_with = "verbose")]
    pub(crate) quiet: bool,

    /// Say everything: the toolchain and the sandbox in full on every run
    /// (by default the toolchain is named when a build is made, and the
    /// sandbox in a few words), every failure in full (by default the
    /// first three, and a line for each other), the grids of every wrong
    /// answer of a case (by default the first's), and how --baseline
    /// decides that a time changed.
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,

    /// Show what each accepted case printed besides its answers, under its
    /// row: a LeetCode-style file's own stdout (its debug prints, which
    /// never reach the answers) and any submission's stderr, cut as a
    /// failure's are. A case not accepted shows its own in its failure
    /// block anyway.
    #[arg(long, conflicts_with = "quiet")]
    pub(crate) show_output: bool,

    /// Stop at the first case not accepted, as the judges do; the cases
    /// after it are listed as not run.
    #[arg(long)]
    pub(crate) fail_fast: bool,

    /// Judge only the cases that were not accepted in the last run here
    /// (remembered in .sudoku-judge/ in the current directory), where they
    /// were: without a path, under the paths that run judged.
    #[arg(long)]
    pub(crate) failed: bool,

    /// Also write the JSON report to FILE; `-` writes it to stdout, and
    /// the table then goes to stderr.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,

    /// Also write a JUnit XML report to FILE, for CI viewers; `-` writes it
    /// to stdout, and the table then goes to stderr.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,

    /// Also write a report to look at to FILE: one self-contained HTML
    /// page (no network) with each case's time as a bar against its limit,
    /// the per-puzzle times, the comparison with --baseline and each wrong
    /// answer as two grids.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,

    /// Compare with an earlier run: a report written with `--json FILE`,
    /// or `last` for the last run in this directory (kept in
    /// .sudoku-judge/). Each case shows what changed (`TLE → AC`, `1320 ms
    /// → 410 ms, 3.2x faster`) and the summary counts fixed, broken, faster
    /// and slower cases. A time counts as changed past 1.3x and 2 ms; with
    /// --repeat 3 or more on both runs, when their ranges do not overlap.
    /// Exits 1 when a case accepted then is not any more. A NAME is a run
    /// kept with --save-baseline NAME.
    #[arg(long, value_name = "FILE|NAME|last")]
    pub(crate) baseline: Option<PathBuf>,

    /// Keep this run as the baseline NAME (in .sudoku-judge/baselines/),
    /// to compare later runs with by --baseline NAME: unlike `last`, a
    /// later run does not replace it. An interrupted run is not kept.
    #[arg(long, value_name = "NAME")]
    pub(crate) save_baseline: Option<String>,

    /// Keep what each case that was not accepted was given and gave back,
    /// one directory a case under DIR: its input and expected output,
    /// the submission's output (output.txt), its stderr (stderr.txt) and
    /// the verdict. DIR must be new, empty or made by --keep before (then
    /// it is replaced); a directory of yours is refused.
    #[arg(long, value_name = "DIR")]
    pub(crate) keep: Option<PathBuf>,

    /// Judge again whenever the submission, a case or a judge.toml
    /// changes (for --cmd: the program given as a path, rebuilt or edited,
    /// and the files its command names, e.g. the script of 'python3
    /// sol.py'), each run compared with the one before; a change during a
    /// run restarts it. The screen is cleared between runs on a terminal;
    /// a pipe gets a separator line. Ctrl-C ends the watch.
    #[arg(long)]
    pub(crate) watch: bool,
}

/// What is judged: a built-in solver, a command, or a source file.
#[derive(Debug, Args)]
pub(crate) struct SubmissionArgs {
    /// Built-in solver to judge (default: the fastest; see `sudoku-judge solvers`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["cmd", "submission"])]
    pub(crate) solver: Option<String>,

    /// Judge your own program, run as this command without a shell, e.g.
    /// './a.out' or 'python3 sol.py'. It reads AcWing 166 input on stdin
    /// (puzzle lines closed by `end`; cases in other formats are converted)
    /// and prints one 81-digit line per puzzle.
    #[arg(long, value_name = "COMMAND", conflicts_with = "submission")]
    pub(crate) cmd: Option<String>,

    /// Judge a source file: a program with a main (AcWing style), or a
    /// LeetCode-style class Solution with solveSudoku / solve_sudoku and no
    /// main, which is called once per board through a driver as on
    /// LeetCode. C++, C, Rust, Python 3, Java, Go, JavaScript, TypeScript,
    /// C#, Kotlin, Scala, Ruby, PHP or Racket, told by the extension;
    /// built once with the judges' flags and cached.
    #[arg(long, value_name = "FILE")]
    pub(crate) submission: Option<PathBuf>,

    /// The language of --submission when its extension does not tell.
    #[arg(long, value_enum, requires = "submission")]
    pub(crate) lang: Option<LangArg>,

    /// How to read a --submission that has both LeetCode's class Solution
    /// and a main of its own (a local test harness): `leetcode` judges the
    /// class through the driver, leaving the harness out, `program` runs
    /// the file as a program reading stdin. By default a file judged on
    /// LeetCode's problem alone (--problem leetcode37, or every case's
    /// judge.toml) is read as LeetCode reads it, and as a program otherwise.
    #[arg(long, value_enum, requires = "submission")]
    pub(crate) interface: Option<InterfaceArg>,
}

/// The readings `--interface` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum InterfaceArg {
    /// LeetCode's class Solution, called through the driver.
    Leetcode,
    /// A program reading AcWing 166 input on stdin.
    Program,
}

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The file to write (new; a directory gets the default name inside
    /// it) [default: the language's usual name, e.g. solution.py,
    /// Solution.java, main.cpp].
    #[arg(value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,

    /// The language [default: from FILE's extension].
    #[arg(long, value_enum, value_name = "LANG")]
    pub(crate) lang: Option<LangArg>,

    /// The problem to start on: leetcode37 gets LeetCode's template,
    /// acwing166 and poj3074 a program reading stdin [default: the problem
    /// of every case under cases/, else leetcode37].
    #[arg(long, value_enum)]
    pub(crate) problem: Option<ProblemArg>,
}

#[derive(Debug, Args)]
pub(crate) struct TrustArgs {
    /// Suite directories (every judge.toml at or under each, hidden
    /// directories left out) or judge.toml files.
    #[arg(value_name = "DIR", required_unless_present = "list")]
    pub(crate) paths: Vec<PathBuf>,

    /// List every judge.toml allowed, what it names, and whether it is
    /// still as it was allowed.
    #[arg(long, conflicts_with_all = ["revoke", "paths"])]
    pub(crate) list: bool,

    /// Take back the consent given to every judge.toml at or under each
    /// DIR: their programs no longer run.
    #[arg(long)]
    pub(crate) revoke: bool,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Check only this language (repeat for more) [default: every language].
    #[arg(long, value_enum, value_name = "LANG")]
    pub(crate) lang: Vec<LangArg>,

    /// Print the findings as JSON on stdout instead of the human report.
    #[arg(long)]
    pub(crate) json: bool,

    /// Count a missing toolchain as a failure (exit code 1), as on a
    /// machine that must judge every language.
    #[arg(long)]
    pub(crate) require_all: bool,
}

#[derive(Debug, Args)]
pub(crate) struct DriverArgs {
    /// The source file: a LeetCode-style file or a program.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,

    /// The directory to write into: new (it is made) or empty.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,

    /// The case whose boards board.txt holds (a case file or directory)
    /// [default: LeetCode's example board].
    #[arg(long, value_name = "CASE")]
    pub(crate) case: Option<PathBuf>,

    /// The language of FILE when its extension does not tell.
    #[arg(long, value_enum)]
    pub(crate) lang: Option<LangArg>,

    /// How to read a FILE that has both LeetCode's class Solution and a
    /// main of its own (a local test harness) [default: leetcode, the
    /// class inside the driver, the harness left out, as judged on
    /// LeetCode's problem].
    #[arg(long, value_enum)]
    pub(crate) interface: Option<InterfaceArg>,
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// Directory to write the cases into (created if missing). Existing
    /// files are never overwritten: a name clash is an error.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,

    /// How many case files to write, from 1 to 1,000,000.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = count_in(1, 1_000_000))]
    pub(crate) count: usize,

    /// Puzzles per case file (several need --format acwing), from 1 to
    /// 1,000,000.
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = count_in(1, 1_000_000))]
    pub(crate) per_file: usize,

    /// Seed of the generator: the same seed writes the same cases.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,

    /// Exactly this many givens per puzzle, from 17 to 81.
    #[arg(long, value_parser = clap::value_parser!(u8).range(17..=81))]
    pub(crate) givens: Option<u8>,

    /// Only puzzles of this grade (see `sudoku-judge rate --help`).
    #[arg(long, value_enum)]
    pub(crate) grade: Option<GradeArg>,

    /// Only puzzles that cost this solver at least --min-nodes: nodes to
    /// the first solution for backtrack and mrv (the built-in solvers),
    /// guesses for propagate (the reference search).
    #[arg(long, value_enum, requires = "min_nodes", conflicts_with = "givens")]
    pub(crate) hard_for: Option<HardForArg>,

    /// The work --hard-for asks for.
    #[arg(long, value_name = "N", requires = "hard_for", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) min_nodes: Option<u64>,

    /// Format of the inputs and expected outputs.
    #[arg(long, value_enum, default_value_t = FormatArg::Acwing)]
    pub(crate) format: FormatArg,

    /// flat: NAME.in with NAME.out; dir: NAME/input.txt with NAME/expected.txt.
    #[arg(long, value_enum, default_value_t = LayoutArg::Flat)]
    pub(crate) layout: LayoutArg,

    /// Case names are this prefix and a number.
    #[arg(long, default_value = "gen-", value_name = "PREFIX")]
    pub(crate) name: String,

    /// Candidates to try for each puzzle before giving up on a target (a
    /// hill climb counts each neighbour it tries).
    #[arg(long, default_value_t = 10_000, value_name = "N", value_parser = count_in(1, 1_000_000_000))]
    pub(crate) attempts: usize,
}

impl GenArgs {
    pub(crate) fn target(&self) -> Target {
        Target {
            givens: self.givens.map(usize::from),
            grade: self.grade.map(GradeArg::grade),
            hard_for: self.hard_for.zip(self.min_nodes).map(|(h, min)| HardFor {
                measure: h.measure(),
                min,
            }),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    /// Puzzle files; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,

    /// Stop counting a textbook solver's nodes here (plain backtracking
    /// places about 8 million digits a second).
    #[arg(long, default_value_t = 10_000_000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_nodes: u64,
}

/// The solvers whose work `gen --hard-for` and `rate` count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum HardForArg {
    /// Plain row-major backtracking: nodes to the first solution.
    Backtrack,
    /// Fewest-candidates backtracking: nodes to the first solution.
    Mrv,
    /// The reference search: guesses to solve and prove uniqueness.
    Propagate,
}

impl HardForArg {
    pub(crate) fn measure(self) -> Measure {
        match self {
            HardForArg::Backtrack => Measure::Backtrack,
            HardForArg::Mrv => Measure::Mrv,
            HardForArg::Propagate => Measure::Propagate,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// Puzzle files.
    #[arg(value_name = "FILE", required = true)]
    pub(crate) files: Vec<PathBuf>,

    /// Built-in solvers to time (repeat the flag; `all` for every one)
    /// [default: the default solver].
    #[arg(long, value_name = "NAME")]
    pub(crate) solver: Vec<String>,

    /// Also time this program on the same puzzles as one AcWing input.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) cmd: Option<String>,

    /// Timed rounds per solver and file, from 1 to 1000.
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = count_in(1, 1000))]
    pub(crate) rounds: usize,

    /// Untimed rounds first (the first also validates every answer).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) warmup: u64,

    /// Use only the first N puzzles of each file (the textbook solvers
    /// need minutes for a whole hard set).
    #[arg(long, value_name = "N", value_parser = count_in(1, usize::MAX))]
    pub(crate) limit: Option<usize>,

    /// A table for people, or JSON.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub(crate) format: ReportFormat,
}

#[derive(Debug, Args)]
pub(crate) struct StressArgs {
    #[command(flatten)]
    pub(crate) submission: SubmissionArgs,

    /// Rounds to run; each judges freshly generated puzzles [default:
    /// 1000, or as many as --time allows when --time is given alone].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) rounds: Option<u64>,

    /// Run this long if nothing fails, e.g. 30s or 5m: alone, with no cap
    /// on rounds; with --rounds, until whichever comes first.
    #[arg(long, value_name = "DURATION")]
    pub(crate) time: Option<String>,

    /// Seed of the first round; round r uses seed + r.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,

    /// Puzzles in each round's input, as in an AcWing 166 input file: more
    /// than one catches state left over between puzzles. From 1 to 100,000.
    #[arg(long, default_value_t = 5, value_name = "K", value_parser = count_in(1, 100_000))]
    pub(crate) puzzles: usize,

    /// Exactly this many givens per puzzle, from 17 to 81.
    #[arg(long, value_parser = clap::value_parser!(u8).range(17..=81))]
    pub(crate) givens: Option<u8>,

    /// Only puzzles of this grade.
    #[arg(long, value_enum)]
    pub(crate) grade: Option<GradeArg>,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Where the shrunk failing case is saved, as NAME.in/NAME.out.
    #[arg(long, default_value = "stress-cases", value_name = "DIR")]
    pub(crate) save: PathBuf,

    /// Most runs to spend shrinking a failing input.
    #[arg(long, default_value_t = 300, value_name = "N", value_parser = count_in(0, 1_000_000))]
    pub(crate) shrink_runs: usize,

    /// Your own brute force (a program or LeetCode-style file in any
    /// language the judge runs): run on each input first, its answers are
    /// the expected ones, and the submission's are checked against them.
    /// A brute force that is not accepted stops the run.
    #[arg(long, value_name = "FILE")]
    pub(crate) brute: Option<PathBuf>,

    /// Your own generator instead of the built-in one: a command run
    /// (without a shell, in the sandbox) with each round's seed as its last
    /// argument, printing one case (AcWing lines closed by `end`, a
    /// LeetCode literal or a grid). Its puzzles are solved by the reference
    /// solver, or by --brute; shrinking works on what it printed.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["givens", "grade", "puzzles"])]
    pub(crate) gen: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct HackArgs {
    #[command(flatten)]
    pub(crate) submission: SubmissionArgs,

    /// When to stop if nothing fails: a number of rounds (`200`) or a time
    /// (`30s`, `5m`).
    #[arg(long, default_value = "60s", value_name = "ROUNDS|TIME")]
    pub(crate) budget: String,

    /// Seed of the search: the same seed tries the same first inputs.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,

    /// Puzzles in each input, as in an AcWing 166 input file.
    #[arg(long, default_value_t = 5, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub(crate) puzzles: u64,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,

    /// Where the failing or slowest input is saved, as NAME.in/NAME.out.
    #[arg(long, default_value = "hack-cases", value_name = "DIR")]
    pub(crate) save: PathBuf,
}

/// The limits to judge under: each generated input for `stress` and `hack`,
/// each case for `test` (which words the help for cases; see [`TestArgs`]).
#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    /// Judge on this problem's limits (see `sudoku-judge test --help`).
    #[arg(long, value_enum)]
    pub(crate) problem: Option<ProblemArg>,

    /// Time limit for each generated input [default: 1s].
    #[arg(long, value_name = "TIME")]
    pub(crate) time_limit: Option<String>,

    /// Memory limit [default: 256M].
    #[arg(long, value_name = "SIZE")]
    pub(crate) memory_limit: Option<String>,
}

/// The formats `gen` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// `[["5","3",...],...]`, one board per file.
    Leetcode,
    /// 81-character lines closed by `end`.
    Acwing,
    /// 9 lines of 9 cells, one board per file.
    Grid,
}

impl FormatArg {
    pub(crate) fn format(self) -> Format {
        match self {
            FormatArg::Leetcode => Format::LeetCode,
            FormatArg::Acwing => Format::AcWing,
            FormatArg::Grid => Format::Grid { spaced: false },
        }
    }
}

/// The problems `--problem` names; [`Problem`] in the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProblemArg {
    /// LeetCode 37 "Sudoku Solver": one board, solved in place.
    Leetcode37,
    /// AcWing 166 "数独": many puzzles on stdin, closed by `end`.
    Acwing166,
    /// POJ 3074 "Sudoku": the same input as AcWing 166.
    Poj3074,
}

impl ProblemArg {
    pub(crate) fn problem(self) -> Problem {
        match self {
            ProblemArg::Leetcode37 => Problem::Leetcode37,
            ProblemArg::Acwing166 => Problem::Acwing166,
            ProblemArg::Poj3074 => Problem::Poj3074,
        }
    }
}

/// The checkers `--checker` names; [`CheckerKind`] in the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CheckerArg {
    /// Any valid solution that keeps the givens (a special judge).
    Sudoku,
    /// The text must equal the expected output (CRLF and trailing whitespace ignored).
    Exact,
}

impl CheckerArg {
    pub(crate) fn kind(self) -> CheckerKind {
        match self {
            CheckerArg::Sudoku => CheckerKind::Sudoku,
            CheckerArg::Exact => CheckerKind::Exact,
        }
    }
}

/// The grades `--grade` names; [`Grade`] in the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum GradeArg {
    /// Logic alone solves it (naked and hidden singles, locked
    /// candidates): no guess at all.
    Easy,
    /// One to three guesses.
    Medium,
    /// Four to twenty guesses.
    Hard,
    /// More than twenty guesses: the hardest known puzzles live here.
    Fiendish,
}

impl GradeArg {
    pub(crate) fn grade(self) -> Grade {
        match self {
            GradeArg::Easy => Grade::Easy,
            GradeArg::Medium => Grade::Medium,
            GradeArg::Hard => Grade::Hard,
            GradeArg::Fiendish => Grade::Fiendish,
        }
    }
}

/// The layouts `gen --layout` names; [`Layout`] in the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LayoutArg {
    /// `NAME.in` with `NAME.out`, as online-judge-tools keeps them.
    Flat,
    /// `NAME/input.txt` with `NAME/expected.txt`.
    Dir,
}

impl LayoutArg {
    pub(crate) fn layout(self) -> Layout {
        match self {
            LayoutArg::Flat => Layout::Flat,
            LayoutArg::Dir => Layout::Dir,
        }
    }
}

/// A language `--lang` names: every one the library judges, by its id or
/// an alias.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LangArg(pub(crate) Language);

impl ValueEnum for LangArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<LangArg>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| Language::all().iter().copied().map(LangArg).collect())
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let spec = self.0.spec();
        Some(clap::builder::PossibleValue::new(spec.id).aliases(spec.aliases))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    Table,
    Json,
}

/// The report `test` writes on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TestFormat {
    Table,
    Json,
    Junit,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
