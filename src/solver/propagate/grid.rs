//! The search state and the rules that shrink it: the band rule, naked
//! singles, the stack rule with hidden singles in columns, and the triad
//! rule, run to a fixpoint before every guess (see the module docs of
//! `propagate`).

use super::bits::{column_singles, minicol_word, minirow_word, stack_rule, Word};
use super::tables::{
    other_bands, split, ALL_MASKS, BAND, COMPLEX, MINIROWS, NINE, PEERS, ROWS, SPREAD,
};

/// The kernels that work on all nine digit masks of a band at once, how
/// many digits the column pass handles together, and how the band rule
/// reaches its fixpoint. Tests run the same puzzles through every
/// implementation and compare the outcomes.
pub(super) trait Kernels: Sized {
    /// A group of digits the column pass handles in lock step.
    type Group: Word;
    /// How many digits a [`Kernels::Group`] holds.
    const GROUP: usize;
    /// Removes `cells` from the nine masks; bit `digit` of the result says
    /// whether that changed its mask.
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32;
    /// Bit `digit` of the result is bit `i` of that digit's mask: the
    /// candidates of cell `i` of the band.
    fn column(masks: &[u32; 9], i: u32) -> u32;
    /// The cells in at least one, two and three of the nine masks.
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32);
    /// Over the nine digits' [`minirow_word`]s and [`minicol_word`]s:
    /// `[rows3, rows4, cols3, cols4]`, the bits set in at least three and in
    /// at least four of them.
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4];
    /// Whether [`Kernels::band_rules`] also reaches the fixpoint of naked
    /// singles, the stack rule and hidden singles in columns, so that the
    /// search skips its own passes of them.
    const ALL_BUT_TRIADS: bool = false;
    /// The band rule to a fixpoint, starting from the masks in `dirty`
    /// (never empty): the masks it looked at or changed, in the same
    /// layout, or `None` on a contradiction. With
    /// [`Kernels::ALL_BUT_TRIADS`], the other rules but triads too.
    #[inline(always)]
    fn band_rules(grid: &mut Grid, dirty: u64) -> Option<u64> {
        grid.band_rules::<Self>(dirty)
    }
}

/// The search state: 136 bytes, copied at each guess. The AVX-512 band
/// rule (`engine`) reads and writes its first 128 bytes as 32 words: the
/// 27 masks, then `unsolved`, then `dirty`; `repr(C)` keeps that order.
#[derive(Clone, Copy)]
#[repr(C)]
pub(super) struct Grid {
    /// `cand[band][digit]`, digits 0-based: for each band (three rows) and
    /// digit, the band's cells where the digit may still go, bit
    /// `9 * row_in_band + column`. A placed digit stays in its own mask.
    pub(super) cand: [[u32; 9]; 3],
    /// Cells not yet solved, per band.
    pub(super) unsolved: [u32; 3],
    /// Bit `16 * band + digit`: that mask changed since the band rule last
    /// ran on it. Bands 16 bits apart rather than 9 let the loop split a
    /// bit's index with a shift and a mask instead of a division.
    pub(super) dirty: u64,
    /// Bit `digit`: one of its masks changed since the column pass last
    /// looked at it.
    pub(super) stale: u32,
}

/// What [`Grid::triad_rule`] found in a band, as masks of mini-rows (bit
/// `3 * m`) and mini-columns (bit `col`): exactly three digits left with a
/// candidate there, or exactly three confined there, each only where the
/// rule removes something.
struct Triads {
    rows_present: u32,
    rows_confined: u32,
    cols_present: u32,
    cols_confined: u32,
}

