//! Where the search guesses once the rules stall: the bivalue cell whose two
//! digits both reach the most, or, without one, a digit's two ways through
//! a band or stack (after tdoku), or the first cell with the fewest
//! candidates. The choice decides how many guesses a puzzle takes; the
//! measurements behind it are in docs/solvers.md.

use super::bits::{way_words, Word};
use super::grid::Grid;
use super::grid::Kernels;
use super::tables::{other_bands, split, BAND, COLUMN, PEERS, SPREAD};

/// A digit and, for each of its two ways, the masks to AND into its three
/// bands (see [`Grid::band_branch`]).
pub(super) type Ways = (usize, [[u32; 3]; 2]);

impl Grid {
    /// The branch taken when no cell is bivalue, after tdoku: among the
    /// three bands and three stacks not yet settled, the one with the
    /// fewest ways left over all digits (see [`way_words`]; ties to the
    /// bands first, then in order), and in it the lowest digit with exactly
    /// two ways left; `None` when that band or stack has no such digit. At
    /// limit 2 this takes 3-7% fewer guesses on the forum sets than the
    /// cell with the fewest candidates.
    #[inline(always)]
    pub(super) fn band_branch<K: Kernels>(&self) -> Option<Ways> {
        let (mut rows, mut stacks) = ([0; 9], [0; 9]);
        let mut first = 0;
        while first + K::GROUP <= 9 {
            self.ways::<K::Group>(first, &mut rows, &mut stacks);
            first += K::GROUP;
        }
        for digit in first..9 {
            self.ways::<u32>(digit, &mut rows, &mut stacks);
        }
        // Ways per band (bytes 0..3) and stack (bytes 4..7), per digit and
        // in all, counted a byte at a time.
        let mut counts = [0u64; 9];
        let mut totals = 0;
        for (count, (&rows, &stacks)) in counts.iter_mut().zip(rows.iter().zip(&stacks)) {
            let w = u64::from(rows) | u64::from(stacks) << 32;
            let w = w - (w >> 1 & 0x5555_5555_5555_5555);
            let w = (w & 0x3333_3333_3333_3333) + (w >> 2 & 0x3333_3333_3333_3333);
            *count = (w + (w >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
            totals += *count;
        }
        // The fewest ways, then the first byte; a band or stack with one
        // way per digit (9 in all) is settled.
        let mut best = u64::MAX;
        for byte in [0, 1, 2, 4, 5, 6] {
            let total = totals >> (8 * byte) & 0xFF;
            if total > 9 {
                best = best.min(total << 3 | byte);
            }
        }
        if best == u64::MAX {
            return None;
        }
        let byte = (best & 7) as u32;
        let digit = counts
            .iter()
            .position(|&count| count >> (8 * byte) & 0xFF == 2)?;
        let (ways, stack) = if byte < 3 {
            (rows[digit] >> (8 * byte) & 0xFF, None)
        } else {
            (stacks[digit] >> (8 * (byte - 4)) & 0xFF, Some(byte - 4))
        };
        let masks = |bit: u32| way_masks(bit, byte, stack);
        Some((
            digit,
            [
                masks(ways.trailing_zeros()),
                masks(31 - ways.leading_zeros()),
            ],
        ))
    }

    /// [`way_words`] for the digits of a `W` from `first`.
    #[inline(always)]
    fn ways<W: Word>(&self, first: usize, rows: &mut [u32; 9], stacks: &mut [u32; 9]) {
        let masks = [
            W::load(&self.cand[0][first..]),
            W::load(&self.cand[1][first..]),
            W::load(&self.cand[2][first..]),
        ];
        let (r, s) = way_words(masks);
        r.store(&mut rows[first..]);
        s.store(&mut stacks[first..]);
    }

    /// Keeps `digit` to `masks` in each band (one of the ways
    /// [`Grid::band_branch`] found).
    #[inline(always)]
    pub(super) fn restrict(&mut self, digit: usize, masks: [u32; 3]) {
        for (cand, mask) in self.cand.iter_mut().zip(masks) {
            cand[digit] &= mask;
        }
        self.dirty |= (1 | 1 << 16 | 1 << 32) << digit;
        self.stale |= 1 << digit;
    }

    /// The cell to branch on, its candidates, and whether to try the
    /// highest one first. Only called on an unsolved grid at a fixpoint,
    /// where every open cell has two or more; `pairs` are the bivalue
    /// cells the last pass of [`Grid::propagate`] counted.
    ///
    /// Among the bivalue cells it takes the one whose two branches both
    /// start with the most to propagate: each digit scores the peers that
    /// still hold it (the candidates placing it removes), a peer with two
    /// candidates counting three times (placing the digit leaves it a
    /// naked single), and the cell with the largest product of its two
    /// scores wins. Ties go to the first cell in row-major order. The digit
    /// with the larger score is tried first (the lower one on a tie); the
    /// order never changes how many guesses a full count takes. Without a
    /// bivalue cell, the first cell with the fewest candidates, lowest
    /// digit first.
    ///
    /// `grading` takes the choice `graded_search` pins instead: the
    /// largest minimum of the plain peer counts, the larger count's digit
    /// first.
    #[inline(always)]
    pub(super) fn branch_cell<K: Kernels>(
        &self,
        pairs: [u32; 3],
        grading: bool,
    ) -> (usize, u32, bool) {
        // Largest score, then smallest position: `(score << 7 | (127 -
        // pos)) << 1 | high_first`, maximised without a branch (positions
        // differ, so the last bit never decides); 0 while there is none.
        // A digit scores at most 60 (20 peers), so the key fits in 20 bits.
        let mut best = 0;
        for (band, &band_pairs) in pairs.iter().enumerate() {
            let masks = &self.cand[band];
            let mut open = band_pairs;
            let (b1, b2) = other_bands(band);
            while open != 0 {
                let i = open.trailing_zeros();
                open &= open - 1;
                let pos = 27 * band + i as usize;
                let own = PEERS[pos][band];
                // In the other two bands the peers are the cell's column.
                let col = COLUMN[i as usize];
                // The peers in one 64-bit word: own band in bits 0..27, the
                // column in the other bands in bits 27.. (the second band
                // shifted by one so the two do not overlap).
                let word = |near: u32, far1: u32, far2: u32| {
                    u64::from(near & own) | u64::from(far1 & col | (far2 & col) << 1) << 27
                };
                let bivalue = word(band_pairs, pairs[b1], pairs[b2]);
                let digits = K::column(masks, i);
                // Exactly two digits. At a fixpoint only open peers can
                // still hold one.
                let score = |digit: usize| {
                    let holding = word(masks[digit], self.cand[b1][digit], self.cand[b2][digit]);
                    if grading {
                        holding.count_ones()
                    } else {
                        holding.count_ones() + 2 * (holding & bivalue).count_ones()
                    }
                };
                let low = score(digits.trailing_zeros() as usize);
                let high = score(31 - digits.leading_zeros() as usize);
                let score = if grading {
                    low.min(high) + 1
                } else {
                    (low + 1) * (high + 1)
                };
                let key = score << 7 | (127 - pos as u32);
                best = best.max(key << 1 | u32::from(high > low));
            }
        }
        if best != 0 {
            let pos = 127 - (best >> 1 & 127) as usize;
            return (pos, self.digits_at::<K>(pos), best & 1 != 0);
        }
        let mut fewest = (0, 0, u32::MAX);
        for pos in 0..81 {
            let (band, bit) = split(pos);
            if self.unsolved[band] & bit != 0 {
                let digits = self.digits_at::<K>(pos);
                if digits.count_ones() < fewest.2 {
                    fewest = (pos, digits, digits.count_ones());
                }
            }
        }
        (fewest.0, fewest.1, false)
    }
}

/// The masks of way `bit` (see [`way_words`]) through band `byte`, or
/// through stack `stack` when there is one: which box (or column of the
/// stack) each row (or band) takes.
fn way_masks(bit: u32, byte: u32, stack: Option<u32>) -> [u32; 3] {
    let (k, odd) = match stack {
        None => (bit / 3, bit % 3 == 1),
        Some(_) => (bit % 3, bit >= 3),
    };
    let step = if odd { 2 } else { 1 };
    let takes = [k, (k + step) % 3, (k + 2 * step) % 3];
    let mut masks = [BAND; 3];
    match stack {
        None => {
            masks[byte as usize] =
                7 << (3 * takes[0]) | 7 << (9 + 3 * takes[1]) | 7 << (18 + 3 * takes[2]);
        }
        Some(stack) => {
            for (mask, k) in masks.iter_mut().zip(takes) {
                let others = (7 << (3 * stack)) & !(1 << (3 * stack + k));
                *mask = BAND & !(others * SPREAD);
            }
        }
    }
    masks
}
