//! The reference search every tool trusts: it proves uniqueness for `gen`
//! and `check`, grades puzzles and produces expected answers for `stress`.
//! Temporary: backed by mrv until the fast solver lands.

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub solutions: usize,
    pub guesses: u64,
    pub first: Option<[u8; 81]>,
}

pub fn search(cells: &[u8; 81], limit: usize) -> Outcome {
    let solutions = super::mrv::count_solutions(cells, limit);
    let mut first = *cells;
    let first = (solutions > 0 && super::mrv::solve_cells(&mut first)).then_some(first);
    Outcome {
        solutions,
        guesses: 0,
        first,
    }
}

pub fn count_solutions(cells: &[u8; 81], limit: usize) -> usize {
    super::mrv::count_solutions(cells, limit)
}
