//! System-call filters: one that keeps every run away from the kernel's
//! keyrings, and one that lets a process start threads but no other
//! processes.
//!
//! Keyrings are not namespaced: a run that may call `keyctl` could read,
//! and clear, the session keyring of whoever runs the judge (Kerberos
//! tickets, tool tokens), or leave keys in its user's keyring for a later
//! run. So every run joins an anonymous session keyring of its own, and
//! `add_key`, `keyctl` and `request_key` fail with `EPERM`, as Docker's
//! default profile has them.
//!
//! A LeetCode-style solution is charged the CPU time its process spends on
//! each board, read from the kernel's clock of that process from outside
//! (see `runner::external`). Work done in a child process would not show on
//! that clock, so such runs may not make children: `fork`, `vfork` and a
//! `clone` without `CLONE_THREAD` fail with `EPERM`, as LeetCode's own
//! sandbox refuses them. `clone3` passes its flags in memory, where a
//! filter cannot look, so it fails with `ENOSYS`: the C library then falls
//! back to `clone` for threads, which the filter can read.

use std::collections::BTreeMap;
use std::io;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// System calls that only ever start a process (the others start threads too).
#[cfg(target_arch = "x86_64")]
const PROCESS_CALLS: &[i64] = &[libc::SYS_fork, libc::SYS_vfork];
#[cfg(not(target_arch = "x86_64"))]
const PROCESS_CALLS: &[i64] = &[];

/// The keyring filter, compiled once and applied just before exec.
pub struct NoKeyrings {
    filter: BpfProgram,
}

impl NoKeyrings {
    pub fn new() -> Result<NoKeyrings, String> {
        let calls = [libc::SYS_add_key, libc::SYS_keyctl, libc::SYS_request_key];
        let filter = compile(
            calls.iter().map(|&call| (call, vec![])).collect(),
            libc::EPERM,
        )
        .map_err(|e| e.to_string())?;
        Ok(NoKeyrings { filter })
    }

    /// Applies the filter to the calling thread, for good. Needs
    /// `no_new_privs`.
    pub fn apply(&self) -> io::Result<()> {
        seccompiler::apply_filter(&self.filter).map_err(|e| io::Error::other(e.to_string()))
    }
}

/// The compiled filters, made before the fork and applied just before exec.
pub struct NoFork {
    filters: [BpfProgram; 2],
}

fn compile(
    rules: Vec<(i64, Vec<SeccompRule>)>,
    errno: i32,
) -> Result<BpfProgram, seccompiler::BackendError> {
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|_| seccompiler::BackendError::InvalidTargetArch(std::env::consts::ARCH.into()))?;
    SeccompFilter::new(
        rules.into_iter().collect::<BTreeMap<_, _>>(),
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )?
    .try_into()
}

impl NoFork {
    pub fn new() -> Result<NoFork, String> {
        let new_process = SeccompRule::new(vec![SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(libc::CLONE_THREAD as u64),
            0,
        )
        .map_err(|e| e.to_string())?])
        .map_err(|e| e.to_string())?;
        let refused = PROCESS_CALLS
            .iter()
            .map(|&call| (call, vec![]))
            .chain([(libc::SYS_clone, vec![new_process])])
            .collect();
        let processes = compile(refused, libc::EPERM).map_err(|e| e.to_string())?;
        let clone3 =
            compile(vec![(libc::SYS_clone3, vec![])], libc::ENOSYS).map_err(|e| e.to_string())?;
        Ok(NoFork {
            filters: [clone3, processes],
        })
    }

    /// Applies the filters to the calling thread, for good: from here on,
    /// and across exec, it can start threads only. Needs `no_new_privs`.
    pub fn apply(&self) -> io::Result<()> {
        for filter in &self.filters {
            seccompiler::apply_filter(filter).map_err(|e| io::Error::other(e.to_string()))?;
        }
        Ok(())
    }
}
