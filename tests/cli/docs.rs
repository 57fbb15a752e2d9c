//! The README and the book in `docs/` link to each other's pages and
//! headings; a page moved or a heading renamed would leave a reader at a
//! dead link. These tests follow every relative link and `#anchor`.

use super::*;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The Markdown pages of `dir`, sorted.
fn pages_in(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The pages checked: the README and every page of the book.
fn pages() -> Vec<PathBuf> {
    let root = manifest_dir();
    let mut pages = vec![root.join("README.md")];
    let book = pages_in(&root.join("docs"));
    assert!(!book.is_empty(), "docs/ has no page");
    pages.extend(book);
    pages
}

/// The book's notes: dated records, linked from its index.
fn notes() -> Vec<PathBuf> {
    pages_in(&manifest_dir().join("docs/notes"))
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

/// GitHub's anchor for a heading's text: lower case, punctuation other than
/// `-` and `_` dropped, spaces as `-`.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors a page's headings get, a repeated one numbered as GitHub
/// numbers it (`name`, `name-1`, `name-2`).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                anchors.insert(if *n == 0 { base } else { format!("{base}-{n}") });
                *n += 1;
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            _ => {}
        }
    }
    anchors
}

/// Every link a page makes, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    parser(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => Some((
                text[..range.start].matches('\n').count() + 1,
                dest_url.to_string(),
            )),
            _ => None,
        })
        .collect()
}

/// Why `link`, on `page`, leads nowhere; `None` when it resolves (or
/// leaves the repository, which this test does not follow).
fn broken(page: &Path, link: &str) -> Option<String> {
    if link.contains("://") || link.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match link.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (link, None),
    };
    let target = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(path)
    };
    if !target.exists() {
        return Some(format!("{} does not exist", target.display()));
    }
    let anchor = anchor?;
    if target.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "#{anchor} points into {}, which is not a Markdown page",
            target.display()
        ));
    }
    let text = std::fs::read_to_string(&target).unwrap();
    if anchors(&text).contains(anchor) {
        None
    } else {
        Some(format!(
            "{} has no heading whose anchor is #{anchor}",
            target.display()
        ))
    }
}

#[test]
fn every_link_in_the_readme_and_the_book_resolves() {
    let root = manifest_dir();
    let mut dead = Vec::new();
    let mut followed = 0;
    for page in pages().into_iter().chain(notes()) {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, link) in links(&text) {
            followed += 1;
            if let Some(why) = broken(&page, &link) {
                let shown = page.strip_prefix(&root).unwrap_or(&page).display();
                dead.push(format!("{shown}:{line}: ({link}): {why}"));
            }
        }
    }
    assert!(
        followed > 20,
        "only {followed} links found: is the parser reading the pages?"
    );
    assert!(
        dead.is_empty(),
        "dead links; fix the link or the heading it points to:\n{}",
        dead.join("\n")
    );
}

#[test]
fn the_book_is_linked_from_its_index_and_the_readme() {
    let root = manifest_dir();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let index = std::fs::read_to_string(root.join("docs/README.md")).unwrap();
    let readme_links: BTreeSet<String> = links(&readme).into_iter().map(|(_, l)| l).collect();
    let index_links: BTreeSet<String> = links(&index).into_iter().map(|(_, l)| l).collect();
    for page in pages().iter().skip(1) {
        let name = page.file_name().unwrap().to_str().unwrap();
        if name == "README.md" {
            continue;
        }
        assert!(
            readme_links.contains(&format!("docs/{name}")),
            "the README's Documentation list does not link docs/{name}"
        );
        assert!(
            index_links.contains(name),
            "docs/README.md does not link {name}"
        );
    }
}

#[test]
fn every_note_is_linked_from_the_books_index() {
    let index = std::fs::read_to_string(manifest_dir().join("docs/README.md")).unwrap();
    let index_links: BTreeSet<String> = links(&index).into_iter().map(|(_, l)| l).collect();
    let notes = notes();
    assert!(!notes.is_empty(), "docs/notes/ has no page");
    for note in notes {
        let name = note.file_name().unwrap().to_str().unwrap();
        assert!(
            index_links.contains(&format!("notes/{name}")),
            "docs/README.md does not link notes/{name}"
        );
    }
}

/// The README is for a newcomer's first minutes and the solvers' page is
/// reference: what grows past these bounds belongs in the book or its
/// notes.
#[test]
fn the_readme_and_the_solvers_page_stay_short() {
    for (page, most) in [("README.md", 160), ("docs/solvers.md", 300)] {
        let lines = std::fs::read_to_string(manifest_dir().join(page))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines <= most,
            "{page} has {lines} lines, more than {most}: move reference to the book"
        );
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = "# Limits and `judge.toml`\n\n## `stress` (对拍)\n\n## Speed\n\n## Speed\n\n\
                ### Picking cases, parallel runs and CI\n\n## What [the judge](x.md) says\n";
    let made = anchors(page);
    let expected: BTreeSet<String> = [
        "limits-and-judgetoml",
        "stress-对拍",
        "speed",
        "speed-1",
        "picking-cases-parallel-runs-and-ci",
        "what-the-judge-says",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(made, expected);
    // Headings inside code are not headings.
    assert!(anchors("```sh\n# not a heading\n```\n").is_empty());
}

/// The flags the book says each judge's C++ build uses are the flags the
/// C++ declaration gives it: a row of the table in `docs/languages.md` per
/// problem, its flags in the third column.
#[test]
fn the_cxx_flags_the_book_gives_each_judge_are_the_ones_it_builds_with() {
    use sudoku_judge::problem::Problem;
    use sudoku_judge::runner::lang::Interface;
    use sudoku_judge::runner::lang::Language;

    let page = std::fs::read_to_string(manifest_dir().join("docs/languages.md")).unwrap();
    let cpp = Language::find("cpp").unwrap().spec();
    let profile = |interface: Interface, problem: Option<Problem>| {
        cpp.profiles
            .iter()
            .find(|p| p.interface == interface && p.problem == problem)
            .map(|p| p.flags)
    };
    let built = [
        (
            "leetcode37",
            profile(Interface::Function, None).expect("LeetCode's profile"),
        ),
        ("acwing166", cpp.flags),
        (
            "poj3074",
            profile(Interface::Program, Some(Problem::Poj3074)).expect("POJ's profile"),
        ),
    ];
    for (problem, flags) in built {
        let row = page
            .lines()
            .find(|line| line.starts_with(&format!("| `{problem}` |")))
            .unwrap_or_else(|| panic!("docs/languages.md has no row for {problem}"));
        let said = row.split('|').nth(3).unwrap_or_default().trim();
        assert_eq!(
            said,
            format!("`{}`", flags.join(" ")),
            "docs/languages.md gives {problem} other flags than the C++ declaration: {row}"
        );
    }
}
