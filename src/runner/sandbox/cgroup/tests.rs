//! The cgroup layer against temporary directories laid out like cgroup trees.

use super::delegate::delegated;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::group::*;
use super::systemd;

const MOUNTINFO_V1: &str = "\
22 1 0:20 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
23 22 0:21 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
24 22 0:22 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
25 22 0:23 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
26 22 0:24 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
const OWN_V1: &str = "\
8:pids:/
4:memory:/jobs/42
2:cpuacct:/
0::/
";

#[test]
fn v1_cgroups_nest_under_the_judges_own_in_each_controller() {
    let hierarchy = Hierarchy::from_tables(MOUNTINFO_V1, OWN_V1).unwrap();
    assert_eq!(hierarchy.version, Version::V1);
    assert_eq!(
        hierarchy.memory,
        Path::new("/sys/fs/cgroup/memory/jobs/42/sudoku-judge")
    );
    assert_eq!(
        hierarchy.pids,
        Path::new("/sys/fs/cgroup/pids/sudoku-judge")
    );
    assert_eq!(
        hierarchy.cpu,
        Path::new("/sys/fs/cgroup/cpuacct/sudoku-judge")
    );
}

#[test]
fn a_v1_run_is_joined_through_its_tasks_files() {
    let hierarchy = Hierarchy::from_tables(MOUNTINFO_V1, OWN_V1).unwrap();
    let cgroup = Cgroup {
        version: Version::V1,
        memory: hierarchy.memory.join(RUN),
        pids: hierarchy.pids.join(RUN),
        cpu: hierarchy.cpu.join(RUN),
        base: Usage::default(),
        limits: None,
        held: Held::default(),
    };
    assert_eq!(
        cgroup.procs_files(),
        [
            hierarchy.memory.join(RUN).join("tasks"),
            hierarchy.pids.join(RUN).join("tasks"),
            hierarchy.cpu.join(RUN).join("tasks"),
        ]
    );
}

#[test]
fn without_controllers_the_reason_is_given() {
    let error =
        Hierarchy::from_tables("22 1 0:20 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n", "0::/\n")
            .unwrap_err();
    assert!(error.contains("memory, pids and cpu"), "{error}");
}

/// A user's v2 tree as systemd delegates it: `user.slice/.../app.slice`
/// handing `handed` on, and in it the judge's cgroup holding `procs`.
fn delegated_tree(root: &Path, handed: &str, procs: &str) -> (PathBuf, PathBuf) {
    let above = root.join("user.slice/user@1000.service/app.slice");
    let own = above.join("vte-spawn-1.scope");
    fs::create_dir_all(&own).unwrap();
    for (dir, procs) in [(&above, ""), (&own, procs)] {
        fs::write(dir.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
        fs::write(dir.join("cgroup.subtree_control"), "").unwrap();
        fs::write(dir.join("cgroup.procs"), procs).unwrap();
    }
    fs::write(above.join("cgroup.subtree_control"), handed).unwrap();
    (above, own)
}

#[test]
fn a_judge_alone_in_its_delegated_cgroup_moves_into_a_leaf_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, own) = delegated_tree(tmp.path(), "", "4242\n");
    let hierarchy = delegated(tmp.path(), &own, 4242).unwrap();
    assert_eq!(hierarchy.origin, Origin::Delegated);
    assert_eq!(hierarchy.memory, own.join(BASE));
    assert_eq!(hierarchy.leaf, Some(own.join(BASE).join("4242-judge")));
    assert_eq!(hierarchy.describe(), "cgroup v2 (delegated to you)");
}

#[test]
fn a_judge_beside_other_processes_uses_the_delegated_cgroup_above_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (above, own) = delegated_tree(tmp.path(), "cpu memory pids\n", "4242\n17\n");
    let hierarchy = delegated(tmp.path(), &own, 4242).unwrap();
    assert_eq!(hierarchy.memory, above.join(BASE));
    assert_eq!(hierarchy.leaf, None);
    // Nothing above hands the controllers on: nothing is delegated.
    let tmp = tempfile::tempdir().unwrap();
    let (_, own) = delegated_tree(tmp.path(), "cpu\n", "4242\n17\n");
    assert_eq!(delegated(tmp.path(), &own, 4242), None);
}

