//! Popular searches from real data: the keyword box reports each search a
//! shopper submits (`POST /api/search/queries`) and reads back the dealer's
//! most searched words (`GET /api/search/popular`).
//!
//! What is kept is a count per dealer, day and query, never a shopper: the
//! distinct visitors of a query are told apart by a keyed hash of their
//! network and the day ([`visitor_hash`]), so the same shopper cannot be
//! followed from one day to the next, and those hashes are deleted once
//! their day is over ([`PRUNE_VISITORS`]). Queries that look like personal
//! data (an e-mail address, a phone number, a long run of digits, an
//! identifier) are dropped before anything is stored ([`looks_personal`]),
//! and a query is shown to other shoppers only once at least
//! [`MIN_VISITORS`] visitors searched it and it found cars.
//!
//! The words are normalised exactly as the site's keyword search reads them
//! (astro-app/src/lib/search/text.ts `words`): lower case, accents off, one
//! space between words; both sides are checked against the same cases
//! (`astro-app/src/lib/search/vocabulary/query-cases.json`).

use serde_json::Value;

use crate::input::{check_body, FieldErrors};

/// Largest request body accepted (a query and a count are a few dozen bytes).
pub const BODY_LIMIT: usize = 1024;
/// Longest query accepted as typed, in characters.
pub const RAW_MAX: usize = 200;
/// Longest query kept once normalised, in characters; longer ones are not
/// worth suggesting and more likely to carry something personal.
pub const QUERY_MAX: usize = 60;
/// Most words a kept query may have.
pub const WORDS_MAX: usize = 6;
/// Largest result count accepted.
pub const HITS_MAX: u64 = 1_000_000;
/// Distinct visitors (counted per day) a query needs before it is shown.
pub const MIN_VISITORS: u64 = 3;
/// Days counted by default, and at most, by the popular list.
pub const DEFAULT_DAYS: u64 = 30;
pub const MAX_DAYS: u64 = 90;
/// Queries answered by default, and at most.
pub const DEFAULT_LIMIT: u64 = 8;
pub const MAX_LIMIT: u64 = 20;
/// Days of counts kept; older rows are deleted by the cron run.
pub const KEEP_DAYS: u64 = MAX_DAYS;
/// How long a browser or cache may keep the popular list (it changes daily at most).
pub const POPULAR_CACHE: &str = "public, max-age=900";

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

/// Whether a query as typed looks like personal data rather than a search
/// for a car: an e-mail address (`@`), a phone number or other long run of
/// digits (7 or more, spaces and dashes between groups counted as one run)
/// unless the run is only years (2018-2021) or round amounts (20000 40000),
/// or an identifier-like word (8+ characters with 4+ digits and a letter:
/// a stock number, a licence or order number). Mirrors `looksPersonal` in
/// astro-app/src/lib/search/popular.ts.
pub fn looks_personal(raw: &str) -> bool {
    if raw.contains('@') {
        return true;
    }
    let lower = raw.to_ascii_lowercase();
    // Runs of digit groups joined by short gaps of spaces and phone punctuation.
    let bytes = lower.as_bytes();
    let mut i = 0;
    let mut run: Vec<&str> = Vec::new();
    let mut last_end = 0;
    let flush = |run: &mut Vec<&str>| {
        let digits: usize = run.iter().map(|g| g.len()).sum();
        let plain = run.iter().all(|g| is_year(g)) || run.iter().all(|g| is_round(g));
        let personal = digits >= 7 && !plain;
        run.clear();
        personal
    };
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let gap = &lower[last_end..start];
            let joined = !run.is_empty()
                && (1..=3).contains(&gap.len())
                && gap.bytes().all(|b| b" -.()+/".contains(&b));
            if !joined && flush(&mut run) {
                return true;
            }
            run.push(&lower[start..i]);
            last_end = i;
        } else {
            i += 1;
        }
    }
    if flush(&mut run) {
        return true;
    }
    lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        w.len() >= 8
            && w.bytes().filter(u8::is_ascii_digit).count() >= 4
            && w.bytes().any(|b| b.is_ascii_alphabetic())
    })
}

/// 19xx or 20xx.
fn is_year(g: &str) -> bool {
    g.len() == 4 && (g.starts_with("19") || g.starts_with("20"))
}

/// A round amount: 4 or more digits ending in 000 (a price, a km figure).
fn is_round(g: &str) -> bool {
    g.len() >= 4 && g.ends_with("000") && !g.starts_with('0')
}

/// Why a report is not counted (it is still answered 202: the site has
/// nothing to fix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    /// Looks like an e-mail address, phone number or identifier.
    Personal,
    /// No words once normalised.
    Empty,
    /// More than [`QUERY_MAX`] characters or [`WORDS_MAX`] words.
    Long,
    /// Text the normaliser does not read (see [`normalise`]).
    Unsupported,
}

