//! The watchdog: one thread that serves a running process with `poll(2)`
//! (on Windows, waiting on its pipes' threads: `super::threads`), feeding
//! its stdin, draining its outputs, noticing its start and its exit, and
//! at every round deciding whether it must be stopped (the user's
//! interruption, the wall-clock deadline, its conversation's word, its
//! CPU time or memory). A process that never reads, or floods stderr,
//! cannot stall it, and no helper thread is left behind blocked on a pipe.

use std::io;
use std::time::{Duration, Instant};

use super::interrupts::interrupted;
use super::streams::{drain, readable, write_some, Ends, Ready};
use super::watchdog::{Conversation, Input, Kill, Process, Served};
use crate::runner::platform::ExitFd;

/// How often the watchdog looks at the process's CPU time and memory.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// Without a pidfd the exit is noticed by asking: this often at most.
const EXIT_CHECK_EVERY: Duration = Duration::from_millis(1);

/// How long to wait for the pipes to close once the run is over. Only a
/// process that escaped (there is no PID namespace) can hold them longer.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Where one exchange stands, from one round of the loop to the next.
struct Exchange {
    /// Readable when the process exits, if there is such a thing.
    exit_fd: Option<ExitFd>,
    /// Bytes handed on so far, each within the output limit.
    stdout_bytes: usize,
    answer_bytes: usize,
    /// Once the process has ended: until when its pipes may still drain.
    drain_until: Option<Instant>,
    /// When the watchdog next samples its CPU time and memory.
    next_sample: Instant,
}

impl Process {
    /// Talks with the process through `conversation` until the
    /// conversation is done ([`Served::Done`], the process lives on) or the
    /// process has ended ([`Served::Ended`]). Each exchange has its own
    /// output limit, and its own stderr in what the end reports.
    pub(crate) fn serve(&mut self, conversation: &mut dyn Conversation) -> io::Result<Served> {
        let mut exchange = self.open_exchange();
        loop {
            let now = Instant::now();
            self.notice_start()?;
            self.notice_exit(now, &mut exchange)?;
            if let Some(served) = self.watch(now, &mut exchange, conversation) {
                return Ok(served);
            }
            self.prepare_input(conversation)?;
            if let Some(ready) = self.wait(now, &exchange)? {
                self.transfer(&ready, &mut exchange, conversation);
            }
        }
    }

    /// Begins an exchange: its own output count and its own stderr.
    fn open_exchange(&mut self) -> Exchange {
        self.errors = Ends::default();
        self.meter.count_waits_from_now();
        Exchange {
            exit_fd: self.child().exit_fd(),
            stdout_bytes: 0,
            answer_bytes: 0,
            drain_until: None,
            next_sample: Instant::now() + WATCH_EVERY,
        }
    }

    /// Arms the meter once a spawner confirms the start it was asked for.
    fn notice_start(&mut self) -> io::Result<()> {
        if let Some(meter) = self.child().try_started()? {
            self.meter = meter;
        }
        Ok(())
    }

    /// Takes the process's end, once: stdin is closed, what is left in the
    /// pipes drains for a grace, and whatever it started goes with it.
    fn notice_exit(&mut self, now: Instant, exchange: &mut Exchange) -> io::Result<()> {
        if self.ended.is_some() {
            return Ok(());
        }
        if let Some(end) = self.child().try_exit()? {
            self.ended = Some((end, now - self.started));
            self.pipes.stdin = None;
            exchange.drain_until = Some(now + PIPE_GRACE);
            self.child().kill_leftovers();
        }
        Ok(())
    }

    /// One look at where things stand: the exchange's end once the
    /// process has ended and its pipes are drained, or once the
    /// conversation is done; else the watchdog's reasons to stop it.
    fn watch(
        &mut self,
        now: Instant,
        exchange: &mut Exchange,
        conversation: &mut dyn Conversation,
    ) -> Option<Served> {
        if let Some(until) = exchange.drain_until {
            let open = self.pipes.stdout.is_some()
                || self.pipes.stderr.is_some()
                || self.pipes.answers.is_some();
            return (!open || now >= until).then(|| Served::Ended(self.finished()));
        }
        if conversation.done() && self.killed.is_none() {
            return self.close_exchange(exchange, conversation);
        }
        if interrupted() {
            self.kill(Kill::Interrupted);
        } else if now - self.started >= self.bounds.kill_after {
            self.kill(Kill::Wall);
        } else if now >= exchange.next_sample {
            exchange.next_sample = now + WATCH_EVERY;
            self.watchdog_round(conversation);
        }
        None
    }

