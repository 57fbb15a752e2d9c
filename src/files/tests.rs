//! The door's rules, each tried against what a hostile pack or a planted
//! link would do, and a seeded generator of hostile trees that runs the
//! reading and writing entry points over them.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::os::Dir;
use super::write::{replace, write_new, Kind};
#[cfg(unix)]
use super::{
    name,
    read::{read_capped, read_lines, Fence, LineCapped, OutsideLinks, MAX_WHOLE_BYTES},
};

/// A link at `at` to the file `target`: for the tests of every module
/// that refuses links.
pub(crate) fn link_file(target: &Path, at: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, at).unwrap();
    #[cfg(windows)]
    std::os::windows::fs::symlink_file(target, at).unwrap();
}

/// A link at `at` to the directory `target`.
pub(crate) fn link_dir(target: &Path, at: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, at).unwrap();
    #[cfg(windows)]
    std::os::windows::fs::symlink_dir(target, at).unwrap();
}

/// Every file under `dir` (links not followed) with its bytes, or the
/// link's target: what a run must leave as it was.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            let bytes = if e.file_type().is_symlink() {
                std::fs::read_link(e.path())
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes()
            } else if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap_or_default()
            } else {
                b"special".to_vec()
            };
            (e.path().to_path_buf(), bytes)
        })
        .collect()
}

#[cfg_attr(
    windows,
    ignore = "Wine shows a link as its target, so this is not run there"
)]
#[test]
fn writing_replaces_a_planted_link_and_never_follows_it() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "mine\n").unwrap();
    let state = tmp.path().join("state");
    std::fs::create_dir(&state).unwrap();
    link_file(&victim, &state.join("failed"));
    let state = Dir::open_given(&state).unwrap();
    // Read: refused by name, nothing of the target.
    let error = state.read_own("failed", 1 << 20).unwrap_err().to_string();
    assert!(error.contains("failed is a symbolic link"), "{error}");
    // Written: the link is replaced, the target untouched.
    state.write("failed", b"new\n").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
    assert_eq!(state.read_own("failed", 1 << 20).unwrap().unwrap(), "new\n");
    // Nothing of the write is left behind.
    assert_eq!(state.names(), ["failed"]);
}

#[cfg_attr(
    windows,
    ignore = "Wine shows a link as its target, so this is not run there"
)]
#[test]
fn a_link_at_any_level_of_a_write_path_is_refused_and_nothing_written_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(out.join("a/b")).unwrap();
    let before = snapshot(&victim);
    // A link as the first, the middle and the last directory of the path,
    // and as the file itself.
    let cases: [(&str, &str); 4] = [
        ("x", "x/b/c/file.txt"),
        ("a/y", "a/y/c/file.txt"),
        ("a/b/z", "a/b/z/file.txt"),
        ("a/b/file.txt", "a/b/file.txt"),
    ];
    let dir = Dir::open_given(&out).unwrap();
    for (at, write) in cases {
        if at.ends_with(".txt") {
            link_file(&victim.join("target.txt"), &out.join(at));
        } else {
            link_dir(&victim, &out.join(at));
        }
        let error = format!("{:#}", dir.create_at(Path::new(write), b"x").unwrap_err());
        let named = out.join(at);
        assert!(
            error.contains(&named.display().to_string()),
            "{write}: {error}"
        );
        let error = format!("{:#}", dir.ensure_free(Path::new(write)).unwrap_err());
        assert!(
            error.contains(&named.display().to_string()),
            "{write}: {error}"
        );
        assert_eq!(snapshot(&victim), before, "{write} wrote through {at}");
        std::fs::remove_file(out.join(at)).unwrap();
    }
    // A path that climbs out, or is absolute, is refused.
    for path in ["../victim/f", "/tmp/f"] {
        assert!(dir.create_at(Path::new(path), b"x").is_err(), "{path}");
    }
    // Without links, the levels are made and the file written, once.
    let made = dir
        .create_at(Path::new("a/new/deep/file.txt"), b"x")
        .unwrap();
    assert_eq!(made, out.join("a/new/deep/file.txt"));
    assert_eq!(std::fs::read(&made).unwrap(), b"x");
    let error = format!(
        "{:#}",
        dir.create_at(Path::new("a/new/deep/file.txt"), b"y")
            .unwrap_err()
    );
    assert!(error.contains("is never overwritten"), "{error}");
    assert_eq!(std::fs::read(&made).unwrap(), b"x");
}

