//! Constraint propagation plus search: the project's reference solver (it
//! proves uniqueness, grades puzzles and produces expected answers) and the
//! default built-in. It exists because the textbook fewest-candidates search
//! (`mrv`) needs thousands of guesses on 17-clue puzzles, where a solver that
//! also finds hidden singles needs about one, and because its guess count is
//! a usable difficulty measure.
//!
//! # Representation
//!
//! The grid is stored digit by digit rather than cell by cell: for each band
//! (three rows of boxes) and digit, a 27-bit mask of the band's cells where
//! the digit may still go, bit `9 * row_in_band + column`. A placed digit
//! stays in its own mask (a solved band is nine masks with one cell per
//! row), and three more masks mark the cells not yet solved. With two small
//! work lists the whole state is 136 bytes: each guess copies it instead of
//! keeping an undo log. Working on a digit's cells rather than a
//! cell's digits is what makes hidden singles and locked candidates cheap:
//! a few shifts, ORs and table lookups per mask.
//!
//! # Rules, run to a fixpoint before every guess
//!
//! * **Band rule**, per band and digit (the workhorse, after the JCZSolve
//!   family of solvers): the digit takes exactly one cell in each of the
//!   band's three rows and three boxes, so the mini-rows (row ∩ box) it ends
//!   up in form a 3 × 3 permutation. A 512-entry table maps the set of
//!   mini-rows that still hold a candidate to the union of the permutations
//!   inside it, and candidates outside that union go. This one lookup does
//!   hidden singles in rows and boxes plus locked candidates (pointing and
//!   claiming) along the band, and finds a row or box with no room left. A
//!   row down to one cell is a placed digit: the cell leaves the other
//!   digits' masks and its column leaves the digit's masks in the other two
//!   bands.
//! * **Naked singles**, per band: "at least once" and "at least twice" masks
//!   over the nine digit masks give the open cells with exactly one
//!   candidate (and any with none: a contradiction).
//! * **Stack rule and hidden singles in columns**, per digit: the band
//!   rule's permutation filter applied down each stack, to which columns of
//!   each band still hold the digit (locked candidates between columns and
//!   boxes, and a column with no room left), computed with shifts and
//!   masks rather than a table (a column survives when the other two bands
//!   can take the stack's other two columns), so that it runs for four
//!   digits at once in an SSE2 register; then once/twice masks over the
//!   nine rows give the columns with a single open cell for the digit.
//! * **Triad rule**, per band (after tdoku's triads): a mini-row or
//!   mini-column (three cells of a row or column inside one box) holds
//!   three distinct digits. When only three digits have a candidate left in
//!   it, all three go there and leave the rest of the box and of the row or
//!   column; when three digits are confined to it within their box, the
//!   other digits leave it. Each digit's mask gives two words, which
//!   mini-rows and mini-columns it reaches and which it is confined to, and
//!   bit-sliced counters over the nine digits (eight in one AVX2 register)
//!   find the triads; it runs only on bands changed since it last looked,
//!   and only when the other rules are quiet. It takes 25-31% fewer
//!   guesses on the 17-clue and magictour sets and 7-11% on the forum
//!   ones.
//!
//! The loops over a band's nine digit masks (clearing a cell from all of
//! them, counting how many hold each cell, reading one cell's candidates)
//! and the column pass are the hot spots once the band rule is a table
//! lookup. The search is generic over the `Kernels` that do them and is
//! compiled four times (see `CodePath`): with SSE2 (two registers hold
//! eight masks; every x86-64 CPU has it), with AVX2 in a copy compiled for
//! x86-64-v3 (AVX2, BMI, a popcount instruction; taken when the CPU has
//! them, checked at run time), with AVX-512 in a copy compiled for
//! x86-64-v4 (all nine masks of a band in one register under a lane mask;
//! run by `search_on` on CPUs that have it, not yet by default), and with
//! plain loops for any CPU (the one other architectures run). Tests run
//! the same puzzles through every copy the CPU runs and assert identical
//! outcomes: a unit test on the shipped hard cases and random puzzles, a
//! dataset test on the public benchmark sets, and the AVX-512 copy under
//! an emulator where the CPU lacks it (tests/emulated/).
//!
//! A dirty set holds the masks changed since the band rule last saw
//! them, so only those are revisited; the other rules run when the band rule
//! is quiet (the column pass only for digits whose masks changed since its
//! last run), and everything repeats until nothing changes. Every rule only
//! removes candidates and stays valid as others go, so the fixpoint does
//! not depend on the order the rules run in: reordering them changes the
//! time, never a result.
//!
//! # What did not pay
//!
//! Measured on the benchmark sets and dropped, for whoever tries next: the
//! band rule for all nine digits of a band at once in SIMD (when the loop
//! reaches a band it has only two or three dirty masks on average); a
//! branch-free test for placed rows (more instructions than the compiler's
//! conditional moves); the branch-cell scan digit by digit (as many
//! instructions, more mispredicted loop exits); the search as a loop over
//! an explicit stack (6% slower than recursion); cheaper branch-cell
//! scores (near peers only, or the first eight bivalue cells: 8-17% more
//! guesses); other digit orders at a bivalue cell (within 2%); clearing a
//! placement's column in all three bands and restoring the band's own mask
//! (1% fewer instructions, 10% more time: the scalar stores right before
//! the vector load of the same masks stall store-to-load forwarding, so
//! count instructions with valgrind but decide with the clock).
//!
//! Against tdoku, whose search makes about a quarter fewer guesses on the
//! forum sets (when proving uniqueness, 61.7 a puzzle against 83.3 on
//! forum_hardest_1905 and 110 against 135 on forum_hardest_1106), these
//! were tried in a scratch copy of this module, guesses at limit 2 counted
//! first, then the time on AMD Zen 3:
//!
//! * tdoku's branch, a digit's two permutations left in a band (one branch
//!   each), in place of the bivalue cell: 85.7 and 146.9 guesses with its
//!   choice of band (the fewest permutations left over all digits), 84.4
//!   and 143.7 when taken only without a bivalue cell, 2.6 times the
//!   guesses when chosen by the weaker branch's removals;
//! * other bivalue-cell scores (the sum, the product, twice the minimum
//!   plus the maximum, the maximum as a tie-break): within 1% either way;
//! * a digit's last two cells in a row, column or box as a branch beside
//!   the bivalue cells, the pair whose two branches remove the most in sum
//!   chosen: 78.5 and 111.8 guesses (6% and 17% fewer; any one kind of
//!   unit alone gives more guesses than bivalue cells only), but scanning
//!   27 masks and 81 columns and scoring each pair at every branch made the
//!   search 3 to 3.5 times slower on the hard sets;
//! * tdoku's triad rule on mini-rows alone, recounted digit by digit from
//!   the 27 masks with table lookups at every fixpoint: 13-19% fewer
//!   guesses on the 17-clue and magictour sets, 4-6% on the forum sets
//!   (79.7 and 126.5), but 3-5% more time on the 17-clue set and 24-50%
//!   more on the others. With mini-columns as well the guesses fall twice
//!   as far on the forum sets (76.7 and 119.7); the same rule in plain
//!   loops still cost 11-23% more time there. What made it pay (the triad
//!   rule above) is counting in SIMD registers, only for bands changed
//!   since the last count, and leaving the removals, needed in one count
//!   of ten, out of line. Written with `array::map` and closures, the
//!   AVX2 counting did not inline and made the search 30% slower.
//!
//! With the triad rule in place, on the same machine:
//!
//! * tdoku's whole branch choice, a digit's two ways through the band or
//!   stack with the fewest ways (`Grid::band_branch`) in place of the
//!   bivalue cells too: 63.9 and 110.9 guesses at limit 2 on the forum
//!   sets (as tdoku's 61.7 and 110.4) against 71.2 and 115.6 with the
//!   bivalue cells first, but 8.91 against 8.15 on magictour; 1-5% faster
//!   on the forum sets, 3-7% slower on magictour. Computed with table
//!   lookups and plain loops rather than in SIMD words, the choice alone
//!   cost about 0.2 µs a branch, more than the guesses it saved.
//! * the two ways before the bivalue cells only when their band or stack
//!   has at most 11, 12, 14 or 18 ways left: within 2% of the guesses of
//!   bivalue cells first on magictour and forum_hardest_1905, up to 7%
//!   more on forum_hardest_1106.
//! * trying the second way first: within 4% either way at limit 1.
//! * the triad rule before the column pass rather than after it (the same
//!   fixpoint, the same guesses): 1-5% slower on three sets and 5-13% on
//!   forum_hardest_1106, in one run of a copy with experiment switches.
//! * a digit's last two cells in a unit beside the bivalue cells (6% and
//!   17% fewer guesses without triads, above) stays untried with them: its
//!   scan is the cost, and it has not been made cheaper.
//!
//! Once the band rule ran in rounds (see `Grid::propagate`), each variant
//! compiled as its own copy of this module in one process, timed against
//! tdoku interleaved, 5 rounds, on AMD Zen 3:
//!
//! * tdoku's whole branch choice again: 10% fewer guesses on
//!   forum_hardest_1905 (63.8 against 71.4 at limit 2) for the same time
//!   there, and 5-18% more time on the other hard sets. Fewer guesses is
//!   not less work: each visit ran 17.0 band rules against 14.8, about
//!   2,190 a puzzle against 2,110.
//! * that branch unless a bivalue cell reaches at least R peers with its
//!   weaker digit: 63.4-63.6 and 8.5-8.7 guesses on forum_hardest_1905 and
//!   magictour for R = 9 or 10, but 4-27% slower than bivalue cells first,
//!   computing both choices at every branch.
//! * bivalue cells first until the search has made G guesses, then that
//!   branch: more guesses than either alone for G from 2 to 16.
//! * only the bivalue cells in the band or stack with the fewest ways:
//!   38% more guesses.
//! * a mask due again after a placement only when the placement emptied
//!   one of its mini-rows or left its row with one cell or none (the only
//!   changes the band rule acts on): 17% fewer band-rule runs on
//!   forum_hardest_1905, same fixpoint, but 3-11% slower: the runs it
//!   skips were the cheap ones, and deciding costs more.
//! * a round's table lookups all first and its placements after, so no
//!   hard-to-predict branch sits between lookups: 1-24% slower.
//! * writing a mask back only when the band rule changed it (fewer
//!   stores for the vector loads to wait on): 1-12% slower.
//!
//! Choosing the bivalue cell (`Grid::branch_cell`), guesses at limit 2 on
//! magictour, the first 20,000 puzzles of forum_hardest_1905 and
//! forum_hardest_1106 against the choice made (6.2, 61.2 and 104.1):
//!
//! * the smaller of the two digits' scores rather than their product:
//!   5-8% more; their sum: within 1.5%.
//! * a bivalue peer counted twice in all rather than three times: 3-11%
//!   more; four times or three and a half: within 3% either way.
//! * adding to a digit's score the units where the cell's other digit is
//!   left with two cells (each a hidden single once the digit is placed):
//!   37-61% more.
//! * tdoku's branch whenever no bivalue cell's product reaches 80: 4%
//!   less work on the forum sets counted in band rules and visits (20 and
//!   40 gain less, 120 and up lose), 3% more on magictour, and 4-28%
//!   slower as timed, scoring the cells first and then the ways.
//! * naked singles counted only in the bands changed since they were last
//!   counted: the same guesses, 1% faster to 13% slower.
//! * with this choice, plain loops in place of the AVX2 `clear` or
//!   `column` kernels (no vector load waiting on a scalar store): 2-13%
//!   slower.
//!
//! Then, against the search of the time in the same process (first
//! 20,000 puzzles of forum_hardest_1905, the other sets whole):
//!
//! * `Grid::propagate` out of line in the AVX2 copy (a smaller function
//!   for the register allocator, whose band-rule loop reloads the grid's
//!   address from the stack): 0-6% slower.
//! * the band rule's indices unchecked (`get_unchecked`, masked table
//!   indices): within 1%, not worth the `unsafe`.
//! * naked singles skipping solved bands: 3% faster to 6% slower, within
//!   the noise.
//! * the grid aligned to 64 bytes, so that fewer of a band's vector loads
//!   straddle two cache lines: 2% faster to 4% slower.
//! * codegen-units = 1 for the whole build: no change beyond the noise.
//! * `Grid::band_branch` out of line, which shrinks each recursion's
//!   stack frame from 832 bytes to 600: within 2%, the same.
//! * stopping a visit as soon as a clear leaves a mask with an empty row
//!   (a certain contradiction), rather than when the band rule reaches
//!   it: counted first, it would save at most 7% of the band-rule runs
//!   (130 a puzzle of 1,911 at limit 2 on forum_hardest_1905; dead visits
//!   run 21 band rules on average, live ones 10), less than the checks on
//!   every clear cost; not timed.
//! * scoring eight bivalue cells at once in AVX2 lanes: not built. Gathering
//!   each lane's masks (the cell's two digits in three bands, its peers,
//!   the bivalue cells) takes most of the scalar loop's instructions
//!   already, so the estimate was under 2% of the time.
//!
//! Counted on the first 20,000 puzzles of forum_hardest_1905 at limit 2,
//! 1,911 band-rule runs a puzzle: 1,064 change nothing, 50 only shrink
//! the mask, 742 place a digit, the rest find a contradiction. Then, timed
//! against the search of the time in the same process:
//!
//! * the band rule without the branch on "nothing placed" (the clears run
//!   with an empty set of cells): 10% slower.
//! * the lone rows computed rather than looked up: in 10-bit fields with
//!   guard bits, branch-free, 10% slower; one row at a time with a select
//!   per row, which the compiler turned into branches, 30% slower.
//! * rather than looking the rows up again when the filter took cells,
//!   marking the mask due again (its lone rows found on the next run): 7%
//!   slower.
//! * the order of the band-rule runs: each round from the highest mask
//!   down, one mask at a time from the lowest, or depth first (the masks
//!   the last run changed next): 1,285 to 1,356 band-rule runs a puzzle in
//!   dead visits against 1,288, so not timed. A dead visit runs its
//!   cascade to the end whatever the order; looking for a cell with no
//!   candidate after every round would find it 5% sooner (1,227).
//! * naked pairs (two bivalue cells of a unit with the same two digits;
//!   the digits leave the rest of the unit), found almost free in
//!   `Grid::branch_cell`'s scan (a peer holding both digits among the
//!   bivalue cells): 5% fewer guesses at limit 2 on forum_hardest_1905
//!   (58.0 against 61.2), 4% on forum_hardest_1106, 11% on magictour, 18%
//!   on the 17-clue set, 3% fewer band-rule runs; but 27% more
//!   instructions (valgrind) and 20-44% more time as built (one run), the
//!   pairs found again at every visit below the one that used them (51
//!   searches a puzzle for 11 that removed something). Only the pairs
//!   with a cell new since the visit above (a clean pair stays clean):
//!   still 14% more instructions than without, for 5% fewer guesses.
//!   Checked at every fixpoint instead, pair by pair: 45% more time.
//!
//! Then, for the host's slow spells (see docs/solvers.md: when the
//! core's integer units are shared, this search slows by up to 31% and
//! tdoku by 10%), each timed in one process against the search of the
//! time, with the spells marked by an integer probe:
//!
//! * `ROWS` as `u32` (6 KB: the lone rows as one flag a row, widened by a
//!   multiply) or as `u16` (3 KB, the flags widened by an 8-entry table)
//!   in place of 12 KB of `u64`: 1-7% slower, and no steadier through the
//!   spells, so the tables' share of the L1 cache is not what the spells
//!   take.
//! * the band rule's indices unchecked (`get_unchecked` for the band and
//!   digit, masked table indices): 3.8% fewer instructions (valgrind,
//!   forum_hardest_1905, limit 1), the same time within 1% both in and
//!   out of the spells.
//!
//! # Search and guesses
//!
//! When the rules stall, the search branches on a bivalue cell (see
//! `Grid::branch_cell` for which one and which of its digits goes first).
//! Without one, it branches as tdoku does, on a digit with exactly two ways
//! left through a band or a stack (see `Grid::band_branch`), and failing
//! that on the first cell with the fewest candidates, whose digits it tries
//! in increasing order, each on a copy of the grid.
//!
//! **Guesses** count trial placements: at a branch cell every candidate tried
//! counts one guess except the cell's last one, which is placed without
//! counting because by then it is the only branch left (it reuses the grid
//! instead of copying it). A cell with two candidates therefore costs one
//! guess however its branches turn out, and so does a digit's two ways
//! through a band. The count is deterministic, and 0 exactly when the rules
//! alone settled the puzzle (solved it or proved it has no solution).

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// One bit per row of a band: `cols * SPREAD` copies a 9-bit column set to
/// all three rows, `SPREAD << col` is one column of the band.
const SPREAD: u32 = 1 | 1 << 9 | 1 << 18;
/// The nine columns (or the nine cells of a row).
const NINE: u32 = 0x1FF;
/// Every mask, in the dirty set.
const ALL_MASKS: u64 = NINE as u64 * (1 | 1 << 16 | 1 << 32);

