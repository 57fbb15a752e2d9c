//! The reference search's unit tests: known puzzles, a cross-check against
//! a plain backtracker, every compiled copy against the portable one, and
//! the SIMD kernels and the AVX-512 band rule against the plain loops.

use super::bits::stack_rule;
#[cfg(target_arch = "x86_64")]
use super::engine;
use super::grid::Grid;
#[cfg(target_arch = "x86_64")]
use super::kernels::scalar;
use super::kernels::Portable;
use super::paths::visit_portable;
use super::paths::CodePath;
use super::paths::{run, Entry};
use super::solve::*;
#[cfg(target_arch = "x86_64")]
use super::tables::ALL_MASKS;
use super::tables::{permutations, BAND, NINE, SPREAD};
#[cfg(target_arch = "x86_64")]
use super::x86::{avx2, Avx2};

#[test]
fn the_state_a_guess_copies_is_136_bytes() {
    // The module's docs and docs/solvers.md say so, and the AVX-512 band
    // rule reads the masks, `unsolved` and `dirty` as the first 32 words.
    assert_eq!(std::mem::size_of::<Grid>(), 136);
    assert_eq!(std::mem::offset_of!(Grid, unsolved), 27 * 4);
    assert_eq!(std::mem::offset_of!(Grid, dirty), 30 * 4);
}

/// LeetCode 37's example and its answer.
const EXAMPLE: &str = crate::board::EXAMPLE;
const ANSWER: &str = crate::board::EXAMPLE_ANSWER;
/// Arto Inkala's "world's hardest sudoku" (2012) and its unique answer.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_ANSWER: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

fn cells(s: &str) -> [u8; 81] {
    assert_eq!(s.len(), 81);
    let mut out = [0; 81];
    for (cell, b) in out.iter_mut().zip(s.bytes()) {
        *cell = if b == b'.' { 0 } else { b - b'0' };
    }
    out
}

/// The board of the line `s`, as LeetCode passes it: for every solver's
/// tests.
pub(crate) fn rows(s: &str) -> Vec<Vec<char>> {
    let chars: Vec<char> = s.chars().collect();
    chars.chunks(9).map(<[char]>::to_vec).collect()
}

/// Every row, column and box holds 1..=9 and every given is kept.
fn solves(puzzle: &[u8; 81], grid: &[u8; 81]) -> bool {
    let units_ok = (0..9).all(|i| {
        let (mut row, mut col, mut boxed) = (0u16, 0u16, 0u16);
        for j in 0..9 {
            row |= 1 << grid[9 * i + j];
            col |= 1 << grid[9 * j + i];
            boxed |= 1 << grid[27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3];
        }
        row == 0x3FE && col == 0x3FE && boxed == 0x3FE
    });
    units_ok && puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
}

#[test]
fn solves_the_leetcode_example_by_singles() {
    let mut board = rows(EXAMPLE);
    solve_sudoku(&mut board);
    assert_eq!(board, rows(ANSWER));
    let outcome = search(&cells(EXAMPLE), 2);
    assert_eq!(outcome.solutions, 1);
    assert_eq!(outcome.guesses, 0);
    assert_eq!(outcome.first, Some(cells(ANSWER)));
}

#[test]
fn empty_board_has_many_solutions() {
    let empty = [0; 81];
    let outcome = search(&empty, 1);
    assert_eq!(outcome.solutions, 1);
    assert!(solves(&empty, &outcome.first.unwrap()));
    assert_eq!(count_solutions(&empty, 2), 2);
    assert_eq!(count_solutions(&empty, 5), 5);
    let mut board = rows(&".".repeat(81));
    solve_sudoku(&mut board);
    let filled: String = board.iter().flatten().collect();
    assert!(solves(&empty, &cells(&filled)));
}

#[test]
fn limit_zero_does_no_search() {
    let outcome = search(&cells(INKALA), 0);
    assert_eq!(
        outcome,
        SearchOutcome {
            solutions: 0,
            guesses: 0,
            first: None
        }
    );
}

