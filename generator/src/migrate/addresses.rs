//! The old site's addresses, from what a platform team has at hand: the
//! old site's sitemap.xml, a crawler's CSV export (a column named URL,
//! Address or Loc), or a plain list, one address a line. Full URLs or
//! site paths; each becomes the path and query string the new site is
//! asked for (the old host does not matter: the domain moves).

use anyhow::{bail, Context, Result};

/// One address: as the file has it, and the path with its query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub url: String,
    pub path_and_query: String,
    /// Its line in the file (GitHub annotations point at it).
    pub line: usize,
}

/// Most addresses read from one file: a sitemap holds at most 50,000.
pub const MAX_ADDRESSES: usize = 50_000;

pub fn read(file: &std::path::Path) -> Result<Vec<Address>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    parse(&text).with_context(|| format!("{}", file.display()))
}

pub fn parse(text: &str) -> Result<Vec<Address>> {
    let text = text.trim_start_matches('\u{feff}');
    let raw: Vec<(usize, String)> = if text.trim_start().starts_with('<') {
        sitemap(text)?
    } else if let Some(column) = csv_column(text) {
        csv_rows(text, column)?
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim().to_string()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect()
    };
    if raw.len() > MAX_ADDRESSES {
        bail!(
            "{} addresses: at most {MAX_ADDRESSES} a file (a sitemap's own limit); split the list",
            raw.len()
        );
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut seen = std::collections::HashSet::new();
    for (line, url) in raw {
        let path_and_query = path_of(&url).with_context(|| format!("line {line}: `{url}`"))?;
        if seen.insert(path_and_query.clone()) {
            out.push(Address {
                url,
                path_and_query,
                line,
            });
        }
    }
    if out.is_empty() {
        bail!("no addresses in it (a sitemap.xml, a CSV with a URL column, or one address a line)");
    }
    Ok(out)
}

/// The path and query of a full URL or a site path.
fn path_of(url: &str) -> Result<String> {
    if url.starts_with('/') && !url.starts_with("//") {
        let without_hash = url.split('#').next().unwrap_or(url);
        return Ok(without_hash.to_string());
    }
    let parsed = url::Url::parse(url).map_err(|e| {
        anyhow::anyhow!("not an address ({e}): write a full URL or a path starting with /")
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        bail!("not a web address (a {}: address)", parsed.scheme());
    }
    Ok(match parsed.query() {
        Some(q) => format!("{}?{q}", parsed.path()),
        None => parsed.path().to_string(),
    })
}

/// The `<loc>`s of a sitemap (their line numbers); a sitemap index is refused.
fn sitemap(text: &str) -> Result<Vec<(usize, String)>> {
    if text.contains("<sitemapindex") {
        bail!("a sitemap index: give one of the sitemaps it lists (each <loc> in it), or a list of them joined");
    }
    if !text.contains("<urlset") {
        bail!("XML but not a sitemap (no <urlset>)");
    }
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(start) = rest.find("<loc>") {
        let after = &rest[start + 5..];
        let end = after.find("</loc>").context("a <loc> without its </loc>")?;
        let line = text[..offset + start].matches('\n').count() + 1;
        let loc = after[..end]
            .trim()
            .trim_start_matches("<![CDATA[")
            .trim_end_matches("]]>");
        out.push((line, unescape(loc)));
        let consumed = start + 5 + end + 6;
        offset += consumed;
        rest = &rest[consumed..];
    }
    Ok(out)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The index of the URL column when the first line is a CSV header with one.
fn csv_column(text: &str) -> Option<usize> {
    let header = text.lines().next()?;
    if !header.contains(',') && !header.contains('\t') {
        return None;
    }
    cells(header).iter().position(|c| {
        matches!(
            c.trim().to_ascii_lowercase().as_str(),
            "url" | "address" | "loc" | "page" | "page url"
        )
    })
}

fn csv_rows(text: &str, column: usize) -> Result<Vec<(usize, String)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let row = cells(line);
        let cell = row.get(column).map(|c| c.trim()).unwrap_or("");
        if cell.is_empty() {
            bail!("line {}: no address in the URL column", i + 1);
        }
        out.push((i + 1, cell.to_string()));
    }
    Ok(out)
}

/// The cells of one CSV line (commas or tabs; quoted cells with doubled quotes).
fn cells(line: &str) -> Vec<String> {
    let sep = if line.contains('\t') && !line.contains(',') {
        '\t'
    } else {
        ','
    };
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    out.push(cell);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sitemap_a_crawl_and_a_list_give_paths() {
        let sitemap = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://old.example.com.au/about</loc></url>\n<url><loc>https://old.example.com.au/models?body=suv&amp;x=1</loc></url>\n</urlset>\n";
        let got: Vec<String> = parse(sitemap)
            .unwrap()
            .into_iter()
            .map(|a| a.path_and_query)
            .collect();
        assert_eq!(got, ["/about", "/models?body=suv&x=1"]);
        let crawl = "\"Address\",\"Status Code\"\n\"https://old.example/buying\",\"200\"\n\"https://old.example/a,b\",\"404\"\n";
        let got: Vec<String> = parse(crawl)
            .unwrap()
            .into_iter()
            .map(|a| a.path_and_query)
            .collect();
        assert_eq!(got, ["/buying", "/a,b"]);
        let list = "# old site\n/diamond-advantage\nhttps://old.example/print?car_id=7#top\n\n/diamond-advantage\n";
        let got = parse(list).unwrap();
        assert_eq!(got.len(), 2, "repeats once");
        assert_eq!(got[1].path_and_query, "/print?car_id=7");
        assert_eq!(got[1].url, "https://old.example/print?car_id=7#top");
    }

    #[test]
    fn what_is_no_address_is_said_with_its_line() {
        let e = parse("/a\nmailto:x@y.example\n").unwrap_err();
        assert!(
            format!("{e:#}").starts_with("line 2: `mailto:x@y.example`: not a web address"),
            "{e:#}"
        );
        let e =
            parse("<sitemapindex><sitemap><loc>https://x/s1.xml</loc></sitemap></sitemapindex>")
                .unwrap_err();
        assert!(e.to_string().contains("sitemap index"));
        assert!(parse("\n# nothing\n").is_err());
    }
}
