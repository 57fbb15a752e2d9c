//! The spawner's side of containment: the namespaces it makes once, and
//! how it starts each run inside them.
//!
//! Once per spawner ([`Jail::enter`]): a user namespace when the judge is
//! not root, then mount, network and UTS namespaces of the spawner's own
//! (its mounts private, its loopback up), the cgroup hierarchy, and a probe
//! run that tries every per-run layer end to end, dropping the ones the
//! kernel refuses and saying why ([`Protections`](super::protections::Protections)).
//!
//! Once per spawner too, the part of every run's root that never changes
//! ([`BaseRoot`](super::root::BaseRoot): an empty tmpfs with read-only binds of the system and a
//! minimal `/dev`), in its own mount namespace, where every run's copy of
//! that namespace finds it.
//!
//! Per sandbox: a cgroup (a spare one of an earlier run when there is
//! one), then a `clone` into fresh PID, mount and IPC namespaces. The clone
//! is the namespaces' init. It adds the run's own part to the root (the
//! run's files, a scratch working directory, `/tmp`, `/dev/shm`, `/proc`)
//! and waits for the command. Given it ([`Jail::launch`]), it starts the
//! submission in its own memory, `posix_spawn`-style
//! ([`super::child::start`]); the submission joins the cgroup, changes into
//! the new root and execs: unprivileged, with `no_new_privs`, its limits,
//! and for LeetCode-style files the process filter. The init then reaps,
//! kills and reaps whatever else the run left in the namespace, and
//! reports how the submission ended. It cannot be signalled from inside
//! (an init ignores signals it has no handler for), nor traced (it is not
//! dumpable).
//!
//! A sandbox serves run after run of the same plan (every case of a
//! submission: [`Jail::pooled`]): between runs its init empties the
//! scratch space, removes the run's shared memory and takes a fresh IPC
//! namespace, and its cgroup counts again from where it stands. No
//! process of the last run is left by then, and no run can change the
//! rest of the root (read-only, and no run may mount), so the next run
//! finds the sandbox as the first did, for a fraction of the cost of a
//! new one. A compile's sandbox, which writes a directory of its own, and
//! one whose last run changed what it cannot undo, serve one run and go:
//! the kernel kills whatever is in its namespaces with its init.
//!
//! Without namespaces the submission is forked directly, in a process
//! group of its own, and the spawner, a child subreaper, kills whatever it
//! left behind after it exits.
//!
//! The spawner is single-threaded, so the init, a fork-like clone of it,
//! may run Rust; it only ends by `_exit`. The submission's process, in
//! the init's memory until its exec, allocates nothing ([`super::child`]).
//!
//! Each process and lifetime has a room of its own, as nsjail and
//! go-sandbox keep theirs: [`container`] is the spawner's bookkeeping, and
//! [`enter`] its setup, once;
//! [`super::namespaces`] the spawner's own namespaces; [`super::root`] the
//! root filesystem; [`super::init`] the run's init; [`super::child`] the
//! submission's process from clone to exec; [`super::messages`] what the
//! init tells the spawner; [`super::running`] a run under way and its end;
//! [`super::failure`] why a run did not start. Data flows one way: this
//! file starts the init and the child, the init starts the child, and
//! none of them imports this one.

mod container;
mod enter;

pub(crate) use container::Jail;
