//! The targeted search for hard puzzles: hill climbing over puzzles that
//! keep exactly one solution, with a solver's work as the objective.
//!
//! Carving at random (removing givens from a full grid while the solution
//! stays unique) almost never makes a puzzle that needs more than 20
//! guesses of the reference search, and never one that stalls a textbook
//! solver for a second. Hard puzzles are rare but clustered: the neighbours
//! of a hard puzzle are often hard too (the hardest public lists were grown
//! that way, by "vicinity search"). So the search
//!
//! - starts from a puzzle of a pool (at first, the known hardest public
//!   puzzles; then also what this generator made), shuffled by the
//!   symmetries of Sudoku, which keep it unique and keep its structure;
//! - moves to the best of a few neighbours: one or two givens dropped, one
//!   or two cells of the solution given instead, givens added back until
//!   the solution is unique again, and the rest trimmed back to a minimal
//!   puzzle (so hardness is not diluted by spare givens);
//! - climbs while the objective grows (a plateau counts), and once at the
//!   goal walks on among puzzles that stay at it, so each result is a new
//!   puzzle rather than a copy of the one it started from.
//!
//! The objective is the work of the solver a target names: guesses of the
//! reference search (proving uniqueness), or nodes of the textbook `mrv`
//! and `backtrack` solvers to their first solution. The textbook solvers
//! try digits in ascending order and (for `backtrack`) cells in row-major
//! order, so how a puzzle is laid out and labelled changes their work by
//! orders of magnitude while its logic stays the same: the search picks the
//! layout and labels that cost them most, as a problem setter writing
//! anti-solution tests does.

use rand::seq::SliceRandom as _;
use rand::Rng as _;

use super::generator::Generator;
use super::goal::{Goal, Measure};
use crate::solver::reference::{count_solutions, graded_search};

/// Steps without progress before a climb starts again from another
/// pool puzzle.
const STALE: usize = 30;
/// Random relabellings and layouts tried at the end for the textbook
/// solvers, keeping the costliest.
const LAYOUTS: usize = 8;
/// The pool keeps at most this many puzzles.
const POOL: usize = 256;

/// Public puzzles from the lists of the hardest known Sudoku, where the
/// search starts: the nine of `cases/acwing166/hard.in` (Inkala 2012, AI
/// Escargot, Inkala 2010, Easter Monster, Golden Nugget, Platinum Blonde,
/// Red Dwarf, Fata Morgana, Cheese).
pub(crate) const HARDEST: [&str; 9] = [
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......39....1...5..3..58....8..9..6.7..2....1..4.......9..8.5..2....6..4..7.....",
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
    "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8",
    "........3..1..56...9..4..7......9.5.7.......8.5.4.2....8..2..9...35..1..6........",
    ".2..5.7..4..1....68....3...2....8..3.4..2.5.....6...1...2.9.....9......57.4...9..",
];

pub(super) fn cells_of(line: &str) -> [u8; 81] {
    std::array::from_fn(|i| match line.as_bytes()[i] {
        b'.' | b'0' => 0,
        b => b - b'0',
    })
}

fn unique(cells: &[u8; 81]) -> bool {
    count_solutions(cells, 2) == 1
}

impl Generator {
    pub(super) fn seed_pool() -> Vec<[u8; 81]> {
        HARDEST.iter().map(|line| cells_of(line)).collect()
    }

