//! Compile errors that come from a language feature newer than the
//! compiler: which standard the file needs, which compilers have it, and
//! how to point the judge at one. A compiler's own words rarely name the
//! feature (g++ 12 reads C++23's `this` parameter as a syntax error, Mono's
//! mcs a local function as "Unexpected symbol"), so the feature is
//! recognised in the source: on the line where the compiler stopped, with
//! the words it says there (mcs, which lacks some of the C# it claims, so
//! that a feature it has is never blamed for another error), or anywhere
//! in a file built with a standard its compiler does not reach (g++ 12 and
//! C++23).
//!
//! And the other way: a program written for an older judge's compiler
//! (POJ's C++98, with `gets`) that the usual build rejects, from the
//! compiler's words, is told which `--problem` builds it as that judge did.

use std::path::Path;

use super::{regex, without_comments, Interface, Spec, UsedTool};

/// A language feature that older compilers reject.
pub struct Need {
    /// As people name it: `explicit object parameter (deducing this)`.
    pub feature: &'static str,
    /// The standard that brought it: `C++23`, `C# 7`.
    pub standard: &'static str,
    /// Where it is in a file (comments removed).
    pub source: &'static str,
    /// What the compiler says where it stops at the feature, with the
    /// line in `(?P<line>)`: the feature must be on that line. Without
    /// it, the feature anywhere in a file that did not compile counts. A
    /// compiler that names the feature itself gives its name in
    /// `(?P<feature>)`, which is then said instead of `feature`.
    pub error: Option<&'static str>,
    /// The compilers that have it, and what else to do.
    pub remedy: &'static str,
}

/// What to tell the user of a file that did not compile because of a
/// feature its compiler lacks: `None` when nothing points to one.
pub fn explain(spec: &Spec, source: &str, message: &str, compiler: &UsedTool) -> Option<String> {
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
    let code = without_comments(spec.detect.comments, source);
    let lines: Vec<&str> = code.lines().collect();
    let (need, named) = spec.needs.iter().find_map(|need| {
        let found = regex(need.source);
        match need.error {
            None => found.is_match(&code).then_some((need, None)),
            Some(error) => regex(error).captures_iter(message).find_map(|at| {
                at.name("line")
                    .and_then(|l| l.as_str().parse::<usize>().ok())
                    .and_then(|l| lines.get(l.checked_sub(1)?))
                    .is_some_and(|line| found.is_match(line))
                    .then(|| (need, at.name("feature").map(|f| f.as_str().to_string())))
            }),
        }
    })?;
    // A compiler that has the standard stopped for another reason.
    if let (Some(needed), Some((_, newest))) =
        (standard_year(need.standard), newest_cpp(&compiler.version))
    {
        if newest >= needed {
            return None;
        }
    }
    let version = regex(r"\d+\.\d+(?:\.\d+)*")
        .find_iter(&compiler.version)
        .last()
        .map_or(String::new(), |v| format!(" {}", v.as_str()));
    let config = shown_config();
    Some(format!(
        "this file needs {} ({}), which {}{} does not have: {}, or set the {} compiler in {config} \
         ([toolchain] {} = \"...\")",
        need.standard,
        named.as_deref().unwrap_or(need.feature),
        compiler.name,
        version,
        need.remedy,
        spec.name,
        spec.id
    ))
}