#[cfg_attr(
    windows,
    ignore = "Wine shows a link as its target, so this is not run there"
)]
#[test]
fn a_file_the_user_named_is_written_new_and_a_report_replaced_never_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "mine\n").unwrap();
    link_file(&victim, &tmp.path().join("solution.py"));
    let error = write_new(&tmp.path().join("solution.py"), b"print()").unwrap_err();
    assert!(
        error
            .chain()
            .filter_map(|e| e.downcast_ref::<std::io::Error>())
            .any(|e| e.kind() == std::io::ErrorKind::AlreadyExists),
        "{error:#}"
    );
    // A report replaces the link at its name.
    let pending = replace(&tmp.path().join("solution.py")).unwrap();
    pending.file().write_all(b"{}").unwrap();
    pending.keep().unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("solution.py")).unwrap(),
        "{}"
    );
    // Made with its directories when missing.
    write_new(&tmp.path().join("new/dir/a.py"), b"a").unwrap();
    assert_eq!(
        std::fs::read(tmp.path().join("new/dir/a.py")).unwrap(),
        b"a"
    );
}

#[test]
fn a_pending_file_is_gone_unless_kept_and_keep_new_replaces_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Dir::open_given(tmp.path()).unwrap();
    {
        let pending = dir.pending("last.json").unwrap();
        pending.file().write_all(b"{}").unwrap();
    }
    assert!(dir.names().is_empty(), "{:?}", dir.names());
    let pending = dir.pending("last.json").unwrap();
    pending.file().write_all(b"{}").unwrap();
    assert_eq!(pending.keep().unwrap(), tmp.path().join("last.json"));
    assert_eq!(dir.names(), ["last.json"]);
    let pending = dir.pending_private("last.json").unwrap();
    pending.file().write_all(b"other").unwrap();
    let error = pending.keep_new().unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(tmp.path().join("last.json")).unwrap(), b"{}");
    assert_eq!(dir.names(), ["last.json"]);
    assert_eq!(dir.kind("last.json").unwrap(), Some(Kind::File));
}

#[test]
fn a_pending_directory_is_gone_unless_kept_and_never_replaces_one_made_meanwhile() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Dir::open_given(tmp.path()).unwrap();
    {
        let pending = dir.pending_dir("copy").unwrap();
        pending
            .dir()
            .create_at(Path::new("bin/cc"), b"half")
            .unwrap();
    }
    assert!(dir.names().is_empty(), "{:?}", dir.names());
    let pending = dir.pending_dir("copy").unwrap();
    pending
        .dir()
        .create_at(Path::new("bin/cc"), b"whole")
        .unwrap();
    // Another run makes it meanwhile: its copy stays, this one goes.
    let other = dir.pending_dir("copy").unwrap();
    other
        .dir()
        .create_at(Path::new("bin/cc"), b"other")
        .unwrap();
    assert_eq!(other.keep().unwrap(), tmp.path().join("copy"));
    assert!(pending.keep().is_err());
    assert_eq!(
        std::fs::read(tmp.path().join("copy/bin/cc")).unwrap(),
        b"other"
    );
    assert_eq!(dir.names(), ["copy"]);
}

