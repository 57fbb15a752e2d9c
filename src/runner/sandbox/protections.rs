//! What a run is protected by, layer by layer: the value the spawner (or
//! another OS's backend) fills in and the report's header prints, naming
//! each layer the system refused, once.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::plan::Mode;

/// Whether one protection is in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Layer {
    On,
    /// The kernel refused it, and why.
    Missing(String),
    /// `--sandbox off`.
    Off,
}

impl Layer {
    pub(crate) fn is_on(&self) -> bool {
        *self == Layer::On
    }

    /// What a report from an older judge says of a layer it did not know.
    fn unknown() -> Layer {
        Layer::Missing("not checked".into())
    }
}

/// Which protections a spawner could set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Protections {
    pub(crate) mode: Mode,
    /// A PID namespace per run.
    pub(crate) processes: Layer,
    /// A mount namespace per run with its own root.
    pub(crate) filesystem: Layer,
    /// A network namespace with loopback only.
    pub(crate) network: Layer,
    /// An IPC namespace per run.
    pub(crate) ipc: Layer,
    /// A cgroup per run, and which version.
    pub(crate) accounting: Layer,
    pub(crate) cgroup_version: Option<String>,
    /// Threads only for LeetCode-style files.
    pub(crate) no_fork: Layer,
    /// A limit on a run's tasks: its cgroup's, else `RLIMIT_NPROC` on a
    /// user that is the run's own.
    #[serde(default = "Layer::unknown")]
    pub(crate) tasks: Layer,
    /// No keyring of the judge's user within reach.
    #[serde(default = "Layer::unknown")]
    pub(crate) keyrings: Layer,
    /// The namespaces were made in a user namespace (the judge is not root).
    pub(crate) user_namespace: bool,
    /// On macOS, the Seatbelt profile every run starts under, in place of
    /// the layers above, which macOS does not have; `None` on Linux.
    #[serde(default)]
    pub(crate) seatbelt: Option<Layer>,
    /// On Windows, the Job Object every run starts in, in place of the
    /// layers above, which Windows does not have; `None` elsewhere.
    #[serde(default)]
    pub(crate) job_object: Option<Layer>,
}

impl Protections {
    /// Everything off, as `--sandbox off` asks.
    pub(crate) fn off() -> Protections {
        Protections {
            mode: Mode::Off,
            processes: Layer::Off,
            filesystem: Layer::Off,
            network: Layer::Off,
            ipc: Layer::Off,
            accounting: Layer::Off,
            cgroup_version: None,
            no_fork: Layer::Off,
            tasks: Layer::Off,
            keyrings: Layer::Off,
            user_namespace: false,
            seatbelt: None,
            // A job holds every run on Windows, sandbox or not: it is how
            // a run is killed whole and accounted.
            job_object: cfg!(windows).then_some(Layer::Off),
        }
    }

    /// What holds on macOS: a Seatbelt profile (`seatbelt`), and none of
    /// Linux's layers, which macOS lacks and the report names once.
    #[cfg(any(target_os = "macos", test))]
    pub(crate) fn macos(mode: Mode, seatbelt: Layer) -> Protections {
        Protections {
            seatbelt: Some(seatbelt),
            ..Protections::without_linux_layers(mode, "macOS has none")
        }
    }

    /// What holds on Windows: a Job Object per run, and none of Linux's
    /// layers, which Windows lacks and the report names once.
    #[cfg(any(windows, test))]
    pub(crate) fn windows(mode: Mode) -> Protections {
        Protections {
            job_object: Some(Layer::On),
            ..Protections::without_linux_layers(mode, "Windows has none")
        }
    }

    /// Every one of Linux's layers missing, for `why`, and no other OS's.
    #[cfg(any(target_os = "macos", windows, test))]
    fn without_linux_layers(mode: Mode, why: &str) -> Protections {
        let none = || Layer::Missing(why.into());
        Protections {
            mode,
            processes: none(),
            filesystem: none(),
            network: none(),
            ipc: none(),
            accounting: none(),
            cgroup_version: None,
            no_fork: none(),
            tasks: none(),
            keyrings: none(),
            user_namespace: false,
            seatbelt: None,
            job_object: None,
        }
    }

    /// Every layer this system could have, named as the report names it:
    /// on macOS the Seatbelt profile alone.
    pub(crate) fn layers(&self) -> Vec<(&'static str, &Layer)> {
        if let Some(seatbelt) = &self.seatbelt {
            return vec![("Seatbelt profile", seatbelt)];
        }
        if let Some(job) = &self.job_object {
            return vec![("Job Object", job)];
        }
        vec![
            ("PID namespace", &self.processes),
            ("mount namespace", &self.filesystem),
            ("network namespace", &self.network),
            ("IPC namespace", &self.ipc),
            ("cgroup accounting", &self.accounting),
            ("task limit", &self.tasks),
            ("process filter", &self.no_fork),
            ("keyring filter", &self.keyrings),
        ]
    }

