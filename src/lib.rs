//! sudoku-judge: a local online judge for Sudoku submissions, the LeetCode 37
//! function interface and the AcWing 166 / POJ 3074 stdin format.
//!
//! The data flows one way: the CLI builds a [`judge::Config`], [`case`]
//! discovers sorted cases and reads their settings, [`runner`] runs the
//! submission on each, [`check`] judges its answers, [`decide`] turns the
//! run and the answers into a [`verdict::Verdict`], the judge gathers
//! [`results`], and [`report`] renders the events. Only `main.rs` and
//! `report` write to the terminal. A test below fails on an import cycle
//! between these modules.

pub mod baseline;
pub mod bench;
pub mod board;
pub mod calibrate;
pub mod case;
pub mod check;
pub mod corpus;
pub mod decide;
pub mod generate;
pub mod hack;
pub mod judge;
pub mod problem;
pub mod report;
pub mod results;
pub mod runner;
pub mod solver;
pub mod stress;
pub mod verdict;
pub mod watch;
pub mod words;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Imports between top-level modules that close a cycle, each to be
    /// removed once it is broken: none today, and no other may close one.
    const KNOWN_CYCLES: [(&str, &str); 0] = [];

    /// The top-level modules each top-level module of the library names
    /// (`crate::name`), outside comments.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        let modules: BTreeSet<String> = lib
            .lines()
            .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
            .map(String::from)
            .collect();
        let mut imports = BTreeMap::new();
        for module in &modules {
            let mut files = vec![src.join(format!("{module}.rs"))];
            let mut dirs = vec![src.join(module)];
            while let Some(dir) = dirs.pop() {
                for entry in std::fs::read_dir(&dir).into_iter().flatten() {
                    let path = entry.unwrap().path();
                    if path.is_dir() {
                        dirs.push(path);
                    } else if path.extension().is_some_and(|e| e == "rs") {
                        files.push(path);
                    }
                }
            }
            let named: &mut BTreeSet<String> = imports.entry(module.clone()).or_default();
            for file in files.iter().filter(|f| f.is_file()) {
                let text = std::fs::read_to_string(file).unwrap();
                for line in text.lines() {
                    let code = line.split("//").next().unwrap_or_default();
                    for (at, _) in code.match_indices("crate::") {
                        let name: String = code[at + "crate::".len()..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if modules.contains(&name) && name != *module {
                            named.insert(name);
                        }
                    }
                }
            }
        }
        imports
    }

    /// A cycle through `from`, as the modules on it, if there is one.
    fn cycle_from(
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        let last = path.last().unwrap().clone();
        for next in imports.get(&last).into_iter().flatten() {
            if *next == path[0] {
                return Some(path.clone());
            }
            if !path.contains(next) {
                path.push(next.clone());
                if let Some(cycle) = cycle_from(imports, path) {
                    return Some(cycle);
                }
                path.pop();
            }
        }
        None
    }

    #[test]
    fn top_level_modules_import_each_other_without_cycles() {
        let mut imports = imports();
        assert!(
            imports["judge"].contains("runner"),
            "the scan finds imports"
        );
        for (from, to) in KNOWN_CYCLES {
            assert!(
                imports.get_mut(from).unwrap().remove(to),
                "{from} no longer imports {to}: take it off KNOWN_CYCLES"
            );
        }
        for module in imports.keys() {
            if let Some(cycle) = cycle_from(&imports, &mut vec![module.clone()]) {
                panic!(
                    "the modules {} -> {module} import each other in a cycle; data flows one \
                     way (cases -> run -> check -> verdict -> report), so move what both need \
                     into a module below them",
                    cycle.join(" -> ")
                );
            }
        }
    }
}