/// What to tell the user of a file that did not compile with `flags` and
/// shows, in the compiler's `message`, that it was written for another
/// judge's compiler (a POJ program, with `gets`, built with AcWing's
/// C++17): which `--problem` builds it as that judge does. `None` when
/// nothing shows it.
pub fn written_for(
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
pub fn standard_year(text: &str) -> Option<u32> {
    let found = regex(r"(?i)(?:c|gnu)\+\+(\d\d)\b").captures(text)?;
    let short: u32 = found[1].parse().ok()?;
    Some(if short >= 90 {
        1900 + short
    } else {
        2000 + short
    })
}

/// How people name a standard: `C++23`.
pub fn standard_name(year: u32) -> String {
    format!("C++{:02}", year % 100)
}

/// The newest C++ standard a compiler does in full, from the line it gives
/// of its version, by compiler family and major version (their release
/// notes' tables): how it is named (`g++ 12.2`) and the standard's year.
/// `None` for a compiler this does not know.
pub fn newest_cpp(version: &str) -> Option<(String, u32)> {
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
/// LeetCode builds C++23: ...`.
pub fn short_of(spec: &Spec, compiler: &UsedTool, flags: &[&str], judge: &str) -> Option<String> {
    if spec.id != "cpp" {
        return None;
    }
    let wanted = flags.iter().find_map(|flag| standard_year(flag))?;
    let (named, newest) = newest_cpp(&compiler.version)?;
    (newest < wanted).then(|| {
        format!(
            "{named} stops at {}; {judge} builds {}: install g++ 14 or clang 18 (zig's clang from \
             PyPI will do), or set the C++ compiler in {} ([toolchain] {} = \"...\")",
            standard_name(newest),
            standard_name(wanted),
            shown_config(),
            spec.id
        )
    })
}

/// The user's `config.toml`, from `~` when it is under it.
fn shown_config() -> String {
    let Some(path) = super::user_config_path() else {
        return "config.toml".to_string();
    };
    match dirs::home_dir().and_then(|home| path.strip_prefix(home).ok().map(Path::to_path_buf)) {
        Some(relative) => format!("~/{}", relative.display()),
        None => path.display().to_string(),
    }
}

/// C++ features past what Debian 12's g++ 12 has.
pub const CPP: [Need; 2] = [
    Need {
        feature: "explicit object parameter, \"deducing this\"",
        standard: "C++23",
        source: r"[(,]\s*this\s+[A-Za-z_]",
        error: None,
        remedy:
            "g++ 14 and clang 18 have it with -std=c++23 (LeetCode builds with clang in C++23); \
                 install one",
    },
    Need {
        feature: "std::print",
        standard: "C++23",
        source: r"#\s*include\s*<print>|\bstd::println?\s*\(",
        error: None,
        remedy: "g++ 14 and clang 18 with libc++ have it with -std=c++23; install one",
    },
];

/// What LeetCode's .NET has and Mono's mcs (6.8, Debian 12's) does not,
/// each keyed on what mcs says where it stops (measured with mcs 6.8). mcs
/// says C# 7, and compiles much of it (`var (a, b) = ...`, `out var`, `is
/// int n`, tuples), so nothing is said of a feature it did not stop at.
pub const CSHARP: [Need; 13] = [
    Need {
        feature: "a local function",
        standard: "C# 7",
        source: r"^\s*(?:static\s+)?[\w.]+(?:<[^>]*>)?(?:\[\])*\s+\w+\s*\([^)]*\)\s*(?:\{|=>|$)",
        error: Some(r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `\('"),
        remedy: MCS_REMEDY,
    },
    Need {
        feature: "deconstruction into declared types, `(int a, int b) = ...`",
        standard: "C# 7",
        source: r"\(\s*[\w.<>\[\]]+\s+\w+\s*,[^()]*\)\s*=[^=>]",
        error: Some(r"\((?P<line>\d+),\d+\): error CS0584: Internal compiler error"),
        remedy: "mcs compiles `var (a, b) = ...` but not this form: write that, or use Roslyn's \
                 csc, as LeetCode's .NET does",
    },
    Need {
        feature: "deconstruction in a foreach, `foreach (var (a, b) in ...)`",
        standard: "C# 7",
        source: r"\bforeach\s*\(\s*(?:var\s*)?\(",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS0230: Type and identifier are both required in a foreach",
        ),
        remedy: MCS_REMEDY,
    },
    Need {
        feature: "a pattern in a case label, `case int n:` or `when`",
        standard: "C# 7",
        source: r"\bcase\s+[\w.<>\[\]]+\s+\w+\s*(?::|\bwhen\b)|\bwhen\b",
        error: Some(
            r"\((?P<line>\d+),\d+\): error (?:CS0589: Internal compiler error during parsing.*type pattern|CS1525: Unexpected symbol `when')",
        ),
        remedy: MCS_REMEDY,
    },
    Need {
        feature: "a switch expression, `x switch { ... }`",
        standard: "C# 8",
        source: r"\bswitch\s*(?:\{|$)",
        error: Some(r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `switch'"),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "a property pattern, `is { ... }`",
        standard: "C# 8",
        source: r"\bis\s+(?:[\w.<>\[\]]+\s*)?\{",
        error: Some(r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `\{'"),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "an index from the end or a range, `a[^1]`, `a[1..]`",
        standard: "C# 8",
        source: r"\[[^\]]*(?:\^|\.\.)",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS1(?:001|525): Unexpected symbol `(?:\^|\.|\d*\.\d+)'",
        ),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "the `??=` operator",
        standard: "C# 8",
        source: r"\?\?=",
        error: Some(r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `='"),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "a using declaration, `using var ...`",
        standard: "C# 8",
        source: r"\busing\s+var\b",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `var', expecting `\('",
        ),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "a `not`, `and`, `or` or relational pattern, `is not null`, `is > 0`",
        standard: "C# 9",
        source: r"\bis\s+(?:not\b|[<>]=?)|\b(?:and|or)\s+(?:not\b|[<>]=?)",
        error: Some(r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol"),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "a target-typed `new()`",
        standard: "C# 9",
        source: r"\bnew\s*\(",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS1525: Unexpected symbol `[^']*', expecting `\(' or `type'",
        ),
        remedy: ROSLYN_REMEDY,
    },
    Need {
        feature: "a record",
        standard: "C# 9",
        source: r"\brecord\b",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS0246: The type or namespace name `record' could not be found",
        ),
        remedy: ROSLYN_REMEDY,
    },
    // mcs names these itself ("Feature `default literal' cannot be used
    // because it is not part of the C# 7.0 language specification").
    Need {
        feature: "a feature past C# 7.0",
        standard: "C# 7.1 or later",
        source: r"",
        error: Some(
            r"\((?P<line>\d+),\d+\): error CS1644: Feature `(?P<feature>[^']+)' cannot be used because it is not part of the C# [\d.]+ language specification",
        ),
        remedy: ROSLYN_REMEDY,
    },
];

/// What to do about a C# 7 feature mcs lacks.
const MCS_REMEDY: &str =
    "Mono's mcs does not, though it says C# 7; Roslyn's csc (Mono's `csc`, or .NET's) has it";

/// What to do about a feature of a C# past mcs's.
const ROSLYN_REMEDY: &str =
    "Mono's mcs stops at C# 7; Roslyn's csc has it, as LeetCode's .NET does";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::lang::Language;
    use std::path::PathBuf;

    fn tool(name: &str, version: &str) -> UsedTool {
        UsedTool {
            name: name.into(),
            program: PathBuf::from("/usr/bin").join(name),
            version: version.into(),
            origin: "found on PATH".into(),
        }
    }

    #[test]
    fn a_cxx23_feature_names_its_standard_and_the_compilers_that_have_it() {
        let cpp = Language::find("cpp").unwrap().spec();
        let gxx = tool("g++", "g++ (Debian 12.2.0-14) 12.2.0");
        let source = "struct S { int v; int get(this S const& self) { return self.v; } };\n";
        let said = explain(
            cpp,
            source,
            "error: expected identifier before 'this'",
            &gxx,
        )
        .expect("deducing this is recognised");
        assert!(
            said.starts_with(
                "this file needs C++23 (explicit object parameter, \"deducing this\"), which \
                 g++ 12.2.0 does not have: g++ 14 and clang 18 have it"
            ),
            "{said}"
        );
        assert!(said.contains("[toolchain] cpp = "), "{said}");
        let print = "#include <print>\nint main() { std::println(\"{}\", 1); }\n";
        assert!(explain(cpp, print, "", &gxx)
            .unwrap()
            .contains("std::print"));
        // `this` as an argument, and a comment, are no such thing.
        let plain = "void f(S* s); void g() { f(this); } // (this S& self)\n";
        assert_eq!(explain(cpp, plain, "error", &gxx), None);
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
        let cpp = Language::find("cpp").unwrap().spec();
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
        // A compiler that has C++23 failed for another reason: no note.
        let source = "struct S { int get(this S const& self) { return 1; } };\n";
        assert_eq!(explain(cpp, source, "error: something else", &clang), None);
    }

    #[test]
    fn mcs_stopping_at_a_local_function_is_explained() {
        let cs = Language::find("csharp").unwrap().spec();
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let local = "public class Solution {\n    public void SolveSudoku(char[][] board) {\n        \
                     bool Fill(int k) {\n            return true;\n        }\n        Fill(0);\n    }\n}\n";
        let message =
            "Solution.cs(3,18): error CS1525: Unexpected symbol `(', expecting `,', `;', or `='";
        let said = explain(cs, local, message, &mcs).expect("a local function is recognised");
        assert!(
            said.starts_with("this file needs C# 7 (a local function), which mcs 6.8.0.105"),
            "{said}"
        );
        // A method call on the line mcs names is not a local function.
        let call = "class P {\n static void Main() {\n  Foo(1;\n }\n}\n";
        assert_eq!(
            explain(
                cs,
                call,
                "P.cs(3,5): error CS1525: Unexpected symbol `('",
                &mcs
            ),
            None
        );
    }

    /// What mcs 6.8 says of each feature it lacks, as measured: a file of
    /// `using System;`, then `class P { static void Main() { ... } }` on
    /// its second line holding the feature.
    #[test]
    fn each_feature_mcs_lacks_is_named_from_what_mcs_says_where_it_stops() {
        let cs = Language::find("csharp").unwrap().spec();
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let program =
            |body: &str| format!("using System;\nclass P {{ static void Main() {{ {body} }} }}\n");
        for (body, said_by_mcs, standard, feature) in [
            (
                "int x = 2; var s = x switch { 1 => \"a\", _ => \"b\" };",
                "P.cs(2,53): error CS1525: Unexpected symbol `switch'",
                "C# 8",
                "a switch expression",
            ),
            (
                "object o = 1; if (o is not string) {}",
                "P.cs(2,59): error CS1525: Unexpected symbol `string'",
                "C# 9",
                "a `not`, `and`, `or` or relational pattern",
            ),
            (
                "int x = 5; if (x is > 3 and < 9) {}",
                "P.cs(2,52): error CS1525: Unexpected symbol `>'",
                "C# 9",
                "a `not`, `and`, `or` or relational pattern",
            ),
            (
                "int[] a = {1,2,3}; Console.WriteLine(a[^1]);",
                "P.cs(2,71): error CS1525: Unexpected symbol `^'",
                "C# 8",
                "an index from the end or a range",
            ),
            (
                "int[] a = {1,2,3}; var b = a[0..2];",
                "P.cs(2,62): error CS1001: Unexpected symbol `0.2', expecting identifier",
                "C# 8",
                "an index from the end or a range",
            ),
            (
                "var l = new System.Collections.Generic.List<int>(); System.Collections.Generic.List<int> m = new();",
                "P.cs(2,50): error CS1525: Unexpected symbol `)', expecting `(' or `type'",
                "C# 9",
                "a target-typed `new()`",
            ),
            (
                "int? x = null; x ??= 3;",
                "P.cs(2,51): error CS1525: Unexpected symbol `='",
                "C# 8",
                "the `??=` operator",
            ),
            (
                "using var m = new System.IO.MemoryStream();",
                "P.cs(2,38): error CS1525: Unexpected symbol `var', expecting `('",
                "C# 8",
                "a using declaration",
            ),
            (
                "object o = \"ab\"; if (o is string { Length: 2 }) {}",
                "P.cs(2,65): error CS1525: Unexpected symbol `{'",
                "C# 8",
                "a property pattern",
            ),
            (
                "object o = 1; switch (o) { case int n: break; }",
                "P.cs(2,70): error CS0589: Internal compiler error during parsingSystem.NotImplementedException: type pattern matching",
                "C# 7",
                "a pattern in a case label",
            ),
            (
                "var t = (1, 2); (int a, int b) = t;",
                "P.cs(2,64): error CS0584: Internal compiler error: Expression `Mono.CSharp.LocalVariableReference' didn't set its type in DoResolve",
                "C# 7",
                "deconstruction into declared types",
            ),
            (
                "foreach (var (k, v) in new[] { (1, 2) }) {}",
                "P.cs(2,73): error CS0230: Type and identifier are both required in a foreach statement",
                "C# 7",
                "deconstruction in a foreach",
            ),
            (
                "int x = default;",
                "P.cs(2,41): error CS1644: Feature `default literal' cannot be used because it is not part of the C# 7.0 language specification",
                "C# 7.1 or later",
                "default literal",
            ),
        ] {
            let said = explain(cs, &program(body), said_by_mcs, &mcs)
                .unwrap_or_else(|| panic!("nothing said of {body}"));
            assert!(
                said.starts_with(&format!("this file needs {standard} ({feature}")),
                "{body}: {said}"
            );
        }
        // A record is a type mcs does not know.
        let record = "using System;\nrecord R(int X);\nclass P { static void Main() {} }\n";
        let said = explain(
            cs,
            record,
            "P.cs(2,1): error CS0246: The type or namespace name `record' could not be found. Are you missing an assembly reference?",
            &mcs,
        )
        .unwrap();
        assert!(
            said.starts_with("this file needs C# 9 (a record)"),
            "{said}"
        );
    }

    /// mcs compiles `var (a, b) = ...` (measured: it runs and prints the
    /// right values), so a file that has one and failed for another reason
    /// gets no note; nor does a feature on a line mcs did not stop at.
    #[test]
    fn a_feature_mcs_has_or_did_not_stop_at_is_not_named() {
        let cs = Language::find("csharp").unwrap().spec();
        let mcs = tool("mcs", "Mono C# compiler version 6.8.0.105");
        let source = "public class Solution {\n    public void SolveSudoku(char[][] board) {\n        \
                      int x = 1\n        var (a, b) = (1, 2);\n        var s = x switch { _ => 0 };\n    }\n}\n";
        let said_by_mcs = "semi.cs(4,8): error CS1525: Unexpected symbol `var'\n\
                           semi.cs(4,17): error CS1525: Unexpected symbol `)'";
        assert_eq!(explain(cs, source, said_by_mcs, &mcs), None);
    }
}