/// For row `r` of a band and its 9-bit mask, which of its three mini-rows
/// have a candidate, as bits `3 * r + k` (columns `3k..3k + 3`): one table
/// per row, already shifted into place, so the three lookups only need
/// ORing.
const SHRINK: [[u16; 512]; 3] = build_shrink();
/// For row `r` of a band and its 9-bit mask, the mask shifted into place
/// (bits `9 * r..`) if it has exactly one cell, else 0: a row's placed
/// digit in one lookup.
const LONE: [[u32; 512]; 3] = {
    let mut table = [[0; 512]; 3];
    let mut row = 0;
    while row < 512 {
        if (row as u32).count_ones() == 1 {
            let mut r = 0;
            while r < 3 {
                table[r][row] = (row as u32) << (9 * r);
                r += 1;
            }
        }
        row += 1;
    }
    table
};
/// For row `r` of a band and its 9-bit mask, [`LONE`] in the low word and
/// [`SHRINK`] in the high one: one load per row gives the band rule both
/// the mini-rows it reaches and the cell it is down to, if one.
static ROWS: [[u64; 512]; 3] = {
    let mut table = [[0; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut row = 0;
        while row < 512 {
            table[r][row] = (SHRINK[r][row] as u64) << 32 | LONE[r][row] as u64;
            row += 1;
        }
        r += 1;
    }
    table
};
/// For a band's 9-bit mini-row set (bit `3 * row + box`), the 27-bit cell
/// mask of the mini-rows that lie on some permutation inside the set; 0 when
/// there is none (the digit cannot fit in the band).
static COMPLEX: [u32; 512] = build_complex();
/// For each cell of a band (0..27), its column within the band: a table
/// load is cheaper than `SPREAD << (i % 9)` in the branch-cell loop.
static COLUMN: [u32; 27] = {
    let mut table = [0; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = SPREAD << (i % 9);
        i += 1;
    }
    table
};
/// For each cell (0..81, row-major), its 20 peers as three band masks.
static PEERS: [[u32; 3]; 81] = build_peers();

const fn build_shrink() -> [[u16; 512]; 3] {
    let mut table = [[0; 512]; 3];
    let mut row = 0;
    while row < 512 {
        let mut third = 0;
        while third < 3 {
            if row >> (3 * third) & 7 != 0 {
                let mut r = 0;
                while r < 3 {
                    table[r][row] |= 1 << (3 * r + third);
                    r += 1;
                }
            }
            third += 1;
        }
        row += 1;
    }
    table
}

/// For a 9-bit mini-row set (bit `3 * row + box`), the mini-rows that lie
/// on some permutation inside it.
const fn build_perms() -> [u16; 512] {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut set: u16 = 0;
    while set < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let bits: u16 = 1 << perm[0] | 1 << (3 + perm[1]) | 1 << (6 + perm[2]);
            if set & bits == bits {
                table[set as usize] |= bits;
            }
            p += 1;
        }
        set += 1;
    }
    table
}