    /// The layers the kernel refused, with why.
    pub(crate) fn missing(&self) -> Vec<(&'static str, &str)> {
        self.layers()
            .into_iter()
            .filter_map(|(name, layer)| match layer {
                Layer::Missing(why) => Some((name, why.as_str())),
                _ => None,
            })
            .collect()
    }

    /// What a user can do when `--sandbox require` finds layers missing,
    /// for this system's layers: Linux's need root or user namespaces;
    /// macOS's one needs `sandbox-exec`; a Job Object is refused only by
    /// a job the judge itself runs in that does not allow nested jobs.
    pub(crate) fn remedy(&self) -> &'static str {
        if self.seatbelt.is_some() {
            "check that /usr/bin/sandbox-exec runs (it is part of macOS)"
        } else if self.job_object.is_some() {
            "run the judge outside the job that holds it (some CI services and terminals run \
             everything in a Job Object that allows none inside it)"
        } else {
            "run as root, or enable unprivileged user namespaces (sysctl \
             kernel.unprivileged_userns_clone=1, or the distribution's AppArmor setting)"
        }
    }

    /// How a run's CPU time and memory are measured, in a few words.
    pub(crate) fn accounting_summary(&self) -> String {
        if self.seatbelt.is_some() {
            return "rusage accounting of the processes waited for".into();
        }
        if self.job_object.is_some() {
            return WINDOWS_ACCOUNTING.into();
        }
        match (&self.accounting, &self.cgroup_version) {
            (Layer::On, Some(version)) => format!("{version} accounting of every process"),
            // The init of a run's PID namespace reaps every process of
            // the run, the killed ones too, and in the /proc of the run's
            // own root it samples them all, those the kernel reaps too.
            _ if self.processes.is_on() && self.filesystem.is_on() => {
                "rusage and sampled CPU time of every process".into()
            }
            _ if self.processes.is_on() => "rusage accounting of every process".into(),
            _ => "rusage accounting of the processes waited for".into(),
        }
    }
}

/// What a run's Seatbelt profile holds it to on macOS (`platform::seatbelt`).
pub(crate) const MACOS_SEATBELT: &str =
    "Seatbelt: no network, writes only in the run's scratch directory (and a compiler's build \
     directory)";

/// What macOS holds every run to beside its Seatbelt profile.
pub(crate) const MACOS_HOLDS: &str =
    "a process group per run, killed as a group; RLIMIT_CPU, RLIMIT_FSIZE and RLIMIT_NOFILE";

/// What macOS lacks, said once: no namespaces, cgroups or seccomp, so no
/// memory cap while a run runs (macOS refuses RLIMIT_AS), no task limit,
/// and no hold on a process that leaves its group.
pub(crate) const MACOS_LACKS: &str =
    "macOS has no namespaces, cgroups or seccomp: no memory limit while a run runs (macOS \
     refuses RLIMIT_AS; the peak is its rusage at the end), no task limit, no scratch size \
     limit, and a process that leaves its group outlives the run";

/// What a run's Job Object holds it to on Windows (`platform::windows`).
pub(crate) const WINDOWS_HOLDS: &str =
    "a Job Object per run: its processes killed as one, at most 256 at once (one for a \
     LeetCode-style file), its memory capped by the job";

/// How Windows measures a run: its job's accounting.
pub(crate) const WINDOWS_ACCOUNTING: &str =
    "CPU time and peak memory from the job's accounting of every process";

/// What Windows lacks, said once: a Job Object alone isolates nothing.
pub(crate) const WINDOWS_LACKS: &str =
    "a Job Object isolates nothing: no network or filesystem isolation (runs can reach the \
     network and read and write wherever you can) and no system-call filter";

