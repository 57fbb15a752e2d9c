//! The constants and lookup tables of the band representation: which bits
//! of a band mask are a row, a column or a mini-row, and the tables the band
//! rule and the branch choice read. All are built at compile time.

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// One bit per row of a band: `cols * SPREAD` copies a 9-bit column set to
/// all three rows, `SPREAD << col` is one column of the band.
pub(super) const SPREAD: u32 = 1 | 1 << 9 | 1 << 18;
/// The nine columns (or the nine cells of a row).
pub(super) const NINE: u32 = 0x1FF;
/// Every mask, in the dirty set (bit `16 * band + digit`).
pub(super) const ALL_MASKS: u64 = NINE as u64 * (1 | 1 << 16 | 1 << 32);
/// Bit `3 * m` for each mini-row `m = 3 * row + box` of a band.
pub(super) const MINIROWS: u32 = 0o111_111_111;

/// For row `r` of a band and its 9-bit mask, which of its three mini-rows
/// have a candidate (bits `3 * r + k`, in the high word) and, if the row has
/// exactly one cell, that cell (in the low word): one load per row gives the
/// band rule both.
pub(super) static ROWS: [[u64; 512]; 3] = {
    let mut table = [[0; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut row = 0;
        while row < 512 {
            let mut minirows = 0u64;
            let mut third = 0;
            while third < 3 {
                if row >> (3 * third) & 7 != 0 {
                    minirows |= 1 << (3 * r + third);
                }
                third += 1;
            }
            let lone = if (row as u32).count_ones() == 1 {
                (row as u64) << (9 * r)
            } else {
                0
            };
            table[r][row] = minirows << 32 | lone;
            row += 1;
        }
        r += 1;
    }
    table
};

/// For a band's 9-bit mini-row set (bit `3 * row + box`), the 27-bit cell
/// mask of the mini-rows that lie on some permutation inside the set; 0 when
/// there is none (the digit cannot fit in the band).
pub(super) static COMPLEX: [u32; 512] = {
    let perms = permutations();
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
};

/// For each cell of a band (0..27), its column within the band: a table
/// load is cheaper than `SPREAD << (i % 9)` in the branch-cell loop.
pub(super) static COLUMN: [u32; 27] = {
    let mut table = [0; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = SPREAD << (i % 9);
        i += 1;
    }
    table
};

/// For each cell (0..81, row-major), its 20 peers as three band masks.
pub(super) static PEERS: [[u32; 3]; 81] = {
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
};

/// For a 9-bit mini-row set (bit `3 * row + box`), the mini-rows that lie
/// on some permutation inside it.
pub(super) const fn permutations() -> [u16; 512] {
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

/// Cell index (0..81, row-major) to band and bit within the band.
pub(super) fn split(pos: usize) -> (usize, u32) {
    (pos / 27, 1 << (pos % 27))
}

/// The two bands other than `band`, in order, computed rather than matched:
/// a branch on the band mispredicts often.
#[inline(always)]
pub(super) fn other_bands(band: usize) -> (usize, usize) {
    (usize::from(band == 0), 2 - usize::from(band == 2))
}
