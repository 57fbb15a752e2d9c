//! Decides a case's verdict and its reason: how one run of a submission,
//! and what the checker made of its answers, become a verdict, as judges
//! decide it. The judge, `stress` and `hack` all decide through
//! [`decide`], and the report's snapshot renders its real words.

use crate::case::CaseData;
use crate::case::Limits;
use crate::check::Checked;
use crate::reason::{KilledAt, Progress, Reason};
use crate::runner::process::Kill;
use crate::runner::{End, Run};
use crate::verdict::Verdict;

/// The verdict of one run, as judges decide it: a compile error first, then
/// time, memory and output limits, then a crash, and only then the answers,
/// which `checked` judged; what it printed is carried over.
///
/// `None` when the user interrupted the run (Ctrl-C): a run stopped part
/// way has no verdict, so a caller stops rather than count it as one.
pub(crate) fn decide(
    case: &CaseData,
    run: &Run,
    limits: &Limits,
    checked: Checked,
) -> Option<Checked> {
    let Checked {
        verdict: answers_verdict,
        reason: answers_reason,
        details: answers_details,
        output,
    } = checked;
    let decided = move |verdict, reason, details| {
        Some(Checked {
            verdict,
            reason,
            details,
            output,
        })
    };
    let progress = Progress {
        answered: run.answered,
        puzzles: case.puzzles,
        // A program killed before it printed anything may well have
        // answered: into a buffer that died with it.
        maybe_buffered: run.program
            && run.answered == 0
            && case.puzzles > 1
            && matches!(run.end, End::Killed(_)),
        buffering: run.buffering,
        forks_refused: run.fork_refusals,
    };
    let killed = |at| Reason::Killed { at, progress };
    let stderr = run.stderr.trim().to_string();
    match &run.end {
        End::NotCompiled => return decided(Verdict::CE, Reason::CompileError, String::new()),
        End::Killed(Kill::Wall) => {
            let at = KilledAt::Wall {
                wall: run.wall,
                cpu: run.cpu,
                limit: limits.time,
            };
            return decided(Verdict::TLE, killed(at), String::new());
        }
        End::Killed(Kill::Cpu) => {
            let at = KilledAt::Cpu {
                time: run.time,
                limit: limits.time,
            };
            return decided(Verdict::TLE, killed(at), String::new());
        }
        End::Killed(Kill::Startup) => {
            let at = KilledAt::Startup {
                seconds: crate::runner::function::STARTUP.as_secs(),
            };
            return decided(Verdict::TLE, killed(at), String::new());
        }
        End::Killed(Kill::Memory) => {
            let at = KilledAt::Memory {
                memory_kb: run.memory_kb,
                limit_kb: limits.memory_kb,
            };
            return decided(Verdict::MLE, killed(at), String::new());
        }
        End::Killed(Kill::Output) => {
            let at = KilledAt::Output {
                limit_mb: Limits::output_bytes(case.puzzles) >> 20,
            };
            return decided(Verdict::OLE, killed(at), String::new());
        }
        End::OutOfMemory(line) => {
            let reason = Reason::AllocationFailed {
                message: line.clone(),
                limit_kb: limits.memory_kb,
                memory_kb: run.memory_kb,
            };
            return decided(Verdict::MLE, reason, stderr);
        }
        End::Killed(Kill::Interrupted) => return None,
        End::Normal | End::Panicked(_) | End::Crashed(_) => {}
    }
    if let Some((verdict, reason)) = over_limits(run, limits, answers_verdict == Verdict::AC) {
        // What the answers were is worth showing beside a time, not
        // beside memory.
        let details = match verdict {
            Verdict::TLE => answers_details,
            _ => String::new(),
        };
        return decided(verdict, reason, details);
    }
    match &run.end {
        End::Panicked(message) => {
            let reason = Reason::Panicked {
                message: message.clone(),
                puzzle: (run.answered + 1).min(case.puzzles),
                puzzles: case.puzzles,
            };
            decided(Verdict::RE, reason, String::new())
        }
        End::Crashed(how) => {
            let reason = Reason::Crashed {
                how: how.clone(),
                progress,
            };
            decided(Verdict::RE, reason, stderr)
        }
        _ => decided(answers_verdict, answers_reason, answers_details),
    }
}

