//! Setting up a spawner's containment once: its own namespaces, the
//! cgroup hierarchy, the base of every run's root, and a probe run that
//! tries every per-run layer end to end, dropping the ones the kernel
//! refuses and saying why.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use nix::unistd::{Gid, Uid};

use super::container::{Jail, BOX_ID, TASKS_SLACK};
use crate::runner::sandbox::cgroup::Hierarchy;
use crate::runner::sandbox::failure::{Failure, Stage};
use crate::runner::sandbox::namespaces::{loopback_up, make_namespaces};
use crate::runner::sandbox::root::BaseRoot;
use crate::runner::sandbox::seccomp::{NoFork, NoKeyrings};
use crate::runner::sandbox::{Layer, Mode, Plan, Protections, SpawnRequest};
use crate::runner::sys::Rlimits;

impl Jail {
    /// Sets up the spawner's containment for `mode`, as far as the kernel
    /// allows; `exe` (this program) is run once to prove the per-run
    /// layers; `cgroups` is where the judge found its runs' cgroups may go.
    pub(crate) fn enter(
        mode: Mode,
        slot: u32,
        exe: &Path,
        cgroups: Result<Hierarchy, String>,
    ) -> Jail {
        let mut jail = Jail {
            protections: Protections::off(),
            per_run: false,
            filesystem: false,
            base: None,
            cgroups: None,
            spare_cgroups: Vec::new(),
            no_fork: None,
            no_keyrings: None,
            tasks_slack: None,
            drop_to: None,
            owner: (Uid::current().as_raw(), Gid::current().as_raw()),
            runs: 0,
            ready: None,
            retired: Vec::new(),
        };
        // Whatever a run leaves behind, outside a PID namespace, becomes
        // the spawner's child, to be killed.
        let _ = nix::sys::prctl::set_child_subreaper(true);
        if mode == Mode::Off {
            return jail;
        }
        let root = Uid::effective().is_root();
        let mut protections = Protections {
            mode,
            user_namespace: !root,
            ..Protections::off()
        };
        match make_namespaces(root) {
            Ok(()) => {
                protections.network = Layer::On;
                protections.processes = Layer::On;
                protections.filesystem = Layer::On;
                protections.ipc = Layer::On;
                // A loopback that is down is still no way out.
                let _ = loopback_up();
                jail.per_run = true;
            }
            Err(why) => {
                protections.user_namespace = false;
                for layer in [
                    &mut protections.processes,
                    &mut protections.filesystem,
                    &mut protections.network,
                    &mut protections.ipc,
                ] {
                    *layer = Layer::Missing(why.clone());
                }
            }
        }
        if root {
            let id = BOX_ID + slot % 1000;
            jail.drop_to = Some((Uid::from_raw(id), Gid::from_raw(id)));
            jail.owner = (id, id);
        }
        if jail.per_run {
            BaseRoot::sweep_stale();
            match BaseRoot::build() {
                Ok(base) => {
                    jail.base = Some(base);
                    jail.filesystem = true;
                }
                Err(failure) => protections.filesystem = Layer::Missing(failure.message),
            }
        }
        protections.accounting = match cgroups {
            Ok(hierarchy) => {
                hierarchy.sweep_stale();
                protections.cgroup_version = Some(hierarchy.describe());
                jail.cgroups = Some(hierarchy);
                Layer::On
            }
            Err(why) => Layer::Missing(why),
        };
        protections.no_fork = match NoFork::new() {
            Ok(filter) => {
                jail.no_fork = Some(filter);
                Layer::On
            }
            Err(why) => Layer::Missing(format!("cannot build the seccomp filter: {why}")),
        };
        protections.keyrings = match (
            NoKeyrings::new(),
            crate::runner::sys::join_new_session_keyring(),
        ) {
            (Ok(filter), Ok(())) => {
                jail.no_keyrings = Some(filter);
                Layer::On
            }
            // A kernel without keyrings has none to reach.
            (Ok(_), Err(e)) if e.raw_os_error() == Some(libc::ENOSYS) => Layer::On,
            (Err(why), _) => Layer::Missing(format!("cannot build the seccomp filter: {why}")),
            (_, Err(e)) => Layer::Missing(format!("cannot leave the judge's session keyring: {e}")),
        };
        jail.protections = protections;
        jail.probe(exe);
        jail.limit_tasks();
        jail
    }