const fn build_complex() -> [u32; 512] {
    let perms = build_perms();
    let mut table = [0; 512];
    let mut set = 0;
    while set < 512 {
        // Mini-row bit `m = 3 * row + box` covers cells `9 * row + 3 * box`
        // and the two after it: three bits starting at `3 * m`.
        let mut m = 0;
        while m < 9 {
            if perms[set] >> m & 1 != 0 {
                table[set] |= 7 << (3 * m);
            }
            m += 1;
        }
        set += 1;
    }
    table
}

const fn build_peers() -> [[u32; 3]; 81] {
    let mut table = [[0; 3]; 81];
    let mut pos = 0;
    while pos < 81 {
        let (row, col) = (pos / 9, pos % 9);
        let mut other = 0;
        while other < 81 {
            let (r, c) = (other / 9, other % 9);
            let same_box = r / 3 == row / 3 && c / 3 == col / 3;
            if other != pos && (r == row || c == col || same_box) {
                table[pos][other / 27] |= 1 << (other % 27);
            }
            other += 1;
        }
        pos += 1;
    }
    table
}

/// Cell index (0..81, row-major) to band and bit within the band.
fn split(pos: usize) -> (usize, u32) {
    (pos / 27, 1 << (pos % 27))
}

/// The two bands other than `band`, in order, computed rather than matched:
/// a branch on the band mispredicts often.
#[inline(always)]
fn other_bands(band: usize) -> (usize, usize) {
    (usize::from(band == 0), 2 - usize::from(band == 2))
}

/// The kernels that work on all nine digit masks of a band at once, and
/// how many digits the column pass handles together. The search is
/// generic over them and compiled once per implementation: [`Portable`]
/// (plain loops, any CPU), [`Sse2`] (two registers hold eight masks; every
/// x86-64 CPU has SSE2), [`Avx2`] (one register holds eight; used in the
/// copy of the search compiled for x86-64-v3) and [`Avx512`] (one register
/// holds all nine; the x86-64-v4 copy). Tests run the same puzzles through
/// all of them and compare the outcomes.
trait Kernels {
    /// A group of digits the column pass handles in lock step.
    type Group: Word;
    /// How many digits a [`Kernels::Group`] holds.
    const GROUP: usize;
    /// See `scalar::clear`.
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32;
    /// See `scalar::column`.
    fn column(masks: &[u32; 9], i: u32) -> u32;
    /// See `scalar::counts`.
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32);
    /// See `scalar::triad_counts`.
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4];
}

/// The plain-loop kernels, for any CPU; on x86-64 only run through
/// [`search_on`], which tests and benchmarks use to compare the copies.
struct Portable;

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

/// The SSE2 kernels.
#[cfg(target_arch = "x86_64")]
struct Sse2;

#[cfg(target_arch = "x86_64")]
impl Kernels for Sse2 {
    type Group = std::arch::x86_64::__m128i;
    const GROUP: usize = 4;
    #[inline(always)]
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        sse2::clear(masks, cells)
    }
    #[inline(always)]
    fn column(masks: &[u32; 9], i: u32) -> u32 {
        sse2::column(masks, i)
    }
    #[inline(always)]
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        sse2::counts(masks)
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        sse2::triad_counts(masks)
    }
}

/// The AVX2 kernels, only ever run by the copy of the search compiled for
/// x86-64-v3 ([`v3::visit`]), after the CPU was found to have AVX2.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    type Group = std::arch::x86_64::__m256i;
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
        // SAFETY: as above.
        unsafe { avx2::counts(masks) }
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        // SAFETY: as above.
        unsafe { avx2::triad_counts(masks) }
    }
}

/// The plain-loop versions of the [`Kernels`].
mod scalar {
    use super::BAND;

    /// Removes `cells` from the nine masks; bit `digit` of the result says
    /// whether that changed its mask.
    #[inline(always)]
    pub fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
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

    /// Bit `digit` of the result is bit `i` of that digit's mask: the
    /// candidates of cell `i` of the band.
    #[inline(always)]
    pub fn column(masks: &[u32; 9], i: u32) -> u32 {
        let mut digits = 0;
        for &mask in masks.iter().rev() {
            digits = digits << 1 | (mask >> i & 1);
        }
        digits
    }

    /// Over the nine digits' [`super::minirow_word`]s and
    /// [`super::minicol_word`]s: `[rows3, rows4, cols3, cols4]`, the bits
    /// set in at least three and in at least four of them.
    #[inline(always)]
    pub fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        let (mut rows, mut cols) = ([0; 4], [0; 4]);
        for &mask in masks {
            super::count_in(&mut rows, super::minirow_word(mask));
            super::count_in(&mut cols, super::minicol_word(mask));
        }
        [rows[2], rows[3], cols[2], cols[3]]
    }

    /// The cells in at least one, two and three of the nine masks.
    #[inline(always)]
    pub fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        let (mut once, mut twice, mut thrice) = (0, 0, 0);
        for &mask in masks {
            thrice |= twice & mask;
            twice |= once & mask;
            once |= mask;
        }
        (once, twice, thrice)
    }
}

/// The [`Kernels`] in SSE2: digits 0..4 and 4..8 in one register
/// each, digit 8 alone.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
        _mm_cvtsi128_si32, _mm_cvtsi32_si128, _mm_loadu_si128, _mm_movemask_ps, _mm_or_si128,
        _mm_set1_epi32, _mm_setzero_si128, _mm_shuffle_epi32, _mm_sll_epi32, _mm_slli_epi32,
        _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
    };

    // SAFETY (every `unsafe` block of this impl): SSE2 is part of x86-64,
    // and the loads and stores check that four masks are there.
    impl super::Word for __m128i {
        #[inline(always)]
        fn splat(x: u32) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_set1_epi32(x as i32) }
        }
        #[inline(always)]
        fn load(masks: &[u32]) -> Self {
            let four = &masks[..4];
            // SAFETY: see the comment on this impl.
            unsafe { _mm_loadu_si128(four.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(self, masks: &mut [u32]) {
            let four = &mut masks[..4];
            // SAFETY: see the comment on this impl.
            unsafe { _mm_storeu_si128(four.as_mut_ptr().cast(), self) }
        }
        #[inline(always)]
        fn and(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_and_si128(self, other) }
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_or_si128(self, other) }
        }
        #[inline(always)]
        fn and_not(self, other: Self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_andnot_si128(other, self) }
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_srli_epi32::<N>(self) }
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            // SAFETY: see the comment on this impl.
            unsafe { _mm_slli_epi32::<N>(self) }
        }
        #[inline(always)]
        fn differs(self, other: Self) -> u32 {
            // SAFETY: see the comment on this impl.
            let same = unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(self, other))) };
            !same as u32 & 0xF
        }
    }

    /// See `scalar::clear`.
    #[inline(always)]
    pub fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        let low = masks.as_mut_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of x86-64; the unaligned loads and stores
        // cover masks[0..4] and masks[4..8], inside the array.
        let unchanged = unsafe {
            let high = low.add(1);
            let cells = _mm_set1_epi32(cells as i32);
            let (lo, hi) = (_mm_loadu_si128(low), _mm_loadu_si128(high));
            let (hit_lo, hit_hi) = (_mm_and_si128(lo, cells), _mm_and_si128(hi, cells));
            _mm_storeu_si128(low, _mm_xor_si128(lo, hit_lo));
            _mm_storeu_si128(high, _mm_xor_si128(hi, hit_hi));
            let zero = _mm_setzero_si128();
            let same_lo = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hit_lo, zero)));
            let same_hi = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hit_hi, zero)));
            (same_lo | same_hi << 4) as u32
        };
        let hit = masks[8] & cells;
        masks[8] ^= hit;
        (!unchanged & 0xFF) | u32::from(hit != 0) << 8
    }

    /// See `scalar::column`.
    #[inline(always)]
    pub fn column(masks: &[u32; 9], i: u32) -> u32 {
        let low = masks.as_ptr().cast::<__m128i>();
        // SAFETY: as in `clear`, loads of masks[0..4] and masks[4..8].
        // Shifting bit `i` to the sign bit lets movemask gather it.
        let eight = unsafe {
            let shift = _mm_cvtsi32_si128(31 - i as i32);
            let lo = _mm_sll_epi32(_mm_loadu_si128(low), shift);
            let hi = _mm_sll_epi32(_mm_loadu_si128(low.add(1)), shift);
            _mm_movemask_ps(_mm_castsi128_ps(lo)) | _mm_movemask_ps(_mm_castsi128_ps(hi)) << 4
        };
        eight as u32 | (masks[8] >> i & 1) << 8
    }

    /// See `scalar::triad_counts`: digits 0..4 and 4..8 counted in one
    /// register each and the two merged, then lanes merged pairwise as in
    /// [`counts`], digit 8 added last.
    #[inline(always)]
    pub fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        use super::Word;
        /// Each counter's lanes shuffled by `S`.
        #[inline(always)]
        fn shuffled<const S: i32>(c: [__m128i; 4]) -> [__m128i; 4] {
            // SAFETY: SSE2 is part of x86-64; no memory is touched.
            unsafe {
                [
                    _mm_shuffle_epi32::<S>(c[0]),
                    _mm_shuffle_epi32::<S>(c[1]),
                    _mm_shuffle_epi32::<S>(c[2]),
                    _mm_shuffle_epi32::<S>(c[3]),
                ]
            }
        }
        #[inline(always)]
        fn total(a: __m128i, b: __m128i, last: u32) -> (u32, u32) {
            let zero = __m128i::splat(0);
            let c = [a.or(b), a.and(b), zero, zero];
            let c = super::merge_counts(c, shuffled::<0b10_11_00_01>(c));
            let c = super::merge_counts(c, shuffled::<0b01_00_11_10>(c));
            // SAFETY: as above.
            let (two, three, four) = unsafe {
                (
                    _mm_cvtsi128_si32(c[1]) as u32,
                    _mm_cvtsi128_si32(c[2]) as u32,
                    _mm_cvtsi128_si32(c[3]) as u32,
                )
            };
            (three | two & last, four | three & last)
        }
        let (lo, hi) = (__m128i::load(&masks[..4]), __m128i::load(&masks[4..8]));
        let (rows3, rows4) = total(
            super::minirow_word(lo),
            super::minirow_word(hi),
            super::minirow_word(masks[8]),
        );
        let (cols3, cols4) = total(
            super::minicol_word(lo),
            super::minicol_word(hi),
            super::minicol_word(masks[8]),
        );
        [rows3, rows4, cols3, cols4]
    }

    /// See `scalar::counts`. Counters saturating at three are
    /// kept per lane, and lanes are merged pairwise: (once, twice,
    /// thrice) of two disjoint sets of masks combine with ANDs and ORs.
    #[inline(always)]
    pub fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
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
        // SAFETY: as in `clear`, loads of masks[0..4] and masks[4..8].
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
}

