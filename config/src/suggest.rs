//! "Did you mean": the known word closest to a misspelled one.

/// The candidate closest to a misspelled word, if it is close enough to be
/// what was meant (Jaro-Winkler similarity of at least 0.8, ignoring case).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_suggests_near_misses_only() {
        assert_eq!(closest("feeds", ["feed", "min_photos"]), Some("feed"));
        assert_eq!(
            closest("Australia/Brisbain", ["Australia/Brisbane", "Europe/Paris"]),
            Some("Australia/Brisbane")
        );
        assert_eq!(closest("PAGE_SIZE", ["page_size"]), Some("page_size"));
        assert_eq!(closest("zzz", ["feed", "min_photos"]), None);
        assert_eq!(closest("feed", []), None);
    }
}
