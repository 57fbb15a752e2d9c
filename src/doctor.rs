//! `sudoku-judge doctor`: whether this machine can judge, checked the way
//! judging itself would. Each language's toolchain is looked for on `PATH`
//! and asked its version, then the language's self-test program (the
//! tiny program every declaration in `runner/lang` carries) is built with
//! the judges' flags and judged, contained, on one built-in case; the
//! protections the kernel grants the sandbox are those the report's header
//! names. The findings are data: [`crate::report::doctor`] renders them for people
//! and as JSON.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use serde::Serialize;

use crate::board::format::{self, Mode};
use crate::board::{Board, Format, EXAMPLE_ANSWER};
use crate::case::Limits;
use crate::problem::Problem;
use crate::runner::lang::{self, Language, Toolchain};
use crate::runner::sandbox::{self, Containment, Layer, Protections};
use crate::runner::Submission;
use crate::verdict::Verdict;

/// The self-test's case: one solved board, which the self-test program,
/// echoing its first line, answers correctly. Generous limits: it proves
/// the toolchain works, not that it is fast (a JVM takes a second to
/// start on a busy machine).
const SELF_TEST_LIMITS: Limits = Limits {
    time: Duration::from_secs(10),
    memory_kb: 512 * 1024,
    wall_factor: 2,
};

/// Everything `doctor` found.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Checkup {
    pub(crate) languages: Vec<LanguageCheck>,
    pub(crate) sandbox: SandboxCheck,
}

impl Checkup {
    /// Languages whose toolchain is here but failed its self-test.
    pub(crate) fn failed(&self) -> impl Iterator<Item = &LanguageCheck> {
        self.languages
            .iter()
            .filter(|l| matches!(l.self_test, SelfTest::Failed { .. }))
    }

    /// The layers `--sandbox require` asks for that the kernel refused.
    pub(crate) fn refused(&self) -> Vec<(&'static str, &str)> {
        let protections = &self.sandbox.protections;
        if protections.mode == sandbox::Mode::Require {
            protections.missing()
        } else {
            Vec::new()
        }
    }

    /// Languages whose toolchain (or part of it) is not on `PATH`.
    pub(crate) fn not_found(&self) -> impl Iterator<Item = &LanguageCheck> {
        self.languages
            .iter()
            .filter(|l| matches!(l.self_test, SelfTest::NotFound))
    }
}

/// One language's toolchain and how its self-test went.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct LanguageCheck {
    /// The name `--lang` takes.
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    pub(crate) tools: Vec<ToolCheck>,
    /// The toolchain the judge's own tests were run with.
    pub(crate) tested: &'static str,
    /// What the real judges run, where known.
    pub(crate) judges: Vec<JudgeVersion>,
    pub(crate) self_test: SelfTest,
}

/// One program a language needs.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct ToolCheck {
    pub(crate) command: &'static str,
    /// The Debian package that provides it.
    pub(crate) package: &'static str,
    /// Where it was found on `PATH`; `None` when it was not.
    pub(crate) path: Option<PathBuf>,
    /// The program that does the work, when `path` is a link or a version
    /// manager's shim to it.
    pub(crate) runs_as: Option<PathBuf>,
    /// The first line of what it says its version is.
    pub(crate) version: Option<String>,
}

/// A judge's toolchain for a language.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct JudgeVersion {
    pub(crate) judge: &'static str,
    pub(crate) version: String,
}

/// How a language's self-test went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub(crate) enum SelfTest {
    /// Built, ran in the sandbox and was accepted.
    Passed,
    /// A tool it needs is not on `PATH`: nothing was tried.
    NotFound,
    /// Found, but the self-test did not build, run or pass; `stage` says
    /// which (`build`, `run`), `verdict` the verdict when it was judged.
    Failed {
        stage: &'static str,
        verdict: Option<Verdict>,
        message: String,
    },
}

