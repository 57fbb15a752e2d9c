//! Which programs build and run a language, and what they are: where each
//! tool comes from, the programs a version manager's shims stand for, and
//! what the sandbox must show of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Language, Toolchain};

/// Finds a language's tools on `PATH`, or says which package to install.
pub(super) fn find_tools(language: Language) -> anyhow::Result<Vec<PathBuf>> {
    language
        .0
        .tools
        .iter()
        .map(|tool| {
            which::which(tool.command).map_err(|_| {
                anyhow::anyhow!(
                    "`{}` is not installed or not on PATH, and judging {language} needs it; \
                     install Debian's package {} (apt install {}), or build the program \
                     yourself and judge it with --cmd",
                    tool.command,
                    tool.package,
                    tool.package
                )
            })
        })
        .collect()
}

/// The first line of what `tool args` prints, so an upgrade means a rebuild.
pub fn version(tool: &Path, args: &[&str]) -> String {
    Command::new(tool)
        .args(args)
        .output()
        .map(|o| {
            let text = if o.stdout.is_empty() {
                o.stderr
            } else {
                o.stdout
            };
            String::from_utf8_lossy(&text)
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}
/// The output of `program args...`, trimmed; for asking a toolchain where
/// it lives. Runs outside the sandbox: it is the user's own toolchain.
pub(super) fn ask(program: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The usual resolution: each tool's real path (past symbolic links),
/// seen by the sandbox with what it needs (see `sandbox::program_paths`).
pub(super) fn resolve_links(tools: Vec<PathBuf>) -> Toolchain {
    let programs = tools
        .into_iter()
        .map(|tool| std::fs::canonicalize(&tool).unwrap_or(tool))
        .collect();
    toolchain(programs, Vec::new(), Vec::new())
}

/// A toolchain of `programs`, seen by the sandbox with `read_only` and
/// whatever else the programs need.
pub(super) fn toolchain(
    programs: Vec<PathBuf>,
    mut read_only: Vec<PathBuf>,
    path_dirs: Vec<PathBuf>,
) -> Toolchain {
    let home = dirs::home_dir();
    for program in &programs {
        for path in crate::runner::sandbox::program_paths(program, home.as_deref()) {
            if !read_only.iter().any(|p| path.starts_with(p)) {
                read_only.push(path);
            }
        }
    }
    Toolchain {
        programs,
        read_only,
        path_dirs,
    }
}
