//! A suite's programs run from a private copy, made of the very bytes
//! that were hashed when the user's consent was checked ([`crate::case::trust`]),
//! never from the suite's own files: whoever owns the suite could rename
//! another program over one between the hash and its use.
//!
//! The copy holds what was hashed, nothing else: a program named by a file
//! is copied alone; one named by a directory, with every file under it
//! (where a compiler keeps its own libraries beside it), and the links
//! among them, each leading to its target's copy. It lies in the build
//! cache, in `.suite-programs/` (the user's own, mode 0700), named by the
//! digest of the suite's `judge.toml` and programs, so the same content is
//! copied once and its compiler's identity (its path, size and time, which
//! key the build cache and the versions asked) stays the same from run to
//! run. A copy is made whole under a fresh name, then renamed into place,
//! through the judge's one writer ([`crate::files`]); one found there was
//! made so by the same user's judge, from the same bytes, since nobody
//! else can write in that directory.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::case::settings::Choice;
use crate::case::trust::{Held, Programs};
use crate::files::{Dir, Kind};

/// Where the copies are kept, under the build cache.
const DIR: &str = ".suite-programs";

/// `choice` as it runs: a suite's program named by a path, once allowed,
/// names its private copy instead (made now if need be); any other choice
/// is itself.
pub(super) fn run_from_copy(choice: &Choice) -> anyhow::Result<Choice> {
    let Some(held) = choice.held.as_ref().filter(|_| choice.consent.given()) else {
        return Ok(choice.clone());
    };
    let programs = held.programs();
    let Ok(written) = Path::new(&choice.value).strip_prefix(&programs.dir) else {
        return Ok(choice.clone());
    };
    let copy = copy_of(held)?;
    Ok(Choice {
        value: copy.join(written).display().to_string(),
        ..choice.clone()
    })
}

/// The private copy of `held`, made if it is not there yet.
pub(crate) fn copy_of(held: &Held) -> anyhow::Result<PathBuf> {
    copy_in(&crate::runner::places::cache_root(), held.programs())
}

/// The copy of `programs` under the cache `root`, written through the
/// judge's one writer ([`crate::files`]): no link followed below the
/// cache, nothing written over what is there.
fn copy_in(root: &Path, programs: &Programs) -> anyhow::Result<PathBuf> {
    let root = Dir::open_given(root).context("failed to create the build cache")?;
    crate::runner::places::ensure_own_cache(root.path())?;
    // The user's alone (mode 0700): a copy found in it is the user's
    // judge's, made of the bytes its name is the digest of.
    let copies = root.private_subdir(DIR)?;
    let name = &programs.digest[..32.min(programs.digest.len())];
    if let Some(kind) = copies.kind(name)? {
        return found(&copies, name, kind);
    }
    let failed = || {
        format!(
            "failed to copy a suite's programs into {}",
            copies.path().display()
        )
    };
    let making = copies.pending_dir(name).with_context(failed)?;
    write_copy(making.dir(), &copies.path().join(name), programs).with_context(failed)?;
    match making.keep() {
        Ok(dir) => Ok(dir),
        // Another judge made it meanwhile, of the same bytes.
        Err(error) => match copies.kind(name)? {
            Some(kind) => found(&copies, name, kind),
            None => Err(error).with_context(|| {
                format!(
                    "failed to put a suite's programs at {}",
                    copies.path().join(name).display()
                )
            }),
        },
    }
}

/// The copy `name` found in `copies`, refused unless it is a directory
/// (not a link to one).
fn found(copies: &Dir, name: &str, kind: Kind) -> anyhow::Result<PathBuf> {
    let path = copies.path().join(name);
    anyhow::ensure!(
        kind == Kind::Dir,
        "{} is not a directory but a link or a file; remove it and judge again",
        path.display()
    );
    Ok(path)
}

/// Writes `programs` into `at`, links leading to their targets at `dir`,
/// where `at` will be renamed to; the directories on the way readable by
/// the sandbox's user, each file read-only (and executable where it was).
fn write_copy(at: &Dir, dir: &Path, programs: &Programs) -> anyhow::Result<()> {
    for file in &programs.files {
        let (parent, name) = parent_of(at, &file.name)?;
        let path = parent.path().join(name);
        let mut opened = parent
            .create_read_only(name, file.executable)
            .with_context(|| format!("failed to write {}", path.display()))?;
        opened
            .write_all(&file.bytes)
            .and_then(|()| opened.sync_all())
            .with_context(|| format!("failed to write {}", path.display()))?;
    }
    for (name, target) in &programs.links {
        let (parent, file) = parent_of(at, name)?;
        if parent.kind(file)?.is_some() {
            // A file of the copy already (a link under a named directory
            // that is also named).
            continue;
        }
        link(&parent, file, &dir.join(target), programs, target)
            .with_context(|| format!("failed to write {}", parent.path().join(file).display()))?;
    }
    Ok(())
}