impl Grid {
    /// `None` if a value is above 9 or two equal givens share a unit.
    ///
    /// The grid that placing the givens one by one with [`Grid::assign`]
    /// would give, built in one pass over the givens: each digit's masks lose
    /// the peers of its givens and the other givens' cells, and a given
    /// fails exactly when an equal given is its peer.
    pub(super) fn new(cells: &[u8; 81]) -> Option<Grid> {
        // A max and a mask per band rather than a scan with early exits:
        // both loops compile to a few SIMD instructions, which matters on
        // easy puzzles, where setting up takes a tenth of the time.
        if cells.iter().fold(0, |max, &value| max.max(value)) > 9 {
            return None;
        }
        let mut filled = [0u32; 3];
        for (filled, band) in filled.iter_mut().zip(cells.chunks_exact(27)) {
            *filled = band
                .iter()
                .enumerate()
                .fold(0, |bits, (i, &value)| bits | u32::from(value != 0) << i);
        }
        // Per digit (index 1..=9) and band: its givens' peers and cells;
        // index 0 collects all the given cells.
        let mut peers = [[0u32; 3]; 10];
        let mut givens = [[0u32; 3]; 10];
        givens[0] = filled;
        let mut conflict = 0;
        for (band, &filled) in filled.iter().enumerate() {
            let mut left = filled;
            while left != 0 {
                let pos = 27 * band + left.trailing_zeros() as usize;
                let bit = left & left.wrapping_neg();
                left ^= bit;
                let value = usize::from(cells[pos]);
                conflict |= peers[value][band] & bit;
                for (acc, &cells) in peers[value].iter_mut().zip(&PEERS[pos]) {
                    *acc |= cells;
                }
                givens[value][band] |= bit;
            }
        }
        if conflict != 0 {
            return None;
        }
        let mut grid = Grid {
            cand: [[BAND; 9]; 3],
            unsolved: [BAND; 3],
            dirty: ALL_MASKS,
            stale: NINE,
        };
        for band in 0..3 {
            let all = givens[0][band];
            grid.unsolved[band] = BAND & !all;
            for digit in 0..9 {
                // The givens of other digits: given cells not its own.
                let others = all & !givens[digit + 1][band];
                grid.cand[band][digit] = BAND & !peers[digit + 1][band] & !others;
            }
        }
        Some(grid)
    }

    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Removes `cells` from one mask; returns its dirty bit if that changed
    /// it, else 0. The dirty bits go back to the caller rather than into
    /// `self.dirty`, so that the band rule's loop keeps its set in a
    /// register instead of a round trip through memory per mask.
    #[inline(always)]
    pub(super) fn clear(&mut self, band: usize, digit: usize, cells: u32) -> u64 {
        let old = self.cand[band][digit];
        let new = old & !cells;
        self.cand[band][digit] = new;
        u64::from(new != old) << (16 * band + digit)
    }

    /// Removes `cells` from every mask of `band` but `keep`'s, which
    /// becomes `own`; returns the dirty bits of the others that changed.
    /// One branch-free pass over the nine masks, then `keep`'s written, is
    /// cheaper than skipping it. Taking `own` rather than reading it lets
    /// the band rule write its mask after this pass instead of just before:
    /// a vector load of masks just written one at a time stalls until the
    /// writes reach the cache, and that cost 10% of the time.
    #[inline(always)]
    fn clear_others<K: Kernels>(&mut self, band: usize, keep: usize, cells: u32, own: u32) -> u64 {
        let masks = &mut self.cand[band];
        let changed = K::clear(masks, cells);
        masks[keep] = own;
        u64::from(changed & !(1 << keep)) << (16 * band)
    }

    /// Places `digit` (0-based) at `pos`; `false` if it is not a candidate
    /// there.
    #[inline(always)]
    pub(super) fn assign<K: Kernels>(&mut self, digit: usize, pos: usize) -> bool {
        let (band, bit) = split(pos);
        if self.cand[band][digit] & bit == 0 {
            return false;
        }
        self.unsolved[band] &= !bit;
        let own = self.cand[band][digit];
        let mut dirty = self.clear_others::<K>(band, digit, bit, own);
        for (b, &peers) in PEERS[pos].iter().enumerate() {
            dirty |= self.clear(b, digit, peers);
        }
        self.dirty |= dirty;
        true
    }

