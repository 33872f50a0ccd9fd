//! `dealergen diff` on fixture pairs: a temporary git repository holds the
//! base side (tests/fixtures/diff/base plus the real presets) in its one
//! commit; each case then lays its changed files over the working tree
//! (tests/fixtures/diff/<case>) and the Markdown is pinned with insta.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::repo_root;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff")
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_name() != ".keep" {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository with the base side committed.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        &repo_root().join("templates/presets"),
        &dir.path().join("templates/presets"),
    );
    copy_tree(&fixtures().join("base"), dir.path());
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

fn diff(repo: &Path, dealer: &str, base: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo)
        .args([
            "diff",
            "--dealer",
            dealer,
            "--base",
            base,
            "--as-of",
            "2026-11-20",
        ])
        .current_dir(repo)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The Markdown of `case` laid over the base, for `dealer`.
fn case(name: &str, dealer: &str) -> String {
    let repo = repo();
    copy_tree(&fixtures().join(name), repo.path());
    let (code, out, err) = diff(repo.path(), dealer, "HEAD");
    assert_eq!(code, 0, "{out}{err}");
    out
}

#[test]
fn no_change() {
    let md = case("no-change", "tiny-dealer");
    assert!(md.contains("No change to the site."), "{md}");
    assert!(md.contains("**Cars shown: 9 → 9. Pages:"), "{md}");
    insta::assert_snapshot!("diff_no_change", md);
}

#[test]
fn settings_change_buttons_navigation_promos_finance_edge_and_pages() {
    let md = case("settings", "tiny-dealer");
    for expected in [
        "### Buttons",
        "`cards.buttons`",
        "### Promo tiles and popups",
        "`search.promo_tiles[summer-sale]` added",
        "### Navigation and footer",
        "Contact us",
        "### Finance display",
        "`finance.page`: `\"/finance/\"` → `null`",
        "### Edge settings (the worker)",
        "staging.tinymotors.com.au",
        "`/contact-us/tiny-motors-north/`",
        // Car 6 has 2 photos: min_photos 3 -> 2 brings it on, with the rule that kept it off.
        "photo rule: it has 2 photo(s); stock.min_photos is 3",
    ] {
        assert!(md.contains(expected), "`{expected}` missing:\n{md}");
    }
    insta::assert_snapshot!("diff_settings", md);
}

#[test]
fn stock_change_names_each_car_and_the_rule() {
    let md = case("stock", "tiny-dealer");
    for expected in [
        "**Appear on the site (2)**",
        "| hidden flag: the feed sets show_on_dealer_website to false |",
        "| new in the feed |",
        "**Disappear from the site (2)**",
        "| no longer in the feed |",
        "sold window: it is sold and the feed gives no sold_date_timestamp",
        "$19,990 → $18,990",
        "Clearance → Price Drop",
    ] {
        assert!(md.contains(expected), "`{expected}` missing:\n{md}");
    }
    insta::assert_snapshot!("diff_stock", md);
}

/// A location's phone is on every car page there: one shared change that
/// names its setting, not a row per car; the repriced car keeps its row,
/// and the cars that list it among their similar cars say why they changed.
#[test]
fn a_change_many_car_pages_show_is_one_line_with_its_setting() {
    let md = case("shared", "tiny-dealer");
    for expected in [
        "| $19,990 → $18,490 |",
        // The car pages show the number masked (phone reveal): its masked
        // form changes, and the line still names the setting.
        "`location.phone`: `\"(07) 3000 XXXX\"` → `\"(07) 3111 XXXX\"`",
        "From the setting `locations[tiny-main].phone`",
        "(a car these pages list among their similar cars was repriced, sold or added)",
    ] {
        assert!(md.contains(expected), "`{expected}` missing:\n{md}");
    }
    // One row per car with changes of its own, not one per car at the location.
    let rows = md.lines().filter(|l| l.starts_with("| [")).count();
    let shared = md
        .lines()
        .find(|l| l.contains("`location.phone`"))
        .expect("the shared phone line");
    let pages: usize = shared
        .trim_start_matches("- **")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(pages >= 5, "{shared}");
    assert!(rows < pages, "{rows} car rows for {pages} pages:\n{md}");
    insta::assert_snapshot!("diff_shared", md);
}