#[test]
fn systemd_is_asked_for_a_delegated_scope_holding_the_judge() {
    let args = systemd::start_transient_scope("sudoku-judge-42.scope", 42);
    assert_eq!(
        args[7..].join(" "),
        "ssa(sv)a(sa(sv)) sudoku-judge-42.scope fail 2 PIDs au 1 42 Delegate b true 0"
    );
}

/// A run's cgroup, named for a spawner pid no process has.
const RUN: &str = "999999998-1";

/// A directory that looks like a v2 cgroup tree with the files a run
/// reads, filled with `values`.
fn fake_v2(root: &Path, values: &[(&str, &str)]) -> Hierarchy {
    fs::write(root.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
    fs::write(root.join("cgroup.subtree_control"), "").unwrap();
    fs::write(root.join("cgroup.procs"), "").unwrap();
    let mountinfo = format!("30 1 0:25 / {} rw - cgroup2 cgroup2 rw\n", root.display());
    let hierarchy = Hierarchy::from_tables(&mountinfo, "0::/user.slice\n").unwrap();
    assert_eq!(hierarchy.version, Version::V2);
    hierarchy.prepare().unwrap();
    // Enabling controllers is asked of the root and of the judge's directory.
    assert_eq!(
        fs::read_to_string(root.join("cgroup.subtree_control")).unwrap(),
        "+pids"
    );
    if !values.is_empty() {
        let run = root.join(BASE).join(RUN);
        fs::create_dir_all(&run).unwrap();
        for (file, value) in values {
            fs::write(run.join(file), value).unwrap();
        }
    }
    hierarchy
}

#[test]
fn a_v2_run_is_limited_and_read_through_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let hierarchy = fake_v2(
        tmp.path(),
        &[
            ("memory.swap.max", "max\n"),
            (
                "cpu.stat",
                "usage_usec 1500000\nuser_usec 1400000\nsystem_usec 100000\n",
            ),
            (
                "memory.stat",
                "anon 2097152\nfile 50000000\nkernel 900000\nshmem 1048576\n",
            ),
            ("memory.events", "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n"),
            ("pids.events", "max 12\n"),
        ],
    );
    let cgroup = hierarchy
        .create(
            RUN,
            CgroupLimits {
                memory_bytes: 64 << 20,
                pids: 256,
            },
        )
        .unwrap();
    let run = tmp.path().join(BASE).join(RUN);
    assert_eq!(
        fs::read_to_string(run.join("memory.max")).unwrap(),
        "67108864"
    );
    assert_eq!(
        fs::read_to_string(run.join("memory.swap.max")).unwrap(),
        "0"
    );
    assert_eq!(fs::read_to_string(run.join("pids.max")).unwrap(), "256");
    assert_eq!(cgroup.procs_files(), [run.join("cgroup.procs")]);
    let mut meter = cgroup.meter().unwrap();
    assert_eq!(meter.cpu().unwrap(), Duration::from_millis(1500));
    // Anonymous and shared memory; not the page cache, not the kernel's.
    assert_eq!(meter.memory_kb().unwrap(), 3072);
    assert_eq!(
        cgroup.usage().unwrap(),
        Usage {
            cpu: Duration::from_millis(1500),
            oom_kills: 1,
            fork_refusals: 12,
        }
    );
}