/// A directory the judge keeps for itself is made for its owner alone,
/// and one others may enter is refused, not taken.
#[cfg(unix)]
#[test]
fn a_private_directory_is_the_users_alone_or_refused() {
    use std::os::unix::fs::PermissionsExt as _;
    let tmp = tempfile::tempdir().unwrap();
    let dir = Dir::open_given(tmp.path()).unwrap();
    dir.private_subdir("mine").unwrap();
    let mode = |name: &str| {
        std::fs::metadata(tmp.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("mine"), 0o700);
    std::fs::create_dir(tmp.path().join("open")).unwrap();
    std::fs::set_permissions(
        tmp.path().join("open"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let error = dir.private_subdir("open").unwrap_err().to_string();
    assert!(
        error.contains("may be read or written by other users"),
        "{error}"
    );
    assert_eq!(mode("open"), 0o755);
    link_dir(&tmp.path().join("mine"), &tmp.path().join("link"));
    let error = dir.private_subdir("link").unwrap_err().to_string();
    assert!(error.contains("link is a symbolic link"), "{error}");
}

#[cfg_attr(
    windows,
    ignore = "Wine shows a link as its target, so this is not run there"
)]
#[test]
fn a_directory_link_is_refused_and_nothing_is_written_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    link_dir(&elsewhere, &tmp.path().join("baselines"));
    let top = Dir::open_given(tmp.path()).unwrap();
    let error = top.subdir("baselines", true).unwrap_err().to_string();
    assert!(error.contains("baselines is a symbolic link"), "{error}");
    assert!(error.contains("rm "), "{error}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_record_is_read_only_when_it_is_the_users_own_with_one_link() {
    use std::os::unix::fs::PermissionsExt as _;
    let tmp = tempfile::tempdir().unwrap();
    let dir = Dir::open_given(tmp.path()).unwrap();
    dir.write("last.json", b"{}").unwrap();
    assert_eq!(dir.read_own("last.json", 1 << 20).unwrap().unwrap(), "{}");
    // A second name for it, from anywhere, and it is no record.
    std::fs::hard_link(tmp.path().join("last.json"), tmp.path().join("other")).unwrap();
    let error = dir.read_own("last.json", 1 << 20).unwrap_err().to_string();
    assert!(
        error.contains("last.json has 2 hard links, and a record the judge wrote has one"),
        "{error}"
    );
    std::fs::remove_file(tmp.path().join("other")).unwrap();
    // Larger than the cap: refused, naming it.
    let error = dir.read_own("last.json", 1).unwrap_err().to_string();
    assert!(
        error.contains("last.json is larger than 1 bytes"),
        "{error}"
    );
    // A FIFO at a record's name: refused at once, not waited on.
    nix::unistd::mkfifo(&tmp.path().join("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let error = dir.read_own("fifo", 1 << 20).unwrap_err().to_string();
    assert!(error.contains("fifo is not a regular file"), "{error}");
    // A directory others may write is refused as a home for records.
    dir.ensure_own().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o775)).unwrap();
    let error = dir.ensure_own().unwrap_err().to_string();
    assert!(error.contains("is writable by its group"), "{error}");
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let error = dir.ensure_own().unwrap_err().to_string();
    assert!(error.contains("is writable by every user"), "{error}");
    dir.restrict(0o7755).unwrap();
    dir.ensure_own().unwrap();
    // Another user's directory and record: refused (only root can give a
    // file away, so only then is this tried).
    if nix::unistd::geteuid().is_root() {
        let nobody = Some(nix::unistd::Uid::from_raw(65534));
        nix::unistd::chown(&tmp.path().join("last.json"), nobody, None).unwrap();
        let error = dir.read_own("last.json", 1 << 20).unwrap_err().to_string();
        assert!(
            error.contains("last.json belongs to uid 65534, not to you (uid 0)"),
            "{error}"
        );
        nix::unistd::chown(tmp.path(), nobody, None).unwrap();
        let error = dir.ensure_own().unwrap_err().to_string();
        assert!(
            error.contains("belongs to uid 65534, not to you"),
            "{error}"
        );
    }
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_by_every_reader_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo.in");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let socket = tmp.path().join("socket.in");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    for (path, kind) in [
        (fifo, "a FIFO"),
        (socket, "a socket"),
        (tmp.path().to_path_buf(), "a directory"),
        (PathBuf::from("/dev/zero"), "a device"),
    ] {
        let fence = Fence::new(
            path.parent().unwrap_or(Path::new("/")),
            OutsideLinks::Refused,
        );
        let errors = [
            fence.open(&path, "case input").map(drop).unwrap_err(),
            read_lines(&path, "case input", 1 << 20)
                .map(drop)
                .unwrap_err(),
            read_capped(&path, "case input", 1 << 20)
                .map(drop)
                .unwrap_err(),
        ];
        for error in errors {
            let error = error.to_string();
            assert!(
                error.contains(&format!("{} is {kind}, not a regular file", path.display())),
                "{error}"
            );
        }
    }
}

/// A small seeded generator (xorshift), so a failing tree can be built
/// again from its seed.
#[cfg(unix)]
struct Seeded(u64);

#[cfg(unix)]
impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A name as a hostile pack would choose it: control characters, a
    /// leading dot, a very long one.
    fn name(&mut self) -> String {
        const PARTS: [&str; 8] = ["a", "case", "\x1b[31m", "\n", ".", "%", "é", "x"];
        let mut name: String = (0..1 + self.below(4))
            .map(|_| PARTS[self.below(PARTS.len())])
            .collect();
        if self.below(8) == 0 {
            name = name.repeat(100);
        }
        let mut end = name.len().min(250);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
        if name == "." || name == ".." {
            name.push('x');
        }
        name
    }
}

