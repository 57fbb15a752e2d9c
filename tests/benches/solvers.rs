//! `cargo bench --bench solvers`: the built-in solvers on the standard
//! puzzle sets, read from `../shared/datasets` (the tdoku benchmark files).
//! When the sets are absent the benchmark says so and exits.
//!
//! Figures are per puzzle (divan's item throughput) over the first puzzles
//! of each set. The reference solver gets 2,000 of each, through LeetCode's
//! `solve_sudoku` and through `reference::search` (first solution, no board
//! conversion: the figure to set beside other libraries), and through each
//! copy of that search this CPU runs (`reference::CodePath`). The textbook
//! solvers take milliseconds to seconds a puzzle, so each gets only the
//! sets and the number of puzzles it gets through in well under a second a
//! sample, and skips the rest with a note: the whole run takes a couple of
//! minutes. Compare solvers as ratios within one run; `sudoku-judge bench`
//! gives the same figures for whole files.

use std::path::PathBuf;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

use sudoku_judge::bench::read_puzzles;
use sudoku_judge::solver::{self, reference};

const CLUE17: &str = "puzzles2_17_clue";
const MAGICTOUR: &str = "puzzles3_magictour_top1465";
const FORUM_1905: &str = "puzzles5_forum_hardest_1905_11+";
const FORUM_1106: &str = "puzzles6_forum_hardest_1106";
const SETS: &[&str] = &[CLUE17, MAGICTOUR, FORUM_1905, FORUM_1106];

/// How many of each set's first puzzles a textbook solver gets: about a
/// tenth of a second of work per sample on this project's machine (from
/// `sudoku-judge bench --limit`). Sets left out take it seconds a puzzle.
const MRV: &[(&str, usize)] = &[
    (CLUE17, 20),
    (MAGICTOUR, 100),
    (FORUM_1905, 100),
    (FORUM_1106, 30),
];
const SINGLES: &[(&str, usize)] = &[(MAGICTOUR, 20), (FORUM_1905, 50), (FORUM_1106, 30)];
const BITMASK: &[(&str, usize)] = &[(MAGICTOUR, 3), (FORUM_1905, 15), (FORUM_1106, 5)];

const MRV_SETS: &[&str] = &[CLUE17, MAGICTOUR, FORUM_1905, FORUM_1106];
const SINGLES_SETS: &[&str] = &[MAGICTOUR, FORUM_1905, FORUM_1106];
const BITMASK_SETS: &[&str] = &[MAGICTOUR, FORUM_1905, FORUM_1106];

/// `$SUDOKU_JUDGE_DATASETS` when set (e.g. from a worktree elsewhere),
/// else `../shared/datasets` beside the repository.
fn datasets() -> PathBuf {
    std::env::var_os("SUDOKU_JUDGE_DATASETS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"),
        PathBuf::from,
    )
}

/// The first `limit` puzzles of `set`, as dataset boards.
fn puzzles(set: &str, limit: usize) -> Vec<sudoku_judge::board::Board> {
    let path = datasets().join(format!("{set}.txt"));
    read_puzzles(&path, Some(limit))
        .expect("a readable dataset")
        .puzzles
}

/// How many puzzles of `set` the plan gives.
fn planned(plan: &[(&str, usize)], set: &str) -> usize {
    plan.iter()
        .find(|(name, _)| *name == set)
        .map(|&(_, count)| count)
        .expect("a set in the plan")
}

fn run(bencher: Bencher, name: &str, set: &str, limit: usize) {
    let solver = solver::find(name).expect("a built-in solver");
    let boards: Vec<Vec<Vec<char>>> = puzzles(set, limit).iter().map(|b| b.to_rows()).collect();
    bencher
        .counter(ItemsCount::new(boards.len()))
        .with_inputs(|| boards.clone())
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

/// The reference search on byte arrays, first solution only.
#[divan::bench(args = SETS, sample_count = 10)]
fn reference_search(bencher: Bencher, set: &str) {
    let cells: Vec<[u8; 81]> = puzzles(set, 2000).iter().map(|b| b.to_bytes()).collect();
    bencher
        .counter(ItemsCount::new(cells.len()))
        .bench_local(|| {
            for cells in &cells {
                black_box(reference::search(black_box(cells), 1));
            }
        });
}

/// [`reference_search`] on each copy of the search (see
/// `reference::CodePath`), where this CPU runs it (elsewhere it says it
/// cannot): what each instruction set gains, as ratios within one run. The
/// copy `search` takes is timed twice, here and above.
#[divan::bench(args = SETS, sample_count = 10)]
fn reference_search_avx512(bencher: Bencher, set: &str) {
    search_on(bencher, set, reference::CodePath::Avx512);
}

#[divan::bench(args = SETS, sample_count = 10)]
fn reference_search_avx2(bencher: Bencher, set: &str) {
    search_on(bencher, set, reference::CodePath::Avx2);
}

#[divan::bench(args = SETS, sample_count = 10)]
fn reference_search_portable(bencher: Bencher, set: &str) {
    search_on(bencher, set, reference::CodePath::Portable);
}

fn search_on(bencher: Bencher, set: &str, path: reference::CodePath) {
    let cells: Vec<[u8; 81]> = puzzles(set, 2000).iter().map(|b| b.to_bytes()).collect();
    if !path.available() {
        eprintln!("{}: this CPU cannot run it", path.name());
        return;
    }
    bencher
        .counter(ItemsCount::new(cells.len()))
        .bench_local(|| {
            for cells in &cells {
                black_box(reference::search_on(path, black_box(cells), 1, false));
            }
        });
}

#[divan::bench(args = MRV_SETS, sample_count = 5)]
fn mrv(bencher: Bencher, set: &str) {
    run(bencher, "mrv", set, planned(MRV, set));
}

#[divan::bench(args = SINGLES_SETS, sample_count = 3)]
fn singles(bencher: Bencher, set: &str) {
    run(bencher, "singles", set, planned(SINGLES, set));
}

#[divan::bench(args = BITMASK_SETS, sample_count = 3)]
fn bitmask(bencher: Bencher, set: &str) {
    run(bencher, "bitmask", set, planned(BITMASK, set));
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
    eprintln!(
        "not benchmarked, as they take seconds or more a puzzle: singles and bitmask on \
         {CLUE17}, backtrack on every set (`sudoku-judge bench --solver NAME --limit N` \
         times them on a few)"
    );
    divan::main();
}
