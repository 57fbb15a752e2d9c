//! The built-in solvers. Each has exactly LeetCode 37's Rust signature,
//! `fn solve_sudoku(board: &mut Vec<Vec<char>>)`, lives in its own file, and
//! is registered once in [`ALL`], which the CLI, the judge and the tests
//! all read.

pub(crate) mod backtrack;
pub(crate) mod bitmask;
pub(crate) mod faulty;
pub mod mrv;
#[expect(unsafe_code, reason = "SIMD intrinsics for the bit masks")]
pub(crate) mod propagate;
pub mod reference;
pub(crate) mod singles;

/// LeetCode 37's Rust signature.
pub type SolveFn = fn(&mut Vec<Vec<char>>);

/// How much work a textbook search did on a puzzle: the digits it placed
/// before its first solution, or before it gave up at a cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nodes {
    pub count: u64,
    /// The search stopped at its cap: the puzzle needs more than `count`.
    pub capped: bool,
}

impl std::fmt::Display for Nodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.capped {
            write!(f, "more than {}", self.count)
        } else {
            write!(f, "{}", self.count)
        }
    }
}

/// Node counting for the textbook solvers: each placement spends one node,
/// and the search stops when none is left. Without a cap it never stops.
pub(crate) struct Budget {
    nodes: u64,
    cap: u64,
}

impl Budget {
    pub(crate) fn new(cap: u64) -> Self {
        Budget { nodes: 0, cap }
    }

    pub(crate) fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// Counts one placement; false once the cap is reached.
    #[inline]
    pub(crate) fn spend(&mut self) -> bool {
        if self.nodes >= self.cap {
            return false;
        }
        self.nodes += 1;
        true
    }

    /// What was spent, for a search that `solved` or not.
    pub(crate) fn nodes(&self, solved: bool) -> Nodes {
        Nodes {
            count: self.nodes,
            capped: !solved && self.nodes >= self.cap,
        }
    }
}

/// A solver the judge can call in-process.
#[derive(Debug)]
pub struct Solver {
    pub name: &'static str,
    pub summary: &'static str,
    pub solve: SolveFn,
    /// Broken on purpose; hidden from listings unless asked for.
    pub faulty: bool,
}

const fn solver(name: &'static str, summary: &'static str, solve: SolveFn) -> Solver {
    Solver {
        name,
        summary,
        solve,
        faulty: false,
    }
}

const fn faulty(name: &'static str, summary: &'static str, solve: SolveFn) -> Solver {
    Solver {
        name,
        summary,
        solve,
        faulty: true,
    }
}

/// Every built-in solver, fastest first: the first is the default.
pub static ALL: &[Solver] = &[
    solver(
        "propagate",
        "bit-parallel bands, singles and locked candidates to a fixed point before each guess (the reference solver)",
        propagate::solve_sudoku,
    ),
    solver(
        "mrv",
        "fewest-candidates-first search with bitmasks and popcount (the AcWing 166 accepted approach)",
        mrv::solve_sudoku,
    ),
    solver(
        "singles",
        "bitmask backtracking that fills naked singles before each guess",
        singles::solve_sudoku,
    ),
    solver(
        "bitmask",
        "row-major backtracking with row/column/box bitmasks",
        bitmask::solve_sudoku,
    ),
    solver(
        "backtrack",
        "plain row-major backtracking with a validity scan (the first solution most people write)",
        backtrack::solve_sudoku,
    ),
    faulty(
        "faulty-wrong-digit",
        "solves, then writes a wrong digit in r9c9 (WA)",
        faulty::wrong_digit,
    ),
    faulty(
        "faulty-changes-given",
        "solves, then overwrites the first given (WA)",
        faulty::changes_given,
    ),
    faulty(
        "faulty-leaves-blank",
        "solves all but the first blank cell (WA)",
        faulty::leaves_blank,
    ),
    faulty(
        "faulty-panic",
        "indexes row 9 of a 9-row board (RE)",
        faulty::panics,
    ),
    faulty(
        "faulty-loop",
        "spins forever (TLE, and it must be killed)",
        faulty::endless_loop,
    ),
];

