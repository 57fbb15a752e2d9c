//! A suite's `judge.toml`: the limits and checker its cases are judged with.
//!
//! The nearest `judge.toml` above a case wins key by key over those further
//! up, so a corpus can set a checker once at its root and limits per suite.
//! The search never goes above the directory named on the command line
//! (`sudoku-judge test cases` reads `cases/judge.toml` and those below it);
//! a case named directly, by its file or its case directory, reads its
//! suite's (the directory holding the flat pair or the case directory) and
//! its own case directory's, and none above (see [`Case::settings_top`]).
//! So a `judge.toml` elsewhere on disk, such as another user's in `/tmp`
//! above the suite being judged, is never read. Command-line flags override
//! every file.
//!
//! Two keys serve calibration (`sudoku-judge calibrate`): `time_scale`
//! multiplies the time limit, so a suite calibrated on a slower or faster
//! machine than the judge's keeps the judge's verdicts; `[[reference]]`
//! lists submissions with the verdict the real judge gave them. References
//! belong to the suite whose `judge.toml` names them and are not inherited.
//!
//! A file that names programs, a `[toolchain]` or a `[[reference]]`, is
//! obeyed in that only with the user's consent (see [`super::trust`]): its
//! toolchains carry the consent to the build, which refuses them without
//! it, and [`references`] refuses its references. Everything else it sets
//! needs none.
//!
//! [`Case::settings_top`]: super::discover::Case::settings_top

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

pub(crate) use super::judge_toml::{
    line_column, toml_error, CheckerKind, RealVerdict, ToolchainTable,
};
use super::judge_toml::{named_in, parse_text, File};
use super::trust::{self, Consent, ProgramKind};
use crate::files::{Fence, OutsideLinks};
use crate::problem::{Problem, DEFAULT_MEMORY_LIMIT_KB, DEFAULT_TIME_LIMIT};

pub(crate) const SETTINGS_FILE: &str = "judge.toml";

/// A toolchain named for a language: in a suite's `judge.toml`, the
/// user's `config.toml` or an environment variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// A language's id or alias, as `--lang` takes it.
    pub(crate) language: String,
    /// A program (a name on `PATH` or a path) that is the language's
    /// compiler or interpreter, or a directory its tools are in (itself or
    /// its `bin`).
    pub(crate) value: String,
    /// Where it was set, for the report: `CXX`, a file's path.
    pub(crate) origin: String,
    /// Where in that file the language is named: line and column.
    pub(crate) at: Option<(usize, usize)>,
    /// Whether it may run: a suite's only with the user's consent.
    pub(crate) consent: Consent,
    /// For a suite's program named by a path, once allowed: its bytes as
    /// hashed, which run from a private copy in its place (see
    /// [`trust::Held`]).
    pub(crate) held: Option<trust::Held>,
}

/// The limits one case is judged under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// For the whole case file, as on AcWing 166 and POJ 3074.
    pub(crate) time: Duration,
    pub(crate) memory_kb: u64,
    /// The wall-clock backstop as a multiple of the time limit: 2, or more
    /// for a run judged again because a busy machine starved it of CPU.
    pub(crate) wall_factor: u32,
}

impl Limits {
    /// The wall-clock backstop: a program that sleeps or waits uses little
    /// CPU, so it is also held to twice the time limit in wall time.
    pub(crate) fn wall(&self) -> Duration {
        self.time * self.wall_factor
    }

    /// These limits with a wall-clock cap that fits a run starved of CPU
    /// on a busy machine: twice the time it would take at the share of a
    /// CPU it got (`cpu` in `wall`), at most ten times the limit.
    pub(crate) fn for_share(&self, cpu: Duration, wall: Duration) -> Limits {
        let share = cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9);
        let factor = (2.0 / share.max(0.1)).ceil() as u32;
        Limits {
            wall_factor: factor.clamp(self.wall_factor, 20),
            ..*self
        }
    }

    /// Output past this many bytes is OLE: 64 MiB, or 256 bytes a puzzle
    /// for huge inputs (an answer line takes 82).
    pub(crate) fn output_bytes(puzzles: usize) -> usize {
        (64 << 20).max(puzzles.saturating_mul(256))
    }
}

