//! The rules of the search's AVX-512 copy but triads, over all 27 masks
//! at once. The other copies run the band rule one mask at a time, on the
//! masks changed since it last ran ([`Grid::band_rules`]), then naked singles
//! and the column pass band by band or digit by digit; here the 27 masks
//! sit in two 512-bit registers, and each round runs the band rule on all of
//! them, looks for naked singles, places what both found, and repeats until
//! a round places nothing; then the stack rule and hidden singles in
//! columns run, and what they find goes back to the band rule. Only the
//! triad rule is left to the search ([`Grid::propagate`]). Every rule removes
//! only what the others would, so the fixpoint, and every guess, is the
//! same as in the other copies; the tests compare them puzzle by puzzle.
//! What it gains on an Intel Xeon with AVX-512 over the AVX2 copy:
//! docs/solvers.md.
//!
//! Lane `9 * band + digit` of the pair of registers is that mask: the
//! grid's first 32 words (see `Grid`), so lanes 27..29 hold `unsolved` and
//! 30..31 `dirty`, which every step below either ignores or keeps.
//! A band's nine lanes are a segment; its cells are `u` (unsolved), one
//! copy per lane.

use std::arch::x86_64::{
    __m512i, __mmask16, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_cmpneq_epi32_mask, _mm512_loadu_si512, _mm512_mask_blend_epi32,
    _mm512_mask_cmpneq_epi32_mask, _mm512_mask_or_epi32, _mm512_mask_test_epi32_mask,
    _mm512_mask_testn_epi32_mask, _mm512_maskz_alignr_epi32, _mm512_maskz_mov_epi32,
    _mm512_maskz_permutex2var_epi32, _mm512_maskz_ternarylogic_epi32, _mm512_or_si512,
    _mm512_permutex2var_epi32, _mm512_set1_epi32, _mm512_setr_epi32, _mm512_setzero_si512,
    _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_ternarylogic_epi32, _mm512_test_epi32_mask, _mm512_testn_epi32_mask,
};

use super::grid::Grid;
use super::tables::{BAND, NINE, SPREAD};

type V = __m512i;

/// What [`naked_singles`] and [`columns`] found: the masks with the rest of
/// each single's row gone, and the singles, to place (none when only the
/// stack rule changed the masks).
type Found = ((V, V), (V, V));

// `_mm512_ternarylogic_epi32` truth tables, for operands A, B, C.
/// `(A | B) & C`.
const OR_AND: i32 = 0xA8;
/// `A | B | C`.
const OR3: i32 = 0xFE;
/// `A ? B : C`, bit by bit.
const SELECT: i32 = 0xCA;
/// `A | (B & C)`.
const OR_ANDBC: i32 = 0xF8;
/// `A & B & C`.
const AND3: i32 = 0x80;
/// At least two of three.
const MAJORITY: i32 = 0xE8;
/// `A & !(B & !C)`.
const CLEAR_OTHERS: i32 = 0xB0;
/// `A & !(B | C)`.
const AND_NOR: i32 = 0x10;
/// `A & B & !C`.
const ONLY_AB: i32 = 0x40;

/// The lanes of the second register that are masks (grid lanes 16..27).
const HIGH_MASKS: __mmask16 = 0x07FF;

/// The lanes of register `high` (grid lanes `16 * high..`) whose lane
/// `shift` below lies in the same band: where a move up by `shift` lanes
/// stays inside a segment.
const fn inside(shift: usize, high: bool) -> __mmask16 {
    let mut mask = 0;
    let mut l = 0;
    while l < 16 {
        let lane = if high { l + 16 } else { l };
        if lane >= shift && lane < 27 && (lane - shift) / 9 == lane / 9 {
            mask |= 1 << l;
        }
        l += 1;
    }
    mask
}

/// The 32 lanes moved up by `$shift` within each segment, zeros in; the
/// immediate is `16 - $shift`.
macro_rules! up {
    ($x:expr, $shift:literal, $imm:literal) => {{
        let (x0, x1) = $x;
        (
            _mm512_maskz_alignr_epi32::<$imm>(inside($shift, false), x0, _mm512_setzero_si512()),
            _mm512_maskz_alignr_epi32::<$imm>(inside($shift, true), x1, x0),
        )
    }};
}

