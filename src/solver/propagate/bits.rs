//! Bit arithmetic on band masks that is written once and runs on one digit
//! (`u32`) or on eight digits in lock step (an AVX2 register, through
//! [`Word`]): the stack rule and hidden singles in columns, the words the
//! triad rule counts, and the ways a digit can still go through a band or a
//! stack. Written once, the portable and SIMD copies cannot drift apart.

use super::tables::{BAND, MINIROWS, NINE};

/// A bundle of masks handled in lock step: one digit's (`u32`) or four or
/// eight consecutive digits' (an AVX2 register).
pub(super) trait Word: Copy {
    fn splat(x: u32) -> Self;
    /// `LANES` masks from the front of `masks`.
    fn load(masks: &[u32]) -> Self;
    fn store(self, masks: &mut [u32]);
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    /// Bit `lane` set where `self` and `other` differ.
    fn differs(self, other: Self) -> u32;
}

impl Word for u32 {
    #[inline(always)]
    fn splat(x: u32) -> Self {
        x
    }
    #[inline(always)]
    fn load(masks: &[u32]) -> Self {
        masks[0]
    }
    #[inline(always)]
    fn store(self, masks: &mut [u32]) {
        masks[0] = self;
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        self & !other
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        self >> N
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        self << N
    }
    #[inline(always)]
    fn differs(self, other: Self) -> u32 {
        u32::from(self != other)
    }
}

/// The stack rule on the masks of one or more digits, one per band: the
/// band rule turned sideways, with bands for rows and the columns of a
/// stack for boxes. Returns the masks without the columns that lie on no
/// permutation, and a value with a bit set in a lane whose digit cannot
/// fit some stack at all.
#[inline(always)]
pub(super) fn stack_rule<W: Word>(masks: [W; 3]) -> ([W; 3], W) {
    // Plain calls rather than closures and array maps throughout: in the
    // x86-64-v3 copy everything here must inline down to the AVX2
    // instructions, and closures are left to the optimizer's judgement.
    let cols = [columns(masks[0]), columns(masks[1]), columns(masks[2])];
    let (n, a) = (
        [next(cols[0]), next(cols[1]), next(cols[2])],
        [after(cols[0]), after(cols[1]), after(cols[2])],
    );
    // A column of a band lies on a permutation when the other two bands
    // can take the stack's other two columns, one each.
    let keep = [
        cols[0].and(n[1].and(a[2]).or(a[1].and(n[2]))),
        cols[1].and(n[2].and(a[0]).or(a[2].and(n[0]))),
        cols[2].and(n[0].and(a[1]).or(a[0].and(n[1]))),
    ];
    // With no permutation in a stack, band 0 keeps none of its columns.
    let any = keep[0].or(keep[0].shr::<1>()).or(keep[0].shr::<2>());
    let stuck = W::splat(0o111).and_not(any);
    (
        [
            masks[0].and(spread(keep[0])),
            masks[1].and(spread(keep[1])),
            masks[2].and(spread(keep[2])),
        ],
        stuck,
    )
}

/// Bit `3 * stack + k`: column `3 * stack + k` of the band holds the digit.
#[inline(always)]
pub(super) fn columns<W: Word>(mask: W) -> W {
    mask.or(mask.shr::<9>())
        .or(mask.shr::<18>())
        .and(W::splat(NINE))
}

/// Each column's neighbour in its stack: bit `k` gets the bit of column
/// `k + 1` (mod 3, within each stack).
#[inline(always)]
fn next<W: Word>(cols: W) -> W {
    cols.shr::<1>()
        .and(W::splat(0o333))
        .or(cols.shl::<2>().and(W::splat(0o444)))
}

/// As [`next`], for column `k + 2`.
#[inline(always)]
fn after<W: Word>(cols: W) -> W {
    cols.shr::<2>()
        .and(W::splat(0o111))
        .or(cols.shl::<1>().and(W::splat(0o666)))
}

/// A 9-bit column set copied to the three rows of a band.
#[inline(always)]
fn spread<W: Word>(cols: W) -> W {
    cols.or(cols.shl::<9>()).or(cols.shl::<18>())
}

/// For a digit's mask in a band: bit `3 * m` set if mini-row `m` holds a
/// candidate.
#[inline(always)]
fn minirows_present<W: Word>(mask: W) -> W {
    mask.or(mask.shr::<1>())
        .or(mask.shr::<2>())
        .and(W::splat(MINIROWS))
}

/// For a digit's mask in a band: bit `3 * m` set if mini-row `m` holds a
/// candidate, bit `3 * m + 1` if it holds all of its box's candidates (the
/// digit is confined to the mini-row).
#[inline(always)]
pub(super) fn minirow_word<W: Word>(mask: W) -> W {
    let present = minirows_present(mask);
    // The same box's other two rows: `present` rotated by 9 and 18 bits.
    let others = present
        .shl::<9>()
        .or(present.shl::<18>())
        .and(W::splat(BAND))
        .or(present.shr::<9>())
        .or(present.shr::<18>());
    present.or(present.and_not(others).shl::<1>())
}

