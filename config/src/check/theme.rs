//! Branding: colours are CSS hex colours, the logo an image that loads.

use crate::model::Theme;

use super::urls::check_image;
use super::{root, Ctx};

pub(super) fn check(theme: &Theme, cx: &mut Ctx) {
    for (key, value) in [
        ("primary", &theme.primary),
        ("on_primary", &theme.on_primary),
        ("accent", &theme.accent),
        ("background", &theme.background),
        ("text", &theme.text),
    ] {
        let hex = value.strip_prefix('#').unwrap_or("");
        if !(matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit())) {
            cx.err(
                &root().key("theme").key(key),
                format!("`{value}` is not a colour"),
            )
            .expected = Some(
                "a hex colour such as \"#0b3d91\" (in quotes: # starts a YAML comment)".into(),
            );
        }
    }
    check_image(&theme.logo, &root().key("theme").key("logo"), cx);
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn colours_are_hex() {
        for bad in ["navy", "#12345", "#ggg", "0b3d91"] {
            let p = problem_at(&format!("theme: {{ accent: \"{bad}\" }}\n"), "theme.accent");
            assert_eq!(p.message, format!("`{bad}` is not a colour"));
        }
        accepted("theme: { primary: \"#0B3D91\", text: \"#111\" }\n");
    }
}