#[test]
fn a_preset_change_reaches_every_dealer_on_it() {
    let repo = repo();
    let preset = repo.path().join("templates/presets/multi-brand-group.yaml");
    let text = std::fs::read_to_string(&preset).unwrap();
    let changed = text.replace(
        "  buttons: [enquire, test_drive, finance, view_details]",
        "  buttons: [enquire, view_details]",
    );
    assert_ne!(
        text, changed,
        "the preset's card buttons moved; update this test"
    );
    std::fs::write(&preset, changed).unwrap();
    let (code, md, err) = diff(repo.path(), "tiny-dealer", "HEAD");
    assert_eq!(code, 0, "{err}");
    assert!(md.contains("### Buttons"), "{md}");
    assert!(md.contains("→ `[\"enquire\",\"view_details\"]`"), "{md}");
}

#[test]
fn a_new_dealer_and_an_invalid_one() {
    let md = case("new-dealer", "new-dealer");
    assert!(md.contains("This dealer is new"), "{md}");
    assert!(md.contains("**Cars shown: none → 3."), "{md}");
    insta::assert_snapshot!("diff_new_dealer", md);

    let md = case("invalid", "tiny-dealer");
    assert!(
        md.contains("The changed version of the dealer file does not validate"),
        "{md}"
    );
    assert!(md.contains("`stock.min_photos`"), "{md}");
    assert!(md.contains("**Disappear from the site (9)**"), "{md}");
}

#[test]
fn a_removed_dealer_and_a_bad_revision() {
    let repo = repo();
    std::fs::remove_file(repo.path().join("dealers/tiny-dealer.yaml")).unwrap();
    let (code, md, _) = diff(repo.path(), "tiny-dealer", "HEAD");
    assert_eq!(code, 0);
    assert!(md.contains("This change removes the dealer"), "{md}");
    assert!(md.contains("**Cars shown: 9 → none."), "{md}");

    let (code, _, err) = diff(repo.path(), "tiny-dealer", "no-such-branch");
    assert_eq!(code, 1);
    assert!(err.contains("`no-such-branch` is not a commit"), "{err}");
}

