//! URL slugs made from dealer text: location pages (/contact-us/{slug}), model
//! pages (/models/{slug}) and
//! the make, model and body landing pages use the same rule, so a link built
//! anywhere matches the page built elsewhere.

use crate::model::{Location, Model};

/// "Brisbane Motor Group Newstead" → "brisbane-motor-group-newstead":
/// ASCII letters and digits in lower case, every other run of characters
/// one `-`, none at either end.
pub fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// /contact-us/{slug}: the explicit slug, else the name without a trailing
/// Sales, Service or Parts (docs/behaviour/content.md, locations), in kebab case.
pub fn location_slug(loc: &Location) -> String {
    if let Some(s) = &loc.slug {
        return s.clone();
    }
    let mut name = loc.name.trim();
    for suffix in [" Sales", " Service", " Parts"] {
        if let Some(stripped) = name.strip_suffix(suffix) {
            name = stripped.trim_end();
            break;
        }
    }
    kebab(name)
}

/// /models/{slug}/: the explicit slug, else the name in kebab case.
pub fn model_slug(m: &Model) -> String {
    m.slug.clone().unwrap_or_else(|| kebab(&m.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_keeps_letters_and_digits_only() {
        assert_eq!(
            kebab("Brisbane Motor Group Newstead"),
            "brisbane-motor-group-newstead"
        );
        assert_eq!(kebab("  Land  Cruiser 70 "), "land-cruiser-70");
        assert_eq!(kebab("C-HR / GR86!"), "c-hr-gr86");
        assert_eq!(kebab("Škoda"), "koda");
        assert_eq!(kebab("---"), "");
    }

    #[test]
    fn location_slugs_drop_department_suffixes() {
        let mut loc: Location = serde_json::from_value(serde_json::json!({
            "id": "a", "name": "Sunshine Toyota Maroochydore Service", "phone": "(07) 5400 0000",
            "address": {"street": "1 A St", "suburb": "Maroochydore", "state": "QLD", "postcode": "4558"}
        }))
        .unwrap();
        assert_eq!(location_slug(&loc), "sunshine-toyota-maroochydore");
        loc.name = "Newstead Sales".into();
        assert_eq!(location_slug(&loc), "newstead");
        // Only a trailing word is a department.
        loc.name = "Parts Plus Sales Centre".into();
        assert_eq!(location_slug(&loc), "parts-plus-sales-centre");
        loc.slug = Some("custom".into());
        assert_eq!(location_slug(&loc), "custom");
    }
}