/// Each row's mini-row flags (bits `3m + 2`) replaced by the next row's,
/// rows rotating within the band.
#[target_feature(enable = "avx512f")]
#[inline]
fn next_row(x: V) -> V {
    let band = _mm512_set1_epi32(BAND as i32);
    _mm512_ternarylogic_epi32::<OR_AND>(_mm512_srli_epi32::<9>(x), _mm512_slli_epi32::<18>(x), band)
}

/// As [`next_row`], by two rows.
#[target_feature(enable = "avx512f")]
#[inline]
fn after_row(x: V) -> V {
    let band = _mm512_set1_epi32(BAND as i32);
    _mm512_ternarylogic_epi32::<OR_AND>(_mm512_srli_epi32::<18>(x), _mm512_slli_epi32::<9>(x), band)
}

/// Mini-row flags at bits `3m + 2`: box `k` gets box `k + 1`'s flag.
#[target_feature(enable = "avx512f")]
#[inline]
fn next_box(x: V) -> V {
    let boxes = _mm512_set1_epi32(0o044_044_044);
    _mm512_ternarylogic_epi32::<SELECT>(boxes, _mm512_srli_epi32::<3>(x), _mm512_slli_epi32::<6>(x))
}

/// The band rule's filter on 16 masks: the masks without the mini-rows on
/// no permutation (see [`Grid::band_rule`]), and the mini-rows kept, as flags
/// at bits `3m + 2`: none in a lane means its digit cannot fit the band.
#[target_feature(enable = "avx512f")]
#[inline]
fn filter(m: V) -> (V, V) {
    let low = _mm512_set1_epi32(0o333_333_333);
    // (m & 3) + 3 sets bit 2 of a mini-row exactly when its two low cells
    // hold one; OR-ing the mask adds the third.
    let p = _mm512_ternarylogic_epi32::<OR_AND>(
        _mm512_add_epi32(_mm512_and_si512(m, low), low),
        m,
        _mm512_set1_epi32(0o444_444_444),
    );
    // Mini-row (r, k) lies on a permutation when rows r + 1 and r + 2 can
    // take boxes k + 1 and k + 2, one each: with y and z those rows,
    // y(k + 1) z(k + 2) | y(k + 2) z(k + 1), which is next_box of
    // y & next_box(z) | next_box(y) & z.
    let (y, z) = (next_row(p), after_row(p));
    let t = _mm512_and_si512(y, next_box(z));
    let w = _mm512_ternarylogic_epi32::<OR_ANDBC>(t, next_box(y), z);
    let keep = _mm512_and_si512(p, next_box(w));
    // A flag at 3m + 2 times 7/4: the mini-row's three cells.
    let cells = _mm512_sub_epi32(_mm512_add_epi32(keep, keep), _mm512_srli_epi32::<2>(keep));
    (_mm512_and_si512(m, cells), keep)
}

/// The cells of `m`'s rows that have only one, where still open (`u`): the
/// digits the band rule places.
#[target_feature(enable = "avx512f")]
#[inline]
fn lone(m: V, u: V) -> V {
    // Each row of m & (m - 1) is empty exactly when the row has at most one
    // cell (after the filter every row of a live mask has one).
    let z = _mm512_and_si512(m, _mm512_sub_epi32(m, _mm512_set1_epi32(SPREAD as i32)));
    let rows = [
        _mm512_set1_epi32(0o000_000_777),
        _mm512_set1_epi32(0o000_777_000),
        _mm512_set1_epi32(0o777_000_000),
    ];
    let r = _mm512_maskz_mov_epi32(_mm512_testn_epi32_mask(z, rows[0]), rows[0]);
    let r = _mm512_mask_or_epi32(r, _mm512_testn_epi32_mask(z, rows[1]), r, rows[1]);
    let r = _mm512_mask_or_epi32(r, _mm512_testn_epi32_mask(z, rows[2]), r, rows[2]);
    _mm512_ternarylogic_epi32::<AND3>(m, r, u)
}

