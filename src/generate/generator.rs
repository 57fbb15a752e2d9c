//! Rating a puzzle by how it is solved ([`rate`], [`Grade`]) and making
//! puzzles of a wanted grade ([`Generator`]).

use rand::seq::SliceRandom as _;
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;

use super::goal::{Goal, Target};
use super::rating::{rate, Grade, Rating};
use crate::board::Board;
use crate::solver::reference::{count_solutions, graded_search};

/// Public 17-given puzzles (the fewest any Sudoku with one solution can
/// have) that fewer-than-22-given puzzles are built from: the two of the
/// AcWing 166 sample, the first two of Gordon Royle's collection, and the
/// anti-backtracking puzzle of Wikipedia's "Sudoku solving algorithms".
const SEVENTEENS: [&str; 5] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.",
    ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
    ".......12....35......6...7.7.....3.....4..8..1...........12.....8.....4..5....6..",
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
];

/// Below this many givens, carving at random almost never gets there.
const CARVE_FLOOR: usize = 22;

/// A seeded source of puzzles.
pub struct Generator {
    pub(super) rng: ChaCha8Rng,
    /// Hard puzzles the targeted search starts from: the public hardest
    /// ones, then what it made itself.
    pub(super) pool: Vec<[u8; 81]>,
    /// Hears the most work a targeted search has reached for the puzzle
    /// it is making, each time it grows (see [`Generator::on_climb`]).
    on_climb: Option<Box<dyn FnMut(u64)>>,
    /// The most work reached for the puzzle being made.
    reached: u64,
}

/// A puzzle with its solution and rating.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub puzzle: Board,
    pub solution: Board,
    pub(crate) rating: Rating,
}

