//! How a source file becomes a build: its files and commands worked out
//! from its language's declaration (`plan.rs`), then compiled once into the
//! build cache ([`build_as`]).
//!
//! The build directory is named by a hash of the source, the driver, the
//! flags and the compiler's identity and version, so judging the same file
//! again starts at once. A build happens in a fresh directory that is
//! renamed into place only when it succeeded, so an interrupted or failed
//! build is never mistaken for a good one; one that failed, or wrote more
//! than a build may ([`cache::CacheLimits`]), is removed at once. Each new build
//! then makes room in the cache, removing the builds used least recently
//! ([`cache::trim`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use sha2::{Digest as _, Sha256};

use super::announce::Announce;
use super::announce::{announce_after, announced};
use super::cache::key as cache_key;
use super::compile::{compile_cpu, run_compiler, SizeCap};
use super::language::{BuildInfo, Language, SourceName, UsedTool};
use super::launch::Launch;
use super::plan::{plan, Options, Planned};
use super::{cache, caches, needs, tools};

pub(crate) use crate::runner::places::cache_root;
use crate::runner::places::ensure_own_cache;

/// A prepared submission: ready to launch, or rejected by the compiler.
pub(crate) struct Built {
    pub(crate) launch: Option<Launch>,
    pub(crate) info: BuildInfo,
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

/// Prepares `path` for judging: detects its language (unless given) and
/// interface, and builds it with the judges' flags, from the cache when it
/// was built before. A compile error is not an `Err`: it comes back in
/// [`BuildInfo::error`], and the judge gives every case CE. Read and built
/// as `options` say.
pub(crate) fn build_as(
    path: &Path,
    language: Option<Language>,
    options: &Options,
) -> anyhow::Result<Built> {
    let planned = plan(path, language, options)?;
    let launch = |dir: &Path| planned.launch(path, dir);

    // The build is named by everything that makes it.
    let mut hasher = Sha256::new();
    hasher.update(format!(
        "{} {:?}\n{}\n{}\n",
        planned.spec.id, planned.interface, planned.name, planned.class
    ));
    for arg in planned.compile.iter().flatten() {
        hasher.update(format!("{arg}\n"));
    }
    let announce = options.announce.as_ref();
    let used = identify(&planned, announce, &mut hasher)?;
    for (file, text) in &planned.files {
        hasher.update(format!("\n--- {file} {}\n", text.len()));
        hasher.update(text);
    }
    let hash = cache_key(hasher, 10);
    let root = cache_root();
    let dir = root.join(format!("{}-{hash}", planned.name.replace('.', "-")));
    let mut info = BuildInfo {
        source: path.to_path_buf(),
        language: planned.language,
        interface: planned.interface,
        command: planned.shown.clone(),
        cached: true,
        time: Duration::ZERO,
        error: None,
        notes: planned.notes.clone(),
        short_of: used.first().and_then(|compiler| {
            needs::short_of(planned.spec, compiler, planned.flags, planned.judge)
        }),
        toolchain: used,
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

    let limits = cache::CacheLimits::current()?;
    std::fs::create_dir_all(&root)
        .with_context(|| format!("failed to create the build cache {}", root.display()))?;
    ensure_own_cache(&root)?;
    let scratch = Scratch::new(&root)?;
    for (file, text) in &planned.files {
        std::fs::write(scratch.path.join(file), text)
            .with_context(|| format!("failed to write {file} into the build directory"))?;
    }
    // What the judge put there, before the compiler adds to it.
    let sources = cache::usage(&scratch.path, None);
    info.cached = false;
    let started = Instant::now();
    if let Some(argv) = &planned.compile {
        let compiled = compile_in(&planned, argv, &scratch.path, &limits, announce, &mut info);
        info.time = started.elapsed();
        if !compiled? {
            return Ok(Built { launch: None, info });
        }
    }
    // What the compile left, whatever it did while it ran.
    let cap = SizeCap {
        before: sources,
        bytes: limits.build_bytes,
    };
    let bound = sources.saturating_add(cap.bytes);
    if cache::usage(&scratch.path, Some(bound)) > bound {
        info.time = started.elapsed();
        info.error = Some(cap.exceeded());
        return Ok(Built { launch: None, info });
    }
    scratch.store(&dir)?;
    cache::trim(&root, &limits);
    Ok(Built {
        launch: Some(launch(&dir)),
        info,
    })
}

/// The tools a build uses, each with its version, added to `hasher`: a
/// compiler is known by its identity, and its version is asked once per
/// identity, which can take seconds (kotlinc runs on a JVM).
fn identify(
    planned: &Planned,
    announce: Option<&Announce>,
    hasher: &mut Sha256,
) -> anyhow::Result<Vec<UsedTool>> {
    let Planned {
        spec,
        toolchain,
        chosen,
        ..
    } = planned;
    let each = || spec.tools.iter().zip(&toolchain.programs).zip(chosen);
    let unknown = each().find(|((tool, program), chosen)| {
        !tools::version_known(program, &version_args(chosen, tool))
    });
    let asking = unknown.and_then(|((tool, _), _)| {
        let asking = format!(
            "asking {} its version (once per compiler) ...",
            tool.command
        );
        announce_after(announce, asking)
    });
    let used: anyhow::Result<Vec<UsedTool>> = each()
        .map(|((tool, program), chosen)| {
            let version = tool_version(tool, program, &chosen.args, toolchain)?;
            hasher.update(tools::identity(program));
            hasher.update(&version);
            Ok(UsedTool {
                name: chosen.name.clone(),
                program: program.clone(),
                version,
                origin: chosen.origin.clone(),
            })
        })
        .collect();
    announced(asking);
    used
}

/// Runs `argv`, the compile of `planned`, in `dir` under the build's size
/// cap. False when the compiler rejected the file: its message and what it
/// tells are in `info`.
fn compile_in(
    planned: &Planned,
    argv: &[String],
    dir: &Path,
    limits: &cache::CacheLimits,
    announce: Option<&Announce>,
    info: &mut BuildInfo,
) -> anyhow::Result<bool> {
    let Planned {
        spec,
        interface,
        toolchain,
        flags,
        source_name,
        ..
    } = planned;
    // Every language's build step is said here alone: a compiler's, or
    // a script's syntax check.
    let doing = if planned.recipe.shown {
        "compiling"
    } else {
        "checking the syntax of"
    };
    let mut env: Vec<(&str, String)> = spec
        .compile_env
        .iter()
        .map(|(k, v)| (*k, v.to_string()))
        .collect();
    let own_cache = dir.join(".compiler-cache");
    if !toolchain.caches.is_empty() {
        caches::prepare(planned, announce, &own_cache)?;
        let own = own_cache.display().to_string();
        env.extend(
            toolchain
                .caches
                .iter()
                .map(|variable| (*variable, own.clone())),
        );
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let compiling = announce_after(announce, format!("{doing} {} ...", source_name.name));
    let cap = SizeCap {
        before: cache::usage(dir, None),
        bytes: limits.build_bytes,
    };
    let cpu = compile_cpu()?;
    let finished = run_compiler(argv, dir, toolchain, &env, spec.native, cpu, cap);
    announced(compiling);
    // What the compiler kept for itself is not part of the build.
    if own_cache.exists() {
        let _ = std::fs::remove_dir_all(&own_cache);
    }
    let Err(message) = finished? else {
        return Ok(true);
    };
    let message = normalize(message.trim_end(), dir, source_name);
    if let Some(why) = info
        .toolchain
        .first()
        .and_then(|compiler| needs::explain(spec, &message, compiler))
    {
        info.notes.push(why);
    }
    if let Some(why) = needs::written_for(spec, *interface, flags, &message) {
        info.notes.push(why);
    }
    info.error = Some(message);
    Ok(false)
}

/// A build being made, under a name of its own in the cache: held (so no
/// cleaning removes it meanwhile) and removed when dropped, unless kept.
struct Scratch {
    path: PathBuf,
    /// Released when it is kept or removed.
    lock: Option<cache::Held>,
}

impl Scratch {
    /// Marks the build done and moves it to `dir`, held there: a build of
    /// the same thing another run put there meanwhile is used instead.
    fn store(self, dir: &Path) -> anyhow::Result<()> {
        std::fs::write(self.path.join(cache::BUILT), "")?;
        let built = self.keep();
        if std::fs::rename(&built, dir).is_err() {
            let _ = cache::remove_tree(&built);
            if !dir.join(cache::BUILT).is_file() {
                bail!("failed to move the build into {}", dir.display());
            }
        }
        if !cache::hold(dir) {
            bail!("the build {} was removed as it was made", dir.display());
        }
        Ok(())
    }

    fn new(root: &Path) -> anyhow::Result<Scratch> {
        let path = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(root)
            .with_context(|| format!("failed to create a build directory in {}", root.display()))?
            .keep();
        let lock = cache::lock(&path, true);
        Ok(Scratch { path, lock })
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

/// What `tool` says its version is, as a build records it and the report's
/// header shows it, and as `doctor` shows it: asked of `program`, the one
/// that does the work (the toolchain's own `rustc`, not rustup's proxy),
/// with the `words` chosen after it (`c++` of `zig c++`), in the sandbox,
/// seeing `toolchain`. One question for both, so they cannot disagree.
pub(crate) fn tool_version(
    tool: &super::language::Tool,
    program: &Path,
    words: &[String],
    toolchain: &super::language::Toolchain,
) -> anyhow::Result<String> {
    let args: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .chain(tool.version_args.iter().copied())
        .collect();
    tools::version(program, &args, toolchain)
}

/// What makes `tool` say its version: the words chosen after the program
/// (`c++` of `zig c++`), then the tool's own.
fn version_args<'a>(chosen: &'a tools::Chosen, tool: &'a super::language::Tool) -> Vec<&'a str> {
    chosen
        .args
        .iter()
        .map(String::as_str)
        .chain(tool.version_args.iter().copied())
        .collect()
}
