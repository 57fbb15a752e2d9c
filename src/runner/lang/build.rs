//! How a source file becomes a build: its files and commands worked out
//! from its language's declaration ([`plan`]), then compiled once into the
//! build cache ([`build_as`]).
//!
//! The build directory is named by a hash of the source, the driver, the
//! flags and the compiler's identity and version, so judging the same file
//! again starts at once. A build happens in a fresh directory that is
//! renamed into place only when it succeeded, so an interrupted or failed
//! build is never mistaken for a good one; one that failed, or wrote more
//! than a build may ([`cache::Limits`]), is removed at once. Each new build
//! then makes room in the cache, removing the builds used least recently
//! ([`cache::trim`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use sha2::{Digest as _, Sha256};

use super::announce::{announce_after, announced, Announce};
use super::cache::key as cache_key;
use super::compile::{run_compiler, SizeCap};
use super::launch::{Interface, Launch, Runtime};
use super::{
    cache, caches, harness, interface_of, needs, readings, tools, Build, BuildInfo, Built, Choice,
    Language, Reading, Run, SourceName, Spec, Toolchain, UsedTool, ALL, NOT_JUDGED,
};
use crate::problem::Problem;

/// Where builds are cached: `$SUDOKU_JUDGE_CACHE`, else the user's cache
/// directory (`~/.cache/sudoku-judge` on Linux).
pub fn cache_root() -> PathBuf {
    std::env::var_os("SUDOKU_JUDGE_CACHE")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("sudoku-judge")))
        .unwrap_or_else(|| std::env::temp_dir().join("sudoku-judge-cache"))
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

/// Makes the compiler's message about the build directory read as if the
/// user's file had been compiled where it is.
fn normalize(message: &str, dir: &Path, source: &SourceName) -> String {
    // The JVM's own warnings (kotlinc and scalac run on it) are never about
    // the user's code.
    let mut text: String = message
        .lines()
        .filter(|line| !line.starts_with("OpenJDK 64-Bit Server VM warning:"))
        .map(|line| format!("{line}\n"))
        .collect::<String>()
        .replace(&format!("{}/", dir.display()), "")
        .replace(&format!("./{}", source.name), &source.name);
    if source.built_as != source.name {
        for end in [":", "(", "\""] {
            text = text.replace(
                &format!("{}{end}", source.built_as),
                &format!("{}{end}", source.name),
            );
        }
    }
    text
}

/// A source file's build, worked out but not done: what [`build`] builds
/// in the cache and [`export`] writes out for a debugger.
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

