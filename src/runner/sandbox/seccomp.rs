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
//! (see [`crate::runner::function`]). Work done in a child process would not show on
//! that clock, so such runs may not make children: `fork`, `vfork` and a
//! `clone` without `CLONE_THREAD` fail with `EPERM`, as LeetCode's own
//! sandbox refuses them. `clone3` passes its flags in memory, where a
//! filter cannot look, so it fails with `ENOSYS`: the C library then falls
//! back to `clone` for threads, which the filter can read.
//!
//! Every filter begins by checking the architecture of the call:
//! `seccompiler` kills a process that makes a call of another (an i386
//! call through `int 0x80`, whose numbers are not the ones filtered). On
//! x86-64 the x32 ABI shares the architecture's audit value, and its calls
//! carry the number of the same call with bit 30 set: a kernel built with
//! `CONFIG_X86_X32_ABI` would run `fork` or `add_key` by that number past a
//! filter that lists only the plain one. So each filter then refuses every
//! number with that bit, as libseccomp's filters do, with `ENOSYS`: what a
//! kernel without the x32 ABI (most distributions' kernels) answers, so a
//! run meets the same kernel whichever machine judges it, where a kill
//! would make the verdict of a program that probes for x32 depend on the
//! host's kernel configuration.

use std::collections::BTreeMap;

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
pub(crate) struct NoKeyrings {
    filter: BpfProgram,
}

impl NoKeyrings {
    pub(crate) fn new() -> Result<NoKeyrings, String> {
        let calls = [libc::SYS_add_key, libc::SYS_keyctl, libc::SYS_request_key];
        let filter = compile(
            calls.iter().map(|&call| (call, vec![])).collect(),
            libc::EPERM,
        )?;
        Ok(NoKeyrings { filter })
    }

    /// The program, for the submission's process to install just before
    /// its exec ([`super::child`]). Needs `no_new_privs`.
    pub(super) fn programs(&self) -> &[BpfProgram] {
        std::slice::from_ref(&self.filter)
    }
}

/// The compiled filters, made before the fork and applied just before exec.
pub(crate) struct NoFork {
    filters: [BpfProgram; 2],
}

/// A filter that fails `rules`' calls with `errno` and allows the rest,
/// for the architecture this judge is built for, refusing x32 calls.
fn compile(rules: Vec<(i64, Vec<SeccompRule>)>, errno: i32) -> Result<BpfProgram, String> {
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))?;
    let mut program: BpfProgram = SeccompFilter::new(
        rules.into_iter().collect::<BTreeMap<_, _>>(),
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .and_then(TryInto::try_into)
    .map_err(|e| e.to_string())?;
    refuse_x32(&mut program)?;
    Ok(program)
}

/// Inserts, right after the check of the architecture that `seccompiler`
/// puts first (load the architecture, go on if it is this one's, else
/// kill), the refusal of every x32 call: load the number, and fail it with
/// `ENOSYS` if it has bit 30 (`__X32_SYSCALL_BIT`) set. Nothing jumps over
/// the place: the architecture's check jumps to it, and every jump after
/// it is forward and relative, so the rest of the program is unchanged. A
/// program that does not begin as expected (another `seccompiler`) is an
/// error, never a filter without the refusal.
#[cfg(target_arch = "x86_64")]
fn refuse_x32(program: &mut BpfProgram) -> Result<(), String> {
    use seccompiler::sock_filter;
    // struct seccomp_data's offsets of the call's number and architecture.
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    // The classic BPF instructions used (linux/bpf_common.h).
    const LD_W_ABS: u16 = 0x20;
    const JMP_JEQ_K: u16 = 0x15;
    const JMP_JGE_K: u16 = 0x35;
    const RET_K: u16 = 0x06;
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let insn = |code, k, jt, jf| sock_filter { code, jt, jf, k };
    let check = [
        insn(LD_W_ABS, ARCH, 0, 0),
        insn(JMP_JEQ_K, AUDIT_ARCH_X86_64, 1, 0),
        insn(RET_K, libc::SECCOMP_RET_KILL_PROCESS, 0, 0),
    ];
    if program.get(..check.len()) != Some(&check[..]) {
        return Err("the filter does not begin with the check of its architecture".into());
    }
    let refusal = [
        insn(LD_W_ABS, NR, 0, 0),
        insn(JMP_JGE_K, X32_SYSCALL_BIT, 0, 1),
        insn(RET_K, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32, 0, 0),
    ];
    program.splice(check.len()..check.len(), refusal);
    Ok(())
}