fn changed(repo: &Path, extra: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo)
        .args(["changed", "--base", "HEAD"])
        .args(extra)
        .current_dir(repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn changed_lists_the_dealers_whose_inputs_changed() {
    let repo = repo();
    // A second dealer on another preset, committed.
    copy_tree(&fixtures().join("new-dealer"), repo.path());
    let yaml = repo.path().join("dealers/new-dealer.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace("template: multi-brand-group", "template: franchise-group"),
    )
    .unwrap();
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-q", "-m", "second dealer"]);
    assert!(changed(repo.path(), &[]).is_empty(), "nothing changed yet");

    // Its feed.
    let feed = repo.path().join("dealers/stock/new.json");
    std::fs::write(&feed, "[]\n").unwrap();
    assert_eq!(changed(repo.path(), &[]), ["new-dealer"]);
    git(repo.path(), &["checkout", "-q", "--", "."]);

    // The other's YAML, and the preset only it uses.
    let tiny = repo.path().join("dealers/tiny-dealer.yaml");
    std::fs::write(&tiny, std::fs::read_to_string(&tiny).unwrap() + "# note\n").unwrap();
    assert_eq!(changed(repo.path(), &[]), ["tiny-dealer"]);
    git(repo.path(), &["checkout", "-q", "--", "."]);
    let preset = repo.path().join("templates/presets/franchise-group.yaml");
    std::fs::write(
        &preset,
        std::fs::read_to_string(&preset).unwrap() + "# note\n",
    )
    .unwrap();
    assert_eq!(changed(repo.path(), &[]), ["new-dealer"]);
    git(repo.path(), &["checkout", "-q", "--", "."]);

    // A file of the dealer's own folder, not yet added to git.
    std::fs::create_dir_all(repo.path().join("dealers/tiny-dealer/pages")).unwrap();
    std::fs::write(
        repo.path().join("dealers/tiny-dealer/pages/about.md"),
        "# About\n",
    )
    .unwrap();
    assert_eq!(changed(repo.path(), &[]), ["tiny-dealer"]);
    std::fs::remove_dir_all(repo.path().join("dealers/tiny-dealer")).unwrap();

    // The platform: every dealer.
    std::fs::create_dir_all(repo.path().join("templates/site")).unwrap();
    std::fs::write(repo.path().join("templates/site/x.astro"), "---\n---\n").unwrap();
    assert_eq!(changed(repo.path(), &[]), ["new-dealer", "tiny-dealer"]);
    // Shards split the list the way `build --shard` does: together, all of it once.
    let mut shards: Vec<String> = (1..=3)
        .flat_map(|i| changed(repo.path(), &["--shard", &format!("{i}/3")]))
        .collect();
    shards.sort();
    assert_eq!(shards, ["new-dealer", "tiny-dealer"]);
    std::fs::remove_dir_all(repo.path().join("templates/site")).unwrap();

    // Git's empty tree as the base (a first push): every dealer is new.
    let empty = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    assert_eq!(
        changed_from(repo.path(), empty),
        ["new-dealer", "tiny-dealer"]
    );
}

fn changed_from(repo: &Path, base: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo)
        .args(["changed", "--base", base])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// The ads feeds of the ads fixture: a repriced car is a changed row (its
/// price column), a car sold is a removed row with why, a car given its
/// VIN is an added row, and a tracking parameter changes one column of
/// every Google row, said once as a column count.
#[test]
fn ads_feed_rows_added_removed_and_changed() {
    let ads = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ads");
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        &repo_root().join("templates/presets"),
        &dir.path().join("templates/presets"),
    );
    copy_tree(&ads, &dir.path().join("dealers"));
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);

    let feed = dir.path().join("dealers/stock/ads.json");
    let mut records: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&feed).unwrap()).unwrap();
    for r in records.iter_mut() {
        match r["stocknum"].as_str().unwrap() {
            "ADS-1" => r["price"] = 43990.into(),
            "ADS-2" => r["status"] = "sold".into(),
            "ADS-NOVIN" => r["vin"] = "JTDKB20U403120009".into(),
            _ => {}
        }
    }
    std::fs::write(&feed, serde_json::to_string_pretty(&records).unwrap()).unwrap();
    let yaml = dir.path().join("dealers/ads-dealer.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let changed = text.replace(
        "utm: { source: google, medium: vehicle_ads }",
        "utm: { source: google, medium: vehicle_ads, campaign: summer }",
    );
    assert_ne!(text, changed, "the fixture's Google UTM line");
    std::fs::write(&yaml, changed).unwrap();

    let (code, md, err) = diff(dir.path(), "ads-dealer", "HEAD");
    assert_eq!(code, 0, "{md}{err}");
    for expected in [
        "### Ads feeds",
        "**Google vehicle ads feed** (`/feeds/google-vehicle-ads.tsv`): 4 rows → 4 rows.",
        "**Meta vehicles feed** (`/feeds/meta-vehicles.csv`): 6 rows → 6 rows.",
        "Rows added (1):",
        "| 9 |",
        "Rows removed (1):",
        "| 2 | not on the site now: sold window: it is sold",
        // Every Google row's link carries the campaign; one row's price.
        "Rows changed (3); columns: `link` (3), `price` (1).",
        "`price`: `45990.00 AUD` → `43990.00 AUD`",
        "Rows changed (1); columns: `price` (1).",
    ] {
        assert!(md.contains(expected), "`{expected}` missing:\n{md}");
    }
    insta::assert_snapshot!("diff_ads_feeds", md);
}
