//! Toolchains as users choose them: the suite's `judge.toml`, then the
//! environment (`CXX`), then the user's `config.toml`, then the newest on
//! `PATH`; a compiler asked its version once per binary; `--lang` over the
//! file's extension.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Stdio};

use super::{have, manifest_dir, skip_or_fail, write, Run, ANSWER, PUZZLE};

/// A one-case AcWing suite in `dir`.
fn suite(dir: &Path) {
    write(dir, "a.in", &format!("{PUZZLE}\nend\n"));
    write(dir, "a.out", &format!("{ANSWER}\n"));
}

/// A fake C++ compiler named `name` in `bin`: it says `version` (in
/// double quotes to the shell, so it may hold `$(...)`), and compiles with
/// the real g++ after `sleep` seconds.
fn fake_compiler(bin: &Path, name: &str, version: &str, sleep: u32) {
    let gxx = which::which("g++").expect("g++ is installed");
    let gxx = std::fs::canonicalize(gxx).unwrap();
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo \"{version}\"; exit 0; fi\n\
         sleep {sleep}\nexec '{}' \"$@\"\n",
        gxx.display()
    );
    let path = write(bin, name, &script);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The header's toolchain line of a run.
fn toolchain_line(run: &Run) -> &str {
    run.stdout
        .lines()
        .find(|l| l.starts_with("toolchain: "))
        .unwrap_or_else(|| panic!("no toolchain line:\n{}{}", run.stdout, run.stderr))
}

