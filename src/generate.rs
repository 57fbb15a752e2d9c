//! Making puzzles: random full grids, puzzles with exactly one solution
//! carved out of them, and a difficulty grade that means something to a
//! solver author.
//!
//! Everything is reproducible from a seed: the generator draws from ChaCha8,
//! whose stream is fixed by its specification, so a seed gives the same
//! puzzles on every machine and every version of `rand`.
//!
//! - A full grid is a valid base pattern shuffled by the symmetries of
//!   Sudoku (relabel digits, permute rows within a band, bands, columns
//!   within a stack, stacks, transpose), which reach every essentially
//!   different grid's relabellings uniformly enough for testing.
//! - A puzzle is carved by removing givens in random order, keeping a
//!   removal only while the puzzle keeps exactly one solution (the
//!   reference solver counts to two).
//! - Fewer than 22 givens is beyond what carving reaches in reasonable time
//!   (minimal puzzles carved at random mostly keep 22 to 26), so those
//!   start from a known 17-given puzzle, shuffled by the same symmetries
//!   (which keep a puzzle unique), with givens added back from its solution
//!   up to the target.

use std::fmt;
use std::path::PathBuf;

use anyhow::{bail, Context as _};

use rand::seq::SliceRandom as _;
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Format};
use crate::solver::reference::{count_solutions, search};

/// How hard a puzzle is for a solver, from the reference search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Grade {
    /// Logic alone solves it (naked and hidden singles, locked
    /// candidates): no guess at all.
    Easy,
    /// One to three guesses.
    Medium,
    /// Four to twenty guesses.
    Hard,
    /// More than twenty guesses: the hardest known puzzles live here.
    Fiendish,
}

impl Grade {
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Fiendish];

    /// The grade of a search that needed `guesses` guesses.
    pub fn of_guesses(guesses: u64) -> Grade {
        match guesses {
            0 => Grade::Easy,
            1..=3 => Grade::Medium,
            4..=20 => Grade::Hard,
            _ => Grade::Fiendish,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Fiendish => "fiendish",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the reference search says of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub givens: usize,
    /// Solutions found, counting no further than [`Rating::COUNT_LIMIT`].
    pub solutions: usize,
    /// Guesses the reference search needed to find every solution up to the
    /// limit (for a unique puzzle: to solve it and prove nothing else fits);
    /// see `solver::propagate` for how they are counted.
    pub guesses: u64,
    /// `None` unless the puzzle has exactly one solution.
    pub grade: Option<Grade>,
    pub solution: Option<Board>,
}

impl Rating {
    /// How far solutions are counted: enough to say "several".
    pub const COUNT_LIMIT: usize = 2;
}

/// Rates `puzzle` with the reference search.
pub fn rate(puzzle: &Board) -> Rating {
    let outcome = search(&puzzle.to_bytes(), Rating::COUNT_LIMIT);
    Rating {
        givens: puzzle.filled(),
        solutions: outcome.solutions,
        guesses: outcome.guesses,
        grade: (outcome.solutions == 1).then(|| Grade::of_guesses(outcome.guesses)),
        solution: outcome
            .first
            .filter(|_| outcome.solutions == 1)
            .and_then(|cells| Board::from_bytes(&cells)),
    }
}

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

/// What to make.
#[derive(Clone, Copy, Debug, Default)]
pub struct Target {
    /// Exactly this many givens (17 to 81).
    pub givens: Option<usize>,
    pub grade: Option<Grade>,
}

/// A seeded source of puzzles.
pub struct Generator {
    rng: ChaCha8Rng,
}

/// A puzzle with its solution and rating.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub puzzle: Board,
    pub solution: Board,
    pub rating: Rating,
}