#[test]
fn a_reused_cgroup_counts_only_the_new_run() {
    let tmp = tempfile::tempdir().unwrap();
    let counters = |cpu_usec: u64, oom_kills: u64, refusals: u64| {
        vec![
            ("cgroup.procs".to_string(), String::new()),
            (
                "cpu.stat".to_string(),
                format!("usage_usec {cpu_usec}\nuser_usec 0\nsystem_usec 0\n"),
            ),
            (
                "memory.events".to_string(),
                format!("oom 0\noom_kill {oom_kills}\n"),
            ),
            ("pids.events".to_string(), format!("max {refusals}\n")),
            ("memory.stat".to_string(), "anon 0\nshmem 0\n".to_string()),
        ]
    };
    let hierarchy = fake_v2(tmp.path(), &[]);
    let run = tmp.path().join(BASE).join(RUN);
    let fill = |values: Vec<(String, String)>| {
        fs::create_dir_all(&run).unwrap();
        for (file, value) in values {
            fs::write(run.join(file), value).unwrap();
        }
    };
    let limits = |mb: u64| CgroupLimits {
        memory_bytes: mb << 20,
        pids: 64,
    };
    fill(counters(2_000_000, 1, 5));
    let first = hierarchy.create(RUN, limits(64)).unwrap();
    assert_eq!(first.usage().unwrap().cpu, Duration::from_secs(2));
    let second = first.reuse(limits(256)).unwrap();
    assert_eq!(
        fs::read_to_string(run.join("memory.max")).unwrap(),
        (256u64 << 20).to_string()
    );
    // The last run's counts are not the next one's.
    assert_eq!(second.usage().unwrap(), Usage::default());
    fill(counters(2_300_000, 2, 5));
    assert_eq!(
        second.usage().unwrap(),
        Usage {
            cpu: Duration::from_millis(300),
            oom_kills: 1,
            fork_refusals: 0,
        }
    );
    assert_eq!(
        second.meter().unwrap().cpu().unwrap(),
        Duration::from_millis(300)
    );
    // One that still holds a process is not used again.
    fs::write(run.join("cgroup.procs"), "4242\n").unwrap();
    assert!(second.reuse(limits(64)).is_err());
}

#[test]
fn a_kept_cgroup_is_read_and_joined_through_the_files_it_holds_open() {
    let tmp = tempfile::tempdir().unwrap();
    let hierarchy = fake_v2(
        tmp.path(),
        &[
            ("cgroup.procs", ""),
            ("pids.current", "0\n"),
            ("cpu.stat", "usage_usec 1000\n"),
            ("memory.events", "oom_kill 0\n"),
            ("pids.events", "max 0\n"),
            ("memory.stat", "anon 4096\nshmem 0\n"),
        ],
    );
    let limits = CgroupLimits {
        memory_bytes: 64 << 20,
        pids: 64,
    };
    let cgroup = hierarchy.create(RUN, limits).unwrap();
    let run = tmp.path().join(BASE).join(RUN);
    // Its files are read where they were opened: gone from the directory,
    // they are still read (a file read from its path would not be).
    for file in ["cpu.stat", "memory.events", "pids.events", "memory.stat"] {
        fs::remove_file(run.join(file)).unwrap();
    }
    assert_eq!(cgroup.usage().unwrap().cpu, Duration::from_millis(1));
    assert_eq!(cgroup.memory_kb().unwrap(), 4);
    assert_eq!(cgroup.meter().unwrap().memory_kb().unwrap(), 4);
    assert_eq!(cgroup.open_procs_files().unwrap().len(), 1);
    // Whether it holds a process, zombies included, is what `pids.current`
    // says now: with one, it is not used again.
    fs::write(run.join("pids.current"), "1\n").unwrap();
    assert!(cgroup.clone().reuse(limits).is_err());
    fs::write(run.join("pids.current"), "0\n").unwrap();
    assert!(cgroup.reuse(limits).is_ok());
}

#[test]
fn cgroups_of_spawners_that_are_gone_are_swept() {
    let tmp = tempfile::tempdir().unwrap();
    let hierarchy = fake_v2(tmp.path(), &[]);
    let base = tmp.path().join(BASE);
    let alive = format!("{}-3", std::process::id());
    fs::create_dir(base.join(&alive)).unwrap();
    // No process has this pid: the kernel's limit is far below it.
    fs::create_dir(base.join("999999999-2")).unwrap();
    hierarchy.sweep_stale();
    assert!(base.join(&alive).exists());
    assert!(!base.join("999999999-2").exists());
}
