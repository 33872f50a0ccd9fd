//! The search page: sort options offered once each, promo tiles that will
//! actually show (unique id, valid window in the dealer's time zone, slots,
//! daily hours, a link and image that work), a hosted engine's host.

use std::collections::HashMap;

use crate::hours::parse_day;
use crate::model::{SearchConfig, SearchEngine, SortOption, TimeZone};

use super::dates::check_window;
use super::urls::{check_host, check_href, check_image};
use super::{root, Ctx};

pub(super) fn check(search: &SearchConfig, tz: TimeZone, cx: &mut Ctx) {
    let base = root().key("search");
    let mut seen = Vec::new();
    for (i, s) in search.sort_options.iter().enumerate() {
        if let Some(first) = seen.iter().position(|x| x == s) {
            cx.err(
                &base.clone().key("sort_options").index(i),
                format!("sort option `{}` is listed twice", s.key()),
            )
            .hint = Some(format!(
                "sort_options[{first}] is the same; each option appears once in the dropdown"
            ));
        }
        seen.push(*s);
    }
    // Two orders on one index name: the URL could not tell them apart.
    let mut names: HashMap<String, SortOption> = HashMap::new();
    for s in &search.sort_options {
        if let Some(other) = names.insert(search.sort_index(*s), *s) {
            // Relevance is the index itself, not a key of sort_replicas.
            let named = if *s == SortOption::Relevance {
                other
            } else {
                *s
            };
            cx.err(
                &base.clone().key("sort_replicas").key(named.key()),
                format!(
                    "sort orders `{}` and `{}` both use the index `{}`",
                    other.key(),
                    s.key(),
                    search.sort_index(*s)
                ),
            )
            .hint = Some("give each sort order its own replica name".into());
        }
    }
    if search.sort_options.is_empty() {
        cx.err(
            &base.clone().key("sort_options"),
            "at least one sort option is needed",
        );
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (i, tile) in search.promo_tiles.iter().enumerate() {
        let p = base.clone().key("promo_tiles").index(i);
        if let Some(first) = ids.insert(&tile.id, i) {
            cx.err(
                &p.clone().key("id"),
                format!("promo tile id `{}` is used twice", tile.id),
            )
            .hint = Some(format!("promo_tiles[{first}] has the same id"));
        }
        check_window(&tile.start, &tile.expiry, tz, &p, ("start", "expiry"), cx);
        super::dates::warn_if_ended(
            &tile.expiry,
            tz,
            &p.clone().key("expiry"),
            &format!("promo tile `{}`", tile.id),
            cx,
        );
        if tile.positions.is_empty() || tile.positions.contains(&0) {
            cx.err(
                &p.clone().key("positions"),
                "positions are 1-based result slots, e.g. [8, 17]",
            );
        }
        if let Some(h) = &tile.daily_hours {
            if let Err(e) = parse_day(h) {
                cx.err(&p.clone().key("daily_hours"), format!("daily hours: {e}"))
                    .expected = Some("\"08:30-17:30\"".into());
            }
        }
        check_href(&tile.href, &p.clone().key("href"), cx);
        check_image(&tile.image, &p.clone().key("image"), cx);
    }
    if let SearchEngine::Hosted(h) = &search.engine {
        check_host(
            &h.host,
            &base.clone().key("engine").key("hosted").key("host"),
            cx,
        );
        if !search.synonyms.is_empty() {
            cx.err(
                &base.clone().key("synonyms"),
                "synonyms apply to the embedded search only; this dealer searches a hosted service",
            )
            .hint =
                Some("add them to the hosted index's own synonyms, and remove them here".into());
        }
    }
    check_synonyms(&search.synonyms, &base.clone().key("synonyms"), cx);
    check_popular_deny(
        &search.popular_searches_deny,
        &base.clone().key("popular_searches_deny"),
        cx,
    );
    check_colour_families(
        &search.colour_families,
        &base.clone().key("colour_families"),
        cx,
    );
}

/// Each key is a built-in family; each word is 1 to 4 words of letters or
/// digits, in one family only.
/// Most words a dealer adds to the popular searches' denylist.
const POPULAR_DENY_MAX: usize = 100;

/// The dealer's denied words: each one word as the edge compares them
/// (normalised), short, listed once.
fn check_popular_deny(words: &[String], at: &super::KeyPath, cx: &mut Ctx) {
    use dealer_rules::search_words::normalise;
    if words.len() > POPULAR_DENY_MAX {
        cx.err(
            at,
            format!("{} words: at most {POPULAR_DENY_MAX}", words.len()),
        );
    }
    let mut seen = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let here = at.clone().index(i);
        match normalise(w) {
            Some(n) if !n.is_empty() && !n.contains(' ') && n.chars().count() <= 40 => {
                if seen.contains(&n) {
                    cx.err(&here, format!("`{w}` is listed twice"));
                }
                seen.push(n);
            }
            _ => {
                cx.err(&here, format!("`{w}` is not one word of at most 40 characters"))
                    .hint = Some("list single words, e.g. [competitorname, rust]: a search with any of them is not counted".into());
            }
        }
    }
}

