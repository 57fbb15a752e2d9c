//! A source file's build worked out from its language's declaration,
//! before anything is done: its language and reading, the files the build
//! writes, its compile command, and how it starts ([`plan`]). The build
//! cache (`build.rs`) builds it, `export.rs` writes it out for a debugger.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::announce::Announce;
use super::known::{ALL, NOT_JUDGED};
use super::language::Interface;
use super::language::{
    interface_of, readings, Build, Language, Reading, Run, SourceName, Spec, Toolchain,
};
use super::launch::{Launch, Runtime};
use super::tools::Choice;
use super::{harness, tools};
use crate::problem::Problem;
use crate::runner::sandbox::Containment;

/// How `build_as` reads and builds a file.
#[derive(Clone, Default)]
pub(crate) struct Options {
    /// How to read a file that could be a program or a LeetCode-style file.
    pub(crate) reading: Reading,
    /// The problem every case is, when they all are one: a judge may build
    /// programs with flags of its own.
    pub(crate) problem: Option<Problem>,
    /// The toolchains the suite's `judge.toml`s name, above all others.
    pub(crate) toolchains: Vec<Choice>,
    /// Told what takes a while (`compiling Sol.kt ...`) when it has taken
    /// about a second.
    pub(crate) announce: Option<Announce>,
    /// How its compilers and runs are contained.
    pub(crate) containment: Containment,
}

/// `template` with each placeholder of `vars` replaced, in one pass (so a
/// placeholder inside a value stays as it is).
pub(super) fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match vars.iter().find(|(key, _)| rest.starts_with(key)) {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[key.len()..];
            }
            None => {
                out.push('@');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A command of a declaration made real: `@FLAGS@` becomes the flags, the
/// other placeholders their values.
pub(super) fn command(template: &[&str], flags: &[&str], vars: &[(&str, &str)]) -> Vec<String> {
    let mut argv = Vec::new();
    for arg in template {
        if *arg == "@FLAGS@" {
            argv.extend(flags.iter().map(|f| f.to_string()));
        } else {
            argv.push(fill(arg, vars));
        }
    }
    argv
}

/// The placeholders for the tools: `@TOOL0@` and `@HOME0@`, ...
fn tool_vars(programs: &[PathBuf]) -> Vec<(String, String)> {
    let mut vars = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.clone());
        let home = real
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"));
        vars.push((format!("@TOOL{i}@"), program.display().to_string()));
        vars.push((format!("@HOME{i}@"), home.display().to_string()));
    }
    vars
}

/// A source file's build, worked out but not done: what
/// [`build_as`](super::build_as()) builds in the cache and
/// [`export`](super::export::export()) writes out for a debugger.
pub(super) struct Planned {
    pub(super) language: Language,
    pub(super) spec: &'static Spec,
    pub(super) interface: Interface,
    /// The user's file's name, as the build names it.
    pub(super) name: String,
    pub(super) class: String,
    /// The build's files: name, contents.
    pub(super) files: Vec<(String, String)>,
    pub(super) compile: Option<Vec<String>>,
    /// The compile command as a user would type it.
    pub(super) shown: String,
    pub(super) source_name: SourceName,
    pub(super) toolchain: Toolchain,
    /// The placeholders and their values (all but `@DIR@`).
    pub(super) vars: Vec<(String, String)>,
    pub(super) recipe: &'static Build,
    /// The flags it is built with: the language's, or its judge's.
    pub(super) flags: &'static [&'static str],
    pub(super) notes: Vec<String>,
    /// The judge whose build it is: `LeetCode`, `AcWing`, `POJ`.
    pub(super) judge: &'static str,
    /// The tools as chosen, before a version manager's shims are resolved.
    pub(super) chosen: Vec<tools::Chosen>,
}

impl Planned {
    /// How the build starts, made in `dir`.
    pub(super) fn runtime(&self, dir: &Path) -> Runtime {
        let dir_text = dir.display().to_string();
        let mut vars: Vec<(&str, &str)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        vars.push(("@DIR@", &dir_text));
        runtime(&self.recipe.run, self.flags, &vars)
    }

    /// How to start the build of `path`, made in `dir`.
    pub(super) fn launch(&self, path: &Path, dir: &Path) -> Launch {
        let kind = match self.interface {
            Interface::Program => "program",
            Interface::Function => "LeetCode-style",
        };
        Launch {
            label: format!("{} ({} {kind})", path.display(), self.language),
            interface: self.interface,
            runtime: self.runtime(dir),
            language: Some(self.language),
            source: Some(self.source_name.clone()),
            read_only: std::iter::once(dir.to_path_buf())
                .chain(self.toolchain.read_only.iter().cloned())
                .collect(),
            containment: self.toolchain.containment.clone(),
        }
    }
}

