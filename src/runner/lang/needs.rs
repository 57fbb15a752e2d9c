//! What a compile error can be told beyond the compiler's own words, from
//! what is known rather than guessed: a `-std=` flag the compiler says it
//! does not know; a feature the compiler names itself as past its
//! standard (mcs: "Feature `default literal' cannot be used because it is
//! not part of the C# 7.0 language specification"); the compiler's
//! standard against the one the judge builds with ([`short_of`], said once
//! in the header: `g++ 12.2 stops at C++20; LeetCode builds C++23`); a
//! program written for an older judge's compiler, from what the compiler
//! says of it ([`written_for`]: POJ's C++98, with `gets`); and a file saved
//! under another language's extension, when the compiler names as unknown
//! what only that language has ([`another_language`]).
//!
//! Nothing here reads a feature out of the source: a compiler's words
//! rarely name the feature it stopped at (g++ 12 reads C++23's `this`
//! parameter as a syntax error), and a note that guesses the feature is
//! wrong on the file that fails for another reason.

use std::path::Path;

use super::language::{regex, regex_of, Comments, Interface, Language, Need, Spec, UsedTool};

/// What to tell the user of a file that did not compile because the
/// compiler lacks what the build asked for, by the compiler's own words:
/// `None` when they say nothing of it.
pub(crate) fn explain(spec: &Spec, message: &str, compiler: &UsedTool) -> Option<String> {
    if let Some(flag) = regex(r"(?:unrecognized|invalid|unknown)[^\n]*?(-std=[\w+]+)")
        .captures(message)
        .and_then(|c| c.get(1))
    {
        return Some(format!(
            "{} does not know {}, the standard this file is built with: install a newer \
             {} compiler, or set one in {} ([toolchain] {} = \"...\")",
            compiler.name,
            flag.as_str(),
            spec.name,
            shown_config(),
            spec.id
        ));
    }
    let (need, feature) = spec.needs.iter().find_map(|need| {
        let found = regex(need.error).captures(message)?;
        Some((need, found.name("feature")?.as_str().to_string()))
    })?;
    let version = regex(r"\d+\.\d+(?:\.\d+)*")
        .find_iter(&compiler.version)
        .last()
        .map_or(String::new(), |v| format!(" {}", v.as_str()));
    let config = shown_config();
    Some(format!(
        "this file needs {} ({feature}), which {}{version} does not have: {}, or set the {} \
         compiler in {config} ([toolchain] {} = \"...\")",
        need.standard, compiler.name, need.remedy, spec.name, spec.id
    ))
}

/// The language a file named `name` that did not compile as `language`
/// (the one its extension names) is written in, when `source` bears that
/// language's marks and not its own, and the compiler's `message` shows
/// it: it names as unknown something only that language has (`boolean`,
/// Java's, in a file saved as `.cs`: "The type or namespace name `boolean'
/// could not be found"), or it stops at the file's first line, which is
/// in that language's syntax (C++ saved as `.py`: Python's "SyntaxError"
/// on line 1, a `//` comment). `None` when the compiler's words do not
/// show it.
pub(crate) fn another_language(
    language: Language,
    name: &str,
    source: &str,
    message: &str,
) -> Option<Language> {
    let marked = |language: Language| {
        let marks = language.spec().marks;
        !marks.is_empty() && regex_of(marks).is_match(source)
    };
    if marked(language) {
        return None;
    }
    let unknown = unknown_names(message);
    // The file's first line, when the compiler's first error is on it.
    let opening = source
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty())
        .filter(|(at, _)| first_error_line(name, message) == Some(at + 1))
        .map(|(_, line)| line.trim_start());
    Language::all().iter().copied().find(|&other| {
        let marks = regex_of(other.spec().marks);
        other != language
            && marked(other)
            && (unknown.iter().any(|name| marks.is_match(name))
                || opening.is_some_and(|line| {
                    marks.is_match(line)
                        || (opens_comment(other, line) && !opens_comment(language, line))
                }))
    })
}