impl Dropped {
    pub fn name(self) -> &'static str {
        match self {
            Dropped::Personal => "personal",
            Dropped::Empty => "empty",
            Dropped::Long => "long",
            Dropped::Unsupported => "unsupported",
        }
    }
}

/// What to do with a query as typed: its normalised form to count, or why not.
pub fn judge(raw: &str) -> Result<String, Dropped> {
    if looks_personal(raw) {
        return Err(Dropped::Personal);
    }
    let q = normalise(raw).ok_or(Dropped::Unsupported)?;
    if q.is_empty() {
        Err(Dropped::Empty)
    } else if q.len() > QUERY_MAX || q.split(' ').count() > WORDS_MAX {
        Err(Dropped::Long)
    } else {
        Ok(q)
    }
}

/// A report of one search: the query as judged and the cars it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub query: Result<String, Dropped>,
    pub hits: u64,
}

/// Reads `{"query": "...", "hits": n}`.
pub fn validate_report(body: &Value) -> Result<Report, FieldErrors> {
    check_body(body, |f| {
        let query = match f.obj.get("query") {
            Some(Value::String(s)) if s.chars().count() <= RAW_MAX => Some(s.clone()),
            Some(Value::String(_)) => {
                f.errors
                    .add("query", format!("Must be at most {RAW_MAX} characters."));
                None
            }
            Some(_) => {
                f.errors.add("query", "Must be text.");
                None
            }
            None => {
                f.errors.add("query", "Please give the query searched.");
                None
            }
        };
        let hits = f.whole(
            "hits",
            0..=HITS_MAX,
            &format!("Must be a whole number from 0 to {HITS_MAX}."),
        );
        if hits.is_none() && !f.errors.0.contains_key("hits") {
            f.errors
                .add("hits", "Please give the number of cars found.");
        }
        Some(Report {
            query: judge(&query?),
            hits: hits?,
        })
    })
}

/// Days since 1970-01-01 (UTC) of a unix time.
pub fn day_of(unix_secs: u64) -> u64 {
    unix_secs / 86_400
}

/// A visitor's id for one dealer and one day: a keyed hash of the client's
/// network (see `http::client_network`) with the day in it, so ids of
/// different days cannot be matched, 16 hex digits (enough to tell a day's
/// visitors apart, too short to be worth reversing).
pub fn visitor_hash(key: &[u8], dealer: &str, day: u64, network: &str) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in ["search-visitor", dealer, &day.to_string(), network] {
        // A separator: "a"+"bc" and "ab"+"c" must not hash alike.
        mac.update(part.as_bytes());
        mac.update(b"\x1f");
    }
    let digest = mac.finalize().into_bytes();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The popular list's `?days=&limit=`: defaults when absent, clamped to
/// 1..=[`MAX_DAYS`] and 1..=[`MAX_LIMIT`]; anything unreadable is the default.
pub fn popular_params(query_string: &str) -> (u64, u64) {
    let mut days = DEFAULT_DAYS;
    let mut limit = DEFAULT_LIMIT;
    for pair in query_string.trim_start_matches('?').split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let n = v.parse::<u64>().ok();
        match (k, n) {
            ("days", Some(n)) => days = n.clamp(1, MAX_DAYS),
            ("limit", Some(n)) => limit = n.clamp(1, MAX_LIMIT),
            _ => {}
        }
    }
    (days, limit)
}

/// Records one visitor's search (`?1` dealer, `?2` day, `?3` query, `?4`
/// visitor hash): at most one row per visitor, day and query.
pub const RECORD_VISITOR: &str = "INSERT OR IGNORE INTO search_query_visitors (dealer, day, query, visitor) VALUES (?1, ?2, ?3, ?4)";

/// Counts the search (`?4`: 1 when it found cars, else 0), with the day's
/// distinct visitors recounted from their rows (run after
/// [`RECORD_VISITOR`], in the same batch).
pub const RECORD_COUNT: &str = "INSERT INTO search_queries (dealer, day, query, searches, with_hits, visitors) \
VALUES (?1, ?2, ?3, 1, ?4, 1) \
ON CONFLICT (dealer, day, query) DO UPDATE SET searches = searches + 1, with_hits = with_hits + excluded.with_hits, \
visitors = (SELECT COUNT(*) FROM search_query_visitors v WHERE v.dealer = ?1 AND v.day = ?2 AND v.query = ?3)";

/// The dealer's (`?1`) top queries since day `?2` that found cars and were
/// searched by at least `?3` visitors (summed over the days), most
/// visitors first; at most `?4`.
pub const POPULAR: &str = "SELECT query, SUM(visitors) AS visitors FROM search_queries \
WHERE dealer = ?1 AND day >= ?2 GROUP BY query \
HAVING SUM(visitors) >= ?3 AND SUM(with_hits) > 0 \
ORDER BY visitors DESC, SUM(searches) DESC, query ASC LIMIT ?4";