#[test]
fn conflicting_givens_have_no_solution() {
    let two_fives = format!("5.......5{}", ".".repeat(72));
    assert_eq!(search(&cells(&two_fives), 2).solutions, 0);
    let mut board = rows(&two_fives);
    solve_sudoku(&mut board);
    assert_eq!(board, rows(&two_fives));
    // Same digit twice in a column, in different bands.
    let mut column = [0; 81];
    column[4] = 7;
    column[76] = 7;
    assert_eq!(count_solutions(&column, 2), 0);
}

#[test]
fn bad_values_and_boards_are_refused() {
    let mut bad = cells(EXAMPLE);
    bad[2] = 10;
    assert_eq!(count_solutions(&bad, 2), 0);
    for broken in [
        rows(&EXAMPLE.replace('.', "0")),
        rows(&EXAMPLE[..72]),
        rows(EXAMPLE)
            .into_iter()
            .map(|mut row| {
                row.pop();
                row
            })
            .collect(),
    ] {
        let mut board = broken.clone();
        solve_sudoku(&mut board);
        assert_eq!(board, broken);
    }
}

#[test]
fn unsolvable_without_a_direct_conflict() {
    // Row 1 needs a 9 in its last cell, but column 9 already has one.
    let puzzle = format!("12345678.........9{}", ".".repeat(63));
    assert_eq!(count_solutions(&cells(&puzzle), 2), 0);
    let mut board = rows(&puzzle);
    solve_sudoku(&mut board);
    assert_eq!(board, rows(&puzzle));
}

#[test]
fn solved_board_needs_no_guess() {
    let outcome = search(&cells(ANSWER), 2);
    assert_eq!(
        outcome,
        SearchOutcome {
            solutions: 1,
            guesses: 0,
            first: Some(cells(ANSWER))
        }
    );
}

#[test]
fn hard_puzzle_needs_guesses() {
    let puzzle = cells(INKALA);
    let outcome = search(&puzzle, 2);
    assert_eq!(outcome.solutions, 1);
    assert!(outcome.guesses > 0);
    let first = outcome.first.unwrap();
    assert!(solves(&puzzle, &first));
    assert_eq!(first, cells(INKALA_ANSWER));
}

#[test]
fn famous_hard_puzzles_have_one_valid_solution() {
    for puzzle in [
        // Easter Monster, AI Escargot, and one with 17 givens.
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
    ] {
        let puzzle = cells(puzzle);
        let outcome = search(&puzzle, 2);
        assert_eq!(outcome.solutions, 1);
        assert!(outcome.guesses > 0);
        assert!(solves(&puzzle, &outcome.first.unwrap()));
        assert_eq!(search(&puzzle, 1).first, outcome.first);
    }
}

#[test]
fn some_17_clue_puzzles_need_no_guess() {
    // Hopeless for a plain backtracker, but singles (with locked
    // candidates) finish them; a guess here means a rule went missing.
    for puzzle in [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ] {
        let puzzle = cells(puzzle);
        let outcome = search(&puzzle, 2);
        assert_eq!((outcome.solutions, outcome.guesses), (1, 0));
        assert!(solves(&puzzle, &outcome.first.unwrap()));
    }
}

#[test]
fn placements_clear_their_column_in_other_bands() {
    // Turned up by a longer run of the sparse sweep below: it has many
    // solutions, and its first one comes out invalid if a digit the band
    // rule places leaves its column open in the other two bands.
    let puzzle =
        cells("...8..........6.1....93.87.3.......1......7.9.......5..2..9...7..6...3.5..9......");
    for limit in [1, 2, 50] {
        let outcome = search(&puzzle, limit);
        assert_eq!(outcome.solutions, limit);
        assert!(solves(&puzzle, &outcome.first.unwrap()), "limit {limit}");
    }
}

#[test]
fn guesses_are_deterministic() {
    for puzzle in [INKALA, EXAMPLE, &".".repeat(81)] {
        for limit in [1, 2, 7] {
            let puzzle = cells(puzzle);
            assert_eq!(search(&puzzle, limit), search(&puzzle, limit));
        }
    }
}

