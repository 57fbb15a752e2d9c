//! Which copy of the search runs: the search is compiled once per
//! instruction set (its `Kernels`), and each copy is taken only on a CPU
//! that has what it was compiled for, checked at run time. The copies are
//! the same search, guess for guess; tests and benchmarks run them side by
//! side through [`CodePath`].

use super::grid::Grid;
use super::kernels::Portable;
use super::search::Search;

/// A copy of the search compiled for one instruction set. The search is
/// the same in each, guess for guess; the newer instructions only make the
/// bit counting and the loops over a band's masks shorter. `search` runs
/// the fastest one the CPU has ([`CodePath::detected`]); `search_on` runs a
/// given one, so that tests and benchmarks can hold them against each other
/// on the same puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodePath {
    /// Compiled for x86-64-v4 (AVX-512 F, BW, CD, DQ, VL, and all of
    /// x86-64-v3), the band rule over all 27 masks at once.
    Avx512,
    /// Compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT), AVX2 kernels.
    Avx2,
    /// Plain loops: any CPU.
    Portable,
}

impl CodePath {
    /// Every copy, fastest first.
    pub const ALL: [CodePath; 3] = [CodePath::Avx512, CodePath::Avx2, CodePath::Portable];

    /// A short name for reports: `avx512`, `avx2`, `portable`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CodePath::Avx512 => "avx512",
            CodePath::Avx2 => "avx2",
            CodePath::Portable => "portable",
        }
    }

    /// Whether this CPU can run it. The standard library caches what it
    /// detects, so this is cheap enough to ask per search.
    #[must_use]
    pub fn available(self) -> bool {
        self.entry().is_some()
    }

    /// The copy `search` runs on this CPU: the fastest it can run.
    #[must_use]
    pub(crate) fn detected() -> CodePath {
        CodePath::ALL
            .into_iter()
            .find(|path| path.available())
            .unwrap_or(CodePath::Portable)
    }

    /// Its entry point; `None` where the CPU cannot run it.
    pub(super) fn entry(self) -> Option<Entry> {
        let (runs_here, entry) = self.compiled()?;
        runs_here().then_some(entry)
    }

    /// Where this copy is compiled at all (an architecture has only its
    /// own): whether the CPU runs it, and its entry point, which must only
    /// be called once the first said yes, or under `search_on_unchecked`'s
    /// promise. The one place that decides both.
    pub(super) fn compiled(self) -> Option<(fn() -> bool, Entry)> {
        let always = || true;
        match self {
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => Some((v4::detected, v4::enter)),
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => Some((v3::detected, v3::enter)),
            #[cfg(not(target_arch = "x86_64"))]
            CodePath::Avx512 | CodePath::Avx2 => None,
            CodePath::Portable => Some((always, visit_portable)),
        }
    }
}

/// Where a copy of the search starts: visits the grid and all below it.
pub(super) type Entry = fn(&mut Search, Grid);

/// Runs the search from `grid` with the fastest copy the CPU can run.
pub(super) fn run(search: &mut Search, grid: Grid) {
    #[cfg(target_arch = "x86_64")]
    {
        if v4::detected() {
            // SAFETY: the CPU has every feature `v4::visit` is compiled for.
            unsafe { v4::visit(search, grid) };
        } else if v3::detected() {
            // SAFETY: as above, for `v3::visit`.
            unsafe { v3::visit(search, grid) };
        } else {
            visit_portable(search, grid);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    visit_portable(search, grid);
}

/// The search with the plain-loop kernels.
pub(super) fn visit_portable(search: &mut Search, grid: Grid) {
    search.visit::<Portable>(grid, visit_portable);
}

/// The copy of the search compiled for x86-64-v3.
#[cfg(target_arch = "x86_64")]
mod v3 {
    use super::super::x86::Avx2;
    use super::{Grid, Search};

    /// Whether the CPU has the features of [`visit`]; the standard
    /// library caches the answer, so this is cheap per search.
    pub(crate) fn detected() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }

    /// [`visit`] as a plain function pointer for `CodePath::compiled`,
    /// which hands it out only once [`detected`] said yes, or to
    /// `search_on_unchecked`, whose caller vouches for the CPU. (`run`,
    /// once per search, checks and calls [`visit`] itself.)
    pub(crate) fn enter(search: &mut Search, grid: Grid) {
        // SAFETY: see above: reached only where the CPU has the features.
        unsafe { visit(search, grid) }
    }

    /// # Safety
    /// The CPU must have the features [`detected`] checks.
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub(crate) unsafe fn visit(search: &mut Search, grid: Grid) {
        // SAFETY: reached only from `enter` (see there), from `super::run`
        // after `detected()`, or from itself.
        search.visit::<Avx2>(grid, |search, grid| unsafe { visit(search, grid) });
    }
}

/// The copy of the search compiled for x86-64-v4.
#[cfg(target_arch = "x86_64")]
mod v4 {
    use super::super::x86::Avx512;
    use super::{Grid, Search};

    /// Whether the CPU has the features of [`visit`].
    pub(crate) fn detected() -> bool {
        super::v3::detected()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }

    /// [`visit`] as a plain function pointer (see [`super::v3::enter`]).
    pub(crate) fn enter(search: &mut Search, grid: Grid) {
        // SAFETY: reached only where the CPU has the features, as for
        // `super::v3::enter`.
        unsafe { visit(search, grid) }
    }

    /// # Safety
    /// The CPU must have the features [`detected`] checks.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt"
    )]
    pub(crate) unsafe fn visit(search: &mut Search, grid: Grid) {
        // SAFETY: reached only from `enter` (see there), from `super::run`
        // after `detected()`, or from itself.
        search.visit::<Avx512>(grid, |search, grid| unsafe { visit(search, grid) });
    }
}