/// Judges with `env` set and `remove` unset, a cache, config and data
/// directory (where consent to a suite's toolchain is kept) of the test's
/// own.
fn judge_env(home: &Path, args: &[&str], env: &[(&str, String)], remove: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
    command
        .args(args)
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", home.join("cache"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("CXX")
        .stdin(Stdio::null());
    for variable in remove {
        command.env_remove(variable);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("the binary runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn path_with(bin: &Path) -> String {
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn the_newest_compiler_on_path_is_asked_its_version_once() {
    if !have(
        &["g++"],
        "the_newest_compiler_on_path_is_asked_its_version_once",
    ) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    // Asked in the sandbox, where it can leave nothing behind, it tells
    // when it was asked: the answer kept says whether it was asked again.
    fake_compiler(
        &bin,
        "g++-99",
        "g++-99 (fake) 99.1 asked at $(date +%s%N)",
        2,
    );
    let cases = home.path().join("cases");
    suite(&cases);
    let source = manifest_dir().join("tests/fixtures/submissions/ac_program.cpp");
    // --verbose: the toolchain line on every run, a cached build's too.
    let args = [
        "test",
        cases.to_str().unwrap(),
        "--submission",
        source.to_str().unwrap(),
        "--verbose",
    ];
    let env = [("PATH", path_with(&bin))];

    let first = judge_env(home.path(), &args, &env, &[]);
    assert_eq!(first.code, 0, "{}{}", first.stdout, first.stderr);
    let asked = toolchain_line(&first).to_string();
    assert!(
        asked.starts_with("toolchain: C++ g++-99: g++-99 (fake) 99.1 asked at ")
            && asked.ends_with(" (the newest on PATH)"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("compiled ac_program.cpp")
            || first.stdout.contains("compiled ") && first.stdout.contains("g++-99 -O2 -std=c++17"),
        "{}",
        first.stdout
    );
    // The fake compiler takes over two seconds: the build is announced.
    assert!(
        first.stderr.contains("compiling ac_program.cpp ..."),
        "{}",
        first.stderr
    );

    // The version the build used, from the JSON report (a table need not
    // show the toolchain of a cached build).
    let json_args: Vec<&str> = args.iter().copied().chain(["--format", "json"]).collect();
    let second = judge_env(home.path(), &json_args, &env, &[]);
    assert_eq!(second.code, 0, "{}{}", second.stdout, second.stderr);
    let report = second.json();
    assert_eq!(report["build"]["cached"], true, "{}", report["build"]);
    assert!(!second.stderr.contains("compiling"), "{}", second.stderr);
    let kept = report["build"]["toolchain"][0]["version"].as_str().unwrap();
    assert!(
        asked.contains(&format!(": {kept} (the newest on PATH)")),
        "asked again for a known compiler: {kept} after {asked}"
    );

    // Another compiler at the same path (an upgrade) is asked again, and
    // builds again.
    fake_compiler(
        &bin,
        "g++-99",
        "g++-99 (fake) 99.2 asked at $(date +%s%N)",
        0,
    );
    let upgraded = judge_env(home.path(), &args, &env, &[]);
    assert_eq!(upgraded.code, 0, "{}{}", upgraded.stdout, upgraded.stderr);
    assert!(
        toolchain_line(&upgraded).contains("99.2 asked at "),
        "{}",
        upgraded.stdout
    );
    assert!(
        !upgraded.stdout.contains("using the cached build"),
        "{}",
        upgraded.stdout
    );
}

#[test]
fn the_suite_then_the_environment_then_the_user_config_choose_the_compiler() {
    let test = "the_suite_then_the_environment_then_the_user_config_choose_the_compiler";
    if !have(&["g++"], test) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("bin");
    for name in ["suite-c++", "env-c++", "config-c++"] {
        fake_compiler(&bin, name, &format!("{name} 1.0"), 0);
    }
    write(
        &home.path().join("config"),
        "sudoku-judge/config.toml",
        "[toolchain]\ncpp = \"config-c++\"\n",
    );
    let plain = home.path().join("plain");
    suite(&plain);
    let chosen = home.path().join("chosen");
    suite(&chosen);
    write(
        &chosen,
        "judge.toml",
        "[toolchain]\n\"c++\" = \"suite-c++\"\n",
    );
    let source = home.path().join("main.cpp");
    write(home.path(), "main.cpp", "int main() {}\n");
    let path = path_with(&bin);
    let judged = |cases: &Path, env: &[(&str, String)]| {
        let mut env = env.to_vec();
        env.push(("PATH", path.clone()));
        let run = judge_env(
            home.path(),
            &[
                "test",
                cases.to_str().unwrap(),
                "--submission",
                source.to_str().unwrap(),
                "--verbose",
            ],
            &env,
            &[],
        );
        run.stdout
            .lines()
            .find(|l| l.starts_with("toolchain: "))
            .unwrap_or_else(|| panic!("no toolchain line:\n{}{}", run.stdout, run.stderr))
            .to_string()
    };
    let cxx = [("CXX", "env-c++".to_string())];
    // A suite's choice is taken only once the suite is allowed; until
    // then it is refused, not passed over for the next.
    let refused = judge_env(
        home.path(),
        &[
            "test",
            chosen.to_str().unwrap(),
            "--submission",
            source.to_str().unwrap(),
        ],
        &[("PATH", path.clone())],
        &[],
    );
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused
            .stderr
            .contains("names a program for the judge to run"),
        "{}",
        refused.stderr
    );
    super::allow(&chosen, &home.path().join("data"));
    let suite_line = judged(&chosen, &cxx);
    assert!(
        suite_line.contains("C++ suite-c++: suite-c++ 1.0"),
        "{suite_line}"
    );
    assert!(suite_line.contains("judge.toml"), "{suite_line}");
    assert_eq!(
        judged(&plain, &cxx),
        "toolchain: C++ env-c++: env-c++ 1.0 (CXX)"
    );
    let config_line = judged(&plain, &[]);
    assert!(
        config_line.contains("C++ config-c++: config-c++ 1.0")
            && config_line.contains("config.toml"),
        "{config_line}"
    );
}

/// A compiler's name that is no program says where it was set and what
/// to do.
#[test]
fn a_compiler_that_is_no_program_says_where_it_was_named() {
    let home = tempfile::tempdir().unwrap();
    let plain = home.path().join("plain");
    suite(&plain);
    let source = home.path().join("main.cpp");
    write(home.path(), "main.cpp", "int main() {}\n");
    let run = judge_env(
        home.path(),
        &[
            "test",
            plain.to_str().unwrap(),
            "--submission",
            source.to_str().unwrap(),
        ],
        &[("CXX", "no-such-c++".to_string())],
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "CXX sets the C++ toolchain to `no-such-c++`, which is not a program on PATH"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn lang_overrides_the_extension_in_every_language() {
    let home = tempfile::tempdir().unwrap();
    let cases = manifest_dir().join("cases/acwing166/medium.in");
    for (lang, tools, fixture) in [
        ("cpp", &["g++"][..], "ac_program.cpp"),
        ("js", &["node"][..], "ac_program.js"),
        ("c", &["gcc"][..], "ac_program.c"),
        ("go", &["go"][..], "ac_program.go"),
        ("python", &["python3"][..], "ac_program.py"),
        ("ruby", &["ruby"][..], "ac_program.rb"),
        ("php", &["php"][..], "ac_program.php"),
    ] {
        if !have(tools, &format!("lang_overrides_the_extension ({lang})")) {
            continue;
        }
        let text = std::fs::read_to_string(
            manifest_dir()
                .join("tests/fixtures/submissions")
                .join(fixture),
        )
        .unwrap();
        let source = write(home.path(), &format!("{lang}/sol.txt"), &text);
        let run = judge_env(
            home.path(),
            &[
                "test",
                cases.to_str().unwrap(),
                "--submission",
                source.to_str().unwrap(),
                "--lang",
                lang,
                "--time-limit",
                "10s",
            ],
            &[],
            &[],
        );
        assert_eq!(run.code, 0, "--lang {lang}:\n{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("AC "), "--lang {lang}:\n{}", run.stdout);
        // The user's file is left as it was.
        assert_eq!(std::fs::read_to_string(&source).unwrap(), text);
    }
}

/// The C++23 compiler the tests may use, as `CXX` would name it: CI sets
/// `SUDOKU_JUDGE_TEST_CXX23` to zig's clang from the ziglang wheel
/// (`.ci/run`), which a developer's `target/toolchains` may hold too.
fn cxx23() -> Option<String> {
    if let Some(cxx) = std::env::var("SUDOKU_JUDGE_TEST_CXX23")
        .ok()
        .filter(|c| !c.trim().is_empty())
    {
        return Some(cxx);
    }
    let zig = manifest_dir().join("target/toolchains/python/ziglang/zig");
    zig.is_file().then(|| format!("{} c++", zig.display()))
}

/// Judges `fixture` on LeetCode's suite with the user's `config.toml` of
/// `config` (none when empty), the shared build cache (zig's libc++ is
/// built into it once, for minutes), and the JSON report.
fn judge_leetcode_with(home: &Path, fixture: &str, config: &str) -> (Run, serde_json::Value) {
    if !config.is_empty() {
        write(&home.join("config"), "sudoku-judge/config.toml", config);
    }
    let path = format!("tests/fixtures/submissions/{fixture}");
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
    command
        // --verbose: the toolchain line on every run, a cached build's too.
        .args([
            "test",
            "cases/leetcode37",
            "--submission",
            &path,
            "--verbose",
        ])
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", super::build_cache())
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env_remove("CXX")
        .stdin(Stdio::null());
    let human = command.output().expect("the binary runs");
    command.args(["--format", "json"]);
    let json = command.output().expect("the binary runs");
    let report = serde_json::from_slice(&json.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&json.stdout),
            String::from_utf8_lossy(&json.stderr)
        )
    });
    let run = Run {
        code: human.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(human.stdout).unwrap(),
        stderr: String::from_utf8(human.stderr).unwrap(),
    };
    (run, report)
}

fn verdicts(report: &serde_json::Value) -> Vec<String> {
    super::cases_of(report)
        .iter()
        .map(|case| case["verdict"].as_str().unwrap_or("ERROR").to_string())
        .collect()
}

/// g++'s major version, from `g++ -dumpversion`.
fn gxx_major() -> u32 {
    let output = Command::new("g++").arg("-dumpversion").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().split('.').next().unwrap().parse().unwrap()
}

#[test]
fn a_cxx23_leetcode_file_is_ce_with_g_plus_plus_12_saying_what_to_install() {
    let test = "a_cxx23_leetcode_file_is_ce_with_g_plus_plus_12_saying_what_to_install";
    if !have(&["g++"], test) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let (run, report) = judge_leetcode_with(home.path(), "ac_leetcode_deducing_this.cpp", "");
    let verdicts = verdicts(&report);
    if gxx_major() >= 14 {
        assert!(verdicts.iter().all(|v| v == "AC"), "{}", run.stdout);
        return;
    }
    assert!(verdicts.iter().all(|v| v == "CE"), "{}", run.stdout);
    assert_eq!(run.code, 1);
    // The header says once that g++ stops short of LeetCode's standard...
    let short: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("stops at C++20; LeetCode builds C++23"))
        .collect();
    assert_eq!(short.len(), 1, "{}", run.stdout);
    assert!(
        short[0].starts_with("toolchain: g++ ") && short[0].contains("install g++ 14 or clang 18"),
        "{}",
        short[0]
    );
    assert!(
        report["build"]["short_of"]
            .as_str()
            .is_some_and(|s| s.contains("LeetCode builds C++23")),
        "{}",
        report["build"]
    );
    // ...and the compile error is g++'s own words: no guess at the
    // feature, and no other language for C#'s words (`bool`) in it.
    assert!(
        run.stdout.contains("ac_leetcode_deducing_this.cpp:"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("note: this file needs"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("looks like"), "{}", run.stdout);
}

#[test]
fn a_cxx23_leetcode_file_is_ac_with_zigs_clang() {
    let test = "a_cxx23_leetcode_file_is_ac_with_zigs_clang";
    let Some(cxx) = cxx23() else {
        skip_or_fail(
            test,
            "no C++23 compiler: install the ziglang wheel into target/toolchains/python \
             (.ci/run does) or set SUDOKU_JUDGE_TEST_CXX23 to one",
        );
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let config = format!("[toolchain]\ncpp = \"{cxx}\"\n");
    let (run, report) = judge_leetcode_with(home.path(), "ac_leetcode_deducing_this.cpp", &config);
    let verdicts = verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|v| v == "AC"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(run.code, 0);
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("toolchain: C++ "))
        .unwrap_or_else(|| panic!("no toolchain line:\n{}", run.stdout));
    assert!(
        line.contains(&cxx) && line.contains("clang version") && line.contains("config.toml"),
        "{line}"
    );
    assert!(!run.stdout.contains("stops at"), "{}", run.stdout);
    assert!(report["build"]["short_of"].is_null(), "{}", report["build"]);
    // What zig keeps for itself stays out of the build.
    let built = std::fs::read_dir(super::build_cache())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("ac_leetcode_deducing_this")
        })
        .any(|e| e.path().join(".compiler-cache").exists());
    assert!(!built, "a build kept zig's cache");
}

#[test]
fn a_csharp_local_function_is_ac_with_roslyn_and_ce_with_mcs_saying_what_mcs_lacks() {
    let test = "a_csharp_local_function_is_ac_with_roslyn_and_ce_with_mcs_saying_what_mcs_lacks";
    if !have(&["mono"], test) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let (run, report) = judge_leetcode_with(home.path(), "ac_leetcode_local_function.cs", "");
    let verdicts = verdicts(&report);
    let compiler = run
        .stdout
        .lines()
        .find(|l| l.starts_with("toolchain: C# "))
        .unwrap_or_else(|| panic!("no toolchain line:\n{}{}", run.stdout, run.stderr));
    if !compiler.contains("Mono C# compiler") {
        // Roslyn has C# 7's local functions.
        assert!(verdicts.iter().all(|v| v == "AC"), "{}", run.stdout);
        return;
    }
    assert!(verdicts.iter().all(|v| v == "CE"), "{}", run.stdout);
    // The header says what mcs lacks and what LeetCode has; the error is
    // mcs's own words, with no guess at the feature.
    let short: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("toolchain: mcs ") && l.contains("stops at C# 7"))
        .collect();
    assert_eq!(short.len(), 1, "{}", run.stdout);
    assert!(
        short[0].contains("Roslyn's csc") && short[0].contains("[toolchain] csharp = "),
        "{}",
        short[0]
    );
    assert!(
        report["build"]["short_of"]
            .as_str()
            .is_some_and(|s| s.contains("stops at C# 7")),
        "{}",
        report["build"]
    );
    assert!(
        !run.stdout.contains("note: this file needs"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unknown_toolchain_key_names_the_file_the_line_and_column_and_the_keys() {
    let home = tempfile::tempdir().unwrap();
    let cases = home.path().join("cases");
    suite(&cases);
    write(
        &cases,
        "judge.toml",
        "time_limit = \"1s\"\n[toolchain]\ncpp = \"g++\"\npyhton = \"python3\"\n",
    );
    let source = "tests/fixtures/submissions/ac_program.py";
    let run = judge_env(
        home.path(),
        &["test", cases.to_str().unwrap(), "--submission", source],
        &[],
        &[],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let said = format!(
        "invalid {}: [toolchain] has `pyhton`, which is not a language; the keys are cpp, c, \
         rust, python, java, go, javascript, typescript, csharp, kotlin, scala, ruby, php, \
         racket (line 4, column 1)",
        cases.join("judge.toml").display()
    );
    assert!(run.stderr.contains(&said), "{}{}", run.stdout, run.stderr);

    write(
        &home.path().join("config"),
        "sudoku-judge/config.toml",
        "[toolchain]\n\"c++\" = \"g++\"\n  rubi = \"ruby\"\n",
    );
    let run = judge_env(
        home.path(),
        &["test", "cases/acwing166", "--submission", source],
        &[],
        &[],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let config = home.path().join("config/sudoku-judge/config.toml");
    assert!(
        run.stderr.contains(&format!(
            "invalid {}: [toolchain] has `rubi`, which is not a language; the keys are cpp,",
            config.display()
        )) && run.stderr.contains("racket (line 3, column 3)"),
        "{}",
        run.stderr
    );
}

#[test]
fn driver_builds_with_the_toolchain_of_the_cases_suite() {
    let test = "driver_builds_with_the_toolchain_of_the_cases_suite";
    if !have(&["g++"], test) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let cases = home.path().join("cases");
    fake_compiler(&cases.join("bin"), "suite-c++", "suite-c++ 1.0", 0);
    suite(&cases);
    write(
        &cases,
        "judge.toml",
        "[toolchain]\ncpp = \"bin/suite-c++\"\n",
    );
    super::allow(&cases, &home.path().join("data"));
    let out = home.path().join("debug");
    let run = judge_env(
        home.path(),
        &[
            "driver",
            "tests/fixtures/submissions/ac_program.cpp",
            "--out",
            out.to_str().unwrap(),
            "--case",
            cases.join("a.in").to_str().unwrap(),
        ],
        &[],
        &[],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The suite's compiler, as allowed: the judge's copy of it.
    let script = std::fs::read_to_string(out.join("run.sh")).unwrap();
    let copies = home.path().join("cache/.suite-programs");
    assert!(
        script.contains(&copies.display().to_string()) && script.contains("/bin/suite-c++"),
        "{script}"
    );
    // Without the suite, the compiler is the one on PATH.
    let plain = home.path().join("plain");
    let run = judge_env(
        home.path(),
        &[
            "driver",
            "tests/fixtures/submissions/ac_program.cpp",
            "--out",
            plain.to_str().unwrap(),
        ],
        &[],
        &[],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let script = std::fs::read_to_string(plain.join("run.sh")).unwrap();
    assert!(!script.contains("suite-c++"), "{script}");
}
