//! `test --keep DIR`: what each case that was not accepted was given and
//! gave back, as files to open, diff or feed to a debugger: the case's
//! input (and expected output) as they are, the submission's output and its
//! stderr. One directory a case, named after its id.
//!
//! The directory is the judge's: it is made on the first run (with a
//! marker file), and a later run replaces what it holds. A directory that
//! holds anything else is refused, so no file of the user's is touched.
//!
//! The directory is the user's choice, and is opened as named; what the
//! judge makes in it is reached through its descriptor and never through
//! a link found there (a case pack may ship a "kept" directory whose
//! entries link to files of yours): each case's directory and each file
//! is created anew (`O_EXCL | O_NOFOLLOW`), and a case file is copied only
//! as its suite may be read: all through [`crate::files`]. A case's
//! directory is named after its id made safe ([`crate::files::name::safe`]:
//! no control character, and a long id cut with a hash), and its
//! `verdict.txt` names the case whole. When the run is finished, it says
//! how many cases it kept, and where.

use std::io;
use std::path::{Path, PathBuf};

use crate::files::{name, Dir, Fence, Kind, OutsideLinks};
use crate::results::{CaseOutcome, CaseResult};
use crate::results::{Event, Reporter};
use crate::verdict::Verdict;

/// The file that marks a directory as made by `--keep`.
pub(crate) const MARKER: &str = ".sudoku-judge-keep";

pub(crate) struct KeepReporter<W> {
    dir: Dir,
    /// Whether a case's files may link out of its suite, as when judged.
    links: OutsideLinks,
    /// The directory as the user named it, for the notice.
    named: PathBuf,
    /// Cases kept so far.
    kept: usize,
    /// Where the notice of what was kept goes.
    notices: W,
}

impl<W: io::Write> KeepReporter<W> {
    /// Prepares `dir`: made if missing, emptied if an earlier `--keep`
    /// made it, refused if it holds anything else.
    pub(crate) fn new(dir: &Path, links: OutsideLinks, notices: W) -> anyhow::Result<Self> {
        let opened = Dir::open_given(dir)
            .map_err(|e| anyhow::anyhow!("failed to open --keep {}: {e:#}", dir.display()))?;
        let names = opened.names();
        // The marker counts only as a file of its own, not a link to one.
        let ours = opened.kind(MARKER)? == Some(Kind::File);
        if !ours && !names.is_empty() {
            anyhow::bail!(
                "--keep {} is a directory of yours that is not empty, and its files are \
                 never overwritten; name a new or empty directory, e.g. --keep failed-cases",
                dir.display()
            );
        }
        if ours {
            // What an earlier run kept, and whatever else came to be here
            // (a link is removed, never followed).
            for name in names.iter().filter(|name| *name != MARKER) {
                opened.remove(name).map_err(|e| {
                    anyhow::anyhow!("failed to empty --keep {}: {name}: {e}", dir.display())
                })?;
            }
        } else {
            use std::io::Write as _;
            opened
                .create_new(MARKER)
                .and_then(|mut marker| {
                    marker.write_all(
                        b"made by `sudoku-judge test --keep`: each run replaces the directories \
                          here\n",
                    )
                })
                .map_err(|e| anyhow::anyhow!("failed to write in --keep {}: {e}", dir.display()))?;
        }
        Ok(KeepReporter {
            dir: opened,
            links,
            named: dir.to_path_buf(),
            kept: 0,
            notices,
        })
    }

    /// Makes the directory a case is kept in, named after its id: a name
    /// of its own, numbered when another case took it (`a/b` and `a__b`).
    fn case_dir(&self, id: &str) -> io::Result<Dir> {
        let base = name::safe(id);
        for n in 1.. {
            let name = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            match self.dir.make_dir(&name) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
            return self
                .dir
                .subdir(&name, false)
                .map_err(io::Error::other)?
                .ok_or_else(|| io::Error::other(format!("{name} went missing")));
        }
        unreachable!("some name is free")
    }