/// The protections runs get, as the report's header names them.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SandboxCheck {
    /// The header's line.
    pub(crate) summary: String,
    /// The cgroup hierarchy runs are accounted in, or why there is none.
    pub(crate) cgroup: String,
    /// Every layer, named as the report names it, and whether it is on.
    pub(crate) layers: Vec<LayerCheck>,
    /// The layers the judge could start with, in full.
    pub(crate) protections: Protections,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct LayerCheck {
    pub(crate) name: &'static str,
    pub(crate) on: bool,
    /// Why it is not, when it is not.
    pub(crate) why: Option<String>,
}

impl SandboxCheck {
    pub(crate) fn new(protections: Protections) -> SandboxCheck {
        let cgroup = match (&protections.accounting, &protections.cgroup_version) {
            (Layer::On, Some(version)) => version.clone(),
            (Layer::Missing(why), _) => format!("none: {why}"),
            (Layer::Off, _) => "none (--sandbox off)".to_string(),
            (Layer::On, None) => "in use, version unknown".to_string(),
        };
        let layers = protections
            .layers()
            .into_iter()
            .map(|(name, layer)| LayerCheck {
                name,
                on: layer.is_on(),
                why: match layer {
                    Layer::On => None,
                    Layer::Missing(why) => Some(why.clone()),
                    Layer::Off => Some("--sandbox off".to_string()),
                },
            })
            .collect();
        SandboxCheck {
            summary: protections.to_string(),
            cgroup,
            layers,
            protections,
        }
    }
}

/// Checks each of `languages` in turn, telling `progress` which one it is
/// at, contained as `containment` says; the sandbox's protections are
/// checked by whoever started it.
pub(crate) fn check(
    languages: &[Language],
    protections: Protections,
    containment: &Containment,
    progress: &mut dyn FnMut(Language),
) -> Checkup {
    let languages = languages
        .iter()
        .map(|&language| {
            progress(language);
            check_language(language, containment)
        })
        .collect();
    Checkup {
        languages,
        sandbox: SandboxCheck::new(protections),
    }
}

/// What the real judges run for `language`: the versions known from
/// LeetCode, and the judges whose builds differ (POJ's old G++).
fn judges(language: Language) -> Vec<JudgeVersion> {
    let spec = language.spec();
    let mut judges: Vec<JudgeVersion> = spec
        .leetcode
        .version
        .iter()
        .map(|version| JudgeVersion {
            judge: "LeetCode",
            version: version.to_string(),
        })
        .collect();
    judges.extend(spec.profiles.iter().map(|profile| JudgeVersion {
        // A profile of every problem builds LeetCode-style files, as
        // LeetCode does.
        judge: profile.problem.unwrap_or(Problem::Leetcode37).judge(),
        version: profile.why.to_string(),
    }));
    judges
}

fn check_language(language: Language, containment: &Containment) -> LanguageCheck {
    let spec = language.spec();
    let paths: Vec<Option<PathBuf>> = spec
        .tools
        .iter()
        .map(|tool| which::which(tool.command).ok())
        .collect();
    // What the sandbox shows the toolchain's compiles shows its version
    // queries too.
    let resolved: Option<Toolchain> = paths
        .iter()
        .cloned()
        .collect::<Option<Vec<PathBuf>>>()
        .map(|found| (spec.resolve)(found, containment));
    // Asked of the programs that do the work, as a build asks them: a
    // version manager's proxy (rustup's `rustc`) may not answer in the
    // sandbox, and the report's header shows the build's answer.
    let tools: Vec<ToolCheck> = spec
        .tools
        .iter()
        .zip(paths)
        .enumerate()
        .map(|(i, (tool, path))| ToolCheck {
            command: tool.command,
            package: tool.package,
            version: resolved
                .as_ref()
                .and_then(|toolchain| version_of(tool, i, toolchain)),
            path,
            runs_as: None,
        })
        .collect();
    let mut check = LanguageCheck {
        id: spec.id,
        name: spec.name,
        tools,
        tested: spec.tested,
        judges: judges(language),
        self_test: SelfTest::NotFound,
    };
    let Some(resolved) = resolved else {
        return check;
    };
    for (tool, program) in check.tools.iter_mut().zip(resolved.programs) {
        if Some(&program) != tool.path.as_ref() {
            tool.runs_as = Some(program);
        }
    }
    check.self_test = self_test(language, containment);
    check
}

