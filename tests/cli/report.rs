//! The report to look at, `--html FILE`: written where asked, well-formed,
//! holding the verdicts, the bars against the limit, the wrong answer's
//! grids and the comparison with a baseline; and rendered by a real
//! browser, headless, with no errors and a page that is not blank.

use std::path::{Path, PathBuf};
use std::process::Command;

use scraper::{Html, Selector};

use super::{have, manifest_dir, run_in, write, ANSWER, PUZZLE};

/// `PUZZLE` with its first `n` givens blanked: still solved by `ANSWER`,
/// and told apart by the program below.
fn fewer_givens(n: usize) -> String {
    let mut left = n;
    PUZZLE
        .chars()
        .map(|c| {
            if c != '.' && left > 0 {
                left -= 1;
                '.'
            } else {
                c
            }
        })
        .collect()
}

/// A suite of three AcWing cases, `ac`, `wa` and `tle`, and a Python
/// program that answers the first, gets the second wrong and spins
/// through the third.
pub(super) fn suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let wa = fewer_givens(1);
    let tle = fewer_givens(2);
    write(dir.path(), "cases/ac.in", &format!("{PUZZLE}\nend\n"));
    write(dir.path(), "cases/wa.in", &format!("{wa}\nend\n"));
    write(dir.path(), "cases/wa.out", &format!("{ANSWER}\n"));
    write(dir.path(), "cases/tle.in", &format!("{tle}\nend\n"));
    // The wrong answer swaps two digits the puzzle leaves blank.
    let wrong: String = {
        let mut cells: Vec<char> = ANSWER.chars().collect();
        cells.swap(2, 3);
        cells.into_iter().collect()
    };
    write(
        dir.path(),
        "prog.py",
        &format!(
            "import sys, time\n\
             for line in sys.stdin:\n\
             \x20   line = line.strip()\n\
             \x20   if line == 'end':\n\
             \x20       break\n\
             \x20   if line == '{PUZZLE}':\n\
             \x20       print('{ANSWER}')\n\
             \x20   elif line == '{wa}':\n\
             \x20       print('{wrong}')\n\
             \x20   else:\n\
             \x20       while True:\n\
             \x20           pass\n\
             \x20   sys.stdout.flush()\n"
        ),
    );
    dir
}

/// The command the documentation's example runs, on [`suite`].
const EXAMPLE: &[&str] = &[
    "test",
    "cases",
    "--cmd",
    "python3 prog.py",
    "--time-limit",
    "2s",
    "--html",
    "out/report.html",
];

fn judge_html(dir: &Path, extra: &[&str]) -> (super::Run, String) {
    let mut args = EXAMPLE.to_vec();
    args.extend_from_slice(extra);
    let run = run_in(dir, &args, "");
    let page = std::fs::read_to_string(dir.join("out/report.html"))
        .unwrap_or_else(|e| panic!("no report written ({e}):\n{}{}", run.stdout, run.stderr));
    (run, page)
}

fn select<'a>(doc: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    doc.select(&Selector::parse(css).unwrap()).collect()
}

fn text(element: &scraper::ElementRef<'_>) -> String {
    element.text().collect()
}