impl Generator {
    pub fn new(seed: u64) -> Self {
        Generator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            pool: Generator::seed_pool(),
            on_climb: None,
            reached: 0,
        }
    }

    /// Tells `reached` the most work (nodes or guesses of the target's
    /// solver) a targeted search has reached so far for the puzzle it is
    /// making, each time that grows: a search for a hard target can take
    /// minutes a puzzle. Nothing is said for targets that carving serves.
    pub(crate) fn on_climb(mut self, reached: impl FnMut(u64) + 'static) -> Self {
        self.on_climb = Some(Box::new(reached));
        self
    }

    /// Records that a search reached `work` for the puzzle being made.
    pub(super) fn climbed(&mut self, work: u64) {
        if work > self.reached {
            self.reached = work;
            if let Some(reached) = &mut self.on_climb {
                reached(work);
            }
        }
    }

    /// A digit permutation and row/column shuffles, applied to `cells`:
    /// the same puzzle for logic, a different one for a search that tries
    /// cells and digits in a fixed order.
    pub(crate) fn shuffle(&mut self, cells: &[u8; 81]) -> [u8; 81] {
        let rng = &mut self.rng;
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        let order = |rng: &mut ChaCha8Rng| -> [usize; 9] {
            let mut bands = [0, 1, 2];
            bands.shuffle(rng);
            let mut out = [0; 9];
            for (b, &band) in bands.iter().enumerate() {
                let mut inner = [0, 1, 2];
                inner.shuffle(rng);
                for (i, &k) in inner.iter().enumerate() {
                    out[b * 3 + i] = band * 3 + k;
                }
            }
            out
        };
        let rows = order(rng);
        let cols = order(rng);
        let transpose = rng.random_bool(0.5);
        std::array::from_fn(|i| {
            let (r, c) = (rows[i / 9], cols[i % 9]);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            match cells[r * 9 + c] {
                0 => 0,
                d => digits[usize::from(d) - 1],
            }
        })
    }

    /// A random complete valid grid.
    pub(crate) fn grid(&mut self) -> [u8; 81] {
        let base: [u8; 81] = std::array::from_fn(|i| {
            let (r, c) = (i / 9, i % 9);
            ((r * 3 + r / 3 + c) % 9 + 1) as u8
        });
        self.shuffle(&base)
    }

    /// Carves `solution` down to `stop_at` givens (or as far as it goes
    /// with one solution kept), removing cells in random order.
    fn carve(&mut self, solution: &[u8; 81], stop_at: usize) -> [u8; 81] {
        let mut cells = *solution;
        let mut order: Vec<usize> = (0..81).collect();
        order.shuffle(&mut self.rng);
        let mut givens = 81;
        for pos in order {
            if givens <= stop_at {
                break;
            }
            let kept = cells[pos];
            cells[pos] = 0;
            if count_solutions(&cells, 2) == 1 {
                givens -= 1;
            } else {
                cells[pos] = kept;
            }
        }
        cells
    }

    /// A shuffled known 17-given puzzle with givens added back from its
    /// solution up to `givens`.
    fn grown_seventeen(&mut self, givens: usize) -> [u8; 81] {
        let pick = self.rng.random_range(0..SEVENTEENS.len());
        let known: [u8; 81] = std::array::from_fn(|i| match SEVENTEENS[pick].as_bytes()[i] {
            b'.' => 0,
            b => b - b'0',
        });
        let mut cells = self.shuffle(&known);
        let solution = graded_search(&cells, 1)
            .first
            .expect("a known puzzle solves");
        let mut blanks: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
        blanks.shuffle(&mut self.rng);
        for &pos in blanks.iter().take(givens.saturating_sub(17)) {
            cells[pos] = solution[pos];
        }
        cells
    }

    /// One candidate puzzle towards `target`; it may miss a grade target.
    fn candidate(&mut self, target: Target) -> [u8; 81] {
        match (target.givens, target.grade) {
            (Some(givens), _) if givens < CARVE_FLOOR => self.grown_seventeen(givens),
            (Some(givens), _) => {
                let grid = self.grid();
                self.carve(&grid, givens)
            }
            // Easy puzzles keep many givens; the others are carved as far as
            // they go, where the hard ones are.
            (None, Some(Grade::Easy)) => {
                let stop_at = self.rng.random_range(30..=40);
                let grid = self.grid();
                self.carve(&grid, stop_at)
            }
            (None, Some(_)) => {
                let grid = self.grid();
                self.carve(&grid, 0)
            }
            (None, None) => {
                let stop_at = self.rng.random_range(24..=36);
                let grid = self.grid();
                self.carve(&grid, stop_at)
            }
        }
    }

    /// A puzzle with exactly one solution meeting `target`, trying at most
    /// `attempts` candidates. `None` when none met it.
    pub fn puzzle(&mut self, target: Target, attempts: usize) -> Option<Puzzle> {
        let mut left = attempts.max(1);
        if let Some(goal) = Goal::of(target) {
            self.reached = 0;
            // Each climb spends neighbours from the same allowance; its
            // result meets the goal by construction but is checked below
            // like any candidate, for the rest of the target.
            while left > 0 {
                let cells = self.climb(goal, &mut left)?;
                if let Some(made) = accept(&cells, target) {
                    return Some(made);
                }
            }
            return None;
        }
        for _ in 0..left {
            if let Some(made) = accept(&self.candidate(target), target) {
                return Some(made);
            }
        }
        None
    }
}

/// `cells` as a made puzzle, if it has one solution and meets `target`.
fn accept(cells: &[u8; 81], target: Target) -> Option<Puzzle> {
    let puzzle = Board::from_bytes(cells).expect("digits 0..=9");
    let rating = rate(&puzzle);
    let (Some(grade), Some(solution)) = (rating.grade, rating.solution) else {
        return None;
    };
    if target.givens.is_some_and(|g| g != rating.givens)
        || target.grade.is_some_and(|g| g != grade)
        || target
            .hard_for
            .is_some_and(|h| h.measure.work(cells, h.min).count < h.min)
    {
        return None;
    }
    Some(Puzzle {
        puzzle,
        solution,
        rating,
    })
}

#[cfg(test)]
mod tests {
    use super::super::goal::{HardFor, Measure};
    use super::*;

    fn line(cells: &[u8; 81]) -> String {
        Board::from_bytes(cells).unwrap().to_line()
    }

    #[test]
    fn grids_are_valid_and_depend_on_the_seed() {
        let mut generator = Generator::new(1);
        let grid = generator.grid();
        let board = Board::from_bytes(&grid).unwrap();
        assert!(board.filled() == 81 && board.conflicts().is_empty());
        assert_ne!(line(&grid), line(&generator.grid()));
        assert_eq!(line(&Generator::new(1).grid()), line(&grid));
    }

