//! Site paths as files: a link's or a photo's path with its %XX escapes
//! decoded, as the publish step's link check and the stock's photo check
//! both look them up among a site's files.

/// Decodes %XX escapes (UTF-8); None for a broken escape.
pub fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn escapes_are_decoded_and_a_broken_one_is_none() {
        assert_eq!(
            percent_decode("/a%20b/%C3%A9.jpg").as_deref(),
            Some("/a b/é.jpg")
        );
        assert_eq!(percent_decode("/plain").as_deref(), Some("/plain"));
        assert_eq!(percent_decode("/bad%2"), None);
        assert_eq!(percent_decode("/bad%zz"), None);
        assert_eq!(percent_decode("/not-utf8%ff"), None);
    }
}
