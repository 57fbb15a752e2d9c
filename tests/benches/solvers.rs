//! `cargo bench`: every built-in solver on the standard puzzle sets, read
//! from `../shared/datasets` (the tdoku benchmark files). When the sets are
//! absent the benchmark says so and exits.
//!
//! Figures are per puzzle (divan's item throughput) over a fixed sample of
//! each set: the fast solvers get the first 2,000 puzzles, the textbook ones
//! the first 50, which take them seconds rather than hours. Compare solvers
//! as ratios within one run; `sudoku-judge bench` gives the same figures for
//! whole files.

use std::path::PathBuf;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

use sudoku_judge::bench::read_puzzles;
use sudoku_judge::solver;

const SETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
];

fn datasets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets")
}

/// The first `limit` puzzles of `set`, as LeetCode boards.
fn boards(set: &str, limit: usize) -> Vec<Vec<Vec<char>>> {
    let path = datasets().join(format!("{set}.txt"));
    let puzzles = read_puzzles(&path, Some(limit)).expect("a readable dataset");
    puzzles.puzzles.iter().map(|b| b.to_rows()).collect()
}

fn run(bencher: Bencher, name: &str, set: &str, limit: usize) {
    let solver = solver::find(name).expect("a built-in solver");
    let puzzles = boards(set, limit);
    bencher
        .counter(ItemsCount::new(puzzles.len()))
        .with_inputs(|| puzzles.clone())
        .bench_local_values(|mut work| {
            for board in &mut work {
                (solver.solve)(black_box(board));
            }
            work
        });
}

#[divan::bench(args = SETS, sample_count = 10)]
fn propagate(bencher: Bencher, set: &str) {
    run(bencher, "propagate", set, 2000);
}

#[divan::bench(args = SETS, sample_count = 5)]
fn mrv(bencher: Bencher, set: &str) {
    run(bencher, "mrv", set, 50);
}

#[divan::bench(args = SETS, sample_count = 5)]
fn singles(bencher: Bencher, set: &str) {
    run(bencher, "singles", set, 50);
}

#[divan::bench(args = SETS, sample_count = 3)]
fn bitmask(bencher: Bencher, set: &str) {
    run(bencher, "bitmask", set, 20);
}

fn main() {
    if !datasets().join("puzzles2_17_clue.txt").is_file() {
        eprintln!(
            "skipping the solver benchmarks: the puzzle sets are not in {} \
             (see ../shared/datasets/README.md)",
            datasets().display()
        );
        return;
    }
    divan::main();
}
