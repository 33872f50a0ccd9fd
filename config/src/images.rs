//! Addresses of resized car photos from `images.url_template` (docs/behaviour/content.md §7:
//! the image host's width and quality parameters, default 640 / 75).
//!
//! The site builds these addresses in the browser too (search cards are
//! drawn there): `astro-app/src/lib/images.ts` is the same rule, and both
//! are pinned by `rules/vectors/images.json`.

/// The placeholders a template may use.
pub const PLACEHOLDERS: [&str; 5] = ["url", "base", "ext", "width", "quality"];

/// A piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Url,
    Base,
    Ext,
    Width,
    Quality,
}

/// Why a template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// `{name}` is not one of [`PLACEHOLDERS`].
    Unknown(String),
    /// A `{` without its `}` (or the other way round).
    Unbalanced,
    /// No `{width}`: every size would be the same photo.
    NoWidth,
    /// Neither `{url}` nor `{base}`: every car would get the same photo.
    NoPhoto,
    /// A character no address may contain (quotes, spaces, angle brackets).
    Char(char),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::Unknown(name) => write!(f, "`{{{name}}}` is not a placeholder"),
            TemplateError::Unbalanced => write!(f, "a `{{` or `}}` has no partner"),
            TemplateError::NoWidth => write!(f, "the template has no `{{width}}`"),
            TemplateError::NoPhoto => {
                write!(f, "the template has neither `{{url}}` nor `{{base}}`")
            }
            TemplateError::Char(c) => write!(f, "the template contains `{}`", c.escape_default()),
        }
    }
}

fn parse(template: &str) -> Result<Vec<Part>, TemplateError> {
    if let Some(c) = template.chars().find(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`' | '\\')
    }) {
        return Err(TemplateError::Char(c));
    }
    let mut parts = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        match (rest.find('{'), rest.find('}')) {
            (None, None) => {
                parts.push(Part::Text(rest.to_string()));
                break;
            }
            (Some(open), Some(close)) if open < close => {
                if open > 0 {
                    parts.push(Part::Text(rest[..open].to_string()));
                }
                let name = &rest[open + 1..close];
                parts.push(match name {
                    "url" => Part::Url,
                    "base" => Part::Base,
                    "ext" => Part::Ext,
                    "width" => Part::Width,
                    "quality" => Part::Quality,
                    _ if name.contains('{') => return Err(TemplateError::Unbalanced),
                    _ => return Err(TemplateError::Unknown(name.to_string())),
                });
                rest = &rest[close + 1..];
            }
            _ => return Err(TemplateError::Unbalanced),
        }
    }
    if !parts.contains(&Part::Width) {
        return Err(TemplateError::NoWidth);
    }
    if !parts.iter().any(|p| matches!(p, Part::Url | Part::Base)) {
        return Err(TemplateError::NoPhoto);
    }
    Ok(parts)
}

/// Checks a template as the dealer file's check does.
pub fn check_template(template: &str) -> Result<(), TemplateError> {
    parse(template).map(|_| ())
}

/// Vector drawings need no resizing; data URLs cannot take parameters.
fn resizable(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    !(url.is_empty() || url.starts_with("data:") || path.to_ascii_lowercase().ends_with(".svg"))
}

/// The photo address without its query and fragment, split at the last dot
/// of its last path segment: ("/a/photo", "jpg"). None without an extension.
fn split_ext(url: &str) -> Option<(&str, &str)> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    let dot = path[name_start..].rfind('.')? + name_start;
    let ext = &path[dot + 1..];
    (dot > name_start && !ext.is_empty()).then(|| (&path[..dot], ext))
}

/// The address of `url` resized to `width` at `quality`, or `url` itself when
/// there is no template, the photo is a vector drawing, or the template needs
/// a file extension the address has none of.
pub fn photo_url(template: Option<&str>, url: &str, width: u32, quality: u8) -> String {
    let Some(parts) = template.and_then(|t| parse(t).ok()) else {
        return url.to_string();
    };
    if !resizable(url) {
        return url.to_string();
    }
    let split = split_ext(url);
    if split.is_none() && parts.iter().any(|p| matches!(p, Part::Base | Part::Ext)) {
        return url.to_string();
    }
    let mut out = String::with_capacity(url.len() + 24);
    let mut after_url = false;
    for part in &parts {
        match part {
            Part::Text(t) => {
                // "{url}?w=..." on an address that already has a query string.
                if after_url && t.starts_with('?') && url.contains('?') {
                    out.push('&');
                    out.push_str(&t[1..]);
                } else {
                    out.push_str(t);
                }
            }
            Part::Url => out.push_str(url),
            Part::Base => out.push_str(split.map_or(url, |s| s.0)),
            Part::Ext => out.push_str(split.map_or("", |s| s.1)),
            Part::Width => out.push_str(&width.to_string()),
            Part::Quality => out.push_str(&quality.to_string()),
        }
        after_url = matches!(part, Part::Url);
    }
    out
}

/// `srcset` of `url` at each of `widths` ("a-480.jpg 480w, a-960.jpg 960w"),
/// or None when the photo is used as it is (no template, a vector drawing).
pub fn srcset(template: Option<&str>, url: &str, widths: &[u32], quality: u8) -> Option<String> {
    let first = photo_url(template, url, widths.first().copied()?, quality);
    if first == url {
        return None;
    }
    Some(
        widths
            .iter()
            .map(|w| format!("{} {w}w", photo_url(template, url, *w, quality)))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_parsed_strictly() {
        assert_eq!(check_template("{url}?w={width}&q={quality}"), Ok(()));
        assert_eq!(check_template("{base}-{width}.{ext}"), Ok(()));
        assert_eq!(
            check_template("{url}?w={widht}"),
            Err(TemplateError::Unknown("widht".into()))
        );
        assert_eq!(
            check_template("{url}?w={width"),
            Err(TemplateError::Unbalanced)
        );
        assert_eq!(
            check_template("{url}?w=width}"),
            Err(TemplateError::Unbalanced)
        );
        assert_eq!(
            check_template("{url}?q={quality}"),
            Err(TemplateError::NoWidth)
        );
        assert_eq!(
            check_template("https://img.example/{width}.jpg"),
            Err(TemplateError::NoPhoto)
        );
        assert_eq!(
            check_template("{url}?w= {width}"),
            Err(TemplateError::Char(' '))
        );
    }

    #[test]
    fn without_a_usable_template_the_photo_is_used_as_it_is() {
        assert_eq!(photo_url(None, "/a.jpg", 640, 75), "/a.jpg");
        assert_eq!(photo_url(Some("{nope}"), "/a.jpg", 640, 75), "/a.jpg");
        assert_eq!(srcset(None, "/a.jpg", &[480, 960], 75), None);
        assert_eq!(srcset(Some("{url}?w={width}"), "/a.jpg", &[], 75), None);
    }
}
