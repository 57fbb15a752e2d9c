//! The [`Jail`]: the container one run is started in and torn down
//! after.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nix::sched::CloneFlags;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{Gid, Pid, Uid};

use super::super::cgroup::{Cgroup, CgroupLimits, Hierarchy};
use super::super::child::{launch_plain, Confinement, Exec};
use super::super::failure::{Failure, Stage};
use super::super::init::{init, Setup};
use super::super::messages::{receive_from_init, FromInit};
use super::super::plan::{ExitReport, Plan, SpawnRequest};
use super::super::protections::Protections;
use super::super::root::BaseRoot;
use super::super::running::{chown_tree, give_back, Running};
use super::super::seccomp::{NoFork, NoKeyrings};
use crate::runner::sys::{clone_into, Cloned, SharedCounter};

/// Submissions of job N run as uid and gid `BOX_ID + N` when the judge is
/// root, as isolate's boxes do.
pub(super) const BOX_ID: u32 = 60000;

/// Tasks of a spawner's user namespace that are not the run's: the
/// spawner, the run's init, and inits of sandboxes let go, not yet
/// reaped.
pub(super) const TASKS_SLACK: u64 = 8;

/// How long a run's init may take to set up before it is given up.
const SETUP_DEADLINE: Duration = Duration::from_secs(10);

/// The spawner's containment, set up once.
pub(crate) struct Jail {
    pub(crate) protections: Protections,
    /// Fresh namespaces per run: PID, mount and IPC.
    pub(super) per_run: bool,
    pub(super) filesystem: bool,
    /// The part of every run's root that does not change between runs,
    /// built once in the spawner's own mount namespace.
    pub(super) base: Option<BaseRoot>,
    pub(super) cgroups: Option<Hierarchy>,
    /// Cgroups of runs that are entirely gone, for later runs.
    pub(super) spare_cgroups: Vec<Cgroup>,
    pub(super) no_fork: Option<NoFork>,
    pub(super) no_keyrings: Option<NoKeyrings>,
    /// Where no cgroup limits a run's tasks, but the run is a user of its
    /// own: how many tasks of that user are not the run's (its init, the
    /// spawner, a sandbox let go), to add to the run's `RLIMIT_NPROC`.
    pub(super) tasks_slack: Option<u64>,
    /// The ids submissions run as, when the judge is root.
    pub(super) drop_to: Option<(Uid, Gid)>,
    /// The ids inside the namespaces that scratch directories belong to.
    pub(super) owner: (u32, u32),
    pub(super) runs: u64,
    /// The sandbox for the next run: made, or being made (or made new
    /// after its last run) by its init.
    pub(super) ready: Option<Prepared>,
    /// Runs and sandboxes let go, whose inits are still to be reaped.
    pub(super) retired: Vec<Retired>,
}

/// What is left of a run or an unused sandbox: an init on its way out
/// (its namespaces end with it), then a cgroup to remove and directories
/// to give back. Reaped when the kernel is done, off any run's time.
pub(super) struct Retired {
    init: Option<i32>,
    pidfd: Option<OwnedFd>,
    cgroup: Option<Cgroup>,
    lent: Vec<(PathBuf, Uid, Gid)>,
}

impl Retired {
    /// Whether it is all gone now; cleans up what it can, and puts its
    /// cgroup among the `spare` ones for a later run.
    fn reap(&mut self, wait: bool, spare: &mut Vec<Cgroup>) -> bool {
        if let Some(init) = self.init {
            let flags = (!wait).then_some(WaitPidFlag::WNOHANG);
            if waitpid(Pid::from_raw(init), flags) == Ok(WaitStatus::StillAlive) {
                return false;
            }
            self.init = None;
            self.pidfd = None;
        }
        if let Some(cgroup) = self.cgroup.take() {
            // Without a PID namespace, something of the run may be left.
            cgroup.kill_all();
            spare.push(cgroup);
        }
        give_back(&std::mem::take(&mut self.lent));
        true
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        if let Some(ready) = self.ready.take() {
            self.retire_prepared(ready);
        }
        let mut spare = std::mem::take(&mut self.spare_cgroups);
        for retired in &mut self.retired {
            retired.reap(true, &mut spare);
        }
        for cgroup in spare {
            let _ = cgroup.remove();
        }
    }
}

/// The limits of the cgroup of a run of `plan`.
fn limits_of(plan: &Plan) -> CgroupLimits {
    CgroupLimits {
        memory_bytes: plan.memory_cap_kb.saturating_mul(1024),
        pids: plan.tasks,
    }
}