/// The verdict of a run that ended by itself but past a limit: its CPU
/// time, its wall time, its memory. `answers_right`: whether its answers,
/// judged anyway, were all right, which the reason says.
fn over_limits(run: &Run, limits: &Limits, answers_right: bool) -> Option<(Verdict, Reason)> {
    if run.time > limits.time {
        let reason = Reason::OverTime {
            time: run.time,
            limit: limits.time,
            answers_right,
        };
        return Some((Verdict::TLE, reason));
    }
    if run.wall > limits.wall() {
        let reason = Reason::OverWall {
            wall: run.wall,
            limit: limits.wall(),
            factor: limits.wall_factor,
            cpu: run.cpu,
            cpu_wait: run.cpu_wait,
            answers_right,
        };
        return Some((Verdict::TLE, reason));
    }
    if run.memory_kb > limits.memory_kb + run.memory_allowance_kb {
        let reason = Reason::OverMemory {
            memory_kb: run.memory_kb,
            limit_kb: limits.memory_kb,
            answers_right,
        };
        return Some((Verdict::MLE, reason));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::time::Duration;

    const LIMITS: Limits = Limits {
        time: Duration::from_millis(1000),
        memory_kb: 256 * 1024,
        wall_factor: 2,
    };

    /// A case of two puzzles; `decide` reads only how many there are.
    fn case() -> CaseData {
        let blank = Board::from_bytes(&[0; 81]).expect("a blank board");
        CaseData::in_memory(&[blank, blank], None)
    }

    /// A run that ended as `end` within every limit, having answered both
    /// puzzles.
    fn run(end: End) -> Run {
        Run {
            memory_kb: 4 * 1024,
            ..Run::ended(end, 2, 40)
        }
    }

    fn right() -> Checked {
        Checked {
            verdict: Verdict::AC,
            reason: Reason::Accepted,
            details: String::new(),
            output: "answers".into(),
        }
    }

    fn wrong(verdict: Verdict) -> Checked {
        Checked {
            verdict,
            reason: Reason::Wrong(crate::reason::Wrong::LineDiffers { line: 3 }),
            details: "a grid diff".into(),
            output: "answers".into(),
        }
    }

    fn decided(run: &Run, checked: Checked) -> Checked {
        decide(&case(), run, &LIMITS, checked).expect("a verdict")
    }

    #[test]
    fn the_answers_decide_a_run_within_its_limits() {
        let accepted = decided(&run(End::Normal), right());
        assert_eq!(accepted.verdict, Verdict::AC);
        assert_eq!(accepted.reason.sentence(), "");
        assert_eq!(
            accepted.output, "answers",
            "what it printed is carried over"
        );
        for verdict in [Verdict::WA, Verdict::PE] {
            let judged = decided(&run(End::Normal), wrong(verdict));
            assert_eq!(judged.verdict, verdict);
            assert_eq!(
                judged.reason.sentence(),
                "line 3 differs from the expected output"
            );
            assert_eq!(judged.details, "a grid diff");
        }
    }

    #[test]
    fn a_compile_error_comes_before_everything() {
        let mut never = run(End::NotCompiled);
        never.time = Duration::from_secs(5);
        let judged = decided(&never, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::CE);
        assert_eq!(
            judged.reason.sentence(),
            "compile error, message at the end"
        );
    }

    #[test]
    fn a_kill_by_the_watchdog_is_its_limit_whatever_the_answers() {
        let mut wall = run(End::Killed(Kill::Wall));
        (wall.answered, wall.wall, wall.time, wall.cpu) = (
            0,
            Duration::from_millis(2100),
            Duration::ZERO,
            Duration::ZERO,
        );
        wall.program = true;
        let judged = decided(&wall, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(
            judged.reason.sentence().starts_with(
                "killed after 2100 ms of wall time (CPU 0 ms), over the 1000 ms limit; 0 of 2 \
                 puzzles answered (if its output is buffered"
            ),
            "{}",
            judged.reason.sentence()
        );

        // A built-in solver or a LeetCode-style file has no output buffer
        // to flush; its CPU is what its cpu column says.
        wall.program = false;
        (wall.time, wall.cpu) = (Duration::from_millis(2100), Duration::from_millis(516));
        assert_eq!(
            decided(&wall, right()).reason.sentence(),
            "killed after 2100 ms of wall time (CPU 516 ms), over the 1000 ms limit; 0 of 2 \
             puzzles answered"
        );

        let mut cpu = run(End::Killed(Kill::Cpu));
        (cpu.answered, cpu.time, cpu.fork_refusals) = (1, Duration::from_millis(1001), 3);
        assert_eq!(
            decided(&cpu, wrong(Verdict::WA)).reason.sentence(),
            "killed at the 1000 ms limit, with 1001 ms of CPU time charged by the time it \
             stopped; 1 of 2 puzzles answered; 3 forks refused: it reached the limit of 256 \
             processes and threads"
        );

        let startup = decided(&run(End::Killed(Kill::Startup)), right());
        assert_eq!(startup.verdict, Verdict::TLE);
        assert!(startup
            .reason
            .sentence()
            .starts_with("killed before its first board"));

        let mut memory = run(End::Killed(Kill::Memory));
        memory.memory_kb = 300 * 1024;
        let judged = decided(&memory, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason.sentence(),
            "killed at 300.0 MB of memory, over the 256.0 MB limit; 2 of 2 puzzles answered"
        );
        // Under the limit in its own pages: the kernel's share made the rest.
        memory.memory_kb = 200 * 1024;
        assert!(decided(&memory, right())
            .reason
            .sentence()
            .starts_with("stopped by the kernel at the memory cap (200.0 MB"));

        let output = decided(&run(End::Killed(Kill::Output)), right());
        assert_eq!(output.verdict, Verdict::OLE);
        assert_eq!(
            output.reason.sentence(),
            "killed after printing more than 64 MB, the output limit; 2 of 2 puzzles answered"
        );
    }

    #[test]
    fn an_interrupted_run_has_no_verdict() {
        for checked in [right(), wrong(Verdict::WA)] {
            assert!(decide(
                &case(),
                &run(End::Killed(Kill::Interrupted)),
                &LIMITS,
                checked
            )
            .is_none());
        }
    }

    #[test]
    fn a_run_over_a_limit_it_was_not_killed_at_fails_it() {
        let mut slow = run(End::Normal);
        slow.time = Duration::from_millis(1500);
        let judged = decided(&slow, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert_eq!(
            judged.reason.sentence(),
            "took 1500 ms, 50% over the 1000 ms limit (the answers were right)"
        );
        let judged = decided(&slow, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(judged
            .reason
            .sentence()
            .ends_with("(the answers were wrong too)"));
        assert_eq!(judged.details, "a grid diff", "the wrong answers are shown");

        let mut sleepy = run(End::Normal);
        sleepy.wall = Duration::from_millis(2500);
        let judged = decided(&sleepy, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(judged
            .reason
            .sentence()
            .starts_with("ran for 2500 ms of wall time, over the 2000 ms wall-clock limit"));

        let mut big = run(End::Normal);
        big.memory_kb = 300 * 1024;
        let judged = decided(&big, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason.sentence(),
            "peak memory 300.0 MB, over the 256.0 MB limit (the answers were right)"
        );
        // A runtime's own memory is allowed on top of the limit.
        big.memory_allowance_kb = 64 * 1024;
        assert_eq!(decided(&big, right()).verdict, Verdict::AC);

        let mut out_of_memory = run(End::OutOfMemory("std::bad_alloc".into()));
        out_of_memory.stderr = "terminate called after throwing std::bad_alloc\n".into();
        let judged = decided(&out_of_memory, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason.sentence(),
            "an allocation failed under the 256.0 MB limit (std::bad_alloc); peak memory 4.0 MB"
        );
        assert_eq!(
            judged.details,
            "terminate called after throwing std::bad_alloc"
        );
    }

    #[test]
    fn a_crash_within_the_limits_is_a_runtime_error() {
        let mut panicked = run(End::Panicked("index out of bounds at src/main.rs:3".into()));
        panicked.answered = 1;
        let judged = decided(&panicked, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::RE);
        assert_eq!(
            judged.reason.sentence(),
            "index out of bounds at src/main.rs:3 (puzzle 2 of 2)"
        );

        let mut crashed = run(End::Crashed(
            "killed by SIGSEGV (segmentation fault)".into(),
        ));
        crashed.stderr = "  core dumped  ".into();
        let judged = decided(&crashed, right());
        assert_eq!(judged.verdict, Verdict::RE);
        assert_eq!(
            judged.reason.sentence(),
            "killed by SIGSEGV (segmentation fault); 2 of 2 puzzles answered"
        );
        assert_eq!(judged.details, "core dumped");
    }

    #[test]
    fn every_verdict_is_reachable_from_a_run() {
        let mut given = vec![
            decided(&run(End::Normal), right()),
            decided(&run(End::Normal), wrong(Verdict::WA)),
            decided(&run(End::Normal), wrong(Verdict::PE)),
            decided(&run(End::Killed(Kill::Cpu)), right()),
            decided(&run(End::Killed(Kill::Memory)), right()),
            decided(&run(End::Killed(Kill::Output)), right()),
            decided(&run(End::Crashed("exit code 1".into())), right()),
            decided(&run(End::NotCompiled), right()),
        ]
        .into_iter()
        .map(|c| c.verdict)
        .collect::<Vec<_>>();
        given.sort_by_key(|&v| Verdict::ALL.iter().position(|&w| w == v));
        assert_eq!(given, Verdict::ALL);
    }
}
