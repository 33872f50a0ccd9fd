//! The broken dealer corpus (tests/fixtures/invalid): each file must be
//! rejected with every problem located at the right line and key. The full
//! messages are pinned by snapshots; the assertions pin the behaviour.

use std::path::{Path, PathBuf};

use dealer_config::diagnostic::render_human;
use dealer_config::{Diagnostic, Loader, Rejected};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn loader() -> Loader {
    Loader::new(fixtures().join("presets"))
}

fn reject(name: &str) -> Rejected {
    // Relative paths keep the snapshots free of the checkout location.
    std::env::set_current_dir(fixtures()).unwrap();
    loader()
        .load(Path::new(&format!("invalid/{name}.yaml")))
        .expect_err("fixture must be rejected")
}

fn find<'a>(diags: &'a [Diagnostic], key: &str) -> &'a Diagnostic {
    diags
        .iter()
        .find(|d| d.key == key)
        .unwrap_or_else(|| panic!("no problem reported at `{key}`: {diags:#?}"))
}

fn snapshot(name: &str) -> Rejected {
    let r = reject(name);
    insta::assert_snapshot!(name, render_human(&r.diagnostics, &r.files));
    r
}

#[test]
fn unknown_keys_are_located_with_a_suggestion() {
    let r = snapshot("unknown-key");
    let d = find(&r.diagnostics, "featurs");
    assert_eq!(d.line, 11);
    assert_eq!(d.hint.as_deref(), Some("did you mean `features`?"));
    let d = find(&r.diagnostics, "search.page_sise");
    assert_eq!((d.line, d.column), (14, 3));
    assert_eq!(d.hint.as_deref(), Some("did you mean `page_size`?"));
    assert_eq!(r.diagnostics.len(), 2);
}

#[test]
fn wrong_types_say_what_was_expected() {
    let r = snapshot("wrong-type");
    let d = find(&r.diagnostics, "search.page_size");
    assert_eq!(d.expected.as_deref(), Some("a whole number"));
    assert!(d.message.contains("the text \"twenty\""), "{}", d.message);
    let d = find(&r.diagnostics, "features.watchlist");
    assert_eq!(d.expected.as_deref(), Some("true or false"));
    assert_eq!(d.line, 14);
}

#[test]
fn bad_enum_values_list_the_allowed_ones() {
    let r = snapshot("bad-enum");
    let d = find(&r.diagnostics, "cards.buttons[1]");
    assert_eq!(d.hint.as_deref(), Some("did you mean `test_drive`?"));
    assert!(d.expected.as_deref().unwrap().contains("`view_details`"));
    let d = find(&r.diagnostics, "search.sort_options[1]");
    assert!(d.message.contains("`cheapest`"));
    assert!(
        d.hint.is_none(),
        "no close match for cheapest: {:?}",
        d.hint
    );
}

#[test]
fn bad_opening_hours_are_reported_per_day() {
    let r = snapshot("bad-time");
    let d = find(&r.diagnostics, "locations[0].hours.sales.mon");
    assert_eq!(d.line, 12);
    assert!(d.message.contains("8:30am"), "{}", d.message);
    let d = find(&r.diagnostics, "locations[0].hours.sales.tue");
    assert!(d.message.contains("not after"), "{}", d.message);
    assert_eq!(r.diagnostics.len(), 2, "wed is fine: {:#?}", r.diagnostics);
}

#[test]
fn a_promo_window_ending_before_it_starts_is_refused() {
    let r = snapshot("bad-date-window");
    let d = find(&r.diagnostics, "search.promo_tiles[0].expiry");
    assert_eq!(d.line, 16);
    assert!(d.message.contains("before"), "{}", d.message);
}

#[test]
fn duplicate_location_ids_point_at_the_second() {
    let r = snapshot("duplicate-location-id");
    let d = find(&r.diagnostics, "locations[1].id");
    assert_eq!(d.line, 11);
    assert!(d.hint.as_deref().unwrap().contains("locations[0]"));
}

#[test]
fn missing_required_keys_are_all_listed() {
    let r = snapshot("missing-required");
    for key in ["site_url", "contact.email"] {
        let d = find(&r.diagnostics, key);
        assert!(
            d.message.starts_with("missing required key"),
            "{}",
            d.message
        );
        assert!(d.hint.is_some(), "the field's description is the hint");
    }
    assert_eq!(find(&r.diagnostics, "contact.email").line, 3);
}