#[test]
fn the_html_report_shows_each_verdict_its_bar_and_the_wrong_answer_as_grids() {
    if !have(&["python3"], "the_html_report_shows_each_verdict") {
        return;
    }
    let dir = suite();
    let (run, page) = judge_html(dir.path(), &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);

    // The documentation's example: its command, and what it prints.
    let docs = std::fs::read_to_string(manifest_dir().join("docs/judging.md")).unwrap();
    let section = &docs[docs.find("## HTML report").expect("an HTML report section")..];
    let quoted: Vec<String> = EXAMPLE
        .iter()
        .map(|a| {
            if a.contains(' ') {
                format!("\"{a}\"")
            } else {
                a.to_string()
            }
        })
        .collect();
    assert!(
        section.contains(&format!("```sh\nsudoku-judge {}\n```", quoted.join(" "))),
        "docs/judging.md does not show the command tested"
    );
    let said = "wrote the HTML report to out/report.html; open it in a browser\n";
    assert!(section.contains(&format!("```text\n{said}```")));
    assert!(run.stderr.contains(said), "{}", run.stderr);

    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "not well-formed: {:?}", doc.errors);
    // Self-contained: nothing is fetched, nothing is run.
    assert!(select(&doc, "script, link, img, iframe, [src], [href]").is_empty());
    let without_namespaces = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_namespaces.contains("http"), "a link in the page");

    let summary = text(&select(&doc, "#summary")[0]);
    assert!(summary.starts_with("1 passed, 2 failed"), "{summary}");
    let header = text(&select(&doc, "header dl")[0]);
    for term in ["submission", "limits", "sandbox", "machine"] {
        assert!(header.contains(term), "{header}");
    }
    assert!(header.contains("2.00 s and"), "{header}");

    // One bar a case, coloured by its verdict, against one limit line.
    let bars: Vec<(String, String)> = select(&doc, "svg.times g.case")
        .iter()
        .map(|g| {
            let v = g.value();
            let attr = |name: &str| v.attr(name).unwrap().to_string();
            (attr("data-case"), attr("class"))
        })
        .collect();
    assert_eq!(bars.len(), 3, "{bars:?}");
    for (name, verdict) in [("ac", "AC"), ("tle", "TLE"), ("wa", "WA")] {
        let (_, class) = bars
            .iter()
            .find(|(id, _)| id.ends_with(name))
            .unwrap_or_else(|| panic!("no bar for {name}: {bars:?}"));
        assert_eq!(class, &format!("case v-{verdict}"));
    }
    assert_eq!(select(&doc, "svg.times rect.bar").len(), 3);
    assert_eq!(select(&doc, "svg.times line.limit").len(), 1);
    // The TLE's bar runs past the limit line, the AC's stops short of it.
    let width = |case: &str| -> f64 {
        select(&doc, &format!("svg.times g.v-{case} rect.bar"))[0]
            .value()
            .attr("width")
            .unwrap()
            .parse()
            .unwrap()
    };
    let limit_x: f64 = select(&doc, "svg.times line.limit")[0]
        .value()
        .attr("x1")
        .unwrap()
        .parse()
        .unwrap();
    let bar_x: f64 = select(&doc, "svg.times rect.bar")[0]
        .value()
        .attr("x")
        .unwrap()
        .parse()
        .unwrap();
    assert!(bar_x + width("TLE") > limit_x);
    assert!(bar_x + width("AC") < limit_x);

    // The two failures, the WA with its two grids: the givens told apart
    // and the two swapped cells marked.
    let failures = select(&doc, "#failures div.failure");
    assert_eq!(failures.len(), 2);
    let wa = select(&doc, "#failures div.v-WA")[0];
    let grids: Vec<_> = wa.select(&Selector::parse("table.grid").unwrap()).collect();
    assert_eq!(grids.len(), 2);
    let wrong: Vec<String> = grids[1]
        .select(&Selector::parse("td.wrong").unwrap())
        .map(|td| text(&td))
        .collect();
    assert_eq!(wrong.len(), 2, "{}", wa.html());
    let givens = PUZZLE.chars().filter(|&c| c != '.').count() - 1;
    assert_eq!(
        grids[1]
            .select(&Selector::parse("td.given").unwrap())
            .count(),
        givens
    );
    assert!(text(&select(&doc, "#failures div.v-TLE")[0]).contains("TLE"));
}

#[test]
fn with_a_baseline_the_html_report_puts_the_changed_cases_first() {
    if !have(&["python3"], "with_a_baseline_the_html_report") {
        return;
    }
    let dir = suite();
    let (first, _) = judge_html(dir.path(), &[]);
    assert_eq!(first.code, 1, "{}{}", first.stdout, first.stderr);
    // The wrong answer is mended.
    let prog = dir.path().join("prog.py");
    let mended = std::fs::read_to_string(&prog).unwrap();
    let wrong_line = mended
        .lines()
        .find(|l| l.trim_start().starts_with("print('") && !l.contains(ANSWER))
        .unwrap()
        .to_string();
    std::fs::write(
        &prog,
        mended.replace(&wrong_line, &format!("        print('{ANSWER}')")),
    )
    .unwrap();
    let (second, page) = judge_html(dir.path(), &["--baseline", "last"]);
    assert_eq!(second.code, 1, "{}{}", second.stdout, second.stderr);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    let rows: Vec<String> = select(&doc, "#baseline tbody tr")
        .iter()
        .map(|tr| text(tr))
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows[0].contains("wa") && rows[0].contains("WA → AC"),
        "{rows:?}"
    );
}

/// Chromium's name on this machine, if it has one.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| which::which(name).ok())
}

#[test]
fn the_html_report_renders_in_a_headless_browser() {
    let test = "the_html_report_renders_in_a_headless_browser";
    if !have(&["python3"], test) {
        return;
    }
    let Some(browser) = chromium() else {
        super::skip_or_fail(test, "chromium not installed (apt-get install chromium)");
        return;
    };
    let dir = suite();
    let (_, _) = judge_html(dir.path(), &[]);
    let page = dir.path().join("out/report.html");
    let shot = dir.path().join("shot.png");
    let profile = dir.path().join("profile");
    let url = format!("file://{}", page.display());
    let output = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1200,1600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .env("HOME", dir.path())
        .output()
        .expect("chromium starts");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    // The page's own errors reach the log as CONSOLE lines.
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect();
    assert!(console.is_empty(), "{console:#?}");

    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("a screenshot"),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.color_type.samples();
    let luma: Vec<f64> = pixels[..info.buffer_size()]
        .chunks(channels)
        .map(|p| f64::from(p[0]) * 0.3 + f64::from(p[1]) * 0.59 + f64::from(p[2]) * 0.11)
        .collect();
    let mean = luma.iter().sum::<f64>() / luma.len() as f64;
    let variance = luma.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / luma.len() as f64;
    // A blank page is one colour; text, bars and grids make it vary.
    assert!(
        variance > 100.0,
        "the screenshot looks blank (variance {variance:.1})"
    );
    // Enough pixels are neither white nor grey: the verdicts' colours.
    let coloured = pixels[..info.buffer_size()]
        .chunks(channels)
        .filter(|p| p[0].abs_diff(p[1]) > 60 || p[1].abs_diff(p[2]) > 60)
        .count();
    assert!(coloured > 500, "{coloured} coloured pixels");
}