/// Works out the build of `path`, read as `reading` says, for cases of
/// `problem` when they all are.
pub(super) fn plan(
    path: &Path,
    language: Option<Language>,
    options: &Options,
) -> anyhow::Result<Planned> {
    let reading = options.reading;
    let Some(language) = language.or_else(|| Language::from_path(path)) else {
        bail!("{}", unknown_language(path))
    };
    let spec = language.0;
    let source = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read the submission {}", path.display()))?;
    let source = source
        .strip_prefix('\u{feff}')
        .unwrap_or(&source)
        .to_string();
    let mut notes = Vec::new();
    let interface = interface(path, language, &source, reading, &mut notes)?;
    let chosen = tools::find_tools(language, &options.toolchains)?;
    let recipe = match interface {
        Interface::Program => &spec.program,
        Interface::Function => &spec.function,
    };
    let (user_name, name) = names(path, spec, recipe);
    let programs = chosen.iter().map(|c| c.program.clone()).collect();
    let toolchain = (spec.resolve)(programs, &options.containment);
    let class = match (interface, spec.entry) {
        (Interface::Program, Some(entry)) => entry(&source, &name).with_context(|| {
            format!(
                "{} declares no class or object with a main method to start",
                path.display()
            )
        })?,
        _ => String::new(),
    };
    // A LeetCode-style file is judged on what LeetCode would be given: a
    // local harness beside the class is left out.
    let source = match interface {
        Interface::Function => {
            let submitted = harness::leetcode_part(language, &source, &path.display().to_string());
            notes.extend(submitted.notes);
            submitted.source
        }
        Interface::Program => source,
    };
    let prepared = match spec.prepare {
        Some(prepare) => prepare(&source, &name, interface),
        None => source.clone(),
    };
    let tools_vars = tool_vars(&toolchain.programs);
    // The driver may name the user's file (Rust's `include!`).
    let driver = fill(spec.driver, &[("@NAME@", &name)]);
    let mut vars: Vec<(&str, &str)> = vec![
        ("@NAME@", &name),
        ("@SOURCE@", &prepared),
        ("@DRIVER@", &driver),
        ("@CLASS@", &class),
    ];
    vars.extend(tools_vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let mut files: Vec<(String, String)> = recipe
        .files
        .iter()
        .map(|(file, text)| (fill(file, &vars), fill(text, &vars)))
        .collect();
    let source_name = SourceName {
        name: user_name,
        built_as: fill(recipe.source_as, &vars),
    };
    let flags = profiled(spec, interface, options.problem, &mut files, &mut notes);
    let (compile, shown) = compile_line(recipe, flags, &vars, &chosen);
    let vars = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let judge = match (interface, options.problem) {
        (Interface::Function, _) => Problem::Leetcode37,
        (Interface::Program, problem) => problem.unwrap_or(Problem::Acwing166),
    }
    .judge();
    Ok(Planned {
        language,
        spec,
        interface,
        name,
        class,
        files,
        compile,
        shown,
        source_name,
        toolchain,
        vars,
        recipe,
        flags,
        notes,
        judge,
        chosen,
    })
}

/// The flags `spec` builds with for `interface`: a program judged on a
/// problem whose judge builds it otherwise is built as that judge builds
/// it (the profile's files added to `files`, a note in `notes` saying so).
fn profiled(
    spec: &'static Spec,
    interface: Interface,
    problem: Option<Problem>,
    files: &mut Vec<(String, String)>,
    notes: &mut Vec<String>,
) -> &'static [&'static str] {
    let profile = spec
        .profiles
        .iter()
        .find(|p| p.interface == interface && p.problem.is_none_or(|p| Some(p) == problem));
    let Some(profile) = profile else {
        return spec.flags;
    };
    files.extend(
        profile
            .files
            .iter()
            .map(|(file, text)| (file.to_string(), text.to_string())),
    );
    if let Some(problem) = profile.problem {
        notes.push(format!(
            "built for {} with {}: {}",
            problem.name(),
            profile.flags.join(" "),
            profile.why
        ));
    }
    profile.flags
}