#[test]
fn yaml_syntax_errors_have_a_line() {
    let r = snapshot("yaml-syntax");
    assert_eq!(r.diagnostics.len(), 1);
    assert!(r.diagnostics[0].message.starts_with("YAML syntax error"));
    assert_eq!(r.diagnostics[0].line, 12);
}

#[test]
fn every_problem_of_a_file_is_reported_at_once() {
    let r = snapshot("many-problems");
    let keys: Vec<&str> = r.diagnostics.iter().map(|d| d.key.as_str()).collect();
    for key in [
        "template",
        "timezone",
        "contact.phone",
        "contact.email",
        "stock.feed",
        "theme.primary",
    ] {
        assert!(keys.contains(&key), "missing {key} in {keys:?}");
    }
    assert_eq!(
        find(&r.diagnostics, "template").hint.as_deref(),
        Some("did you mean `basic`?")
    );
    assert_eq!(
        find(&r.diagnostics, "timezone").hint.as_deref(),
        Some("did you mean `Australia/Brisbane`?")
    );
}

#[test]
fn no_message_mentions_rust_types() {
    let dir = fixtures().join("invalid");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "yaml") {
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            for d in reject(&name).diagnostics {
                let text = format!("{} {:?} {:?}", d.message, d.expected, d.hint);
                for word in [
                    "u32",
                    "u64",
                    "i64",
                    "f64",
                    "Option<",
                    "Vec<",
                    "struct ",
                    "enum ",
                    "serde",
                    "DealerConfig",
                ] {
                    assert!(!text.contains(word), "{name}: `{word}` in {text}");
                }
            }
        }
    }
}

#[test]
fn links_must_go_somewhere_safe() {
    let r = snapshot("bad-links");
    assert!(find(&r.diagnostics, "navigation[0].href")
        .hint
        .as_deref()
        .unwrap()
        .contains("/search"));
    assert!(find(&r.diagnostics, "navigation[1]")
        .message
        .contains("neither `href`, `children` nor `menu`"));
    assert!(find(&r.diagnostics, "sell_your_car.href")
        .hint
        .as_deref()
        .unwrap()
        .contains("https://"));
    assert!(find(&r.diagnostics, "service.booking_url")
        .message
        .contains("https://"));
    assert!(find(&r.diagnostics, "features.make_offer")
        .expected
        .as_deref()
        .unwrap()
        .contains("`enquiry_form`"));
}

#[test]
fn a_valid_dealer_merges_over_its_preset() {
    std::env::set_current_dir(fixtures()).unwrap();
    let d = loader()
        .load(Path::new("valid/good-dealer.yaml"))
        .expect("valid");
    let c = &d.config;
    assert_eq!(d.slug, "good-dealer");
    // From the preset:
    assert_eq!(c.search.page_size, 24);
    assert!(c.features.compare);
    assert!(c.features.checkout.enabled);
    // Overridden by the dealer: lists replace, mappings merge key by key.
    assert_eq!(
        c.search.sort_options,
        vec![dealer_config::model::SortOption::PriceAsc]
    );
    assert_eq!(c.features.checkout.deposit, 0);
    // Platform defaults:
    assert_eq!(c.stock.include_sold_cars_days, 3);
    assert_eq!(c.stock.min_photos, 3);
    assert_eq!(c.copy.no_price_text, "Enquire for price.");
    // The old platform's defaults (docs/behaviour/content.md §2.9, §2.12, §4, §9).
    assert!(
        c.location_cards.show_hours
            && c.location_cards.show_licences
            && c.location_cards.show_buttons
    );
    assert_eq!(c.sell_your_car.href, "/trade-in/");
    assert_eq!(c.sell_your_car.button_label, "Click Here To Sell");
    assert_eq!(c.offers_display.collapse_description_over, 200);
    assert_eq!(c.offers_display.collapsed_length, 160);
    assert_eq!(c.offers_display.collapse_disclaimer_over, 200);
    assert_eq!(
        c.offers_display.thank_you_text,
        "We'll be in touch with you about your offer shortly."
    );
    assert_eq!(c.reviews.max_shown, 12);
    assert_eq!(c.legal.privacy_response_days, 30);
    assert_eq!(c.reviews.min_rating, 4);
    assert_eq!(c.features.checkout.hold_hours, 48);
    assert!(c.features.checkout.car_types.is_empty() && c.features.checkout.makes.is_empty());
    assert!(c.service.booking_url.is_none());
}
