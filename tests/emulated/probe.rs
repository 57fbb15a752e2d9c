//! The reference search behind a C entry point, loaded by
//! `tests/emulated/avx512.py` into Python and run there both natively and
//! under BochsCPU, an emulator of an x86-64 CPU with AVX-512: so the
//! search's AVX-512 copy is held against the others on a CPU without it.

use sudoku_judge::solver::reference::{search_on_unchecked, CodePath};

/// The copies by number, as the harness names them.
const PATHS: [CodePath; 3] = [CodePath::Portable, CodePath::Avx2, CodePath::Avx512];

/// Whether this CPU runs copy `path` natively (1) or not (0).
#[no_mangle]
pub extern "C" fn sudoku_judge_path_available(path: u32) -> u32 {
    PATHS
        .get(path as usize)
        .is_some_and(|p| p.available())
        .into()
}

/// Searches the 81 cells at `cells` (0 for a blank) with copy `path`, up
/// to `limit` solutions, with the graded branch choice when `graded` is
/// not 0; writes the solutions and guesses to `out[0..2]` and the first
/// solution, if any, to `first[0..81]`. Returns 0, or 1 for an unknown
/// path or a bad value.
///
/// # Safety
/// `cells` must point to 81 readable bytes, `out` to two writable `u64`s,
/// `first` to 81 writable bytes, and whatever executes the call (this CPU
/// or an emulator) must have the features of `path`.
#[no_mangle]
pub unsafe extern "C" fn sudoku_judge_search(
    path: u32,
    cells: *const u8,
    limit: usize,
    graded: u32,
    out: *mut u64,
    first: *mut u8,
) -> u32 {
    let Some(&path) = PATHS.get(path as usize) else {
        return 1;
    };
    // SAFETY: the caller's promises, above.
    let cells = unsafe { &*cells.cast::<[u8; 81]>() };
    if cells.iter().any(|&c| c > 9) {
        return 1;
    }
    // SAFETY: the caller vouches for the features of `path`.
    let outcome = unsafe { search_on_unchecked(path, cells, limit, graded != 0) };
    // SAFETY: the caller's promises, above.
    unsafe {
        *out = outcome.solutions as u64;
        *out.add(1) = outcome.guesses;
        if let Some(solution) = outcome.first {
            std::ptr::copy_nonoverlapping(solution.as_ptr(), first, 81);
        }
    }
    0
}