/// The [`Kernels`] in AVX2: digits 0..8 in one register, digit 8 alone.
/// Every function here needs AVX2: they are only reached through [`Avx2`],
/// inside the x86-64-v3 copy of the search.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
        _mm256_extract_epi32, _mm256_loadu_si256, _mm256_movemask_ps, _mm256_or_si256,
        _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_shuffle_epi32,
        _mm256_sll_epi32, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
        _mm256_xor_si256, _mm_cvtsi32_si128,
    };

    /// See `scalar::clear`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
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

    /// See `scalar::column`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn column(masks: &[u32; 9], i: u32) -> u32 {
        // SAFETY: the load covers masks[0..8]. Shifting bit `i` to the sign
        // bit lets movemask gather it.
        let eight = unsafe {
            let all = _mm256_loadu_si256(masks.as_ptr().cast());
            let moved = _mm256_sll_epi32(all, _mm_cvtsi32_si128(31 - i as i32));
            _mm256_movemask_ps(_mm256_castsi256_ps(moved)) as u32
        };
        eight | (masks[8] >> i & 1) << 8
    }

    /// See `scalar::triad_counts`: the mini-row and mini-column words of
    /// digits 0..8 computed in one register each, their halves regrouped
    /// so that both are counted together, digit 8 added last.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        use super::Word;
        // SAFETY: the load covers masks[0..8], inside the array; the
        // caller promises AVX2. Plain calls, not array maps: closures would
        // not inline here.
        unsafe {
            let all = _mm256_loadu_si256(masks.as_ptr().cast());
            let (rows, cols) = (super::minirow_word(all), super::minicol_word(all));
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
            let c = super::merge_counts(c, d);
            let d = [
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[0]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[1]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[2]),
                _mm256_shuffle_epi32::<0b01_00_11_10>(c[3]),
            ];
            let c = super::merge_counts(c, d);
            let row = super::minirow_word(masks[8]);
            let col = super::minicol_word(masks[8]);
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

    /// See `scalar::counts`: the SSE2 version, which the v3 copy
    /// compiles to AVX encodings; a 256-bit register gains nothing there,
    /// as its two halves must be merged anyway.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        super::sse2::counts(masks)
    }

    // SAFETY (every `unsafe` block of this impl): the impl is only used by
    // the [`super::Avx2`] kernels, so the CPU has AVX2; the loads and
    // stores check that eight masks are there.
    impl super::Word for __m256i {
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

/// The AVX-512 kernels, only ever run by the copy of the search compiled
/// for x86-64-v4 ([`v4::visit`]): the nine masks of a band in one register
/// under a lane mask, where AVX2 takes eight in a register and the ninth
/// apart. The bit counts are the AVX2 ones, compiled to EVEX encodings.
#[cfg(target_arch = "x86_64")]
struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx512 {
    type Group = std::arch::x86_64::__m256i;
    const GROUP: usize = 8;
    #[inline(always)]
    fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        // SAFETY: see the type's docs: only reached with AVX-512 present.
        unsafe { avx512::clear(masks, cells) }
    }
    #[inline(always)]
    fn column(masks: &[u32; 9], i: u32) -> u32 {
        // SAFETY: as above.
        unsafe { avx512::column(masks, i) }
    }
    #[inline(always)]
    fn counts(masks: &[u32; 9]) -> (u32, u32, u32) {
        // SAFETY: as above; AVX-512 CPUs have AVX2.
        unsafe { avx2::counts(masks) }
    }
    #[inline(always)]
    fn triad_counts(masks: &[u32; 9]) -> [u32; 4] {
        // SAFETY: as above.
        unsafe { avx2::triad_counts(masks) }
    }
}

/// The [`Kernels`] that AVX-512 makes shorter: the nine masks are loaded
/// and stored under a lane mask of nine lanes (the lanes beyond the array
/// are neither read nor written), and a test against a broadcast gives
/// one bit per digit directly.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __mmask16, _mm512_and_si512, _mm512_mask_storeu_epi32, _mm512_maskz_loadu_epi32,
        _mm512_set1_epi32, _mm512_test_epi32_mask, _mm512_xor_si512,
    };

    /// The nine lanes of a band's masks.
    const NINE: __mmask16 = 0x1FF;

    /// See `scalar::clear`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub unsafe fn clear(masks: &mut [u32; 9], cells: u32) -> u32 {
        // SAFETY: masked to the nine lanes of the array.
        unsafe {
            let all = _mm512_maskz_loadu_epi32(NINE, masks.as_ptr().cast());
            let hit = _mm512_and_si512(all, _mm512_set1_epi32(cells as i32));
            _mm512_mask_storeu_epi32(masks.as_mut_ptr().cast(), NINE, _mm512_xor_si512(all, hit));
            u32::from(_mm512_test_epi32_mask(hit, hit))
        }
    }

    /// See `scalar::column`.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub unsafe fn column(masks: &[u32; 9], i: u32) -> u32 {
        // SAFETY: masked to the nine lanes of the array.
        unsafe {
            let all = _mm512_maskz_loadu_epi32(NINE, masks.as_ptr().cast());
            u32::from(_mm512_test_epi32_mask(all, _mm512_set1_epi32(1 << i)))
        }
    }
}