/// Elsewhere there is no x32 ABI.
#[cfg(not(target_arch = "x86_64"))]
fn refuse_x32(_: &mut BpfProgram) -> Result<(), String> {
    Ok(())
}

impl NoFork {
    pub(crate) fn new() -> Result<NoFork, String> {
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
        let processes = compile(refused, libc::EPERM)?;
        let clone3 = compile(vec![(libc::SYS_clone3, vec![])], libc::ENOSYS)?;
        Ok(NoFork {
            filters: [clone3, processes],
        })
    }

    /// The programs, in the order the submission's process installs them
    /// just before its exec ([`super::child`]): from there on, and across
    /// exec, it can start threads only. Needs `no_new_privs`.
    pub(super) fn programs(&self) -> &[BpfProgram] {
        &self.filters
    }
}

/// The filters as the kernel runs them, on the calls a run could make:
/// a classic-BPF interpreter for `struct seccomp_data`, checked on the
/// native calls whose fate is known, then fed the x32 and i386 ways in.
#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// `AUDIT_ARCH_X86_64` and `AUDIT_ARCH_I386` of `linux/audit.h`.
    const X86_64: u32 = 0xc000_003e;
    const I386: u32 = 0x4000_0003;
    /// Set in the number of every x32 system call (`__X32_SYSCALL_BIT`).
    const X32: i32 = 0x4000_0000;
    /// The i386 numbers of `fork` and `clone`, as `int 0x80` takes them.
    const I386_FORK: i32 = 2;
    const I386_CLONE: i32 = 120;

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
    const KILL: u32 = libc::SECCOMP_RET_KILL_PROCESS;

    fn errno(errno: i32) -> u32 {
        libc::SECCOMP_RET_ERRNO | errno as u32
    }

    /// A system call as a filter sees it: `struct seccomp_data`.
    struct Call {
        nr: i32,
        arch: u32,
        args: [u64; 6],
    }

    fn call(nr: i64, args: &[u64]) -> Call {
        let mut all = [0; 6];
        all[..args.len()].copy_from_slice(args);
        Call {
            nr: nr as i32,
            arch: X86_64,
            args: all,
        }
    }

    fn x32(nr: i64) -> Call {
        Call {
            nr: nr as i32 | X32,
            ..call(0, &[])
        }
    }

    fn i386(nr: i32) -> Call {
        Call {
            nr,
            arch: I386,
            args: [0; 6],
        }
    }

    impl Call {
        /// The 32-bit word at `offset` of `struct seccomp_data`, as
        /// `BPF_LD | BPF_W | BPF_ABS` loads it (little-endian).
        fn word(&self, offset: u32) -> u32 {
            match offset {
                0 => self.nr as u32,
                4 => self.arch,
                // The instruction pointer, which no filter reads.
                8 | 12 => 0,
                16..=63 if offset.is_multiple_of(4) => {
                    let arg = self.args[(offset as usize - 16) / 8];
                    if offset.is_multiple_of(8) {
                        arg as u32
                    } else {
                        (arg >> 32) as u32
                    }
                }
                _ => panic!("a load at offset {offset}, outside struct seccomp_data"),
            }
        }
    }

    /// Runs one filter on `call` as the kernel's classic BPF does, for the
    /// instructions a seccomp filter may hold; any other is a failure.
    fn run(program: &[seccompiler::sock_filter], call: &Call) -> u32 {
        const LD_W_ABS: u16 = 0x20;
        const ALU_AND_K: u16 = 0x54;
        const JMP_JA: u16 = 0x05;
        const JMP_JEQ_K: u16 = 0x15;
        const JMP_JGT_K: u16 = 0x25;
        const JMP_JGE_K: u16 = 0x35;
        const JMP_JSET_K: u16 = 0x45;
        const RET_K: u16 = 0x06;
        let mut a: u32 = 0;
        let mut pc = 0;
        loop {
            let insn = program
                .get(pc)
                .unwrap_or_else(|| panic!("the program runs off its end at {pc}"));
            pc += 1;
            let jump = |taken: bool| usize::from(if taken { insn.jt } else { insn.jf });
            match insn.code {
                LD_W_ABS => a = call.word(insn.k),
                ALU_AND_K => a &= insn.k,
                JMP_JA => pc += insn.k as usize,
                JMP_JEQ_K => pc += jump(a == insn.k),
                JMP_JGT_K => pc += jump(a > insn.k),
                JMP_JGE_K => pc += jump(a >= insn.k),
                JMP_JSET_K => pc += jump(a & insn.k != 0),
                RET_K => return insn.k,
                code => panic!("instruction {code:#x} at {}", pc - 1),
            }
        }
    }

    /// What the kernel does with `call` under `filters`, installed in that
    /// order: every filter runs, and the action that comes first in its
    /// order of precedence wins (a kill over an errno over allow), the
    /// last installed among equals.
    fn verdict(filters: &[BpfProgram], call: &Call) -> u32 {
        let precedence = |ret: u32| match ret & libc::SECCOMP_RET_ACTION_FULL {
            KILL => 0,
            libc::SECCOMP_RET_KILL_THREAD => 1,
            libc::SECCOMP_RET_TRAP => 2,
            libc::SECCOMP_RET_ERRNO => 3,
            ALLOW => 9,
            other => panic!("an action {other:#x} the filters never take"),
        };
        filters
            .iter()
            .rev()
            .map(|filter| run(filter, call))
            .reduce(|kept, next| {
                if precedence(next) < precedence(kept) {
                    next
                } else {
                    kept
                }
            })
            .expect("at least one filter")
    }

    fn keyrings() -> Vec<BpfProgram> {
        vec![NoKeyrings::new().unwrap().filter]
    }

    fn no_fork() -> Vec<BpfProgram> {
        NoFork::new().unwrap().filters.to_vec()
    }

    #[test]
    fn the_native_calls_meet_the_actions_they_always_had() {
        let keyrings = keyrings();
        for refused in [libc::SYS_add_key, libc::SYS_keyctl, libc::SYS_request_key] {
            assert_eq!(verdict(&keyrings, &call(refused, &[])), errno(libc::EPERM));
        }
        for allowed in [libc::SYS_read, libc::SYS_fork, libc::SYS_clone] {
            assert_eq!(verdict(&keyrings, &call(allowed, &[])), ALLOW);
        }

        let no_fork = no_fork();
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        let process = libc::SIGCHLD as u64;
        for (nr, args, action) in [
            (libc::SYS_fork, &[][..], errno(libc::EPERM)),
            (libc::SYS_vfork, &[], errno(libc::EPERM)),
            (libc::SYS_clone, &[process], errno(libc::EPERM)),
            (libc::SYS_clone, &[thread], ALLOW),
            (libc::SYS_clone3, &[], errno(libc::ENOSYS)),
            (libc::SYS_read, &[], ALLOW),
            (libc::SYS_add_key, &[], ALLOW),
        ] {
            assert_eq!(verdict(&no_fork, &call(nr, args)), action, "call {nr}");
        }

        // Everything on: the keyring filter is installed first.
        let both: Vec<BpfProgram> = keyrings.into_iter().chain(no_fork).collect();
        assert_eq!(
            verdict(&both, &call(libc::SYS_add_key, &[])),
            errno(libc::EPERM)
        );
        assert_eq!(
            verdict(&both, &call(libc::SYS_fork, &[])),
            errno(libc::EPERM)
        );
        assert_eq!(verdict(&both, &call(libc::SYS_read, &[])), ALLOW);
    }

    #[test]
    fn x32_calls_are_refused_by_every_filter() {
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        for filters in [keyrings(), no_fork()] {
            for filter in &filters {
                for nr in [libc::SYS_fork, libc::SYS_add_key, libc::SYS_clone] {
                    assert_eq!(run(filter, &x32(nr)), errno(libc::ENOSYS), "x32 call {nr}");
                }
                let clone_thread = Call {
                    args: [thread, 0, 0, 0, 0, 0],
                    ..x32(libc::SYS_clone)
                };
                assert_eq!(run(filter, &clone_thread), errno(libc::ENOSYS));
            }
        }
    }

    #[test]
    fn a_foreign_architecture_is_killed_by_every_filter() {
        for filters in [keyrings(), no_fork()] {
            for filter in &filters {
                for nr in [I386_FORK, I386_CLONE] {
                    assert_eq!(run(filter, &i386(nr)), KILL, "i386 call {nr}");
                }
            }
        }
    }
}