/// Each lane's band's value at the segment's last lane (8, 17 or 26),
/// copied to the band's nine lanes.
#[target_feature(enable = "avx512f")]
#[inline]
fn band_total(x: (V, V)) -> (V, V) {
    let low = _mm512_setr_epi32(8, 8, 8, 8, 8, 8, 8, 8, 8, 17, 17, 17, 17, 17, 17, 17);
    let high = _mm512_setr_epi32(
        17, 17, 26, 26, 26, 26, 26, 26, 26, 26, 26, 31, 31, 31, 31, 31,
    );
    (
        _mm512_permutex2var_epi32(x.0, low, x.1),
        _mm512_maskz_permutex2var_epi32(HIGH_MASKS, x.0, high, x.1),
    )
}

/// Places the cells `p` (each alone in its row of its lane of `n`; the
/// next round's filter clears its box) in their lanes' digits: they leave
/// the band's other digits and `u`, and their columns leave the digit in
/// the other two bands. `None` when two digits took one cell.
#[target_feature(enable = "avx512f")]
#[inline]
fn place(n: (V, V), p: (V, V), u: &mut (V, V)) -> Option<(V, V)> {
    // The band's placements, OR-ed up each segment: lanes one and two
    // below, then three and six below; what lies below a lane, checked
    // against it, finds two digits in one cell.
    let (a, b) = (up!(p, 1, 15), up!(p, 2, 14));
    let s0 = _mm512_ternarylogic_epi32::<OR3>(p.0, a.0, b.0);
    let s1 = _mm512_ternarylogic_epi32::<OR3>(p.1, a.1, b.1);
    let (c, d) = (up!((s0, s1), 3, 13), up!((s0, s1), 6, 10));
    let s = (
        _mm512_ternarylogic_epi32::<OR3>(s0, c.0, d.0),
        _mm512_ternarylogic_epi32::<OR3>(s1, c.1, d.1),
    );
    let below = up!(s, 1, 15);
    if _mm512_test_epi32_mask(below.0, p.0) | _mm512_test_epi32_mask(below.1, p.1) != 0 {
        return None;
    }
    let t = band_total(s);
    let n0 = _mm512_ternarylogic_epi32::<CLEAR_OTHERS>(n.0, t.0, p.0);
    let n1 = _mm512_ternarylogic_epi32::<CLEAR_OTHERS>(n.1, t.1, p.1);
    *u = (_mm512_andnot_si512(t.0, u.0), _mm512_andnot_si512(t.1, u.1));
    // The placed cells' columns in all three rows (a placement is alone in
    // its row), taken to the same digit's lanes in the other two bands.
    let c0 = _mm512_ternarylogic_epi32::<OR3>(p.0, next_row(p.0), after_row(p.0));
    let c1 = _mm512_ternarylogic_epi32::<OR3>(p.1, next_row(p.1), after_row(p.1));
    let (y, z) = (to_next_band((c0, c1)), to_after_band((c0, c1)));
    Some((
        _mm512_ternarylogic_epi32::<AND_NOR>(n0, y.0, z.0),
        _mm512_maskz_ternarylogic_epi32::<AND_NOR>(HIGH_MASKS, n1, y.1, z.1),
    ))
}

/// Each mask lane gets the same digit's lane in the next band (band 2's
/// gets band 0's).
#[target_feature(enable = "avx512f")]
#[inline]
fn to_next_band(x: (V, V)) -> (V, V) {
    let low = _mm512_setr_epi32(
        9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
    );
    let high = _mm512_setr_epi32(25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 31, 31, 31, 31, 31);
    (
        _mm512_permutex2var_epi32(x.0, low, x.1),
        _mm512_permutex2var_epi32(x.0, high, x.1),
    )
}

/// As [`to_next_band`], from the band after that.
#[target_feature(enable = "avx512f")]
#[inline]
fn to_after_band(x: (V, V)) -> (V, V) {
    let low = _mm512_setr_epi32(18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6);
    let high = _mm512_setr_epi32(7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 31, 31, 31, 31);
    (
        _mm512_permutex2var_epi32(x.0, low, x.1),
        _mm512_permutex2var_epi32(x.0, high, x.1),
    )
}

/// A 9-bit column set per lane: the columns holding a cell in any of the
/// band's three rows (`OP` = `OR3`) or in at least two (`MAJORITY`).
#[target_feature(enable = "avx512f")]
#[inline]
fn fold_rows<const OP: i32>(x: V) -> V {
    let nine = _mm512_set1_epi32(NINE as i32);
    let folded =
        _mm512_ternarylogic_epi32::<OP>(x, _mm512_srli_epi32::<9>(x), _mm512_srli_epi32::<18>(x));
    _mm512_and_si512(folded, nine)
}