/// The line that names the version of the `i`-th tool of `toolchain`, as
/// a build asks it ([`lang::tool_version`]) and keeps it in the build
/// cache; `None` when no line does (raco prints none).
fn version_of(tool: &lang::Tool, i: usize, toolchain: &Toolchain) -> Option<String> {
    let program = toolchain.programs.get(i)?;
    lang::tool_version(tool, program, &[], toolchain)
        .ok()
        .filter(|line| lang::tools::names_a_version(line))
}

/// Builds the language's self-test program in a scratch directory, as a
/// submission is built, and judges it on one solved board, contained.
fn self_test(language: Language, containment: &Containment) -> SelfTest {
    let failed = |stage, verdict, message: String| SelfTest::Failed {
        stage,
        verdict,
        message,
    };
    let scratch = match tempfile::Builder::new()
        .prefix("sudoku-judge-doctor-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(error) => {
            return failed(
                "build",
                None,
                format!("cannot make a scratch directory: {error}"),
            )
        }
    };
    let source = match write_source(scratch.path(), language) {
        Ok(path) => path,
        Err(error) => return failed("build", None, format!("{error:#}")),
    };
    let options = lang::Options {
        containment: containment.clone(),
        ..Default::default()
    };
    let built = match lang::build_as(&source, Some(language), &options) {
        Ok(built) => built,
        Err(error) => return failed("build", None, format!("{error:#}")),
    };
    let Some(launch) = built.launch else {
        let message = built.info.error.unwrap_or_default();
        return failed("build", Some(Verdict::CE), message.trim_end().to_string());
    };
    let board = solved_board();
    match crate::stress::judge_input(
        &Submission::External(launch),
        &SELF_TEST_LIMITS,
        &[(board, board)],
    ) {
        Ok(Some(judged)) if judged.verdict == Verdict::AC => SelfTest::Passed,
        Ok(Some(judged)) => failed("run", Some(judged.verdict), judged.reason.sentence()),
        Ok(None) => failed("run", None, "interrupted".to_string()),
        Err(error) => failed("run", None, format!("{error:#}")),
    }
}

/// The self-test's source, in a file named as the language expects.
fn write_source(dir: &Path, language: Language) -> anyhow::Result<PathBuf> {
    let spec = language.spec();
    let path = dir.join(format!("self_test.{}", spec.extensions[0]));
    std::fs::write(&path, spec.self_test)
        .with_context(|| format!("failed to write {}", path.display()))?;
    Ok(path)
}

fn solved_board() -> Board {
    format::parse(EXAMPLE_ANSWER, Format::AcWing, Mode::Answers)
        .expect("the example's answer reads")
        .into_boards()[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_self_test_case_is_a_solved_board() {
        let board = solved_board();
        assert_eq!(board.filled(), 81);
        assert!(!board.has_conflict());
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_layer_fails_only_under_sandbox_require() {
        let mut protections = Protections::off();
        protections.accounting = Layer::Missing("no permission".into());
        let checkup = |mode| Checkup {
            languages: Vec::new(),
            sandbox: SandboxCheck::new(Protections {
                mode,
                ..protections.clone()
            }),
        };
        assert!(checkup(sandbox::Mode::Auto).refused().is_empty());
        assert_eq!(
            checkup(sandbox::Mode::Require).refused(),
            [("cgroup accounting", "no permission")]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_cgroup_says_why() {
        let mut protections = Protections::off();
        protections.mode = crate::runner::sandbox::Mode::Auto;
        protections.accounting = Layer::Missing("no permission".into());
        let check = SandboxCheck::new(protections);
        assert_eq!(check.cgroup, "none: no permission");
        let accounting = check
            .layers
            .iter()
            .find(|l| l.name == "cgroup accounting")
            .unwrap();
        assert!(!accounting.on);
        assert_eq!(accounting.why.as_deref(), Some("no permission"));
    }
}