/// How `path` is read, `language`'s file holding `source`: as `reading`
/// says, else as what it has (a main, LeetCode's method), with a note in
/// `notes` when it has both.
fn interface(
    path: &Path,
    language: Language,
    source: &str,
    reading: Reading,
    notes: &mut Vec<String>,
) -> anyhow::Result<Interface> {
    let spec = language.0;
    let (own_main, function) = readings(language, source);
    let interface = match reading {
        Reading::Forced(Interface::Function) if !function => bail!(
            "{} has no {}, LeetCode's {}: it cannot be judged as a LeetCode-style file",
            path.display(),
            spec.leetcode.method,
            spec.name
        ),
        Reading::Forced(interface) => interface,
        Reading::LeetCodeFirst if function => Interface::Function,
        _ => interface_of(language, source).with_context(|| {
            format!(
                "{} has neither a main function (an AcWing program reading stdin) nor \
                 LeetCode's {} (a LeetCode submission); which is it?",
                path.display(),
                spec.leetcode.method
            )
        })?,
    };
    if own_main && function && reading == Reading::Detect {
        notes.push(format!(
            "{} has LeetCode's {} and a main of its own: judged as a program; \
             `--interface leetcode` judges the class through the driver, as LeetCode does",
            path.display(),
            spec.leetcode.method
        ));
    }
    Ok(interface)
}

/// The user's file's name as messages say it, and the name of its copy in
/// the build.
fn names(path: &Path, spec: &Spec, recipe: &Build) -> (String, String) {
    let user_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.contains(['"', '\\', '@']))
        .map_or_else(
            || format!("solution.{}", spec.extensions[0]),
            str::to_string,
        );
    // The build's copy carries the language's extension, whatever the
    // user's file is called (`--lang cpp main.txt`): compilers and
    // runtimes go by it.
    let name = match Path::new(&user_name).extension().and_then(|e| e.to_str()) {
        Some(extension) if spec.extensions.contains(&extension) => user_name.clone(),
        _ => format!(
            "{}.{}",
            Path::new(&user_name)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("solution"),
            spec.extensions[0]
        ),
    };
    // The user's copy never takes the name of a file the build writes
    // beside it: a LeetCode file named `driver.js` would be overwritten by
    // the driver, and the driver judged in its place.
    let name = if recipe
        .files
        .iter()
        .any(|(file, _)| *file != "@NAME@" && *file == name)
    {
        format!("submitted_{name}")
    } else {
        name
    };
    (user_name, name)
}

/// The compile command of `recipe` made real (`None` for a build that
/// compiles nothing), and as a user would type it.
fn compile_line(
    recipe: &Build,
    flags: &[&str],
    vars: &[(&str, &str)],
    chosen: &[tools::Chosen],
) -> (Option<Vec<String>>, String) {
    let compile = (!recipe.compile.is_empty()).then(|| {
        let mut argv = command(recipe.compile, flags, vars);
        // A compiler chosen with words after it (`zig c++`) gets them first.
        if let Some(tool) = chosen
            .iter()
            .enumerate()
            .find(|(i, _)| recipe.compile[0] == format!("@TOOL{i}@"))
            .map(|(_, tool)| tool)
        {
            argv.splice(1..1, tool.args.iter().cloned());
        }
        argv
    });
    // Named as the user calls it, not as the toolchain resolved it.
    let shown = match &compile {
        Some(argv) if recipe.shown => {
            let mut words = vec![chosen[0].name.clone()];
            words.extend(argv[1 + chosen[0].args.len()..].iter().cloned());
            words.join(" ")
        }
        _ => String::new(),
    };
    (compile, shown)
}

/// What to say of a file whose language is not known from its extension.
fn unknown_language(path: &Path) -> String {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if let Some((name, _, why)) = NOT_JUDGED
        .iter()
        .find(|(_, extensions, _)| extensions.contains(&extension))
    {
        return format!(
            "{} is {name}, which sudoku-judge does not judge: {why}",
            path.display()
        );
    }
    let known: Vec<String> = ALL
        .iter()
        .map(|l| format!(".{}", l.0.extensions[0]))
        .collect();
    format!(
        "cannot tell the language of {} from its extension; name it {}, or say which with \
         --lang",
        path.display(),
        known.join(" ")
    )
}

/// How a build starts, its placeholders filled.
fn runtime(run: &Run, flags: &[&str], vars: &[(&str, &str)]) -> Runtime {
    match run {
        Run::Exec(argv) => {
            let argv = command(argv, flags, vars);
            Runtime::Exec {
                program: PathBuf::from(&argv[0]),
                argv: argv.into_iter().map(OsString::from).collect(),
            }
        }
        Run::Jvm {
            java,
            classpath,
            class,
        } => Runtime::Java {
            java: PathBuf::from(fill(java, vars)),
            classpath: command(classpath, &[], vars).join(":").into(),
            class: fill(class, vars),
        },
    }
}