/// The line of `name` a compiler's message names first: `main.cpp:21:9:`,
/// `Solution.cs(3,18):`, Python's `File "main.py", line 1`.
fn first_error_line(name: &str, message: &str) -> Option<usize> {
    let name = regex::escape(name);
    regex_of(&format!(r#"{name}(?::(\d+)|\((\d+),|", line (\d+))"#))
        .captures(message)
        .and_then(|found| found.iter().skip(1).flatten().next())
        .and_then(|line| line.as_str().parse().ok())
}

/// Whether `line` opens with a comment in `language`'s syntax.
fn opens_comment(language: Language, line: &str) -> bool {
    let c_like = line.starts_with("//") || line.starts_with("/*");
    match language.spec().detect.comments {
        Comments::CLike => c_like,
        Comments::Hash => line.starts_with('#'),
        Comments::CLikeAndHash => c_like || line.starts_with('#'),
        Comments::Lisp => line.starts_with(';') || line.starts_with("#|"),
    }
}

/// The names a compiler's message says it does not know: quoted on a
/// line that says so (g++'s "'boolean' was not declared", mcs's "The type
/// or namespace name `boolean' could not be found", clang's "unknown type
/// name 'boolean'"), or on javac's `symbol:` line.
fn unknown_names(message: &str) -> Vec<String> {
    let unknown = regex(
        r"(?i)not declared|could not be found|does not name a type|unknown type name|undeclared identifier|not defined|undefined: |cannot find symbol",
    );
    let quoted = regex(r"[`'‘\x22]([^`'’\x22\s]+)[`'’\x22]");
    let symbol = regex(r"^\s*symbol:\s+(?:class|variable|method)\s+(\S+)");
    let mut names = Vec::new();
    for line in message.lines() {
        if unknown.is_match(line) {
            names.extend(quoted.captures_iter(line).map(|c| c[1].to_string()));
        }
        if let Some(found) = symbol.captures(line) {
            names.push(found[1].to_string());
        }
    }
    names
}

/// What to tell the user of a file that did not compile with `flags` and
/// shows, in the compiler's `message`, that it was written for another
/// judge's compiler (a POJ program, with `gets`, built with AcWing's
/// C++17): which `--problem` builds it as that judge does. `None` when
/// nothing shows it.
pub(crate) fn written_for(
    spec: &Spec,
    interface: Interface,
    flags: &[&str],
    message: &str,
) -> Option<String> {
    spec.profiles
        .iter()
        .filter(|profile| profile.interface == interface && profile.flags != flags)
        .find_map(|profile| {
            let problem = profile.problem?;
            let judge = problem.judge();
            profile.signs.iter().find_map(|sign| {
                let found = regex(sign.message).captures(message)?;
                let mut said = String::new();
                found.expand(sign.says, &mut said);
                Some(format!(
                    "{said}; if this program is written for {judge}, judge it with --problem {}",
                    problem.name()
                ))
            })
        })
}

/// A C++ standard as the year it is named by: `-std=c++23` and `C++23`
/// are 2023, `-std=gnu++98` 1998; `None` for flags naming none.
pub(crate) fn standard_year(text: &str) -> Option<u32> {
    let found = regex(r"(?i)(?:c|gnu)\+\+(\d\d)\b").captures(text)?;
    let short: u32 = found[1].parse().ok()?;
    Some(if short >= 90 {
        1900 + short
    } else {
        2000 + short
    })
}

/// How people name a standard: `C++23`.
pub(crate) fn standard_name(year: u32) -> String {
    format!("C++{:02}", year % 100)
}

/// The newest C++ standard a compiler does in full, from the line it gives
/// of its version, by compiler family and major version (their release
/// notes' tables): how it is named (`g++ 12.2`) and the standard's year.
/// `None` for a compiler this does not know.
pub(crate) fn newest_cpp(version: &str) -> Option<(String, u32)> {
    // Past this major version, the standard's year.
    const GCC: [(u32, u32); 5] = [(14, 2023), (11, 2020), (8, 2017), (5, 2014), (4, 2011)];
    const CLANG: [(u32, u32); 5] = [(18, 2023), (16, 2020), (5, 2017), (4, 2014), (3, 2011)];
    let (family, table, number) =
        if let Some(found) = regex(r"clang version (\d+)\.(\d+)").captures(version) {
            ("clang", &CLANG, found)
        } else if regex(r"g\+\+|\bgcc\b|\(GCC\)").is_match(version) {
            let found = regex(r"(\d+)\.(\d+)(?:\.\d+)?")
                .captures_iter(version)
                .last()?;
            ("g++", &GCC, found)
        } else {
            return None;
        };
    let major: u32 = number[1].parse().ok()?;
    let year = table
        .iter()
        .find(|(since, _)| major >= *since)
        .map(|(_, year)| *year)?;
    Some((format!("{family} {major}.{}", &number[2]), year))
}

/// What to say once, above the table, when `compiler` does not do the
/// standard that `judge` builds with (`flags`): `g++ 12.2 stops at C++20;
/// LeetCode builds C++23: ...`; and of Mono's mcs, which stops at C# 7
/// (and lacks some of it), where LeetCode builds with .NET's latest.
pub(crate) fn short_of(
    spec: &Spec,
    compiler: &UsedTool,
    flags: &[&str],
    judge: &str,
) -> Option<String> {
    match spec.id {
        "cpp" => {
            let wanted = flags.iter().find_map(|flag| standard_year(flag))?;
            let (named, newest) = newest_cpp(&compiler.version)?;
            (newest < wanted).then(|| {
                format!(
                    "{named} stops at {}; {judge} builds {}: install g++ 14 or clang 18 (zig's \
                     clang from PyPI will do), or set the C++ compiler in {} ([toolchain] {} = \
                     \"...\")",
                    standard_name(newest),
                    standard_name(wanted),
                    shown_config(),
                    spec.id
                )
            })
        }
        "csharp" if judge == "LeetCode" && compiler.version.contains("Mono C# compiler") => {
            let version = regex(r"\d+\.\d+(?:\.\d+)*")
                .find_iter(&compiler.version)
                .last()
                .map_or(String::new(), |v| format!(" {}", v.as_str()));
            Some(format!(
                "{}{version} stops at C# 7, and lacks some of it (local functions, patterns in \
                 `case` labels); {judge} builds with .NET's latest C#: set Roslyn's csc as the C# \
                 compiler in {} ([toolchain] {} = \"...\")",
                compiler.name,
                shown_config(),
                spec.id
            ))
        }
        _ => None,
    }
}

/// The user's `config.toml`, from `~` when it is under it.
fn shown_config() -> String {
    let Some(path) = super::cache::user_config_path() else {
        return "config.toml".to_string();
    };
    match dirs::home_dir().and_then(|home| path.strip_prefix(home).ok().map(Path::to_path_buf)) {
        Some(relative) => format!("~/{}", relative.display()),
        None => path.display().to_string(),
    }
}

/// What LeetCode's .NET has and Mono's mcs (6.8, Debian 12's) does not,
/// where mcs names it itself.
pub(crate) const CSHARP: [Need; 1] = [Need {
    error: r"error CS1644: Feature `(?P<feature>[^']+)' cannot be used because it is not part of the C# [\d.]+ language specification",
    standard: "C# 7.1 or later",
    remedy: "Mono's mcs stops at C# 7; Roslyn's csc has it, as LeetCode's .NET does",
}];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn tool(name: &str, version: &str) -> UsedTool {
        UsedTool {
            name: name.into(),
            program: PathBuf::from("/usr/bin").join(name),
            version: version.into(),
            origin: "found on PATH".into(),
        }
    }

    fn spec(id: &str) -> &'static Spec {
        Language::find(id).unwrap().spec()
    }

    /// What g++ 12 says of a LeetCode file with a missing semicolon, of
    /// `string s = 42;`, and of C++23's `this` parameter: none names a
    /// feature, so none gets a note.
    #[test]
    fn a_compile_error_whose_words_name_no_feature_gets_no_note() {
        let gxx = tool("g++", "g++ (Debian 12.2.0-14) 12.2.0");
        for message in [
            "solution.cpp:9:21: error: expected ';' before '}' token",
            "solution.cpp:4:20: error: conversion from 'int' to non-scalar type \
             'std::string' {aka 'std::__cxx11::basic_string<char>'} requested",
            "solution.cpp:21:22: error: expected identifier before 'this'",
        ] {
            assert_eq!(explain(spec("cpp"), message, &gxx), None, "{message}");
        }
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let local =
            "Solution.cs(3,18): error CS1525: Unexpected symbol `(', expecting `,', `;', or `='";
        assert_eq!(explain(spec("csharp"), local, &mcs), None);
    }

    #[test]
    fn a_feature_the_compiler_names_as_past_its_standard_is_said_with_the_remedy() {
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let message = "P.cs(2,41): error CS1644: Feature `default literal' cannot be used because \
                       it is not part of the C# 7.0 language specification";
        let said = explain(spec("csharp"), message, &mcs).unwrap();
        assert!(
            said.starts_with(
                "this file needs C# 7.1 or later (default literal), which mcs 6.8.0.105 does \
                 not have: Mono's mcs stops at C# 7; Roslyn's csc has it"
            ),
            "{said}"
        );
        assert!(said.contains("[toolchain] csharp = "), "{said}");
    }

    #[test]
    fn a_standard_the_compiler_does_not_know_is_said() {
        let gxx = tool("g++", "g++ (GCC) 7.5.0");
        let said = explain(
            spec("cpp"),
            "g++: error: unrecognized command-line option '-std=c++23'",
            &gxx,
        )
        .unwrap();
        assert!(
            said.starts_with("g++ does not know -std=c++23, the standard this file is built with"),
            "{said}"
        );
    }

    #[test]
    fn another_language_is_named_only_when_the_compilers_words_show_it() {
        let cs = Language::find("csharp").unwrap();
        let java = "class Solution {\n    public void SolveSudoku(char[][] board) {\n        \
                    boolean[] seen = new boolean[10];\n    }\n}\n";
        let mcs = "Solution.cs(3,9): error CS0246: The type or namespace name `boolean' could \
                   not be found. Are you missing an assembly reference?";
        assert_eq!(
            another_language(cs, "Solution.cs", java, mcs),
            Language::find("java")
        );
        // The same file failing for another reason is told that reason.
        let other = "Solution.cs(4,5): error CS1525: Unexpected symbol `}'";
        assert_eq!(another_language(cs, "Solution.cs", java, other), None);
        // C++ with C#'s `string` and `bool` in it, which g++ knows.
        let cpp = Language::find("cpp").unwrap();
        let source =
            "class Solution {\npublic:\n    bool solveSudoku(vector<vector<char>>& b) {\n        \
                      string s = 42;\n        return true;\n    }\n};\n";
        let gxx = "solution.cpp:4:20: error: conversion from 'int' to non-scalar type \
                   'std::string' {aka 'std::__cxx11::basic_string<char>'} requested";
        assert_eq!(another_language(cpp, "solution.cpp", source, gxx), None);
        // A file with its own language's marks is that language.
        let marked = "#include <vector>\nbool f() { boolean x; }\n";
        let unknown = "a.cpp:2:12: error: 'boolean' was not declared in this scope";
        assert_eq!(another_language(cpp, "a.cpp", marked, unknown), None);
        // C++ saved as `.py`: Python stops at its first line, a C++ comment.
        let python = Language::find("python").unwrap();
        let program = "// reads puzzles\n#include <cstdio>\nint main() { return 0; }\n";
        let said =
            "  File \"main.py\", line 1\n    // reads puzzles\n    ^^\nSyntaxError: invalid syntax";
        assert_eq!(
            another_language(python, "main.py", program, said),
            Language::find("cpp")
        );
        // A C++ LeetCode file (C#'s `bool`, no C++ marks) that fails on a
        // later line, or on its first line in its own syntax, is not C#.
        let leetcode = "class Solution {\npublic:\n    bool f() { return 1 }\n};\n";
        let later = "solution.cpp:3:25: error: expected ';' before '}' token";
        assert_eq!(another_language(cpp, "solution.cpp", leetcode, later), None);
        let first = "solution.cpp:1:1: error: 'clas' does not name a type";
        let typo = leetcode.replacen("class", "clas", 1);
        assert_eq!(another_language(cpp, "solution.cpp", &typo, first), None);
    }

    #[test]
    fn a_compilers_newest_standard_comes_from_its_family_and_version() {
        let debian = "x86_64-linux-gnu-g++-12 (Debian 12.2.0-14+deb12u1) 12.2.0";
        assert_eq!(newest_cpp(debian), Some(("g++ 12.2".into(), 2020)));
        assert_eq!(
            newest_cpp("g++ (GCC) 14.1.1 20240522"),
            Some(("g++ 14.1".into(), 2023))
        );
        assert_eq!(
            newest_cpp("Debian clang version 16.0.6 (15)"),
            Some(("clang 16.0".into(), 2020))
        );
        // zig c++ says it as clang does.
        assert_eq!(
            newest_cpp("clang version 22.1.8"),
            Some(("clang 22.1".into(), 2023))
        );
        assert_eq!(newest_cpp("Mono C# compiler version 6.8.0.105"), None);
        assert_eq!(standard_year("-std=gnu++98"), Some(1998));
        assert_eq!(standard_year("-std=c++23"), Some(2023));
        assert_eq!(standard_year("-O2"), None);
        assert_eq!(standard_name(1998), "C++98");
    }

    #[test]
    fn the_header_says_when_the_compiler_stops_short_of_the_judges_standard() {
        let cpp = spec("cpp");
        let gxx = tool("g++", "g++ (Debian 12.2.0-14) 12.2.0");
        let said = short_of(cpp, &gxx, &["-O2", "-std=c++23"], "LeetCode").unwrap();
        assert!(
            said.starts_with("g++ 12.2 stops at C++20; LeetCode builds C++23: install g++ 14"),
            "{said}"
        );
        assert!(said.contains("[toolchain] cpp = "), "{said}");
        assert_eq!(short_of(cpp, &gxx, &["-O2", "-std=c++17"], "AcWing"), None);
        assert_eq!(short_of(cpp, &gxx, &["-std=gnu++98"], "POJ"), None);
        let clang = tool("zig c++", "clang version 22.1.8");
        assert_eq!(short_of(cpp, &clang, &["-std=c++23"], "LeetCode"), None);
        // mcs, for LeetCode's C#; a program is judged as AcWing's.
        let cs = spec("csharp");
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let said = short_of(cs, &mcs, &[], "LeetCode").unwrap();
        assert!(
            said.starts_with("mcs 6.8.0.105 stops at C# 7, and lacks some of it"),
            "{said}"
        );
        assert!(said.contains("[toolchain] csharp = "), "{said}");
        assert_eq!(short_of(cs, &mcs, &[], "AcWing"), None);
        let csc = tool("csc", "Microsoft (R) Visual C# Compiler version 4.8.0");
        assert_eq!(short_of(cs, &csc, &[], "LeetCode"), None);
    }
}