/// Works out the build of `path`, read as `reading` says, for cases of
/// `problem` when they all are.
pub(super) fn plan(
    path: &Path,
    language: Option<Language>,
    options: &Options,
) -> anyhow::Result<Planned> {
    let reading = options.reading;
    let language = match language.or_else(|| Language::from_path(path)) {
        Some(language) => language,
        None => bail!("{}", unknown_language(path)),
    };
    let spec = language.0;
    let source = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read the submission {}", path.display()))?;
    let source = source
        .strip_prefix('\u{feff}')
        .unwrap_or(&source)
        .to_string();
    let (own_main, function) = readings(language, &source);
    let mut notes = Vec::new();
    let interface = match reading {
        Reading::Forced(Interface::Function) if !function => bail!(
            "{} has no {}, LeetCode's {}: it cannot be judged as a LeetCode-style file",
            path.display(),
            spec.leetcode.method,
            spec.name
        ),
        Reading::Forced(interface) => interface,
        Reading::LeetCodeFirst if function => Interface::Function,
        _ => interface_of(language, &source).with_context(|| {
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
    let chosen = tools::find_tools(language, &options.toolchains)?;
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
    let toolchain = (spec.resolve)(chosen.iter().map(|c| c.program.clone()).collect());
    let recipe = match interface {
        Interface::Program => &spec.program,
        Interface::Function => &spec.function,
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
    // A program judged on a problem whose judge builds it otherwise is
    // built as that judge builds it.
    let profile = spec
        .profiles
        .iter()
        .find(|p| p.interface == interface && p.problem.is_none_or(|p| Some(p) == options.problem));
    let flags = profile.map_or(spec.flags, |p| p.flags);
    if let Some(profile) = profile {
        files.extend(
            profile
                .files
                .iter()
                .map(|(file, text)| (file.to_string(), text.to_string())),
        );
    }
    if let Some((profile, problem)) = profile.and_then(|p| Some((p, p.problem?))) {
        notes.push(format!(
            "built for {} with {}: {}",
            problem.name(),
            flags.join(" "),
            profile.why
        ));
    }
    let compile = (!recipe.compile.is_empty()).then(|| {
        let mut argv = command(recipe.compile, flags, &vars);
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
    let vars = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let judge = match (interface, options.problem) {
        (Interface::Function, _) | (_, Some(Problem::Leetcode37)) => "LeetCode",
        (Interface::Program, Some(Problem::Poj3074)) => "POJ",
        (Interface::Program, _) => "AcWing",
    };
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

/// Prepares `path` for judging: detects its language (unless given) and
/// interface, and builds it with the judges' flags, from the cache when it
/// was built before. A compile error is not an `Err`: it comes back in
/// [`BuildInfo::error`], and the judge gives every case CE.
pub fn build(path: &Path, language: Option<Language>) -> anyhow::Result<Built> {
    build_as(path, language, &Options::default())
}

/// How [`build_as`] reads and builds a file.
#[derive(Clone, Default)]
pub struct Options {
    /// How to read a file that could be a program or a LeetCode-style file.
    pub reading: Reading,
    /// The problem every case is, when they all are one: a judge may build
    /// programs with flags of its own.
    pub problem: Option<Problem>,
    /// The toolchains the suite's `judge.toml`s name, above all others.
    pub toolchains: Vec<Choice>,
    /// Told what takes a while (`compiling Sol.kt ...`) when it has taken
    /// about a second.
    pub announce: Option<Announce>,
}

/// [`build`], reading and building as `options` say.
pub fn build_as(
    path: &Path,
    language: Option<Language>,
    options: &Options,
) -> anyhow::Result<Built> {
    let Planned {
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
        vars: owned_vars,
        recipe,
        flags,
        notes,
        judge,
        chosen,
    } = plan(path, language, options)?;
    let vars: Vec<(&str, &str)> = owned_vars
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();

    let mut hasher = Sha256::new();
    hasher.update(format!("{} {interface:?}\n{name}\n{class}\n", spec.id));
    for arg in compile.iter().flatten() {
        hasher.update(format!("{arg}\n"));
    }
    // A compiler is known by its identity; its version is asked once per
    // identity, which can take seconds (kotlinc runs on a JVM).
    let unknown = spec
        .tools
        .iter()
        .zip(&toolchain.programs)
        .zip(&chosen)
        .find(|((tool, program), chosen)| {
            !tools::version_known(program, &version_args(chosen, tool))
        })
        .map(|(found, _)| found);
    let asking = unknown.and_then(|(tool, _)| {
        announce_after(
            options.announce.as_ref(),
            format!(
                "asking {} its version (once per compiler) ...",
                tool.command
            ),
        )
    });
    let mut used = Vec::new();
    for ((tool, program), chosen) in spec.tools.iter().zip(&toolchain.programs).zip(&chosen) {
        let version = tools::version(program, &version_args(chosen, tool), &toolchain);
        hasher.update(tools::identity(program));
        hasher.update(&version);
        used.push(UsedTool {
            name: chosen.name.clone(),
            program: program.clone(),
            version,
            origin: chosen.origin.clone(),
        });
    }
    announced(asking);
    for (file, text) in &files {
        hasher.update(format!("\n--- {file} {}\n", text.len()));
        hasher.update(text);
    }
    let hash = cache_key(hasher, 10);
    let root = cache_root();
    let dir = root.join(format!("{}-{hash}", name.replace('.', "-")));
    let mut info = BuildInfo {
        source: path.to_path_buf(),
        language,
        interface,
        command: shown,
        cached: true,
        time: Duration::ZERO,
        error: None,
        notes,
        short_of: None,
        toolchain: used,
    };
    info.short_of = info
        .toolchain
        .first()
        .and_then(|compiler| needs::short_of(spec, compiler, flags, judge));
    let label = format!(
        "{} ({language} {})",
        path.display(),
        match interface {
            Interface::Program => "program",
            Interface::Function => "LeetCode-style",
        }
    );
    let launch = |dir: &Path| {
        let dir_text = dir.display().to_string();
        let mut vars = vars.clone();
        vars.push(("@DIR@", &dir_text));
        Launch {
            label: label.clone(),
            interface,
            runtime: runtime(&recipe.run, flags, &vars),
            language: Some(language),
            source: Some(source_name.clone()),
            read_only: std::iter::once(dir.to_path_buf())
                .chain(toolchain.read_only.iter().cloned())
                .collect(),
        }
    };
    if root.exists() {
        ensure_own_cache(&root)?;
    }
    // A build found is held for as long as this judge runs, so that no
    // other judge's cleaning removes it meanwhile.
    if dir.join(cache::BUILT).is_file() && cache::hold(&dir) {
        return Ok(Built {
            launch: Some(launch(&dir)),
            info,
        });
    }

    let limits = cache::Limits::current()?;
    std::fs::create_dir_all(&root)
        .with_context(|| format!("failed to create the build cache {}", root.display()))?;
    ensure_own_cache(&root)?;
    let scratch = Scratch::new(&root)?;
    for (file, text) in &files {
        std::fs::write(scratch.path().join(file), text)
            .with_context(|| format!("failed to write {file} into the build directory"))?;
    }
    // What the judge put there, before the compiler adds to it.
    let sources = cache::usage(scratch.path(), None);
    info.cached = false;
    let started = Instant::now();
    if let Some(argv) = &compile {
        // Every language's build step is said here alone: a compiler's, or
        // a script's syntax check.
        let doing = if recipe.shown {
            "compiling"
        } else {
            "checking the syntax of"
        };
        let mut env: Vec<(&str, String)> = spec
            .compile_env
            .iter()
            .map(|(k, v)| (*k, v.to_string()))
            .collect();
        let own_cache = scratch.path().join(".compiler-cache");
        if !toolchain.caches.is_empty() {
            caches::prepare(
                spec,
                &toolchain,
                &chosen[0],
                flags,
                options.announce.as_ref(),
                &own_cache,
            )?;
            let own = own_cache.display().to_string();
            env.extend(
                toolchain
                    .caches
                    .iter()
                    .map(|variable| (*variable, own.clone())),
            );
        }
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let compiling = announce_after(
            options.announce.as_ref(),
            format!("{doing} {} ...", source_name.name),
        );
        let cap = SizeCap {
            before: cache::usage(scratch.path(), None),
            bytes: limits.build_bytes,
        };
        let finished = run_compiler(
            argv,
            scratch.path(),
            &toolchain,
            &env,
            language.is_native(),
            cap,
        );
        announced(compiling);
        // What the compiler kept for itself is not part of the build.
        if own_cache.exists() {
            let _ = std::fs::remove_dir_all(&own_cache);
        }
        let finished = finished?;
        info.time = started.elapsed();
        if let Err(message) = finished {
            let message = normalize(message.trim_end(), scratch.path(), &source_name);
            // The user's code is the file it is built as, or (a LeetCode
            // file behind its driver) inside one of the build's files.
            let source = files
                .iter()
                .find(|(file, _)| *file == source_name.built_as)
                .map_or_else(
                    || files.iter().map(|(_, text)| text.as_str()).collect(),
                    |(_, text)| text.clone(),
                );
            if let Some(why) = info
                .toolchain
                .first()
                .and_then(|compiler| needs::explain(spec, &source, &message, compiler))
            {
                info.notes.push(why);
            }
            if let Some(why) = needs::written_for(spec, interface, flags, &message) {
                info.notes.push(why);
            }
            info.error = Some(message);
            return Ok(Built { launch: None, info });
        }
    }
    // What the compile left, whatever it did while it ran.
    let cap = SizeCap {
        before: sources,
        bytes: limits.build_bytes,
    };
    if cache::usage(scratch.path(), Some(sources.saturating_add(cap.bytes)))
        > sources.saturating_add(cap.bytes)
    {
        info.time = started.elapsed();
        info.error = Some(cap.exceeded());
        return Ok(Built { launch: None, info });
    }
    std::fs::write(scratch.path().join(cache::BUILT), "")?;
    let built = scratch.keep();
    if std::fs::rename(&built, &dir).is_err() {
        // Another run built the same thing meanwhile; use that one.
        let _ = cache::remove_tree(&built);
        if !dir.join(cache::BUILT).is_file() {
            bail!("failed to move the build into {}", dir.display());
        }
    }
    if !cache::hold(&dir) {
        bail!("the build {} was removed as it was made", dir.display());
    }
    cache::trim(&root, &limits);
    Ok(Built {
        launch: Some(launch(&dir)),
        info,
    })
}

/// A build being made, under a name of its own in the cache: held (so no
/// cleaning removes it meanwhile) and removed when dropped, unless kept.
struct Scratch {
    path: PathBuf,
    /// Released when it is kept or removed.
    lock: Option<nix::fcntl::Flock<std::fs::File>>,
}

impl Scratch {
    fn new(root: &Path) -> anyhow::Result<Scratch> {
        let path = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(root)
            .with_context(|| format!("failed to create a build directory in {}", root.display()))?
            .keep();
        let lock = std::fs::File::open(&path)
            .ok()
            .and_then(|dir| nix::fcntl::Flock::lock(dir, nix::fcntl::FlockArg::LockShared).ok());
        Ok(Scratch { path, lock })
    }

    fn path(&self) -> &Path {
        &self.path
    }

    /// Keeps it: its path, no longer removed.
    fn keep(mut self) -> PathBuf {
        self.lock = None;
        std::mem::take(&mut self.path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.lock = None;
        if !self.path.as_os_str().is_empty() {
            let _ = cache::remove_tree(&self.path);
        }
    }
}

/// Refuses a build cache that another user owns or every user may write:
/// whoever can change a build there decides what is judged.
fn ensure_own_cache(root: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(root)
        .with_context(|| format!("failed to read the build cache {}", root.display()))?;
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me || meta.mode() & 0o002 != 0 {
        bail!(
            "the build cache {} {}, so builds there could be changed by another user; set \
             SUDOKU_JUDGE_CACHE to a directory of your own",
            root.display(),
            if meta.uid() != me {
                format!("belongs to uid {}, not to you (uid {me})", meta.uid())
            } else {
                "is writable by every user".to_string()
            }
        );
    }
    Ok(())
}

/// What makes `tool` say its version: the words chosen after the program
/// (`c++` of `zig c++`), then the tool's own.
fn version_args<'a>(chosen: &'a tools::Chosen, tool: &'a super::Tool) -> Vec<&'a str> {
    chosen
        .args
        .iter()
        .map(String::as_str)
        .chain(tool.version_args.iter().copied())
        .collect()
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
pub(super) fn runtime(run: &Run, flags: &[&str], vars: &[(&str, &str)]) -> Runtime {
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