    #[test]
    fn generated_puzzles_are_unique_and_keep_their_solution() {
        for seed in 0..40 {
            let mut generator = Generator::new(seed);
            let made = generator
                .puzzle(Target::default(), 1)
                .expect("no target always meets");
            assert_eq!(
                count_solutions(&made.puzzle.to_bytes(), 2),
                1,
                "seed {seed}"
            );
            assert!(made.solution.solves(&made.puzzle), "seed {seed}");
            assert_eq!(made.rating.givens, made.puzzle.filled());
        }
    }

    /// The property every target keeps, whatever the seed: one solution,
    /// the one `gen` writes as the expected answer.
    #[test]
    fn every_target_makes_unique_puzzles_over_many_seeds() {
        let hard = |measure, min| Target {
            hard_for: Some(HardFor { measure, min }),
            ..Target::default()
        };
        let targets = [
            Target::default(),
            Target {
                grade: Some(Grade::Hard),
                ..Target::default()
            },
            Target {
                grade: Some(Grade::Fiendish),
                ..Target::default()
            },
            hard(Measure::Propagate, 30),
            hard(Measure::Mrv, 2_000),
            hard(Measure::Backtrack, 20_000),
        ];
        for seed in 0..12 {
            let mut generator = Generator::new(seed);
            for target in targets {
                let made = generator
                    .puzzle(target, 10_000)
                    .unwrap_or_else(|| panic!("seed {seed}: nothing{}", target.describe()));
                let cells = made.puzzle.to_bytes();
                assert_eq!(
                    count_solutions(&cells, 2),
                    1,
                    "seed {seed}{}",
                    target.describe()
                );
                assert_eq!(
                    graded_search(&cells, 1).first,
                    Some(made.solution.to_bytes())
                );
                assert!(made.solution.solves(&made.puzzle));
                if let Some(h) = target.hard_for {
                    assert!(h.measure.work(&cells, h.min).count >= h.min);
                }
            }
        }
    }

    #[test]
    fn the_same_seed_makes_the_same_puzzles() {
        let make = |seed| {
            let mut generator = Generator::new(seed);
            (0..3)
                .map(|_| {
                    generator
                        .puzzle(Target::default(), 1)
                        .unwrap()
                        .puzzle
                        .to_line()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(make(7), make(7));
        assert_ne!(make(7), make(8));
    }

    #[test]
    fn a_target_number_of_givens_is_met_down_to_seventeen() {
        for givens in [17, 18, 21, 24, 30] {
            let made = Generator::new(givens as u64)
                .puzzle(
                    Target {
                        givens: Some(givens),
                        ..Target::default()
                    },
                    50,
                )
                .unwrap_or_else(|| panic!("no puzzle with {givens} givens"));
            assert_eq!(made.puzzle.filled(), givens);
            assert_eq!(count_solutions(&made.puzzle.to_bytes(), 2), 1);
        }
    }

    #[test]
    fn the_known_seventeens_have_one_solution_each() {
        for known in SEVENTEENS {
            let board = crate::board::format::parse(
                &format!("{known}\nend\n"),
                crate::board::Format::AcWing,
                crate::board::format::Mode::Puzzles,
            )
            .unwrap()
            .boards[0]
                .board;
            assert_eq!(board.filled(), 17);
            assert_eq!(count_solutions(&board.to_bytes(), 2), 1, "{known}");
        }
    }

    #[test]
    fn grades_follow_the_guesses() {
        assert_eq!(Grade::of_guesses(0), Grade::Easy);
        assert_eq!(Grade::of_guesses(3), Grade::Medium);
        assert_eq!(Grade::of_guesses(4), Grade::Hard);
        assert_eq!(Grade::of_guesses(21), Grade::Fiendish);
        let made = Generator::new(3)
            .puzzle(
                Target {
                    grade: Some(Grade::Easy),
                    ..Target::default()
                },
                100,
            )
            .unwrap();
        assert_eq!(made.rating.guesses, 0);
        assert_eq!(made.rating.grade, Some(Grade::Easy));
    }

    #[test]
    fn ratings_say_how_many_solutions() {
        let empty = rate(&Board::EMPTY);
        assert_eq!((empty.solutions, empty.grade), (2, None));
        let mut conflict = [0u8; 81];
        conflict[0] = 5;
        conflict[1] = 5;
        assert_eq!(rate(&Board::from_bytes(&conflict).unwrap()).solutions, 0);
    }
}