#[test]
fn deadly_rectangle_has_exactly_two_solutions() {
    // In the answer r2c8 = 4, r2c9 = 8, r7c8 = 8, r7c9 = 4, and the two
    // columns share a stack: swapping 4 and 8 in all four cells is also
    // a solution.
    let mut open = cells(ANSWER);
    for pos in [16, 17, 61, 62] {
        open[pos] = 0;
    }
    let outcome = search(&open, 5);
    assert_eq!(outcome.solutions, 2);
    assert!(solves(&open, &outcome.first.unwrap()));
    assert_eq!(count_solutions(&open, 1), 1);
    assert_eq!(count_solutions(&open, 2), 2);
}

/// A plain fewest-candidates backtracker over a cell array, for the
/// cross-check: slow, but too simple to share a bug with the solver.
fn reference_count(cells: &mut [u8; 81], limit: usize) -> usize {
    fn taken(cells: &[u8; 81], pos: usize) -> u16 {
        let (row, col) = (pos / 9, pos % 9);
        let mut seen = 0;
        for (other, &d) in cells.iter().enumerate() {
            let (r, c) = (other / 9, other % 9);
            let peer = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
            if peer && other != pos {
                seen |= 1 << d;
            }
        }
        seen
    }
    fn count(cells: &mut [u8; 81], limit: usize, found: &mut usize) {
        let open = (0..81)
            .filter(|&pos| cells[pos] == 0)
            .map(|pos| (pos, !taken(cells, pos) & 0x3FE))
            .min_by_key(|(_, digits)| digits.count_ones());
        let Some((pos, digits)) = open else {
            *found += 1;
            return;
        };
        for d in (1..=9).filter(|&d| digits & 1 << d != 0) {
            if *found == limit {
                break;
            }
            cells[pos] = d;
            count(cells, limit, found);
        }
        cells[pos] = 0;
    }
    if (0..81).any(|pos| cells[pos] != 0 && taken(cells, pos) & 1 << cells[pos] != 0) {
        return 0;
    }
    let mut found = 0;
    count(cells, limit, &mut found);
    found
}

/// A seeded LCG (Knuth's MMIX constants): the same puzzles every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % bound
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A solved grid: [`ANSWER`] with its digits relabelled, its bands,
    /// stacks, and the rows and columns inside them shuffled, and maybe
    /// transposed, all of which keep it valid.
    fn grid(&mut self) -> [u8; 81] {
        let mut labels = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        self.shuffle(&mut labels);
        let mut lines = || {
            let mut order = [0; 9];
            let mut groups = [0, 1, 2];
            self.shuffle(&mut groups);
            for (slots, group) in order.chunks_mut(3).zip(groups) {
                let mut within = [0, 1, 2];
                self.shuffle(&mut within);
                for (slot, w) in slots.iter_mut().zip(within) {
                    *slot = 3 * group + w;
                }
            }
            order
        };
        let (rows, cols) = (lines(), lines());
        let transpose = self.below(2) == 1;
        let answer = cells(ANSWER);
        let mut grid = [0; 81];
        for (pos, cell) in grid.iter_mut().enumerate() {
            let (r, c) = (rows[pos / 9], cols[pos % 9]);
            let from = if transpose { 9 * c + r } else { 9 * r + c };
            *cell = labels[usize::from(answer[from]) - 1];
        }
        grid
    }

    /// `grid` with `blanks` random cells emptied.
    fn blank(&mut self, grid: &[u8; 81], blanks: usize) -> ([u8; 81], Vec<usize>) {
        let mut order: Vec<usize> = (0..81).collect();
        self.shuffle(&mut order);
        let mut puzzle = *grid;
        for &pos in &order[..blanks] {
            puzzle[pos] = 0;
        }
        (puzzle, order)
    }
}

#[test]
fn agrees_with_a_plain_backtracker() {
    // Random solved grids with 40 to 61 cells blanked; every third
    // puzzle also has one given changed, which often leaves no solution.
    let mut rng = Lcg(0x5EED);
    let mut seen = [0; 4];
    for round in 0..50 {
        let grid = rng.grid();
        let blanks = 40 + rng.below(22);
        let (mut puzzle, order) = rng.blank(&grid, blanks);
        if round % 3 == 0 {
            let pos = order[blanks];
            // Shifts the digit by 1..=8, so it always changes.
            puzzle[pos] = (puzzle[pos] + rng.below(8) as u8) % 9 + 1;
        }
        let expected = reference_count(&mut puzzle.clone(), 3);
        let outcome = search(&puzzle, 3);
        assert_eq!(outcome.solutions, expected, "round {round}: {puzzle:?}");
        if let Some(first) = outcome.first {
            assert!(solves(&puzzle, &first));
        }
        seen[expected] += 1;
    }
    // The set covers all three cases.
    assert!(seen[0] > 0 && seen[1] > 0 && seen[3] > 0, "{seen:?}");
}

