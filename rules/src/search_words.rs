//! The words of a dealer's stock, as the keyword search reads them: what
//! the edge checks a reported search against before it can become one of
//! the dealer's popular searches (a phrase with a word no car has is never
//! counted, so nobody can put "avoid this dealer" on the dealer's site).
//! `dealergen build` publishes the list to KV ([`search_words_key`]) from
//! the visible cars; the worker reads it when it counts a search.

/// KV key holding the words of a dealer's visible stock ([`stock_words`]).
pub fn search_words_key(slug: &str) -> String {
    format!("search-words:{slug}")
}

/// Base letters of U+00C0..=U+017F with their accents taken off, as
/// Unicode canonical decomposition does; `-` where a letter has no ASCII
/// base (æ, ø, ß, ł...). Generated from Python's `unicodedata` NFD.
const FOLD: &str = "aaaaaa-ceeeeiiii-nooooo--uuuuy--aaaaaa-ceeeeiiii-nooooo--uuuuy-yaaaaaaccccccccdd--eeeeeeeeeegggggggghh--iiiiiiiii---jjkk-llllll----nnnnnn---oooooo--rrrrrrsssssssstttt--uuuuuuuuuuuuwwyyyzzzzzz-";

/// The query as the keyword search reads it: lower case, accents off, the
/// words (runs of `a-z0-9`) joined by one space. Only Latin text is read:
/// ASCII, Latin-1 and Latin Extended-A letters with an ASCII base; Latin-1
/// and general punctuation (U+0080–U+00BF, U+2000–U+206F, × and ÷) separate
/// words. Anything else (another script, æ, ø, ß, an emoji) gives `None`:
/// such a query is dropped rather than stored in a form the site's own
/// normaliser might not produce. The rule is spelt out by code point, not
/// by Unicode letter classes, so that the site (popular.ts) applies exactly
/// the same one and the worker links no Unicode tables.
pub fn normalise(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut gap = false;
    for c in raw.chars() {
        let base = if c.is_ascii_alphanumeric() {
            Some(c.to_ascii_lowercase())
        } else if c < '\u{C0}' || ('\u{2000}'..='\u{206F}').contains(&c) || c == '×' || c == '÷' {
            None
        } else if c <= '\u{17F}' {
            match FOLD.as_bytes()[c as usize - 0xC0] {
                b'-' => return None,
                b => Some(b as char),
            }
        } else {
            return None;
        };
        match base {
            Some(b) => {
                if gap && !out.is_empty() {
                    out.push(' ');
                }
                gap = false;
                out.push(b);
            }
            None => gap = true,
        }
    }
    Some(out)
}

/// The KV value of [`search_words_key`]: every word of `texts` (the
/// cars' names, makes, models, badges, bodies...) as [`normalise`] reads
/// it, sorted and unique, one per line. A text outside the Latin letters
/// the search reads gives no words.
pub fn stock_words<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut words: Vec<String> = texts
        .into_iter()
        .filter_map(normalise)
        .flat_map(|t| t.split(' ').map(String::from).collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    words.dedup();
    words.join("\n")
}

/// The shortest word counted as the start of a stock word ("hil" for
/// "hilux"): the keyword box matches prefixes too.
pub const PREFIX_MIN: usize = 3;

/// Whether `word` (normalised) is a word of the stock list `list`
/// ([`stock_words`]), or the start of one of at least [`PREFIX_MIN`]
/// letters.
pub fn stock_has(list: &str, word: &str) -> bool {
    !word.is_empty()
        && list
            .split('\n')
            .any(|w| w == word || (word.len() >= PREFIX_MIN && w.starts_with(word)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_table_covers_its_range() {
        assert_eq!(FOLD.chars().count(), 0x180 - 0xC0);
        assert_eq!(normalise("ÀÉÎÕÜÇÑ Škoda Ťž").unwrap(), "aeioucn skoda tz");
        assert_eq!(normalise("Æ"), None);
        assert_eq!(normalise("日本"), None);
        assert_eq!(normalise("4×4 ute – ½ ton"), Some("4 4 ute ton".into()));
        assert_eq!(normalise("  GT-Line 4x4!! "), Some("gt line 4x4".into()));
        // Idempotent: what the site sends (already normalised) stays as it is.
        let q = normalise("Citroën C3 — Aircross").unwrap();
        assert_eq!(normalise(&q).unwrap(), q);
    }

    #[test]
    fn the_stock_words_are_the_searchable_words_once_each() {
        let list = stock_words([
            "2021 Toyota HiLux SR5",
            "Toyota",
            "Škoda",
            "Dual-Cab Ute",
            "ジ",
        ]);
        assert_eq!(list, "2021\ncab\ndual\nhilux\nskoda\nsr5\ntoyota\nute");
        assert!(stock_has(&list, "hilux") && stock_has(&list, "hil") && stock_has(&list, "2021"));
        assert!(!stock_has(&list, "hi"), "too short to be a prefix");
        assert!(!stock_has(&list, "scam") && !stock_has(&list, ""));
        assert_eq!(stock_words([]), "");
    }
}
