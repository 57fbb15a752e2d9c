//! The commands around judging: solving, making and rating puzzles,
//! timing solvers, checking suites and the machine, and the caches and
//! consents the judge keeps.

use std::io::{self, Read as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;

use crate::bench;
use crate::board::format::{self, Mode};
use crate::board::Format;
use crate::case::settings;
use crate::case::{Settings, Suite};
use crate::cli::{
    BenchArgs, CacheAction, DoctorArgs, DriverArgs, GenArgs, InterfaceArg, RateArgs, ReportFormat,
    TrustArgs,
};
use crate::corpus;
use crate::files::{self as file, LineCapped, OutsideLinks};
use crate::generate;
use crate::outside::{OutsideName, OutsidePath};
use crate::report::progress;
use crate::report::{self, notices};
use crate::runner::lang;
use crate::runner::lang::{launch::Launch, Interface};
use crate::runner::sandbox::{Containment, Protections};
use crate::runner::{builtin, process, spawner};
use crate::solver::{self, Solver};

use super::shared::{failed_if, interrupted_code, on_ctrl_c, sandbox, stdout_width};

pub(crate) fn cases(out: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    let mut stdout = io::stdout().lock();
    match out {
        None => report::notices::shipped_list(&mut stdout)?,
        Some(dir) => {
            let written = crate::shipped::write_all(dir)?;
            report::notices::shipped_written(&mut stdout, dir, written)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn solve(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let solver = crate::solver::pick(name)?;
    // No line longer than a board can be is held (src/files/read.rs).
    let mut stdin = LineCapped::new(io::stdin().lock());
    // The format shows in the first line with cells; read up to it.
    let (head, format) =
        format::read_head(&mut stdin).context("failed to read puzzles from stdin")?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut unsolved = 0;
    let mut solve_one = |n: usize, line: usize, puzzle: &crate::board::Board| {
        let mut rows = puzzle.to_rows();
        (solver.solve)(&mut rows);
        if rows.iter().flatten().any(|&c| c == '.') {
            unsolved += 1;
            notices::unsolved(&mut io::stderr(), n, line)?;
        }
        Ok::<_, io::Error>(format::render_nth(format, n, &rows))
    };
    let stdin_error = |e: format::ParseError| anyhow::anyhow!(e.at("stdin", format));
    if format == Format::AcWing {
        // A puzzle at a time, each answer printed before the next is read:
        // a million puzzles need no more memory than one.
        let mut reader = format::AcWingReader::new(head.chain(stdin), Mode::Puzzles);
        for (n, puzzle) in (&mut reader).enumerate() {
            let (line, puzzle) = puzzle.map_err(stdin_error)?;
            out.write_all(solve_one(n, line, &puzzle)?.as_bytes())?;
        }
        for warning in reader.warnings() {
            notices::read_warning(&mut io::stderr(), "stdin", warning)?;
        }
    } else {
        let rest = file::read_whole(head.chain(stdin), &"stdin")?;
        let input = String::from_utf8_lossy(&rest).into_owned();
        let parsed = format::parse(&input, format, Mode::Puzzles).map_err(stdin_error)?;
        for warning in &parsed.warnings {
            notices::read_warning(&mut io::stderr(), "stdin", warning)?;
        }
        for (n, puzzle) in parsed.boards.iter().enumerate() {
            out.write_all(solve_one(n, puzzle.line, &puzzle.board)?.as_bytes())?;
        }
    }
    out.flush()?;
    drop(out);
    Ok(failed_if(unsolved > 0))
}

pub(crate) fn driver(
    args: &DriverArgs,
    links: OutsideLinks,
    containment: &Containment,
) -> anyhow::Result<ExitCode> {
    // The case's boards, and the toolchains of its suite, to build it as
    // `test` would.
    let (boards, toolchains) = match &args.case {
        // LeetCode's example board, the default of board.txt.
        None => (format!("{}\nend\n", crate::board::EXAMPLE), Vec::new()),
        Some(path) => {
            if let Err(error) = path.symlink_metadata() {
                anyhow::bail!(
                    "cannot read --case {}: {error}; give the one case to run on, a NAME.in \
                     file or a case directory, e.g. `--case cases/leetcode37/example1`",
                    path.display()
                );
            }
            let found = Suite::read(std::slice::from_ref(path), links)?;
            let [listed] = found.cases.as_slice() else {
                anyhow::bail!(
                    "--case {} holds {} cases; name one case file or case directory",
                    path.display(),
                    found.cases.len()
                );
            };
            let data = crate::case::load(&listed.case, true)?;
            let mut lines = String::new();
            for puzzle in data.puzzles()? {
                lines.push_str(&puzzle?.1.to_line());
                lines.push('\n');
            }
            lines.push_str("end\n");
            (lines, found.toolchains(lang::Language::find)?)
        }
    };
    let reading = match args.interface {
        Some(InterfaceArg::Leetcode) => lang::Reading::Forced(Interface::Function),
        Some(InterfaceArg::Program) => lang::Reading::Forced(Interface::Program),
        None => lang::Reading::LeetCodeFirst,
    };
    let exported = lang::export::export(
        &args.file,
        args.lang.map(|l| l.0),
        reading,
        toolchains,
        &args.out,
        &boards,
        containment,
    )?;
    let here = std::env::current_dir().unwrap_or_default();
    let dir = std::path::absolute(&args.out).unwrap_or_else(|_| args.out.clone());
    report::driver::exported(&mut io::stdout().lock(), &exported, &dir, &here)?;
    Ok(ExitCode::SUCCESS)
}

/// Checks every language's toolchain and self-test, and the sandbox; see
/// `sudoku-judge doctor --help` for the exit codes.
pub(crate) fn doctor(args: &DoctorArgs, containment: &Containment) -> anyhow::Result<ExitCode> {
    let protections = match spawner::protections(containment) {
        Some(protections) => protections.context("failed to start the sandbox's spawner")?,
        None => Protections::off(),
    };
    let languages: Vec<lang::Language> = if args.lang.is_empty() {
        lang::Language::all().to_vec()
    } else {
        args.lang.iter().map(|l| l.0).collect()
    };
    on_ctrl_c()?;
    let checkup = crate::doctor::check(&languages, protections, containment, &mut |language| {
        let _ = report::doctor::checking(&mut io::stderr(), &language.to_string());
    });
    if process::interrupted() {
        return Ok(interrupted_code());
    }
    let mut out = io::stdout().lock();
    if args.json {
        report::doctor::json(&mut out, &checkup)?;
    } else {
        report::doctor::human(&mut out, &checkup)?;
    }
    let failed = checkup.failed().next().is_some()
        || (args.require_all && checkup.not_found().next().is_some())
        || !checkup.refused().is_empty();
    Ok(failed_if(failed))
}

/// `sudoku-judge cache [clear]`: the build cache, shown or cleared.
pub(crate) fn cache(action: Option<CacheAction>) -> anyhow::Result<ExitCode> {
    let summary = lang::cache::summary()?;
    let mut out = io::stdout().lock();
    match action {
        None => report::cache::summary(&mut out, &summary)?,
        Some(CacheAction::Clear) => {
            let cleared = lang::cache::clear(&summary.root);
            report::cache::cleared(&mut out, &summary.root, &cleared)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn solvers(all: bool) -> anyhow::Result<ExitCode> {
    let listed = solver::ALL.iter().filter(|s| all || !s.faulty);
    crate::report::solvers::list(&mut io::stdout().lock(), listed, stdout_width())?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn worker(name: &str) -> anyhow::Result<ExitCode> {
    let solver = solver::find(name)?;
    let code = builtin::work(solver, io::stdin().lock())?;
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

pub(crate) fn gen(args: GenArgs) -> anyhow::Result<ExitCode> {
    let plan = generate::GenPlan {
        seed: args.seed,
        files: args.count,
        per_file: args.per_file.max(1),
        target: args.target(),
        format: args.format.format(),
        layout: args.layout.layout(),
        out: args.out,
        name: args.name,
        attempts: args.attempts,
    };
    // Ctrl-C stops between puzzles, and nothing is left behind.
    on_ctrl_c()?;
    let puzzles = (plan.files * plan.per_file) as u64;
    let mut generator = generate::Generator::new(plan.seed);
    let progress = match plan.target.hard_for {
        // A puzzle can take minutes: say how far its search has got.
        Some(hard) => {
            let progress = progress::counter(puzzles, "making puzzles");
            let shown = progress.clone();
            generator = generator.on_climb(move |reached| {
                shown.set_message(report::gen::climbed(reached, hard));
            });
            progress
        }
        None => progress::bar(puzzles, "making puzzles"),
    };
    let written = generate::write_cases_with(
        &plan,
        generator,
        |case| progress.inc(case.ratings.len() as u64),
        &process::interrupted,
    );
    progress.finish_and_clear();
    let written = match written {
        Err(_) if process::interrupted() => {
            report::gen::interrupted(&mut io::stderr())?;
            return Ok(interrupted_code());
        }
        other => other?,
    };
    report::gen::written(&mut io::stdout().lock(), &written, &plan)?;
    Ok(ExitCode::SUCCESS)
}

/// The puzzle files `rate` reads: each file named, every case input under
/// a directory named, or stdin.
fn rate_sources(files: &[PathBuf], links: OutsideLinks) -> anyhow::Result<Vec<(String, String)>> {
    if files.is_empty() || files == [PathBuf::from("-")] {
        let text = file::read_whole(LineCapped::new(io::stdin().lock()), &"stdin")?;
        return Ok(vec![(
            "stdin".into(),
            String::from_utf8_lossy(&text).into(),
        )]);
    }
    let mut paths = Vec::new();
    for file in files {
        if file.is_dir() {
            let cases = crate::case::find(std::slice::from_ref(file), links)?.cases;
            if cases.is_empty() {
                anyhow::bail!("{} holds no cases to rate", file.display());
            }
            paths.extend(cases.into_iter().map(|c| c.input));
        } else {
            paths.push(file.clone());
        }
    }
    paths
        .iter()
        .map(|f| {
            let text = file::read_lines(f, "puzzle file", file::MAX_WHOLE_BYTES)?;
            Ok((f.display().to_string(), text))
        })
        .collect()
}

pub(crate) fn rate(args: &RateArgs, links: OutsideLinks) -> anyhow::Result<ExitCode> {
    let sources = rate_sources(&args.files, links)?;
    let parsed = sources
        .iter()
        .map(|(name, text)| Ok((name, bench::parse_puzzle_file(name, text)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Counting a textbook solver's nodes takes up to seconds a puzzle.
    let bar = progress::bar(
        parsed.iter().map(|(_, p)| p.boards.len() as u64).sum(),
        "rating",
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    let mut rated = Vec::new();
    for (name, parsed) in &parsed {
        for puzzle in &parsed.boards {
            bar.set_message(
                OutsideName::new(format!("{name}:{}", puzzle.line))
                    .terminal()
                    .to_string(),
            );
            rated.push(generate::Rated::of(
                format!("{name}:{}", puzzle.line),
                &puzzle.board,
                args.max_nodes,
            ));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    report::rate::table(&mut io::stdout().lock(), &rated, args.max_nodes)?;
    Ok(failed_if(rated.iter().any(|r| r.rating.grade.is_none())))
}

pub(crate) fn calibrate(
    suites: &[PathBuf],
    time_scale: Option<f64>,
    links: OutsideLinks,
    containment: &Containment,
) -> anyhow::Result<ExitCode> {
    let suites = if suites.is_empty() {
        let root = PathBuf::from("cases");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
            .with_context(|| {
                format!(
                    "cannot read {}; name the suites to calibrate",
                    root.display()
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        let mut with_references = Vec::new();
        for dir in found {
            if !settings::references(&dir, links)?.is_empty() {
                with_references.push(dir);
            }
        }
        anyhow::ensure!(
            !with_references.is_empty(),
            "no suite under {} lists a [[reference]] in its judge.toml",
            root.display()
        );
        with_references
    } else {
        suites.to_vec()
    };
    let overrides = Settings {
        time_scale: time_scale
            .map(settings::TimeScale::new)
            .transpose()
            .context("invalid --time-scale")?,
        ..Settings::default()
    };
    let protections = sandbox(containment)?;
    on_ctrl_c()?;
    let bar = progress::spinner("calibrate");
    let mut out = io::stdout().lock();
    let mut all_hold = true;
    for (n, dir) in suites.iter().enumerate() {
        anyhow::ensure!(dir.is_dir(), "{} is not a suite directory", dir.display());
        let suite = crate::calibrate::suite(
            dir,
            links,
            &overrides,
            protections.as_ref(),
            containment,
            &mut |what| bar.set_message(what.terminal().to_string()),
        )?;
        if process::interrupted() {
            return Ok(interrupted_code());
        }
        bar.suspend(|| -> io::Result<()> {
            if n > 0 {
                writeln!(out)?;
            }
            report::calibrate::calibration(&mut out, &suite)
        })?;
        all_hold &= suite.holds_with_margin();
    }
    bar.finish_and_clear();
    Ok(failed_if(!all_hold))
}

/// `sudoku-judge trust`: allows what the judge.toml files under each path
/// name, or lists or takes back what was allowed.
pub(crate) fn trust(args: &TrustArgs, links: OutsideLinks) -> anyhow::Result<ExitCode> {
    use crate::case::trust;
    let mut out = io::stdout().lock();
    if args.list {
        let records = trust::records(links)?;
        report::trust::list(&mut out, &records, &trust::records_dir()?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for path in &args.paths {
        if args.revoke {
            let revoked = trust::revoke(path)?;
            report::trust::revoked(&mut out, path, &revoked)?;
            continue;
        }
        for file in settings::files_under(path)? {
            match trust::inspect(&file, links)? {
                Some(subject) => {
                    let allowed = trust::allow(&subject)?;
                    report::trust::allowed(&mut out, &subject, &allowed)?;
                }
                None => report::trust::nothing_to_allow(&mut out, &file)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn check(paths: &[PathBuf], links: OutsideLinks) -> anyhow::Result<ExitCode> {
    let report = corpus::check(paths, links)?;
    report::corpus::findings(&mut io::stdout().lock(), &report)?;
    let problems = report.problems();
    Ok(failed_if(problems > 0))
}

pub(crate) fn bench(args: BenchArgs, containment: &Containment) -> anyhow::Result<ExitCode> {
    let solvers: Vec<&'static Solver> = if args.solver.is_empty() {
        vec![solver::default_solver()]
    } else if args.solver.iter().any(|s| s == "all") {
        solver::ALL.iter().filter(|s| !s.faulty).collect()
    } else {
        args.solver
            .iter()
            .map(|name| solver::find(name))
            .collect::<anyhow::Result<_>>()?
    };
    if let Some(faulty) = solvers.iter().find(|s| s.faulty) {
        anyhow::bail!(
            "{} is broken on purpose and some never return; bench times sound solvers only",
            faulty.name
        );
    }
    let command = args.cmd.as_deref();
    let command = command
        .map(|c| Launch::command(c, containment))
        .transpose()?;
    let rounds = bench::Rounds {
        warmup: args.warmup as usize,
        measured: args.rounds.max(1),
    };
    let sets = args
        .files
        .iter()
        .map(|f| bench::read_puzzles(f, args.limit))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let jobs = sets.len() * (solvers.len() + usize::from(command.is_some()));
    let progress = progress::bar(jobs as u64, "bench");
    let mut results = Vec::with_capacity(jobs);
    for set in &sets {
        for solver in &solvers {
            progress.set_message(format!(
                "{} on {}",
                solver.name,
                OutsidePath::new(&set.path).terminal()
            ));
            results.push(bench::builtin(solver, set, rounds));
            progress.inc(1);
        }
        if let Some(launch) = &command {
            progress.set_message(format!(
                "{} on {}",
                launch.label,
                OutsidePath::new(&set.path).terminal()
            ));
            results.push(bench::command(launch, set, rounds)?);
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    let path = crate::solver::reference::CodePath::detected();
    let mut out = io::stdout().lock();
    match args.format {
        ReportFormat::Json => report::bench::json(&mut out, &results, rounds, path)?,
        ReportFormat::Table => report::bench::table(&mut out, &results, rounds, path)?,
    }
    Ok(failed_if(results.iter().any(|m| m.wrong > 0)))
}