/// Visitor hashes of days before `?1` (only the current day's are needed).
pub const PRUNE_VISITORS: &str = "DELETE FROM search_query_visitors WHERE day < ?1";
/// Counts older than the days kept (`?1`: the first day kept).
pub const PRUNE_COUNTS: &str = "DELETE FROM search_queries WHERE day < ?1";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The cases the site's normaliser (Vitest) is checked against too.
    const CASES: &str =
        include_str!("../../../astro-app/src/lib/search/vocabulary/query-cases.json");

    #[test]
    fn shared_cases_agree_with_the_site() {
        let cases: Vec<Value> = serde_json::from_str(CASES).unwrap();
        assert!(cases.len() >= 20, "{}", cases.len());
        for case in cases {
            let raw = case["raw"].as_str().unwrap();
            let got = match judge(raw) {
                Ok(q) => json!({ "query": q }),
                Err(d) => json!({ "dropped": d.name() }),
            };
            let want = match case.get("query") {
                Some(q) => json!({ "query": q }),
                None => json!({ "dropped": case["dropped"] }),
            };
            assert_eq!(got, want, "{raw:?}");
        }
    }

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
    fn personal_data_is_recognised() {
        for raw in [
            "john@example.com",
            "0412 345 678",
            "+61 412 345 678",
            "(07) 3123 4567",
            "9876 5432",
            "0412345678",
            "1234567",
            "stock ab123456",
            "call me 0400-000-000",
        ] {
            assert!(looks_personal(raw), "{raw}");
        }
        for raw in [
            "hilux 2019",
            "2018-2021",
            "2018 - 2021 ranger",
            "under 30,000",
            "under 50000 km 2019",
            "20000-40000",
            "landcruiser 300",
            "bt50",
            "i30 n",
            "4x4 ute",
        ] {
            assert!(!looks_personal(raw), "{raw}");
        }
    }

    #[test]
    fn reports_are_read_and_judged() {
        let r = validate_report(&json!({ "query": "Toyota  HiLux", "hits": 12 })).unwrap();
        assert_eq!(r.query, Ok("toyota hilux".into()));
        assert_eq!(r.hits, 12);
        let r = validate_report(&json!({ "query": "me@x.com", "hits": 0 })).unwrap();
        assert_eq!(r.query, Err(Dropped::Personal));
        let long = "a ".repeat(7);
        assert_eq!(judge(&long), Err(Dropped::Long));
        assert_eq!(judge(&"x".repeat(61)), Err(Dropped::Long));
        assert_eq!(judge(" -- "), Err(Dropped::Empty));

        let e = validate_report(&json!({ "query": "x".repeat(201), "hits": 1 })).unwrap_err();
        assert!(e.get("query").unwrap().contains("200"));
        let e = validate_report(&json!({ "query": 5, "hits": -1 })).unwrap_err();
        assert_eq!(e.get("query"), Some("Must be text."));
        assert!(e.get("hits").is_some());
        let e = validate_report(&json!({})).unwrap_err();
        assert!(e.get("query").is_some() && e.get("hits").is_some());
        assert!(validate_report(&json!({ "query": "x", "hits": 1_000_001 })).is_err());
        assert!(validate_report(&json!([])).is_err());
    }

    #[test]
    fn visitors_differ_by_day_dealer_and_network() {
        let k = b"secret";
        let a = visitor_hash(k, "alpha", 20_000, "1.2.3.4");
        assert_eq!(a.len(), 16);
        assert_eq!(a, visitor_hash(k, "alpha", 20_000, "1.2.3.4"));
        assert_ne!(a, visitor_hash(k, "alpha", 20_001, "1.2.3.4"));
        assert_ne!(a, visitor_hash(k, "beta", 20_000, "1.2.3.4"));
        assert_ne!(a, visitor_hash(k, "alpha", 20_000, "1.2.3.5"));
        assert_ne!(a, visitor_hash(b"other", "alpha", 20_000, "1.2.3.4"));
        assert!(!a.contains("1.2.3.4"));
    }

    #[test]
    fn popular_params_are_clamped() {
        assert_eq!(popular_params(""), (DEFAULT_DAYS, DEFAULT_LIMIT));
        assert_eq!(popular_params("days=7&limit=5"), (7, 5));
        assert_eq!(popular_params("?days=0&limit=999"), (1, MAX_LIMIT));
        assert_eq!(
            popular_params("days=10000&limit=x"),
            (MAX_DAYS, DEFAULT_LIMIT)
        );
        assert_eq!(day_of(86_400 * 3 + 5), 3);
    }
}