#[test]
fn sparse_puzzles_solve_to_valid_grids() {
    // Too sparse for the plain backtracker, but a puzzle cut from a
    // solved grid has that grid as a solution, and as its only one when
    // it is unique.
    let mut rng = Lcg(0xC0FFEE);
    for round in 0..150 {
        let grid = rng.grid();
        let blanks = 50 + rng.below(15);
        let (puzzle, _) = rng.blank(&grid, blanks);
        let outcome = search(&puzzle, 2);
        let first = outcome.first.unwrap();
        assert!(solves(&puzzle, &first), "round {round}: {puzzle:?}");
        if outcome.solutions == 1 {
            assert_eq!(first, grid, "round {round}");
        }
    }
}

/// The puzzles of the other tests and a sweep of random ones, searched
/// through `entry` at limits 1 and 3.
fn outcomes(entry: Entry) -> Vec<SearchOutcome> {
    let mut puzzles: Vec<[u8; 81]> = [EXAMPLE, ANSWER, INKALA].iter().map(|p| cells(p)).collect();
    puzzles.push([0; 81]);
    // The shipped hard and fiendish files: dozens to hundreds of
    // guesses each, through every branch kind.
    for file in [
        include_str!("../../../cases/acwing166/hard.in"),
        include_str!("../../../cases/acwing166/generated/fiendish-001.in"),
    ] {
        puzzles.extend(file.lines().filter(|l| l.len() == 81).map(cells));
    }
    let mut rng = Lcg(0xD1CE);
    for round in 0..60 {
        let grid = rng.grid();
        let blanks = 45 + rng.below(25);
        let (mut puzzle, order) = rng.blank(&grid, blanks);
        if round % 4 == 0 {
            let pos = order[blanks];
            puzzle[pos] = (puzzle[pos] + rng.below(8) as u8) % 9 + 1;
        }
        puzzles.push(puzzle);
    }
    puzzles
        .iter()
        .flat_map(|p| {
            [false, true].into_iter().flat_map(move |grading| {
                [
                    search_with(p, 1, grading, entry),
                    search_with(p, 3, grading, entry),
                ]
            })
        })
        .collect()
}

#[test]
fn every_compiled_variant_searches_alike() {
    // The portable copy of the search and every other copy this CPU runs,
    // on the same puzzles.
    let portable = outcomes(visit_portable);
    assert!(portable.iter().any(|o| o.guesses > 50));
    assert!(portable.iter().any(|o| o.solutions == 0));
    assert_eq!(outcomes(run), portable);
    let mut compared = 0;
    for path in CodePath::ALL {
        if let Some(entry) = path.entry() {
            assert_eq!(outcomes(entry), portable, "{}", path.name());
            compared += 1;
        }
    }
    assert!(compared >= 1);
    assert!(CodePath::detected().available());
}

#[test]
fn a_copy_the_cpu_cannot_run_is_refused_not_run() {
    for path in CodePath::ALL {
        let outcome = search_on(path, &cells(EXAMPLE), 2, false);
        assert_eq!(outcome.is_some(), path.available(), "{}", path.name());
    }
    assert!(CodePath::Portable.available());
}

