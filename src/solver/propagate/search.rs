//! The search: propagation, then branching, depth first, as one [`Search`]
//! over copies of the grid; [`super::solve`] starts it.

use super::grid::Grid;
use super::grid::Kernels;

/// Depth-first search over copies of the grid.
pub(super) struct Search {
    pub(super) limit: usize,
    /// Branch on the bivalue cell [`graded_search`](super::solve::graded_search) pins rather than the
    /// fastest choice.
    pub(super) grading: bool,
    pub(super) solutions: usize,
    pub(super) guesses: u64,
    pub(super) first: Option<[u8; 81]>,
}

impl Search {
    /// Visits `grid` and everything below it, depth first: propagate, then
    /// (unless solved or dead) branch on [`Grid::branch_cell`] (or
    /// [`Grid::band_branch`] without a bivalue cell), trying its digits in
    /// the order it gives, each but the last on a copy. `recurse` is the
    /// caller's own entry point: the body is compiled once per instruction
    /// set (see `paths`), and each copy recurses into itself.
    #[inline(always)]
    pub(super) fn visit<K: Kernels>(
        &mut self,
        mut grid: Grid,
        recurse: impl Fn(&mut Search, Grid),
    ) {
        let Some(pairs) = grid.propagate::<K>() else {
            return;
        };
        if grid.is_solved() {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Some(grid.cells());
            }
            return;
        }
        if pairs == [0; 3] {
            if let Some((digit, ways)) = grid.band_branch::<K>() {
                self.guesses += 1;
                let mut trial = grid;
                trial.restrict(digit, ways[0]);
                recurse(self, trial);
                if self.solutions >= self.limit {
                    return;
                }
                // The other way, the only one left: not a guess.
                grid.restrict(digit, ways[1]);
                recurse(self, grid);
                return;
            }
        }
        let (pos, mut digits, high_first) = grid.branch_cell::<K>(pairs, self.grading);
        loop {
            let digit = if high_first {
                31 - digits.leading_zeros()
            } else {
                digits.trailing_zeros()
            } as usize;
            digits &= !(1 << digit);
            if digits == 0 {
                // The only branch left: placed on this grid, not a guess.
                if grid.assign::<K>(digit, pos) {
                    recurse(self, grid);
                }
                return;
            }
            self.guesses += 1;
            let mut trial = grid;
            if trial.assign::<K>(digit, pos) {
                recurse(self, trial);
            }
            if self.solutions >= self.limit {
                return;
            }
        }
    }
}