fn check_colour_families(
    families: &std::collections::BTreeMap<String, Vec<String>>,
    at: &super::KeyPath,
    cx: &mut Ctx,
) {
    use dealer_rules::colour_families::{family, FAMILIES};
    let mut seen: std::collections::BTreeMap<String, &str> = std::collections::BTreeMap::new();
    for (id, words) in families {
        let here = at.clone().key(id);
        if family(id).is_none() {
            let ids = FAMILIES.iter().map(|f| f.id);
            let hint = crate::suggest::closest(id, ids.clone())
                .map(|s| format!("did you mean `{s}`? "))
                .unwrap_or_default();
            cx.err(&here, format!("`{id}` is not a colour family")).hint = Some(format!(
                "{hint}the families are {}",
                ids.collect::<Vec<_>>().join(", ")
            ));
            continue;
        }
        for (j, word) in words.iter().enumerate() {
            let count = phrase_words(word);
            if count == 0 || count > SYNONYM_WORDS {
                cx.err(
                    &here.clone().index(j),
                    format!("colour word `{word}` has {count} words"),
                )
                .hint = Some(format!(
                    "a colour word is 1 to {SYNONYM_WORDS} words of letters or digits, as in the feed's colour names"
                ));
            }
            let key = word.to_lowercase();
            if let Some(other) = seen.insert(key, id) {
                if other != id {
                    cx.err(
                        &here.clone().index(j),
                        format!("`{word}` is under both `{other}` and `{id}`"),
                    )
                    .hint = Some("a word means one family: keep it under one".into());
                }
            }
        }
    }
}

/// The keyword box matches phrases of up to this many words.
const SYNONYM_WORDS: usize = 4;

/// Words of a phrase as the keyword box splits it (letters and digits;
/// anything else separates words).
fn phrase_words(phrase: &str) -> usize {
    phrase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count()
}