/// The stack rule and hidden singles in columns at the band rule's
/// fixpoint `n` (see `bits::stack_rule` and `bits::column_singles`, which
/// the other copies run): `None` on a contradiction, `Some(None)` when
/// neither finds anything, else the masks with the columns on no
/// permutation gone and the rest of each single's row taken from its
/// digit, and the singles, to place.
#[target_feature(enable = "avx512f")]
#[inline]
#[expect(
    clippy::option_option,
    reason = "a contradiction, nothing, or new masks"
)]
fn columns(n: (V, V), u: (V, V)) -> Option<Option<Found>> {
    // Within a stack, each column's bit replaced by the next column's, or
    // by the one after (bits above 8 are junk, and go with the AND below).
    let next = |c: V| {
        let k = _mm512_set1_epi32(0o333);
        _mm512_ternarylogic_epi32::<SELECT>(k, _mm512_srli_epi32::<1>(c), _mm512_slli_epi32::<2>(c))
    };
    let after = |c: V| {
        let k = _mm512_set1_epi32(0o111);
        _mm512_ternarylogic_epi32::<SELECT>(k, _mm512_srli_epi32::<2>(c), _mm512_slli_epi32::<1>(c))
    };
    // A column of a band lies on a permutation of its stack when the other
    // two bands can take the stack's other two columns, one each.
    let cols = (fold_rows::<OR3>(n.0), fold_rows::<OR3>(n.1));
    let (y, z) = (to_next_band(cols), to_after_band(cols));
    let keep = |c: V, y: V, z: V| {
        let t = _mm512_and_si512(next(y), after(z));
        let w = _mm512_ternarylogic_epi32::<OR_ANDBC>(t, after(y), next(z));
        _mm512_and_si512(c, w)
    };
    let k = (keep(cols.0, y.0, z.0), keep(cols.1, y.1, z.1));
    // Every stack keeps a column in every band of a digit that fits.
    let stacks = _mm512_set1_epi32(0o111);
    let any = |k: V| {
        let all = _mm512_ternarylogic_epi32::<OR3>(
            k,
            _mm512_srli_epi32::<1>(k),
            _mm512_srli_epi32::<2>(k),
        );
        _mm512_and_si512(all, stacks)
    };
    if _mm512_cmpneq_epi32_mask(any(k.0), stacks)
        | _mm512_mask_cmpneq_epi32_mask(HIGH_MASKS, any(k.1), stacks)
        != 0
    {
        return None;
    }
    let spread = |k: V| {
        _mm512_ternarylogic_epi32::<OR3>(k, _mm512_slli_epi32::<9>(k), _mm512_slli_epi32::<18>(k))
    };
    let m = (
        _mm512_and_si512(n.0, spread(k.0)),
        _mm512_and_si512(n.1, spread(k.1)),
    );
    // Per digit, the columns with one open cell over the nine rows: at
    // least once and at least twice per band, then over the three bands.
    let open = (_mm512_and_si512(m.0, u.0), _mm512_and_si512(m.1, u.1));
    let o = (fold_rows::<OR3>(open.0), fold_rows::<OR3>(open.1));
    let t = (fold_rows::<MAJORITY>(open.0), fold_rows::<MAJORITY>(open.1));
    let (oy, oz, ty, tz) = (
        to_next_band(o),
        to_after_band(o),
        to_next_band(t),
        to_after_band(t),
    );
    let single = |o: V, oy: V, oz: V, t: V, ty: V, tz: V| {
        let once = _mm512_ternarylogic_epi32::<OR3>(o, oy, oz);
        let twice = _mm512_or_si512(
            _mm512_ternarylogic_epi32::<OR3>(t, ty, tz),
            _mm512_ternarylogic_epi32::<MAJORITY>(o, oy, oz),
        );
        spread(_mm512_andnot_si512(twice, once))
    };
    let s0 = _mm512_and_si512(open.0, single(o.0, oy.0, oz.0, t.0, ty.0, tz.0));
    let s1 = _mm512_and_si512(open.1, single(o.1, oy.1, oz.1, t.1, ty.1, tz.1));
    if _mm512_test_epi32_mask(s0, s0) | _mm512_test_epi32_mask(s1, s1) == 0 {
        let changed = _mm512_cmpneq_epi32_mask(m.0, n.0)
            | _mm512_mask_cmpneq_epi32_mask(HIGH_MASKS, m.1, n.1);
        let none = (_mm512_setzero_si512(), _mm512_setzero_si512());
        return Some((changed != 0).then_some((m, none)));
    }
    take_rows(m, (s0, s1)).map(Some)
}