    /// A neighbour of the unique puzzle `cells` whose solution is
    /// `solution`: one or two givens dropped, one or two cells of the
    /// solution given instead, givens added back until it is unique again,
    /// then trimmed to a minimal puzzle keeping the new givens.
    pub(crate) fn neighbour(&mut self, cells: &[u8; 81], solution: &[u8; 81]) -> [u8; 81] {
        let mut next = *cells;
        let givens: Vec<usize> = (0..81).filter(|&i| next[i] != 0).collect();
        for _ in 0..self.rng.random_range(1..=2) {
            next[givens[self.rng.random_range(0..givens.len())]] = 0;
        }
        let mut added = Vec::new();
        let mut add = |next: &mut [u8; 81], rng: &mut rand_chacha::ChaCha8Rng| {
            let blanks: Vec<usize> = (0..81).filter(|&i| next[i] == 0).collect();
            if let Some(&pos) = blanks.get(rng.random_range(0..blanks.len().max(1))) {
                next[pos] = solution[pos];
                added.push(pos);
            }
        };
        for _ in 0..self.rng.random_range(1..=2) {
            add(&mut next, &mut self.rng);
        }
        while !unique(&next) {
            add(&mut next, &mut self.rng);
        }
        let mut removable: Vec<usize> = (0..81)
            .filter(|&i| next[i] != 0 && !added.contains(&i))
            .collect();
        removable.shuffle(&mut self.rng);
        for pos in removable {
            let kept = std::mem::take(&mut next[pos]);
            if !unique(&next) {
                next[pos] = kept;
            }
        }
        next
    }

    /// The layout and labels of `cells` that cost row-major backtracking
    /// most, as far as a rule of thumb finds them: the rows with the fewest
    /// givens first (bands by their givens, rows within each band by
    /// theirs, in whichever orientation leaves the top band emptier), and
    /// digits relabelled so that the blanks met first hold 9, 8, 7, ...,
    /// which a search trying 1 to 9 reaches last.
    pub(crate) fn worst_for_backtrack(cells: &[u8; 81]) -> [u8; 81] {
        let transposed: [u8; 81] = std::array::from_fn(|i| cells[(i % 9) * 9 + i / 9]);
        let row_givens =
            |c: &[u8; 81], r: usize| c[r * 9..r * 9 + 9].iter().filter(|&&d| d != 0).count();
        let order = |c: &[u8; 81]| -> [usize; 9] {
            let mut bands = [0, 1, 2];
            bands.sort_by_key(|&b| (0..3).map(|i| row_givens(c, b * 3 + i)).sum::<usize>());
            let mut rows = [0; 9];
            for (slot, &band) in bands.iter().enumerate() {
                let mut inner = [band * 3, band * 3 + 1, band * 3 + 2];
                inner.sort_by_key(|&r| row_givens(c, r));
                rows[slot * 3..slot * 3 + 3].copy_from_slice(&inner);
            }
            rows
        };
        let top = |c: &[u8; 81]| -> usize { order(c)[..3].iter().map(|&r| row_givens(c, r)).sum() };
        let source = if top(&transposed) < top(cells) {
            transposed
        } else {
            *cells
        };
        let rows = order(&source);
        let laid: [u8; 81] = std::array::from_fn(|i| source[rows[i / 9] * 9 + i % 9]);
        let Some(solution) = graded_search(&laid, 1).first else {
            return laid;
        };
        let mut label = [0u8; 10];
        let mut next = 9;
        for pos in (0..81).filter(|&p| laid[p] == 0) {
            let d = usize::from(solution[pos]);
            if label[d] == 0 {
                label[d] = next;
                next -= 1;
            }
        }
        for slot in label.iter_mut().skip(1).filter(|l| **l == 0) {
            *slot = next;
            next = next.saturating_sub(1);
        }
        laid.map(|d| label[usize::from(d)])
    }