/// For a digit's mask in a band: bit `col` set if that column of the band
/// (a mini-column) holds a candidate, bit `9 + col` if it holds all of its
/// box's candidates.
#[inline(always)]
pub(super) fn minicol_word<W: Word>(mask: W) -> W {
    let cols = columns(mask);
    cols.or(cols.and_not(next(cols).or(after(cols))).shl::<9>())
}

/// For a digit's masks in the three bands (one lane per digit): the ways
/// it can still go through each band and each stack. A way through a band
/// is a mini-row in each of its rows, one in each box: a permutation,
/// "even" when row `r` takes box `k + r` (mod 3), "odd" when it takes box
/// `k - r`, for `k` the box of row 0. Byte `b` of the first word holds
/// band `b`'s ways, bit `3k` the even one from box `k`, bit `3k + 1` the
/// odd one; byte `s` of the second holds stack `s`'s, the bands taking its
/// columns, bit `k` the even one from column `k`, bit `3 + k` the odd one.
#[inline(always)]
pub(super) fn way_words<W: Word>(masks: [W; 3]) -> (W, W) {
    /// Mini-row bits `3k` of one row (bits 0, 3, 6), rotated by one and
    /// two boxes: bit `3k` gets box `k + 1`, or `k + 2`.
    #[inline(always)]
    fn box_after<W: Word>(r: W) -> W {
        r.shr::<3>().or(r.shl::<6>()).and(W::splat(0o111))
    }
    #[inline(always)]
    fn box_before<W: Word>(r: W) -> W {
        r.shr::<6>().or(r.shl::<3>()).and(W::splat(0o111))
    }
    #[inline(always)]
    fn band_ways<W: Word>(mask: W) -> W {
        let present = minirows_present(mask);
        let rows = [
            present.and(W::splat(0o111)),
            present.shr::<9>().and(W::splat(0o111)),
            present.shr::<18>(),
        ];
        let even = rows[0].and(box_after(rows[1])).and(box_before(rows[2]));
        let odd = rows[0].and(box_before(rows[1])).and(box_after(rows[2]));
        even.or(odd.shl::<1>())
    }
    let rows = band_ways(masks[0])
        .or(band_ways(masks[1]).shl::<8>())
        .or(band_ways(masks[2]).shl::<16>());
    let cols = [columns(masks[0]), columns(masks[1]), columns(masks[2])];
    // Bit `3s + k`: the way from column `k` of stack `s`.
    let even = cols[0].and(next(cols[1])).and(after(cols[2]));
    let odd = cols[0].and(after(cols[1])).and(next(cols[2]));
    let stacks = even
        .and(W::splat(0o7))
        .or(odd.and(W::splat(0o7)).shl::<3>())
        .or(even.and(W::splat(0o70)).shl::<5>())
        .or(odd.and(W::splat(0o70)).shl::<8>())
        .or(even.and(W::splat(0o700)).shl::<10>())
        .or(odd.and(W::splat(0o700)).shl::<13>());
    (rows, stacks)
}

/// Adds `word` to counters of how many words hold each bit, saturating at
/// four: `c[k]` holds the bits seen at least `k + 1` times.
#[inline(always)]
pub(super) fn count_in(c: &mut [u32; 4], word: u32) {
    c[3] |= c[2] & word;
    c[2] |= c[1] & word;
    c[1] |= c[0] & word;
    c[0] |= word;
}

/// Counters as [`count_in`] keeps them, of two disjoint sets of words,
/// merged.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn merge_counts<W: Word>(a: [W; 4], b: [W; 4]) -> [W; 4] {
    [
        a[0].or(b[0]),
        a[1].or(b[1]).or(a[0].and(b[0])),
        a[2].or(b[2]).or(a[1].and(b[0])).or(a[0].and(b[1])),
        a[3].or(b[3])
            .or(a[2].and(b[0]))
            .or(a[1].and(b[1]))
            .or(a[0].and(b[2])),
    ]
}

/// Hidden singles in columns: per lane, the columns where the digit has
/// exactly one open cell left.
#[inline(always)]
pub(super) fn column_singles<W: Word>(masks: [W; 3], unsolved: [u32; 3]) -> W {
    let nine = W::splat(NINE);
    let (mut once, mut twice) = (W::splat(0), W::splat(0));
    for band in 0..3 {
        let open = masks[band].and(W::splat(unsolved[band]));
        for row in [open.and(nine), open.shr::<9>().and(nine), open.shr::<18>()] {
            twice = twice.or(once.and(row));
            once = once.or(row);
        }
    }
    once.and_not(twice)
}
