//! Hostile dealer files through the real `dealergen check`: a marketer's
//! pull request must never hang or kill CI. Each file is refused with exit
//! code 1 and a located message. The binary runs under a 2 GiB address-space
//! limit (a billion-laughs expansion needs far more and would be killed,
//! failing the exit-code assertion) and a watchdog that turns a hang into a
//! failure instead of a stuck test run.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::repo_root;

/// The tiny fixture dealer, which passes `check` as it is.
fn tiny_dealer() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers/tiny-dealer.yaml");
    std::fs::read_to_string(path).unwrap()
}

/// What `dealergen check --format json` said about one dealer file.
struct Checked {
    exit: Option<i32>,
    diagnostics: Vec<Value>,
}

impl Checked {
    /// The only diagnostic; fails the test when there is not exactly one.
    fn only(&self) -> &Value {
        assert_eq!(self.exit, Some(1), "refused with exit code 1");
        assert_eq!(self.diagnostics.len(), 1, "{:#?}", self.diagnostics);
        &self.diagnostics[0]
    }
}

/// Writes `text` as dealers/<slug>.yaml in a fresh folder (with the tiny
/// dealer's stock feed) and runs `dealergen check --dealer <slug>` on it.
fn check(slug: &str, text: &[u8]) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    let stock = dir.path().join("stock");
    std::fs::create_dir(&stock).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers/stock/tiny.json"),
        stock.join("tiny.json"),
    )
    .unwrap();
    std::fs::write(dir.path().join(format!("{slug}.yaml")), text).unwrap();
    let out = run_bounded(dir.path(), &["check", "--dealer", slug, "--format", "json"]);
    let json: Value =
        serde_json::from_str(&out.1).unwrap_or_else(|e| panic!("JSON output ({e}): {}", out.1));
    assert_eq!(json[0]["dealer"], slug);
    Checked {
        exit: out.0,
        diagnostics: json[0]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
    }
}

/// Runs the binary with a memory limit and a watchdog; returns the exit
/// code and stdout.
fn run_bounded(dealers: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        // 2 GiB of address space: plenty for a dealer check (tens of MB),
        // far too little for an alias bomb's expansion.
        .arg("ulimit -v 2097152 && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo_root())
        .arg("--dealers-dir")
        .arg(dealers)
        .args(args)
        .current_dir(dealers)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dealergen runs");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    // Not a speed assertion (that is the bench's job): a hang must fail the
    // test rather than stall CI. A refused file takes milliseconds.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("dealergen check {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code(), reader.join().unwrap())
}

fn line_count(s: &str) -> u64 {
    s.lines().count() as u64
}

#[test]
fn an_alias_bomb_appended_to_a_valid_file_is_refused_at_its_line() {
    let valid = tiny_dealer();
    assert_eq!(check("tiny-dealer", valid.as_bytes()).exit, Some(0));
    // The "billion laughs": 9 levels of 9 aliases, 387 million values.
    let mut bomb = String::from("lol0: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (i, (prev, name)) in "abcdefgh".chars().zip("bcdefghi".chars()).enumerate() {
        let refs = vec![format!("*{prev}"); 9].join(", ");
        bomb.push_str(&format!("lol{}: &{name} [{refs}]\n", i + 1));
    }
    assert!(bomb.len() < 500, "a few hundred bytes: {}", bomb.len());
    let checked = check("bomb-dealer", format!("{valid}{bomb}").as_bytes());
    let d = checked.only();
    assert!(d["message"].as_str().unwrap().contains("aliases"), "{d:#}");
    // Expansion stops at the first alias past the budget: the 5th bomb line
    // (`lol4: &e [*d, ...]`, the 820 values each `*d` copies pass 10,000).
    assert_eq!(d["line"], line_count(&valid) + 5, "{d:#}");
    assert_eq!(d["column"], 11, "the first `*d`");
    assert_eq!(d["file"], "bomb-dealer.yaml");
}

#[test]
fn deep_nesting_is_refused_at_its_line() {
    let valid = tiny_dealer();
    let deep = format!("{valid}deep:\n{}x\n", "- ".repeat(500_000));
    let d = check("deep-dealer", deep.as_bytes()).only().clone();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("nested more than 32 levels"),
        "{d:#}"
    );
    assert_eq!(d["line"], line_count(&valid) + 2);
    // Flow brackets too.
    let deep = format!("{valid}deep: {}{}\n", "[".repeat(200), "]".repeat(200));
    let d = check("deep-dealer", deep.as_bytes()).only().clone();
    assert!(d["message"].as_str().unwrap().contains("nested more than"));
    assert_eq!(d["line"], line_count(&valid) + 1);
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let mut big = tiny_dealer();
    let line = format!("# {}\n", "padding ".repeat(12));
    while big.len() <= 2 * 1024 * 1024 {
        big.push_str(&line);
    }
    let d = check("big-dealer", big.as_bytes()).only().clone();
    assert_eq!(d["line"], 1);
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("larger than 1024 KB"),
        "{d:#}"
    );
}

#[test]
fn a_file_that_is_not_utf8_is_refused() {
    let mut text = tiny_dealer().into_bytes();
    text.extend_from_slice(b"footer: { legal_text: \"caf\xe9\" }\n");
    let d = check("latin1-dealer", &text).only().clone();
    assert!(
        d["message"].as_str().unwrap().contains("not UTF-8"),
        "{d:#}"
    );
    assert!(d["hint"].as_str().unwrap().contains("UTF-8"));
}

/// The tiny dealer with one line replaced; returns the text and the
/// replaced line's number.
fn with_line(old: &str, new: &str) -> (String, u64) {
    let valid = tiny_dealer();
    let line = valid
        .lines()
        .position(|l| l == old)
        .unwrap_or_else(|| panic!("`{old}` is in the tiny dealer")) as u64
        + 1;
    (valid.replacen(old, new, 1), line)
}

#[test]
fn unclosed_brackets_and_quotes_are_reported_where_they_open() {
    for (old, new, column, what) in [
        (
            "  exclude: { makes: [Lada] }",
            "  exclude:\n    makes: [Lada, Haval",
            12,
            "`[` here is never closed",
        ),
        (
            "contact: { phone: (07) 3000 0001, email: sales@tinymotors.com.au }",
            "contact: { phone: (07) 3000 0001, email: sales@tinymotors.com.au",
            10,
            "`{` here is never closed",
        ),
        (
            "name: Tiny Motors",
            "name: \"Tiny Motors",
            7,
            "quote opened here is never closed",
        ),
    ] {
        let (text, mut line) = with_line(old, new);
        if new.contains('\n') {
            line += 1; // the bracket is on the added line
        }
        let d = check("unclosed-dealer", text.as_bytes()).only().clone();
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(line), Some(column)),
            "{new}: {d:#}"
        );
        assert!(
            d["message"].as_str().unwrap().contains(what),
            "{new}: {d:#}"
        );
    }
}

#[test]
fn human_output_names_file_line_and_the_opening_bracket() {
    let (text, line) = with_line(
        "  exclude: { makes: [Lada] }",
        "  exclude:\n    makes: [Lada, Haval",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bracket-dealer.yaml"), text).unwrap();
    let (exit, out) = run_bounded(dir.path(), &["check", "--dealer", "bracket-dealer"]);
    assert_eq!(exit, Some(1));
    assert!(
        out.contains(&format!("--> bracket-dealer.yaml:{}:12", line + 1)),
        "{out}"
    );
    assert!(out.contains("hint: close the list with `]`"), "{out}");
}
