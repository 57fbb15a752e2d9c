//! What a generator aims at: the [`Target`] a user asked for (givens, a
//! grade, a hardness by a solver's [`Measure`]) and the [`Goal`] a climb
//! toward a hard puzzle scores against.

use super::rating::Grade;
use crate::solver::reference::graded_search;
use crate::solver::{bitmask, mrv, Nodes};

/// What to make.
#[derive(Clone, Copy, Debug, Default)]
pub struct Target {
    /// Exactly this many givens (17 to 81).
    pub(crate) givens: Option<usize>,
    pub(crate) grade: Option<Grade>,
    /// At least this much work for one solver.
    pub(crate) hard_for: Option<HardFor>,
}

impl Target {
    /// The target in words, for messages: ` with 17 givens of grade hard`.
    pub(crate) fn describe(&self) -> String {
        let mut text = String::new();
        if let Some(givens) = self.givens {
            text.push_str(&format!(" with {givens} givens"));
        }
        if let Some(grade) = self.grade {
            text.push_str(&format!(" of grade {grade}"));
        }
        if let Some(hard) = self.hard_for {
            text.push_str(&format!(
                " needing at least {} {} {}",
                hard.min,
                hard.measure.name(),
                hard.measure.unit()
            ));
        }
        text
    }
}

/// A solver whose work a hardness target counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Nodes of plain row-major backtracking (the built-in `backtrack`).
    Backtrack,
    /// Nodes of fewest-candidates backtracking (the built-in `mrv`).
    Mrv,
    /// Guesses of the reference search, to solve and prove uniqueness.
    Propagate,
}

impl Measure {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Measure::Backtrack => "backtrack",
            Measure::Mrv => "mrv",
            Measure::Propagate => "propagate",
        }
    }

    /// What the work is counted in.
    pub(crate) fn unit(self) -> &'static str {
        match self {
            Measure::Propagate => "guesses",
            Measure::Backtrack | Measure::Mrv => "nodes",
        }
    }

    /// The work `cells` needs, counting no further than `cap`. Row-major
    /// backtracking is counted on `bitmask`, which walks the same tree as
    /// `backtrack` ten times faster.
    pub(crate) fn work(self, cells: &[u8; 81], cap: u64) -> Nodes {
        match self {
            Measure::Backtrack => bitmask::count_nodes(cells, cap),
            Measure::Mrv => mrv::count_nodes(cells, cap),
            Measure::Propagate => Nodes {
                count: graded_search(cells, 2).guesses,
                capped: false,
            },
        }
    }
}

/// At least this much work of one solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HardFor {
    pub(crate) measure: Measure,
    pub(crate) min: u64,
}

/// The reference guesses `--grade fiendish` climbs to. The grade starts at
/// 21; aiming higher makes the grade's puzzles as hard on average as the
/// hardest public lists (see the figures in docs/cases.md).
pub const FIENDISH_GOAL: u64 = 60;

/// What one climb aims at.
#[derive(Clone, Copy, Debug)]
pub(super) struct Goal {
    pub(crate) measure: Measure,
    /// The work a result needs.
    pub(crate) min: u64,
}

impl Goal {
    /// What a climb for `target` aims at; `None` when carving serves it
    /// (every grade but fiendish, and any exact number of givens).
    pub(super) fn of(target: Target) -> Option<Goal> {
        if let Some(hard) = target.hard_for {
            return Some(Goal {
                measure: hard.measure,
                min: hard.min,
            });
        }
        (target.grade == Some(Grade::Fiendish) && target.givens.is_none()).then_some(Goal {
            measure: Measure::Propagate,
            min: FIENDISH_GOAL,
        })
    }

    /// The work of `cells`, capped where more would not matter: twice the
    /// goal leaves room to climb past it without paying for hopeless
    /// searches; for backtracking, where a node is dear and hard puzzles
    /// need tens of millions, the goal itself.
    pub(super) fn score(&self, cells: &[u8; 81]) -> u64 {
        let cap = match self.measure {
            Measure::Backtrack => self.min,
            _ => self.min.saturating_mul(2),
        };
        self.measure.work(cells, cap.max(1)).count
    }

    /// Neighbours tried at each step; the best is taken.
    pub(super) fn neighbours(&self) -> usize {
        match self.measure {
            Measure::Backtrack => 4,
            _ => 8,
        }
    }

    /// Steps walked at the goal before a result is taken, so that it
    /// differs from the pool puzzle it started from by several givens.
    pub(super) fn walk(&self) -> usize {
        match self.measure {
            Measure::Backtrack => 1,
            _ => 5,
        }
    }
}
