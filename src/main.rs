//! The `sudoku-judge` binary: parse the command line, call the library, map
//! the outcome to an exit code (0 all accepted, 1 some case not accepted,
//! 2 the harness itself failed).

mod cli;

use std::io::{self, IsTerminal as _, Read as _, Write as _};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser as _, ValueEnum as _};

use cli::{Cli, ColorChoice, Command, ReportFormat, TestArgs};
use sudoku_judge::board::format::{self, Mode};
use sudoku_judge::board::Format;
use sudoku_judge::case::settings;
use sudoku_judge::case::Settings;
use sudoku_judge::judge::{self, Config};
use sudoku_judge::problem::Problem;
use sudoku_judge::report::human::HumanReporter;
use sudoku_judge::report::json::JsonReporter;
use sudoku_judge::report::Reporter;
use sudoku_judge::runner::external::Launch;
use sudoku_judge::runner::lang::{self, BuildInfo};
use sudoku_judge::runner::{builtin, process, Submission};
use sudoku_judge::solver::{self, Solver};

const HARNESS_ERROR: u8 = 2;
/// As shells report a command stopped by SIGINT.
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(error) => {
            // Output piped into `head` is not a failure worth a message.
            if error.chain().any(|e| {
                e.downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {error:#}");
            ExitCode::from(HARNESS_ERROR)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    };
    match cli.command {
        Command::Test(args) => test(args, color),
        Command::Solve { solver } => solve(pick_solver(solver.as_deref())?),
        Command::Solvers { all } => {
            let mut out = io::stdout().lock();
            for s in solver::ALL.iter().filter(|s| all || !s.faulty) {
                writeln!(out, "{:<22} {}", s.name, s.summary)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Worker { solver } => {
            let solver = solver::find(&solver)?;
            let code = builtin::serve(solver, io::stdin().lock(), io::stdout().lock())?;
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
        }
    }
}

fn pick_solver(name: Option<&str>) -> anyhow::Result<&'static Solver> {
    name.map_or_else(|| Ok(solver::default_solver()), solver::find)
}

/// What `test` judges, and how to say it again in a rerun hint.
fn submission(args: &TestArgs) -> anyhow::Result<(Submission, Option<BuildInfo>, String)> {
    if let Some(command) = &args.cmd {
        let launch = Launch::command(command)?;
        return Ok((
            Submission::External(launch),
            None,
            format!("--cmd {}", shell_words::quote(command)),
        ));
    }
    if let Some(path) = &args.submission {
        let mut rerun = format!(
            "--submission {}",
            shell_words::quote(&path.to_string_lossy())
        );
        if let Some(lang) = args.lang {
            let name = lang.to_possible_value().expect("no skipped values");
            rerun.push_str(&format!(" --lang {}", name.get_name()));
        }
        let built = lang::build(path, args.lang)?;
        let submission = match built.launch {
            Some(launch) => Submission::External(launch),
            None => Submission::NotCompiled {
                label: path.display().to_string(),
            },
        };
        return Ok((submission, Some(built.info), rerun));
    }
    let solver = pick_solver(args.solver.as_deref())?;
    let exe = std::env::current_exe()
        .context("cannot find this program's own binary to run solvers in")?;
    Ok((
        Submission::Builtin { solver, exe },
        None,
        format!("--solver {}", solver.name),
    ))
}

/// A note when the submission's interface is not the one `--problem` names.
fn interface_note(problem: Option<Problem>, submission: &Submission) -> Option<String> {
    if matches!(submission, Submission::NotCompiled { .. }) {
        return None;
    }
    match (problem?, submission.is_function()) {
        (Problem::Leetcode37, false) => Some(
            "note: LeetCode 37 calls a class Solution's solveSudoku; this submission is a \
             program reading stdin, judged as AcWing 166 would judge it"
                .into(),
        ),
        (problem @ (Problem::Acwing166 | Problem::Poj3074), true) => Some(format!(
            "note: {} judges a program reading stdin; this submission is a function, called \
             through sudoku-judge's driver",
            problem.name()
        )),
        _ => None,
    }
}

fn test(args: TestArgs, color: bool) -> anyhow::Result<ExitCode> {
    let overrides = Settings {
        problem: args.problem,
        time_limit: args
            .time_limit
            .as_deref()
            .map(settings::parse_duration)
            .transpose()
            .context("invalid --time-limit")?,
        memory_limit_kb: args
            .memory_limit
            .as_deref()
            .map(settings::parse_memory_kb)
            .transpose()
            .context("invalid --memory-limit")?,
        checker: args.checker,
    };
    let (submission, build, rerun) = submission(&args)?;
    if let Some(note) = interface_note(args.problem, &submission) {
        eprintln!("{note}");
    }
    // Ctrl-C stops the running submission (it has its own process group, so
    // the terminal's signal does not reach it) and reports what was judged.
    ctrlc::set_handler(process::interrupt).context("failed to install the Ctrl-C handler")?;
    let config = Config {
        paths: args.paths,
        submission,
        overrides,
        repeat: args.repeat as usize,
        build,
    };
    let stdout = io::stdout().lock();
    let mut reporter: Box<dyn Reporter> = match args.format {
        ReportFormat::Table => Box::new(HumanReporter::new(stdout, color, rerun)),
        ReportFormat::Json => Box::new(JsonReporter::new(stdout)),
    };
    let summary = judge::run(&config, reporter.as_mut())?;
    Ok(if summary.interrupted {
        ExitCode::from(INTERRUPTED)
    } else if summary.errors > 0 {
        ExitCode::from(HARNESS_ERROR)
    } else if summary.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn solve(solver: &Solver) -> anyhow::Result<ExitCode> {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .context("failed to read puzzles from stdin")?;
    let format = Format::detect(&input);
    let parsed = format::parse(&input, format, Mode::Puzzles).map_err(|e| {
        anyhow::anyhow!(
            "stdin:{}:{}: {} (read as {format} format)",
            e.line,
            e.column,
            e.message
        )
    })?;
    for warning in &parsed.warnings {
        eprintln!("warning: stdin: {warning}");
    }
    let mut unsolved = 0;
    let answers: Vec<Vec<Vec<char>>> = parsed
        .boards
        .iter()
        .enumerate()
        .map(|(n, puzzle)| {
            let mut rows = puzzle.to_rows();
            (solver.solve)(&mut rows);
            if rows.iter().flatten().any(|&c| c == '.') {
                unsolved += 1;
                eprintln!(
                    "puzzle {} (line {}) has no solution; printed as given",
                    n + 1,
                    parsed.start_lines[n]
                );
            }
            rows
        })
        .collect();
    let mut out = io::stdout().lock();
    out.write_all(format::render(format, &answers).as_bytes())?;
    out.flush()?;
    Ok(if unsolved > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