/// A run's sandbox before its command is known: its cgroup, and an init
/// that has built the root (or made it new after its last run) and waits
/// on its socket for the command and its descriptors.
pub(super) struct Prepared {
    plan: Plan,
    init: i32,
    pidfd: Option<OwnedFd>,
    /// The init's socket, both ways: its word that the sandbox is ready,
    /// then the command, then how the run started and ended.
    from_init: OwnedFd,
    /// Whether the init has said that the sandbox is ready.
    ready: bool,
    cgroup: Option<Cgroup>,
    /// Without a cgroup: where its init keeps the CPU time it samples of
    /// the run ([`super::super::sampler`]), for the judge to read.
    sampled: Option<OwnedFd>,
    lent: Vec<(PathBuf, Uid, Gid)>,
    /// How many runs it served before.
    served: u32,
}

impl Prepared {
    /// Takes the init's word that the sandbox is ready, waiting at most
    /// `deadline` for it (zero: only if it is there).
    fn ready(&mut self, deadline: Duration) -> Result<(), Failure> {
        if self.ready {
            return Ok(());
        }
        match receive_from_init(&self.from_init, deadline) {
            Ok(FromInit::Ready) => {
                self.ready = true;
                Ok(())
            }
            Ok(FromInit::Failed(failure)) => Err(failure),
            Err(error) if error.kind() == io::ErrorKind::TimedOut && deadline.is_zero() => Ok(()),
            Ok(FromInit::Started { .. } | FromInit::Exited { .. }) | Err(_) => Err(Failure::new(
                Stage::Namespaces,
                "the run's init ended before it was ready",
                0,
            )),
        }
    }
}

impl Jail {
    /// Starts one run on `stdio` (stdin, stdout, stderr, and a driver's
    /// answers as fd 3 when there are four).
    pub(crate) fn launch(
        &mut self,
        launch: &SpawnRequest,
        stdio: Vec<OwnedFd>,
    ) -> Result<Running, Failure> {
        if !self.per_run {
            return self.launch_direct(launch, stdio);
        }
        let mut prepared = match self.ready.take() {
            Some(ready) if ready.plan == launch.plan => ready,
            other => {
                if let Some(other) = other {
                    self.retire_prepared(other);
                }
                self.prepare(&launch.plan, &stdio)?
            }
        };
        if let Err(failure) = prepared.ready(SETUP_DEADLINE) {
            let served = prepared.served;
            self.retire_prepared(prepared);
            if served == 0 {
                return Err(failure);
            }
            // One that served runs may have found its last run's space
            // not as it was made: a fresh one.
            prepared = self.prepare(&launch.plan, &stdio)?;
            if let Err(failure) = prepared.ready(SETUP_DEADLINE) {
                self.retire_prepared(prepared);
                return Err(failure);
            }
        }
        let command = serde_json::to_vec(launch)
            .map_err(|e| Failure::new(Stage::Exec, format!("cannot encode the command: {e}"), 0))?;
        let fds: Vec<RawFd> = stdio.iter().map(|fd| fd.as_raw_fd()).collect();
        let started = Instant::now();
        let sent = crate::runner::sys::send(&prepared.from_init, &command, &fds);
        drop(stdio);
        let heard = sent.and_then(|()| receive_from_init(&prepared.from_init, SETUP_DEADLINE));
        let pid = match heard {
            Ok(FromInit::Started { pid }) => Ok(pid),
            Ok(FromInit::Failed(failure)) => Err(failure),
            Ok(FromInit::Ready | FromInit::Exited { .. }) => {
                Err(Failure::new(Stage::Exec, "the submission did not start", 0))
            }
            Err(error) => Err(Failure::io(
                Stage::Exec,
                "the submission did not start",
                &error,
            )),
        };
        let pid = match pid {
            Ok(pid) => pid,
            Err(failure) => {
                self.retire_prepared(prepared);
                return Err(failure);
            }
        };
        let Prepared {
            plan,
            init,
            pidfd,
            from_init,
            cgroup,
            sampled,
            lent,
            served,
            ..
        } = prepared;
        Ok(Running {
            pid,
            init: Some(init),
            pidfd,
            from_init: Some(from_init),
            cgroup,
            sampled,
            started,
            lent,
            ended: None,
            stop_asked: None,
            pooled: self.pooled(&plan).then_some((plan, served)),
        })
    }

