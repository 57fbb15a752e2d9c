//! `solve` and `solvers`, and the solvers against the public benchmark
//! sets (which fail or skip, visibly, without them).

use std::fs;
use std::path::PathBuf;

use super::{
    manifest_dir, run, run_in, skip_or_fail_for, sound_solvers, Need, ANSWER, EXAMPLE_IN,
    EXAMPLE_OUT, PUZZLE,
};

#[test]
fn solvers_are_listed_name_first_with_the_default_first() {
    let listing = run(&["solvers"]);
    assert_eq!(listing.code, 0);
    let names = sound_solvers();
    for expected in ["propagate", "mrv", "singles", "bitmask", "backtrack"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    assert!(
        !listing.stdout.contains("faulty"),
        "faulty solvers hide by default"
    );
    let all = run(&["solvers", "--all"]);
    for faulty in ["faulty-wrong-digit", "faulty-panic", "faulty-loop"] {
        assert!(all.stdout.contains(faulty), "{}", all.stdout);
    }
    let unknown = run(&["test", "--solver", "nope"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("unknown solver `nope`"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn solve_reads_acwing_input_and_prints_one_line_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_in(
        dir.path(),
        &["solve"],
        &format!("{PUZZLE}\n{}\nend\n", PUZZLE.replace('.', "0")),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, format!("{ANSWER}\n{ANSWER}\n"));

    let literal = run_in(dir.path(), &["solve", "--solver", "singles"], EXAMPLE_IN);
    assert_eq!(literal.code, 0, "{}", literal.stderr);
    assert_eq!(literal.stdout.trim_end(), EXAMPLE_OUT);

    let bad = run_in(dir.path(), &["solve"], "12x\nend\n");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("stdin:1:"), "{}", bad.stderr);
}

fn dataset(name: &str) -> Option<PathBuf> {
    // $SUDOKU_JUDGE_DATASETS points elsewhere, e.g. from a worktree.
    let dir = std::env::var_os("SUDOKU_JUDGE_DATASETS")
        .map_or_else(|| manifest_dir().join("../shared/datasets"), PathBuf::from);
    let path = dir.join(name);
    if path.is_file() {
        Some(path)
    } else {
        skip_or_fail_for(
            Need::Datasets,
            "dataset test",
            &format!("{} is absent", path.display()),
        );
        None
    }
}

/// How many puzzles of each set a solver is checked on: all fast solvers
/// get a few hundred; the textbook ones only as many as they solve in
/// seconds (some take a second per 17-given puzzle).
fn sample_size(solver: &str, set: &str) -> usize {
    match (solver, set) {
        ("propagate", _) => 300,
        ("mrv", _) => 30,
        ("singles", "puzzles2_17_clue") => 0,
        ("singles", _) => 20,
        ("bitmask", "puzzles5_forum_hardest_1905_11+") => 5,
        _ => 0,
    }
}

#[test]
fn every_solver_agrees_with_the_dataset_solutions() {
    use sudoku_judge::bench::read_puzzles;
    use sudoku_judge::solver::ALL;
    for set in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
    ] {
        let (Some(puzzles), Some(solutions)) = (
            dataset(&format!("{set}.txt")),
            dataset(&format!("{set}.solutions.txt")),
        ) else {
            continue;
        };
        let puzzles = read_puzzles(&puzzles, Some(300)).unwrap().puzzles;
        let solutions: Vec<String> = fs::read_to_string(solutions)
            .unwrap()
            .lines()
            .take(300)
            .map(str::to_owned)
            .collect();
        for solver in ALL.iter().filter(|s| !s.faulty) {
            let n = sample_size(solver.name, set);
            for (i, (puzzle, solution)) in puzzles.iter().zip(&solutions).take(n).enumerate() {
                let mut board = puzzle.to_rows();
                (solver.solve)(&mut board);
                let answer: String = board.iter().flatten().collect();
                assert_eq!(
                    &answer,
                    solution,
                    "{} on {set} puzzle {}",
                    solver.name,
                    i + 1
                );
            }
        }
    }
}

/// The public puzzle sets the reference search's copies are compared on,
/// the last one with puzzles of several solutions.
const SETS: [&str; 5] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
];

#[test]
fn every_code_path_of_the_reference_search_agrees_on_the_datasets() {
    // The copies of the search compiled for each instruction set this CPU
    // runs, on the first puzzles of every set (all of the smaller ones),
    // both branch choices, limits 1 and 2: same solutions, same guesses,
    // same first solution. The non-unique set checks the counting too.
    use sudoku_judge::bench::read_puzzles;
    use sudoku_judge::solver::reference::{search_on, CodePath};
    let paths: Vec<CodePath> = CodePath::ALL
        .into_iter()
        .filter(|p| p.available())
        .collect();
    // Wherever there is a SIMD copy, it is compared with the portable one.
    assert!(paths.len() >= 2 || !CodePath::Avx2.available(), "{paths:?}");
    for set in SETS {
        let Some(path) = dataset(&format!("{set}.txt")) else {
            continue;
        };
        let puzzles = read_puzzles(&path, Some(5000)).unwrap().puzzles;
        let mut guesses = 0;
        for (i, puzzle) in puzzles.iter().enumerate() {
            let cells = puzzle.to_bytes();
            for (limit, graded) in [(1, false), (2, false), (2, true)] {
                let first = search_on(paths[0], &cells, limit, graded).unwrap();
                assert!(first.solutions >= 1, "{set} puzzle {}", i + 1);
                guesses += first.guesses;
                for &other in &paths[1..] {
                    assert_eq!(
                        search_on(other, &cells, limit, graded).unwrap(),
                        first,
                        "{set} puzzle {}: {} against {}, limit {limit}, graded {graded}",
                        i + 1,
                        other.name(),
                        paths[0].name(),
                    );
                }
            }
        }
        // The hard sets take the search through every kind of branch.
        assert!(guesses > 0, "{set}");
    }
}

#[test]
fn counting_finds_several_solutions_on_the_non_unique_set() {
    use sudoku_judge::bench::read_puzzles;
    use sudoku_judge::solver::reference::{count_solutions, search};
    let Some(path) = dataset("puzzles7_serg_benchmark.txt") else {
        return;
    };
    for puzzle in read_puzzles(&path, Some(200)).unwrap().puzzles {
        let cells = puzzle.to_bytes();
        assert!(count_solutions(&cells, 2) >= 2, "{}", puzzle.to_line());
        let first = search(&cells, 1).first.expect("a solution");
        let board = sudoku_judge::board::Board::from_bytes(&first).unwrap();
        assert!(board.solves(&puzzle), "{}", puzzle.to_line());
    }
}

#[test]
fn solved_boards_are_valid_and_keep_their_givens_over_many_seeds() {
    use sudoku_judge::generate::{Generator, Target};
    use sudoku_judge::solver::ALL;
    for seed in 0..200 {
        let made = Generator::new(seed).puzzle(Target::default(), 1).unwrap();
        for solver in ALL.iter().filter(|s| !s.faulty && s.name != "backtrack") {
            let mut board = made.puzzle.to_rows();
            (solver.solve)(&mut board);
            let cells: Vec<u8> = board
                .iter()
                .flatten()
                .map(|&c| c.to_digit(10).unwrap_or(0) as u8)
                .collect();
            let answer =
                sudoku_judge::board::Board::from_bytes(&cells.try_into().unwrap()).unwrap();
            assert!(
                answer.solves(&made.puzzle),
                "{} on seed {seed}",
                solver.name
            );
            // One solution: every sound solver finds the same one.
            assert_eq!(answer, made.solution, "{} on seed {seed}", solver.name);
        }
    }
}

#[test]
fn the_avx512_copy_of_the_search_agrees_with_the_others_under_an_emulator() {
    // The AVX-512 copy runs natively only where the CPU has AVX-512, which
    // the dataset test above then covers. Everywhere, it also runs under
    // BochsCPU (an emulated x86-64 CPU with AVX-512, from the
    // bochscpu-python wheel) through the `emulated_search` example, a C
    // entry point that `cargo test` builds beside this test: every puzzle
    // of the shipped AcWing cases and the first of each public set, limits
    // 1 and 2 and graded, against the copy this CPU runs.
    let what = "the AVX-512 copy under an emulator";
    // `cargo test` builds the example, but `cargo test --test cli` does
    // not: built here too, so the library is never older than the source,
    // and cargo says where it put it.
    let build = std::process::Command::new(env!("CARGO"))
        .current_dir(manifest_dir())
        .args(["build", "--locked", "--example", "emulated_search"])
        .arg("--message-format=json")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "the emulated_search example did not build:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let library = String::from_utf8_lossy(&build.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact"
                && message["target"]["name"] == "emulated_search"
        })
        .flat_map(|message| message["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|file| file.as_str().map(PathBuf::from))
        .find(|file| file.extension().is_some_and(|e| e == "so"))
        .expect("cargo names the example's library");
    if !super::have(&["python3", "cc"], what) {
        return;
    }
    let bochscpu = std::env::var_os("SUDOKU_JUDGE_TEST_BOCHSCPU").map_or_else(
        || manifest_dir().join("target/toolchains/bochscpu"),
        PathBuf::from,
    );
    if !bochscpu.join("bochscpu").is_dir() {
        skip_or_fail_for(
            Need::Tools,
            what,
            &format!(
                "bochscpu-python is not in {} (python3 -m pip install --target {} bochscpu-python==0.4.0)",
                bochscpu.display(),
                bochscpu.display()
            ),
        );
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let emulated = manifest_dir().join("tests/emulated");
    let shim = scratch.path().join("glibc_shim.so");
    let built = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&shim)
        .arg(emulated.join("glibc_shim.c"))
        .status()
        .unwrap();
    assert!(built.success(), "the glibc shim did not build");
    let mut files: Vec<PathBuf> = fs::read_dir(manifest_dir().join("cases/acwing166"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    let shipped = files.len();
    for set in SETS {
        files.extend(dataset(&format!("{set}.txt")));
    }
    let output = std::process::Command::new("python3")
        .arg(emulated.join("avx512.py"))
        .arg(&library)
        .args(&files)
        .args(["--count", "100"])
        .env("PYTHONPATH", &bochscpu)
        .env("LD_PRELOAD", &shim)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" 0 differ"), "{stdout}");
    // Three searches a puzzle: at least the shipped cases' puzzles, and a
    // hundred of each public set when they are here.
    let searches: usize = summary
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let least = 3 * (shipped + 100 * (files.len() - shipped));
    assert!(
        searches >= least,
        "{searches} searches, expected {least}: {stdout}"
    );
}
