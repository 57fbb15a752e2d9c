//! A submission tries every way out, as an attacker would; the sandbox
//! must hold. Each hostile fixture (`tests/fixtures/hostile/`, C programs
//! that also answer correctly) is named by the verdict it must get, and
//! each test also checks what the attack aimed at: no process left behind,
//! no file changed, nothing received on loopback, the judge alive.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{
    build_cache, cases_of, eventually, have, manifest_dir, processes_running, skip_or_fail, write,
    Family, ANSWER, PUZZLE,
};

/// A second puzzle, so a case holds more than one; an easy one, which the
/// fixtures' plain backtracking answers at once even on a loaded machine.
const PUZZLE_2: &str =
    "7...9..3...1.........23....4.76.9.21..8.237..2..4..98.5.4..82..986312.57....47..9";
const ANSWER_2: &str =
    "745896132321754698869231574457689321698123745213475986574968213986312457132547869";

/// The protections the sandbox has on this machine, as the report's
/// header gives them; `None` when the judge cannot even say.
fn protections() -> Option<&'static Value> {
    static FOUND: OnceLock<Option<Value>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let dir = tempfile::tempdir().ok()?;
            write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
            let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
                .args(["test", "a.in", "--format", "json"])
                .current_dir(dir.path())
                .output()
                .ok()?;
            let report: Value = serde_json::from_slice(&output.stdout).ok()?;
            Some(report["sandbox"].clone())
        })
        .as_ref()
}

/// The layers named that the sandbox lacks on this machine, each with what
/// the judge says of it; `Err` when the judge reported no sandbox at all.
fn missing_layers(layers: &[&str]) -> Result<Vec<String>, &'static str> {
    let protections = protections().ok_or("the judge reported no sandbox")?;
    Ok(layers
        .iter()
        .filter(|layer| protections[**layer] != "On")
        .map(|layer| format!("{layer}: {}", protections[*layer]))
        .collect())
}

/// Whether the sandbox has every layer named; when the kernel refused one,
/// the test [skips or fails](skip_or_fail).
fn sandboxed(test: &str, layers: &[&str]) -> bool {
    let why = match missing_layers(layers) {
        Ok(missing) if missing.is_empty() => return true,
        Ok(missing) => format!("the kernel refused {}", missing.join("; ")),
        Err(why) => why.to_owned(),
    };
    skip_or_fail(test, &why);
    false
}

/// A place to attack from: a suite with two puzzles, a working directory
/// and a home of the user's own, all in one temporary directory.
struct Scene {
    root: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        let root = tempfile::tempdir().unwrap();
        let scene = Scene { root };
        write(
            &scene.suite(),
            "a.in",
            &format!("{PUZZLE}\n{PUZZLE_2}\nend\n"),
        );
        write(&scene.suite(), "a.out", &format!("{ANSWER}\n{ANSWER_2}\n"));
        write(
            &scene.suite(),
            "judge.toml",
            "time_limit = \"1s\"\nmemory_limit = \"64M\"\n",
        );
        write(&scene.work(), "notes.txt", "the user's own file\n");
        write(&scene.home(), ".profile", "the user's own settings\n");
        scene
    }

    fn path(&self) -> &Path {
        self.root.path()
    }

    fn suite(&self) -> PathBuf {
        self.path().join("suite")
    }

    fn work(&self) -> PathBuf {
        self.path().join("work")
    }

    fn home(&self) -> PathBuf {
        self.path().join("home")
    }

    /// Every file under the scene and under `more`, with its contents,
    /// but for the judge's own records (`.sudoku-judge/`).
    fn snapshot(&self, more: &[&Path]) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        for top in std::iter::once(self.path()).chain(more.iter().copied()) {
            let entries = walkdir::WalkDir::new(top)
                .into_iter()
                .filter_entry(|e| e.file_name() != ".sudoku-judge");
            for entry in entries.flatten() {
                if entry.file_type().is_file() {
                    files.insert(
                        entry.path().to_path_buf(),
                        fs::read(entry.path()).unwrap_or_default(),
                    );
                }
            }
        }
        files
    }

    /// Judges the suite with `args`, from the working directory, with the
    /// scene's home as `$HOME`.
    fn judge(&self, args: &[&str]) -> (i32, Value, String) {
        let suite = self.suite();
        let mut all = vec!["test", suite.to_str().unwrap(), "--format", "json"];
        all.extend_from_slice(args);
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(&all)
            .current_dir(self.work())
            .env("HOME", self.home())
            .env("SUDOKU_JUDGE_CACHE", build_cache())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            started.elapsed() < super::HANG_GUARD,
            "sudoku-judge {all:?} hung"
        );
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let report = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
        (
            output.status.code().expect("exited, not killed"),
            report,
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }
}

/// Builds a hostile fixture with the system's C compiler, outside the
/// judge, into `dir`.
fn build_hostile(name: &str, dir: &Path) -> PathBuf {
    super::build_c("hostile", name, dir)
}

/// The first case's verdict and message.
fn first(report: &Value) -> (String, String) {
    let case = &cases_of(report)[0];
    (
        case["verdict"].as_str().unwrap_or("ERROR").to_owned(),
        case["message"].as_str().unwrap_or_default().to_owned(),
    )
}

/// A marker unique to one test, for counting what a fixture leaves behind.
fn marker(test: &str) -> String {
    format!("sudoku-judge-hostile-{}-{test}", std::process::id())
}

