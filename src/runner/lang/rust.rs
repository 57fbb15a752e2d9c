//! Rust: LeetCode's `impl Solution` with `solve_sudoku(board: &mut
//! Vec<Vec<char>>)`, and programs.

use std::path::{Path, PathBuf};

use super::language::Toolchain;
use super::language::{Build, Cause, Comments, Detect, LeetCode, Run, Spec, StarterFiles, Tool};
use crate::reason::Stdout;
use crate::runner::sandbox::Containment;

/// rustup's `rustc` is a proxy: run the toolchain's own compiler. The
/// proxy is asked its sysroot in the sandbox (see `tools::ask`), shown
/// rustup's home and told where it is, and told the toolchain the
/// project pins (`RUSTUP_TOOLCHAIN`, else the nearest `rust-toolchain`
/// file's channel), which the sandbox does not show it.
fn resolve(tools: Vec<PathBuf>, containment: &Containment) -> Toolchain {
    let (read_only, env) = rustup(&tools[0]);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let sysroot = super::tools::ask(
        &tools[0],
        &["--print", "sysroot"],
        read_only,
        &env,
        containment,
    )
    .map(PathBuf::from);
    match sysroot {
        Some(sysroot) if sysroot.join("bin/rustc").is_file() => super::tools::toolchain(
            vec![sysroot.join("bin/rustc")],
            vec![sysroot.clone()],
            vec![sysroot.join("bin")],
            containment,
        ),
        _ => super::tools::toolchain(tools, Vec::new(), Vec::new(), containment),
    }
}

/// What rustup's proxy at `program` needs to answer: its home, shown
/// read-only, and the variables that name it and the toolchain pinned.
/// Nothing for a `rustc` that is no proxy.
fn rustup(program: &Path) -> (Vec<PathBuf>, Vec<(&'static str, String)>) {
    // A link to rustup, or (as older rustups install them) a copy beside it.
    let is_proxy = std::fs::canonicalize(program).ok().is_some_and(|real| {
        real.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("rustup"))
    }) || program.with_file_name("rustup").is_file();
    let home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|home| home.join(".rustup")))
        .filter(|home| is_proxy && home.is_dir());
    let Some(home) = home else {
        return (Vec::new(), Vec::new());
    };
    let mut env = vec![("RUSTUP_HOME", home.display().to_string())];
    let pinned = std::env::var("RUSTUP_TOOLCHAIN").ok().or_else(|| {
        let pin = super::tools::nearest_pin("rust-toolchain.toml")
            .or_else(|| super::tools::nearest_pin("rust-toolchain"))?;
        let text = std::fs::read_to_string(pin).ok()?;
        match toml::from_str::<toml::Table>(&text) {
            Ok(table) => table
                .get("toolchain")?
                .get("channel")?
                .as_str()
                .map(str::to_string),
            // The old form: the channel alone.
            Err(_) => text.lines().next().map(|l| l.trim().to_string()),
        }
    });
    if let Some(toolchain) = pinned.filter(|t| !t.is_empty()) {
        env.push(("RUSTUP_TOOLCHAIN", toolchain));
    }
    (vec![home], env)
}

pub(crate) static SPEC: Spec = Spec {
    id: "rust",
    aliases: &["rs"],
    name: "Rust",
    extensions: &["rs"],
    tools: &[Tool::new("rustc", "rustc", &["--version"])],
    tested: "rustc 1.95",
    resolve,
    flags: &["--edition", "2021", "-O"],
    flags_why: "an optimised build, as LeetCode's (`opt-level` 2) and Codeforces'",
    profiles: &[],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bfn\s+main\s*\(",
        function: r"\bfn\s+solve_sudoku\b",
        script: false,
    },
    program: super::language::NATIVE_PROGRAM,
    // The driver includes the submission as pasted.
    function: Build {
        files: &[("@NAME@", "@SOURCE@"), ("driver.rs", "@DRIVER@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "driver.rs"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.rs"),
    compile_env: &[],
    native: true,
    runtime_kb: 0,
    causes: &[Cause {
        pattern: r"(?m)panicked at (?P<place>.*)\n\s*(?P<what>.*)",
        says: "panicked at $place $what",
    }],
    frame: None,
    out_of_memory: &["memory allocation of"],
    leetcode: LeetCode {
        method: "solve_sudoku",
        template: "impl Solution {\n    pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {\n        \n    }\n}",
        gets: "`struct Solution;` (the file is included as pasted)",
        version: None,
    },
    marks: r"\bimpl\s+Solution\b|\blet\s+mut\b|\bfn\s+main\s*\(\s*\)",
    // std::io::Stdout is line-buffered (a LineWriter) even into a pipe.
    stdout: Stdout::Lines {
        own_buffer: "a BufWriter",
    },
    self_test: "fn main() { let mut line = String::new(); std::io::stdin().read_line(&mut line).unwrap(); print!(\"{line}\"); }\n",
    starter: StarterFiles {
        leetcode_file: "solution.rs",
        program_file: "main.rs",
        leetcode_instead: None,
        program: r#"use std::io::{self, BufRead, Write};

/// Fills the empty cells ('.') of one puzzle: 81 bytes, row by row.
/// As written it leaves the puzzle unchanged, which is a wrong answer.
fn solve(puzzle: &mut [u8]) {
    let _ = puzzle;
}

fn main() {
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin is readable");
        let line = line.trim();
        if line == "end" {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let mut puzzle = line.as_bytes().to_vec();
        solve(&mut puzzle);
        out.write_all(&puzzle).expect("stdout is writable");
        out.write_all(b"\n").expect("stdout is writable");
    }
}
"#,
    },
};