    /// The band rule on one mask: the dirty bits of the masks it changed
    /// (its own is never among them: the rule is idempotent), or `None` on
    /// a contradiction.
    ///
    /// The digit takes exactly one cell in each of the band's three rows
    /// and three boxes, so the mini-rows it ends up in form a 3 × 3
    /// permutation; [`COMPLEX`] keeps the mini-rows on one, which does
    /// hidden singles in rows and boxes and locked candidates in one
    /// lookup. A row down to one cell is the digit placed there.
    #[inline(always)]
    fn band_rule<K: Kernels>(&mut self, band: usize, digit: usize) -> Option<u64> {
        let old = self.cand[band][digit];
        let rows = |m: u32| {
            ROWS[0][(m & NINE) as usize]
                | ROWS[1][(m >> 9 & NINE) as usize]
                | ROWS[2][(m >> 18) as usize]
        };
        let seen = rows(old);
        let mask = old & COMPLEX[(seen >> 32) as usize];
        if mask == 0 {
            return None;
        }
        // The rows the filter left alone are as they were looked up; only
        // when it took something (a quarter of the runs on the forum sets)
        // are they looked up again: 1-3% faster on the hard sets than
        // always looking them up after the filter.
        let placed = if mask == old {
            seen as u32
        } else {
            rows(mask) as u32
        };
        let new = placed & self.unsolved[band];
        if new == 0 {
            self.cand[band][digit] = mask;
            return Some(0);
        }
        self.unsolved[band] &= !new;
        // The table already cleared the rest of each row and box; the
        // columns reach into the other two bands.
        let cols = (new | new >> 9 | new >> 18) & NINE;
        let (b1, b2) = other_bands(band);
        Some(
            self.clear(b1, digit, cols * SPREAD)
                | self.clear(b2, digit, cols * SPREAD)
                | self.clear_others::<K>(band, digit, new, mask),
        )
    }

    /// The band rule to a fixpoint from the masks in `dirty`, one mask at a
    /// time (the [`Kernels::band_rules`] of every copy but AVX-512's): the
    /// masks it ran on, or `None` on a contradiction.
    #[inline(always)]
    pub(super) fn band_rules<K: Kernels>(&mut self, mut dirty: u64) -> Option<u64> {
        let mut seen = 0;
        // In rounds: the masks due now, then those they changed. Which mask
        // comes next never waits on the last one's lookups, so the CPU
        // overlaps them (5% faster than taking the lowest due mask after
        // each one; the same fixpoint).
        while dirty != 0 {
            let mut round = std::mem::take(&mut dirty);
            seen |= round;
            while round != 0 {
                let i = round.trailing_zeros() as usize;
                round &= round - 1;
                dirty |= self.band_rule::<K>(i >> 4, i & 15)?;
            }
        }
        Some(seen)
    }