/// Each group is at least two phrases of 1 to 4 words (letters and digits;
/// other characters only separate words, as in the keyword box).
fn check_synonyms(groups: &[Vec<String>], at: &super::KeyPath, cx: &mut Ctx) {
    for (i, group) in groups.iter().enumerate() {
        if group.len() < 2 {
            cx.err(
                &at.clone().index(i),
                "a synonym group needs at least two phrases",
            )
            .expected = Some("[wagon, suv]".into());
        }
        for (j, phrase) in group.iter().enumerate() {
            let words = phrase_words(phrase);
            if words == 0 || words > SYNONYM_WORDS {
                cx.err(
                    &at.clone().index(i).index(j),
                    format!("synonym `{phrase}` has {words} words"),
                )
                .hint = Some(format!(
                    "a phrase has 1 to {SYNONYM_WORDS} words of letters or digits"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    #[test]
    fn colour_families_are_the_built_in_ones_with_words_in_one_family() {
        accepted("search: { colour_families: { purple: [Nebula], white: [\"Sea Pearl\"] } }\n");
        let p = problem_at(
            "search: { colour_families: { whte: [Frost] } }\n",
            "search.colour_families.whte",
        );
        assert!(
            p.message.contains("not a colour family")
                && p.hint
                    .as_deref()
                    .unwrap_or_default()
                    .contains("did you mean `white`"),
            "{p:?}"
        );
        problem_at(
            "search: { colour_families: { green: [\"\"] } }\n",
            "search.colour_families.green[0]",
        );
        let both = problem_at(
            "search: { colour_families: { black: [Nebula], purple: [nebula] } }\n",
            "search.colour_families.purple[0]",
        );
        assert!(both.message.contains("under both"), "{both:?}");
    }

    #[test]
    fn popular_searches_deny_lists_single_words_once() {
        accepted("search: { popular_searches_deny: [Rivalmotors, lemon] }\n");
        let two = problem_at(
            "search: { popular_searches_deny: [\"rival motors\"] }\n",
            "search.popular_searches_deny[0]",
        );
        assert!(two.message.contains("not one word"), "{two:?}");
        problem_at(
            "search: { popular_searches_deny: [\"\"] }\n",
            "search.popular_searches_deny[0]",
        );
        let twice = problem_at(
            "search: { popular_searches_deny: [Lemon, lemon] }\n",
            "search.popular_searches_deny[1]",
        );
        assert!(twice.message.contains("listed twice"), "{twice:?}");
        let many = (0..101)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(", ");
        problem_at(
            &format!("search: {{ popular_searches_deny: [{many}] }}\n"),
            "search.popular_searches_deny",
        );
    }

    #[test]
    fn synonym_groups_are_phrases_the_keyword_box_can_match() {
        accepted("search: { synonyms: [[wagon, suv], [people mover, van]] }\n");
        let p = problem_at("search: { synonyms: [[wagon]] }\n", "search.synonyms[0]");
        assert!(p.message.contains("at least two"), "{}", p.message);
        let p = problem_at(
            "search: { synonyms: [[wagon, suv], [ute, \"a b c d e\"]] }\n",
            "search.synonyms[1][1]",
        );
        assert!(p.message.contains("5 words"), "{}", p.message);
        problem_at(
            "search: { synonyms: [[ute, \"--\"]] }\n",
            "search.synonyms[0][1]",
        );
    }

    #[test]
    fn synonyms_of_a_hosted_search_would_be_inert() {
        let p = problem_at(
            "search:\n  synonyms: [[wagon, suv]]\n  engine: { hosted: { host: search.example.com, app_id: a, index: cars, public_key: k } }\n",
            "search.synonyms",
        );
        assert!(p.message.contains("embedded"), "{}", p.message);
    }

    #[test]
    fn sort_options_are_listed_once() {
        let p = problem_at(
            "search: { sort_options: [latest, price_asc, latest] }\n",
            "search.sort_options[2]",
        );
        assert_eq!(p.message, "sort option `latest` is listed twice");
        assert_eq!(
            p.hint.as_deref(),
            Some("sort_options[0] is the same; each option appears once in the dropdown")
        );
        assert_eq!((p.span.line, p.span.col), (1, 45));
        let p = problem_at("search: { sort_options: [] }\n", "search.sort_options");
        assert_eq!(p.message, "at least one sort option is needed");
        accepted("search: { sort_options: [latest, price_asc, km_asc] }\n");
    }

    #[test]
    fn two_sort_orders_on_one_index_are_refused() {
        let yaml = "search:\n  sort_options: [relevance, latest, price_asc, km_asc]\n  engine: { hosted: { host: search.example.com, app_id: a, index: cars, public_key: k } }\n  sort_replicas:\n    price_asc: cars\n    km_asc: cars_latest\n";
        let found: Vec<(String, String)> = problems(yaml)
            .into_iter()
            .map(|p| (p.key, p.message))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "search.sort_replicas.price_asc".to_string(),
                    "sort orders `relevance` and `price_asc` both use the index `cars`".to_string()
                ),
                (
                    "search.sort_replicas.km_asc".to_string(),
                    "sort orders `latest` and `km_asc` both use the index `cars_latest`"
                        .to_string()
                ),
            ]
        );
        let p = problem_at(yaml, "search.sort_replicas.price_asc");
        assert_eq!(p.span.line, 5, "points at the price_asc line");
        accepted("search:\n  sort_options: [relevance, latest, price_asc, km_asc]\n  engine: { hosted: { host: search.example.com, app_id: a, index: cars, public_key: k } }\n");
    }

    /// A valid promo tile with some fields replaced or added.
    fn tile(changes: &[(&str, &str)]) -> String {
        let mut fields = vec![
            ("id", "eofy"),
            ("positions", "[8]"),
            ("start", "\"2025-07-01\""),
            ("expiry", "\"2025-07-24\""),
            ("image", "/images/eofy.jpg"),
            ("alt", "EOFY"),
            ("href", "/special-offers"),
        ];
        for (k, v) in changes {
            match fields.iter_mut().find(|(f, _)| f == k) {
                Some(f) => f.1 = v,
                None => fields.push((k, v)),
            }
        }
        let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!(
            "search:\n  promo_tiles:\n    - {{ {} }}\n",
            fields.join(", ")
        )
    }

    #[test]
    fn a_promo_tile_whose_window_has_ended_is_a_warning_when_judged_at_a_moment() {
        use crate::check::testing::problems_judged;
        // 2026-11-20 00:00 UTC: after the tile's 2025-07-24 (Brisbane).
        let later = Some(1_795_132_800);
        let all = problems_judged(&tile(&[]), later);
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0].key, "search.promo_tiles[0].expiry");
        assert_eq!(all[0].severity, crate::diagnostic::Severity::Warning);
        assert!(
            all[0]
                .message
                .contains("promo tile `eofy` ended 2025-07-24"),
            "{all:#?}"
        );
        // During its window, and without a moment (a build's checks), nothing.
        assert!(problems_judged(&tile(&[]), Some(1_752_000_000)).is_empty());
        assert!(problems_judged(&tile(&[]), None).is_empty());
        // The expiry's whole last day counts: 2025-07-24 23:59 in Brisbane is 13:59 UTC.
        assert!(problems_judged(&tile(&[]), Some(1_753_365_000)).is_empty());
    }

    #[test]
    fn a_promo_tile_that_could_not_show_is_an_error() {
        accepted(&tile(&[]));
        accepted(&tile(&[("daily_hours", "\"08:30-17:30\"")]));
        let p = problem_at(
            &tile(&[("positions", "[0]")]),
            "search.promo_tiles[0].positions",
        );
        assert!(p.message.contains("1-based"));
        problem_at(
            &tile(&[("positions", "[]")]),
            "search.promo_tiles[0].positions",
        );
        problem_at(
            &tile(&[("daily_hours", "\"8:30am-5pm\"")]),
            "search.promo_tiles[0].daily_hours",
        );
        problem_at(
            &tile(&[("href", "special-offers")]),
            "search.promo_tiles[0].href",
        );
        problem_at(
            &tile(&[("image", "\"http://x.example/a.jpg\"")]),
            "search.promo_tiles[0].image",
        );
        let p = problem_at(
            &tile(&[("start", "\"2025-07-32\"")]),
            "search.promo_tiles[0].start",
        );
        assert_eq!(p.message, "`2025-07-32` is not a date");
    }

    #[test]
    fn promo_moments_must_exist_in_the_dealers_time_zone() {
        // Sydney skips 02:00-03:00 on 5 October 2025; the site used to drop
        // such a tile without a word.
        let over = format!(
            "timezone: Australia/Sydney\n{}",
            tile(&[
                ("start", "\"2025-10-05 02:30\""),
                ("expiry", "\"2025-10-31\"")
            ])
        );
        let p = problem_at(&over, "search.promo_tiles[0].start");
        assert_eq!(
            p.message,
            "2025-10-05 02:30 does not exist in Australia/Sydney: the clocks skip that hour when daylight saving starts"
        );
        assert_eq!(p.span.line, 4);
        // Brisbane has no daylight saving: the same moment exists there.
        accepted(&tile(&[
            ("start", "\"2025-10-05 02:30\""),
            ("expiry", "\"2025-10-31\""),
        ]));
    }

    #[test]
    fn promo_tile_ids_are_unique_and_windows_ordered() {
        let over = "search:\n  promo_tiles:\n    - { id: a, positions: [8], start: \"2025-07-01\", expiry: \"2025-07-24\", image: /i.jpg, alt: A, href: /x }\n    - { id: a, positions: [9], start: \"2025-07-24\", expiry: \"2025-07-01 10:00\", image: /i.jpg, alt: A, href: /x }\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            ["search.promo_tiles[1].id", "search.promo_tiles[1].expiry"]
        );
    }
}