/// The directory of `name` (relative to `at`, with `/` between names),
/// made if missing, and its last name.
fn parent_of<'n>(at: &Dir, name: &'n str) -> anyhow::Result<(Dir, &'n str)> {
    let (parent, file) = name.rsplit_once('/').unwrap_or(("", name));
    let dir = at
        .open_relative(Path::new(parent), true)?
        .with_context(|| format!("failed to create {}", at.path().join(parent).display()))?;
    Ok((dir, file))
}

/// A link `name` in `parent` to `target` (where it will be).
#[cfg(unix)]
fn link(
    parent: &Dir,
    name: &str,
    target: &Path,
    _programs: &Programs,
    _target_name: &str,
) -> anyhow::Result<()> {
    Ok(parent.symlink(target, name)?)
}

/// On Windows, where making a link takes a privilege, a copy of the file
/// it leads to (`target_name`, one of `programs`); a link to a directory
/// is left out.
#[cfg(not(unix))]
fn link(
    parent: &Dir,
    name: &str,
    _target: &Path,
    programs: &Programs,
    target_name: &str,
) -> anyhow::Result<()> {
    if let Some(file) = programs.files.iter().find(|f| f.name == target_name) {
        parent
            .create_read_only(name, file.executable)?
            .write_all(&file.bytes)?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::case::trust;

    /// A pack whose `judge.toml` names `bin/cc`, inspected as the judge
    /// does when it reads the suite.
    fn pack(dir: &Path, cc: &str) -> trust::Subject {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/cc"), cc).unwrap();
        std::fs::set_permissions(dir.join("bin/cc"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::os::unix::fs::symlink("cc", dir.join("bin/c++")).unwrap();
        std::fs::write(dir.join("judge.toml"), "[toolchain]\ncpp = \"bin/c++\"\n").unwrap();
        trust::inspect(&dir.join("judge.toml"), crate::files::OutsideLinks::Refused)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_program_swapped_after_the_hash_is_not_what_runs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pack");
        let subject = pack(&dir, "#!/bin/sh\necho hashed\n");
        // The owner renames another program over the hashed one, after the
        // hash and before the judge uses it.
        let swapped = dir.join("bin/.new");
        std::fs::write(&swapped, "#!/bin/sh\necho swapped\n").unwrap();
        std::fs::rename(&swapped, dir.join("bin/cc")).unwrap();

        let cache = tmp.path().join("cache");
        let copy = copy_in(&cache, subject.held.programs()).unwrap();
        assert!(copy.starts_with(cache.join(DIR)), "{}", copy.display());
        // The named link leads to the copy of its target, which holds the
        // bytes hashed, executable and read-only.
        let named = copy.join("bin/c++");
        assert_eq!(std::fs::read_link(&named).unwrap(), copy.join("bin/cc"));
        let ran = std::process::Command::new(&named).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&ran.stdout), "hashed\n");
        assert!(
            std::fs::write(copy.join("bin/cc"), "x").is_err() || nix::unistd::geteuid().is_root()
        );
        // The same content is copied once; the copies' directory is the
        // user's alone.
        assert_eq!(copy_in(&cache, subject.held.programs()).unwrap(), copy);
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(cache.join(DIR))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[test]
    fn a_reference_changed_after_its_check_is_built_as_it_was() {
        // A suite as shipped (allowed without a record), its references
        // read and checked as `calibrate` reads them...
        let tmp = tempfile::tempdir().unwrap();
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/leetcode37");
        let suite = tmp.path().join("leetcode37");
        std::fs::create_dir_all(suite.join("references")).unwrap();
        for name in [
            "judge.toml",
            "references/ac_textbook.py",
            "references/ac_textbook.cpp",
        ] {
            std::fs::copy(shipped.join(name), suite.join(name)).unwrap();
        }
        let references =
            crate::case::settings::references(&suite, crate::files::OutsideLinks::Refused).unwrap();
        let reference = &references[0];
        let original = std::fs::read(&reference.file).unwrap();
        // ...then the file is changed before it is built.
        std::fs::write(&reference.file, "print('changed')\n").unwrap();
        let copy = copy_in(&tmp.path().join("cache"), reference.held.programs()).unwrap();
        let name = reference.file.strip_prefix(&suite).unwrap();
        assert_eq!(std::fs::read(copy.join(name)).unwrap(), original);
    }
}