    /// Settles how a run's tasks are limited, once the probe has said
    /// which layers hold: by its cgroup; else by `RLIMIT_NPROC`, where the
    /// run is a user of its own (a box user of the judge's, or the user
    /// namespace of this spawner, which runs one run at a time: since
    /// Linux 5.14 the kernel counts a user's tasks per user namespace).
    fn limit_tasks(&mut self) {
        self.tasks_slack = None;
        self.protections.tasks = if self.cgroups.is_some() {
            Layer::On
        } else if self.drop_to.is_some() {
            self.tasks_slack = Some(0);
            Layer::On
        } else if self.per_run && self.protections.user_namespace {
            self.tasks_slack = Some(TASKS_SLACK);
            Layer::On
        } else {
            Layer::Missing(
                "no cgroup counts a run's tasks, and the run shares the judge's user".into(),
            )
        };
    }

    /// Starts `exe --version` with every layer in force, dropping the ones
    /// that fail, until it starts or none is left to drop.
    fn probe(&mut self, exe: &Path) {
        for _ in 0..4 {
            let launch = SpawnRequest {
                program: exe.as_os_str().as_bytes().to_vec(),
                argv: vec![b"sudoku-judge".to_vec(), b"--version".to_vec()],
                env: Vec::new(),
                limits: Rlimits::default(),
                plan: Plan {
                    read_only: vec![exe.to_path_buf()],
                    // The scratch directory exists only in a root of the
                    // sandbox's own; without one, the probe starts where
                    // every system has a directory.
                    cwd: if self.filesystem {
                        crate::runner::sandbox::FALLBACK_CWD.into()
                    } else {
                        "/".into()
                    },
                    scratch_kb: 1024,
                    memory_cap_kb: 256 << 10,
                    tasks: 16,
                    ..Plan::default()
                },
            };
            let stdio = match (0..3)
                .map(|_| fs::OpenOptions::new().write(true).open("/dev/null"))
                .collect::<io::Result<Vec<_>>>()
            {
                Ok(files) => files.into_iter().map(OwnedFd::from).collect(),
                Err(_) => return,
            };
            let launched = self.launch(&launch, stdio);
            let failure = match launched {
                Ok(mut running) => {
                    let result = running.wait_blocking();
                    self.retire(running);
                    // Its sandbox is for no run: the probe's plan is its
                    // own, and the layers it was made with may be dropped
                    // below.
                    if let Some(ready) = self.ready.take() {
                        self.retire_prepared(ready);
                    }
                    match result {
                        Ok(_) => return,
                        Err(error) => Failure::io(Stage::Exec, "the probe run failed", &error),
                    }
                }
                Err(failure) => failure,
            };
            let why = failure.message;
            match failure.stage {
                Stage::Cgroup if self.cgroups.is_some() => {
                    self.cgroups = None;
                    self.protections.cgroup_version = None;
                    self.protections.accounting = Layer::Missing(why);
                }
                Stage::Filesystem if self.filesystem => {
                    self.filesystem = false;
                    self.base = None;
                    self.protections.filesystem = Layer::Missing(why);
                }
                Stage::Namespaces | Stage::Exec | Stage::Program if self.per_run => {
                    self.per_run = false;
                    self.filesystem = false;
                    self.base = None;
                    for layer in [
                        &mut self.protections.processes,
                        &mut self.protections.filesystem,
                        &mut self.protections.ipc,
                    ] {
                        *layer = Layer::Missing(why.clone());
                    }
                }
                _ => return,
            }
        }
    }
}