/// A bundle of masks handled in lock step: one digit's (`u32`) or four
/// consecutive digits' (an SSE2 register). The column pass is written once
/// over it, so the portable and the SSE2 versions cannot drift apart.
trait Word: Copy {
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
fn stack_rule<W: Word>(masks: [W; 3]) -> ([W; 3], W) {
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
fn columns<W: Word>(mask: W) -> W {
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

/// Bit `3 * m` for each mini-row `m = 3 * row + box` of a band.
const MINIROWS: u32 = 0o111_111_111;

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
fn minirow_word<W: Word>(mask: W) -> W {
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
fn minicol_word<W: Word>(mask: W) -> W {
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
fn way_words<W: Word>(masks: [W; 3]) -> (W, W) {
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
// Only the portable kernels count word by word.
#[inline(always)]
fn count_in(c: &mut [u32; 4], word: u32) {
    c[3] |= c[2] & word;
    c[2] |= c[1] & word;
    c[1] |= c[0] & word;
    c[0] |= word;
}

/// Counters as [`count_in`] keeps them, of two disjoint sets of words,
/// merged.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn merge_counts<W: Word>(a: [W; 4], b: [W; 4]) -> [W; 4] {
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
fn column_singles<W: Word>(masks: [W; 3], unsolved: [u32; 3]) -> W {
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

/// The search state; see the module docs.
#[derive(Clone, Copy)]
struct Grid {
    /// `cand[band][digit]`, digits 0-based.
    cand: [[u32; 9]; 3],
    /// Cells not yet solved, per band.
    unsolved: [u32; 3],
    /// Bit `16 * band + digit`: that mask changed since the band rule last
    /// ran on it. Bands 16 bits apart rather than 9 let the loop split a
    /// bit's index with a shift and a mask instead of a division.
    dirty: u64,
    /// Bit `digit`: one of its masks changed since the column pass last
    /// looked at it.
    stale: u32,
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
    fn new(cells: &[u8; 81]) -> Option<Grid> {
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
    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Removes `cells` from one mask; returns its dirty bit if that changed
    /// it, else 0. The dirty bits go back to the caller rather than into
    /// `self.dirty`, so that the band rule's loop keeps its set in a
    /// register instead of a round trip through memory per mask.
    #[inline(always)]
    fn clear(&mut self, band: usize, digit: usize, cells: u32) -> u64 {
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
    fn assign<K: Kernels>(&mut self, digit: usize, pos: usize) -> bool {
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
        // A row down to one cell is the digit placed there. The rows the
        // filter left alone are as they were looked up; only when it took
        // something (a quarter of the runs on the forum sets) are they
        // looked up again. That is 1-3% faster on the hard sets than always
        // looking them up after the filter.
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

    /// Places every naked single. `None` on a contradiction, else whether
    /// anything changed; `pairs` gets each band's open cells with exactly
    /// two candidates, as they were before any placement.
    #[inline(always)]
    fn naked_singles<K: Kernels>(&mut self, pairs: &mut [u32; 3]) -> Option<bool> {
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
    fn column_pass<K: Kernels>(&mut self) -> Option<bool> {
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
    #[inline(always)]
    fn propagate<K: Kernels>(&mut self) -> Option<[u32; 3]> {
        let mut pairs = [0; 3];
        // Bands changed since the triad rule last looked at them.
        let mut fresh = 0;
        loop {
            let mut dirty = std::mem::take(&mut self.dirty);
            let mut seen = 0u64;
            // In rounds: the masks due now, then those they changed. Which
            // mask comes next never waits on the last one's lookups, so the
            // CPU overlaps them (5% faster than taking the lowest due mask
            // after each one; the same fixpoint).
            while dirty != 0 {
                let mut round = std::mem::take(&mut dirty);
                seen |= round;
                while round != 0 {
                    let i = round.trailing_zeros() as usize;
                    round &= round - 1;
                    dirty |= self.band_rule::<K>(i >> 4, i & 15)?;
                }
            }
            // Every digit whose masks the band rule saw is due for the
            // column pass.
            self.stale |= (seen | seen >> 16 | seen >> 32) as u32 & NINE;
            fresh |= u32::from(seen & u64::from(NINE) != 0)
                | u32::from(seen & u64::from(NINE) << 16 != 0) << 1
                | u32::from(seen & u64::from(NINE) << 32 != 0) << 2;
            if self.is_solved() {
                return Some(pairs);
            }
            if self.naked_singles::<K>(&mut pairs)? {
                continue;
            }
            if self.column_pass::<K>()? {
                continue;
            }
            if fresh != 0 && self.triad_rule::<K>(std::mem::take(&mut fresh))? {
                continue;
            }
            // No rule changed anything since `naked_singles` counted the
            // candidates: its pairs are the fixpoint's.
            return Some(pairs);
        }
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
    fn triad_rule<K: Kernels>(&mut self, bands: u32) -> Option<bool> {
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

    /// The branch taken when no cell is bivalue, after tdoku: among the
    /// three bands and three stacks not yet settled, the one with the
    /// fewest ways left over all digits (see [`way_words`]; ties to the
    /// bands first, then in order), and in it the lowest digit with exactly
    /// two ways left. Returns that digit and, for each way, the masks to AND
    /// into its three bands, or `None` when that band or stack has no such
    /// digit. At limit 2 this takes 3-7% fewer guesses on the forum sets
    /// than the cell with the fewest candidates did; in place of the bivalue
    /// cells as well it takes fewer still there, but more on magictour (see
    /// the module docs).
    #[inline(always)]
    fn band_branch<K: Kernels>(&self) -> Option<(usize, [[u32; 3]; 2])> {
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
        let masks = |bit: u32| {
            // Which box (or column of the stack) each row (or band) takes.
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
        };
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
    fn restrict(&mut self, digit: usize, masks: [u32; 3]) {
        for (cand, mask) in self.cand.iter_mut().zip(masks) {
            cand[digit] &= mask;
        }
        self.dirty |= (1 | 1 << 16 | 1 << 32) << digit;
        self.stale |= 1 << digit;
    }

    /// The candidates of `pos` as a 9-bit mask.
    #[inline(always)]
    fn digits_at<K: Kernels>(&self, pos: usize) -> u32 {
        K::column(&self.cand[pos / 27], (pos % 27) as u32)
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
    /// scores wins. Ties go to the first cell in row-major order. Against
    /// the largest minimum of the plain peer counts (the choice before,
    /// kept for grading), this takes 10-24% fewer guesses at limit 2 on the
    /// hard benchmark sets (6.23 against 8.15 on magictour, 60.5 against
    /// 71.1 on forum_hardest_1905, 104.1 against 115.6 on
    /// forum_hardest_1106: fewer than tdoku's 8.94, 61.7 and 110.4), and
    /// that against the first bivalue cell about 40% fewer. The digit with
    /// the larger score is tried first (the lower one on a tie): the other
    /// way round takes 2-6% more guesses to a first solution on those sets;
    /// the order never changes how many guesses a full count takes. Without
    /// a bivalue cell, the first cell with the fewest candidates, lowest
    /// digit first.
    ///
    /// `grading` takes the choice [`graded_search`] pins instead: the
    /// largest minimum of the plain peer counts, the larger count's digit
    /// first.
    #[inline(always)]
    fn branch_cell<K: Kernels>(&self, pairs: [u32; 3], grading: bool) -> (usize, u32, bool) {
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

    /// The solved grid, row-major digits 1..=9.
    #[inline(always)]
    fn cells(&self) -> [u8; 81] {
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

/// Depth-first search over copies of the grid.
struct Search {
    limit: usize,
    /// Branch on the bivalue cell [`graded_search`] pins rather than the
    /// fastest choice.
    grading: bool,
    solutions: usize,
    guesses: u64,
    first: Option<[u8; 81]>,
}

impl Search {
    /// Visits `grid` and everything below it, depth first: propagate, then
    /// (unless solved or dead) branch on [`Grid::branch_cell`] (or
    /// [`Grid::band_branch`] without a bivalue cell), trying its
    /// digits in the order it gives, each but the last on a copy. `recurse`
    /// is the caller's own entry point: the body is compiled once per
    /// instruction set (see [`run`]), and each copy recurses into itself.
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, mut grid: Grid, recurse: impl Fn(&mut Search, Grid)) {
        let Some(pairs) = grid.propagate::<K>() else {
            return;
        };
        if grid.is_solved() {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Some(grid.cells());
            }
            return;
        }
        if pairs == [0; 3] {
            if let Some((digit, ways)) = grid.band_branch::<K>() {
                self.guesses += 1;
                let mut trial = grid;
                trial.restrict(digit, ways[0]);
                recurse(self, trial);
                if self.solutions >= self.limit {
                    return;
                }
                // The other way, the only one left: not a guess.
                grid.restrict(digit, ways[1]);
                recurse(self, grid);
                return;
            }
        }
        let (pos, mut digits, high_first) = grid.branch_cell::<K>(pairs, self.grading);
        loop {
            let digit = if high_first {
                31 - digits.leading_zeros()
            } else {
                digits.trailing_zeros()
            } as usize;
            digits &= !(1 << digit);
            if digits == 0 {
                // The only branch left: placed on this grid, not a guess.
                if grid.assign::<K>(digit, pos) {
                    recurse(self, grid);
                }
                return;
            }
            self.guesses += 1;
            let mut trial = grid;
            if trial.assign::<K>(digit, pos) {
                recurse(self, trial);
            }
            if self.solutions >= self.limit {
                return;
            }
        }
    }
}

/// A copy of the search compiled for one instruction set. The search is
/// the same in each, guess for guess; the newer instructions only make the
/// bit counting and the loops over a band's nine masks shorter. [`search`]
/// runs the fastest one the CPU has ([`CodePath::detected`]); [`search_on`]
/// runs a given one, so that tests and benchmarks can hold them against
/// each other on the same puzzles.
///
/// The AVX-512 copy is not the default yet: its speed has not been
/// measured on a CPU with AVX-512 (the machine this search is developed on
/// has none; the copy is tested there under an emulator, see
/// [`search_on_unchecked`]). [`search_on`] runs it where the CPU has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodePath {
    /// Compiled for x86-64-v4 (AVX-512 F, BW, CD, DQ, VL, and all of
    /// x86-64-v3), AVX-512 kernels.
    Avx512,
    /// Compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT), AVX2 kernels.
    Avx2,
    /// The x86-64 baseline, SSE2 kernels: every x86-64 CPU.
    Sse2,
    /// Plain loops: any CPU.
    Portable,
}

impl CodePath {
    /// Every copy: the one for the newest instruction set first.
    pub const ALL: [CodePath; 4] = [
        CodePath::Avx512,
        CodePath::Avx2,
        CodePath::Sse2,
        CodePath::Portable,
    ];

    /// A short name for reports: `avx512`, `avx2`, `sse2`, `portable`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CodePath::Avx512 => "avx512",
            CodePath::Avx2 => "avx2",
            CodePath::Sse2 => "sse2",
            CodePath::Portable => "portable",
        }
    }

    /// Whether this CPU can run it. The standard library caches what it
    /// detects, so this is cheap enough to ask per search.
    #[must_use]
    pub fn available(self) -> bool {
        self.entry().is_some()
    }

    /// The copy [`search`] runs on this CPU: the fastest available of
    /// those measured (all but [`CodePath::Avx512`], see the type's docs).
    #[must_use]
    pub fn detected() -> CodePath {
        CodePath::ALL
            .into_iter()
            .filter(|&path| path != CodePath::Avx512)
            .find(|path| path.available())
            .unwrap_or(CodePath::Portable)
    }

    /// Its entry point; `None` where the CPU cannot run it.
    fn entry(self) -> Option<Entry> {
        let (runs_here, entry) = self.compiled()?;
        runs_here().then_some(entry)
    }

    /// Where this copy is compiled at all (an architecture has only its
    /// own): whether the CPU runs it, and its entry point, which must only
    /// be called once the first said yes, or under
    /// [`search_on_unchecked`]'s promise. The one place that decides both.
    fn compiled(self) -> Option<(fn() -> bool, Entry)> {
        let always = || true;
        match self {
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => Some((v4::detected, v4::enter)),
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => Some((v3::detected, v3::enter)),
            #[cfg(target_arch = "x86_64")]
            CodePath::Sse2 => Some((always, visit_sse2)),
            #[cfg(not(target_arch = "x86_64"))]
            CodePath::Avx512 | CodePath::Avx2 | CodePath::Sse2 => None,
            CodePath::Portable => Some((always, visit_portable)),
        }
    }
}

/// Where a copy of the search starts: visits the grid and all below it.
type Entry = fn(&mut Search, Grid);

/// Runs the search from `grid` with the fastest copy the CPU can run (see
/// [`CodePath`]).
fn run(search: &mut Search, grid: Grid) {
    #[cfg(target_arch = "x86_64")]
    {
        if v3::detected() {
            // SAFETY: the CPU has every feature `v3::visit` is compiled for.
            unsafe { v3::visit(search, grid) };
        } else {
            visit_sse2(search, grid);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    visit_portable(search, grid);
}

/// The search with the plain-loop kernels.
fn visit_portable(search: &mut Search, grid: Grid) {
    search.visit::<Portable>(grid, visit_portable);
}

/// The search with the SSE2 kernels, for the baseline x86-64.
#[cfg(target_arch = "x86_64")]
fn visit_sse2(search: &mut Search, grid: Grid) {
    search.visit::<Sse2>(grid, visit_sse2);
}

/// The copy of the search compiled for x86-64-v3.
#[cfg(target_arch = "x86_64")]
mod v3 {
    use super::{Avx2, Grid, Search};

    /// Whether the CPU has the features of [`visit`]; the standard
    /// library caches the answer, so this is cheap per search.
    pub fn detected() -> bool {
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
    pub fn enter(search: &mut Search, grid: Grid) {
        // SAFETY: see above: reached only where the CPU has the features.
        unsafe { visit(search, grid) }
    }

    /// # Safety
    /// The CPU must have the features [`detected`] checks.
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub unsafe fn visit(search: &mut Search, grid: Grid) {
        // SAFETY: reached only from `enter` (see there), from `super::run`
        // after `detected()`, or from itself.
        search.visit::<Avx2>(grid, |search, grid| unsafe { visit(search, grid) });
    }
}

/// The copy of the search compiled for x86-64-v4.
#[cfg(target_arch = "x86_64")]
mod v4 {
    use super::{Avx512, Grid, Search};

    /// Whether the CPU has the features of [`visit`].
    pub fn detected() -> bool {
        super::v3::detected()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }

    /// [`visit`] as a plain function pointer (see `super::v3::enter`).
    pub fn enter(search: &mut Search, grid: Grid) {
        // SAFETY: reached only where the CPU has the features, as for
        // `super::v3::enter`.
        unsafe { visit(search, grid) }
    }

    /// # Safety
    /// The CPU must have the features [`detected`] checks.
    #[target_feature(
        enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt"
    )]
    pub unsafe fn visit(search: &mut Search, grid: Grid) {
        // SAFETY: reached only from `enter` (see there) or from itself.
        search.visit::<Avx512>(grid, |search, grid| unsafe { visit(search, grid) });
    }
}

/// LeetCode 37's signature: fill `board` in place ('1'..='9' digits, '.'
/// blanks). Leaves the board untouched if it is malformed, has conflicting
/// givens, or has no solution.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    let Some(cells) = super::read_cells(board) else {
        return;
    };
    if let Some(solution) = search(&cells, 1).first {
        super::write_cells(board, &solution);
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: usize,
    /// How many times the search had to guess, until it stopped: at each
    /// branch cell, every candidate tried except the cell's last one, and
    /// one for a digit's two ways through a band (see the module docs). 0
    /// means the rules (singles, locked candidates and triads) settled the
    /// puzzle without branching; for a unique puzzle that does not depend
    /// on the limit.
    pub guesses: u64,
    /// The first solution found, row-major digits 1..=9.
    pub first: Option<[u8; 81]>,
}

/// Searches `cells` (row-major, 0 = empty, 1..=9 = given) for up to `limit`
/// solutions. Conflicting givens or values > 9 give 0 solutions; limit 0
/// gives 0 solutions and does no search.
#[must_use]
pub fn search(cells: &[u8; 81], limit: usize) -> SearchOutcome {
    search_with(cells, limit, false, run)
}

/// [`search`] with its branch choice pinned, for what must not move when
/// the search gets faster: the guesses that grade a puzzle, and the first
/// solutions `gen` builds puzzles from (so a seed keeps making the same
/// files). The rules are the same; only the choice of bivalue cell, and
/// of which digit goes first, is the one the search made before it chose
/// for speed (see `Grid::branch_cell`). A test regenerates the shipped
/// generated cases with it, so a change that moves them is seen.
#[must_use]
pub fn graded_search(cells: &[u8; 81], limit: usize) -> SearchOutcome {
    search_with(cells, limit, true, run)
}

/// [`search`] on the copy `path`, `None` where this CPU cannot run it
/// ([`CodePath::available`]). With `graded`, [`graded_search`] instead.
#[must_use]
pub fn search_on(
    path: CodePath,
    cells: &[u8; 81],
    limit: usize,
    graded: bool,
) -> Option<SearchOutcome> {
    Some(search_with(cells, limit, graded, path.entry()?))
}

/// [`search_on`] without asking the CPU whether it can run `path`: for
/// running a copy where the CPU's answer is not the one that counts, as
/// under an emulator, which executes AVX-512 on a CPU without it while the
/// standard library's cached answer is the host's.
///
/// # Safety
/// The CPU executing the search must have the features of `path`
/// (otherwise it raises an illegal-instruction fault, or worse).
///
/// # Panics
/// Where `path` is not compiled at all: its SIMD copies off x86-64.
#[must_use]
pub unsafe fn search_on_unchecked(
    path: CodePath,
    cells: &[u8; 81],
    limit: usize,
    graded: bool,
) -> SearchOutcome {
    let Some((_, entry)) = path.compiled() else {
        panic!("no {} copy of the search on this architecture", path.name())
    };
    search_with(cells, limit, graded, entry)
}

/// [`search`] through one entry point.
fn search_with(cells: &[u8; 81], limit: usize, grading: bool, entry: Entry) -> SearchOutcome {
    let mut search = Search {
        limit,
        grading,
        solutions: 0,
        guesses: 0,
        first: None,
    };
    if limit > 0 {
        if let Some(grid) = Grid::new(cells) {
            entry(&mut search, grid);
        }
    }
    SearchOutcome {
        solutions: search.solutions,
        guesses: search.guesses,
        first: search.first,
    }
}

/// Number of solutions of `cells`, counting no further than `limit` (limit 2
/// = the uniqueness check).
#[must_use]
pub fn count_solutions(cells: &[u8; 81], limit: usize) -> usize {
    search(cells, limit).solutions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_a_guess_copies_is_136_bytes() {
        // The module's docs and docs/solvers.md say so.
        assert_eq!(std::mem::size_of::<Grid>(), 136);
    }

    /// LeetCode 37's example and its answer.
    const EXAMPLE: &str = crate::board::EXAMPLE;
    const ANSWER: &str = crate::board::EXAMPLE_ANSWER;
    /// Arto Inkala's "world's hardest sudoku" (2012) and its unique answer.
    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const INKALA_ANSWER: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    fn cells(s: &str) -> [u8; 81] {
        assert_eq!(s.len(), 81);
        let mut out = [0; 81];
        for (cell, b) in out.iter_mut().zip(s.bytes()) {
            *cell = if b == b'.' { 0 } else { b - b'0' };
        }
        out
    }

    fn rows(s: &str) -> Vec<Vec<char>> {
        let chars: Vec<char> = s.chars().collect();
        chars.chunks(9).map(<[char]>::to_vec).collect()
    }

    /// Every row, column and box holds 1..=9 and every given is kept.
    fn solves(puzzle: &[u8; 81], grid: &[u8; 81]) -> bool {
        let units_ok = (0..9).all(|i| {
            let (mut row, mut col, mut boxed) = (0u16, 0u16, 0u16);
            for j in 0..9 {
                row |= 1 << grid[9 * i + j];
                col |= 1 << grid[9 * j + i];
                boxed |= 1 << grid[27 * (i / 3) + 3 * (i % 3) + 9 * (j / 3) + j % 3];
            }
            row == 0x3FE && col == 0x3FE && boxed == 0x3FE
        });
        units_ok && puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
    }

    #[test]
    fn solves_the_leetcode_example_by_singles() {
        let mut board = rows(EXAMPLE);
        solve_sudoku(&mut board);
        assert_eq!(board, rows(ANSWER));
        let outcome = search(&cells(EXAMPLE), 2);
        assert_eq!(outcome.solutions, 1);
        assert_eq!(outcome.guesses, 0);
        assert_eq!(outcome.first, Some(cells(ANSWER)));
    }

    #[test]
    fn empty_board_has_many_solutions() {
        let empty = [0; 81];
        let outcome = search(&empty, 1);
        assert_eq!(outcome.solutions, 1);
        assert!(solves(&empty, &outcome.first.unwrap()));
        assert_eq!(count_solutions(&empty, 2), 2);
        assert_eq!(count_solutions(&empty, 5), 5);
        let mut board = rows(&".".repeat(81));
        solve_sudoku(&mut board);
        let filled: String = board.iter().flatten().collect();
        assert!(solves(&empty, &cells(&filled)));
    }

    #[test]
    fn limit_zero_does_no_search() {
        let outcome = search(&cells(INKALA), 0);
        assert_eq!(
            outcome,
            SearchOutcome {
                solutions: 0,
                guesses: 0,
                first: None
            }
        );
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let two_fives = format!("5.......5{}", ".".repeat(72));
        assert_eq!(search(&cells(&two_fives), 2).solutions, 0);
        let mut board = rows(&two_fives);
        solve_sudoku(&mut board);
        assert_eq!(board, rows(&two_fives));
        // Same digit twice in a column, in different bands.
        let mut column = [0; 81];
        column[4] = 7;
        column[76] = 7;
        assert_eq!(count_solutions(&column, 2), 0);
    }

    #[test]
    fn bad_values_and_boards_are_refused() {
        let mut bad = cells(EXAMPLE);
        bad[2] = 10;
        assert_eq!(count_solutions(&bad, 2), 0);
        for broken in [
            rows(&EXAMPLE.replace('.', "0")),
            rows(&EXAMPLE[..72]),
            rows(EXAMPLE)
                .into_iter()
                .map(|mut row| {
                    row.pop();
                    row
                })
                .collect(),
        ] {
            let mut board = broken.clone();
            solve_sudoku(&mut board);
            assert_eq!(board, broken);
        }
    }

    #[test]
    fn unsolvable_without_a_direct_conflict() {
        // Row 1 needs a 9 in its last cell, but column 9 already has one.
        let puzzle = format!("12345678.........9{}", ".".repeat(63));
        assert_eq!(count_solutions(&cells(&puzzle), 2), 0);
        let mut board = rows(&puzzle);
        solve_sudoku(&mut board);
        assert_eq!(board, rows(&puzzle));
    }

    #[test]
    fn solved_board_needs_no_guess() {
        let outcome = search(&cells(ANSWER), 2);
        assert_eq!(
            outcome,
            SearchOutcome {
                solutions: 1,
                guesses: 0,
                first: Some(cells(ANSWER))
            }
        );
    }

    #[test]
    fn hard_puzzle_needs_guesses() {
        let puzzle = cells(INKALA);
        let outcome = search(&puzzle, 2);
        assert_eq!(outcome.solutions, 1);
        assert!(outcome.guesses > 0);
        let first = outcome.first.unwrap();
        assert!(solves(&puzzle, &first));
        assert_eq!(first, cells(INKALA_ANSWER));
    }

    #[test]
    fn famous_hard_puzzles_have_one_valid_solution() {
        for puzzle in [
            // Easter Monster, AI Escargot, and one with 17 givens.
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
            "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
        ] {
            let puzzle = cells(puzzle);
            let outcome = search(&puzzle, 2);
            assert_eq!(outcome.solutions, 1);
            assert!(outcome.guesses > 0);
            assert!(solves(&puzzle, &outcome.first.unwrap()));
            assert_eq!(search(&puzzle, 1).first, outcome.first);
        }
    }

    #[test]
    fn some_17_clue_puzzles_need_no_guess() {
        // Hopeless for a plain backtracker, but singles (with locked
        // candidates) finish them; a guess here means a rule went missing.
        for puzzle in [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
            "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
        ] {
            let puzzle = cells(puzzle);
            let outcome = search(&puzzle, 2);
            assert_eq!((outcome.solutions, outcome.guesses), (1, 0));
            assert!(solves(&puzzle, &outcome.first.unwrap()));
        }
    }

    #[test]
    fn placements_clear_their_column_in_other_bands() {
        // Turned up by a longer run of the sparse sweep below: it has many
        // solutions, and its first one comes out invalid if a digit the band
        // rule places leaves its column open in the other two bands.
        let puzzle = cells(
            "...8..........6.1....93.87.3.......1......7.9.......5..2..9...7..6...3.5..9......",
        );
        for limit in [1, 2, 50] {
            let outcome = search(&puzzle, limit);
            assert_eq!(outcome.solutions, limit);
            assert!(solves(&puzzle, &outcome.first.unwrap()), "limit {limit}");
        }
    }

    #[test]
    fn guesses_are_deterministic() {
        for puzzle in [INKALA, EXAMPLE, &".".repeat(81)] {
            for limit in [1, 2, 7] {
                let puzzle = cells(puzzle);
                assert_eq!(search(&puzzle, limit), search(&puzzle, limit));
            }
        }
    }

    #[test]
    fn deadly_rectangle_has_exactly_two_solutions() {
        // In the answer r2c8 = 4, r2c9 = 8, r7c8 = 8, r7c9 = 4, and the two
        // columns share a stack: swapping 4 and 8 in all four cells is also
        // a solution.
        let mut open = cells(ANSWER);
        for pos in [16, 17, 61, 62] {
            open[pos] = 0;
        }
        let outcome = search(&open, 5);
        assert_eq!(outcome.solutions, 2);
        assert!(solves(&open, &outcome.first.unwrap()));
        assert_eq!(count_solutions(&open, 1), 1);
        assert_eq!(count_solutions(&open, 2), 2);
    }

    /// A plain fewest-candidates backtracker over a cell array, for the
    /// cross-check: slow, but too simple to share a bug with the solver.
    fn reference_count(cells: &mut [u8; 81], limit: usize) -> usize {
        fn taken(cells: &[u8; 81], pos: usize) -> u16 {
            let (row, col) = (pos / 9, pos % 9);
            let mut seen = 0;
            for (other, &d) in cells.iter().enumerate() {
                let (r, c) = (other / 9, other % 9);
                let peer = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
                if peer && other != pos {
                    seen |= 1 << d;
                }
            }
            seen
        }
        fn count(cells: &mut [u8; 81], limit: usize, found: &mut usize) {
            let open = (0..81)
                .filter(|&pos| cells[pos] == 0)
                .map(|pos| (pos, !taken(cells, pos) & 0x3FE))
                .min_by_key(|(_, digits)| digits.count_ones());
            let Some((pos, digits)) = open else {
                *found += 1;
                return;
            };
            for d in (1..=9).filter(|&d| digits & 1 << d != 0) {
                if *found == limit {
                    break;
                }
                cells[pos] = d;
                count(cells, limit, found);
            }
            cells[pos] = 0;
        }
        if (0..81).any(|pos| cells[pos] != 0 && taken(cells, pos) & 1 << cells[pos] != 0) {
            return 0;
        }
        let mut found = 0;
        count(cells, limit, &mut found);
        found
    }

    /// A seeded LCG (Knuth's MMIX constants): the same puzzles every run.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) as usize % bound
        }

        fn shuffle<T>(&mut self, items: &mut [T]) {
            for i in (1..items.len()).rev() {
                items.swap(i, self.below(i + 1));
            }
        }

        /// A solved grid: [`ANSWER`] with its digits relabelled, its bands,
        /// stacks, and the rows and columns inside them shuffled, and maybe
        /// transposed, all of which keep it valid.
        fn grid(&mut self) -> [u8; 81] {
            let mut labels = [1, 2, 3, 4, 5, 6, 7, 8, 9];
            self.shuffle(&mut labels);
            let mut lines = || {
                let mut order = [0; 9];
                let mut groups = [0, 1, 2];
                self.shuffle(&mut groups);
                for (slots, group) in order.chunks_mut(3).zip(groups) {
                    let mut within = [0, 1, 2];
                    self.shuffle(&mut within);
                    for (slot, w) in slots.iter_mut().zip(within) {
                        *slot = 3 * group + w;
                    }
                }
                order
            };
            let (rows, cols) = (lines(), lines());
            let transpose = self.below(2) == 1;
            let answer = cells(ANSWER);
            let mut grid = [0; 81];
            for (pos, cell) in grid.iter_mut().enumerate() {
                let (r, c) = (rows[pos / 9], cols[pos % 9]);
                let from = if transpose { 9 * c + r } else { 9 * r + c };
                *cell = labels[usize::from(answer[from]) - 1];
            }
            grid
        }

        /// `grid` with `blanks` random cells emptied.
        fn blank(&mut self, grid: &[u8; 81], blanks: usize) -> ([u8; 81], Vec<usize>) {
            let mut order: Vec<usize> = (0..81).collect();
            self.shuffle(&mut order);
            let mut puzzle = *grid;
            for &pos in &order[..blanks] {
                puzzle[pos] = 0;
            }
            (puzzle, order)
        }
    }

    #[test]
    fn agrees_with_a_plain_backtracker() {
        // Random solved grids with 40 to 61 cells blanked; every third
        // puzzle also has one given changed, which often leaves no solution.
        let mut rng = Lcg(0x5EED);
        let mut seen = [0; 4];
        for round in 0..50 {
            let grid = rng.grid();
            let blanks = 40 + rng.below(22);
            let (mut puzzle, order) = rng.blank(&grid, blanks);
            if round % 3 == 0 {
                let pos = order[blanks];
                // Shifts the digit by 1..=8, so it always changes.
                puzzle[pos] = (puzzle[pos] + rng.below(8) as u8) % 9 + 1;
            }
            let expected = reference_count(&mut puzzle.clone(), 3);
            let outcome = search(&puzzle, 3);
            assert_eq!(outcome.solutions, expected, "round {round}: {puzzle:?}");
            if let Some(first) = outcome.first {
                assert!(solves(&puzzle, &first));
            }
            seen[expected] += 1;
        }
        // The set covers all three cases.
        assert!(seen[0] > 0 && seen[1] > 0 && seen[3] > 0, "{seen:?}");
    }

    #[test]
    fn sparse_puzzles_solve_to_valid_grids() {
        // Too sparse for the plain backtracker, but a puzzle cut from a
        // solved grid has that grid as a solution, and as its only one when
        // it is unique.
        let mut rng = Lcg(0xC0FFEE);
        for round in 0..150 {
            let grid = rng.grid();
            let blanks = 50 + rng.below(15);
            let (puzzle, _) = rng.blank(&grid, blanks);
            let outcome = search(&puzzle, 2);
            let first = outcome.first.unwrap();
            assert!(solves(&puzzle, &first), "round {round}: {puzzle:?}");
            if outcome.solutions == 1 {
                assert_eq!(first, grid, "round {round}");
            }
        }
    }

    /// The puzzles of the other tests and a sweep of random ones, searched
    /// through `entry` at limits 1 and 3.
    fn outcomes(entry: Entry) -> Vec<SearchOutcome> {
        let mut puzzles: Vec<[u8; 81]> =
            [EXAMPLE, ANSWER, INKALA].iter().map(|p| cells(p)).collect();
        puzzles.push([0; 81]);
        // The shipped hard and fiendish files: dozens to hundreds of
        // guesses each, through every branch kind.
        for file in [
            include_str!("../../cases/acwing166/hard.in"),
            include_str!("../../cases/acwing166/generated/fiendish-001.in"),
        ] {
            puzzles.extend(file.lines().filter(|l| l.len() == 81).map(cells));
        }
        let mut rng = Lcg(0xD1CE);
        for round in 0..60 {
            let grid = rng.grid();
            let blanks = 45 + rng.below(25);
            let (mut puzzle, order) = rng.blank(&grid, blanks);
            if round % 4 == 0 {
                let pos = order[blanks];
                puzzle[pos] = (puzzle[pos] + rng.below(8) as u8) % 9 + 1;
            }
            puzzles.push(puzzle);
        }
        puzzles
            .iter()
            .flat_map(|p| {
                [false, true].into_iter().flat_map(move |grading| {
                    [
                        search_with(p, 1, grading, entry),
                        search_with(p, 3, grading, entry),
                    ]
                })
            })
            .collect()
    }

    #[test]
    fn every_compiled_variant_searches_alike() {
        // The portable copy of the search, and on x86-64 the SSE2 one and
        // (when this CPU has x86-64-v3) the AVX2 one, on the same puzzles.
        let portable = outcomes(visit_portable);
        assert!(portable.iter().any(|o| o.guesses > 50));
        assert!(portable.iter().any(|o| o.solutions == 0));
        assert_eq!(outcomes(run), portable);
        let mut compared = 0;
        for path in CodePath::ALL {
            if let Some(entry) = path.entry() {
                assert_eq!(outcomes(entry), portable, "{}", path.name());
                compared += 1;
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(compared >= 2, "the SSE2 copy runs on every x86-64 CPU");
        assert!(CodePath::detected().available());
    }

    #[test]
    fn a_copy_the_cpu_cannot_run_is_refused_not_run() {
        for path in CodePath::ALL {
            let outcome = search_on(path, &cells(EXAMPLE), 2, false);
            assert_eq!(outcome.is_some(), path.available(), "{}", path.name());
        }
        assert!(CodePath::Portable.available());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sse2_kernels_match_the_scalar_ones() {
        let mut rng = Lcg(0xB175);
        for _ in 0..2000 {
            let mut masks = [0u32; 9];
            for mask in &mut masks {
                // Sparse and dense masks both, so that every count occurs.
                *mask = (rng.below(1 << 27) & rng.below(1 << 27)
                    | (rng.below(1 << 27) * rng.below(2))) as u32;
            }
            let cells = (rng.below(1 << 27) & rng.below(1 << 27)) as u32;
            let i = rng.below(27) as u32;
            assert_eq!(sse2::counts(&masks), scalar::counts(&masks), "{masks:?}");
            assert_eq!(sse2::column(&masks, i), scalar::column(&masks, i));
            let triads = scalar::triad_counts(&masks);
            assert_eq!(sse2::triad_counts(&masks), triads, "{masks:?}");
            if v3::detected() {
                // SAFETY: the CPU has AVX2, as just checked.
                assert_eq!(unsafe { avx2::triad_counts(&masks) }, triads);
            }
            let (mut a, mut b) = (masks, masks);
            assert_eq!(sse2::clear(&mut a, cells), scalar::clear(&mut b, cells));
            assert_eq!(a, b);
            if v4::detected() {
                // SAFETY: the CPU has AVX-512, as just checked. (Elsewhere
                // the emulator test in tests/cli/solve.rs covers them.)
                unsafe {
                    assert_eq!(avx512::column(&masks, i), scalar::column(&masks, i));
                    let (mut a, mut b) = (masks, masks);
                    assert_eq!(avx512::clear(&mut a, cells), scalar::clear(&mut b, cells));
                    assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn the_triad_rule_fills_and_empties_mini_rows_and_columns() {
        // An empty grid but for band 0, where only digits 0..3 (0-based)
        // are left in mini-row 0 (row 0, columns 0..3) and only digits
        // 3..6 in mini-column 8 (column 8, rows 0..3).
        let mut grid = Grid::new(&[0; 81]).unwrap();
        let (minirow, minicol) = (0o7, SPREAD << 8);
        for digit in 3..9 {
            grid.cand[0][digit] &= !minirow;
        }
        for digit in (0..3).chain(6..9) {
            grid.cand[0][digit] &= !minicol;
        }
        let before = grid;
        assert_eq!(grid.triad_rule::<Portable>(0b110), Some(false));
        assert!(grid.triad_rule::<Portable>(0b001).unwrap());
        let box0 = 0o7 * SPREAD;
        let box2 = 0o700 * SPREAD;
        for digit in 0..9 {
            let mut expected = before.cand[0][digit];
            if digit < 3 {
                // Confined to the mini-row: gone from the rest of row 0 and
                // of box 0.
                expected &= !((NINE | box0) & !minirow);
            }
            if (3..6).contains(&digit) {
                // Confined to the mini-column: gone from the rest of box 2.
                expected &= !(box2 & !minicol);
            }
            assert_eq!(grid.cand[0][digit], expected, "digit {digit}");
            // Column 8 in the other bands.
            let far = if (3..6).contains(&digit) {
                BAND & !minicol
            } else {
                BAND
            };
            assert_eq!([grid.cand[1][digit], grid.cand[2][digit]], [far, far]);
        }
        // Three digits confined to a mini-row push out a fourth.
        let mut grid = Grid::new(&[0; 81]).unwrap();
        for digit in 0..3 {
            grid.cand[0][digit] &= !(0o7 << 9 | 0o7 << 18);
        }
        assert!(grid.triad_rule::<Portable>(0b001).unwrap());
        for digit in 3..9 {
            assert_eq!(grid.cand[0][digit] & 0o7, 0, "digit {digit}");
        }
        // A fourth digit confined to the same mini-row is a contradiction.
        grid.cand[0][3] = (grid.cand[0][3] | 0o7) & !(0o7 << 9 | 0o7 << 18);
        assert_eq!(grid.triad_rule::<Portable>(0b001), None);
    }

    #[test]
    fn a_digit_with_two_ways_through_a_band_or_stack_is_branched_on() {
        // Digit 0 in band 0: row 0 takes box 0, rows 1 and 2 boxes 1 and 2
        // in either order. Every other band, stack and digit has all six
        // ways, so band 0 has the fewest.
        let mut grid = Grid::new(&[0; 81]).unwrap();
        grid.cand[0][0] = 0o7 | 0o770 << 9 | 0o770 << 18;
        let even = [0o7 | 0o70 << 9 | 0o700 << 18, BAND, BAND];
        let odd = [0o7 | 0o700 << 9 | 0o70 << 18, BAND, BAND];
        assert_eq!(grid.band_branch::<Portable>(), Some((0, [even, odd])));
        // Digit 4 in stack 1 (columns 3..6): band 0 takes column 3, bands 1
        // and 2 columns 4 and 5 in either order.
        let mut grid = Grid::new(&[0; 81]).unwrap();
        grid.cand[0][4] &= !(0o60 * SPREAD);
        grid.cand[1][4] &= !(0o10 * SPREAD);
        grid.cand[2][4] &= !(0o10 * SPREAD);
        let keep = |others: [u32; 3]| others.map(|cols| BAND & !(cols * SPREAD));
        let (even, odd) = (keep([0o60, 0o50, 0o30]), keep([0o60, 0o30, 0o50]));
        assert_eq!(grid.band_branch::<Portable>(), Some((4, [even, odd])));
        // Six ways everywhere: no such digit.
        assert_eq!(Grid::new(&[0; 81]).unwrap().band_branch::<Portable>(), None);
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(grid.band_branch::<Sse2>(), Some((4, [even, odd])));
            if v3::detected() {
                // The AVX2 words need the CPU to have AVX2, as just checked.
                assert_eq!(grid.band_branch::<Avx2>(), Some((4, [even, odd])));
            }
        }
    }

    #[test]
    fn the_stack_rule_keeps_what_the_permutation_table_keeps() {
        // Stack 0 holds the set under test (bit `3 * band + k`: column k
        // in that band), stacks 1 and 2 every column, in row 0 of each band.
        let perms = build_perms();
        for set in 0..512u32 {
            let masks = [0, 1, 2].map(|band| (set >> (3 * band) & 7) | 0o770);
            let (kept, stuck) = stack_rule(masks);
            let expected = u32::from(perms[set as usize]);
            assert_eq!(stuck != 0, expected == 0, "{set:o}");
            if expected != 0 {
                for (band, kept) in kept.iter().enumerate() {
                    assert_eq!(kept & 7, expected >> (3 * band) & 7, "{set:o}");
                    assert_eq!(kept & 0o770, 0o770);
                }
            }
        }
    }
}
