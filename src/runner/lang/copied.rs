//! A suite's programs run from a private copy, made of the very bytes
//! that were hashed when the user's consent was checked (`case::trust`),
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
//! run. A copy is made whole under a fresh name, then renamed into place;
//! one found there was made so by the same user's judge, from the same
//! bytes, since nobody else can write in that directory.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::case::settings::Choice;
use crate::case::trust::{Held, Programs};

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

/// The copy of `programs` under the cache `root`.
fn copy_in(root: &Path, programs: &Programs) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(root)
        .with_context(|| format!("failed to create the build cache {}", root.display()))?;
    crate::runner::places::ensure_own_cache(root)?;
    let copies = root.join(DIR);
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(&copies) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(error) => {
            return Err(error).with_context(|| format!("failed to create {}", copies.display()))
        }
    }
    ensure_private(&copies)?;
    let dir = copies.join(&programs.digest[..32.min(programs.digest.len())]);
    if dir.symlink_metadata().is_ok() {
        ensure_own_directory(&dir)?;
        return Ok(dir);
    }
    let making = tempfile::Builder::new()
        .prefix(".making-")
        .tempdir_in(&copies)
        .with_context(|| {
            format!(
                "failed to copy a suite's programs into {}",
                copies.display()
            )
        })?;
    write_copy(making.path(), &dir, programs).with_context(|| {
        format!(
            "failed to copy a suite's programs into {}",
            copies.display()
        )
    })?;
    match std::fs::rename(making.path(), &dir) {
        Ok(()) => {
            // Renamed away: nothing is left for the guard to remove.
            let _ = making.keep();
            Ok(dir)
        }
        // Another judge made it meanwhile, of the same bytes.
        Err(_) if dir.is_dir() => {
            ensure_own_directory(&dir)?;
            Ok(dir)
        }
        Err(error) => Err(error)
            .with_context(|| format!("failed to put a suite's programs at {}", dir.display())),
    }
}

/// Writes `programs` under `at`, links leading to their targets at `dir`,
/// where `at` will be renamed to.
fn write_copy(at: &Path, dir: &Path, programs: &Programs) -> anyhow::Result<()> {
    for file in &programs.files {
        let path = at.join(&file.name);
        make_parent(&path)?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(
            &mut options,
            if file.executable { 0o555 } else { 0o444 },
        );
        let mut opened = options
            .open(&path)
            .with_context(|| format!("failed to write {}", path.display()))?;
        std::io::Write::write_all(&mut opened, &file.bytes)
            .and_then(|()| opened.sync_all())
            .with_context(|| format!("failed to write {}", path.display()))?;
    }
    for (name, target) in &programs.links {
        let path = at.join(name);
        if path.symlink_metadata().is_ok() {
            // A file of the copy already (a link under a named directory
            // that is also named).
            continue;
        }
        make_parent(&path)?;
        link(&dir.join(target), &at.join(target), &path)?;
    }
    Ok(())
}

/// Makes `path`'s parent directories, readable by the sandbox's user.
fn make_parent(path: &Path) -> anyhow::Result<()> {
    let Some(parent) = path.parent() else {
        return Ok(());
    };
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o755);
    builder
        .create(parent)
        .with_context(|| format!("failed to create {}", parent.display()))
}

/// A link at `path` to `target` (where it will be); on Windows, where
/// making a link takes a privilege, a copy of the file made (`made`).
#[cfg(unix)]
fn link(target: &Path, _made: &Path, path: &Path) -> anyhow::Result<()> {
    std::os::unix::fs::symlink(target, path)
        .with_context(|| format!("failed to write {}", path.display()))
}

#[cfg(not(unix))]
fn link(_target: &Path, made: &Path, path: &Path) -> anyhow::Result<()> {
    if made.is_file() {
        std::fs::copy(made, path).with_context(|| format!("failed to write {}", path.display()))?;
    }
    Ok(())
}

/// Refuses `copies` unless it is a directory of the user's own that no
/// one else may enter: a copy found in it is then the user's judge's.
fn ensure_private(copies: &Path) -> anyhow::Result<()> {
    ensure_own_directory(copies)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let meta = copies.symlink_metadata()?;
        anyhow::ensure!(
            meta.mode() & 0o077 == 0,
            "{} may be read or written by other users, so a suite's programs are not copied \
             there; remove it and judge again",
            copies.display()
        );
    }
    Ok(())
}

/// Refuses `dir` unless it is a directory (not a link) of the user's own.
fn ensure_own_directory(dir: &Path) -> anyhow::Result<()> {
    let meta = dir
        .symlink_metadata()
        .with_context(|| format!("failed to read {}", dir.display()))?;
    anyhow::ensure!(
        meta.is_dir() && !meta.file_type().is_symlink(),
        "{} is not a directory but a link or a file; remove it and judge again",
        dir.display()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        anyhow::ensure!(
            meta.uid() == nix::unistd::geteuid().as_raw(),
            "{} belongs to another user; remove it and judge again",
            dir.display()
        );
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
        trust::inspect(&dir.join("judge.toml")).unwrap().unwrap()
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
        let references = crate::case::settings::references(&suite).unwrap();
        let reference = &references[0];
        let original = std::fs::read(&reference.file).unwrap();
        // ...then the file is changed before it is built.
        std::fs::write(&reference.file, "print('changed')\n").unwrap();
        let copy = copy_in(&tmp.path().join("cache"), reference.held.programs()).unwrap();
        let name = reference.file.strip_prefix(&suite).unwrap();
        assert_eq!(std::fs::read(copy.join(name)).unwrap(), original);
    }
}
