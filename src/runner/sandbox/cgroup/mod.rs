//! Accounting for a run's whole process tree: one cgroup per run, read
//! through one interface whether the machine mounts cgroup v1 (a hierarchy
//! per controller) or v2 (one unified tree).
//!
//! A process's own `rusage` misses the children it never waits for, and
//! its resident memory misses its children's memory, tmpfs and shared
//! memory. A cgroup counts all of them: CPU time of every task that was
//! ever in it (`cpuacct.usage`, `cpu.stat`), the memory of all of them
//! (`memory.stat`), and how often a fork failed at its process limit
//! (`pids.events`). Its memory limit is enforced by the kernel, so a
//! submission that allocates faster than the watchdog looks is still
//! stopped.
//!
//! The memory judged is the tree's anonymous memory and its tmpfs and
//! shared memory (`rss` and `shmem`, or `anon` and `shmem` under v2), not
//! the cgroup's whole charge (`memory.max_usage_in_bytes`,
//! `memory.peak`): that also holds the page cache of files the run read
//! first and the kernel's own caches, which vary with what the machine
//! did before and would give a program that reads its own binary on a
//! cold cache, or a JVM, a false MLE. The kernel keeps no peak of that
//! sum, so the watchdog samples it; the whole charge still bounds the run
//! through the kernel's limit, where page cache is reclaimed first.
//!
//! Where the cgroups live: under v1, below the judge's own cgroup in each
//! controller's hierarchy (so whatever limits the judge runs under still
//! apply); under v2, in a `sudoku-judge` cgroup at the root, because v2
//! does not let a cgroup that holds processes (the judge's own) hand
//! controllers to children. Each run gets a cgroup of its own, named after
//! the spawner that made it; once everything of a run is gone, the
//! spawner gives its cgroup to a later run ([`Cgroup::reuse`]), counting
//! from where the counters stand, and removes them all when it ends.
//! Cgroups left by a spawner that was killed are removed by the next one.
//!
//! Everything here is reading and writing small files, so tests point a
//! [`Hierarchy`] at a temporary directory that looks like a cgroup tree.
//!
//! Its rooms: [`hierarchy`] finds the controllers and makes, reuses and
//! sweeps the runs' cgroups; [`delegate`] finds a cgroup v2 subtree
//! delegated to a user who is not root, and [`systemd`] asks for one;
//! [`run`] is one run's cgroup, its limits, counters and meter.

mod delegate;
mod group;
mod hierarchy;
mod run;
mod systemd;
#[cfg(test)]
mod tests;

pub(crate) use run::CgroupMeter;

pub(crate) use group::{Cgroup, CgroupLimits, Hierarchy};
