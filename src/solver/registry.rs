//! The registry of built-in solvers ([`Solver`], [`ALL`]) and what they
//! share: reading and writing cells, candidate masks, a node budget.

use super::{backtrack, bitmask, faulty, mrv, propagate, singles};

/// LeetCode 37's Rust signature.
pub type SolveFn = fn(&mut Vec<Vec<char>>);

/// A solver the judge can call in-process.
#[derive(Debug)]
pub struct Solver {
    pub name: &'static str,
    pub(crate) summary: &'static str,
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

/// The solver `name`d, or the default one.
pub(crate) fn pick(name: Option<&str>) -> anyhow::Result<&'static Solver> {
    name.map_or_else(|| Ok(default_solver()), find)
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

#[cfg(test)]
mod tests {
    //! The contract every sound solver keeps, checked for each one in [`ALL`].

    use super::*;
    use crate::board::{Board, EXAMPLE, EXAMPLE_ANSWER as ANSWER};
    use crate::solver::propagate::tests::rows;

    fn sound() -> impl Iterator<Item = &'static Solver> {
        ALL.iter().filter(|s| !s.faulty)
    }

    fn solve(solver: &Solver, line: &str) -> Vec<Vec<char>> {
        let mut board = rows(line);
        (solver.solve)(&mut board);
        board
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
            let board = Board::from_rows(&solve(solver, &".".repeat(81))).unwrap();
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
        let solved = |name| Board::from_rows(&solve(find(name).unwrap(), EXAMPLE)).unwrap();
        let wrong = solved("faulty-wrong-digit");
        assert!(!wrong.conflicts().is_empty());
        let given = solved("faulty-changes-given");
        assert_eq!(given.to_line().as_bytes()[0], b'1');
        let blank = solved("faulty-leaves-blank");
        assert_eq!(blank.filled(), 80);
        let panicked = std::panic::catch_unwind(|| solve(find("faulty-panic").unwrap(), EXAMPLE));
        assert!(panicked.is_err());
    }
}