/// A submission a suite lists with the verdict the real judge gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reference {
    /// The source file, resolved against the `judge.toml` that names it.
    pub(crate) file: PathBuf,
    pub(crate) verdict: RealVerdict,
    /// The suite's programs as hashed when the consent was checked: the
    /// reference is built from the judge's copy of these bytes, never
    /// from `file` read again (see [`trust::Held`]).
    pub(crate) held: trust::Held,
}

/// A factor on the time limit: finite, from [`TimeScale::MIN`] to
/// [`TimeScale::MAX`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimeScale(f64);

// No NaN gets in (see `TimeScale::new`), so equality is total.
impl Eq for TimeScale {}

impl TimeScale {
    /// The smallest factor taken: a machine a hundred times faster.
    pub(crate) const MIN: f64 = 0.01;
    /// The largest factor taken: a machine a hundred times slower.
    pub(crate) const MAX: f64 = 100.0;

    pub(crate) fn new(factor: f64) -> anyhow::Result<TimeScale> {
        anyhow::ensure!(
            factor.is_finite() && (Self::MIN..=Self::MAX).contains(&factor),
            "a time_scale must be a number from {} to {}, like 1.5; got {factor}",
            Self::MIN,
            Self::MAX
        );
        Ok(TimeScale(factor))
    }

    pub(crate) fn factor(self) -> f64 {
        self.0
    }
}

/// Judging settings; `None` means "not set here".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    pub(crate) problem: Option<Problem>,
    pub(crate) time_limit: Option<Duration>,
    pub(crate) memory_limit_kb: Option<u64>,
    pub(crate) checker: Option<CheckerKind>,
    pub(crate) time_scale: Option<TimeScale>,
    /// The toolchains named in `[toolchain]`, nearest file first.
    pub(crate) toolchain: Vec<Choice>,
}

impl Settings {
    /// The limits these settings mean: an explicit limit, else the named
    /// problem's, else the defaults; the time limit times `time_scale`,
    /// held within [`MIN_TIME_LIMIT`] and [`MAX_TIME_LIMIT`] (see
    /// [`Settings::checked_limits`], which refuses what is not).
    pub(crate) fn limits(&self) -> Limits {
        let time = self.unscaled_time_limit();
        Limits {
            time: self.time_scale.map_or(time, |scale| {
                let seconds = (time.as_secs_f64() * scale.factor())
                    .clamp(MIN_TIME_LIMIT.as_secs_f64(), MAX_TIME_LIMIT.as_secs_f64());
                Duration::from_secs_f64(seconds)
            }),
            memory_kb: self
                .memory_limit_kb
                .or(self.problem.map(Problem::memory_limit_kb))
                .unwrap_or(DEFAULT_MEMORY_LIMIT_KB),
            wall_factor: 2,
        }
    }

    /// The checker: the one set, else the problem's judge's: POJ compares
    /// the output with its expected file as text (a Presentation Error when
    /// only whitespace differs), the others accept any valid solution.
    pub(crate) fn checker(&self) -> CheckerKind {
        self.checker.unwrap_or(match self.problem {
            Some(Problem::Poj3074) => CheckerKind::Exact,
            _ => CheckerKind::Sudoku,
        })
    }

    fn unscaled_time_limit(&self) -> Duration {
        self.time_limit
            .or(self.problem.map(Problem::time_limit))
            .unwrap_or(DEFAULT_TIME_LIMIT)
    }

