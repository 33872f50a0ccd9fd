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

pub use dealer_rules::search_words::normalise;

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

/// A report of one search: the query as judged. The number of cars the
/// client says it found is not kept: nothing a client claims decides what
/// becomes popular ([`matches_stock`] does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub query: Result<String, Dropped>,
}

/// Reads `{"query": "...", "hits": n}` (`hits`, the site's own count, is
/// optional and only checked for shape).
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
        f.whole(
            "hits",
            0..=HITS_MAX,
            &format!("Must be a whole number from 0 to {HITS_MAX}."),
        );
        if f.errors.0.contains_key("hits") {
            return None;
        }
        Some(Report {
            query: judge(&query?),
        })
    })
}

/// The network whose searches count as one visitor's: an IPv4 address's
/// /24 and an IPv6 address's /48, so that three addresses of one provider
/// block (or one bot's rented range) are not three visitors. Anything else
/// as given.
pub fn visitor_network(address: &str) -> String {
    use crate::http::{client_aggregates, Aggregate};
    if let Some((_, block)) = client_aggregates(address)
        .into_iter()
        .find(|(a, _)| *a == Aggregate::Block)
    {
        return block;
    }
    // IPv4 (or mapped): its /24; anything else as given.
    match crate::http::client_network(address).parse::<std::net::Ipv4Addr>() {
        Ok(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        Err(_) => address.trim().to_string(),
    }
}

/// Words never counted, whatever the stock holds: what a bot would plant
/// in a dealer's popular searches.
pub const DENIED: [&str; 16] = [
    "scam", "scams", "scammer", "scammers", "fraud", "rip", "ripoff", "avoid", "worst", "crook",
    "crooks", "liar", "liars", "thief", "thieves", "dodgy",
];

/// Words the keyword box understands without a car having them: its own
/// vocabulary (price and year phrases, synonym groups: "under", "4x4").
fn built_in_words() -> &'static [String] {
    static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        fn collect(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::String(s) => {
                    if let Some(n) = normalise(s) {
                        out.extend(n.split(' ').filter(|w| !w.is_empty()).map(String::from));
                    }
                }
                Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
                Value::Object(o) => o.values().for_each(|x| collect(x, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for json in [
            include_str!("../../../astro-app/src/lib/search/vocabulary/intents.json"),
            include_str!("../../../astro-app/src/lib/search/vocabulary/synonyms.json"),
        ] {
            if let Ok(v) = serde_json::from_str::<Value>(json) {
                collect(&v, &mut out);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    })
}

/// Whether a normalised query may count towards the dealer's popular
/// searches: every word is a word of the dealer's stock (`stock`, the
/// build's list: [`dealer_rules::search_words::stock_words`]) or the start
/// of one, a number ("30000", "30k") or the keyword box's own vocabulary,
/// and none is denied ([`is_denied`]: the platform's [`DENIED`] or the
/// dealer's `deny`, `search.popular_searches_deny`).
pub fn matches_stock(query: &str, stock: &str, deny: &[String]) -> bool {
    let number = |w: &str| {
        let digits = w.trim_end_matches('k');
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let words: Vec<&str> = query.split(' ').filter(|w| !w.is_empty()).collect();
    !words.is_empty()
        && !is_denied(query, deny)
        && words.iter().all(|w| {
            number(w)
                || dealer_rules::search_words::stock_has(stock, w)
                || built_in_words()
                    .binary_search_by(|b| b.as_str().cmp(w))
                    .is_ok()
        })
}

/// Whether a normalised query has a word nobody may put into a dealer's
/// popular searches: the platform's [`DENIED`] or one of the dealer's own
/// `deny` (normalised). Asked when a search is counted and again when the
/// popular ones are listed, so a word the dealer adds later also hides
/// what was counted before.
pub fn is_denied(query: &str, deny: &[String]) -> bool {
    query
        .split(' ')
        .any(|w| DENIED.contains(&w) || deny.iter().any(|d| d == w))
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
    fn a_phrase_counts_only_with_the_stocks_words_from_distinct_networks() {
        let stock =
            dealer_rules::search_words::stock_words(["2021 Toyota HiLux SR5", "Mazda CX-5 Maxx"]);
        for ok in [
            "toyota hilux",
            "hil",
            "hilux under 30k",
            "4x4 ute",
            "mazda cx 5 2021",
            "toyota 30000",
        ] {
            assert!(matches_stock(ok, &stock, &[]), "{ok}");
        }
        for planted in [
            "avoid this dealer scam",
            "toyota scam",
            "free iphone",
            "hilux xyzzy",
            "",
        ] {
            assert!(!matches_stock(planted, &stock, &[]), "{planted}");
        }
        assert!(
            !matches_stock("toyota", "", &[]),
            "no stock list: nothing counts"
        );
        // The dealer's own denied words (search.popular_searches_deny), on
        // top of the platform's: a stock word too ("mazda" at a Toyota
        // dealer that sells a few).
        let deny = vec!["mazda".to_string()];
        assert!(!matches_stock("mazda cx 5", &stock, &deny));
        assert!(matches_stock("toyota hilux", &stock, &deny));
        assert!(is_denied("toyota scam", &[]) && is_denied("mazda", &deny));
        assert!(!is_denied("mazdas", &deny), "whole words only");
        // Three addresses of one /24 or one /48 are one visitor.
        assert_eq!(visitor_network("203.0.113.7"), "203.0.113.0/24");
        assert_eq!(
            visitor_network("203.0.113.200"),
            visitor_network("203.0.113.7")
        );
        assert_ne!(
            visitor_network("203.0.114.7"),
            visitor_network("203.0.113.7")
        );
        assert_eq!(visitor_network("::ffff:203.0.113.9"), "203.0.113.0/24");
        assert_eq!(visitor_network("2001:db8:1:2a7::1"), "2001:db8:1::/48");
        assert_eq!(
            visitor_network("2001:db8:1:ff00::9"),
            visitor_network("2001:db8:1:2a7::1")
        );
        assert_eq!(visitor_network("unknown"), "unknown");
    }

    #[test]
    fn reports_are_read_and_judged() {
        let r = validate_report(&json!({ "query": "Toyota  HiLux", "hits": 12 })).unwrap();
        assert_eq!(
            validate_report(&json!({ "query": "Toyota" }))
                .unwrap()
                .query
                .as_deref(),
            Ok("toyota"),
            "the count is optional"
        );
        assert_eq!(r.query, Ok("toyota hilux".into()));
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
        assert!(e.get("query").is_some() && e.get("hits").is_none());
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
