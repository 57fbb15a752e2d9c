//! The plain-loop [`Kernels`]: the loops over a band's nine digit masks
//! (clearing cells from all of them, reading one cell's candidates,
//! counting how many masks hold each cell, and the triad rule's counts),
//! which are the search's hot spots once the band rule is a table lookup.
//! The search is generic over the [`Kernels`] (declared with the state, in
//! [`super::grid`]) and compiled once per instruction set (see
//! [`super::paths`]): these plain loops are the
//! [`CodePath::Portable`](super::paths::CodePath::Portable) copy, the one
//! taken on a CPU without AVX2 and on other architectures, and the
//! reference the x86-64 kernels ([`super::x86`]) are tested against.

use super::bits::{count_in, minicol_word, minirow_word};
use super::grid::Kernels;
use super::tables::BAND;

/// The plain-loop kernels, for any CPU: taken where the CPU has no AVX2,
/// and on an x86-64 CPU that has it run only through
/// [`search_on`](super::solve::search_on), which tests and benchmarks use to
/// compare the copies.
pub(super) struct Portable;

impl Kernels for Portable {
    type Group = u32;
    const GROUP: usize = 1;
    #[inline(always)]
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        scalar::clear(masks, cells)
    }
    #[inline(always)]
    fn column(masks: &[u32; 9], i: u32) -> u32 {
        scalar::column(masks, i)
    }
    #[inline(always)]
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        scalar::counts(masks)
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        scalar::triad_counts(masks)
    }
}

/// The plain-loop versions of the [`Kernels`], also the reference the SIMD
/// ones are tested against.
pub(super) mod scalar {
    use super::{count_in, minicol_word, minirow_word, BAND};

    /// See [`super::Kernels::clear`].
    #[inline(always)]
    pub(crate) fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        let mut changed = 0;
        // Highest digit first, so each flag goes in with a shift by one;
        // `hit` is within the band, so `hit + BAND` carries into bit 27
        // exactly when it is not zero.
        for mask in masks.iter_mut().rev() {
            let hit = *mask & cells;
            changed = changed << 1 | (hit + BAND) >> 27;
            *mask ^= hit;
        }
        changed
    }

    /// See [`super::Kernels::column`].
    #[inline(always)]
    pub(crate) fn column(masks: &[u32; 9], i: u32) -> u32 {
        let mut digits = 0;
        for &mask in masks.iter().rev() {
            digits = digits << 1 | (mask >> i & 1);
        }
        digits
    }

    /// See [`super::Kernels::triad_counts`].
    #[inline(always)]
    pub(crate) fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        let (mut rows, mut cols) = ([0; 4], [0; 4]);
        for &mask in masks {
            count_in(&mut rows, minirow_word(mask));
            count_in(&mut cols, minicol_word(mask));
        }
        [rows[2], rows[3], cols[2], cols[3]]
    }

    /// See [`super::Kernels::counts`].
    #[inline(always)]
    pub(crate) fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        let (mut once, mut twice, mut thrice) = (0, 0, 0);
        for &mask in masks {
            thrice |= twice & mask;
            twice |= once & mask;
            once |= mask;
        }
        (once, twice, thrice)
    }
}
