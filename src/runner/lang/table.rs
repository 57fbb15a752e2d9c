//! The table of languages in `docs/languages.md`, made from the
//! declarations, so the two cannot disagree (a test compares them).

use super::known::NOT_JUDGED;
use super::language::Language;

/// Where the table starts and ends in `docs/languages.md`.
pub(crate) const BEGIN: &str =
    "<!-- languages: made from src/runner/lang by `sudoku_judge::runner::lang::table::markdown` -->";
pub(crate) const END: &str = "<!-- end of languages -->";

/// `text` as a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The table, one row per language, the ones not judged last.
pub(crate) fn markdown() -> String {
    let mut out = String::from(
        "| language | extensions, `--lang` | toolchain (Debian package), as tested | built and run with | a LeetCode-style file gets |\n\
         |---|---|---|---|---|\n",
    );
    for language in Language::all() {
        let spec = language.spec();
        let extensions: Vec<String> = spec.extensions.iter().map(|e| format!("`.{e}`")).collect();
        let mut packages: Vec<&str> = spec.tools.iter().map(|t| t.package).collect();
        packages.dedup();
        let mut command = vec![spec.tools[0].command];
        command.extend(spec.flags);
        out.push_str(&format!(
            "| {} | {}, `--lang {}` | `{}`, {} | `{}`: {} | {} |\n",
            spec.name,
            extensions.join(" "),
            spec.id,
            packages.join("`, `"),
            spec.tested,
            command.join(" "),
            cell(spec.flags_why),
            cell(spec.leetcode.gets),
        ));
    }
    for (name, extensions, why) in NOT_JUDGED {
        let extensions: Vec<String> = extensions.iter().map(|e| format!("`.{e}`")).collect();
        out.push_str(&format!(
            "| {name} | {} | not judged | {} | – |\n",
            extensions.join(" "),
            cell(why)
        ));
    }
    out
}
