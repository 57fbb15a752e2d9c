//! The [`Kernels`] for x86-64: AVX2 (one register holds eight masks, in the
//! copy of the search compiled for x86-64-v3) and AVX-512 (the AVX2
//! kernels, compiled for x86-64-v4, with the band rule, naked singles and
//! the column pass run by the `engine` over all 27 masks at once). Each must give exactly what the plain loops
//! of `kernels::scalar` give; a unit test holds them against each other.
//! An SSE2 copy for x86-64 CPUs without AVX2 was dropped: none was at hand
//! to show it pays (docs/solvers.md); they run the portable copy.

use std::arch::x86_64::__m256i;

use super::bits::{merge_counts, minicol_word, minirow_word, Word};
use super::grid::Grid;
use super::grid::Kernels;

/// The AVX2 kernels, only ever run by the copy of the search compiled for
/// x86-64-v3, after the CPU was found to have AVX2.
pub(super) struct Avx2;

impl Kernels for Avx2 {
    type Group = __m256i;
    const GROUP: usize = 8;
    #[inline(always)]
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        // SAFETY: see the type's docs: only reached with AVX2 present.
        unsafe { avx2::clear(masks, cells) }
    }
    #[inline(always)]
    fn column(masks: &[u32; 9], i: u32) -> u32 {
        // SAFETY: as above.
        unsafe { avx2::column(masks, i) }
    }
    #[inline(always)]
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        avx2::counts(masks)
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        // SAFETY: as above.
        unsafe { avx2::triad_counts(masks) }
    }
}

/// The AVX-512 kernels, only ever run by the copy of the search compiled
/// for x86-64-v4, after the CPU was found to have it: the AVX2 kernels
/// (with AVX-512 the compiler shortens them further), and the band rule,
/// naked singles and the column pass in the `engine`. Kernels that load or store a band's nine masks under an
/// AVX-512 lane mask were 11-14% slower than these on an Intel Xeon with
/// AVX-512 (docs/solvers.md).
pub(super) struct Avx512;

impl Kernels for Avx512 {
    type Group = __m256i;
    const GROUP: usize = 8;
    #[inline(always)]
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        Avx2::clear(masks, cells)
    }
    #[inline(always)]
    fn column(masks: &[u32; 9], i: u32) -> u32 {
        Avx2::column(masks, i)
    }
    #[inline(always)]
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        Avx2::counts(masks)
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        Avx2::triad_counts(masks)
    }
    const ALL_BUT_TRIADS: bool = true;
    #[inline(always)]
    fn band_rules(grid: &mut Grid, dirty: u64) -> Option<u64> {
        // SAFETY: see the type's docs: only reached with AVX-512 present.
        let changed = unsafe { super::engine::band_rules(grid) }?;
        Some(dirty | changed)
    }
}