#[cfg(target_arch = "x86_64")]
#[test]
fn simd_kernels_match_the_scalar_ones() {
    // Where the CPU has AVX2; elsewhere x86-64 runs the portable copy.
    if !CodePath::Avx2.available() {
        return;
    }
    let mut rng = Lcg(0xB175);
    for _ in 0..2000 {
        let mut masks = [0u32; 9];
        for mask in &mut masks {
            // Sparse and dense masks both, so that every count occurs.
            *mask = (rng.below(1 << 27) & rng.below(1 << 27) | (rng.below(1 << 27) * rng.below(2)))
                as u32;
        }
        let cells = (rng.below(1 << 27) & rng.below(1 << 27)) as u32;
        let i = rng.below(27) as u32;
        assert_eq!(avx2::counts(&masks), scalar::counts(&masks), "{masks:?}");
        // SAFETY: the CPU has AVX2, as checked above.
        unsafe {
            let triads = scalar::triad_counts(&masks);
            assert_eq!(avx2::triad_counts(&masks), triads, "{masks:?}");
            assert_eq!(avx2::column(&masks, i), scalar::column(&masks, i));
            let (mut a, mut b) = (masks, masks);
            assert_eq!(avx2::clear(&mut a, cells), scalar::clear(&mut b, cells));
            assert_eq!(a, b);
        }
    }
}