    /// Places every naked single. `None` on a contradiction, else whether
    /// anything changed; `pairs` gets each band's open cells with exactly
    /// two candidates, as they were before any placement.
    #[inline(always)]
    pub(super) fn naked_singles<K: Kernels>(&mut self, pairs: &mut [u32; 3]) -> Option<bool> {
        let mut progress = false;
        for (band, pairs) in pairs.iter_mut().enumerate() {
            let open = self.unsolved[band];
            let (once, twice, thrice) = K::counts(&self.cand[band]);
            if open & !once != 0 {
                return None;
            }
            *pairs = open & twice & !thrice;
            let mut singles = open & !twice;
            progress |= singles != 0;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                // An earlier single may have taken this cell's last digit.
                let pos = 27 * band + bit.trailing_zeros() as usize;
                let digits = self.digits_at::<K>(pos);
                if digits == 0 {
                    return None;
                }
                self.assign::<K>(digits.trailing_zeros() as usize, pos);
            }
        }
        Some(progress)
    }

    /// The stack rule and hidden singles in columns, for the digits changed
    /// since the last run. `None` on a contradiction, else whether anything
    /// changed.
    #[inline(always)]
    pub(super) fn column_pass<K: Kernels>(&mut self) -> Option<bool> {
        let stale = std::mem::take(&mut self.stale);
        let mut singles = [0; 9];
        let mut progress = false;
        // The rules for `K::GROUP` digits at a time, the digits left over
        // one at a time; either way every digit's drops and singles come
        // from the masks as they were before any single of this pass is
        // placed, which the placements below allow for.
        let group = (1 << K::GROUP) - 1;
        let mut first = 0;
        while first + K::GROUP <= 9 {
            if stale >> first & group != 0 {
                progress |= self.stack_and_columns::<K::Group>(first, &mut singles)?;
            }
            first += K::GROUP;
        }
        for digit in first..9 {
            if stale >> digit & 1 != 0 {
                progress |= self.stack_and_columns::<u32>(digit, &mut singles)?;
            }
        }
        self.place_column_singles::<K>(&singles, progress)
    }

    /// [`stack_rule`] and [`column_singles`] for the digits of a `W` from
    /// `first`: stores their masks and the singles found. `None` on a
    /// contradiction, else whether a mask changed.
    #[inline(always)]
    fn stack_and_columns<W: Word>(&mut self, first: usize, singles: &mut [u32; 9]) -> Option<bool> {
        let masks = [
            W::load(&self.cand[0][first..]),
            W::load(&self.cand[1][first..]),
            W::load(&self.cand[2][first..]),
        ];
        let (kept, stuck) = stack_rule(masks);
        if stuck.differs(W::splat(0)) != 0 {
            return None;
        }
        let mut changed = false;
        for band in 0..3 {
            let lanes = kept[band].differs(masks[band]);
            if lanes != 0 {
                kept[band].store(&mut self.cand[band][first..]);
                self.dirty |= u64::from(lanes) << (16 * band + first);
                changed = true;
            }
        }
        column_singles(kept, self.unsolved).store(&mut singles[first..]);
        Some(changed)
    }

    /// Places the column singles found by [`Grid::stack_and_columns`].
    #[inline(always)]
    fn place_column_singles<K: Kernels>(
        &mut self,
        singles: &[u32; 9],
        progress: bool,
    ) -> Option<bool> {
        let mut progress = progress;
        for (digit, &singles) in singles.iter().enumerate() {
            let mut singles = singles;
            progress |= singles != 0;
            while singles != 0 {
                let col = singles.trailing_zeros();
                singles &= singles - 1;
                // A placement earlier in this pass may have taken the cell,
                // leaving the digit no room in this column. (At a fixpoint
                // a column where the digit is placed has no open cell left
                // for it, so every column found still needs it.)
                let cell = |b: usize| self.cand[b][digit] & self.unsolved[b] & SPREAD << col;
                let cells =
                    u128::from(cell(0)) | u128::from(cell(1)) << 27 | u128::from(cell(2)) << 54;
                if cells == 0 {
                    return None;
                }
                self.assign::<K>(digit, cells.trailing_zeros() as usize);
            }
        }
        Some(progress)
    }

    /// Runs the rules to a fixpoint; `None` on a contradiction, else the
    /// bivalue cells of each band at the fixpoint (for
    /// [`Grid::branch_cell`]; meaningless once the grid is solved).
    ///
    /// Every rule only removes candidates and stays valid as others go, so
    /// the fixpoint does not depend on the order the rules run in:
    /// reordering them changes the time, never a result. The band rule runs
    /// first, on the masks changed since it last ran; the others run when it
    /// is quiet: the column pass for the digits whose masks changed, the
    /// triad rule for the bands that changed, the costliest last.
    #[inline(always)]
    pub(super) fn propagate<K: Kernels>(&mut self) -> Option<[u32; 3]> {
        let mut pairs = [0; 3];
        // Bands changed since the triad rule last looked at them.
        let mut fresh = 0;
        loop {
            let dirty = std::mem::take(&mut self.dirty);
            if dirty != 0 {
                let seen = K::band_rules(self, dirty)?;
                // Every digit whose masks the band rule saw is due for the
                // column pass, every band for the triad rule.
                self.stale |= (seen | seen >> 16 | seen >> 32) as u32 & NINE;
                fresh |= u32::from(seen & u64::from(NINE) != 0)
                    | u32::from(seen & u64::from(NINE) << 16 != 0) << 1
                    | u32::from(seen & u64::from(NINE) << 32 != 0) << 2;
            }
            if self.is_solved() {
                return Some(pairs);
            }
            if !K::ALL_BUT_TRIADS {
                if self.naked_singles::<K>(&mut pairs)? {
                    continue;
                }
                if self.column_pass::<K>()? {
                    continue;
                }
            }
            if fresh != 0 && self.triad_rule::<K>(std::mem::take(&mut fresh))? {
                continue;
            }
            if K::ALL_BUT_TRIADS {
                return Some(self.pairs::<K>());
            }
            // No rule changed anything since `naked_singles` counted the
            // candidates: its pairs are the fixpoint's.
            return Some(pairs);
        }
    }

    /// Each band's open cells with exactly two candidates.
    #[inline(always)]
    fn pairs<K: Kernels>(&self) -> [u32; 3] {
        let mut pairs = [0; 3];
        for (band, pairs) in pairs.iter_mut().enumerate() {
            let (_, twice, thrice) = K::counts(&self.cand[band]);
            *pairs = self.unsolved[band] & twice & !thrice;
        }
        pairs
    }

    /// The triad rule on the bands in `bands` (bit per band). `None` on a
    /// contradiction, else whether anything changed.
    ///
    /// A mini-row or mini-column holds three distinct digits. So when
    /// exactly three digits still have a candidate in it, each must go
    /// there and leaves the rest of its box and of its row or column; when
    /// exactly three are confined to it (none left elsewhere in its box),
    /// no other digit can go there. Fewer than three left, or more than
    /// three confined, is a contradiction. The counts come from
    /// [`Kernels::triad_counts`]; the rule only takes the slower path that
    /// removes candidates when it is certain to remove some.
    #[inline(always)]
    pub(super) fn triad_rule<K: Kernels>(&mut self, bands: u32) -> Option<bool> {
        let mut progress = false;
        for band in 0..3 {
            if bands >> band & 1 == 0 {
                continue;
            }
            let [rows3, rows4, cols3, cols4] = K::triad_counts(&self.cand[band]);
            if (!rows3 & MINIROWS) | (rows4 & MINIROWS << 1) | (!cols3 & NINE) | (cols4 & NINE << 9)
                != 0
            {
                return None;
            }
            // Exactly three present with fewer than three confined, or
            // exactly three confined with a fourth present.
            let (rows, cols) = (rows3 & !rows4, cols3 & !cols4);
            let triads = Triads {
                rows_present: rows & !(rows >> 1) & MINIROWS,
                rows_confined: rows >> 1 & rows4 & MINIROWS,
                cols_present: cols & !(cols >> 9) & NINE,
                cols_confined: cols >> 9 & cols4 & NINE,
            };
            if triads.rows_present
                | triads.rows_confined
                | triads.cols_present
                | triads.cols_confined
                != 0
            {
                self.apply_triads(band, &triads);
                progress = true;
            }
        }
        Some(progress)
    }

    /// Removes what [`Grid::triad_rule`] found in `band`; rare enough to
    /// stay out of line.
    #[inline(never)]
    fn apply_triads(&mut self, band: usize, triads: &Triads) {
        let (b1, b2) = other_bands(band);
        let mut dirty = 0;
        for digit in 0..9 {
            let old = self.cand[band][digit];
            let mut mask = old;
            let word = minirow_word(old);
            let (present, confined) = (word & MINIROWS, word >> 1 & MINIROWS);
            let mut gains = triads.rows_present & present & !confined;
            while gains != 0 {
                let m = gains.trailing_zeros() / 3;
                gains &= gains - 1;
                // The rest of the mini-row's row and box.
                let (row, boxed) = (NINE << (9 * (m / 3)), (7 << (3 * (m % 3))) * SPREAD);
                mask &= !((row | boxed) & !(7 << (3 * m)));
            }
            let mut losses = triads.rows_confined & present & !confined;
            while losses != 0 {
                mask &= !(7 << losses.trailing_zeros());
                losses &= losses - 1;
            }
            let word = minicol_word(old);
            let (present, confined) = (word & NINE, word >> 9 & NINE);
            let mut gains = triads.cols_present & present & !confined;
            let mut column = 0;
            while gains != 0 {
                let col = gains.trailing_zeros();
                gains &= gains - 1;
                // The rest of the box here, the column in the other bands.
                mask &= !(((7 << (3 * (col / 3))) & !(1 << col)) * SPREAD);
                column |= SPREAD << col;
            }
            mask &= !((triads.cols_confined & present & !confined) * SPREAD);
            self.cand[band][digit] = mask;
            dirty |= u64::from(mask != old) << (16 * band + digit);
            if column != 0 {
                dirty |= self.clear(b1, digit, column) | self.clear(b2, digit, column);
            }
        }
        self.dirty |= dirty;
        self.stale |= (dirty | dirty >> 16 | dirty >> 32) as u32 & NINE;
    }

    /// The candidates of `pos` as a 9-bit mask.
    #[inline(always)]
    pub(super) fn digits_at<K: Kernels>(&self, pos: usize) -> u32 {
        K::column(&self.cand[pos / 27], (pos % 27) as u32)
    }

    /// The solved grid, row-major digits 1..=9.
    #[inline(always)]
    pub(super) fn cells(&self) -> [u8; 81] {
        let mut cells = [0; 81];
        for (band, masks) in self.cand.iter().enumerate() {
            for (digit, &mask) in (1..).zip(masks) {
                let mut mask = mask;
                while mask != 0 {
                    cells[27 * band + mask.trailing_zeros() as usize] = digit;
                    mask &= mask - 1;
                }
            }
        }
        cells
    }
}