impl Generator {
    pub fn new(seed: u64) -> Self {
        Generator {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A digit permutation and row/column shuffles, applied to `cells`.
    fn shuffle(&mut self, cells: &[u8; 81]) -> [u8; 81] {
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
    pub fn grid(&mut self) -> [u8; 81] {
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
        let solution = search(&cells, 1).first.expect("a known puzzle solves");
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
        for _ in 0..attempts.max(1) {
            let cells = self.candidate(target);
            let puzzle = Board::from_bytes(&cells).expect("digits 0..=9");
            let rating = rate(&puzzle);
            let (Some(grade), Some(solution)) = (rating.grade, rating.solution) else {
                continue;
            };
            if target.givens.is_some_and(|g| g != rating.givens)
                || target.grade.is_some_and(|g| g != grade)
            {
                continue;
            }
            return Some(Puzzle {
                puzzle,
                solution,
                rating,
            });
        }
        None
    }
}

/// How `gen` lays cases out on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// `NAME.in` with `NAME.out`, as online-judge-tools keeps them.
    Flat,
    /// `NAME/input.txt` with `NAME/expected.txt`.
    Dir,
}

/// What `gen` writes.
#[derive(Clone, Debug)]
pub struct Plan {
    pub seed: u64,
    /// Case files to write.
    pub files: usize,
    pub per_file: usize,
    pub target: Target,
    pub format: Format,
    pub layout: Layout,
    pub out: PathBuf,
    /// Case names are this prefix and a number: `gen-001`.
    pub name: String,
    /// Candidates tried per puzzle before giving up on a target.
    pub attempts: usize,
}

/// A case `gen` wrote.
#[derive(Clone, Debug)]
pub struct Written {
    pub input: PathBuf,
    pub expected: PathBuf,
    pub ratings: Vec<Rating>,
}

impl Plan {
    fn paths(&self, index: usize) -> (PathBuf, PathBuf) {
        let width = self.files.to_string().len().max(3);
        let stem = format!("{}{:0width$}", self.name, index + 1);
        match self.layout {
            Layout::Flat => (
                self.out.join(format!("{stem}.in")),
                self.out.join(format!("{stem}.out")),
            ),
            Layout::Dir => (
                self.out.join(&stem).join("input.txt"),
                self.out.join(&stem).join("expected.txt"),
            ),
        }
    }
}

/// Writes the cases `plan` asks for. Every target path is checked first:
/// if any exists, nothing is written and the error names it.
pub fn write_cases(plan: &Plan, mut on_case: impl FnMut(&Written)) -> anyhow::Result<Vec<Written>> {
    if plan.per_file > 1 && plan.format != Format::AcWing {
        bail!(
            "several puzzles per file need --format acwing (AcWing 166 lines closed by `end`); \
             {} files hold one board each",
            plan.format
        );
    }
    for index in 0..plan.files {
        let (input, expected) = plan.paths(index);
        for path in [&input, &expected] {
            if path.exists() {
                bail!(
                    "{} already exists; gen never overwrites a file: choose another --out or --name",
                    path.display()
                );
            }
        }
    }
    let mut generator = Generator::new(plan.seed);
    let mut written = Vec::with_capacity(plan.files);
    for index in 0..plan.files {
        let mut puzzles = Vec::with_capacity(plan.per_file);
        for _ in 0..plan.per_file {
            let made = generator
                .puzzle(plan.target, plan.attempts)
                .with_context(|| {
                    format!(
                        "no puzzle{}{} in {} attempts; try another --seed or raise --attempts",
                        plan.target
                            .givens
                            .map(|g| format!(" with {g} givens"))
                            .unwrap_or_default(),
                        plan.target
                            .grade
                            .map(|g| format!(" of grade {g}"))
                            .unwrap_or_default(),
                        plan.attempts
                    )
                })?;
            puzzles.push(made);
        }
        let boards: Vec<Board> = puzzles.iter().map(|p| p.puzzle).collect();
        let answers: Vec<Board> = puzzles.iter().map(|p| p.solution).collect();
        let input_text = match plan.format {
            Format::AcWing => crate::board::format::acwing_input(&boards),
            other => crate::board::format::render_boards(other, &boards),
        };
        let (input, expected) = plan.paths(index);
        if let Some(dir) = input.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("failed to create {}", dir.display()))?;
        }
        crate::case::write_new(&input, &input_text)?;
        crate::case::write_new(
            &expected,
            &crate::board::format::render_boards(plan.format, &answers),
        )?;
        let case = Written {
            input,
            expected,
            ratings: puzzles.into_iter().map(|p| p.rating).collect(),
        };
        on_case(&case);
        written.push(case);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cells: &[u8; 81]) -> String {
        Board::from_bytes(cells).unwrap().to_line()
    }

    #[test]
    fn grids_are_valid_and_depend_on_the_seed() {
        let mut generator = Generator::new(1);
        let grid = generator.grid();
        let board = Board::from_bytes(&grid).unwrap();
        assert!(board.is_complete() && board.conflicts().is_empty());
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
                        grade: None,
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
            .boards[0];
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
                    givens: None,
                    grade: Some(Grade::Easy),
                },
                100,
            )
            .unwrap();
        assert_eq!(made.rating.guesses, 0);
        assert_eq!(made.rating.grade, Some(Grade::Easy));
    }

    #[test]
    fn gen_writes_both_layouts_and_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let mut plan = Plan {
            seed: 5,
            files: 2,
            per_file: 3,
            target: Target::default(),
            format: Format::AcWing,
            layout: Layout::Flat,
            out: tmp.path().to_path_buf(),
            name: "g-".into(),
            attempts: 10,
        };
        let written = write_cases(&plan, |_| {}).unwrap();
        assert_eq!(written.len(), 2);
        assert!(tmp.path().join("g-001.in").is_file() && tmp.path().join("g-002.out").is_file());
        let cases = crate::case::discover(&[tmp.path().to_path_buf()]).unwrap();
        for case in &cases {
            let data = crate::case::load(case, true).unwrap();
            assert_eq!(data.puzzles, 3);
            assert!(data.warnings.is_empty());
        }
        let before = std::fs::read(tmp.path().join("g-001.in")).unwrap();
        let error = write_cases(&plan, |_| {}).unwrap_err().to_string();
        assert!(error.contains("g-001.in already exists"), "{error}");
        assert_eq!(std::fs::read(tmp.path().join("g-001.in")).unwrap(), before);

        plan.layout = Layout::Dir;
        plan.per_file = 1;
        plan.format = Format::LeetCode;
        write_cases(&plan, |_| {}).unwrap();
        let case = crate::case::discover(&[tmp.path().join("g-002")]).unwrap();
        assert_eq!(
            crate::case::load(&case[0], true).unwrap().format,
            Format::LeetCode
        );

        plan.per_file = 2;
        plan.name = "other-".into();
        assert!(write_cases(&plan, |_| {})
            .unwrap_err()
            .to_string()
            .contains("--format acwing"));
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