/// Builds a hostile tree under `pack`: directories and files with odd
/// names, links to `outside` at every level, hard links to a secret
/// there, sparse files and FIFOs. Returns every path it made.
#[cfg(unix)]
fn hostile_tree(rng: &mut Seeded, pack: &Path, outside: &Path) -> Vec<PathBuf> {
    let mut made = Vec::new();
    let mut dirs = vec![pack.to_path_buf()];
    for _ in 0..24 {
        let parent = dirs[rng.below(dirs.len())].clone();
        let at = parent.join(rng.name());
        if at.symlink_metadata().is_ok() {
            continue;
        }
        match rng.below(7) {
            0 => {
                std::fs::create_dir(&at).unwrap();
                dirs.push(at.clone());
            }
            1 => std::fs::write(&at, "1.3\n").unwrap(),
            2 => std::os::unix::fs::symlink(outside, &at).unwrap(),
            3 => std::os::unix::fs::symlink(outside.join("secret"), &at).unwrap(),
            4 => std::fs::hard_link(outside.join("secret"), &at).unwrap(),
            5 => std::fs::File::create(&at)
                .unwrap()
                .set_len(1 << 30)
                .unwrap(),
            _ => nix::unistd::mkfifo(&at, nix::sys::stat::Mode::S_IRWXU).unwrap(),
        }
        made.push(at);
    }
    made
}

#[cfg(unix)]
#[test]
fn hostile_trees_neither_leak_nor_get_written_through() {
    for seed in 1..=40u64 {
        let mut rng = Seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("secret"), "root:$6$hash\n").unwrap();
        let pack = tmp.path().join("pack");
        std::fs::create_dir(&pack).unwrap();
        let made = hostile_tree(&mut rng, &pack, &outside);
        let before = snapshot(&outside);
        // Reading: every file of the pack, through the fence and the
        // bounded line reader. What is read is within the caps and holds
        // nothing of the secret; every refusal names its file.
        let fence = Fence::new(&pack, OutsideLinks::Refused);
        for path in &made {
            let shown = path.display().to_string();
            match fence.open(path, "case input") {
                Ok(opened) => {
                    let mut text = String::new();
                    use std::io::Read as _;
                    let read = LineCapped::new(std::io::BufReader::new(
                        opened.file.take(MAX_WHOLE_BYTES + 1),
                    ))
                    .read_to_string(&mut text);
                    if let Ok(n) = read {
                        assert!(n as u64 <= MAX_WHOLE_BYTES + 1, "seed {seed}");
                    }
                    assert!(!text.contains("root"), "seed {seed}: {shown} leaked");
                }
                Err(error) => {
                    let error = format!("{error:#}");
                    assert!(error.contains(&shown), "seed {seed}: {error}");
                    assert!(!error.contains("root:"), "seed {seed}: {error}");
                }
            }
            // A path named by the user (as `bench` takes one) is not
            // fenced: a symbolic link they name is theirs to follow; a
            // hard link is refused all the same.
            match read_lines(path, "puzzle file", 256 << 20) {
                Ok(text) => assert!(
                    !text.contains("root") || path.symlink_metadata().unwrap().is_symlink(),
                    "seed {seed}: {shown}"
                ),
                Err(error) => {
                    let error = format!("{error:#}");
                    assert!(error.contains(&shown), "seed {seed}: {error}");
                }
            }
        }
        // Writing: under the pack's paths, as `--keep` and `cases --out`
        // would, with names made safe. Nothing lands outside the pack.
        let out = Dir::open_given(&pack).unwrap();
        for path in &made {
            let relative = path.strip_prefix(&pack).unwrap();
            let target = relative.join(name::safe(&rng.name()));
            if let Err(error) = out.create_at(&target, b"kept") {
                let error = format!("{error:#}");
                let first = relative.iter().next().unwrap().to_string_lossy();
                assert!(error.contains(first.as_ref()), "seed {seed}: {error}");
            }
            let safe = name::safe(&rng.name());
            assert!(safe.len() <= name::MAX_NAME_BYTES, "seed {seed}");
            assert!(!safe.chars().any(char::is_control), "seed {seed}: {safe:?}");
            let _ = out.create_at(Path::new(&safe), b"kept");
        }
        assert_eq!(snapshot(&outside), before, "seed {seed}: wrote outside");
    }
}