    /// Keeps `result`'s files; an error names the case.
    fn keep(&mut self, result: &CaseResult) -> io::Result<()> {
        self.keep_case(result).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "failed to keep case {} in {}: {e}",
                    result.id.terminal(),
                    self.dir.path().display()
                ),
            )
        })
    }

    fn keep_case(&mut self, result: &CaseResult) -> io::Result<()> {
        use std::io::Write as _;
        let CaseOutcome::Judged(j) = &result.outcome else {
            return Ok(());
        };
        // A compile error is every case's, and ran nothing.
        if j.verdict == Verdict::AC || j.verdict == Verdict::CE {
            return Ok(());
        }
        let dir = self.case_dir(result.id.as_raw())?;
        let write =
            |name: &str, bytes: &[u8]| -> io::Result<()> { dir.create_new(name)?.write_all(bytes) };
        // The case's files, read as the judge read them: never a hard
        // link to someone else's file, nor a link out of its suite. One
        // that may not be read is left out, and verdict.txt says why.
        let fence = Fence::new(result.suite.as_raw(), self.links);
        let mut left_out = String::new();
        let mut copy = |from: &Path| -> io::Result<()> {
            let Some(name) = from.file_name().and_then(|n| n.to_str()) else {
                return Ok(());
            };
            match fence.open(from, "case file") {
                Ok(mut source) => {
                    io::copy(&mut source.file, &mut dir.create_new(&name::safe(name))?).map(drop)
                }
                Err(error) => {
                    left_out.push_str(&format!("not kept: {error:#}\n"));
                    Ok(())
                }
            }
        };
        copy(result.input.as_raw())?;
        if let Some(expected) = &result.expected {
            copy(expected.as_raw())?;
        }
        // What the submission gave back is kept as it is, to diff or feed
        // on; the words about it are shown escaped.
        write("output.txt", j.output.as_raw().as_bytes())?;
        write("stderr.txt", j.stderr.as_raw().as_bytes())?;
        if !j.stdout.is_empty() {
            write("stdout.txt", j.stdout.as_raw().as_bytes())?;
        }
        write(
            "verdict.txt",
            format!(
                "{} {}\n{}\n{left_out}",
                j.verdict.code(),
                result.id.terminal(),
                super::reason_words::sentence(j).terminal()
            )
            .as_bytes(),
        )?;
        self.kept += 1;
        Ok(())
    }
}

impl<W: io::Write> Reporter for KeepReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::CaseFinished(result) => self.keep(result),
            Event::Finished { .. } => {
                super::notices::kept(&mut self.notices, self.kept, &self.named)
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::tests::link_file;
    use crate::report::fixtures::{every_verdict, report_run};

    #[cfg_attr(
        windows,
        ignore = "Wine shows a link as its target, so this is not run there"
    )]
    #[test]
    fn keeps_each_case_not_accepted_and_never_a_users_file() {
        let root = tempfile::tempdir().unwrap();
        let cases = root.path().join("cases/suite");
        std::fs::create_dir_all(&cases).unwrap();
        let mut results = every_verdict();
        for result in &mut results {
            let name = result.input.as_raw().file_name().unwrap().to_owned();
            result.input = cases.join(name).into();
            result.suite = cases.clone().into();
            std::fs::write(result.input.as_raw(), "puzzle\n").unwrap();
            result.expected = None;
        }
        let dir = root.path().join("kept");
        let mut keep = KeepReporter::new(&dir, OutsideLinks::Refused, Vec::new()).unwrap();
        report_run(&mut keep, &results);
        // WA, PE, TLE, MLE, OLE, RE: not AC, CE or the unjudged case.
        let notice = String::from_utf8(keep.notices).unwrap();
        assert!(
            notice.starts_with("kept what 6 cases not accepted were"),
            "{notice}"
        );
        let wa = dir.join("suite__wa");
        assert_eq!(
            std::fs::read_to_string(wa.join("wa.in")).unwrap(),
            "puzzle\n"
        );
        assert!(std::fs::read_to_string(wa.join("output.txt"))
            .unwrap()
            .ends_with("171\n"));
        assert!(wa.join("stderr.txt").is_file());
        assert!(std::fs::read_to_string(wa.join("verdict.txt"))
            .unwrap()
            .starts_with("WA suite/wa\n"));
        assert!(!dir.join("suite__ac").exists());

        // Its own directory is replaced on the next run...
        std::fs::create_dir_all(dir.join("suite__old")).unwrap();
        KeepReporter::new(&dir, OutsideLinks::Refused, io::sink()).unwrap();
        assert!(!dir.join("suite__old").exists());
        // ...links planted in it are removed, never followed...
        let victim = root.path().join("victim");
        std::fs::write(&victim, "mine\n").unwrap();
        link_file(&victim, &dir.join("suite__wa"));
        let mut keep = KeepReporter::new(&dir, OutsideLinks::Refused, io::sink()).unwrap();
        report_run(&mut keep, &results);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
        assert!(dir.join("suite__wa/verdict.txt").is_file());
        // ...a marker that is a link does not make a directory the judge's...
        let planted = root.path().join("planted");
        std::fs::create_dir(&planted).unwrap();
        link_file(&victim, &planted.join(MARKER));
        link_file(&victim, &planted.join("suite__wa"));
        let error = KeepReporter::new(&planted, OutsideLinks::Refused, io::sink())
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("never overwritten"), "{error}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
        // ...and a directory of the user's is refused.
        let mine = root.path().join("mine");
        std::fs::create_dir_all(&mine).unwrap();
        std::fs::write(mine.join("notes.txt"), "mine").unwrap();
        let error = KeepReporter::new(&mine, OutsideLinks::Refused, io::sink())
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("never overwritten"), "{error}");
        assert_eq!(
            std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
            "mine"
        );
    }
}
