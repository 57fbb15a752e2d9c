//! The spawner's own side: the process `sudoku-judge spawner` that sets
//! up the sandbox once, then serves runs one at a time until the harness
//! goes away.

use std::io;
use std::os::fd::{AsFd as _, AsRawFd as _, OwnedFd, RawFd};

use super::protocol::{Reply, Request, MAX_MESSAGE};
use crate::runner::sandbox::cgroup::Cgroup;
use crate::runner::sandbox::failure::{Failure, Stage};
use crate::runner::sandbox::jail::Jail;
use crate::runner::sandbox::running::Running;
use crate::runner::sys::{poll, receive, release_free_heap, send};

fn reply(socket: &OwnedFd, reply: &Reply) -> io::Result<()> {
    send(socket, &reply.encode()?, &[])
}

/// The spawner's side, on the socket it got as stdin: sets up the sandbox,
/// then serves runs one at a time until the harness goes away.
pub(crate) fn serve() -> io::Result<()> {
    // The socket the harness gave as our stdin.
    let socket = io::stdin().as_fd().try_clone_to_owned()?;
    let exe = std::env::current_exe()?;
    let Some((hello, _)) = receive(&socket, MAX_MESSAGE)? else {
        return Ok(());
    };
    let (mode, slot, cgroups) = match Request::decode(&hello) {
        Ok(Request::Hello {
            mode,
            slot,
            cgroups,
        }) => (mode, slot, *cgroups),
        _ => return Err(io::Error::other("the first request was not a hello")),
    };
    let mut jail = Jail::enter(mode, slot, &exe, cgroups);
    // What starting up allocated goes back to the system: a plain child
    // starts with a copy of this process's memory, and is charged for it.
    release_free_heap();
    reply(&socket, &Reply::Ready(jail.protections.clone()))?;
    let mut current: Option<Running> = None;
    loop {
        // Everything that can move: the judge's requests, the run, and the
        // background (a sandbox being made, inits being reaped).
        let mut watched = vec![socket.as_raw_fd()];
        if let Some(running) = &current {
            watched.extend(running.fds());
        }
        watched.extend(jail.background_fds());
        let mut fds: Vec<libc::pollfd> = watched
            .into_iter()
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // Without a pidfd, a run's end is noticed by looking every few
        // milliseconds.
        let blind = current.as_ref().is_some_and(|r| r.fds()[0] < 0);
        let timeout = if blind { 2 } else { 1000 };
        if let Err(error) = poll(&mut fds, timeout) {
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
        jail.tend();
        if let Some(running) = &mut current {
            if let Some(ended) = running.poll()? {
                reply(&socket, &Reply::Exited(ended))?;
                jail.retire(current.take().expect("a run is under way"));
            }
        }
        if fds[0].revents == 0 {
            continue;
        }
        let Some((request, stdio)) = receive(&socket, MAX_MESSAGE)? else {
            // The judge is gone: nothing of a run may stay (dropping the
            // run and the jail kills and reaps everything).
            if let Some(running) = &mut current {
                running.kill();
            }
            return Ok(());
        };
        match Request::decode(&request) {
            Ok(Request::Launch(launch)) if current.is_none() => match jail.launch(&launch, stdio) {
                Ok(running) => {
                    // With the files a meter reads, which the judge would
                    // otherwise open again for every run, and last, the
                    // one where the init keeps what it samples.
                    let mut meter_files: Vec<RawFd> = running
                        .cgroup
                        .as_ref()
                        .and_then(Cgroup::meter_files)
                        .map(|files| files.map(|file| file.as_raw_fd()).to_vec())
                        .unwrap_or_default();
                    meter_files.extend(running.sampled.as_ref().map(|file| file.as_raw_fd()));
                    let started = Reply::Started {
                        pid: running.pid,
                        cgroup: running.cgroup.clone(),
                        sampled: running.sampled.is_some(),
                    };
                    send(&socket, &started.encode()?, &meter_files)?;
                    current = Some(running);
                }
                Err(failure) => reply(&socket, &Reply::Failed(failure))?,
            },
            Ok(Request::Kill) => {
                // A kill that crossed the run's end finds nothing to stop.
                if let Some(running) = &mut current {
                    running.kill();
                }
            }
            _ => {
                let failure = Failure {
                    stage: Stage::Exec,
                    errno: 0,
                    message: "malformed request".into(),
                };
                reply(&socket, &Reply::Failed(failure))?;
            }
        }
    }
}