/// Naked singles in the band rule's filtered masks `n`: `None` on a cell
/// no digit holds, `Some(None)` when there is no single, else the masks
/// with the rest of each single's row taken from its digit, and the
/// singles, to place.
#[target_feature(enable = "avx512f")]
#[inline]
#[expect(
    clippy::option_option,
    reason = "a contradiction, nothing, or new masks"
)]
fn naked_singles(n: (V, V), u: (V, V)) -> Option<Option<Found>> {
    // Per segment, the cells held at least once and at least twice: three
    // lanes at a time, then three groups of three.
    let (a, b) = (up!(n, 1, 15), up!(n, 2, 14));
    let o = (
        _mm512_ternarylogic_epi32::<OR3>(n.0, a.0, b.0),
        _mm512_ternarylogic_epi32::<OR3>(n.1, a.1, b.1),
    );
    let t = (
        _mm512_ternarylogic_epi32::<MAJORITY>(n.0, a.0, b.0),
        _mm512_ternarylogic_epi32::<MAJORITY>(n.1, a.1, b.1),
    );
    let (oa, ob) = (up!(o, 3, 13), up!(o, 6, 10));
    let (ta, tb) = (up!(t, 3, 13), up!(t, 6, 10));
    let twice = |i: usize, t: V, o: V| {
        let (ta, tb, oa, ob) = if i == 0 {
            (ta.0, tb.0, oa.0, ob.0)
        } else {
            (ta.1, tb.1, oa.1, ob.1)
        };
        _mm512_or_si512(
            _mm512_ternarylogic_epi32::<OR3>(t, ta, tb),
            _mm512_ternarylogic_epi32::<MAJORITY>(o, oa, ob),
        )
    };
    let t = (twice(0, t.0, o.0), twice(1, t.1, o.1));
    let o = (
        _mm512_ternarylogic_epi32::<OR3>(o.0, oa.0, ob.0),
        _mm512_ternarylogic_epi32::<OR3>(o.1, oa.1, ob.1),
    );
    let (once, twice) = (band_total(o), band_total(t));
    let empty = (
        _mm512_andnot_si512(once.0, u.0),
        _mm512_andnot_si512(once.1, u.1),
    );
    if _mm512_test_epi32_mask(empty.0, empty.0)
        | _mm512_mask_test_epi32_mask(HIGH_MASKS, empty.1, empty.1)
        != 0
    {
        return None;
    }
    let s0 = _mm512_and_si512(
        n.0,
        _mm512_ternarylogic_epi32::<ONLY_AB>(u.0, once.0, twice.0),
    );
    let s1 = _mm512_and_si512(
        n.1,
        _mm512_ternarylogic_epi32::<ONLY_AB>(u.1, once.1, twice.1),
    );
    if _mm512_test_epi32_mask(s0, s0) | _mm512_test_epi32_mask(s1, s1) == 0 {
        return Some(None);
    }
    take_rows(n, (s0, s1)).map(Some)
}

/// The masks `n` with the rest of the rows of the cells `s` (at most one a
/// row) taken from their digits, for the band rule to place them; `None`
/// when a digit has two cells of `s` in one row.
#[target_feature(enable = "avx512f")]
#[inline]
fn take_rows(n: (V, V), s: (V, V)) -> Option<Found> {
    let (r0, r1) = (rows_of(s.0), rows_of(s.1));
    let spread = _mm512_set1_epi32(SPREAD as i32);
    let two0 = _mm512_sub_epi32(s.0, _mm512_and_si512(r0, spread));
    let two1 = _mm512_sub_epi32(s.1, _mm512_and_si512(r1, spread));
    if _mm512_test_epi32_mask(s.0, two0) | _mm512_test_epi32_mask(s.1, two1) != 0 {
        return None;
    }
    let n = (
        _mm512_ternarylogic_epi32::<CLEAR_OTHERS>(n.0, r0, s.0),
        _mm512_ternarylogic_epi32::<CLEAR_OTHERS>(n.1, r1, s.1),
    );
    Some((n, s))
}

