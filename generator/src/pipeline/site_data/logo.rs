//! The logo's intrinsic size, read from its file in the site's public
//! files, so the header's `<img>` carries its real width and height: the
//! browser then reserves the logo's exact room before it loads, and the
//! header does not move (a wider logo than the room guessed pushed the
//! main menu onto a second line after load: a layout shift of 0.6 on a
//! 1,280 px screen).

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

/// A picture's width and height in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ImageSize {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// How much of a file is read for its size: the headers and an SVG's root
/// element are near the start; a hostile file costs no more than this.
const HEAD: u64 = 64 * 1024;

/// The size of the logo at site path `logo` ("/images/brand/x.svg") in
/// `public`; None for a remote logo (an image host's: not fetched at build
/// time), a missing or unreadable file, or one without a size.
pub fn intrinsic_size(public: &Path, logo: &str) -> Option<ImageSize> {
    let rel = logo.strip_prefix('/')?;
    if rel.starts_with('/') || rel.split('/').any(|p| p == ".." || p.is_empty()) {
        return None;
    }
    let mut head = Vec::new();
    use std::io::Read;
    std::fs::File::open(public.join(rel))
        .ok()?
        .take(HEAD)
        .read_to_end(&mut head)
        .ok()?;
    if rel.to_ascii_lowercase().ends_with(".svg") {
        return svg_size(&String::from_utf8_lossy(&head));
    }
    let size = imagesize::blob_size(&head).ok()?;
    Some(ImageSize {
        width: u32::try_from(size.width).ok()?,
        height: u32::try_from(size.height).ok()?,
    })
    .filter(|s| s.width > 0 && s.height > 0)
}

/// An SVG's size: its root element's `width` and `height` (in px or
/// without a unit), else its `viewBox`'s. Only the proportion matters to
/// the page (CSS sets the drawn height).
fn svg_size(text: &str) -> Option<ImageSize> {
    let start = text.find("<svg")?;
    let end = start + text[start..].find('>')?;
    let tag = &text[start..end];
    let attr = |name: &str| -> Option<&str> {
        let re = regex::Regex::new(&format!(r#"(?:^|\s){name}\s*=\s*["']([^"']*)["']"#)).ok()?;
        re.captures(tag).and_then(|c| c.get(1)).map(|m| m.as_str())
    };
    let px = |v: &str| -> Option<f64> {
        let v = v.trim();
        let n = v.strip_suffix("px").unwrap_or(v).trim();
        n.parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0)
    };
    let round = |n: f64| -> Option<u32> {
        let r = n.round();
        (r >= 1.0 && r <= f64::from(u32::MAX)).then_some(r as u32)
    };
    if let (Some(w), Some(h)) = (attr("width").and_then(px), attr("height").and_then(px)) {
        return Some(ImageSize {
            width: round(w)?,
            height: round(h)?,
        });
    }
    let view: Vec<f64> = attr("viewBox")?
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<f64>().ok())
        .collect::<Option<_>>()?;
    match view[..] {
        [_, _, w, h] if w > 0.0 && h > 0.0 => Some(ImageSize {
            width: round(w)?,
            height: round(h)?,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(width: u32, height: u32) -> Option<ImageSize> {
        Some(ImageSize { width, height })
    }

    #[test]
    fn an_svg_gives_its_width_and_height_else_its_view_box() {
        assert_eq!(
            svg_size(
                r#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 52 12" width="520" height="120">"#
            ),
            size(520, 120)
        );
        assert_eq!(
            svg_size(r#"<svg width="300px" height='75px'>"#),
            size(300, 75)
        );
        assert_eq!(
            svg_size(r#"<svg viewBox="0,0,400.4,99.6">"#),
            size(400, 100)
        );
        // Percentages or ems say nothing of the proportion: the viewBox does.
        assert_eq!(
            svg_size(r#"<svg width="100%" height="100%" viewBox="0 0 5 1">"#),
            size(5, 1)
        );
        assert_eq!(svg_size(r#"<svg width="100%">"#), None);
        assert_eq!(svg_size(r#"<svg viewBox="0 0 0 10">"#), None);
        assert_eq!(svg_size("not a picture"), None);
    }

    #[test]
    fn files_are_read_from_the_public_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        let brand = dir.path().join("images/brand");
        std::fs::create_dir_all(&brand).unwrap();
        std::fs::write(brand.join("a.svg"), r#"<svg viewBox="0 0 520 120"></svg>"#).unwrap();
        // A 3 x 2 PNG: the signature and the IHDR chunk are all a size needs.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(3u32.to_be_bytes());
        png.extend(2u32.to_be_bytes());
        png.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
        std::fs::write(brand.join("b.png"), png).unwrap();
        std::fs::write(brand.join("c.png"), b"garbage").unwrap();
        assert_eq!(
            intrinsic_size(dir.path(), "/images/brand/a.svg"),
            size(520, 120)
        );
        assert_eq!(
            intrinsic_size(dir.path(), "/images/brand/b.png"),
            size(3, 2)
        );
        assert_eq!(intrinsic_size(dir.path(), "/images/brand/c.png"), None);
        assert_eq!(intrinsic_size(dir.path(), "/images/brand/none.svg"), None);
        assert_eq!(
            intrinsic_size(dir.path(), "https://cdn.example/logo.svg"),
            None
        );
        assert_eq!(intrinsic_size(dir.path(), "/../secret.svg"), None);
        assert_eq!(intrinsic_size(dir.path(), "//cdn.example/logo.svg"), None);
    }
}
