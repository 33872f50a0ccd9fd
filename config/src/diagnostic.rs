//! Problems found in a dealer file, and the three ways of printing them:
//! for people in a terminal, as GitHub workflow annotations (so a marketer
//! sees the problem on the line of their pull request) and as JSON.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::yaml::{FileId, Span};

/// The files a dealer is made of: the dealer file and its preset.
#[derive(Debug, Clone, Default)]
pub struct SourceFiles {
    files: Vec<(PathBuf, String)>,
}

impl SourceFiles {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.files.push((path, text));
        self.files.len() - 1
    }
    pub fn path(&self, id: FileId) -> &PathBuf {
        &self.files[id].0
    }
    pub fn text(&self, id: FileId) -> &str {
        &self.files[id].1
    }
    pub fn text_of(&self, path: &std::path::Path) -> Option<&str> {
        self.files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, located.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// File as given on the command line or found by `--all`, e.g. "dealers/x.yaml".
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    /// YAML key path, e.g. "locations[1].hours.sales.mon"; empty for the whole file.
    pub key: String,
    pub message: String,
    /// What would have been accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// A problem before it is tied to a file: what the checks produce.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    pub span: Span,
    pub key: String,
    pub message: String,
    pub expected: Option<String>,
    pub hint: Option<String>,
    pub severity: Severity,
}

impl Problem {
    pub fn error(span: Span, key: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            span,
            key: key.into(),
            message: message.into(),
            expected: None,
            hint: None,
            severity: Severity::Error,
        }
    }
    pub fn warning(span: Span, key: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            ..Problem::error(span, key, message)
        }
    }
    pub fn expected(mut self, e: impl Into<String>) -> Self {
        self.expected = Some(e.into());
        self
    }
    pub fn hint(mut self, h: impl Into<String>) -> Self {
        self.hint = Some(h.into());
        self
    }
    pub fn hint_opt(mut self, h: Option<String>) -> Self {
        self.hint = h;
        self
    }

    pub fn locate(self, files: &SourceFiles) -> Diagnostic {
        Diagnostic {
            severity: self.severity,
            file: files.path(self.span.file).clone(),
            line: self.span.line,
            column: self.span.col,
            key: self.key,
            message: self.message,
            expected: self.expected,
            hint: self.hint,
        }
    }
}

/// Renders for a terminal, with the offending line of the file underlined.
pub fn render_human(diags: &[Diagnostic], files: &SourceFiles) -> String {
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{level}: {}", d.message);
        let _ = writeln!(out, "  --> {}:{}:{}", d.file.display(), d.line, d.column);
        if let Some(line) = files
            .text_of(&d.file)
            .and_then(|t| t.lines().nth(d.line.saturating_sub(1)))
        {
            let num = d.line.to_string();
            let pad = " ".repeat(num.len());
            let (line, column) = window(line, d.column);
            let width = underline_width(&line, column);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{num} | {line}");
            let _ = writeln!(
                out,
                "{pad} | {}{}",
                " ".repeat(column.saturating_sub(1)),
                "^".repeat(width)
            );
        }
        if !d.key.is_empty() {
            let _ = writeln!(out, "   = key: {}", d.key);
        }
        if let Some(e) = &d.expected {
            let _ = writeln!(out, "   = expected: {e}");
        }
        if let Some(h) = &d.hint {
            let _ = writeln!(out, "   = hint: {h}");
        }
        out.push('\n');
    }
    out
}

/// Characters of a line the terminal shows at most, and how many of them
/// come before the problem's column when the line is cut.
const WINDOW: usize = 120;
const BEFORE: usize = 40;

/// The part of `line` shown for a problem at `col` (1-based, in
/// characters), and the column within it: a long line (a minified value, a
/// 40,000-character flow mapping) is cut to [`WINDOW`] characters around
/// the column, "…" marking each cut, instead of filling the terminal.
fn window(line: &str, col: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= WINDOW {
        return (line.to_string(), col);
    }
    let at = col.saturating_sub(1).min(chars.len());
    let start = at.saturating_sub(BEFORE);
    let end = (start + WINDOW).min(chars.len());
    let mut text = String::new();
    let mut column = at - start + 1;
    if start > 0 {
        text.push('…');
        column += 1;
    }
    text.extend(&chars[start..end]);
    if end < chars.len() {
        text.push('…');
    }
    (text, column)
}