/// All nine cells of each row of `x` that holds a cell.
#[target_feature(enable = "avx512f")]
#[inline]
fn rows_of(x: V) -> V {
    let rows = [
        _mm512_set1_epi32(0o000_000_777),
        _mm512_set1_epi32(0o000_777_000),
        _mm512_set1_epi32(0o777_000_000),
    ];
    let r = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(x, rows[0]), rows[0]);
    let r = _mm512_mask_or_epi32(r, _mm512_test_epi32_mask(x, rows[1]), r, rows[1]);
    _mm512_mask_or_epi32(r, _mm512_test_epi32_mask(x, rows[2]), r, rows[2])
}

/// Runs the band rule, naked singles, the stack rule and hidden singles in
/// columns on `grid` to a fixpoint: the masks that changed (bit `16 * band + digit`), or `None` on a contradiction.
/// The caller has taken `grid.dirty`: it is stored back as 0.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn band_rules(grid: &mut Grid) -> Option<u64> {
    let words = (grid as *mut Grid).cast::<u32>();
    // SAFETY: the grid is 136 bytes and `repr(C)`, its first 128 the
    // masks, `unsolved` and `dirty` (see the module docs).
    let first = unsafe {
        (
            _mm512_loadu_si512(words.cast()),
            _mm512_loadu_si512(words.add(16).cast()),
        )
    };
    // Each lane's band's unsolved cells, from grid lanes 27..29.
    let mut u = (
        _mm512_permutex2var_epi32(
            first.0,
            _mm512_setr_epi32(
                27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28,
            ),
            first.1,
        ),
        _mm512_maskz_permutex2var_epi32(
            HIGH_MASKS,
            first.0,
            _mm512_setr_epi32(28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 0, 0, 0, 0, 0),
            first.1,
        ),
    );
    let mut m = first;
    loop {
        let ((n0, k0), (n1, k1)) = (filter(m.0), filter(m.1));
        if _mm512_testn_epi32_mask(k0, k0) | _mm512_mask_testn_epi32_mask(HIGH_MASKS, k1, k1) != 0 {
            return None;
        }
        let p = (lone(n0, u.0), lone(n1, u.1));
        // Naked singles are placed in the same round as the band rule's
        // (the rest of each one's row gone, the next round's filter clears
        // its box): 8% faster on the forum sets than only once the band
        // rule is quiet. The column pass each round as well was slower.
        if let Some((n, s)) = naked_singles((n0, n1), u)? {
            m = place(
                n,
                (_mm512_or_si512(p.0, s.0), _mm512_or_si512(p.1, s.1)),
                &mut u,
            )?;
            continue;
        }
        if _mm512_test_epi32_mask(p.0, p.0) | _mm512_test_epi32_mask(p.1, p.1) != 0 {
            m = place((n0, n1), p, &mut u)?;
            continue;
        }
        match columns((n0, n1), u)? {
            Some((n, s)) => m = place(n, s, &mut u)?,
            None => {
                m = (n0, n1);
                break;
            }
        }
    }
    // Grid lanes 27..29 get each band's unsolved cells, 30..31 no dirty
    // masks (the caller took them).
    let tail = _mm512_permutex2var_epi32(
        u.0,
        _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 18, 31, 31),
        u.1,
    );
    // SAFETY: as for the loads.
    unsafe {
        _mm512_storeu_si512(words.cast(), m.0);
        _mm512_storeu_si512(
            words.add(16).cast(),
            _mm512_mask_blend_epi32(!HIGH_MASKS, m.1, tail),
        );
    }
    let changed = u64::from(_mm512_cmpneq_epi32_mask(m.0, first.0))
        | u64::from(_mm512_mask_cmpneq_epi32_mask(HIGH_MASKS, m.1, first.1)) << 16;
    Some((changed & 0x1FF) | (changed >> 9 & 0x1FF) << 16 | (changed >> 18 & 0x1FF) << 32)
}