/// The [`Kernels`] in AVX2: digits 0..8 in one register, digit 8 alone.
/// Every function here needs AVX2: they are only reached through [`Avx2`]
/// and [`Avx512`], inside the x86-64-v3 and v4 copies of the search.
pub(super) mod avx2 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
        _mm256_cmpeq_epi32, _mm256_extract_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
        _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_setzero_si256,
        _mm256_shuffle_epi32, _mm256_sll_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
        _mm256_storeu_si256, _mm256_xor_si256, _mm_and_si128, _mm_cvtsi128_si32, _mm_cvtsi32_si128,
        _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_shuffle_epi32,
    };

    use super::{merge_counts, minicol_word, minirow_word, Word};

    /// See `Kernels::clear`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) unsafe fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        let eight = masks.as_mut_ptr().cast::<__m256i>();
        // SAFETY: the load and store cover masks[0..8], inside the array.
        let unchanged = unsafe {
            let all = _mm256_loadu_si256(eight);
            let hit = _mm256_and_si256(all, _mm256_set1_epi32(cells as i32));
            _mm256_storeu_si256(eight, _mm256_xor_si256(all, hit));
            let same = _mm256_cmpeq_epi32(hit, _mm256_setzero_si256());
            _mm256_movemask_ps(_mm256_castsi256_ps(same)) as u32
        };
        let hit = masks[8] & cells;
        masks[8] ^= hit;
        (!unchanged & 0xFF) | u32::from(hit != 0) << 8
    }

    /// See `Kernels::column`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) unsafe fn column(masks: &[u32; 9], i: u32) -> u32 {
        // SAFETY: the load covers masks[0..8]. Shifting bit `i` to the sign
        // bit lets movemask gather it.
        let eight = unsafe {
            let all = _mm256_loadu_si256(masks.as_ptr().cast());
            let moved = _mm256_sll_epi32(all, _mm_cvtsi32_si128(31 - i as i32));
            _mm256_movemask_ps(_mm256_castsi256_ps(moved)) as u32
        };
        eight | (masks[8] >> i & 1) << 8
    }

    /// See `Kernels::triad_counts`: the mini-row and mini-column words of
    /// digits 0..8 computed in one register each, their halves regrouped
    /// so that both are counted together, digit 8 added last.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) unsafe fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        // SAFETY: the load covers masks[0..8], inside the array; the
        // caller promises AVX2. Plain calls, not array maps: closures would
        // not inline here.
        unsafe {
            let all = _mm256_loadu_si256(masks.as_ptr().cast());
            let (rows, cols) = (minirow_word(all), minicol_word(all));
            // Digits 0..4 of both words in one register, 4..8 in the other.
            let a = _mm256_permute2x128_si256::<0x20>(rows, cols);
            let b = _mm256_permute2x128_si256::<0x31>(rows, cols);
            let zero = _mm256_setzero_si256();
            let c = [a.or(b), a.and(b), zero, zero];
            let d = [
                _mm256_shuffle_epi32::<0b10_11_00_01>(c[0]),
                _mm256_shuffle_epi32::<0b10_11_00_01>(c[1]),
                zero,
                zero,
            ];
            let c = merge_counts(c, d);
            let d = [
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[0]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[1]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[2]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[3]),
            ];
            let c = merge_counts(c, d);
            let row = minirow_word(masks[8]);
            let col = minicol_word(masks[8]);
            // The mini-rows' counts in lane 0, the mini-columns' in lane 4.
            let rows2 = _mm256_extract_epi32::<0>(c[1]) as u32;
            let rows3 = _mm256_extract_epi32::<0>(c[2]) as u32;
            let rows4 = _mm256_extract_epi32::<0>(c[3]) as u32;
            let cols2 = _mm256_extract_epi32::<4>(c[1]) as u32;
            let cols3 = _mm256_extract_epi32::<4>(c[2]) as u32;
            let cols4 = _mm256_extract_epi32::<4>(c[3]) as u32;
            [
                rows3 | rows2 & row,
                rows4 | rows3 & row,
                cols3 | cols2 & col,
                cols4 | cols3 & col,
            ]
        }
    }

    /// See `Kernels::counts`: digits 0..4 and 4..8 in a 128-bit register
    /// each, counters saturating at three kept per lane, and lanes merged
    /// pairwise: (once, twice, thrice) of two disjoint sets of masks combine
    /// with ANDs and ORs. A 256-bit register gains nothing here, as its two
    /// halves must be merged anyway.
    #[inline(always)]
    pub(crate) fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        #[inline(always)]
        fn merge(a: [__m128i; 3], b: [__m128i; 3]) -> [__m128i; 3] {
            // SAFETY: SSE2 is part of x86-64; no memory is touched.
            unsafe {
                let [o1, t1, h1] = a;
                let [o2, t2, h2] = b;
                let once = _mm_or_si128(o1, o2);
                let twice = _mm_or_si128(_mm_or_si128(t1, t2), _mm_and_si128(o1, o2));
                let thrice = _mm_or_si128(
                    _mm_or_si128(h1, h2),
                    _mm_or_si128(_mm_and_si128(t1, o2), _mm_and_si128(o1, t2)),
                );
                [once, twice, thrice]
            }
        }
        let low = masks.as_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of x86-64; the loads cover masks[0..4] and
        // masks[4..8], inside the array.
        let [once, twice, thrice] = unsafe {
            let (lo, hi) = (_mm_loadu_si128(low), _mm_loadu_si128(low.add(1)));
            let zero = _mm_setzero_si128();
            let c = merge([lo, zero, zero], [hi, zero, zero]);
            let c = merge(c, c.map(|v| _mm_shuffle_epi32::<0b10_11_00_01>(v)));
            let c = merge(c, c.map(|v| _mm_shuffle_epi32::<0b01_00_11_10>(v)));
            c.map(|v| _mm_cvtsi128_si32(v) as u32)
        };
        let last = masks[8];
        (once | last, twice | once & last, thrice | twice & last)
    }

    // SAFETY (every `unsafe` block of this impl): the impl is only used by
    // the AVX2 and AVX-512 kernels, so the CPU has AVX2; the loads and
    // stores check that eight masks are there.
    impl Word for __m256i {
        #[inline(always)]
        fn splat(x: u32) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_set1_epi32(x as i32) }
        }
        #[inline(always)]
        fn load(masks: &[u32]) -> Self {
            let eight = &masks[..8];
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_loadu_si256(eight.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, masks: &mut [u32]) {
            let eight = &mut masks[..8];
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_storeu_si256(eight.as_mut_ptr().cast(), self) }
        }
        #[inline(always)]
        fn and(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_and_si256(self, other) }
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_or_si256(self, other) }
        }
        #[inline(always)]
        fn and_not(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_andnot_si256(other, self) }
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_srli_epi32::<N>(self) }
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm256_slli_epi32::<N>(self) }
        }
        #[inline(always)]
        fn differs(self, other: Self) -> u32 {
            // SAFETY: see the comment on this impl.
            let same = unsafe {
                let equal = _mm256_cmpeq_epi32(self, other);
                _mm256_movemask_ps(_mm256_castsi256_ps(equal))
            };
            !same as u32 & 0xFF
        }
    }
}
