//! C++: AcWing, POJ and LeetCode's C++ (`class Solution` with
//! `solveSudoku(vector<vector<char>>& board)`).

use super::cause::Cause;
use super::starter::Files;
use super::{Build, Comments, Detect, Interface, LeetCode, Profile, Run, Spec, Tool};
use crate::problem::Problem;

/// The C++ runtime's last words before `abort()`.
pub(super) const TERMINATE: [Cause; 2] = [
    Cause {
        pattern: r"(?m)^(?P<head>terminate called after throwing .*)\n\s*what\(\):\s*(?P<what>.*)$",
        says: "$head: $what",
    },
    Cause {
        pattern: r"(?m)^terminate called after throwing .*$",
        says: "$0",
    },
];

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

pub static SPEC: Spec = Spec {
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
    resolve: super::resolve_compiler,
    flags: &["-O2", "-std=c++17", "-DONLINE_JUDGE"],
    flags_why: "AcWing's flags; under `--problem poj3074`, `-std=gnu++98` instead, as POJ's old G++ builds; a LeetCode-style file `-std=c++23`, as LeetCode",
    profiles: &[
        Profile {
            problem: None,
            interface: Interface::Function,
            flags: &["-O2", "-std=c++23", "-DONLINE_JUDGE"],
            why: "LeetCode's standard, C++23 (LeetCode builds with clang)",
        },
        Profile {
        problem: Some(Problem::Poj3074),
        interface: Interface::Program,
        flags: &["-O2", "-std=gnu++98", "-DONLINE_JUDGE"],
        why: "C++98 with GNU extensions, as POJ's old G++ (so `gets` is there, and a global \
              named `size` clashes with nothing)",
    },
    ],
    needs: &super::needs::CPP,
    detect: Detect {
        comments: Comments::CLike,
        program: r"\bmain\s*\(",
        function: r"\bsolveSudoku\s*\(",
        script: false,
    },
    program: Build {
        files: &[("@NAME@", "@SOURCE@")],
        source_as: "@NAME@",
        compile: &["@TOOL0@", "@FLAGS@", "-o", "main", "@NAME@"],
        shown: true,
        run: Run::Exec(&["@DIR@/main"]),
    },
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
    causes: &TERMINATE,
    frame: None,
    out_of_memory: &["std::bad_alloc"],
    leetcode: LeetCode {
        method: "solveSudoku",
        template: "class Solution {\npublic:\n    void solveSudoku(vector<vector<char>>& board) {\n        \n    }\n};",
        gets: "`#include <bits/stdc++.h>` (with libc++, which has none, every standard header) and `using namespace std;` before it; a value-initialised `Solution` per board",
    },
    self_test: "#include <iostream>\n#include <string>\nint main() { std::string line; std::getline(std::cin, line); std::cout << line << '\\n'; }\n",
    starter: Files {
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
