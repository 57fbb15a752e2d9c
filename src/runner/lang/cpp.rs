//! C++: AcWing, POJ and LeetCode's C++ (`class Solution` with
//! `solveSudoku(vector<vector<char>>& board)`).

use super::language::{Build, Cause, Comments, Detect, Interface, LeetCode, Profile, Run, Sign};
use super::language::{Spec, StarterFiles, Tool};
use crate::problem::Problem;
use crate::reason::Stdout;

/// What a LeetCode-style file is built in: every standard header, as
/// LeetCode gives them. libstdc++ (g++, and LeetCode's clang) has them all
/// in `<bits/stdc++.h>`; libc++ (zig's clang) has no such header, so they
/// are named one by one.
const PRELUDE: &str = "#if __has_include(<bits/stdc++.h>)
#include <bits/stdc++.h>
#else
#include <algorithm>
#include <array>
#include <bitset>
#include <cassert>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>
#if __has_include(<ranges>)
#include <bit>
#include <numbers>
#include <ranges>
#include <span>
#endif
#if __has_include(<print>)
#include <print>
#endif
#endif
using namespace std;
#line 1 \"@NAME@\"
@SOURCE@
@DRIVER@";

/// What POJ's G++ gave every file that included `<iostream>`, as the
/// POJ profile's flags include it (`-include poj.h`). POJ's G++ is MinGW's
/// GCC 4.4, whose libstdc++ used the "generic" locale model: its
/// `<bits/c++locale.h>`, which `<iostream>` includes, brought in
/// `<cstring>` (for `strlen`) and `<cstdio>` (for `vsnprintf`), so a POJ
/// program could call `memset`, `strlen` and `printf` with `<iostream>`
/// alone; libstdc++ 12's `<iostream>` brings neither.
///
/// glibc's `<string.h>` also declares the BSD `index` and `rindex`, which
/// MinGW's never had: they get names of their own while it is read, so a
/// global named `index`, common in POJ programs, compiles as it did there.
const POJ_HEADER: &str = "// sudoku-judge: what POJ's G++ (MinGW's GCC 4.4) gave with <iostream>.
#define index sudoku_judge_glibc_index
#define rindex sudoku_judge_glibc_rindex
#include <cstring>
#undef index
#undef rindex
#include <cstdio>
";

/// What g++ says of a POJ program built with AcWing's C++17: names C++98
/// had and C++17 took away or gave to `std::` (g++ quotes names with ‘’,
/// or '' outside a UTF-8 locale).
const POJ_SIGNS: [Sign; 5] = [
    Sign {
        message: r"[‘']gets[’'] was not declared",
        says: "`gets` is gone from C++14 on; POJ's G++ (C++98) has it",
    },
    Sign {
        message: r"reference to [‘'](?P<name>size|data|empty|begin|end|next|prev|hash|rank|array|tuple|function|bind|ref|byte|gcd|lcm|clamp|sample|apply|iota|shuffle|distance|advance)[’'] is ambiguous",
        says: "a name of the program's own, `$name`, clashes with C++11 or C++17's \
               `std::$name` under `using namespace std`; POJ's G++ (C++98) has no `std::$name`",
    },
    Sign {
        message: r"[‘'](?P<name>mem(?:set|cpy|cmp|move|chr)|str(?:len|cpy|ncpy|cmp|ncmp|cat|ncat|chr|rchr|str|tok)|s?printf|s?scanf|puts|gets|getchar|putchar|fgets)[’'] was not declared",
        says: "`$name` is declared by `<cstring>` or `<cstdio>`, which POJ's G++ included with \
               `<iostream>` and AcWing's does not: include it for AcWing",
    },
    Sign {
        message: r"use of an operand of type [‘']bool[’'] in [‘']operator\+\+[’'] is forbidden in C\+\+17",
        says: "`++` on a `bool` is gone from C++17 on; POJ's G++ (C++98) allows it",
    },
    Sign {
        message: r"ISO C\+\+17 does not allow dynamic exception specifications",
        says: "a `throw(...)` specification is gone from C++17 on; POJ's G++ (C++98) allows it",
    },
];

