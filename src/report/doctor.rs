//! `doctor`'s findings, for people (a block per language, then the
//! sandbox, then a line of totals) and as JSON.

use std::io::{self, Write};

use crate::doctor::{Checkup, LanguageCheck, SelfTest};
use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::words::plural;

/// Tool names are padded to this width, so paths line up.
const TOOL_WIDTH: usize = 8;

/// What `doctor` says before checking `language`, on stderr: it takes a
/// few seconds each.
pub(crate) fn checking(out: &mut dyn Write, name: &str) -> io::Result<()> {
    writeln!(out, "checking {name}...")
}

/// The findings, for people.
pub(crate) fn human(out: &mut dyn Write, checkup: &Checkup) -> io::Result<()> {
    for language in &checkup.languages {
        language_block(out, language)?;
    }
    let sandbox = &checkup.sandbox;
    writeln!(
        out,
        "sandbox: {}",
        Outside::new(&sandbox.summary).terminal()
    )?;
    writeln!(out, "cgroup: {}", Outside::new(&sandbox.cgroup).terminal())?;
    let missing: Vec<&str> = sandbox
        .layers
        .iter()
        .filter(|l| !l.on)
        .map(|l| l.name)
        .collect();
    if missing.is_empty() {
        writeln!(out, "layers: all {} in force", sandbox.layers.len())?;
    } else {
        writeln!(
            out,
            "layers: {} of {} in force; without {}",
            sandbox.layers.len() - missing.len(),
            sandbox.layers.len(),
            missing.join(", ")
        )?;
    }
    let refused = checkup.refused();
    if !refused.is_empty() {
        let names: Vec<&str> = refused.iter().map(|(name, _)| *name).collect();
        writeln!(
            out,
            "--sandbox require, but the kernel refuses {}; {}",
            names.join(", "),
            checkup.sandbox.protections.remedy()
        )?;
    }
    let passed = checkup
        .languages
        .iter()
        .filter(|l| l.self_test == SelfTest::Passed)
        .count();
    let failed = checkup.failed().count();
    let not_found = checkup.not_found().count();
    writeln!(
        out,
        "\n{}: {passed} passed their self-test, {failed} failed, {not_found} not found",
        plural(checkup.languages.len(), "language")
    )
}

fn language_block(out: &mut dyn Write, language: &LanguageCheck) -> io::Result<()> {
    let status = match &language.self_test {
        SelfTest::Passed => "ok: the self-test built, ran in the sandbox and was accepted".into(),
        SelfTest::NotFound => {
            let mut packages: Vec<&str> = language
                .tools
                .iter()
                .filter(|t| t.path.is_none())
                .map(|t| t.package)
                .collect();
            packages.dedup();
            format!(
                "not found: install {} (apt install {})",
                packages.join(", "),
                packages.join(" ")
            )
        }
        SelfTest::Failed {
            stage,
            verdict,
            message: _,
        } => {
            let verdict = verdict.map_or_else(String::new, |v| format!(" ({v})"));
            match *stage {
                "build" => format!("FAILED: the self-test did not build{verdict}"),
                _ => format!("FAILED: the self-test did not pass{verdict}"),
            }
        }
    };
    writeln!(out, "{} ({}): {status}", language.name, language.id)?;
    for tool in &language.tools {
        let name = format!("{:<w$}", tool.command, w = TOOL_WIDTH);
        match &tool.path {
            None => writeln!(out, "  {name} not on PATH")?,
            Some(path) => {
                let runs_as = tool.runs_as.as_deref().map_or_else(String::new, |p| {
                    format!(" -> {}", OutsidePath::new(p).terminal())
                });
                let version = tool.version.as_deref().unwrap_or("version unknown");
                writeln!(
                    out,
                    "  {name} {}{runs_as}: {}",
                    OutsidePath::new(path).terminal(),
                    OutsideName::new(version).terminal()
                )?;
            }
        }
    }
    let mut versions = format!("  versions: tested with {}", language.tested);
    for judge in &language.judges {
        versions.push_str(&format!("; {}: {}", judge.judge, judge.version));
    }
    writeln!(out, "{versions}")?;
    if let SelfTest::Failed { message, .. } = &language.self_test {
        for line in message.lines().filter(|l| !l.trim().is_empty()).take(12) {
            writeln!(out, "  | {}", Outside::new(line).terminal())?;
        }
    }
    Ok(())
}

/// The findings as one JSON document.
pub(crate) fn json(out: &mut dyn Write, checkup: &Checkup) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, checkup)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::doctor::{JudgeVersion, SandboxCheck, ToolCheck};
    use crate::runner::sandbox::{Layer, Mode, Protections};
    use crate::verdict::Verdict;

    fn language(id: &'static str, self_test: SelfTest, found: bool) -> LanguageCheck {
        LanguageCheck {
            id,
            name: "Go",
            tools: vec![ToolCheck {
                command: "go",
                package: "golang-go",
                path: found.then(|| PathBuf::from("/usr/bin/go")),
                runs_as: found.then(|| PathBuf::from("/usr/lib/go-1.19/bin/go")),
                version: found.then(|| "go version go1.19.8 linux/amd64".to_string()),
            }],
            tested: "Go 1.19",
            judges: vec![JudgeVersion {
                judge: "LeetCode",
                version: "Go 1.23".into(),
            }],
            self_test,
        }
    }

    fn checkup() -> Checkup {
        let mut protections = Protections::off();
        protections.mode = Mode::Auto;
        protections.processes = Layer::On;
        protections.accounting = Layer::Missing("no cgroup delegated to you".into());
        Checkup {
            languages: vec![
                language("go", SelfTest::Passed, true),
                language("go", SelfTest::NotFound, false),
                language(
                    "go",
                    SelfTest::Failed {
                        stage: "build",
                        verdict: Some(Verdict::CE),
                        message: "main.go:1: garbage\n".into(),
                    },
                    true,
                ),
            ],
            sandbox: SandboxCheck::new(protections),
        }
    }

    #[cfg_attr(
        not(target_os = "linux"),
        ignore = "the snapshot holds Linux's sandbox line"
    )]
    #[test]
    fn each_language_says_what_it_found_and_how_its_self_test_went() {
        let mut out = Vec::new();
        human(&mut out, &checkup()).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }

    #[test]
    fn the_json_has_a_status_per_language_and_the_sandbox() {
        let mut out = Vec::new();
        json(&mut out, &checkup()).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let statuses: Vec<&str> = value["languages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["self_test"]["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["passed", "not_found", "failed"]);
        assert_eq!(value["languages"][2]["self_test"]["verdict"], "CE");
        assert_eq!(
            value["sandbox"]["cgroup"],
            "none: no cgroup delegated to you"
        );
        assert_eq!(value["languages"][0]["tools"][0]["path"], "/usr/bin/go");
    }
}
