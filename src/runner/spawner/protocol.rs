//! What the harness and a spawner say to each other: JSON documents
//! ([`Request`], [`Reply`]), one per `SOCK_SEQPACKET` datagram, with the
//! run's descriptors attached (`SCM_RIGHTS`).

use std::io;

use serde::{Deserialize, Serialize};

use crate::runner::sandbox::cgroup::{Cgroup, Hierarchy};
use crate::runner::sandbox::failure::Failure;
use crate::runner::sandbox::{ExitReport, Mode, Protections, SpawnRequest};

/// The largest message: a launch names its command, environment and paths.
pub(super) const MAX_MESSAGE: usize = 256 << 10;

/// What the harness asks of a spawner.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Request {
    /// The first message: set up the sandbox; `slot` numbers the spawner;
    /// `cgroups`, where the judge found that runs' cgroups may go (or why
    /// none may), found once by the judge itself, which may have to move
    /// into a cgroup of its own first.
    Hello {
        mode: Mode,
        slot: u32,
        cgroups: Box<Result<Hierarchy, String>>,
    },
    /// Start a run on the descriptors sent with the message.
    Launch(Box<SpawnRequest>),
    /// Stop the run now.
    Kill,
}

/// What a spawner answers.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// To `Hello`: the protections in force.
    Ready(Protections),
    /// The run started: the submission's pid as the harness sees it, and
    /// the cgroup that accounts for it; without one, whether the last
    /// descriptor sent with it is where the run's init keeps the CPU time
    /// of every process of the run as it goes.
    Started {
        pid: i32,
        cgroup: Option<Cgroup>,
        #[serde(default)]
        sampled: bool,
    },
    /// It did not start.
    Failed(Failure),
    /// It ended.
    Exited(ExitReport),
}

impl Request {
    /// The message that carries it.
    pub(super) fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }

    /// The request a message carries; `Err` when it carries none.
    pub(super) fn decode(message: &[u8]) -> serde_json::Result<Request> {
        serde_json::from_slice(message)
    }
}

impl Reply {
    /// The message that carries it.
    pub(super) fn encode(&self) -> io::Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(io::Error::other)
    }

    /// The reply a message carries; `Err` when it carries none.
    pub(super) fn decode(message: &[u8]) -> io::Result<Reply> {
        serde_json::from_slice(message)
            .map_err(|e| io::Error::other(format!("the spawner sent a malformed reply: {e}")))
    }
}