    /// Ends an exchange whose conversation is done while the process lives
    /// on. What it printed before its last answer belongs to this exchange:
    /// what is already there is taken. Printing past the limit ends it,
    /// answers or not.
    fn close_exchange(
        &mut self,
        exchange: &mut Exchange,
        conversation: &mut dyn Conversation,
    ) -> Option<Served> {
        let (limit, tail_size) = (self.bounds.stdout_limit, self.bounds.stderr_tail);
        let Process {
            pipes,
            chunk,
            meter,
            errors,
            ..
        } = self;
        let mut over = false;
        while pipes.stdout.as_ref().is_some_and(readable) {
            over |= drain(
                &mut pipes.stdout,
                chunk,
                &mut exchange.stdout_bytes,
                limit,
                |c| conversation.stdout(c, meter),
            );
        }
        let mut ignored = 0;
        while pipes.stderr.as_ref().is_some_and(readable) {
            drain(&mut pipes.stderr, chunk, &mut ignored, usize::MAX, |c| {
                errors.push(c, tail_size)
            });
        }
        if !over {
            return Some(Served::Done);
        }
        self.kill(Kill::Output);
        None
    }

    /// The watchdog's round: the conversation's own reason to stop, then
    /// the CPU time and memory of the whole run against their bounds.
    fn watchdog_round(&mut self, conversation: &mut dyn Conversation) {
        self.meter.note_wait();
        if let Some(why) = conversation.check(&mut self.meter) {
            self.kill(why);
        }
        let bounds = &self.bounds;
        if bounds.kill_after_cpu.is_none() && bounds.kill_above_memory_kb.is_none() {
            return;
        }
        if let Some((cpu, memory_kb)) = self.meter.sample() {
            if self.bounds.kill_after_cpu.is_some_and(|limit| cpu >= limit) {
                self.kill(Kill::Cpu);
            } else if self
                .bounds
                .kill_above_memory_kb
                .is_some_and(|limit| memory_kb > limit)
            {
                self.kill(Kill::Memory);
            }
        }
    }

    /// Keeps the next piece of input ready; at its end, closes stdin.
    fn prepare_input(&mut self, conversation: &mut dyn Conversation) -> io::Result<()> {
        if self.pipes.stdin.is_some() && self.pending_at == self.pending_end {
            match conversation.input(&mut self.pending, &mut self.meter)? {
                Input::Data(n) => (self.pending_at, self.pending_end) = (0, n),
                Input::Wait => {}
                Input::End => self.pipes.stdin = None,
            }
        }
        Ok(())
    }

    /// Waits until a pipe is ready, the process exits, or the watchdog's
    /// next round (which also notices Ctrl-C), the deadline, the end of the
    /// grace, or, without a pidfd, the next time to ask whether the
    /// process has exited. `None` when a signal cut the wait short.
    fn wait(&self, now: Instant, exchange: &Exchange) -> io::Result<Option<Ready>> {
        let feeding = self.pipes.stdin.is_some() && self.pending_at < self.pending_end;
        let exit = exchange.exit_fd.filter(|_| self.ended.is_none());
        let wake = match exchange.drain_until {
            Some(until) => until,
            None => {
                let mut wake = (now + WATCH_EVERY).min(self.started + self.bounds.kill_after);
                if exchange.exit_fd.is_none() {
                    wake = wake.min(now + EXIT_CHECK_EVERY);
                }
                wake
            }
        };
        let timeout = wake.saturating_duration_since(Instant::now());
        self.pipes.wait(feeding, exit, timeout)
    }

    /// Moves what is ready: input into stdin, stdout and the answers to
    /// the conversation (within the output limit), stderr into its ends.
    fn transfer(
        &mut self,
        ready: &Ready,
        exchange: &mut Exchange,
        conversation: &mut dyn Conversation,
    ) {
        if ready.stdin {
            if let Some(fd) = &self.pipes.stdin {
                match write_some(fd, &self.pending[self.pending_at..self.pending_end]) {
                    Ok(Some(n)) => self.pending_at += n,
                    Ok(None) => {}
                    // The process closed its stdin: what it did not read is dropped.
                    Err(_) => {
                        self.pipes.stdin = None;
                        (self.pending_at, self.pending_end) = (0, 0);
                    }
                }
            }
        }
        let (limit, tail_size) = (self.bounds.stdout_limit, self.bounds.stderr_tail);
        let Process {
            pipes,
            chunk,
            meter,
            errors,
            ..
        } = self;
        let mut over = false;
        if ready.stdout {
            over |= drain(
                &mut pipes.stdout,
                chunk,
                &mut exchange.stdout_bytes,
                limit,
                |c| conversation.stdout(c, meter),
            );
        }
        if ready.answers {
            over |= drain(
                &mut pipes.answers,
                chunk,
                &mut exchange.answer_bytes,
                limit,
                |c| conversation.answers(c, meter),
            );
        }
        if ready.stderr {
            let mut ignored = 0;
            drain(&mut pipes.stderr, chunk, &mut ignored, usize::MAX, |c| {
                errors.push(c, tail_size)
            });
        }
        if over {
            self.kill(Kill::Output);
        }
    }
}