    /// Climbs from a pool puzzle to one whose work meets `goal`, spending
    /// neighbours from `attempts`. `None` when they ran out.
    pub(super) fn climb(&mut self, goal: Goal, attempts: &mut usize) -> Option<[u8; 81]> {
        let arrange = |cells: [u8; 81]| match goal.measure {
            Measure::Backtrack => Generator::worst_for_backtrack(&cells),
            _ => cells,
        };
        let mut current = 'restart: loop {
            let start = self.pool[self.rng.random_range(0..self.pool.len())];
            let mut current = arrange(self.shuffle(&start));
            let mut solution = graded_search(&current, 1).first?;
            let mut score = goal.score(&current);
            self.climbed(score);
            let (mut walked, mut stale) = (0, 0);
            while score < goal.min || walked < goal.walk() {
                if *attempts == 0 {
                    return None;
                }
                if stale == STALE {
                    // A barren neighbourhood: start again elsewhere.
                    continue 'restart;
                }
                let mut best: Option<([u8; 81], u64)> = None;
                for _ in 0..goal.neighbours() {
                    *attempts = attempts.saturating_sub(1);
                    let next = arrange(self.neighbour(&current, &solution));
                    let next_score = goal.score(&next);
                    if best.is_none_or(|(_, s)| next_score > s) {
                        best = Some((next, next_score));
                    }
                }
                let (next, next_score) = best.expect("at least one neighbour");
                stale += 1;
                if next_score >= score.min(goal.min) {
                    if next_score > score || score >= goal.min {
                        stale = 0;
                    }
                    current = next;
                    score = next_score;
                    self.climbed(score);
                    // Relabelling for backtracking changes the solution's digits.
                    solution = graded_search(&current, 1).first?;
                    if score >= goal.min {
                        walked += 1;
                    }
                }
            }
            break current;
        };
        if goal.measure != Measure::Backtrack {
            current = self.costliest_for_mrv(&current);
        }
        if self.pool.len() < POOL {
            self.pool.push(current);
        } else {
            let slot = self.rng.random_range(0..POOL);
            self.pool[slot] = current;
        }
        Some(current)
    }

    /// Of `cells` and a few random relabellings and layouts of it, the one
    /// fewest-candidates search works hardest on. The reference search's
    /// guesses barely change with them; the textbook solvers' nodes do.
    fn costliest_for_mrv(&mut self, cells: &[u8; 81]) -> [u8; 81] {
        let cost = |c: &[u8; 81]| Measure::Mrv.work(c, 1 << 24).count;
        let mut best = (*cells, cost(cells));
        for _ in 0..LAYOUTS {
            let candidate = self.shuffle(cells);
            let candidate_cost = cost(&candidate);
            if candidate_cost > best.1 {
                best = (candidate, candidate_cost);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bitmask;

    #[test]
    fn the_hardest_seeds_are_unique_and_fiendish() {
        for line in HARDEST {
            let cells = cells_of(line);
            let outcome = graded_search(&cells, 2);
            assert_eq!(outcome.solutions, 1, "{line}");
            assert!(outcome.guesses > 20, "{line}: {}", outcome.guesses);
        }
    }

    #[test]
    fn bitmask_counts_the_nodes_of_backtrack() {
        let mut generator = Generator::new(2);
        for line in HARDEST {
            let cells = generator.shuffle(&cells_of(line));
            for cells in [cells, Generator::worst_for_backtrack(&cells)] {
                for cap in [1_000, 300_000] {
                    assert_eq!(
                        bitmask::count_nodes(&cells, cap),
                        crate::solver::backtrack::count_nodes(&cells, cap),
                        "{line}"
                    );
                }
            }
        }
    }

    #[test]
    fn neighbours_stay_unique_and_keep_the_solution() {
        let mut generator = Generator::new(11);
        let mut cells = cells_of(HARDEST[0]);
        let solution = graded_search(&cells, 1).first.unwrap();
        for _ in 0..30 {
            cells = generator.neighbour(&cells, &solution);
            assert_eq!(count_solutions(&cells, 2), 1);
            assert_eq!(graded_search(&cells, 1).first, Some(solution));
        }
    }

    #[test]
    fn the_worst_layout_for_backtracking_is_the_same_puzzle_and_costs_more() {
        let mut more = 0;
        for line in HARDEST {
            let cells = cells_of(line);
            let worst = Generator::worst_for_backtrack(&cells);
            assert_eq!(count_solutions(&worst, 2), 1, "{line}");
            assert_eq!(
                worst.iter().filter(|&&d| d != 0).count(),
                cells.iter().filter(|&&d| d != 0).count()
            );
            let cap = 200_000;
            let (worst, before) = (
                Measure::Backtrack.work(&worst, cap),
                Measure::Backtrack.work(&cells, cap),
            );
            if worst.capped || worst.count > before.count {
                more += 1;
            }
        }
        assert!(more >= 7, "only {more} of 9 got costlier");
    }
}