/// The solver used when none is named: the fastest.
pub fn default_solver() -> &'static Solver {
    &ALL[0]
}

/// Looks a solver up by name; the error lists the names there are.
pub fn find(name: &str) -> anyhow::Result<&'static Solver> {
    ALL.iter().find(|s| s.name == name).ok_or_else(|| {
        let names: Vec<_> = ALL.iter().filter(|s| !s.faulty).map(|s| s.name).collect();
        anyhow::anyhow!(
            "unknown solver `{name}`; the built-in solvers are {} (`sudoku-judge solvers --all` lists them all)",
            names.join(", ")
        )
    })
}

/// Digits as 1..=9 and empty as 0; `None` unless 9 rows of 9 chars that are
/// `'1'..='9'` or `'.'`. Solvers that work on bytes share this reading of
/// LeetCode's board so that they all refuse the same malformed input.
pub(crate) fn read_cells(board: &[Vec<char>]) -> Option<[u8; 81]> {
    if board.len() != 9 || board.iter().any(|row| row.len() != 9) {
        return None;
    }
    let mut cells = [0; 81];
    // Row by row with no early exit: the fast solvers spend a noticeable
    // share of an easy puzzle's time here, so a bad character is only
    // remembered and refused at the end.
    let mut bad = false;
    for (cells, row) in cells.chunks_exact_mut(9).zip(board) {
        for (cell, &ch) in cells.iter_mut().zip(row) {
            let digit = (ch as u32).wrapping_sub('0' as u32);
            bad |= ch != '.' && !(1..=9).contains(&digit);
            *cell = if ch == '.' { 0 } else { digit as u8 };
        }
    }
    (!bad).then_some(cells)
}

/// Bit `d - 1` stands for digit `d`.
pub(crate) fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Cells (0 = empty) with bitmasks of the digits used in each row, column
/// and box, so testing a digit is three bit tests instead of a board scan:
/// the state the bitmask solvers search on.
pub(crate) struct Masks {
    pub(crate) cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Masks {
    /// `None` if a cell is above 9 or two givens share a row, column or box.
    pub(crate) fn new(cells: [u8; 81]) -> Option<Self> {
        let mut masks = Masks {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for (pos, &d) in cells.iter().enumerate() {
            if d > 9 {
                return None;
            }
            if d != 0 {
                if masks.used(pos) & bit(d) != 0 {
                    return None;
                }
                masks.set(pos, d);
            }
        }
        Some(masks)
    }

    /// The digits already in the row, column and box of `pos`.
    pub(crate) fn used(&self, pos: usize) -> u16 {
        let (r, c) = (pos / 9, pos % 9);
        self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]
    }

    /// The digits `pos` can still take.
    pub(crate) fn candidates(&self, pos: usize) -> u16 {
        !self.used(pos) & 0x1FF
    }

    /// XOR makes the same call place and remove `d`.
    fn toggle(&mut self, pos: usize, d: u8) {
        let (r, c) = (pos / 9, pos % 9);
        self.rows[r] ^= bit(d);
        self.cols[c] ^= bit(d);
        self.boxes[r / 3 * 3 + c / 3] ^= bit(d);
    }

    pub(crate) fn set(&mut self, pos: usize, d: u8) {
        self.toggle(pos, d);
        self.cells[pos] = d;
    }

    pub(crate) fn clear(&mut self, pos: usize) {
        self.toggle(pos, self.cells[pos]);
        self.cells[pos] = 0;
    }
}

/// Writes solved cells back into LeetCode's board.
pub(crate) fn write_cells(board: &mut [Vec<char>], cells: &[u8; 81]) {
    for (row, cells) in board.iter_mut().zip(cells.chunks_exact(9)) {
        for (ch, &d) in row.iter_mut().zip(cells) {
            *ch = if d == 0 { '.' } else { char::from(b'0' + d) };
        }
    }
}

#[cfg(test)]
mod tests {
    //! The contract every sound solver keeps, checked for each one in [`ALL`].

