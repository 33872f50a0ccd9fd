//! Car slugs: the `{slug}` of `/cars/{slug}/` pages and of the worker's
//! `GET /api/cars/{slug}/view.json`. The generator skips a feed record
//! whose slug fails this check, and the worker refuses such a slug, so every
//! car page the generator writes is one the worker can count views for.
//! Cases: `rules/vectors/slugs.json` (`car_slugs`).

/// Longest car slug accepted, in bytes (ASCII only, so also characters).
pub const CAR_SLUG_MAX: usize = 200;

/// Whether `slug` can be a car's URL path segment: 1 to
/// [`CAR_SLUG_MAX`] ASCII letters, digits, `-` or `_`. Nothing that needs
/// percent-encoding, no dots (so never `.` or `..`), no slashes.
pub fn is_car_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= CAR_SLUG_MAX
        && slug
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn car_slugs() {
        assert!(is_car_slug("2021-toyota-hilux-sr5-12345"));
        assert!(is_car_slug("A_1"));
        assert!(is_car_slug(&"a".repeat(CAR_SLUG_MAX)));
        for bad in [
            "",
            "a/b",
            "a..b",
            "..",
            "a b",
            "é",
            "a%20b",
            &"a".repeat(CAR_SLUG_MAX + 1),
        ] {
            assert!(!is_car_slug(bad), "{bad}");
        }
    }
}