#[test]
fn processes_that_detach_die_with_their_case() {
    if !have(&["cc"], "detaching processes") || !sandboxed("detaching processes", &["processes"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_detaches_sleepers.c", scene.path());
    let marker = marker("detach");
    let command = format!("{} {marker}", program.display());
    let (code, report, _) = scene.judge(&["--cmd", &command]);
    assert_eq!(first(&report).0, "AC", "{report}");
    assert_eq!(code, 0);
    let left = processes_running(&marker);
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn children_never_waited_for_are_charged_their_cpu_time() {
    // The run's cgroup counts them, or else the init of its PID namespace,
    // which reaps them.
    if !have(&["cc"], "children's CPU") || !sandboxed("children's CPU", &["processes"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_charged_for_its_children.c", scene.path());
    // Time to spare: what is checked is the charge, and the children must
    // get their 600 ms first, which a machine busy with the CPU-bound
    // tests beside this one may not give them within twice a 1 s limit.
    let (code, report, _) =
        scene.judge(&["--cmd", program.to_str().unwrap(), "--time-limit", "10s"]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "AC", "{message}");
    assert_eq!(code, 0);
    // The program itself uses next to no CPU: its children, whose 600 ms
    // it never waited for, are what it is charged.
    let charged = cases_of(&report)[0]["time_ms"].as_f64().unwrap();
    assert!(charged >= 600.0, "charged {charged} ms");
}

/// A run killed at its limit is charged the CPU time all its processes
/// used up to then, also where no cgroup counts them: its init reaps
/// them and adds up their time.
#[test]
fn a_killed_run_is_charged_the_cpu_time_of_all_its_processes() {
    if !have(&["cc"], "killed run's CPU") || !sandboxed("killed run's CPU", &["processes"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("tle_spins_with_its_children.c", scene.path());
    let (code, report, _) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "TLE", "{message}");
    assert_eq!(code, 1);
    // Three spinning processes, stopped at the 1 s limit or at the wall
    // cap: charged hundreds of milliseconds, however busy the machine.
    // Charging only what was waited for gives a millisecond or two.
    let charged = cases_of(&report)[0]["time_ms"].as_f64().unwrap();
    assert!(charged >= 500.0, "charged {charged} ms: {message}");
    assert!(
        message.contains(&format!("CPU {}", charged.round() as u64))
            || message.contains(&format!("{} ms of CPU time", charged.round() as u64)),
        "the reason and the charge disagree: {charged} ms, {message}"
    );
}

/// Children whose parent ignores SIGCHLD are reaped by the kernel as they
/// end, and their CPU time reaches nobody's rusage. The run is charged it
/// all the same, and stopped at its limit while it runs: by its cgroup,
/// or where there is none, by its init, which samples the CPU time of
/// every process of its PID namespace.
#[test]
fn children_the_kernel_reaps_are_charged_and_held_to_the_limit() {
    if !have(&["cc"], "children reaped by the kernel")
        || !sandboxed("children reaped by the kernel", &["processes"])
    {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("tle_ignores_its_childrens_ends.c", scene.path());
    let (code, report, _) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    let case = &cases_of(&report)[0];
    let charged = case["time_ms"].as_f64().unwrap();
    if message.contains(&format!(
        "with {} ms of CPU time charged",
        charged.round() as u64
    )) {
        // Stopped while it ran, at the CPU limit: the children's time
        // reached the judge as they burned it.
        assert_eq!(verdict, "TLE", "{message}");
        assert_eq!(code, 1);
        assert!(charged >= 1000.0, "charged {charged} ms: {message}");
        return;
    }
    // Else a machine too busy for the children to get there in 1.5 s of
    // wall time: they ended by themselves, and said what they burned. Each
    // may have burned a little after the init last looked (a few ms on a
    // quiet machine), but never escape with most of it. Charging only what
    // was waited for gives the parent's millisecond or two.
    let stderr = case["stderr"].as_str().unwrap_or_default();
    let burned: f64 = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("a child burned ")?.strip_suffix(" ms"))
        .map(|ms| ms.parse::<f64>().unwrap())
        .sum();
    assert!(
        burned > 0.0,
        "the children said nothing: {message}\n{stderr}"
    );
    assert!(
        charged >= 0.75 * burned,
        "charged {charged} ms for children that burned {burned} ms: {message}"
    );
    assert_eq!(
        verdict,
        if charged > 1000.0 { "TLE" } else { "AC" },
        "{message}"
    );
}

/// The judge stops a run through its init, by a signal that only a
/// process outside the run can send. A run that forges it (queued to its
/// init with the sender's pid given as 0, as the kernel shows the judge)
/// is not stopped: it goes on and is judged as it ends. As root the run is
/// another user, and the kernel refuses it the signal outright; as an
/// ordinary user it may queue it, and the init must see through it.
#[test]
fn a_run_cannot_forge_the_judges_stop() {
    if !have(&["cc"], "forged stop") || !sandboxed("forged stop", &["processes"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_forges_the_judges_stop.c", scene.path());
    let (code, report, _) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "AC", "{message}");
    assert_eq!(code, 0);
    let stderr = cases_of(&report)[0]["stderr"].as_str().unwrap_or_default();
    let queued = if nix::unistd::Uid::effective().is_root() {
        "0 forged stops queued"
    } else {
        // SI_QUEUE, SI_TIMER, SI_MESGQ, SI_ASYNCIO and SI_SIGIO; the kernel
        // refuses the rest.
        "5 forged stops queued"
    };
    assert!(stderr.contains(queued), "{stderr}");
}

/// Forks past the task limit are refused, whoever runs the judge: by the
/// run's cgroup, or by `RLIMIT_NPROC` on a user of the run's own.
#[test]
fn a_run_cannot_start_more_tasks_than_its_limit() {
    if !have(&["cc"], "task limit") || !sandboxed("task limit", &["tasks"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_forks_are_refused_at_the_task_limit.c", scene.path());
    // Time to spare: forking is slow where the CPU is emulated (the cgroup
    // v2 checks run in a VM).
    let (code, report, _) =
        scene.judge(&["--cmd", program.to_str().unwrap(), "--time-limit", "20s"]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "AC", "{message}");
    assert_eq!(code, 0);
}

#[test]
fn memory_of_children_and_of_tmpfs_is_charged() {
    if !have(&["cc"], "tree memory") || !sandboxed("tree memory", &["accounting", "filesystem"]) {
        return;
    }
    let scene = Scene::new();
    for fixture in ["mle_children_hold_memory.c", "mle_fills_shared_memory.c"] {
        let program = build_hostile(fixture, scene.path());
        // Time to spare: where the CPU is emulated (the cgroup v2 checks
        // run in a VM), faulting the memory in takes seconds.
        let (_, report, _) =
            scene.judge(&["--cmd", program.to_str().unwrap(), "--time-limit", "20s"]);
        let (verdict, message) = first(&report);
        assert_eq!(verdict, "MLE", "{fixture}: {message}");
        assert!(message.contains("64.0 MB limit"), "{fixture}: {message}");
    }
    // The hoard in /tmp and /dev/shm was the run's own: nothing is left.
    assert!(!Path::new("/dev/shm/hoard").exists());
    assert!(!Path::new("/tmp/hoard").exists());
}

/// Memory spread over processes and the run's tmpfs is the run's, with a
/// cgroup or without one (an ordinary user's run, whose init adds up its
/// processes and its tmpfs as it samples them): MLE, and nothing of it
/// left running.
#[test]
fn memory_spread_over_children_and_tmpfs_is_added_up() {
    if !have(&["cc"], "spread memory") || !sandboxed("spread memory", &["processes", "filesystem"])
    {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("mle_spreads_memory_over_children_and_tmpfs.c", scene.path());
    let marker = format!("spread-{}", std::process::id());
    let command = format!("{} {marker}", program.display());
    // Time to spare: faulting the memory in takes seconds where the CPU
    // is emulated (the cgroup v2 checks run in a VM).
    let (code, report, stderr) = scene.judge(&[
        "--cmd",
        &command,
        "--memory-limit",
        "256M",
        "--time-limit",
        "20s",
    ]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "MLE", "{message}\n{stderr}");
    assert!(message.contains("256.0 MB limit"), "{message}");
    assert_eq!(code, 1);
    let left = processes_running(&marker);
    assert!(left.is_empty(), "processes of the run are left: {left:?}");
}

#[test]
fn a_submission_cannot_stop_or_kill_the_judge() {
    if !have(&["cc"], "signals") || !sandboxed("signals", &["processes"]) {
        return;
    }
    let scene = Scene::new();
    // A second case after it: the judge must still be there to judge it.
    write(&scene.suite(), "b.in", &format!("{PUZZLE}\nend\n"));
    write(&scene.suite(), "b.out", &format!("{ANSWER}\n"));
    let program = build_hostile("ac_signals_the_judge.c", scene.path());
    let (code, report, stderr) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let verdicts: Vec<String> = cases_of(&report)
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or("ERROR").to_owned())
        .collect();
    assert_eq!(verdicts, ["AC", "AC"], "{report}\n{stderr}");
    assert_eq!(code, 0);
}

#[test]
fn the_expected_answers_are_out_of_reach() {
    if !have(&["cc"], "hidden answers") || !sandboxed("hidden answers", &["filesystem"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("wa_hunts_for_the_answers.c", scene.path());
    let (_, report, _) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "WA", "{message}");
    assert!(message.contains("got 0"), "{message}");
}

#[test]
fn a_leetcode_file_cannot_read_the_expected_answer() {
    if !have(&["python3"], "hidden answers (Python)")
        || !sandboxed("hidden answers (Python)", &["filesystem"])
    {
        return;
    }
    let (_, report) =
        super::judge_fixture("wa_reads_expected.py", "cases/leetcode37/example1", &[]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "WA", "{message}");
    // The board stays as given.
    assert!(
        message.starts_with("your solveSudoku left the board unchanged: fill in the board"),
        "{message}"
    );
}

#[test]
fn nothing_the_user_wrote_is_changed() {
    if !have(&["cc", "g++"], "files") || !sandboxed("files", &["filesystem"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_writes_everywhere.c", scene.path());
    // An honest submission's build, which the attack aims at too.
    let honest = "tests/fixtures/submissions/ac_program.cpp";
    let built = super::judge_with(&["test", "cases/acwing166/sample.in", "--submission", honest]);
    assert_eq!(built.code, 0, "{}", built.stdout);
    // Its build directory (other tests add builds of their own meanwhile).
    let builds: Vec<PathBuf> = fs::read_dir(build_cache())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("ac_program-cpp-")
        })
        .collect();
    let cached: Vec<PathBuf> = builds.iter().map(|dir| dir.join("main")).collect();
    let watched: Vec<&Path> = builds.iter().map(PathBuf::as_path).collect();
    let before = scene.snapshot(&watched);
    let mut targets: Vec<String> = [
        scene.suite().join("a.in"),
        scene.suite().join("a.out"),
        scene.suite().join("judge.toml"),
        scene.suite(),
        scene.work().join("notes.txt"),
        scene.work(),
        scene.home().join(".profile"),
        scene.home(),
        manifest_dir().join("cases"),
    ]
    .iter()
    .chain(&cached)
    .map(|p| p.display().to_string())
    .collect();
    targets.insert(0, marker("files"));
    let command = format!("{} {}", program.display(), targets.join(" "));
    let (code, report, _) = scene.judge(&["--cmd", &command]);
    assert_eq!(first(&report).0, "AC", "{report}");
    assert_eq!(code, 0);
    let after = scene.snapshot(&watched);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "files appeared or went"
    );
    for (path, text) in &before {
        assert!(after[path] == *text, "{} was changed", path.display());
    }
    assert!(!manifest_dir().join("cases/dropped-by-submission").exists());
    // The honest build is still what it was: judged again, it is accepted.
    let again = super::judge_with(&["test", "cases/acwing166/sample.in", "--submission", honest]);
    assert_eq!(again.code, 0, "{}", again.stdout);
}

#[test]
fn nothing_one_case_leaves_is_seen_by_the_next() {
    if !have(&["cc"], "cases apart") || !sandboxed("cases apart", &["filesystem"]) {
        return;
    }
    let scene = Scene::new();
    for name in ["b", "c"] {
        write(
            &scene.suite(),
            &format!("{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
        write(
            &scene.suite(),
            &format!("{name}.out"),
            &format!("{ANSWER}\n"),
        );
    }
    for fixture in [
        "wa_finds_what_the_last_case_left.c",
        "wa_finds_the_mode_the_last_case_left.c",
    ] {
        let program = build_hostile(fixture, scene.path());
        // One job: every case in the sandbox the last one used, where it can.
        let (code, report, _) = scene.judge(&["--cmd", program.to_str().unwrap(), "--jobs", "1"]);
        let verdicts: Vec<&str> = cases_of(&report)
            .iter()
            .map(|case| case["verdict"].as_str().unwrap_or("ERROR"))
            .collect();
        assert_eq!(verdicts, ["AC", "AC", "AC"], "{fixture}: {report}");
        assert_eq!(code, 0);
    }
}

#[test]
fn memory_a_case_leaves_is_charged_to_it_and_not_to_the_next() {
    if !have(&["sh", "head"], "memory after memory")
        || !sandboxed("memory after memory", &["accounting", "filesystem"])
    {
        return;
    }
    // The first case leaves 24 + 24 MB in /tmp and /dev/shm and exits at
    // once, before any sample of its memory could see them: they are
    // charged all the same. The sandbox serves later runs with what the
    // first one used (its cgroup among them), and what they are charged
    // must be theirs alone.
    let scene = Scene::new();
    fs::remove_file(scene.suite().join("a.out")).unwrap();
    write(&scene.suite(), "a.in", &format!("{PUZZLE}\nend\n"));
    write(&scene.suite(), "a.out", &format!("{ANSWER}\n"));
    // Enough cases after it that a later one gets its cgroup.
    for name in ["b", "c", "d", "e", "f", "g"] {
        write(
            &scene.suite(),
            &format!("{name}.in"),
            &format!("{PUZZLE_2}\nend\n"),
        );
        write(
            &scene.suite(),
            &format!("{name}.out"),
            &format!("{ANSWER_2}\n"),
        );
    }
    let program = scene.path().join("fills_then_answers.sh");
    write(
        scene.path(),
        "fills_then_answers.sh",
        &format!(
            "#!/bin/sh\nread line\nif [ \"$line\" = {PUZZLE} ]; then\n  \
             head -c 25165824 /dev/zero > /tmp/hoard\n  \
             head -c 25165824 /dev/zero > /dev/shm/more\n  echo {ANSWER}\nelse\n  \
             echo {ANSWER_2}\nfi\n"
        ),
    );
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let (_, report, _) = scene.judge(&["--cmd", program.to_str().unwrap(), "--jobs", "1"]);
    let cases = cases_of(&report);
    let verdicts: Vec<&str> = cases
        .iter()
        .map(|case| case["verdict"].as_str().unwrap_or("ERROR"))
        .collect();
    assert_eq!(verdicts, ["AC"; 7], "{report}");
    let first_kb = cases[0]["memory_kb"].as_u64().unwrap();
    assert!(
        first_kb >= 48 * 1024 - 256,
        "the first case was charged {first_kb} KB"
    );
    for case in &cases[1..] {
        let kb = case["memory_kb"].as_u64().unwrap();
        assert!(
            kb < 16 * 1024,
            "charged {kb} KB after the case that filled memory: {case}"
        );
    }
}

#[test]
fn the_network_is_closed() {
    if !have(&["cc"], "network") || !sandboxed("network", &["network"]) {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let scene = Scene::new();
    let program = build_hostile("ac_calls_home.c", scene.path());
    let command = format!("{} {} {port}", program.display(), marker("network"));
    let (code, report, _) = scene.judge(&["--cmd", &command]);
    assert_eq!(first(&report).0, "AC", "{report}");
    assert_eq!(code, 0);
    let mut received = Vec::new();
    while let Ok((mut stream, _)) = listener.accept() {
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
        let _ = stream.read_to_end(&mut received);
        received.extend_from_slice(b"<connection>");
    }
    assert!(
        received.is_empty(),
        "the listener got {:?}",
        String::from_utf8_lossy(&received)
    );
}

#[test]
fn a_patched_timer_does_not_change_the_charge() {
    if !have(&["python3"], "patched timer") {
        return;
    }
    let (_, report) =
        super::judge_fixture("tle_patches_its_timer.py", "cases/leetcode37/example1", &[]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "TLE", "{message}");
}

#[test]
fn a_leetcode_file_may_start_threads_but_not_processes() {
    if !have(&["python3"], "no fork") || !sandboxed("no fork", &["no_fork"]) {
        return;
    }
    let (_, report) = super::judge_fixture("re_forks.py", "cases/leetcode37/example1", &[]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "RE", "{message}");
    assert!(message.contains("PermissionError"), "{message}");
}

#[test]
fn a_fork_bomb_is_stopped_at_the_process_limit_and_named() {
    if !have(&["cc"], "fork bomb") || !sandboxed("fork bomb", &["accounting", "processes"]) {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("tle_fork_bomb.c", scene.path());
    let (_, report, _) = scene.judge(&["--cmd", program.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    // 256 processes, each forking again and again, hold tens of MB of the
    // kernel's memory: under load the memory cap may strike before the time
    // runs out. Either way the process limit is named, and an MLE says
    // where the memory went rather than a figure under the limit.
    match verdict.as_str() {
        "TLE" => {}
        "MLE" => assert!(
            message.contains("stopped by the kernel at the memory cap"),
            "{message}"
        ),
        _ => panic!("{verdict}: {message}"),
    }
    assert!(
        message.contains("refused: it reached the limit of 256 processes"),
        "{message}"
    );
}

#[test]
fn a_compile_bomb_is_ce_at_the_compilers_limit() {
    if !have(&["g++"], "compile bomb") {
        return;
    }
    let (_, report) =
        super::judge_fixture("ce_includes_dev_zero.cpp", "cases/acwing166/sample.in", &[]);
    assert_eq!(first(&report).0, "CE", "{report}");
    // Stopped at the memory limit whoever runs the judge: by the run's
    // cgroup, or by RLIMIT_AS where there is none (not, 60 s later, at the
    // wall-clock cap).
    let error = report["build"]["error"].as_str().unwrap();
    assert!(error.contains("the compile memory limit"), "{error}");
}

#[test]
fn a_java_stack_overflow_is_re_not_mle() {
    if !have(&["javac", "java"], "Java stack overflow") {
        return;
    }
    for limit in ["64M", "256M"] {
        // Filling a deep stack takes the JVM a while: time is not the
        // question here.
        let (_, report) = super::judge_fixture(
            "re_stack_overflow.java",
            "cases/acwing166/sample.in",
            &["--memory-limit", limit, "--time-limit", "10s"],
        );
        let (verdict, message) = first(&report);
        assert_eq!(verdict, "RE", "{limit}: {message}");
        assert!(
            message.contains("java.lang.StackOverflowError"),
            "{message}"
        );
    }
}

// ---------------------------------------------------------------------------
// The judge itself stays healthy and says what is wrong.
// ---------------------------------------------------------------------------

/// Starts the judge on `args` in `dir`, for a test that signals it.
fn start_judge(dir: &Path, args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn sigterm_and_sighup_stop_the_run_and_still_write_the_reports() {
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let dir = tempfile::tempdir().unwrap();
        for name in ["c1", "c2", "c3"] {
            write(
                dir.path(),
                &format!("{name}.in"),
                &format!("{PUZZLE}\nend\n"),
            );
        }
        let mut judge = start_judge(
            dir.path(),
            &[
                "test",
                ".",
                "--solver",
                "faulty-loop",
                "--time-limit",
                "3s",
                "--json",
                "report.json",
                "--junit",
                "report.xml",
            ],
        );
        // Signalled once the first case runs: its worker is the sign.
        let mut family = Family::of(&judge, "worker --solver faulty-loop");
        assert!(
            eventually(Duration::from_secs(60), || family.look()),
            "no worker started"
        );
        // SAFETY: kill(2) on our own child, not yet reaped.
        unsafe { libc::kill(judge.id() as i32, signal) };
        let started = Instant::now();
        let status = watch_until_it_ends(&mut judge, &mut family);
        // A backstop only a hang fails. That it stopped rather than went on
        // is told by the report below, not by a time a busy machine sets.
        assert!(started.elapsed() < super::HANG_GUARD, "it did not stop");
        assert_eq!(status.code(), Some(code), "signal {signal}");
        let report: Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join("report.json")).unwrap())
                .expect("the JSON report is complete");
        assert_eq!(report["interrupted"], true);
        // Signalled during the first of three endless cases: not all were
        // judged.
        let judged = cases_of(&report)
            .iter()
            .filter(|case| case["verdict"].is_string())
            .count();
        assert!(judged < 3, "{report}");
        let xml = fs::read_to_string(dir.path().join("report.xml")).unwrap();
        assert!(xml.contains("</testsuites>"), "{xml}");
        let left = family.left();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}

/// Waits for `judge` to end, looking for its processes the while, so that
/// `family` knows each one it started.
fn watch_until_it_ends(
    judge: &mut std::process::Child,
    family: &mut Family,
) -> std::process::ExitStatus {
    loop {
        family.look();
        if let Some(status) = judge.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_endless_line_does_not_grow_the_judge() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    // 60 MB of output with no newline, just under the output limit.
    let mut judge = start_judge(
        dir.path(),
        &[
            "test",
            "a.in",
            "--cmd",
            "sh -c 'head -c 60000000 /dev/zero | tr \"\\000\" 1'",
            "--format",
            "json",
        ],
    );
    let mut stdout = judge.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    // The judge's own peak (VmHWM), not its children's, read until it ends.
    let status = format!("/proc/{}/status", judge.id());
    let mut peak_kb = 0;
    while judge.try_wait().unwrap().is_none() {
        if let Ok(text) = fs::read_to_string(&status) {
            let hwm = text
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok());
            peak_kb = peak_kb.max(hwm.unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let report: Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(first(&report).0, "WA", "{report}");
    // The judge keeps a bounded part of any line: it stays far below the
    // 60 MB it was sent.
    assert!(peak_kb > 0, "the judge's memory was never read");
    assert!(peak_kb < 30 << 10, "the judge grew to {} MB", peak_kb >> 10);
}

#[test]
fn absurd_limits_are_refused_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    for (flag, value, says) in [
        (
            "--time-limit",
            "18446744073709551616s",
            "longer than any time limit a judge sets",
        ),
        (
            "--time-limit",
            "1e300s",
            "longer than any time limit a judge sets",
        ),
        ("--memory-limit", "99999999999T", "is not a memory limit"),
        ("--memory-limit", "2T", "more memory than any judge gives"),
    ] {
        let run = super::run_in(dir.path(), &["test", "a.in", flag, value], "");
        assert_eq!(run.code, 2, "{flag} {value}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{flag} {value}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    write(dir.path(), "judge.toml", "time_limit = \"100000h\"\n");
    let run = super::run_in(dir.path(), &["test", "a.in", "--format", "json"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    let error = cases_of(&run.json())[0]["error"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(error.contains("judge.toml"), "{error}");
    assert!(error.contains("longer than any time limit"), "{error}");
}

#[test]
fn an_expected_output_without_its_input_is_named_not_skipped_in_silence() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "a.out", &format!("{ANSWER}\n"));
    write(dir.path(), "lost.out", &format!("{ANSWER}\n"));
    let run = super::run_in(dir.path(), &["test", "."], "");
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("warning: ./lost.out has no input beside it, so it is not judged"),
        "{}",
        run.stdout
    );
    let check = super::run_in(dir.path(), &["check", "."], "");
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(
        check
            .stdout
            .contains("note: ./lost.out has no input beside it"),
        "{}",
        check.stdout
    );
}

#[test]
fn a_symlink_loop_given_as_the_path_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
    let run = super::run_in(dir.path(), &["test", "loop"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read case path loop") && run.stderr.contains("symbolic links"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_header_says_which_protections_are_in_force() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    // What is checked is the header and that each mode judges, not speed:
    // .ci/vm runs this under an emulated CPU, where the solver's worker
    // once took over a second to start, and TLE failed the check.
    // The header in full, every layer named: --verbose.
    let judge = |sandbox: &[&str]| {
        let mut args = vec!["test", "a.in", "--time-limit", "60s", "--verbose"];
        args.extend_from_slice(sandbox);
        super::run_in(dir.path(), &args, "")
    };
    let off = judge(&["--sandbox", "off"]);
    assert_eq!(off.code, 0, "{}", off.stderr);
    assert!(
        off.stdout
            .contains("sandbox: off (--sandbox off): submissions run unconfined"),
        "{}",
        off.stdout
    );
    let auto = judge(&[]);
    assert!(auto.stdout.contains("\nsandbox: "), "{}", auto.stdout);
    // Where a layer is missing (as for a user with no cgroup of their own)
    // the header names it: that is what is checked there.
    let layers = [
        "processes",
        "filesystem",
        "network",
        "ipc",
        "accounting",
        "no_fork",
    ];
    if !missing_layers(&layers).is_ok_and(|missing| missing.is_empty()) {
        assert!(auto.stdout.contains("MISSING"), "{}", auto.stdout);
        return;
    }
    // Made in a user namespace of its own when the judge is not root.
    let namespaces = if nix::unistd::Uid::effective().is_root() {
        "sandbox: PID, mount, network and IPC namespaces; cgroup v"
    } else {
        "sandbox: PID, mount, network and IPC namespaces (in a user namespace); cgroup v"
    };
    assert!(auto.stdout.contains(namespaces), "{}", auto.stdout);
    let require = judge(&["--sandbox", "require"]);
    assert_eq!(require.code, 0, "{}{}", require.stdout, require.stderr);
}

/// Runs the judge as an unprivileged user (uid 65534), as a user without
/// root would: the sandbox is made in a user namespace, and cgroups,
/// which belong to root here, are missing.
#[test]
fn without_root_the_sandbox_uses_a_user_namespace_and_says_what_is_missing() {
    // SAFETY: geteuid takes nothing and cannot fail.
    if unsafe { libc::geteuid() } != 0 || !have(&["setpriv"], "unprivileged judge") {
        skip_or_fail(
            "unprivileged judge",
            "needs root (to become another user) and setpriv",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "a.out", &format!("{ANSWER}\n"));
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let judge = |extra: &[&str]| {
        let output = Command::new("setpriv")
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_sudoku-judge"))
            .args(["test", "a.in", "--verbose"])
            .args(extra)
            .current_dir(dir.path())
            .env("HOME", "/tmp")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = judge(&[]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let header = stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .unwrap_or_default();
    if header.contains("MISSING PID namespace") {
        skip_or_fail(
            "unprivileged judge",
            "the kernel refuses unprivileged user namespaces here",
        );
        return;
    }
    assert!(header.contains("(in a user namespace)"), "{header}");
    assert!(header.contains("MISSING cgroup accounting"), "{header}");
    let (code, _, stderr) = judge(&["--sandbox", "require"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--sandbox require, but the kernel refused cgroup accounting"),
        "{stderr}"
    );
    assert!(
        stderr.contains("enable unprivileged user namespaces")
            && stderr.contains("or judge with --sandbox auto to go on without them"),
        "{stderr}"
    );
}

#[test]
fn a_helper_killed_mid_run_is_named_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["c1", "c2"] {
        write(
            dir.path(),
            &format!("{name}.in"),
            &format!("{PUZZLE}\nend\n"),
        );
    }
    let judge = start_judge(
        dir.path(),
        &[
            "test",
            ".",
            "--solver",
            "faulty-loop",
            "--time-limit",
            "2s",
            "--format",
            "json",
        ],
    );
    // The judge's spawner: a child of the judge, started as `spawner`.
    let judge_pid = judge.id().to_string();
    let started = Instant::now();
    let spawner = loop {
        let found = fs::read_dir("/proc").unwrap().flatten().find_map(|entry| {
            let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
            let cmdline = fs::read(entry.path().join("cmdline")).ok()?;
            let ppid = stat.rsplit_once(") ")?.1.split(' ').nth(1)?;
            (ppid == judge_pid && cmdline.ends_with(b"spawner\0"))
                .then(|| entry.file_name().to_string_lossy().parse::<i32>().ok())?
        });
        if let Some(pid) = found {
            break pid;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no spawner");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Killed once the first case runs: its worker is the sign.
    let mut family = Family::of(&judge, "worker --solver faulty-loop");
    assert!(
        eventually(Duration::from_secs(60), || family.look()),
        "no worker started"
    );
    // SAFETY: kill(2) of a process of this test's own judge.
    unsafe { libc::kill(spawner, libc::SIGKILL) };
    let mut judge = judge;
    watch_until_it_ends(&mut judge, &mut family);
    let output = judge.wait_with_output().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}), exit {:?}:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let cases = cases_of(&report);
    let message = cases[0]["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("the judge's spawner process exited unexpectedly"),
        "{report}"
    );
    assert_eq!(cases[1]["verdict"], "TLE", "{report}");
    assert_eq!(output.status.code(), Some(2));
    // The orphaned worker dies with its spawner (its parent-death
    // signal), which a busy machine may deliver a moment after the judge
    // is gone.
    assert!(
        eventually(Duration::from_secs(10), || family.left().is_empty()),
        "left behind: {:?}",
        family.left()
    );
}

/// The description of the key [`keyrings_are_out_of_reach`] plants, as its
/// fixtures look for it. Keyrings are Linux's: so are these.
#[cfg(target_os = "linux")]
const PLANTED_KEY: &str = "sudoku-judge-planted-key";

/// Runs the judge with `args` in `dir`, in a session keyring of its own
/// that holds [`PLANTED_KEY`], as a user's login session holds tokens.
#[cfg(target_os = "linux")]
fn judge_with_a_planted_key(dir: &Path, args: &[&str]) -> (i32, Value) {
    use std::os::unix::process::CommandExt as _;
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
    command
        .args(args)
        .args(["--format", "json"])
        .current_dir(dir)
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .stdin(Stdio::null());
    // SAFETY: between fork and exec the closure makes two system calls,
    // with strings made before the fork, and allocates nothing.
    let key = std::ffi::CString::new(PLANTED_KEY).unwrap();
    unsafe {
        command.pre_exec(move || {
            const JOIN_SESSION_KEYRING: libc::c_long = 1;
            const SESSION_KEYRING: libc::c_long = -3;
            if libc::syscall(
                libc::SYS_keyctl,
                JOIN_SESSION_KEYRING,
                std::ptr::null::<u8>(),
            ) < 0
                || libc::syscall(
                    libc::SYS_add_key,
                    c"user".as_ptr(),
                    key.as_ptr(),
                    c"hunter2".as_ptr(),
                    7usize,
                    SESSION_KEYRING,
                ) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
    (output.status.code().expect("exited, not killed"), report)
}

/// A key in the judge's session keyring (a Kerberos ticket, a tool's
/// token) is out of reach of a program and of a LeetCode-style file, and
/// a key one run leaves is gone for the next.
#[test]
#[cfg(target_os = "linux")]
fn keyrings_are_out_of_reach() {
    if !have(&["cc", "python3"], "keyrings") || !sandboxed("keyrings", &["keyrings"]) {
        return;
    }
    let scene = Scene::new();
    write(&scene.suite(), "b.in", &format!("{PUZZLE}\nend\n"));
    write(&scene.suite(), "b.out", &format!("{ANSWER}\n"));
    let program = build_hostile("ac_cannot_reach_keyrings.c", scene.path());
    let suite = scene.suite();
    let (code, report) = judge_with_a_planted_key(
        &scene.work(),
        &[
            "test",
            suite.to_str().unwrap(),
            "--cmd",
            program.to_str().unwrap(),
        ],
    );
    let cases = cases_of(&report);
    assert_eq!(cases.len(), 2, "{report}");
    for case in cases {
        assert_eq!(case["verdict"], "AC", "{case}");
    }
    assert_eq!(code, 0);
    let fixture = manifest_dir().join("tests/fixtures/submissions/ac_cannot_reach_keyrings.py");
    let boards = manifest_dir().join("cases/leetcode37");
    let (code, report) = judge_with_a_planted_key(
        &scene.work(),
        &[
            "test",
            boards.join("example1").to_str().unwrap(),
            boards.join("one-blank").to_str().unwrap(),
            "--submission",
            fixture.to_str().unwrap(),
            "--time-limit",
            "10s",
        ],
    );
    assert_eq!(cases_of(&report).len(), 2, "{report}");
    for case in cases_of(&report) {
        assert_eq!(case["verdict"], "AC", "{case}");
    }
    assert_eq!(code, 0);
}

/// Where a file is bound over one under `/etc` (Docker binds `hosts`,
/// `hostname` and `resolv.conf`), the sandbox of a judge run as an
/// ordinary user still has its mount namespace, and the bound file is
/// read-only in it. Made as root: a mount namespace with such a bind, and
/// the judge run in it as uid 65534.
#[test]
fn a_file_bound_under_etc_keeps_the_mount_namespace_of_a_user() {
    if !nix::unistd::Uid::effective().is_root() || !have(&["setpriv", "unshare"], "bound /etc") {
        skip_or_fail(
            "bound /etc",
            "needs root (to bind a file and become another user)",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "a.out", &format!("{ANSWER}\n"));
    let bound = write(dir.path(), "hostname", "bound-by-the-container\n");
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    // Writable by anyone: only a read-only mount keeps the run out.
    fs::set_permissions(&bound, fs::Permissions::from_mode(0o666)).unwrap();
    let script = format!(
        "mount --bind {} /etc/hostname && exec setpriv --reuid 65534 --regid 65534 \
         --clear-groups env HOME=/tmp \"$0\" test a.in --verbose --cmd \"$1\"",
        bound.display()
    );
    let output = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .arg(env!("CARGO_BIN_EXE_sudoku-judge"))
        .arg("sh -c 'cat /etc/hostname >&2; echo changed >> /etc/hostname'")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let header = stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .unwrap_or_default();
    if header.contains("MISSING PID namespace") {
        skip_or_fail(
            "bound /etc",
            "the kernel refuses unprivileged user namespaces here",
        );
        return;
    }
    assert!(
        header.contains("PID, mount, network and IPC namespaces"),
        "{stdout}"
    );
    assert!(!header.contains("MISSING mount namespace"), "{header}");
    // The run saw the bound file, and could not change it.
    assert!(stdout.contains("bound-by-the-container"), "{stdout}");
    assert!(stdout.contains("Read-only file system"), "{stdout}");
    assert_eq!(
        fs::read_to_string(&bound).unwrap(),
        "bound-by-the-container\n"
    );
}

/// Under cgroup v2, a judge run as an ordinary user alone in a cgroup
/// delegated to it (as `systemd-run --user --scope -p Delegate=yes`
/// makes one) moves into a leaf of that cgroup and makes its runs'
/// cgroups beside it: children it never waited for are charged. Made as
/// root, the way systemd delegates: the directory and the files named in
/// `/sys/kernel/cgroup/delegate` belong to the user.
#[test]
#[ignore = "needs root on cgroup v2: .ci/vm runs it in a VM (.ci/vm-checks)"]
fn on_cgroup_v2_a_judge_alone_in_a_delegated_cgroup_makes_its_runs_there() {
    let root = Path::new("/sys/fs/cgroup");
    let v2 = fs::read_to_string(root.join("cgroup.controllers"))
        .is_ok_and(|c| c.contains("memory") && c.contains("pids"));
    if !nix::unistd::Uid::effective().is_root() || !v2 || !have(&["cc", "setpriv"], "v2 scope") {
        skip_or_fail(
            "v2 scope",
            "needs root, and cgroup v2 with the memory and pids controllers",
        );
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_charged_for_its_children.c", scene.path());
    use std::os::unix::fs::PermissionsExt as _;
    for dir in [scene.path(), &scene.suite(), &scene.work()] {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let scope = root.join(format!("sudoku-judge-test-{}.scope", std::process::id()));
    for controller in ["+memory", "+pids"] {
        fs::write(root.join("cgroup.subtree_control"), controller).unwrap();
    }
    fs::create_dir(&scope).unwrap();
    let user = nix::unistd::Uid::from_raw(65534);
    let group = nix::unistd::Gid::from_raw(65534);
    nix::unistd::chown(&scope, Some(user), Some(group)).unwrap();
    let delegate = fs::read_to_string("/sys/kernel/cgroup/delegate").unwrap_or_default();
    for file in delegate.split_whitespace() {
        let _ = nix::unistd::chown(&scope.join(file), Some(user), Some(group));
    }
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "echo $$ > {}/cgroup.procs && exec setpriv --reuid 65534 --regid 65534 \
             --clear-groups env HOME=/tmp \"$0\" test {} --cmd \"$1\" --format json",
            scope.display(),
            scene.suite().display()
        ))
        .arg(env!("CARGO_BIN_EXE_sudoku-judge"))
        .arg(&program)
        .current_dir(scene.work())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    // Whatever the judge left: its leaf and its runs' directory, empty,
    // and removable as soon as the kernel has let go of the processes
    // that were in them (a moment, longer where the CPU is emulated).
    let removed = super::eventually(Duration::from_secs(10), || {
        for entry in walkdir::WalkDir::new(&scope)
            .contents_first(true)
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_dir() {
                let _ = fs::remove_dir(entry.path());
            }
        }
        !scope.exists()
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(
        report["sandbox"]["cgroup_version"], "cgroup v2 (delegated to you)",
        "{}",
        report["sandbox"]
    );
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "AC", "{message}");
    let charged = cases_of(&report)[0]["time_ms"].as_f64().unwrap();
    assert!(charged >= 600.0, "charged {charged} ms");
    assert!(removed, "{} is left behind", scope.display());
}

/// Processes that spin on every CPU the judge may use, until dropped.
struct Spinners(Vec<std::process::Child>);

impl Spinners {
    fn start(per_cpu: usize) -> Spinners {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Started from here, they may use the CPUs the judge may use.
        let spinners = (0..cpus * per_cpu)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        Spinners(spinners)
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        for spinner in &mut self.0 {
            let _ = spinner.kill();
            let _ = spinner.wait();
        }
    }
}

/// Judges `suite` with `args` while [`Spinners`] run, the judge started
/// at a lower priority than theirs (`nice -n 5`): it and its runs get a
/// share of a CPU of a weight of 335 against 1024 for each spinner, some
/// 14% with two spinners a CPU on an idle machine, less on a busy one. A
/// run of half a second of CPU then takes seconds of wall time, past its
/// wall-clock cap.
fn judge_starved(suite: &Path, args: &[&str]) -> (i32, Value, String) {
    let spinners = Spinners::start(2);
    let started = Instant::now();
    let output = Command::new("nice")
        .args(["-n", "5", env!("CARGO_BIN_EXE_sudoku-judge"), "test"])
        .arg(suite)
        .args(["--format", "json"])
        .args(args)
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    drop(spinners);
    assert!(started.elapsed() < super::HANG_GUARD, "{args:?} hung");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
    (
        output.status.code().expect("exited, not killed"),
        report,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// What a case judged on a machine busy with other work may be: AC, or
/// not judged because the machine stayed too busy (exit 2), never TLE.
fn accepted_or_too_busy(code: i32, case: &Value) {
    let verdict = case["verdict"].as_str().unwrap_or("ERROR");
    let message = case["message"].as_str().unwrap_or_default();
    match verdict {
        "AC" => {}
        "ERROR" => {
            assert!(message.contains("the machine was too busy"), "{case}");
            assert!(message.contains("for a CPU"), "{case}");
            assert_eq!(code, 2, "{case}");
        }
        _ => panic!("{verdict} on a busy machine: {case}"),
    }
}

/// On a machine busy with other work, an honest CPU-bound program under
/// its limit is never TLE: starved of CPU past the wall-clock cap, it is
/// judged again, and if the machine stays too busy, the case says that its
/// time could not be judged (exit 2), never that the program was slow.
#[test]
fn a_busy_machine_never_turns_an_honest_run_into_tle() {
    if !have(&["cc", "nice"], "busy machine") {
        return;
    }
    let scene = Scene::new();
    let program = build_hostile("ac_works_900_ms.c", scene.path());
    let (code, report, _) = judge_starved(&scene.suite(), &["--cmd", program.to_str().unwrap()]);
    let case = &cases_of(&report)[0];
    accepted_or_too_busy(code, case);
    if case["verdict"] == "AC" {
        assert_eq!(code, 0);
    }
}

/// The same for a LeetCode-style Python file, in the process the judge
/// keeps for its cases: 0.3 s of CPU a board, two boards, under a 1 s
/// limit.
#[test]
fn a_busy_machine_never_turns_an_honest_python_function_into_tle() {
    if !have(&["python3", "nice"], "busy machine, a function") {
        return;
    }
    let scene = Scene::new();
    let file = "tests/fixtures/submissions/ac_spins_then_solves.py";
    let (code, report, stderr) = judge_starved(&scene.suite(), &["--submission", file]);
    let cases = cases_of(&report);
    assert!(!cases.is_empty(), "{report}\n{stderr}");
    for case in cases {
        accepted_or_too_busy(code, case);
    }
}

/// The same for Python programs judged two at a time (`--jobs 2`), each
/// 0.4 s of CPU under a 1 s limit.
#[test]
fn a_busy_machine_never_turns_honest_python_programs_under_jobs_into_tle() {
    if !have(&["python3", "nice"], "busy machine, --jobs 2") {
        return;
    }
    let scene = Scene::new();
    write(&scene.suite(), "b.in", &format!("{PUZZLE}\nend\n"));
    write(&scene.suite(), "b.out", &format!("{ANSWER}\n"));
    let file = "tests/fixtures/submissions/ac_burns_cpu.py";
    let (code, report, stderr) =
        judge_starved(&scene.suite(), &["--submission", file, "--jobs", "2"]);
    let cases = cases_of(&report);
    assert_eq!(cases.len(), 2, "{report}\n{stderr}");
    for case in cases {
        accepted_or_too_busy(code, case);
    }
}

/// A solution that sleeps is still TLE on a busy machine: it did not wait
/// for a CPU, and the reason says it ran past the wall-clock limit with
/// little wait for one.
#[test]
fn a_sleeper_is_tle_on_a_busy_machine_too() {
    if !have(&["python3", "nice"], "busy machine, a sleeper") {
        return;
    }
    let scene = Scene::new();
    let file = scene.path().join("sleeps.py");
    fs::write(
        &file,
        "import time\n\nclass Solution:\n    def solveSudoku(self, board):\n        \
         time.sleep(60)\n",
    )
    .unwrap();
    let (code, report, stderr) =
        judge_starved(&scene.suite(), &["--submission", file.to_str().unwrap()]);
    let (verdict, message) = first(&report);
    assert_eq!(verdict, "TLE", "{message}\n{stderr}");
    assert!(message.contains("of wall time"), "{message}");
    assert_eq!(code, 1);
}

/// A stand-in for `cc` that first uses 0.3 s of CPU time, however long a
/// busy machine makes that take, then is the real compiler (`REAL_CC`),
/// asked its version or compiling; each compile first adds a line to
/// `attempts` in the build directory, so a test sees how often it ran.
#[cfg(target_os = "linux")]
const BUSY_CC: &str = r#"#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") != 0) {
        FILE *attempts = fopen("attempts", "a");
        if (attempts) {
            fputs("compiling\n", attempts);
            fclose(attempts);
        }
    }
    while ((double)clock() / CLOCKS_PER_SEC < 0.3) {
    }
    argv[0] = REAL_CC;
    execv(REAL_CC, argv);
    perror(REAL_CC);
    return 127;
}
"#;

/// The first CPU this test may run on.
#[cfg(target_os = "linux")]
fn first_cpu() -> String {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let allowed = status
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
        .expect("Linux says which CPUs a process may use");
    allowed.trim().split([',', '-']).next().unwrap().to_owned()
}

/// A C program compiled on a machine too busy to give the compiler a CPU
/// is never CE: its compile time limit lowered to 2 s of CPU (4 s of wall
/// time, `SUDOKU_JUDGE_COMPILE_TIME`), the judge at `nice -n 10` on one
/// CPU beside two spinners, a compiler that needs some 0.4 s of CPU gets
/// at most a twentieth of that CPU: the cap stops it, starved, however
/// busy the machine is besides. It is compiled again under a cap that
/// fits its share (the same for the question of its version, which the
/// same compiler answers as slowly): the build is AC, with the
/// compiler's version known, or it fails as the machine's fault (exit 2).
#[cfg(target_os = "linux")]
#[test]
fn a_busy_machine_never_turns_an_honest_compile_into_ce() {
    if !have(&["cc", "nice", "taskset"], "busy machine, a compile") {
        return;
    }
    let scene = Scene::new();
    let real_cc = fs::canonicalize(which::which("cc").unwrap()).unwrap();
    let source = scene.path().join("busy-cc.c");
    fs::write(&source, BUSY_CC).unwrap();
    let busy_cc = scene.path().join("bin/busy-cc");
    fs::create_dir_all(busy_cc.parent().unwrap()).unwrap();
    let built = Command::new("cc")
        .arg(format!("-DREAL_CC=\"{}\"", real_cc.display()))
        .arg("-o")
        .arg(&busy_cc)
        .arg(&source)
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let cache = scene.path().join("cache");

    let cpu = first_cpu();
    let spinners = Spinners(
        (0..2)
            .map(|_| {
                Command::new("taskset")
                    .args(["-c", &cpu, "sh", "-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect(),
    );
    let started = Instant::now();
    let output = Command::new("taskset")
        .args(["-c", &cpu, "nice", "-n", "10"])
        .arg(env!("CARGO_BIN_EXE_sudoku-judge"))
        .arg("test")
        .arg(scene.suite())
        .args(["--format", "json", "--submission"])
        .arg(manifest_dir().join("tests/fixtures/submissions/ac_program.c"))
        .current_dir(scene.work())
        .env("CC", &busy_cc)
        .env("SUDOKU_JUDGE_COMPILE_TIME", "2")
        .env("SUDOKU_JUDGE_CACHE", &cache)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    drop(spinners);
    assert!(started.elapsed() < super::HANG_GUARD, "the judge hung");
    let code = output.status.code().expect("exited, not killed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Still starved: the build fails as the machine's fault, asking the
    // compiler its version or compiling.
    if stderr.contains("the machine was too busy to compile")
        || stderr.contains("the machine was too busy to ask")
    {
        assert!(stderr.contains("for a CPU"), "{stderr}");
        assert_eq!(code, 2, "{stderr}");
        return;
    }
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}\n{stderr}"));
    assert_eq!(report["build"]["error"], Value::Null, "{report}");
    let version = report["build"]["toolchain"][0]["version"]
        .as_str()
        .unwrap_or_default();
    assert!(
        version.chars().any(|c| c.is_ascii_digit()),
        "the compiler's version is unknown: {report}"
    );
    let cases = cases_of(&report);
    assert!(!cases.is_empty(), "{report}\n{stderr}");
    for case in cases {
        accepted_or_too_busy(code, case);
    }
    // The compile was starved, and compiled again: else the machine gave
    // the judge more of the CPU than its priority says (a cgroup of its
    // own with a share of the CPU), and nothing was checked.
    let attempts: usize = walkdir::WalkDir::new(&cache)
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_name() == "attempts")
        .map(|entry| fs::read_to_string(entry.path()).unwrap().lines().count())
        .sum();
    if attempts < 2 {
        skip_or_fail(
            "a_busy_machine_never_turns_an_honest_compile_into_ce",
            &format!("the compile was not starved here ({attempts} attempt)"),
        );
    }
}