    use super::*;
    use crate::board::{format, Board, Format};

    const EXAMPLE: &str = crate::board::EXAMPLE;
    const ANSWER: &str = crate::board::EXAMPLE_ANSWER;

    fn rows(line: &str) -> Vec<Vec<char>> {
        let chars: Vec<char> = line.chars().collect();
        chars.chunks(9).map(<[char]>::to_vec).collect()
    }

    fn sound() -> impl Iterator<Item = &'static Solver> {
        ALL.iter().filter(|s| !s.faulty)
    }

    fn solve(solver: &Solver, line: &str) -> Vec<Vec<char>> {
        let mut board = rows(line);
        (solver.solve)(&mut board);
        board
    }

    fn as_board(rows: &[Vec<char>]) -> Board {
        let text = format::render(Format::AcWing, &[rows.to_vec()]);
        format::parse(&text, Format::AcWing, format::Mode::Answers)
            .unwrap()
            .boards[0]
            .board
    }

    #[test]
    fn names_are_unique_and_the_default_is_sound() {
        let mut names: Vec<_> = ALL.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
        assert!(!default_solver().faulty);
        assert!(find("nope").unwrap_err().to_string().contains("mrv"));
    }

    #[test]
    fn every_solver_solves_the_leetcode_example() {
        for solver in sound() {
            assert_eq!(solve(solver, EXAMPLE), rows(ANSWER), "{}", solver.name);
        }
    }

    #[test]
    fn every_solver_fills_an_empty_board_with_a_valid_grid() {
        for solver in sound() {
            let board = as_board(&solve(solver, &".".repeat(81)));
            assert!(board.solves(&Board::EMPTY), "{}", solver.name);
        }
    }

    #[test]
    fn every_solver_keeps_a_full_board() {
        for solver in sound() {
            assert_eq!(solve(solver, ANSWER), rows(ANSWER), "{}", solver.name);
        }
    }

    #[test]
    fn every_solver_leaves_an_unsolvable_board_as_it_was() {
        let conflicting = format!("5.......5{}", ".".repeat(72));
        // No two givens clash, but r1c9 sees every digit.
        let dead_cell = format!("12345678.........9{}", ".".repeat(63));
        for solver in sound() {
            for line in [&conflicting, &dead_cell] {
                assert_eq!(solve(solver, line), rows(line), "{}", solver.name);
            }
            let mut short = vec![vec!['.'; 9]; 8];
            (solver.solve)(&mut short);
            assert_eq!(short, vec![vec!['.'; 9]; 8], "{}", solver.name);
        }
    }

    #[test]
    fn every_solver_fills_a_board_with_two_solutions() {
        // r2c8=4, r2c9=8, r7c8=8, r7c9=4 in the answer: the two columns share
        // a stack, so swapping 4 and 8 in all four cells is also a solution.
        let mut open: Vec<char> = ANSWER.chars().collect();
        for pos in [16, 17, 61, 62] {
            open[pos] = '.';
        }
        let open: String = open.into_iter().collect();
        let puzzle = Board::from_rows(&rows(&open)).unwrap();
        for solver in sound() {
            let board = Board::from_rows(&solve(solver, &open)).unwrap();
            assert!(board.solves(&puzzle), "{}", solver.name);
        }
    }

    #[test]
    fn faulty_solvers_fail_the_way_their_names_say() {
        let wrong = as_board(&solve(find("faulty-wrong-digit").unwrap(), EXAMPLE));
        assert!(!wrong.conflicts().is_empty());
        let given = as_board(&solve(find("faulty-changes-given").unwrap(), EXAMPLE));
        assert_eq!(given.to_line().as_bytes()[0], b'1');
        let blank = as_board(&solve(find("faulty-leaves-blank").unwrap(), EXAMPLE));
        assert_eq!(blank.filled(), 80);
        let panicked = std::panic::catch_unwind(|| solve(find("faulty-panic").unwrap(), EXAMPLE));
        assert!(panicked.is_err());
    }
}
