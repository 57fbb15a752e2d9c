//! The commands' handlers, each short: the command line's arguments
//! ([`crate::cli`]) become the library's configuration here, the library
//! runs it, and the handler says how it went as an exit code. `test` is in
//! [`test`](mod@test), `new` in [`new`](mod@new), `stress` and `hack`, which
//! run rounds, in [`rounds`], and the other thirteen (`cases`, `solve`,
//! `driver`, `doctor`, `cache`, `solvers`, `worker`, `gen`, `rate`,
//! `calibrate`, `trust`, `check`, `bench`) in [`tools`]. What several
//! commands share (the submission, the limits, Ctrl-C, the sandbox's
//! check) is in [`shared`].

mod new;
mod rounds;
mod shared;
mod test;
mod tools;

pub(crate) use new::new;
pub(crate) use rounds::{hack, stress};
pub(crate) use test::test;
pub(crate) use tools::{
    bench, cache, calibrate, cases, check, doctor, driver, gen, rate, solve, solvers, trust, worker,
};

pub(crate) use shared::{closed_pipe, HARNESS_ERROR};
