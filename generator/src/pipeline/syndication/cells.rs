//! One value as a cell of a tab- or comma-separated feed: nothing in a
//! dealer's text can end a cell or a row, and nothing a spreadsheet would
//! run as a formula stays one (OWASP's CSV injection advice: a cell that
//! begins with `=`, `+`, `-` or `@` gets a leading `'`).

/// Control characters (tabs, line breaks) become spaces, runs of spaces
/// one, and a formula's first character is neutralised.
pub fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut space = false;
    for c in value.chars() {
        if c.is_control() || c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    if out.starts_with(['=', '+', '-', '@']) {
        out.insert(0, '\'');
    }
    out
}

/// At most `max` characters (the platforms' limits), cut at a word where
/// one is near.
pub fn cut(value: String, max: usize) -> String {
    if value.chars().count() <= max {
        return value;
    }
    let head: String = value.chars().take(max).collect();
    match head.rfind(' ') {
        Some(i) if i > max / 2 => head[..i].to_string(),
        _ => head,
    }
}

/// A TSV row: cells are already free of tabs and line breaks (`text`).
pub fn tsv_row(cells: &[String]) -> String {
    debug_assert!(cells.iter().all(|c| !c.contains(['\t', '\n', '\r'])));
    cells.join("\t") + "\n"
}

/// A CSV row (RFC 4180): a cell with a comma, a quote or a space at its
/// ends is quoted, quotes doubled.
pub fn csv_row(cells: &[String]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\n', '\r']) || c.starts_with(' ') || c.ends_with(' ') {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect();
    quoted.join(",") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_dealer_text_ends_a_cell_or_a_row() {
        assert_eq!(text("Low\tkms\r\n one\u{2028}owner "), "Low kms one owner");
        assert_eq!(
            csv_row(&["a,b".into(), "say \"hi\"".into(), "c".into()]),
            "\"a,b\",\"say \"\"hi\"\"\",c\n"
        );
        assert_eq!(tsv_row(&[text("x\ty"), "z".into()]), "x y\tz\n");
    }

    #[test]
    fn a_formula_is_neutralised() {
        for hostile in [
            "=HYPERLINK(\"http://x\")",
            "+1",
            "-2+3",
            "@SUM(A1)",
            " \t=1",
        ] {
            assert!(text(hostile).starts_with('\''), "{hostile}");
        }
        assert_eq!(text("Kia = value"), "Kia = value");
    }

    #[test]
    fn a_long_value_is_cut_at_a_word() {
        assert_eq!(cut("one two three".into(), 9), "one two");
        assert_eq!(cut("short".into(), 9), "short");
        assert_eq!(cut("ééééé".into(), 3), "ééé");
    }
}