/// The band rule, naked singles and the column pass to a fixpoint, one
/// mask at a time: what the AVX-512 band rule must reach.
#[cfg(target_arch = "x86_64")]
fn singles_fixpoint(grid: &mut Grid) -> Option<()> {
    grid.stale = NINE;
    loop {
        let dirty = std::mem::take(&mut grid.dirty);
        if dirty != 0 {
            let seen = grid.band_rules::<Portable>(dirty)?;
            grid.stale |= (seen | seen >> 16 | seen >> 32) as u32 & NINE;
        }
        if !grid.naked_singles::<Portable>(&mut [0; 3])? && !grid.column_pass::<Portable>()? {
            return Some(());
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx512_band_rule_reaches_the_same_fixpoint() {
    // Where the CPU has AVX-512; elsewhere the emulator test in
    // tests/cli/solve.rs runs the whole AVX-512 copy.
    if !CodePath::Avx512.available() {
        return;
    }
    let mut rng = Lcg(0xE461);
    let (mut dead, mut placed) = (0, 0);
    for _ in 0..3000 {
        let solved = rng.grid();
        let blanks = 50 + rng.below(28);
        let (puzzle, _) = rng.blank(&solved, blanks);
        let mut grid = Grid::new(&puzzle).unwrap();
        // A few candidates knocked out at random, which often leaves no
        // solution and sometimes a contradiction the rules find.
        for _ in 0..rng.below(8) {
            grid.cand[rng.below(3)][rng.below(9)] &= !(1 << rng.below(27));
        }
        let mut expected = grid;
        expected.dirty = ALL_MASKS;
        let outcome = singles_fixpoint(&mut expected);
        let mut simd = grid;
        simd.dirty = 0;
        // SAFETY: the CPU has AVX-512, as checked above.
        let changed = unsafe { engine::band_rules(&mut simd) };
        assert_eq!(changed.is_some(), outcome.is_some(), "{puzzle:?}");
        if changed.is_some() {
            assert_eq!(simd.cand, expected.cand, "{puzzle:?}");
            assert_eq!(simd.unsolved, expected.unsolved, "{puzzle:?}");
            assert_eq!(simd.dirty, 0);
            placed += usize::from(simd.unsolved != grid.unsolved);
        } else {
            dead += 1;
        }
    }
    // Both outcomes occur, and placements.
    assert!(dead > 100 && placed > 1000, "{dead} dead, {placed} placed");
}

#[test]
fn the_triad_rule_fills_and_empties_mini_rows_and_columns() {
    // An empty grid but for band 0, where only digits 0..3 (0-based)
    // are left in mini-row 0 (row 0, columns 0..3) and only digits
    // 3..6 in mini-column 8 (column 8, rows 0..3).
    let mut grid = Grid::new(&[0; 81]).unwrap();
    let (minirow, minicol) = (0o7, SPREAD << 8);
    for digit in 3..9 {
        grid.cand[0][digit] &= !minirow;
    }
    for digit in (0..3).chain(6..9) {
        grid.cand[0][digit] &= !minicol;
    }
    let before = grid;
    assert_eq!(grid.triad_rule::<Portable>(0b110), Some(false));
    assert!(grid.triad_rule::<Portable>(0b001).unwrap());
    let box0 = 0o7 * SPREAD;
    let box2 = 0o700 * SPREAD;
    for digit in 0..9 {
        let mut expected = before.cand[0][digit];
        if digit < 3 {
            // Confined to the mini-row: gone from the rest of row 0 and
            // of box 0.
            expected &= !((NINE | box0) & !minirow);
        }
        if (3..6).contains(&digit) {
            // Confined to the mini-column: gone from the rest of box 2.
            expected &= !(box2 & !minicol);
        }
        assert_eq!(grid.cand[0][digit], expected, "digit {digit}");
        // Column 8 in the other bands.
        let far = if (3..6).contains(&digit) {
            BAND & !minicol
        } else {
            BAND
        };
        assert_eq!([grid.cand[1][digit], grid.cand[2][digit]], [far, far]);
    }
    // Three digits confined to a mini-row push out a fourth.
    let mut grid = Grid::new(&[0; 81]).unwrap();
    for digit in 0..3 {
        grid.cand[0][digit] &= !(0o7 << 9 | 0o7 << 18);
    }
    assert!(grid.triad_rule::<Portable>(0b001).unwrap());
    for digit in 3..9 {
        assert_eq!(grid.cand[0][digit] & 0o7, 0, "digit {digit}");
    }
    // A fourth digit confined to the same mini-row is a contradiction.
    grid.cand[0][3] = (grid.cand[0][3] | 0o7) & !(0o7 << 9 | 0o7 << 18);
    assert_eq!(grid.triad_rule::<Portable>(0b001), None);
}

#[test]
fn a_digit_with_two_ways_through_a_band_or_stack_is_branched_on() {
    // Digit 0 in band 0: row 0 takes box 0, rows 1 and 2 boxes 1 and 2
    // in either order. Every other band, stack and digit has all six
    // ways, so band 0 has the fewest.
    let mut grid = Grid::new(&[0; 81]).unwrap();
    grid.cand[0][0] = 0o7 | 0o770 << 9 | 0o770 << 18;
    let even = [0o7 | 0o70 << 9 | 0o700 << 18, BAND, BAND];
    let odd = [0o7 | 0o700 << 9 | 0o70 << 18, BAND, BAND];
    assert_eq!(grid.band_branch::<Portable>(), Some((0, [even, odd])));
    // Digit 4 in stack 1 (columns 3..6): band 0 takes column 3, bands 1
    // and 2 columns 4 and 5 in either order.
    let mut grid = Grid::new(&[0; 81]).unwrap();
    grid.cand[0][4] &= !(0o60 * SPREAD);
    grid.cand[1][4] &= !(0o10 * SPREAD);
    grid.cand[2][4] &= !(0o10 * SPREAD);
    let keep = |others: [u32; 3]| others.map(|cols| BAND & !(cols * SPREAD));
    let (even, odd) = (keep([0o60, 0o50, 0o30]), keep([0o60, 0o30, 0o50]));
    assert_eq!(grid.band_branch::<Portable>(), Some((4, [even, odd])));
    // Six ways everywhere: no such digit.
    assert_eq!(Grid::new(&[0; 81]).unwrap().band_branch::<Portable>(), None);
    #[cfg(target_arch = "x86_64")]
    if CodePath::Avx2.available() {
        // The AVX2 words need the CPU to have AVX2, as just checked.
        assert_eq!(grid.band_branch::<Avx2>(), Some((4, [even, odd])));
    }
}

#[test]
fn the_stack_rule_keeps_what_the_permutation_table_keeps() {
    // Stack 0 holds the set under test (bit `3 * band + k`: column k
    // in that band), stacks 1 and 2 every column, in row 0 of each band.
    let perms = permutations();
    for set in 0..512u32 {
        let masks = [0, 1, 2].map(|band| (set >> (3 * band) & 7) | 0o770);
        let (kept, stuck) = stack_rule(masks);
        let expected = u32::from(perms[set as usize]);
        assert_eq!(stuck != 0, expected == 0, "{set:o}");
        if expected != 0 {
            for (band, kept) in kept.iter().enumerate() {
                assert_eq!(kept & 7, expected >> (3 * band) & 7, "{set:o}");
                assert_eq!(kept & 0o770, 0o770);
            }
        }
    }
}