/// A list as people write it: `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One line for the report's header: what is in force, and what is not.
impl fmt::Display for Protections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mode == Mode::Off {
            return write!(
                f,
                "off (--sandbox off): submissions run unconfined, {}",
                self.accounting_summary()
            );
        }
        if let Some(seatbelt) = &self.seatbelt {
            if seatbelt.is_on() {
                write!(f, "{MACOS_SEATBELT}; ")?;
            }
            write!(f, "{MACOS_HOLDS}; {}", self.accounting_summary())?;
            if let Layer::Missing(why) = seatbelt {
                write!(f, "; MISSING Seatbelt profile: {why}")?;
            }
            return write!(f, "; {MACOS_LACKS}");
        }
        if self.job_object.is_some() {
            return write!(f, "{WINDOWS_HOLDS}; {WINDOWS_ACCOUNTING}; {WINDOWS_LACKS}");
        }
        let namespaces: Vec<&str> = [
            ("PID", &self.processes),
            ("mount", &self.filesystem),
            ("network", &self.network),
            ("IPC", &self.ipc),
        ]
        .into_iter()
        .filter(|(_, layer)| layer.is_on())
        .map(|(name, _)| name)
        .collect();
        let mut parts = Vec::new();
        if !namespaces.is_empty() {
            parts.push(format!(
                "{} namespace{}{}",
                and_list(&namespaces),
                if namespaces.len() == 1 { "" } else { "s" },
                if self.user_namespace {
                    " (in a user namespace)"
                } else {
                    ""
                }
            ));
        }
        parts.push(self.accounting_summary());
        if self.tasks.is_on() && !self.accounting.is_on() {
            parts.push("a task limit per run (RLIMIT_NPROC on a user of the run's own)".into());
        }
        if self.no_fork.is_on() {
            parts.push("no child processes for LeetCode-style files".into());
        }
        if self.keyrings.is_on() {
            parts.push("no keyrings".into());
        }
        write!(f, "{}", parts.join("; "))?;
        for (name, why) in self.missing() {
            write!(f, "; MISSING {name}: {why}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_header_names_what_is_missing_and_why() {
        let mut protections = Protections::off();
        assert!(protections.to_string().starts_with("off (--sandbox off)"));
        protections.mode = Mode::Auto;
        protections.processes = Layer::On;
        protections.filesystem = Layer::On;
        protections.network = Layer::Missing("Operation not permitted".into());
        protections.ipc = Layer::On;
        protections.accounting = Layer::On;
        protections.cgroup_version = Some("cgroup v1".into());
        protections.no_fork = Layer::On;
        protections.tasks = Layer::On;
        protections.keyrings = Layer::On;
        assert_eq!(
            protections.to_string(),
            "PID, mount and IPC namespaces; cgroup v1 accounting of every process; no child \
             processes for LeetCode-style files; no keyrings; MISSING network namespace: \
             Operation not permitted"
        );
        protections.accounting = Layer::Missing("no permission".into());
        protections.cgroup_version = None;
        assert_eq!(
            protections.to_string(),
            "PID, mount and IPC namespaces; rusage and sampled CPU time of every process; a \
             task limit per run (RLIMIT_NPROC on a user of the run's own); no child processes \
             for LeetCode-style files; no keyrings; MISSING network namespace: Operation not \
             permitted; MISSING cgroup accounting: no permission"
        );
        // Without a root of its own, the init has no /proc of the run's
        // namespace to sample: what it reaps is all it counts.
        protections.filesystem = Layer::Missing("no tmpfs".into());
        assert!(protections
            .to_string()
            .starts_with("PID and IPC namespaces; rusage accounting of every process; "));
    }

    #[test]
    fn on_macos_the_header_names_the_profile_and_what_macos_lacks_once() {
        let protections = Protections::macos(Mode::Auto, Layer::On);
        let said = protections.to_string();
        assert!(said.starts_with("Seatbelt: no network, writes only in the run's scratch"));
        assert!(said.contains("RLIMIT_CPU, RLIMIT_FSIZE and RLIMIT_NOFILE"));
        assert_eq!(said.matches("macOS has no").count(), 1);
        assert!(!said.contains("MISSING"));
        assert!(protections.missing().is_empty());
        assert_eq!(protections.layers().len(), 1);
        let without = Protections::macos(Mode::Auto, Layer::Missing("no sandbox-exec".into()));
        assert_eq!(without.missing(), [("Seatbelt profile", "no sandbox-exec")]);
        let said = without.to_string();
        assert!(!said.contains("Seatbelt: no network"));
        assert!(said.contains("MISSING Seatbelt profile: no sandbox-exec"));
        assert!(without.remedy().contains("sandbox-exec"));
        assert!(!without.remedy().contains("namespace"));
    }

    #[test]
    fn on_windows_the_header_names_the_job_object_and_what_it_lacks_once() {
        let protections = Protections::windows(Mode::Auto);
        let said = protections.to_string();
        assert!(said.starts_with("a Job Object per run: its processes killed as one"));
        assert!(said.contains("at most 256 at once"));
        assert!(said.contains("CPU time and peak memory from the job's accounting"));
        assert_eq!(said.matches("isolates nothing").count(), 1);
        assert!(said.contains("network"));
        assert!(said.contains("system-call filter"));
        assert!(!said.contains("MISSING"));
        assert!(!said.contains("namespace"));
        assert!(protections.missing().is_empty(), "--sandbox require holds");
        assert_eq!(protections.layers(), [("Job Object", &Layer::On)]);
        assert!(!protections.remedy().contains("namespace"));
        // The number said is the one the job is given.
        assert!(said.contains(&format!("at most {} at once", crate::runner::TASKS)));
    }
}