/// Underlines the token starting at `col` (to the end of a key or value).
fn underline_width(line: &str, col: usize) -> usize {
    let rest: String = line.chars().skip(col.saturating_sub(1)).collect();
    // A quoted value: underline up to its closing quote.
    if let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') {
        if let Some(end) = rest[1..].find(q) {
            return rest[..end + 2].chars().count();
        }
    }
    let token = rest
        .split([':', ',', '}', ']', '#'])
        .next()
        .unwrap_or("")
        .trim_end();
    token.chars().count().clamp(1, 60)
}

/// GitHub workflow commands: `::error file=...,line=...,col=...::message`.
pub fn render_github(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut msg = d.message.clone();
        if let Some(e) = &d.expected {
            let _ = write!(msg, " (expected: {e})");
        }
        if let Some(h) = &d.hint {
            let _ = write!(msg, ". Hint: {h}");
        }
        let title = if d.key.is_empty() {
            "dealer config".to_string()
        } else {
            d.key.clone()
        };
        let _ = writeln!(
            out,
            "::{level} file={},line={},col={},title={}::{}",
            escape_property(&d.file.display().to_string()),
            d.line,
            d.column,
            escape_property(&title),
            escape_data(&msg)
        );
    }
    out
}

// Escaping rules of GitHub workflow commands.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render_json(diags: &[Diagnostic]) -> String {
    serde_json::to_string_pretty(diags).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag() -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: "dealers/x.yaml".into(),
            line: 2,
            column: 3,
            key: "stock.feeds".into(),
            message: "unknown key `feeds` in `stock`".into(),
            expected: None,
            hint: Some("did you mean `feed`?".into()),
        }
    }

    #[test]
    fn github_annotation_names_file_line_and_column() {
        let out = render_github(&[diag()]);
        assert_eq!(
            out,
            "::error file=dealers/x.yaml,line=2,col=3,title=stock.feeds::unknown key `feeds` in `stock`. Hint: did you mean `feed`?\n"
        );
    }

    #[test]
    fn github_escapes_newlines_and_commas() {
        let mut d = diag();
        d.message = "a\nb, 100%".into();
        d.hint = None;
        d.key = "a,b".into();
        assert!(render_github(&[d]).contains("title=a%2Cb::a%0Ab, 100%25"));
    }

    #[test]
    fn a_long_line_is_cut_around_the_problem() {
        let mut files = SourceFiles::default();
        let long = format!("home: {{ hero_title: {}, bad_key: 1 }}", "x".repeat(40_000));
        files.add("dealers/x.yaml".into(), format!("name: X\n{long}\n"));
        let mut d = diag();
        d.column = long.find("bad_key").unwrap() + 1;
        let out = render_human(&[d], &files);
        assert!(out.len() < 600, "{} characters:\n{out}", out.len());
        let shown = out.lines().find(|l| l.starts_with("2 | ")).unwrap();
        let caret = out.lines().find(|l| l.contains('^')).unwrap();
        assert!(
            shown.starts_with("2 | …x") && shown.ends_with("bad_key: 1 }"),
            "{shown}"
        );
        // The caret sits under the key, in characters ("…" is one).
        let at = caret.find('^').unwrap() - "  | ".len();
        assert_eq!(
            shown
                .chars()
                .skip("2 | ".len() + at)
                .take(7)
                .collect::<String>(),
            "bad_key"
        );
        assert_eq!(caret.matches('^').count(), "bad_key".len());
        // A short line is shown whole.
        assert_eq!(window("stock:", 1), ("stock:".to_string(), 1));
    }

    #[test]
    fn human_output_underlines_the_key() {
        let mut files = SourceFiles::default();
        files.add("dealers/x.yaml".into(), "stock:\n  feeds: a.json\n".into());
        let out = render_human(&[diag()], &files);
        assert!(out.contains("2 |   feeds: a.json\n  |   ^^^^^\n"), "{out}");
        assert!(out.contains("--> dealers/x.yaml:2:3"));
    }
}