    /// [`Settings::limits`], or an error naming the keys when the time
    /// limit times `time_scale` leaves the range every limit keeps to.
    pub(crate) fn checked_limits(&self) -> anyhow::Result<Limits> {
        if let Some(scale) = self.time_scale {
            let time = self.unscaled_time_limit();
            let scaled = time.as_secs_f64() * scale.factor();
            anyhow::ensure!(
                (MIN_TIME_LIMIT.as_secs_f64()..=MAX_TIME_LIMIT.as_secs_f64()).contains(&scaled),
                "time_limit {} times time_scale {} is {scaled:.4} s, outside the range a time \
                 limit keeps to, {} ms to {}",
                humantime::format_duration(time),
                scale.factor(),
                MIN_TIME_LIMIT.as_millis(),
                humantime::format_duration(MAX_TIME_LIMIT)
            );
        }
        Ok(self.limits())
    }

    /// Keeps what `self` sets and takes the rest from `fallback`.
    pub(crate) fn or(self, fallback: &Settings) -> Settings {
        Settings {
            problem: self.problem.or(fallback.problem),
            time_limit: self.time_limit.or(fallback.time_limit),
            memory_limit_kb: self.memory_limit_kb.or(fallback.memory_limit_kb),
            checker: self.checker.or(fallback.checker),
            time_scale: self.time_scale.or(fallback.time_scale),
            toolchain: self
                .toolchain
                .iter()
                .chain(&fallback.toolchain)
                .cloned()
                .collect(),
        }
    }
}

/// The longest time limit taken: more than any judge gives, and little
/// enough that every deadline computed from it is a valid instant.
pub(crate) const MAX_TIME_LIMIT: Duration = Duration::from_secs(3600);

/// The shortest time limit taken: a run is timed to the millisecond.
pub(crate) const MIN_TIME_LIMIT: Duration = Duration::from_millis(1);

/// The largest memory limit taken, in KB (1 TiB).
pub(crate) const MAX_MEMORY_LIMIT_KB: u64 = 1 << 30;

/// Parses a time limit as users write it: `1s`, `1500ms`, `2.5s`.
pub(crate) fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let text = text.trim();
    let too_long = || {
        anyhow::anyhow!(
            "`{text}` is longer than any time limit a judge sets; give at most {}",
            humantime::format_duration(MAX_TIME_LIMIT)
        )
    };
    if let Some(seconds) = text.strip_suffix('s').and_then(|s| s.parse::<f64>().ok()) {
        if seconds.is_finite() && seconds > 0.0 {
            if seconds > MAX_TIME_LIMIT.as_secs_f64() {
                return Err(too_long());
            }
            anyhow::ensure!(
                seconds >= MIN_TIME_LIMIT.as_secs_f64(),
                "`{text}` is shorter than the shortest time limit, 1ms"
            );
            return Ok(Duration::from_secs_f64(seconds));
        }
    }
    if let Ok(number) = text.parse::<f64>() {
        // A bare number: under 100 it is likely seconds, else milliseconds.
        let meant = if number < 100.0 {
            format!("{text}s")
        } else {
            format!("{text}ms")
        };
        anyhow::bail!("`{text}` has no unit; give one, e.g. `{meant}`");
    }
    let duration = humantime::parse_duration(text).map_err(|_| {
        anyhow::anyhow!("`{text}` is not a time limit; write it like `1s` or `1500ms`")
    })?;
    anyhow::ensure!(
        !duration.is_zero(),
        "a time limit of zero would fail every case"
    );
    anyhow::ensure!(
        duration >= MIN_TIME_LIMIT,
        "`{text}` is shorter than the shortest time limit, 1ms"
    );
    if duration > MAX_TIME_LIMIT {
        return Err(too_long());
    }
    Ok(duration)
}

