//! `sudoku-judge doctor`: every language named with what to install when
//! its toolchain is missing, the sandbox's line, a JSON document with the
//! same findings, and a failing self-test failing the command.

use std::path::Path;

use serde_json::Value;
use sudoku_judge::runner::lang::Language;

use super::have;
use super::snapshots::run_with;

/// A directory on no one's `PATH` with nothing in it.
const NO_TOOLCHAINS: (&str, &str) = ("PATH", "/nonexistent");

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"))
}

#[test]
fn doctor_names_every_language_with_its_package_and_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_with(dir.path(), &["doctor"], "", &[NO_TOOLCHAINS]);
    assert_eq!(
        run.code, 0,
        "a missing toolchain is no failure:\n{}",
        run.stdout
    );
    for language in Language::all() {
        let spec = language.spec();
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{} ({}): ", spec.name, spec.id)))
            .unwrap_or_else(|| panic!("no line for {}:\n{}", spec.name, run.stdout));
        for tool in spec.tools {
            assert!(
                line.contains("not found: install") && line.contains(tool.package),
                "{line} should name the package {}",
                tool.package
            );
        }
        assert!(
            run.stderr.contains(&format!("checking {}...", spec.name)),
            "progress on stderr names {}:\n{}",
            spec.name,
            run.stderr
        );
    }
    let sandbox = run
        .stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .expect("a sandbox line");
    assert!(
        sandbox.contains("accounting"),
        "the sandbox line says how runs are measured: {sandbox}"
    );
    assert!(run.stdout.lines().any(|l| l.starts_with("cgroup: ")));
    let total = Language::all().len();
    assert!(
        run.stdout.contains(&format!(
            "{total} languages: 0 passed their self-test, 0 failed, {total} not found"
        )),
        "{}",
        run.stdout
    );

    let strict = run_with(
        dir.path(),
        &["doctor", "--require-all", "--lang", "c"],
        "",
        &[NO_TOOLCHAINS],
    );
    assert_eq!(
        strict.code, 1,
        "--require-all makes a missing toolchain a failure:\n{}",
        strict.stdout
    );
}

#[test]
fn doctor_json_has_each_toolchain_its_self_test_and_the_sandbox() {
    if !have(
        &["gcc", "python3"],
        "doctor_json_has_each_toolchain_its_self_test_and_the_sandbox",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = run_with(
        dir.path(),
        &["doctor", "--json", "--lang", "c", "--lang", "python"],
        "",
        &[],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = json(&run.stdout);
    let languages = report["languages"].as_array().expect("a languages array");
    let ids: Vec<&str> = languages
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c", "python"], "in the order asked for");
    for language in languages {
        assert_eq!(
            language["self_test"]["status"], "passed",
            "the self-test is accepted: {language}"
        );
        assert!(language["tested"].as_str().is_some_and(|t| !t.is_empty()));
        for tool in language["tools"].as_array().unwrap() {
            let path = tool["path"].as_str().expect("a path where it was found");
            assert!(Path::new(path).is_file(), "{path} is the tool found");
            assert!(
                tool["version"].as_str().is_some_and(|v| !v.is_empty()),
                "{tool} says its version"
            );
            assert!(tool["package"].as_str().is_some());
        }
    }
    let sandbox = &report["sandbox"];
    assert!(sandbox["summary"].as_str().is_some_and(|s| !s.is_empty()));
    assert!(sandbox["cgroup"].as_str().is_some());
    assert_eq!(sandbox["layers"].as_array().unwrap().len(), 8);
    assert!(sandbox["protections"]["mode"].is_string());
}

#[test]
fn a_compiler_that_prints_garbage_fails_the_self_test() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // Says it worked and makes nothing, whatever it is asked.
    let gcc = bin.join("gcc");
    std::fs::write(
        &gcc,
        "#!/bin/sh\necho 'garbage 0.0 from a broken compiler'\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&gcc, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let cache = dir.path().join("cache");
    let env = [
        ("PATH", bin.to_str().unwrap()),
        ("SUDOKU_JUDGE_CACHE", cache.to_str().unwrap()),
    ];

    let run = run_with(
        dir.path(),
        &["doctor", "--lang", "c", "--lang", "ruby"],
        "",
        &env,
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("C (c): FAILED: the self-test did not pass"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.lines().any(|l| l.trim_start().starts_with("gcc")
            && l.contains(gcc.to_str().unwrap())
            && l.ends_with("garbage 0.0 from a broken compiler")),
        "the tool found is shown with what it says its version is:\n{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Ruby (ruby): not found: install ruby"),
        "{}",
        run.stdout
    );

    let run = run_with(dir.path(), &["doctor", "--json", "--lang", "c"], "", &env);
    assert_eq!(run.code, 1);
    let report = json(&run.stdout);
    assert_eq!(report["languages"][0]["self_test"]["status"], "failed");
    assert_eq!(
        report["languages"][0]["tools"][0]["path"],
        gcc.to_str().unwrap()
    );
}

/// Racket's tools say their version: the one program a Racket build runs,
/// `racket` (which runs `raco make` too: `raco` has no version question).
#[test]
fn racket_says_its_version() {
    if !have(&["racket"], "racket_says_its_version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = run_with(
        dir.path(),
        &["doctor", "--json", "--lang", "racket"],
        "",
        &[],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = json(&run.stdout);
    let racket = &report["languages"][0];
    assert_eq!(racket["self_test"]["status"], "passed", "{racket}");
    let tools = racket["tools"].as_array().unwrap();
    assert!(!tools.is_empty(), "{racket}");
    for tool in tools {
        assert!(
            tool["version"]
                .as_str()
                .is_some_and(|v| v.contains("Racket v")),
            "{tool} says Racket's version"
        );
    }
    let run = run_with(dir.path(), &["doctor", "--lang", "racket"], "", &[]);
    assert!(!run.stdout.contains("version unknown"), "{}", run.stdout);
}

/// rustup's `rustc` is a proxy that does not answer in the sandbox:
/// `doctor` asks the toolchain's own compiler, as a build does, and says
/// the version the report's header says.
#[test]
fn rustc_says_the_version_a_builds_header_says() {
    if !have(&["rustc"], "rustc_says_the_version_a_builds_header_says") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = run_with(dir.path(), &["doctor", "--json", "--lang", "rust"], "", &[]);
    let report = json(&run.stdout);
    let version = report["languages"][0]["tools"][0]["version"]
        .as_str()
        .unwrap_or_else(|| panic!("rustc says no version: {report}"))
        .to_string();
    assert!(version.starts_with("rustc 1."), "{version}");
    let text = run_with(dir.path(), &["doctor", "--lang", "rust"], "", &[]);
    assert!(!text.stdout.contains("version unknown"), "{}", text.stdout);
    assert!(text.stdout.contains(&version), "{}", text.stdout);
    super::write(dir.path(), "a.in", &format!("{}\nend\n", super::PUZZLE));
    super::write(
        dir.path(),
        "main.rs",
        "fn main() { for line in std::io::stdin().lines() { println!(\"{}\", line.unwrap()); } }\n",
    );
    let judged = run_with(
        dir.path(),
        &["test", "a.in", "--submission", "main.rs", "--verbose"],
        "",
        &[],
    );
    assert!(
        judged
            .stdout
            .contains(&format!("toolchain: Rust rustc: {version} (")),
        "{}",
        judged.stdout
    );
}