    /// Starts one run straight from the spawner, without an init of its
    /// own (no namespaces a run at a time).
    fn launch_direct(
        &mut self,
        launch: &SpawnRequest,
        stdio: Vec<OwnedFd>,
    ) -> Result<Running, Failure> {
        self.runs += 1;
        let cgroup = self.cgroup(&launch.plan)?;
        let lent = self.lend(&launch.plan.writable);
        let exec = Exec::new(launch, self.confinement())?;
        let started = Instant::now();
        match launch_plain(&exec, stdio, cgroup.as_ref()) {
            Ok(pid) => Ok(Running {
                pid,
                init: None,
                pidfd: crate::runner::sys::pidfd_open(pid),
                from_init: None,
                cgroup,
                sampled: None,
                started,
                lent,
                ended: None,
                stop_asked: None,
                pooled: None,
            }),
            Err(failure) => {
                give_back(&lent);
                if let Some(cgroup) = cgroup {
                    cgroup.kill_all();
                    let _ = cgroup.remove();
                }
                Err(failure)
            }
        }
    }

    /// What every run's start gets of this containment.
    fn confinement(&self) -> Confinement<'_> {
        Confinement {
            tasks_slack: self.tasks_slack,
            drop_to: self.drop_to,
            no_fork: self.no_fork.as_ref(),
            keyrings: self.no_keyrings.as_ref(),
        }
    }

    /// Whether the sandbox of a run of `plan` serves the next runs of the
    /// same plan (every case of a submission has it): its init empties its
    /// scratch space and takes a fresh IPC namespace between runs, instead
    /// of a new init building a new root for each, which cost more than
    /// twice what the rest of the judge spends on a run (about 1.5 ms of
    /// CPU time). Not a compile's, which writes a directory of its own.
    fn pooled(&self, plan: &Plan) -> bool {
        self.per_run && plan.writable.is_empty()
    }

    /// The sandbox of a run that is over, for the next run of its plan:
    /// when its init reported the end, lives on, and its cgroup can count
    /// again from here.
    fn keep_for_next(&mut self, running: &mut Running) -> Option<Prepared> {
        let (plan, served) = running.pooled.take()?;
        if running.ended.is_none() || running.init.is_none() || running.from_init.is_none() {
            return None;
        }
        let cgroup = match running.cgroup.take() {
            Some(cgroup) => match cgroup.clone().reuse(limits_of(&plan)) {
                Ok(cgroup) => Some(cgroup),
                Err(_) => {
                    running.cgroup = Some(cgroup);
                    return None;
                }
            },
            None => None,
        };
        Some(Prepared {
            init: running.init.take()?,
            pidfd: running.pidfd.take(),
            from_init: running.from_init.take()?,
            ready: false,
            cgroup,
            sampled: running.sampled.take(),
            lent: std::mem::take(&mut running.lent),
            served: served + 1,
            plan,
        })
    }

    /// Lets go of a sandbox that will not be used.
    pub(super) fn retire_prepared(&mut self, prepared: Prepared) {
        // Our own child, not yet reaped.
        let _ = kill(Pid::from_raw(prepared.init), Signal::SIGKILL);
        self.retired.push(Retired {
            init: Some(prepared.init),
            pidfd: prepared.pidfd,
            cgroup: prepared.cgroup,
            lent: prepared.lent,
        });
    }

    /// Lets go of a run whose report has been sent: its sandbox serves the
    /// next run where it can ([`Jail::pooled`]).
    pub(crate) fn retire(&mut self, mut running: Running) {
        let kept = self.keep_for_next(&mut running);
        // Dropped now, it has nothing left to stop.
        running.ended.get_or_insert_with(ExitReport::default);
        if let Some(kept) = kept {
            if let Some(other) = self.ready.replace(kept) {
                self.retire_prepared(other);
            }
            return;
        }
        let init = running.init.take();
        if let Some(init) = init {
            // Its run is over; this only makes sure it ends.
            // Our own child, not yet reaped.
            let _ = kill(Pid::from_raw(init), Signal::SIGKILL);
        }
        self.retired.push(Retired {
            init,
            pidfd: running.pidfd.take(),
            cgroup: running.cgroup.take(),
            lent: std::mem::take(&mut running.lent),
        });
    }

    /// Tends to the background: takes the word of a sandbox being made,
    /// and reaps what was let go.
    pub(crate) fn tend(&mut self) {
        if let Some(mut ready) = self.ready.take() {
            match ready.ready(Duration::ZERO) {
                Ok(()) => self.ready = Some(ready),
                Err(_) => self.retire_prepared(ready),
            }
        }
        let spare = &mut self.spare_cgroups;
        self.retired
            .retain_mut(|retired| !retired.reap(false, spare));
    }

    /// Descriptors that become readable when the background moves on.
    pub(crate) fn background_fds(&self) -> Vec<RawFd> {
        let mut fds: Vec<RawFd> = self
            .retired
            .iter()
            .filter_map(|r| r.pidfd.as_ref().map(|fd| fd.as_raw_fd()))
            .collect();
        if let Some(ready) = self.ready.as_ref().filter(|r| !r.ready) {
            fds.push(ready.from_init.as_raw_fd());
        }
        fds
    }

    fn cgroup(&mut self, plan: &Plan) -> Result<Option<Cgroup>, Failure> {
        let Some(hierarchy) = &self.cgroups else {
            return Ok(None);
        };
        let limits = limits_of(plan);
        while let Some(spare) = self.spare_cgroups.pop() {
            match spare.clone().reuse(limits) {
                Ok(cgroup) => return Ok(Some(cgroup)),
                Err(_) => {
                    spare.kill_all();
                    let _ = spare.remove();
                }
            }
        }
        self.runs += 1;
        hierarchy
            .create(&format!("{}-{}", std::process::id(), self.runs), limits)
            .map(Some)
            .map_err(|e| Failure::io(Stage::Cgroup, "cannot make the run's cgroup", &e))
    }

    /// Hands the writable directories to the box's user for the run (when
    /// the judge is root and runs submissions as another user).
    fn lend(&self, dirs: &[PathBuf]) -> Vec<(PathBuf, Uid, Gid)> {
        let Some((uid, gid)) = self.drop_to else {
            return Vec::new();
        };
        let mut lent = Vec::new();
        for dir in dirs {
            let Ok(meta) = fs::metadata(dir) else {
                continue;
            };
            use std::os::unix::fs::MetadataExt as _;
            let owner = (Uid::from_raw(meta.uid()), Gid::from_raw(meta.gid()));
            chown_tree(dir, uid, gid);
            lent.push((dir.clone(), owner.0, owner.1));
        }
        lent
    }

    /// Starts making a run's sandbox for `plan`, up to the point where only
    /// its command is missing: the init does the work, and says when it is
    /// done ([`Prepared::ready`]). `stdio`, the descriptors of the run the
    /// spawner is starting, are not the init's to keep: it would hold that
    /// run's pipes open for as long as it serves runs.
    fn prepare(&mut self, plan: &Plan, stdio: &[OwnedFd]) -> Result<Prepared, Failure> {
        let cgroup = self.cgroup(plan)?;
        let lent = self.lend(&plan.writable);
        let cleanup = |cgroup: Option<Cgroup>, lent: &[(PathBuf, Uid, Gid)]| {
            if let Some(cgroup) = cgroup {
                let _ = cgroup.remove();
            }
            give_back(lent);
        };
        let (ours, theirs) = match crate::runner::sys::socket_pair() {
            Ok(sockets) => sockets,
            Err(e) => {
                cleanup(cgroup, &lent);
                return Err(Failure::io(
                    Stage::Namespaces,
                    "cannot make a socket pair",
                    &e,
                ));
            }
        };
        // Without a cgroup, the init samples the run's CPU time into it.
        // Without the file (no memfd), the run is charged its rusage.
        let sampled = cgroup
            .is_none()
            .then(SharedCounter::file)
            .and_then(Result::ok);
        let flags = CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWNS | CloneFlags::CLONE_NEWIPC;
        let pid = match clone_into(flags) {
            Ok(Cloned::Parent(pid)) => pid,
            Ok(Cloned::Child) => {
                drop(ours);
                for fd in stdio {
                    let _ = nix::unistd::close(fd.as_raw_fd());
                }
                let setup = Setup {
                    base: self
                        .base
                        .as_ref()
                        .filter(|_| self.filesystem)
                        .map(|base| base.path.as_path()),
                    owner: self.owner,
                    pooled: self.pooled(plan),
                    confinement: self.confinement(),
                };
                init(&theirs, plan, cgroup.as_ref(), sampled.as_ref(), &setup);
            }
            Err(error) => {
                cleanup(cgroup, &lent);
                return Err(Failure::io(
                    Stage::Namespaces,
                    "cannot make PID, mount and IPC namespaces",
                    &error,
                ));
            }
        };
        drop(theirs);
        Ok(Prepared {
            plan: plan.clone(),
            init: pid,
            pidfd: crate::runner::sys::pidfd_open(pid),
            from_init: ours,
            ready: false,
            cgroup,
            sampled,
            lent,
            served: 0,
        })
    }
}