/// Parses a memory size as judges write it: `64M`, `256MB`, `65536K`, all
/// powers of 1024. Returns kilobytes.
pub(crate) fn parse_memory_kb(text: &str) -> anyhow::Result<u64> {
    if let Ok(number) = text.trim().parse::<u64>() {
        // A bare number is bytes to the parser, and never what was meant:
        // a judge's limit is in megabytes, or kilobytes as POJ writes them.
        let meant = if number < 4096 {
            format!("{number}M")
        } else {
            format!("{number}K")
        };
        anyhow::bail!("`{text}` has no unit, so it would mean bytes; give one, e.g. `{meant}`");
    }
    let bytes = parse_size::Config::new()
        .with_binary()
        .parse_size(text.trim())
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| {
            format!("`{text}` is not a memory limit; write it like `64M` or `256MB`")
        })?;
    anyhow::ensure!(
        bytes >= 1024,
        "a memory limit under 1K would fail every case"
    );
    anyhow::ensure!(
        bytes / 1024 <= MAX_MEMORY_LIMIT_KB,
        "`{text}` is more memory than any judge gives; give at most 1T"
    );
    Ok(bytes / 1024)
}

/// The references the `judge.toml` in `dir` lists (none without one),
/// each checked to be a file of the suite, and all of them allowed to run
/// (see [`super::trust`]): a file the user has not allowed is an error
/// that says so.
pub(crate) fn references(dir: &Path, links: OutsideLinks) -> anyhow::Result<Vec<Reference>> {
    let path = dir.join(SETTINGS_FILE);
    if path.symlink_metadata().is_err() {
        return Ok(Vec::new());
    }
    let (file, text) = parse_text(&path, links)?;
    let fence = Fence::new(dir, links);
    let named = named_in(&file, &text);
    let references = file
        .reference
        .into_iter()
        .enumerate()
        .map(|(n, entry)| {
            let file = dir.join(entry.file.get_ref());
            fence
                .ensure_inside(&file, &format!("reference {}", n + 1))
                .with_context(|| format!("invalid {}", path.display()))?;
            anyhow::ensure!(
                file.is_file(),
                "invalid {}: reference {} names {}, which is not a file",
                path.display(),
                n + 1,
                file.display()
            );
            // Checked as a case file is: no hard link to someone else's
            // file (its compiler would quote it).
            fence
                .open(&file, &format!("reference {}", n + 1))
                .with_context(|| format!("invalid {}", path.display()))?;
            Ok(Reference {
                file,
                verdict: entry.verdict,
                held: trust::Held::default(),
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let Some(first) = named
        .iter()
        .find(|n| matches!(n.kind, ProgramKind::Reference { .. }))
    else {
        return Ok(references);
    };
    let subject = trust::subject(&path, text.as_bytes(), named.clone())?;
    trust::check(&subject, first)?;
    Ok(references
        .into_iter()
        .map(|reference| Reference {
            held: subject.held.clone(),
            ..reference
        })
        .collect())
}

/// The `judge.toml` files at `path` (one itself) or under it (a suite
/// directory), hidden directories left out as case discovery leaves them,
/// in order; an error when there is none.
pub(crate) fn files_under(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let files: Vec<PathBuf> = if meta.is_file() {
        vec![path.to_path_buf()]
    } else {
        walkdir::WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
            .filter_map(Result::ok)
            .filter(|e| e.file_name() == SETTINGS_FILE && !e.file_type().is_dir())
            .map(walkdir::DirEntry::into_path)
            .collect()
    };
    anyhow::ensure!(
        !files.is_empty(),
        "no {SETTINGS_FILE} at or under {}: nothing to allow",
        path.display()
    );
    Ok(files)
}

fn read(path: &Path, links: OutsideLinks) -> anyhow::Result<Settings> {
    let (mut file, text) = parse_text(path, links)?;
    // Whether the toolchains may run is settled once, with the file's
    // digest; the build refuses one that may not, where it would run.
    let (consent, held) = if file.toolchain.is_empty() {
        // No choice to carry it.
        (Consent::Refused, None)
    } else {
        let named = named_in(&file, &text);
        let subject = trust::subject(path, text.as_bytes(), named)?;
        let consent = trust::consent(&subject);
        (consent, consent.given().then_some(subject.held))
    };
    let table = std::mem::take(&mut file.toolchain);
    let mut settings = settings_of(file).with_context(|| format!("invalid {}", path.display()))?;
    settings.toolchain = choices(table, path, &text, consent)?;
    for choice in &mut settings.toolchain {
        if crate::quote::names_a_path(&choice.value) {
            choice.held.clone_from(&held);
        }
    }
    Ok(settings)
}

/// A `[toolchain]` table of the file at `path`, which may run with
/// `consent`.
fn choices(
    table: ToolchainTable,
    path: &Path,
    text: &str,
    consent: Consent,
) -> anyhow::Result<Vec<Choice>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    table
        .into_iter()
        .map(|(language, value)| {
            let at = Some(line_column(text, language.span().start));
            let language = language.into_inner();
            // A path is taken from the file's directory; a bare name is
            // found on `PATH`. The language is checked where it is used.
            let value = if crate::quote::names_a_path(&value) {
                dir.join(&value).display().to_string()
            } else {
                value
            };
            Ok(Choice {
                language,
                value,
                origin: path.display().to_string(),
                at,
                consent,
                held: None,
            })
        })
        .collect()
}

/// The settings a `judge.toml`'s text holds, checked as [`read`] checks a
/// file's: for fuzzing, and anything else that has the text alone. Its
/// toolchains have no consent: no file was allowed.
pub(crate) fn from_text(text: &str) -> anyhow::Result<Settings> {
    let mut file: File = toml::from_str(text).map_err(toml_error)?;
    let table = std::mem::take(&mut file.toolchain);
    let mut settings = settings_of(file)?;
    settings.toolchain = choices(table, Path::new(SETTINGS_FILE), text, Consent::Refused)?;
    Ok(settings)
}

fn settings_of(file: File) -> anyhow::Result<Settings> {
    Ok(Settings {
        problem: file.problem,
        time_limit: file.time_limit.as_deref().map(parse_duration).transpose()?,
        memory_limit_kb: file
            .memory_limit
            .as_deref()
            .map(parse_memory_kb)
            .transpose()?,
        checker: file.checker,
        time_scale: file.time_scale.map(TimeScale::new).transpose()?,
        toolchain: Vec::new(),
    })
}

/// Reads each directory's `judge.toml` once per run.
#[derive(Debug, Default)]
pub(crate) struct SettingsCache {
    by_dir: HashMap<(PathBuf, PathBuf), Settings>,
    links: OutsideLinks,
}

impl SettingsCache {
    /// A cache that reads `judge.toml`s as `links` allows.
    pub(crate) fn new(links: OutsideLinks) -> SettingsCache {
        SettingsCache {
            by_dir: HashMap::new(),
            links,
        }
    }

    /// The settings for `case`: every `judge.toml` from its directory up
    /// to the highest the search may read for it, nearest first.
    pub(crate) fn for_case(&mut self, case: &super::discover::Case) -> anyhow::Result<Settings> {
        self.for_dir(case.dir(), &case.settings_top())
    }

    /// The settings for a case in `dir`: every `judge.toml` from `dir` up
    /// to `top`, the highest the search may read (see
    /// [`super::discover::Case::settings_top`]), nearest first; `dir`'s alone when it
    /// is not below `top`.
    pub(crate) fn for_dir(&mut self, dir: &Path, top: &Path) -> anyhow::Result<Settings> {
        let (dir, top) = (
            super::discover::absolute(dir),
            super::discover::absolute(top),
        );
        let key = (dir.clone(), top.clone());
        if let Some(found) = self.by_dir.get(&key) {
            return Ok(found.clone());
        }
        let here = dir.join(SETTINGS_FILE);
        let own = if here.symlink_metadata().is_ok() {
            read(&here, self.links)?
        } else {
            Settings::default()
        };
        let merged = match dir.parent() {
            Some(parent) if dir != top && parent.starts_with(&top) => {
                own.or(&self.for_dir(parent, &top)?)
            }
            _ => own,
        };
        self.by_dir.insert(key, merged.clone());
        Ok(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_judges_write_them() {
        let time_error = |text| parse_duration(text).unwrap_err().to_string();
        let memory_error = |text| parse_memory_kb(text).unwrap_err().to_string();
        assert_eq!(parse_duration("1s").unwrap(), Duration::from_secs(1));
        assert_eq!(
            parse_duration("1500ms").unwrap(),
            Duration::from_millis(1500)
        );
        assert_eq!(parse_duration("2.5s").unwrap(), Duration::from_millis(2500));
        assert!(time_error("fast").contains("like `1s`"));
        assert!(parse_duration("0s").is_err());
        for absurd in ["18446744073709551616s", "1e300s", "2h", "inf s"] {
            let error = time_error(absurd);
            assert!(
                error.contains("longer than any time limit")
                    || error.contains("is not a time limit"),
                "{absurd}: {error}"
            );
        }
        assert_eq!(parse_duration("1h").unwrap(), MAX_TIME_LIMIT);
        assert!(memory_error("2T").contains("more memory than any judge gives"));
        assert_eq!(parse_memory_kb("64M").unwrap(), 65536);
        assert_eq!(parse_memory_kb("65536K").unwrap(), 65536);
        assert_eq!(parse_memory_kb("256MB").unwrap(), 262144);
        assert!(memory_error("lots").contains("like `64M`"));
        // A bare number gets the unit it most likely lacks, once.
        assert_eq!(time_error("1"), "`1` has no unit; give one, e.g. `1s`");
        assert!(time_error("1500").contains("`1500ms`"));
        assert_eq!(
            memory_error("64"),
            "`64` has no unit, so it would mean bytes; give one, e.g. `64M`"
        );
        assert!(memory_error("65536").contains("`65536K`"));
    }

    #[test]
    fn nearest_file_wins_key_by_key() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("suite/case")).unwrap();
        std::fs::write(
            root.join(SETTINGS_FILE),
            "checker = \"exact\"\ntime_limit = \"3s\"\n",
        )
        .unwrap();
        std::fs::write(
            root.join("suite").join(SETTINGS_FILE),
            "problem = \"acwing166\"\ntime_limit = \"500ms\"\nmemory_limit = \"64M\"\n",
        )
        .unwrap();
        let mut cache = SettingsCache::default();
        let settings = cache.for_dir(&root.join("suite/case"), root).unwrap();
        assert_eq!(
            settings,
            Settings {
                problem: Some(Problem::Acwing166),
                time_limit: Some(Duration::from_millis(500)),
                memory_limit_kb: Some(65536),
                checker: Some(CheckerKind::Exact),
                time_scale: None,
                toolchain: Vec::new(),
            }
        );
    }

    #[test]
    fn a_judge_toml_above_the_directory_named_is_never_read() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        // Another user's file in a shared directory, above the suite.
        std::fs::write(
            root.join(SETTINGS_FILE),
            "time_limit = \"5s\"\n[toolchain]\ncpp = \"sh -c 'id'\"\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("mycases/sub")).unwrap();
        std::fs::write(root.join("mycases/sub/a.in"), "").unwrap();
        std::fs::write(root.join("mycases/judge.toml"), "checker = \"exact\"\n").unwrap();
        let cases = super::super::discover(&[root.join("mycases")]).unwrap();
        let settings = SettingsCache::default().for_case(&cases[0]).unwrap();
        assert_eq!(
            settings,
            Settings {
                checker: Some(CheckerKind::Exact),
                ..Settings::default()
            }
        );
        // A case named directly reads its own suite's file only.
        let named = super::super::discover(&[root.join("mycases/sub/a.in")]).unwrap();
        let settings = SettingsCache::default().for_case(&named[0]).unwrap();
        assert_eq!(settings, Settings::default());
    }

    #[test]
    fn a_toolchain_path_is_taken_beside_the_file_and_a_language_is_checked() {
        let root = tempfile::tempdir().unwrap();
        let suite = root.path().join("suite");
        std::fs::create_dir_all(&suite).unwrap();
        std::fs::write(
            suite.join(SETTINGS_FILE),
            "[toolchain]\ncpp = \"bin/g++\"\npython = \"python3.13\"\n",
        )
        .unwrap();
        let settings = SettingsCache::default().for_dir(&suite, &suite).unwrap();
        let values: Vec<(&str, String)> = settings
            .toolchain
            .iter()
            .map(|c| (c.language.as_str(), c.value.clone()))
            .collect();
        assert_eq!(
            values,
            [
                ("cpp", suite.join("bin/g++").display().to_string()),
                ("python", "python3.13".to_string())
            ]
        );
    }

    #[test]
    fn time_scale_multiplies_the_limit_and_references_resolve_beside_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::write(root.join("a.cpp"), "").unwrap();
        std::fs::write(
            root.join(SETTINGS_FILE),
            "time_limit = \"1s\"\ntime_scale = 1.5\n\n[[reference]]\nfile = \"a.cpp\"\nverdict = \"TLE\"\n",
        )
        .unwrap();
        let settings = SettingsCache::default().for_dir(root, root).unwrap();
        assert_eq!(settings.limits().time, Duration::from_millis(1500));
        // A reference resolves beside the file and is hashed with it; it
        // runs only once the user allows the file, which a test cannot.
        let subject = trust::inspect(&root.join(SETTINGS_FILE), OutsideLinks::Refused)
            .unwrap()
            .unwrap();
        assert_eq!(subject.hashed, ["a.cpp"]);
        let refused = references(root, OutsideLinks::Refused).unwrap_err();
        let refused = refused.downcast_ref::<trust::Refused>().expect("a refusal");
        assert_eq!(refused.named.at, (5, 8));
        for (text, says) in [
            ("time_scale = 0", "from 0.01 to 100"),
            (
                "[[reference]]\nfile = \"a.cpp\"\nverdict = \"WA\"",
                "unknown variant `WA`",
            ),
            (
                "[[reference]]\nfile = \"b.cpp\"\nverdict = \"AC\"",
                "reference 1 names",
            ),
            (
                "[[reference]]\nfile = \"a.cpp\"\nverdit = \"AC\"",
                "unknown field `verdit`",
            ),
        ] {
            std::fs::write(root.join(SETTINGS_FILE), text).unwrap();
            let error = SettingsCache::default()
                .for_dir(root, root)
                .and_then(|_| references(root, OutsideLinks::Refused))
                .unwrap_err();
            let message = format!("{error:#}");
            assert!(message.contains("judge.toml"), "{message}");
            assert!(message.contains(says), "{text}: {message}");
        }
    }

    #[test]
    fn a_bad_file_names_itself_and_the_problem() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join(".git")).unwrap();
        let error_of = |text: &str| {
            std::fs::write(tmp.path().join(SETTINGS_FILE), text).unwrap();
            let err = SettingsCache::default()
                .for_dir(tmp.path(), tmp.path())
                .unwrap_err();
            format!("{err:#}")
        };
        let message = error_of("time_limt = \"1s\"\n");
        assert!(message.contains("judge.toml"), "{message}");
        assert!(message.contains("unknown field `time_limt`"), "{message}");
        // What is wrong comes first, on the line a table row shows.
        let message = error_of("problem = \n");
        let first = message.lines().next().unwrap();
        assert!(
            first.ends_with(
                "string values must be quoted, expected literal string (line 1, column 11)"
            ),
            "{first}"
        );
        assert!(error_of("time_limit = \"soon\"\n").contains("`soon` is not a time limit"));
    }
}
