//! `test --keep DIR`: what each case that was not accepted was given and
//! gave back, as files to open, diff or feed to a debugger: the case's
//! input (and expected output) as they are, the submission's output and its
//! stderr. One directory a case, named after its id.
//!
//! The directory is the judge's: it is made on the first run (with a
//! marker file), and a later run replaces what it holds. A directory that
//! holds anything else is refused, so no file of the user's is touched.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::{Event, Reporter};
use crate::results::{CaseOutcome, CaseResult};
use crate::verdict::Verdict;

/// The file that marks a directory as made by `--keep`.
pub const MARKER: &str = ".sudoku-judge-keep";

pub struct KeepReporter {
    dir: PathBuf,
    /// Cases kept so far, for the caller to tell.
    kept: Arc<AtomicUsize>,
}

impl KeepReporter {
    /// Prepares `dir`: made if missing, emptied if an earlier `--keep`
    /// made it, refused if it holds anything else.
    pub fn new(dir: &Path) -> anyhow::Result<(KeepReporter, Arc<AtomicUsize>)> {
        if dir.exists() {
            let mut entries = std::fs::read_dir(dir)
                .map_err(|e| anyhow::anyhow!("cannot read --keep {}: {e}", dir.display()))?
                .filter_map(Result::ok);
            let ours = dir.join(MARKER).is_file();
            if !ours && entries.next().is_some() {
                anyhow::bail!(
                    "--keep {} is a directory of yours that is not empty, and its files are \
                     never overwritten; name a new or empty directory, e.g. --keep failed-cases",
                    dir.display()
                );
            }
            if ours {
                for entry in std::fs::read_dir(dir)?.filter_map(Result::ok) {
                    let path = entry.path();
                    if path.is_dir() {
                        std::fs::remove_dir_all(&path)?;
                    }
                }
            }
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("failed to create --keep {}: {e}", dir.display()))?;
        std::fs::write(
            dir.join(MARKER),
            "made by `sudoku-judge test --keep`: each run replaces the directories here\n",
        )?;
        let kept = Arc::new(AtomicUsize::new(0));
        Ok((
            KeepReporter {
                dir: dir.to_path_buf(),
                kept: Arc::clone(&kept),
            },
            kept,
        ))
    }

    fn keep(&self, result: &CaseResult) -> io::Result<()> {
        let CaseOutcome::Judged(j) = &result.outcome else {
            return Ok(());
        };
        // A compile error is every case's, and ran nothing.
        if j.verdict == Verdict::AC || j.verdict == Verdict::CE {
            return Ok(());
        }
        let dir = self.dir.join(result.id.replace(['/', '\\'], "__"));
        std::fs::create_dir_all(&dir)?;
        let copy = |from: &Path| -> io::Result<()> {
            let name = from.file_name().unwrap_or(from.as_os_str());
            std::fs::copy(from, dir.join(name)).map(|_| ())
        };
        copy(&result.input)?;
        if let Some(expected) = &result.expected {
            copy(expected)?;
        }
        std::fs::write(dir.join("output.txt"), &j.output)?;
        std::fs::write(dir.join("stderr.txt"), &j.stderr)?;
        if !j.stdout.is_empty() {
            std::fs::write(dir.join("stdout.txt"), &j.stdout)?;
        }
        std::fs::write(
            dir.join("verdict.txt"),
            format!(
                "{} {}\n{}\n",
                j.verdict.code(),
                result.id,
                super::reason::sentence(j)
            ),
        )?;
        self.kept.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

impl Reporter for KeepReporter {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        if let Event::CaseFinished(result) = event {
            self.keep(result)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{every_verdict, report_run};

    #[test]
    fn keeps_each_case_not_accepted_and_never_a_users_file() {
        let root = tempfile::tempdir().unwrap();
        let cases = root.path().join("cases/suite");
        std::fs::create_dir_all(&cases).unwrap();
        let mut results = every_verdict();
        for result in &mut results {
            let name = result.input.file_name().unwrap().to_owned();
            result.input = cases.join(name);
            std::fs::write(&result.input, "puzzle\n").unwrap();
            result.expected = None;
        }
        let dir = root.path().join("kept");
        let (mut keep, kept) = KeepReporter::new(&dir).unwrap();
        report_run(&mut keep, &results);
        // WA, PE, TLE, MLE, OLE, RE: not AC, CE or the unjudged case.
        assert_eq!(kept.load(Ordering::SeqCst), 6);
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
        KeepReporter::new(&dir).unwrap();
        assert!(!dir.join("suite__old").exists());
        // ...and a directory of the user's is refused.
        let mine = root.path().join("mine");
        std::fs::create_dir_all(&mine).unwrap();
        std::fs::write(mine.join("notes.txt"), "mine").unwrap();
        let error = KeepReporter::new(&mine).err().unwrap().to_string();
        assert!(error.contains("never overwritten"), "{error}");
        assert_eq!(
            std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
            "mine"
        );
    }
}
