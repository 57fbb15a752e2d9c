//! Whether the judge's escape sequences (its colours, the progress line's
//! cursor moves) reach a terminal that draws them. Every Unix terminal
//! does. A Windows console draws them only once a program asks it to
//! (`ENABLE_VIRTUAL_TERMINAL_PROCESSING`, one stream at a time, which the
//! `console` crate sets as anstream does for clap's help); a console that
//! refuses (Windows before 10) gets neither colour nor a progress line
//! rather than escape sequences shown as text. The terminals of MSYS2 and
//! Git for Windows draw them as they are.

/// Whether stdout draws escape sequences; on Windows, asks its console to
/// first. `console` declines too when `NO_COLOR` is set.
pub(crate) fn stdout_draws_escapes() -> bool {
    #[cfg(windows)]
    return console::Term::stdout().features().colors_supported();
    #[cfg(not(windows))]
    return true;
}

/// Whether stderr draws escape sequences, on Windows: asks its console to
/// first (with `NO_COLOR` set, it declines: no progress line then).
#[cfg(windows)]
pub(crate) fn stderr_draws_escapes() -> bool {
    console::Term::stderr().features().colors_supported()
}