/// Reads `message` as the spawner reads a request and the judge a reply,
/// for fuzzing: any bytes give a message or an error, never a panic.
pub(crate) fn decode_any(message: &[u8]) {
    let _ = Request::decode(message);
    let _ = Reply::decode(message);
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsRawFd as _;
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::runner::sandbox::{self, ExitReport, Mode, Protections, SpawnRequest};
    use crate::runner::sys::{receive_within, send, socket_pair, Rlimits};

    #[test]
    fn every_message_survives_the_round_trip() {
        use std::os::unix::ffi::OsStrExt as _;
        let launch = SpawnRequest {
            program: b"/bin/prog".to_vec(),
            argv: vec![
                b"prog".to_vec(),
                b"a b".to_vec(),
                vec![],
                "ü".as_bytes().to_vec(),
            ],
            env: vec![(b"KEY".to_vec(), b"va=lue".to_vec())],
            limits: Rlimits {
                cpu_seconds: Some(3),
                address_space: None,
                tasks: Some(264),
                file_size: Some(1 << 20),
                open_files: None,
            },
            plan: sandbox::Plan {
                read_only: vec![PathBuf::from(std::ffi::OsStr::from_bytes(b"/x/\xff"))],
                cwd: "/work".into(),
                ..sandbox::Plan::default()
            },
        };
        let text = Request::Launch(Box::new(launch.clone())).encode().unwrap();
        let Request::Launch(back) = Request::decode(&text).unwrap() else {
            panic!("not a launch");
        };
        assert_eq!(back.argv, launch.argv);
        assert_eq!(back.env, launch.env);
        assert_eq!(back.plan, launch.plan);
        assert_eq!(back.limits.cpu_seconds, Some(3));
        let ended = ExitReport {
            status: 9,
            cpu_ns: 1_500_000_000,
            max_rss_kb: 1_100,
            wall_ns: 2,
            oom_kills: 1,
            fork_refusals: 4,
            held_kb: 2_048,
        };
        let text = Reply::Exited(ended).encode().unwrap();
        let Reply::Exited(back) = Reply::decode(&text).unwrap() else {
            panic!("not an exit");
        };
        assert_eq!(
            (
                back.status,
                back.cpu_ns,
                back.max_rss_kb,
                back.oom_kills,
                back.fork_refusals,
                back.held_kb
            ),
            (9, 1_500_000_000, 1_100, 1, 4, 2_048)
        );
        assert!(Request::decode(br#"{"Launch":7}"#).is_err());
    }

    #[test]
    fn every_request_and_reply_survives_the_round_trip() {
        let hello = Request::decode(
            &Request::Hello {
                mode: Mode::Off,
                slot: 7,
                cgroups: Box::new(Err("no cgroup v2 subtree is delegated to you".into())),
            }
            .encode()
            .unwrap(),
        );
        assert!(
            matches!(
                &hello,
                Ok(Request::Hello {
                    mode: Mode::Off,
                    slot: 7,
                    cgroups,
                }) if cgroups.as_ref().as_ref().is_err_and(|why| why.contains("delegated"))
            ),
            "{hello:?}"
        );
        assert!(matches!(
            Request::decode(&Request::Kill.encode().unwrap()),
            Ok(Request::Kill)
        ));

        let mut protections = Protections::off();
        protections.cgroup_version = Some("v2".into());
        let Reply::Ready(back) =
            Reply::decode(&Reply::Ready(protections.clone()).encode().unwrap()).unwrap()
        else {
            panic!("not ready");
        };
        assert_eq!(back, protections);

        let cgroup: Cgroup = serde_json::from_str(
            r#"{"version":"V2","memory":"/sys/fs/cgroup/a","pids":"/sys/fs/cgroup/a","cpu":"/sys/fs/cgroup/a"}"#,
        )
        .unwrap();
        for (cgroup, sampled) in [(Some(cgroup), false), (None, true)] {
            let started = Reply::Started {
                pid: 4242,
                cgroup: cgroup.clone(),
                sampled,
            };
            let Reply::Started {
                pid,
                cgroup: back,
                sampled: sampled_back,
            } = Reply::decode(&started.encode().unwrap()).unwrap()
            else {
                panic!("not started");
            };
            assert_eq!((pid, back, sampled_back), (4242, cgroup, sampled));
        }
        // From a spawner that samples nothing.
        assert!(matches!(
            Reply::decode(br#"{"Started":{"pid":7,"cgroup":null}}"#),
            Ok(Reply::Started { sampled: false, .. })
        ));

        let failure = Failure {
            stage: sandbox::failure::Stage::Filesystem,
            errno: libc::EPERM,
            message: "cannot mount /proc".into(),
        };
        let Reply::Failed(back) = Reply::decode(&Reply::Failed(failure).encode().unwrap()).unwrap()
        else {
            panic!("not a failure");
        };
        assert_eq!(
            (back.stage, back.errno, back.message.as_str()),
            (
                sandbox::failure::Stage::Filesystem,
                libc::EPERM,
                "cannot mount /proc"
            )
        );

        let malformed = Reply::decode(b"{\"Started\":{}}").unwrap_err();
        assert!(
            malformed
                .to_string()
                .starts_with("the spawner sent a malformed reply: "),
            "{malformed}"
        );
    }

    #[test]
    fn descriptors_pass_over_the_socket() {
        let (a, b) = socket_pair().unwrap();
        let (read, write) = nix::unistd::pipe().unwrap();
        send(&a, b"hello", &[write.as_raw_fd()]).unwrap();
        drop(write);
        let (message, mut fds) = receive_within(&b, MAX_MESSAGE, Duration::from_secs(5))
            .unwrap()
            .unwrap();
        assert_eq!(message, b"hello");
        assert_eq!(fds.len(), 1);
        let mut pipe = std::fs::File::from(fds.pop().unwrap());
        std::io::Write::write_all(&mut pipe, b"through").unwrap();
        drop(pipe);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(read), &mut text).unwrap();
        assert_eq!(text, "through");
        let silent = receive_within(&b, MAX_MESSAGE, Duration::from_millis(20)).unwrap_err();
        assert_eq!(silent.kind(), io::ErrorKind::TimedOut);
        drop(a);
        assert!(receive_within(&b, MAX_MESSAGE, Duration::from_secs(5))
            .unwrap()
            .is_none());
    }
}