pub(crate) static SPEC: Spec = Spec {
    id: "cpp",
    aliases: &["c++", "cxx"],
    name: "C++",
    extensions: &["cpp", "cc", "cxx", "c++", "C"],
    tools: &[Tool {
        command: "g++",
        package: "g++",
        version_args: &["--version"],
        alternatives: &["clang++"],
        versioned: true,
    }],
    tested: "g++ 12.2 (Debian) and zig's clang 22 (`zig c++`, the ziglang wheel from PyPI, in CI, for C++23)",
    resolve: super::tools::resolve_compiler,
    flags: &["-O2", "-std=c++17", "-DONLINE_JUDGE"],
    flags_why: "AcWing's flags; under `--problem poj3074` as POJ's old G++ builds, a LeetCode-style file as LeetCode: see [What each judge's C++ build is](#what-each-judges-c-build-is-and-is-not)",
    profiles: &[
        Profile {
            problem: None,
            interface: Interface::Function,
            flags: &["-O2", "-std=c++23", "-DONLINE_JUDGE"],
            why: "LeetCode's standard, C++23 (LeetCode builds with clang)",
            files: &[],
            signs: &[],
        },
        // POJ's G++ is MinGW's GCC 4.4. `-U__OPTIMIZE__` tells headers the
        // code is not optimised (it still is, at -O2): libstdc++ 11 and later
        // bound `cin >> s` into a `char s[81]` by the array's size, known to
        // `__builtin_object_size` only when optimising, and read 80 cells
        // and a terminator where libstdc++ 4.4 read the whole line. glibc's
        // headers key on it too: no `_FORTIFY_SOURCE` (which MinGW had not
        // either) and no inline copies of string functions (the same
        // functions, called). `-fno-builtin-strlen`: g++ 12 folds
        // `strlen(s) != 81` of a `char s[81]` to true, as a string there is
        // at most 80 long; GCC 4.4 asked the library.
        Profile {
            problem: Some(Problem::Poj3074),
            interface: Interface::Program,
            flags: &[
                "-O2",
                "-std=gnu++98",
                "-DONLINE_JUDGE",
                "-U__OPTIMIZE__",
                "-fno-builtin-strlen",
                "-include",
                "poj.h",
            ],
            why: "MinGW's GCC 4.4 (POJ's G++), as far as flags go: C++98 with GNU extensions \
                  (`gets`; a global named `size` clashes with nothing); `<cstring>` and \
                  `<cstdio>` with `<iostream>`, as its `<iostream>` brought them (poj.h); `cin \
                  >> s` into a `char s[81]` not bounded by the array (-U__OPTIMIZE__); `strlen` \
                  of it not taken to be under 81 (-fno-builtin-strlen)",
            files: &[("poj.h", POJ_HEADER)],
            signs: &POJ_SIGNS,
        },
    ],
    needs: &[],
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bmain\s*\(",
        function: r"\bsolveSudoku\s*\(",
        script: false,
    },
    program: super::language::NATIVE_PROGRAM,
    // The judge's prelude, then the submission with its own line numbers,
    // then the driver.
    function: Build {
        files: &[("main.cpp", PRELUDE)],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "main.cpp"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
    entry: None,
    prepare: None,
    driver: include_str!("../drivers/driver.cpp"),
    compile_env: &[],
    native: true,
    runtime_kb: 0,
    // The C++ runtime's last words before `abort()`.
    causes: &[
        Cause {
            pattern: r"(?m)^(?P<head>terminate called after throwing .*)\n\s*what\(\):\s*(?P<what>.*)$",
            says: "$head: $what",
        },
        Cause {
            pattern: r"(?m)^terminate called after throwing .*$",
            says: "$0",
        },
    ],
    frame: None,
    out_of_memory: &["std::bad_alloc"],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "class Solution {\npublic:\n    void solveSudoku(vector<vector<char>>& board) {\n        \n    }\n};",
        gets: "`#include <bits/stdc++.h>` (with libc++, which has none, every standard header) and `using namespace std;` before it; a value-initialised `Solution` per board",
        version: None,
    },
    marks: r"(?m)^\s*#include\s*[<\x22]|\bstd::|\busing\s+namespace\b|\bcout\s*<<|\bcin\s*>>",
    // cout and printf write through stdio, which holds what is written into a pipe until its buffer fills.
    stdout: Stdout::Buffered {
        flush: "endl, or fflush(stdout) after printf",
    },
    self_test: "#include <iostream>\n#include <string>\nint main() { std::string line; std::getline(std::cin, line); std::cout << line << '\\n'; }\n",
    starter: StarterFiles {
        leetcode_file: "solution.cpp",
        program_file: "main.cpp",
        leetcode_instead: None,
        program: r#"#include <iostream>
#include <string>
using namespace std;

// Fills the empty cells ('.') of one puzzle: 81 characters, row by row.
// As written it returns the puzzle unchanged, which is a wrong answer.
string solve(string puzzle) {
    return puzzle;
}

int main() {
    ios::sync_with_stdio(false);
    string line;
    while (cin >> line && line != "end") {
        cout << solve(line) << '\n';
    }
    return 0;
}
"#,
    },
};
