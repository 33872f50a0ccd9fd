//! Builds fixture dealers (tests/fixtures/dealers) with the real binary into
//! temporary folders and checks the files it writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const AS_OF: &str = "2026-11-20T00:00:00Z";
/// The hourly refresh after AS_OF: a build without --as-of judges the stock
/// at the start of its hour.
const NEXT_HOUR: &str = "2026-11-20T01:00:00Z";

use crate::support;
use crate::support::repo_root;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers")
}

/// Sites are built in a temporary folder outside the checkout: generated
/// sites must build wherever `--sites-dir` points.
fn sites_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        !dir.path().starts_with(repo_root()),
        "the temporary folder {} is inside the checkout; point TMPDIR elsewhere",
        dir.path().display()
    );
    dir
}

/// A copy of the fixture dealers in a temporary folder outside the checkout.
fn dealers_outside() -> tempfile::TempDir {
    let dir = sites_dir();
    std::fs::create_dir_all(dir.path().join("stock")).unwrap();
    for f in ["tiny-dealer.yaml", "stock/tiny.json"] {
        std::fs::copy(fixtures().join(f), dir.path().join(f)).unwrap();
    }
    dir
}

/// dealergen on a checkout (`root`), a dealers folder and a sites folder.
fn dealergen_at(
    root: impl AsRef<Path>,
    dealers: impl AsRef<Path>,
    sites: impl AsRef<Path>,
) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dealergen"));
    cmd.arg("--root")
        .arg(root.as_ref())
        .arg("--dealers-dir")
        .arg(dealers.as_ref())
        .arg("--sites-dir")
        .arg(sites.as_ref());
    cmd
}

/// `dealergen build --all --as-of <at> <extra>` that must succeed: its output.
fn build_all_at(root: &Path, dealers: &Path, sites: &Path, at: &str, extra: &[&str]) -> String {
    let out = dealergen_at(root, dealers, sites)
        .args(["build", "--all", "--as-of", at])
        .args(extra)
        .current_dir(dealers)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    text(&out)
}

/// Appends `yaml` to the dealer file `<dealers>/<slug>.yaml`.
fn append_to_dealer(dealers: &Path, slug: &str, yaml: &str) {
    let file = dealers.join(format!("{slug}.yaml"));
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(yaml);
    std::fs::write(&file, text).unwrap();
}

fn dealergen(sites: &Path, args: &[&str]) -> Output {
    dealergen_at(repo_root(), fixtures(), sites)
        .args(args)
        .current_dir(fixtures())
        .env("NO_COLOR", "1")
        .output()
        .expect("dealergen runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn read_json(p: PathBuf) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

fn generated(sites: &Path) -> (Value, Vec<Value>) {
    let data = sites.join("tiny-dealer/src/data");
    let site = read_json(data.join("site.json"));
    let cars = read_json(data.join("cars.json"))
        .as_array()
        .unwrap()
        .clone();
    (site, cars)
}

/// The `props` of every Astro island on a page, HTML-unescaped.
fn island_props(html: &str) -> Vec<String> {
    html.split("<astro-island")
        .skip(1)
        .filter_map(|tag| {
            let tag = &tag[..tag.find('>')?];
            let start = tag.find(" props=\"")? + " props=\"".len();
            let end = start + tag[start..].find('"')?;
            Some(
                tag[start..end]
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

fn car<'a>(cars: &'a [Value], slug: &str) -> &'a Value {
    cars.iter()
        .find(|c| c["slug"] == slug)
        .unwrap_or_else(|| panic!("{slug} not visible"))
}

/// Writes the tiny dealer's project and data without running Astro.
fn generate_tiny() -> (tempfile::TempDir, Output) {
    let sites = sites_dir();
    let out = dealergen(
        sites.path(),
        &[
            "build",
            "--dealer",
            "tiny-dealer",
            "--no-astro",
            "--as-of",
            AS_OF,
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    (sites, out)
}

#[test]
fn visibility_rules_decide_which_cars_get_pages() {
    let (sites, out) = generate_tiny();
    let (_, cars) = generated(sites.path());
    let mut slugs: Vec<&str> = cars.iter().map(|c| c["slug"].as_str().unwrap()).collect();
    slugs.sort();
    // 4 sold long ago, 5 hidden, 6 too few photos, 7 excluded make, 14 other
    // dealership, 15 and 16 malformed.
    assert_eq!(
        slugs,
        ["car-1", "car-10", "car-11", "car-12", "car-13", "car-2", "car-3", "car-8", "car-9"]
    );
    let log = text(&out);
    assert!(
        log.contains("9 cars shown, 5 hidden; stock feed: 2 records skipped, 0 warnings"),
        "{log}"
    );
    assert!(
        log.contains("tiny-dealer: stock feed stock/tiny.json: skipped record 15 (id 15, slug car-15): `model`, `year`, `car_type` and `status` are missing."),
        "{log}"
    );
    assert!(
        log.contains("skipped record 16 (id 16, slug car-16): `year` is \"twenty\"; expected a year such as 2021."),
        "{log}"
    );
}

#[test]
fn cards_get_one_tag_in_priority_order_and_price_text() {
    let (sites, _) = generate_tiny();
    let (_, cars) = generated(sites.path());
    let tag = |slug: &str| car(&cars, slug)["tag_banner"].clone();
    assert_eq!(tag("car-1"), Value::Null);
    assert_eq!(tag("car-2"), "COMING SOON");
    assert_eq!(tag("car-3"), "SOLD");
    assert_eq!(tag("car-8"), "Reserved");
    assert_eq!(tag("car-9"), "Clearance");
    assert_eq!(tag("car-10"), "New Arrival");
    assert_eq!(tag("car-11"), "Toyota Certified Pre-Owned");
    assert_eq!(car(&cars, "car-1")["price_text"], "$19,990");
    assert_eq!(car(&cars, "car-9")["was_price_text"], "$22,990");
    assert_eq!(car(&cars, "car-1")["was_price_text"], Value::Null);
    assert_eq!(car(&cars, "car-12")["price_text"], "PREORDER");
    assert_eq!(car(&cars, "car-13")["price_text"], "Enquire for price.");
    assert_eq!(car(&cars, "car-3")["in_stock"], false);
    assert_eq!(
        car(&cars, "car-1")["comment_paragraphs"],
        serde_json::json!(["One owner.", "Full service history."])
    );
    assert_eq!(car(&cars, "car-13")["location"]["slug"], "service-centre");
    assert_eq!(car(&cars, "car-1")["location"]["slug"], "tiny-motors");
}

#[test]
fn site_data_and_edge_config_come_from_the_yaml() {
    let (sites, _) = generate_tiny();
    let (site, _) = generated(sites.path());
    assert_eq!(site["name"], "Tiny Motors");
    assert_eq!(site["footer"]["copyright"], "© 2026 Tiny Motors Pty Ltd");
    assert_eq!(site["navigation"][1]["children"][0]["href"], "/search/");
    // From the multi-brand-group preset, not the dealer file:
    assert_eq!(site["features"]["compare"], true);
    assert_eq!(site["search"]["sort_options"].as_array().unwrap().len(), 6);
    assert_eq!(site["search"]["page_size"], 21);
    let hours = &site["locations"][0]["hours"][0];
    assert_eq!(hours["department"], "sales");
    assert_eq!(
        hours["lines"][0],
        serde_json::json!({"days": "Mon-Fri", "text": "8:30am - 5:30pm"})
    );
    assert_eq!(
        hours["lines"][2],
        serde_json::json!({"days": "Sun", "text": "Closed"})
    );
    assert_eq!(site["stock_summary"]["total"], 9);
    assert_eq!(site["stock_summary"]["by_type"][0]["car_type"], "used");

    // --no-astro publishes no release: the worker's files of this
    // generation wait in generated/.
    let edge = read_json(sites.path().join("tiny-dealer/generated/edge-config.json"));
    assert!(!sites.path().join("tiny-dealer/releases").exists());
    assert!(std::fs::symlink_metadata(sites.path().join("tiny-dealer/dist")).is_err());
    assert_eq!(edge["dealer"], "tiny-dealer");
    assert_eq!(
        edge["origins"],
        serde_json::json!(["https://www.tinymotors.com.au"])
    );
    assert_eq!(edge["locations"][1]["phone"], "(07) 3000 0003");
    // The astro project is thin: its pages import the shared app, copied
    // into it (so it builds outside the checkout), and the shared node_modules.
    let site = sites.path().join("tiny-dealer");
    let config = std::fs::read_to_string(site.join("astro.config.mjs")).unwrap();
    assert!(config.contains("'./app/src'"), "{config}");
    assert_eq!(
        std::fs::read_to_string(site.join("app/src/views/SearchPage.astro")).unwrap(),
        std::fs::read_to_string(repo_root().join("astro-app/src/views/SearchPage.astro")).unwrap()
    );
    assert!(site.join("app/public/favicon.svg").is_file());
    assert!(site.join("node_modules").exists());
    let package = read_json(site.join("package.json"));
    assert_eq!(
        package["dependencies"],
        read_json(repo_root().join("package.json"))["dependencies"]
    );
}

#[test]
fn a_full_build_outside_the_checkout_writes_every_page_and_a_failed_one_keeps_the_old_site() {
    support::require_astro();
    // Both the dealers and the sites folder are outside the checkout.
    let sites = sites_dir();
    let dealers = dealers_outside();
    let build = |node: Option<&str>| {
        let mut cmd = dealergen_at(repo_root(), dealers.path(), sites.path());
        cmd.args(["build", "--dealer", "tiny-dealer", "--as-of", AS_OF])
            .current_dir(dealers.path());
        if let Some(node) = node {
            cmd.env("DEALERGEN_NODE", node);
        }
        cmd.output().unwrap()
    };
    let out = build(None);
    assert!(out.status.success(), "{}", text(&out));
    let dist = sites.path().join("tiny-dealer/dist");
    for page in [
        "index.html",
        "search/index.html",
        "contact-us/index.html",
        "cars/car-1/index.html",
        "cars/car-3/index.html",
    ] {
        assert!(dist.join(page).is_file(), "missing {page}");
    }
    for hidden in ["car-4", "car-5", "car-6", "car-7", "car-14", "car-15"] {
        assert!(
            !dist.join("cars").join(hidden).exists(),
            "{hidden} must not get a page"
        );
    }
    let car_page = std::fs::read_to_string(dist.join("cars/car-9/index.html")).unwrap();
    assert!(
        car_page.contains("$19,990") && car_page.contains("$22,990"),
        "price and was-price on the page"
    );
    // The feed's formatting reaches the page; its script, handler and
    // javascript: link do not.
    for kept in [
        "<b>One owner</b> &amp; serviced<br>New tyres",
        "<ul><li>Tow bar</li><li>Tint</li></ul>",
    ] {
        assert!(car_page.contains(kept), "{kept} is not on the car page");
    }
    for banned in ["alert(\"x\")", "steal()", "javascript:alert"] {
        assert!(!car_page.contains(banned), "{banned} reached the car page");
    }
    let home = std::fs::read_to_string(dist.join("index.html")).unwrap();
    assert!(home.contains("Tiny Motors"));
    // The dealer's `cards.buttons` reach the search island once, as
    // `cards.buttons`: the page-level data is not repeated under `search`.
    let search = std::fs::read_to_string(dist.join("search/index.html")).unwrap();
    let props = island_props(&search)
        .into_iter()
        .find(|p| p.contains("\"search\""))
        .expect("the search island");
    assert_eq!(props.matches("\"buttons\"").count(), 1, "{props}");
    assert_eq!(props.matches("\"test_drive\"").count(), 1, "{props}");
    assert!(!props.contains("card_buttons"), "{props}");

    // The release layout: dist and the edge files through `current`.
    let site = sites.path().join("tiny-dealer");
    let first = release_of(&site);
    assert_release_layout(&site, &first);
    assert_eq!(
        read_json(site.join("edge-config.json"))["dealer"],
        "tiny-dealer"
    );

    // Now Astro fails (Node cannot run): the build fails, dist is untouched.
    let before = std::fs::read_to_string(dist.join("index.html")).unwrap();
    let out = build(Some("/bin/false"));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("FAILED tiny-dealer"), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(dist.join("index.html")).unwrap(),
        before
    );
    assert!(dist.join("cars/car-1/index.html").is_file());
    assert_eq!(
        release_of(&site),
        first,
        "the failed build kept the release"
    );
    let releases: Vec<_> = std::fs::read_dir(site.join("releases")).unwrap().collect();
    assert_eq!(releases.len(), 1, "nothing staged is left behind");
}

/// The release `current` points at.
fn release_of(site: &Path) -> String {
    let target = std::fs::read_link(site.join("current"))
        .unwrap_or_else(|e| panic!("{}/current: {e}", site.display()));
    target.file_name().unwrap().to_string_lossy().into_owned()
}

/// `releases/<id>/` holds the site, the edge files, the key and the
/// description; the top-level names are links through `current`.
fn assert_release_layout(site: &Path, id: &str) {
    assert_release_layout_for(site, id, "tiny-dealer");
}

fn assert_release_layout_of(site: &Path, slug: &str) {
    assert_release_layout_for(site, &release_of(site), slug);
}

fn assert_release_layout_for(site: &Path, id: &str, slug: &str) {
    let dir = site.join("releases").join(id);
    assert!(dir.join("dist/index.html").is_file());
    for f in [
        "edge-config.json",
        "edge-kv.json",
        "build-key",
        "release.json",
    ] {
        assert!(dir.join(f).is_file(), "{id} has no {f}");
    }
    let key = std::fs::read_to_string(dir.join("build-key")).unwrap();
    let key = key.trim_end();
    assert_eq!(key.len(), 64, "{key}");
    assert!(key.chars().all(|c| c.is_ascii_hexdigit()));
    // <UTC yyyymmddThhmmssZ>-<first 12 hex of the key>
    let (stamp, short) = id.split_at(16);
    assert!(
        chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%SZ").is_ok(),
        "{id}"
    );
    assert_eq!(&short[1..13], &key[..12], "{id}");
    let info = read_json(dir.join("release.json"));
    assert_eq!(info["slug"], slug);
    assert_eq!(info["key"], key);
    assert_eq!(info["release"], id);
    assert!(info["pages"].as_u64().unwrap() > 5, "{info}");
    assert!(info["built_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(info["dealergen_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        std::fs::read_link(site.join("current")).unwrap(),
        Path::new("releases").join(id)
    );
    for (name, target) in [
        ("dist", "current/dist"),
        ("edge-config.json", "current/edge-config.json"),
        ("edge-kv.json", "current/edge-kv.json"),
    ] {
        assert_eq!(
            std::fs::read_link(site.join(name)).unwrap(),
            Path::new(target),
            "{name}"
        );
    }
}

/// A checkout to build with whose templates and shared app sources a test
/// may change: templates/ and astro-app/src copied, the rest linked.
fn checkout_copy() -> tempfile::TempDir {
    let dir = sites_dir();
    let root = repo_root();
    let copy = |from: &Path, to: &Path| {
        for entry in walkdir::WalkDir::new(from) {
            let entry = entry.unwrap();
            let target = to.join(entry.path().strip_prefix(from).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    };
    copy(&root.join("templates"), &dir.path().join("templates"));
    copy(
        &root.join("astro-app/src"),
        &dir.path().join("astro-app/src"),
    );
    for link in [
        "astro-app/public",
        "node_modules",
        "package.json",
        "package-lock.json",
    ] {
        std::os::unix::fs::symlink(root.join(link), dir.path().join(link)).unwrap();
    }
    dir
}

/// Sets `field` of car-9 in the feed at `feed_path` (tests/fixtures/dealers/stock/tiny.json's copy).
fn set_car9(feed_path: &Path, field: &str, value: Value) {
    let mut feed: Value = read_json(feed_path.to_path_buf());
    let car9 = feed
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["slug"] == "car-9")
        .unwrap();
    car9[field] = value;
    std::fs::write(feed_path, feed.to_string()).unwrap();
}

/// Changes code that runs only in the browser (the car page's photo strip
/// script) in the checkout copy at `root`: no page's server code changes,
/// yet every car page names the script by a new hashed file.
fn change_browser_script(root: &Path, marker: &str) {
    // A module only a component's <script> imports (the header's event
    // listener, on every page): outside the server's module graph, so only
    // the app's code key (astro-app/src/integrations/code-key.ts) re-renders
    // the pages that name the header's script; without it every page but
    // the changed cars' named a script the release no longer had...
    let listener = root.join("astro-app/src/lib/event-clicks.ts");
    let code = std::fs::read_to_string(&listener).unwrap();
    assert!(code.contains("  doc.addEventListener('click', onClick);\n"));
    std::fs::write(
        &listener,
        code.replacen(
            "  doc.addEventListener('click', onClick);\n",
            &format!("  doc.addEventListener('click', onClick);\n  doc.documentElement.dataset.cacheTest = '{marker}';\n"),
            1,
        ),
    )
    .unwrap();
    // ...and a module a page script imports (the car page's photo strip).
    let gallery = root.join("astro-app/src/lib/car-page/gallery.ts");
    let code = std::fs::read_to_string(&gallery).unwrap();
    assert!(code.contains("img.removeAttribute('data-deferred');"));
    std::fs::write(
        &gallery,
        code.replacen(
            "img.removeAttribute('data-deferred');",
            &format!(
                "img.removeAttribute('data-deferred');\n    img.dataset.cacheTest = '{marker}';"
            ),
            1,
        ),
    )
    .unwrap();
}

/// Every HTML page of the built site `dist`: its path and its text.
fn html_pages(dist: &Path) -> impl Iterator<Item = (PathBuf, String)> {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| {
            let html = std::fs::read_to_string(e.path()).unwrap();
            (e.into_path(), html)
        })
}

/// Every page of the site in `dist` names the header's script as built
/// with `marker` in it: a restored page naming the previous build's header
/// script would run old code (or none, once that file is gone).
fn assert_pages_run_the_header_script_with(dist: &Path, marker: &str) {
    let script =
        regex::Regex::new(r#"src="(/_astro/SiteHeader\.astro_astro_type_script[^"]*\.js)""#)
            .unwrap();
    let mut pages = 0;
    for (path, html) in html_pages(dist) {
        if !html.contains("<header class=\"site-header\"") {
            continue;
        }
        let named = script
            .captures(&html)
            .unwrap_or_else(|| panic!("{} names no header script", path.display()));
        let code = std::fs::read_to_string(dist.join(named[1].trim_start_matches('/'))).unwrap();
        assert!(
            code.contains(marker),
            "{} names {}, a header script without the change",
            path.display(),
            &named[1]
        );
        pages += 1;
    }
    assert!(pages > 10, "only {pages} pages with the header");
}

/// Every script, island and renderer a page of the site in `dist` names
/// is a file of that site: the page cache's one way to serve a broken page
/// is a restored page naming a bundle of an earlier build.
fn assert_pages_name_only_files_the_site_has(dist: &Path) {
    let asset = regex::Regex::new(
        r#"(?:src|component-url|renderer-url|before-hydration-url)="(/_astro/[^"]+)""#,
    )
    .unwrap();
    let mut pages = 0;
    for (path, html) in html_pages(dist) {
        pages += 1;
        for m in asset.captures_iter(&html) {
            assert!(
                dist.join(&m[1][1..]).is_file(),
                "{} names {}, which the release does not have",
                path.display(),
                &m[1]
            );
        }
    }
    assert!(pages > 5, "{} has {pages} pages", dist.display());
}

/// The cache never serves a stale page: an unchanged dealer is not
/// rebuilt; one car's price change reaches its page and the listings; a
/// change to the shared layout reaches every page; --force rebuilds.
#[test]
fn the_build_cache_skips_unchanged_dealers_and_never_serves_a_stale_page() {
    support::require_astro();
    let root = checkout_copy();
    let sites = sites_dir();
    let dealers = dealers_outside();
    let build =
        |extra: &[&str]| build_all_at(root.path(), dealers.path(), sites.path(), AS_OF, extra);
    let site = sites.path().join("tiny-dealer");
    let dist = site.join("dist");
    let page = |p: &str| std::fs::read_to_string(dist.join(p)).unwrap();
    let all_pages = || -> Vec<(PathBuf, String)> {
        walkdir::WalkDir::new(site.join("current/dist"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
            .map(|e| {
                (
                    e.path().to_path_buf(),
                    std::fs::read_to_string(e.path()).unwrap(),
                )
            })
            .collect()
    };

    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let first = release_of(&site);
    assert!(page("cars/car-9/index.html").contains("$19,990"));

    // Nothing changed: nothing rebuilt, the same release stays.
    let log = build(&[]);
    assert!(log.contains("cached tiny-dealer"), "{log}");
    assert_eq!(release_of(&site), first);

    // A change to the YAML that changes no generated byte (a comment):
    // the inputs differ, the build key does not, so nothing is rebuilt and
    // the release records the new inputs for the next build.
    let inputs = || std::fs::read_to_string(site.join("current/inputs-key")).unwrap();
    let inputs_before = inputs();
    append_to_dealer(
        dealers.path(),
        "tiny-dealer",
        "# a comment changes no page\n",
    );
    let log = build(&[]);
    assert!(log.contains("cached tiny-dealer"), "{log}");
    assert_eq!(release_of(&site), first);
    assert_ne!(inputs(), inputs_before);
    // The summary of an unchanged dealer still names its cars.
    assert!(log.contains("cached tiny-dealer: 9 cars shown"), "{log}");

    // One car's price: its page and the listings that show it change.
    let (_, cars_before) = generated(sites.path());
    let feed_path = dealers.path().join("stock/tiny.json");
    let set_car9 = |field: &str, value: Value| set_car9(&feed_path, field, value);
    set_car9("price", 17490.into());
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let second = release_of(&site);
    assert_ne!(second, first);
    assert_eq!(
        std::fs::read_link(site.join("previous")).unwrap(),
        Path::new("releases").join(&first),
        "the release before is kept for rollback"
    );
    let car_page = page("cars/car-9/index.html");
    assert!(car_page.contains("$17,490"), "the car page is stale");
    let index = std::fs::read_to_string(site.join("src/data/search-index.json")).unwrap();
    assert!(index.contains("17490"), "the search data is stale");
    let listings: Vec<String> = all_pages()
        .into_iter()
        .filter(|(p, text)| !p.ends_with("cars/car-9/index.html") && text.contains("$17,490"))
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(
        !listings.is_empty(),
        "no listing page shows the new price of car-9"
    );
    assert_release_layout(&site, &second);
    // Astro's page cache. A price shows on other cars' pages too (their
    // similar cars): the tiny fixture's cars are all similar to car-9, so
    // every car page was rendered again. A change only car-9's own page
    // shows (the dealer's comments) re-renders its pages and reuses the
    // other cars'.
    let (_, cars_after) = generated(sites.path());
    assert!(cars_after.iter().all(|c| !cars_before.contains(c)));
    set_car9(
        "dealercomments",
        "Comments changed for the page-cache test".into(),
    );
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let (_, cars_now) = generated(sites.path());
    let (changed, unchanged): (Vec<&Value>, Vec<&Value>) =
        cars_now.iter().partition(|c| !cars_after.contains(c));
    assert_eq!(
        changed
            .iter()
            .map(|c| c["slug"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["car-9"]
    );
    assert!(page("cars/car-9/index.html").contains("Comments changed for the page-cache test"));
    let figures = regex::Regex::new(r"(\d+) pages \((\d+) unchanged, from the page cache\)")
        .unwrap()
        .captures(&log)
        .map(|c| {
            (
                c[1].parse::<usize>().unwrap(),
                c[2].parse::<usize>().unwrap(),
            )
        });
    let (pages, reused) = figures.unwrap_or_else(|| panic!("no page-cache figure in:\n{log}"));
    assert!(
        reused > 0 && reused < pages,
        "{reused} of {pages} pages reused"
    );
    let astro_log = std::fs::read_to_string(site.join("build.log")).unwrap();
    let line = |page: &str| {
        astro_log
            .lines()
            .find(|l| l.contains(&format!(" /cars/{page}/index.html ")))
            .unwrap_or_else(|| panic!("{page} not in build.log:\n{astro_log}"))
            .trim_end()
            .to_string()
    };
    assert!(!line("car-9").ends_with("(restored)"), "{}", line("car-9"));
    for car in &unchanged {
        let l = line(car["slug"].as_str().unwrap());
        assert!(
            l.ends_with("(restored)"),
            "unchanged car rendered again: {l}"
        );
    }
    // An unchanged page costs no copy: the release's file is the page
    // cache's (one file, hard-linked), as the shared bundles are.
    let unchanged_car = unchanged[0]["slug"].as_str().unwrap().to_string();
    let car_file = format!("cars/{unchanged_car}/index.html");
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let cached = site.join(".astro-cache/dist").join(&car_file);
    assert_eq!(
        inode(&site.join("current/dist").join(&car_file)),
        inode(&cached),
        "the restored page is linked from the page cache"
    );
    // A linked page rendered again never changes the release that shares
    // it: Astro's writes (the page, the cache's copy) are new files.
    let linked_release = std::fs::canonicalize(site.join("current")).unwrap();
    let linked_before =
        std::fs::read_to_string(linked_release.join("dist").join(&car_file)).unwrap();
    let mut feed: Value = read_json(feed_path.clone());
    feed.as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["slug"] == unchanged_car.as_str())
        .unwrap_or_else(|| panic!("{unchanged_car} is not in the feed"))["dealercomments"] =
        "Rendered again over a linked page".into();
    std::fs::write(&feed_path, feed.to_string()).unwrap();
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert!(
        page(&car_file).contains("Rendered again over a linked page"),
        "{unchanged_car}'s page shows its change"
    );
    assert_eq!(
        std::fs::read_to_string(linked_release.join("dist").join(&car_file)).unwrap(),
        linked_before,
        "the release before kept its own page"
    );
    // Valid HTML holds for restored (linked) pages as for rendered ones:
    // Astro's island style is in <head>, never in <body>
    // (astro-app/src/integrations/valid-html.ts skips a linked page, whose
    // cache copy it fixed when the page was rendered).
    const ISLAND_STYLE: &str =
        "<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>";
    let pages_now = all_pages();
    let in_body: Vec<String> = pages_now
        .iter()
        .filter(|(_, html)| {
            html.find("</head>")
                .is_some_and(|head| html[head..].contains(ISLAND_STYLE))
        })
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(in_body.is_empty(), "island style in <body>: {in_body:?}");
    assert!(
        pages_now.iter().any(|(p, html)| html.contains(ISLAND_STYLE)
            && std::fs::metadata(p).is_ok_and(|m| std::os::unix::fs::MetadataExt::nlink(&m) > 1)),
        "a restored, linked page with islands is among them"
    );
    assert_ne!(
        inode(&site.join("current/dist").join(&car_file)),
        inode(&linked_release.join("dist").join(&car_file))
    );

    // ...and the site is the one a full render makes, file for file.
    let incremental = site_files(&site.join("current/dist"));
    let log = build(&["--force"]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert!(
        !log.contains("from the page cache"),
        "--force reused pages: {log}"
    );
    let forced = release_of(&site);
    assert_eq!(site_files(&site.join("current/dist")), incremental);

    // A change to the shared layout: every page changes.
    let layout = root.path().join("astro-app/src/layouts/BaseLayout.astro");
    let text_before = std::fs::read_to_string(&layout).unwrap();
    assert!(text_before.contains("<body>"));
    std::fs::write(
        &layout,
        text_before.replacen("<body>", "<body data-cache-test=\"layout-v2\">", 1),
    )
    .unwrap();
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let third = release_of(&site);
    assert_ne!(third, forced);
    let pages = all_pages();
    assert!(pages.len() > 5);
    for (path, text) in &pages {
        if text.contains("<body") {
            assert!(
                text.contains("data-cache-test=\"layout-v2\""),
                "{} is stale after the layout changed",
                path.display()
            );
        }
    }
    // Only the current release and the one before are kept.
    assert!(!site.join("releases").join(&first).exists());
    assert!(!site.join("releases").join(&second).exists());
    assert!(site.join("releases").join(&forced).is_dir());

    // A change to code that runs only in the browser (the car page's photo
    // strip script): no page's server code changed, yet every car page must
    // be rendered again, as it names the script by its new hashed file. No
    // page may name a script the release does not have.
    let script_of = |text: &str| -> String {
        regex::Regex::new(r#"/_astro/CarPage\.astro_astro_type_script[^"]*\.js"#)
            .unwrap()
            .find(text)
            .map(|m| m.as_str().to_string())
            .expect("a car page names its page script")
    };
    let before = script_of(&page("cars/car-9/index.html"));
    change_browser_script(root.path(), "client-v2");
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert_pages_name_only_files_the_site_has(&site.join("current/dist"));
    assert_pages_run_the_header_script_with(&site.join("current/dist"), "client-v2");
    for car in &cars_now {
        let file = format!("cars/{}/index.html", car["slug"].as_str().unwrap());
        assert_ne!(
            script_of(&page(&file)),
            before,
            "{file} kept the old script"
        );
    }
    let fourth = release_of(&site);
    assert_ne!(fourth, third);

    // --force rebuilds the unchanged dealer.
    let log = build(&["--force"]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert_ne!(release_of(&site), fourth);
    assert_eq!(
        std::fs::read_link(site.join("previous")).unwrap(),
        Path::new("releases").join(&fourth)
    );
}

/// The hourly refresh: a build without `--as-of` judges the stock at the
/// start of the hour, so each hour's build has a new instant in its data.
/// A page that applies no time rule keeps its cache key across that change
/// (were the instant in every page's props, every refresh would render
/// every page again); a page whose time rule moved (a promo tile opening
/// within the hour) is rendered again, and the result is the site a full
/// render at the new hour makes, file for file.
#[test]
fn the_next_hour_restores_the_pages_no_time_rule_moved_and_shows_what_opened() {
    support::require_astro();
    let sites = sites_dir();
    let dealers = dealers_outside();
    // Brisbane is UTC+10: the tile opens at 00:30Z, between AS_OF and NEXT_HOUR.
    append_to_dealer(
        dealers.path(),
        "tiny-dealer",
        "search:\n  promo_tiles:\n    - id: opens-in-the-hour\n      positions: [2]\n      start: \"2026-11-20 10:30\"\n      expiry: \"2026-12-24\"\n      image: /images/no-photo.svg\n      alt: Opens within the hour\n      href: /search/\n",
    );
    let build = |at: &str, extra: &[&str]| {
        build_all_at(&repo_root(), dealers.path(), sites.path(), at, extra)
    };
    let site = sites.path().join("tiny-dealer");
    let page = |p: &str| std::fs::read_to_string(site.join("dist").join(p)).unwrap();
    const TILE: &str = "alt=\"Opens within the hour\"";

    build(AS_OF, &[]);
    assert!(
        !page("search/index.html").contains(TILE),
        "the tile shows before it opens"
    );
    let (_, cars) = generated(sites.path());

    let log = build(NEXT_HOUR, &[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let astro_log = std::fs::read_to_string(site.join("build.log")).unwrap();
    for car in &cars {
        let slug = car["slug"].as_str().unwrap();
        let line = astro_log
            .lines()
            .find(|l| l.contains(&format!(" /cars/{slug}/index.html ")))
            .unwrap_or_else(|| panic!("{slug} not in build.log:\n{astro_log}"));
        assert!(
            line.trim_end().ends_with("(restored)"),
            "a car page was rendered again only because the hour changed: {line}"
        );
    }
    assert!(
        page("search/index.html").contains(TILE),
        "the search page is stale: the tile that opened within the hour is missing"
    );
    let incremental = site_files(&site.join("current/dist"));
    let log = build(NEXT_HOUR, &["--force"]);
    assert!(
        !log.contains("from the page cache"),
        "--force reused pages: {log}"
    );
    assert_eq!(site_files(&site.join("current/dist")), incremental);
}

#[test]
fn one_broken_dealer_does_not_stop_the_others() {
    let sites = sites_dir();
    let out = dealergen(
        sites.path(),
        &["build", "--all", "--no-astro", "--as-of", AS_OF],
    );
    assert_eq!(out.status.code(), Some(1));
    let log = text(&out);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert!(log.contains("built  everything"), "{log}");
    assert!(log.contains("FAILED broken-dealer: 1 problem(s)"), "{log}");
    assert!(log.contains("unknown key `min_photoz` in `stock`"), "{log}");
    assert!(log.contains("2 built, 1 failed"), "{log}");
    assert!(sites
        .path()
        .join("tiny-dealer/src/data/cars.json")
        .is_file());
    assert!(
        !sites.path().join("broken-dealer").exists(),
        "nothing written for an invalid dealer"
    );
    // Its failed build is recorded for `dealergen status`, outside its folder.
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(sites.path().join(".status/broken-dealer.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["result"], "failed", "{record}");
    assert!(
        record["error"]
            .as_str()
            .unwrap()
            .contains("problem(s) in the dealer file"),
        "{record}"
    );
}

#[test]
fn shards_split_the_dealers_without_overlap() {
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let sites = sites_dir();
        let out = dealergen(
            sites.path(),
            &[
                "build",
                "--all",
                "--no-astro",
                "--shard",
                shard,
                "--as-of",
                AS_OF,
            ],
        );
        let log = text(&out);
        for name in ["tiny-dealer", "broken-dealer"] {
            if log.contains(&format!(" {name}")) {
                seen.push(name);
            }
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        ["broken-dealer", "tiny-dealer"],
        "each dealer in exactly one shard"
    );
}

#[test]
fn check_prints_github_annotations_on_the_right_line() {
    let sites = sites_dir();
    let out = dealergen(
        sites.path(),
        &["check", "--dealer", "broken-dealer", "--format", "github"],
    );
    assert_eq!(out.status.code(), Some(1));
    // Run from the dealers' own folder (generator/tests/fixtures/dealers),
    // the path is still the repository's, which GitHub attaches to the
    // pull request's line.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "::error file=generator/tests/fixtures/dealers/broken-dealer.yaml,line=5,col=33,title=stock.min_photoz::unknown key `min_photoz` in `stock`. Hint: did you mean `min_photos`?\n"
    );
    let out = dealergen(
        sites.path(),
        &["check", "--dealer", "broken-dealer", "--format", "json"],
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["ok"], false);
    assert_eq!(json[0]["diagnostics"][0]["line"], 5);
    assert_eq!(json[0]["diagnostics"][0]["key"], "stock.min_photoz");
}

#[test]
fn usage_errors_exit_with_2_and_unknown_dealers_with_1() {
    let sites = sites_dir();
    assert_eq!(dealergen(sites.path(), &["build"]).status.code(), Some(2));
    assert_eq!(
        dealergen(sites.path(), &["build", "--shard", "3/2", "--all"])
            .status
            .code(),
        Some(2)
    );
    let out = dealergen(sites.path(), &["build", "--dealer", "tiny-dealr"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("did you mean `tiny-dealer`?"),
        "{}",
        text(&out)
    );
}

#[test]
fn new_scaffolds_a_dealer_that_validates() {
    let dealers = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_dealergen"))
            .arg("--root")
            .arg(repo_root())
            .arg("--dealers-dir")
            .arg(dealers.path())
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["new", "gold-coast-kia", "--template", "franchise-group"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(dealers.path().join("gold-coast-kia.yaml").is_file());
    assert!(dealers.path().join("stock/gold-coast-kia.json").is_file());
    let out = run(&["check", "--dealer", "gold-coast-kia"]);
    assert!(out.status.success(), "{}", text(&out));
    // Valid, but each placeholder it wrote is named until it is changed.
    let log = text(&out);
    for key in [
        "site_url",
        "theme.logo",
        "contact.phone",
        "contact.email",
        "locations[0].phone",
        "locations[0].address.street",
    ] {
        assert!(
            log.contains(&format!("`{key}` is still the placeholder")),
            "{key}: {log}"
        );
    }
    let out = run(&["new", "other", "--template", "no-such-preset"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dealers.path().join("other.yaml").exists());
}

#[test]
fn bundled_dealers_validate_and_reference_the_committed_schema() {
    let committed =
        std::fs::read_to_string(repo_root().join("dealers/dealer.schema.json")).unwrap();
    assert_eq!(
        committed,
        dealergen::commands::schema_text(),
        "dealers/dealer.schema.json is stale: run `dealergen schema --write`"
    );
    let project = dealergen::project::Project::new(repo_root());
    let committed = std::fs::read_to_string(project.site_data_schema_file()).unwrap();
    assert_eq!(
        committed,
        dealergen::pipeline::site_data::contract_schema_text(),
        "astro-app/src/types/site-data.schema.json is stale: run `dealergen schema --site-data --write` and `node scripts/gen-types.mjs`"
    );
    let loader = dealer_config::Loader::new(project.presets_dir());
    let files = project.dealer_files().unwrap();
    assert!(files.len() >= 3);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(
            text.starts_with("# yaml-language-server: $schema=./dealer.schema.json"),
            "{}",
            f.display()
        );
        if let Err(r) = loader.load(&f) {
            panic!("{} is invalid: {:#?}", f.display(), r.diagnostics);
        }
    }
}

#[test]
fn search_index_holds_the_visible_stock_with_facets_ranges_and_landing_pages() {
    let (sites, _) = generate_tiny();
    let (site, cars) = generated(sites.path());
    let index = read_json(sites.path().join("tiny-dealer/src/data/search-index.json"));
    assert_eq!(index["version"], 2);
    assert_eq!(index["count"], cars.len());
    // The feed names no dealership: the dealer's own slug is every car's
    // (the dealer filter link refinementList[dealership_slug][0]=...).
    assert_eq!(
        index["facets"]["dealership_slug"],
        serde_json::json!({"tiny-dealer": 9})
    );
    // Only the equipment shoppers filter on is kept; one bit per value.
    assert_eq!(
        index["facets"]["filtered_features"],
        serde_json::json!({"Apple CarPlay": 1})
    );
    assert_eq!(
        index["facets"]["categories"],
        serde_json::json!({"Family": 1})
    );
    assert_eq!(index["facets"]["seats"], serde_json::json!({"5": 1}));
    let at = cars.iter().position(|c| c["slug"] == "car-1").unwrap();
    assert_eq!(index["numbers"]["custom_rank"][at], 10);
    assert_eq!(index["sets"]["filtered_features"]["masks"][at], 1);
    // Columns follow cars.json order (the "most relevant" ranking).
    let slugs: Vec<&Value> = cars.iter().map(|c| &c["slug"]).collect();
    let index_slugs: Vec<&Value> = index["strings"]["slug"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(index_slugs, slugs);
    assert_eq!(
        index["facets"]["make"],
        serde_json::json!({"Kia": 8, "Toyota": 1})
    );
    assert_eq!(index["facets"]["car_type"], serde_json::json!({"used": 9}));
    assert_eq!(index["facets"]["city"], serde_json::json!({"Newstead": 9}));
    // Two cars have no price (0): the price range starts at 0.
    assert_eq!(
        index["facets_stats"]["price"],
        serde_json::json!({"min": 0, "max": 19990})
    );
    // Make values are dictionary-coded: one entry per distinct make.
    assert_eq!(
        index["text"]["make"]["values"],
        serde_json::json!(["Kia", "Toyota"])
    );
    let sold = car(&cars, "car-3");
    assert!(sold["sold_at"].is_i64(), "sold cars carry their sale time");
    // Reserved outranks the dealer's tag on the banner, but the raw tag is
    // kept for the enquiry event (17 for "Test Drive Only", docs/behaviour/car-page.md §7).
    let reserved = car(&cars, "car-8");
    assert_eq!(reserved["tag_banner"], "Reserved");
    assert_eq!(reserved["tag"], "Clearance");
    // No subscriptions at this dealer: the weekly column is all 0 and the
    // site does not offer the '/ week' slider.
    assert!(index["numbers"]["subscription_price"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v == 0));
    assert_eq!(
        index["facets_stats"]["subscription_price"],
        serde_json::json!({"min": 0, "max": 0})
    );
    assert_eq!(site["features"]["subscriptions"], false);
    // The hosted-hit rules come from the YAML (cards.certified_badge_make)
    // and its preset (multi-brand-group turns the Electric/Hybrid tag on).
    assert_eq!(
        site["search"]["hit_rules"],
        serde_json::json!({
            "electric_hybrid_tag": true, "certified_badge_make": "Toyota", "certified_badge_image": null,
            "new_arrival_text": "New Arrival", "sold_text": "SOLD", "no_price_text": site["copy"]["no_price_text"],
            "subscriptions": false,
        })
    );

    let landing: Vec<(&str, u64)> = site["search"]["landing_pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["path"].as_str().unwrap(), p["count"].as_u64().unwrap()))
        .collect();
    // No new or demo stock: only the used and all-types pages, then makes,
    // make/model and the body page.
    assert_eq!(
        landing,
        [
            ("used-cars", 9),
            ("new-used-and-demo-cars", 9),
            ("kia", 8),
            ("kia/rio", 8),
            ("toyota", 1),
            ("toyota/corolla", 1),
            ("hatch", 9)
        ]
    );
    assert_eq!(
        site["search"]["landing_pages"][0]["refinements"],
        serde_json::json!({"car_type": ["used"]})
    );
    assert_eq!(
        site["search"]["base_filters"]["exclude_makes"],
        serde_json::json!(["Lada"])
    );
}

/// The hand-made fixture site (astro-app/test/fixtures/site) carries the
/// index and landing pages the generator would write for its cars, so the
/// TypeScript engine's facet counts are checked against Rust's.
/// `UPDATE_FIXTURES=1 cargo test` rewrites them.
#[test]
fn fixture_site_search_index_is_what_the_generator_writes() {
    use dealergen::pipeline::search_index;
    use dealergen::pipeline::stock::present::Car;
    let data = repo_root().join("astro-app/test/fixtures/site/src/data");
    let cars: Vec<Car> =
        serde_json::from_str(&std::fs::read_to_string(data.join("cars.json")).unwrap()).unwrap();
    let index_path = data.join("search-index.json");
    let site_path = data.join("site.json");
    let mut site = read_json(site_path.clone());
    let name = site["name"].as_str().unwrap().to_string();
    let slug = site["slug"].as_str().unwrap().to_string();
    let new_arrival = site["search"]["hit_rules"]["new_arrival_text"]
        .as_str()
        .unwrap()
        .to_string();
    let ctx = search_index::IndexContext {
        dealer_slug: &slug,
        dealer_name: &name,
        new_arrival_text: &new_arrival,
        masked_phones: site["features"]["phone_reveal"].as_bool().unwrap(),
        colour_words: &Default::default(),
    };
    let fresh = serde_json::to_string(&search_index::build(&cars, &ctx)).unwrap() + "\n";
    let landing = serde_json::to_value(search_index::landing_pages(&cars, &name)).unwrap();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&index_path, &fresh).unwrap();
        site["search"]["landing_pages"] = landing;
        std::fs::write(
            &site_path,
            serde_json::to_string_pretty(&site).unwrap() + "\n",
        )
        .unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&index_path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run UPDATE_FIXTURES=1 cargo test -p dealergen --test integration build::fixture_site",
        index_path.display()
    );
    assert_eq!(
        site["search"]["landing_pages"], landing,
        "landing pages stale"
    );
}

/// Base filters as shared cases with the browser (docs/behaviour/search.md §9).
#[test]
fn base_filter_cases_shared_with_the_browser_match_the_visibility_rules() {
    use dealer_rules::visibility::{check, CarFacts, VisibilityRules};
    let cases = read_json(repo_root().join("rules/vectors/base-filters.json"));
    for case in cases["cases"].as_array().unwrap() {
        let r = &case["rules"];
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        let rules = VisibilityRules {
            include_sold_days: r["include_sold_days"].as_u64().unwrap() as u32,
            min_photos: r["min_photos"].as_u64().unwrap() as u32,
            in_stock_only: r["in_stock_only"].as_bool().unwrap(),
            exclude_makes: strings(&r["exclude_makes"]),
            exclude_car_types: strings(&r["exclude_car_types"]),
            exclude_stock_numbers: strings(&r["exclude_stock_numbers"]),
        };
        let now = case["now"].as_i64().unwrap();
        let visible: Vec<&str> = case["cars"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| {
                let facts = CarFacts {
                    status: c["status"].as_str().unwrap(),
                    sold_at: c["sold_at"].as_i64(),
                    show_on_dealer_website: c["show_on_dealer_website"].as_bool().unwrap(),
                    photos_count: c["photos_count"].as_u64().unwrap() as u32,
                    make: c["make"].as_str().unwrap(),
                    car_type: c["car_type"].as_str().unwrap(),
                    stocknum: c["stocknum"].as_str(),
                };
                check(&facts, &rules, now).is_ok()
            })
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            serde_json::json!(visible),
            case["visible"],
            "{}",
            case["name"]
        );
    }
}

/// The card rules as shared cases with the browser, which applies them to
/// raw hosted-search hits (astro-app/src/lib/search/present.ts): one rule,
/// two languages, one list of cases.
#[test]
fn card_rule_cases_shared_with_the_browser_match_present() {
    use dealergen::pipeline::stock::feed::FeedCar;
    use dealergen::pipeline::stock::present::{present, price_text, tag_banner, was_price_text};
    let cases = read_json(repo_root().join("rules/vectors/present-cases.json"));
    let now = chrono::DateTime::parse_from_rfc3339(cases["now"].as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono::Utc);
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let mut rules = cases["default_rules"].clone();
        if let Some(over) = case["rules"].as_object() {
            for (k, v) in over {
                rules[k] = v.clone();
            }
        }
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
            "features": {"subscriptions": rules["subscriptions"]},
            "cards": {"electric_hybrid_tag": rules["electric_hybrid_tag"], "certified_badge_make": rules["certified_badge_make"]},
            "copy": {"new_arrival_text": rules["new_arrival_text"], "sold_text": rules["sold_text"], "no_price_text": rules["no_price_text"]},
        }))
        .unwrap_or_else(|e| panic!("{name}: config: {e}"));
        let mut car = serde_json::json!({
            "id": 1, "slug": "car-1", "make": "Kia", "model": "Rio", "year": 2022,
            "car_type": "used", "status": "in_stock",
        });
        for (k, v) in case["car"].as_object().unwrap() {
            car[k] = v.clone();
        }
        // Some cases carry unreadable values on purpose ("soon" as a date):
        // the decoder leaves them out, as the browser ignores them.
        let which = dealergen::pipeline::stock::feed::RecordRef::of(&car, name.to_string());
        let (car, _left_out) = FeedCar::decode(car.as_object().unwrap(), which)
            .unwrap_or_else(|e| panic!("{name}: car: {e}"));
        assert_eq!(
            serde_json::json!(tag_banner(&car, &cfg, now)),
            case["tag_banner"],
            "{name}: tag_banner"
        );
        assert_eq!(
            serde_json::json!(price_text(&car, &cfg)),
            case["price_text"],
            "{name}: price_text"
        );
        assert_eq!(
            serde_json::json!(was_price_text(&car)),
            case["was_price_text"],
            "{name}: was_price_text"
        );
        // present() uses these very functions for cars.json and the index.
        let shown = present(&car, &cfg, now);
        assert_eq!(
            serde_json::json!(shown.tag_banner),
            case["tag_banner"],
            "{name}"
        );
        assert_eq!(
            shown.price_text,
            case["price_text"].as_str().unwrap(),
            "{name}"
        );
        // The weekly price column only carries a price the dealer offers.
        let offered = rules["subscriptions"].as_bool().unwrap();
        let weekly = case["car"]["subscription_price"].as_f64().unwrap_or(0.0);
        assert_eq!(
            shown.subscription_price,
            if offered && weekly > 0.0 {
                weekly.round()
            } else {
                0.0
            },
            "{name}: subscription_price"
        );
    }
}

/// A dealers folder outside the checkout with one dealer,
/// `malformed-motors`: the tiny fixture dealer reading the feed with every
/// malformed shape (tests/fixtures/feeds/malformed.json).
fn malformed_motors() -> tempfile::TempDir {
    let dealers = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dealers.path().join("stock")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/feeds/malformed.json"),
        dealers.path().join("stock/malformed.json"),
    )
    .unwrap();
    let tiny = std::fs::read_to_string(fixtures().join("tiny-dealer.yaml")).unwrap();
    std::fs::write(
        dealers.path().join("malformed-motors.yaml"),
        tiny.replace("stock/tiny.json", "stock/malformed.json"),
    )
    .unwrap();
    dealers
}

/// A dealer whose feed has every malformed shape
/// (tests/fixtures/feeds/malformed.json), in a dealers folder outside the
/// checkout: the build keeps every car that has its essentials, leaves the
/// malformed fields out, and counts warnings and skipped records.
#[test]
fn a_malformed_feed_keeps_its_cars_and_the_summary_counts_warnings_and_skips() {
    let dealers = malformed_motors();
    let sites = tempfile::tempdir().unwrap();
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args([
            "build",
            "--dealer",
            "malformed-motors",
            "--no-astro",
            "--as-of",
            AS_OF,
        ])
        .output()
        .unwrap();
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    // 10 cars kept: 8 shown; hidden: the one whose visibility flag is
    // unreadable and the one with an unknown status. 28 warnings: 27 fields
    // of the feed and the car at a location the dealer file does not have.
    assert!(
        log.contains("built  malformed-motors: 8 cars shown, 2 hidden; stock feed: 3 records skipped, 28 warnings;"),
        "{log}"
    );
    assert!(
        log.contains("stock feeds: 3 records skipped, 28 warnings"),
        "{log}"
    );
    assert!(
        std::fs::read_to_string(sites.path().join("malformed-motors/stock-feed-report.txt"))
            .unwrap()
            .contains("stock number MF013 (record 13, id 13, slug moved-13): `location_id` is \"closed-branch\"; expected the id of one of the dealer's locations (locations[].id). The car is shown at the primary location."),
        "{log}"
    );
    assert!(
        log.contains("warning: malformed-motors: stock feed stock/malformed.json: stock number MF004 (record 4, id 4, slug bad-numbers-4): `price` is \"POA\""),
        "{log}"
    );
    assert!(
        log.contains("warning: malformed-motors: stock feed stock/malformed.json: skipped stock number MF009 (record 9, id 9, slug no-essentials-9): `make`, `model`, `year`, `car_type` and `status` are missing."),
        "{log}"
    );
    // 31 lines: the first 25 printed, all of them in the report file.
    let report = sites.path().join("malformed-motors/stock-feed-report.txt");
    assert!(
        log.contains(&format!(
            "... and 6 more warning(s): all of them are in {}",
            report.display()
        )),
        "{log}"
    );
    assert_eq!(
        std::fs::read_to_string(&report).unwrap().lines().count(),
        31
    );

    let cars = read_json(sites.path().join("malformed-motors/src/data/cars.json"));
    let cars = cars.as_array().unwrap();
    assert_eq!(cars.len(), 8);
    assert_eq!(car(cars, "moved-13")["location"]["id"], "tiny-main");
    // The spec's {"image": {"url"}} shape and numbers in text reach the page.
    let spec = car(cars, "spec-shapes-1");
    assert_eq!(spec["images"][0], "/images/stock/hatch-1.svg");
    assert_eq!(spec["price_text"], "$12,990");
    assert_eq!(spec["km"], 42000);
    // A car without a readable price shows the dealer's no-price text.
    assert_eq!(
        car(cars, "bad-numbers-4")["price_text"],
        "Enquire for price."
    );
    assert_eq!(
        car(cars, "bad-photos-2")["images"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert!(cars.iter().all(|c| c["slug"] != "unreadable-visibility-7"));
}

/// Sets `field` of the car with `slug` in the feed at `feed_path`.
fn set_car(feed_path: &Path, slug: &str, field: &str, value: Value) {
    let mut feed: Value = read_json(feed_path.to_path_buf());
    let car = feed
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["slug"] == slug)
        .unwrap_or_else(|| panic!("no {slug} in {}", feed_path.display()));
    car[field] = value;
    std::fs::write(feed_path, feed.to_string()).unwrap();
}

/// Every file of the built site `dist` (HTML, JSON, scripts...) that
/// names `needle`.
fn files_naming(dist: &Path, needle: &str) -> Vec<String> {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| {
            std::fs::read(e.path())
                .map(|b| String::from_utf8_lossy(&b).contains(needle))
                .unwrap_or(false)
        })
        .map(|e| e.path().strip_prefix(dist).unwrap().display().to_string())
        .collect()
}

/// A past bug: one photo path the site does not have (a dead link
/// on every page showing the car) kept the whole dealer's site from
/// publishing. The photo is left out of the car before any page names it,
/// with a feed warning naming car and path; the site publishes, and a car
/// left without photos keeps its page with the no-photo placeholder.
#[test]
fn a_photo_the_site_does_not_have_is_left_out_with_a_warning_and_the_site_publishes() {
    support::require_astro();
    let sites = sites_dir();
    let dealers = dealers_outside();
    let feed = dealers.path().join("stock/tiny.json");
    let hatch = "/images/stock/hatch-1.svg";
    set_car(
        &feed,
        "car-1",
        "images",
        serde_json::json!([hatch, "/images/stock/gone-1.jpg", hatch, hatch]),
    );
    // car-9 keeps the feed's photos_count (4), so the min_photos rule
    // still shows it: a missing file must not hide a car.
    set_car(
        &feed,
        "car-9",
        "images",
        serde_json::json!(["/images/stock/gone-9.jpg"]),
    );
    // A colour no colour family claims: reported with the feed's problems.
    set_car(&feed, "car-3", "colour", serde_json::json!("Nebula"));
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args(["build", "--dealer", "tiny-dealer", "--as-of", AS_OF])
        .current_dir(dealers.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    assert!(log.contains("1 built, 0 failed"), "{log}");
    let warning = |slug: &str, path: &str| {
        format!(
            "tiny-dealer: stock feed stock/tiny.json: record {n} (id {n}, slug {slug}): `images` is \"{path}\", a file the site's public files do not have",
            n = slug.trim_start_matches("car-")
        )
    };
    let gone_1 = warning("car-1", "/images/stock/gone-1.jpg");
    let gone_9 = warning("car-9", "/images/stock/gone-9.jpg");
    for w in [&gone_1, &gone_9] {
        assert!(log.contains(&format!("warning: {w}")), "{w}\n{log}");
    }
    // The fixture feed's two skipped records, and the two photos.
    assert!(
        log.contains("stock feed: 2 records skipped, 2 warnings;"),
        "{log}"
    );
    assert!(
        log.contains("stock feeds: 2 records skipped, 2 warnings"),
        "{log}"
    );
    let report =
        std::fs::read_to_string(sites.path().join("tiny-dealer/stock-feed-report.txt")).unwrap();
    assert_eq!(report.lines().count(), 5, "{report}");
    for w in [&gone_1, &gone_9] {
        let line = w.split_once("stock/tiny.json: ").unwrap().1;
        assert!(report.contains(line), "{line}\n{report}");
    }
    let colour = "colour \"Nebula\" (1 car(s): ";
    assert!(
        report.contains(colour) && report.contains("add a word of it under search.colour_families"),
        "{report}"
    );
    assert!(
        log.contains(&format!("warning: tiny-dealer: {colour}")),
        "{log}"
    );

    let dist = sites.path().join("tiny-dealer/dist");
    assert!(dist.join("cars/car-1/index.html").is_file());
    let car_9 = std::fs::read_to_string(dist.join("cars/car-9/index.html")).unwrap();
    assert!(car_9.contains("gallery--empty"), "the placeholder");
    assert!(car_9.contains("Photos coming soon"));
    // No page, search data or script names the missing files.
    for gone in ["gone-1.jpg", "gone-9.jpg"] {
        assert_eq!(files_naming(&dist, gone), Vec::<String>::new(), "{gone}");
    }
    let (_, cars) = generated(sites.path());
    assert_eq!(
        car(&cars, "car-1")["images"],
        serde_json::json!([hatch, hatch, hatch])
    );
    assert_eq!(car(&cars, "car-9")["images"], serde_json::json!([]));
}

/// A checkout at a temporary root whose public files are a copy of the
/// app's with `extra` added (the app's own hold only drawings, which are
/// never resized); the rest is linked to the real checkout.
fn checkout_with_public(extra: &[&str]) -> tempfile::TempDir {
    let dir = sites_dir();
    let root = repo_root();
    for link in [
        "templates",
        "astro-app/src",
        "node_modules",
        "package.json",
        "package-lock.json",
    ] {
        let to = dir.path().join(link);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(root.join(link), to).unwrap();
    }
    let from = root.join("astro-app/public");
    let public = dir.path().join("astro-app/public");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.unwrap();
        let target = public.join(entry.path().strip_prefix(&from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    for f in extra {
        std::fs::write(public.join(f.trim_start_matches('/')), b"jpeg").unwrap();
    }
    dir
}

/// A past bug: with an image host (`images.url_template` an address
/// on another host), the build warned once per size that the host's
/// photos were "not in the site's public files", in neither the count nor
/// the report. The host resizes the site's own photo: a missing one is
/// left out once, counted and reported; the host's sizes are not looked for.
#[test]
fn with_an_image_host_a_missing_site_photo_is_left_out_once_and_the_host_sizes_are_not_looked_for()
{
    let root = checkout_with_public(&["/images/stock/photo-1.jpg"]);
    let dealers = dealers_outside();
    let sites = sites_dir();
    append_to_dealer(
        dealers.path(),
        "tiny-dealer",
        "images:\n  url_template: \"https://img.example.com{url}?w={width}&q={quality}\"\n",
    );
    let feed = dealers.path().join("stock/tiny.json");
    set_car(
        &feed,
        "car-1",
        "images",
        serde_json::json!([
            "/images/stock/photo-1.jpg",
            "/images/stock/gone-1.jpg",
            "/images/stock/photo-1.jpg"
        ]),
    );
    let out = dealergen_at(root.path(), dealers.path(), sites.path())
        .args([
            "build",
            "--dealer",
            "tiny-dealer",
            "--no-astro",
            "--as-of",
            AS_OF,
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    assert!(!log.contains("not in the site's public files"), "{log}");
    assert!(!log.contains("img.example.com"), "{log}");
    assert_eq!(log.matches("gone-1.jpg").count(), 1, "{log}");
    assert!(
        log.contains("warning: tiny-dealer: stock feed stock/tiny.json: record 1 (id 1, slug car-1): `images` is \"/images/stock/gone-1.jpg\", a file the site's public files do not have"),
        "{log}"
    );
    // The fixture feed's two skipped records, and the photo.
    assert!(
        log.contains("stock feeds: 2 records skipped, 1 warning"),
        "{log}"
    );
    let report =
        std::fs::read_to_string(sites.path().join("tiny-dealer/stock-feed-report.txt")).unwrap();
    assert_eq!(report.lines().count(), 3, "{report}");
    assert!(report.contains("/images/stock/gone-1.jpg"), "{report}");
    let (_, cars) = generated(sites.path());
    assert_eq!(
        car(&cars, "car-1")["images"],
        serde_json::json!(["/images/stock/photo-1.jpg", "/images/stock/photo-1.jpg"])
    );
}

/// A past bug: a build that failed after reading the feed printed
/// "stock feeds: 0 records skipped, 0 warnings" and wrote no
/// stock-feed-report.txt. The feed's problems are counted, printed and
/// reported whether the site publishes or not.
#[test]
fn a_build_that_fails_after_reading_the_feed_still_counts_prints_and_reports_its_problems() {
    let dealers = malformed_motors();
    let sites = sites_dir();
    // Astro cannot run: the build fails after the feed was read.
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args(["build", "--dealer", "malformed-motors", "--as-of", AS_OF])
        .env("DEALERGEN_NODE", "/bin/false")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(log.contains("FAILED malformed-motors"), "{log}");
    assert!(
        log.contains("0 built, 1 failed")
            && log.contains("stock feeds: 3 records skipped, 28 warnings"),
        "{log}"
    );
    assert!(
        log.contains("       stock feed: 3 records skipped, 28 warnings\n"),
        "{log}"
    );
    assert!(
        log.contains("warning: malformed-motors: stock feed stock/malformed.json: stock number MF004 (record 4, id 4, slug bad-numbers-4): `price` is \"POA\""),
        "{log}"
    );
    let report = sites.path().join("malformed-motors/stock-feed-report.txt");
    assert_eq!(
        std::fs::read_to_string(&report)
            .unwrap_or_else(|e| panic!("{}: {e}\n{log}", report.display()))
            .lines()
            .count(),
        31
    );
    assert!(
        log.contains(&format!("all of them are in {}", report.display())),
        "{log}"
    );
}

/// A dealer file must not be able to put code into the generated project,
/// whatever the validation lets through: values reach astro.config.mjs as
/// JSON data (site.json) and the slug printed by the template is a JSON
/// literal. Rendered directly, bypassing the dealer file checks, then the
/// config is evaluated by Node.
#[test]
fn hostile_values_cannot_inject_code_into_the_generated_project() {
    use dealergen::project::Project;
    use dealergen::run::render::{write_project, TemplateContext};
    let base_url = "https://x.example'}); require('node:fs').writeFileSync('PWNED-url', '1'); ({a:'\"`${1}`</script>";
    let slug = "x\u{2028}require('node:fs').writeFileSync('PWNED-slug', '1')//\n});require('node:fs').writeFileSync('PWNED-slug2', '1');//";
    let sites = sites_dir();
    let site_dir = sites.path().join("hostile");
    let site_json = serde_json::json!({ "base_url": base_url }).to_string();
    write_project(
        &Project::new(repo_root()),
        &site_dir,
        &TemplateContext {
            project: slug.into(),
        },
        &[("site.json", site_json)],
    )
    .unwrap();
    let config = std::fs::read_to_string(site_dir.join("astro.config.mjs")).unwrap();
    assert!(
        !config.contains("PWNED-url"),
        "the URL is data, not code:\n{config}"
    );
    assert!(!config.contains('\u{2028}'), "{config}");
    let node = dealergen::run::astro::node_binary(&Project::new(repo_root()));
    let out = Command::new(node)
        .args([
            "--input-type=module",
            "-e",
            "const m = await import(new URL('./astro.config.mjs', `file://${process.cwd()}/`)); \
             console.log(JSON.stringify(m.default.site));",
        ])
        .current_dir(&site_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        serde_json::from_slice::<String>(&out.stdout).unwrap(),
        base_url,
        "the config reads the URL back unchanged"
    );
    for pwned in ["PWNED-url", "PWNED-slug", "PWNED-slug2"] {
        assert!(!site_dir.join(pwned).exists(), "{pwned} was written");
    }
}

/// The publish step on a built site (`check-links`, what `build` runs before
/// the swap): a dead link fails it, naming the dealer, the page and the link.
#[test]
fn a_dead_link_fails_the_publish_step_naming_dealer_page_and_link() {
    let sites = sites_dir();
    let dist = sites.path().join("dist");
    // A tidy site (title, description, canonical; the page a sold car
    // redirects to, and those the old platform's addresses redirect to)
    // but for one link to a page that was never built.
    let pages = [
        ("", r#"<a href="/about-us/">About</a>"#),
        ("about-us/", r#"<a href="/special-offers/">Offers</a>"#),
        ("search/kia/rio/", ""),
        ("search/", ""),
        ("search/used-cars/", ""),
        ("search/new-cars/", ""),
        ("search/new-used-and-demo-cars/", ""),
        ("contact-us/", ""),
        ("trade-in/", ""),
        ("finance/", ""),
        ("models/", ""),
        ("service/", ""),
        ("pages/complaint-handling-process/", ""),
        ("unsubscribe/", ""),
        ("customer-feedback-survey/", ""),
    ];
    for (path, body) in pages {
        std::fs::create_dir_all(dist.join(path)).unwrap();
        std::fs::write(
            dist.join(path).join("index.html"),
            format!(
                r#"<!doctype html><html lang="en"><head><title>Page</title><meta name="description" content="Page"><link rel="canonical" href="https://www.tinymotors.com.au/{path}"></head><body>{body}</body></html>"#
            ),
        )
        .unwrap();
    }
    // The car ids the site worker reads (none: no car pages here).
    std::fs::create_dir_all(dist.join("cars")).unwrap();
    std::fs::write(dist.join("cars/ids.json"), "{}").unwrap();
    let dist_arg = dist.to_str().unwrap();
    let out = dealergen(
        sites.path(),
        &[
            "check-links",
            "--dealer",
            "tiny-dealer",
            "--dist",
            dist_arg,
            "--as-of",
            AS_OF,
        ],
    );
    let log = text(&out).replace(sites.path().to_str().unwrap(), "<sites>");
    assert_eq!(out.status.code(), Some(1), "{log}");
    insta::assert_snapshot!(log, @r"
    FAILED tiny-dealer: the built site breaks the publishing rules
    1 dead link(s) to 1 target(s) on 1 page(s):
      /special-offers/ (href) on /about-us/: no page or file at /special-offers/
    every problem is listed in <sites>/tiny-dealer/publish-problems.txt
    ");
}

/// Page text with what differs between two Astro runs of the same input
/// taken out: island ids and the search's measured processing time.
fn normalized(text: &str) -> String {
    let uid = regex::Regex::new(r#" uid="[^"]*""#).unwrap();
    let timing = regex::Regex::new(r"processingTimeMS&quot;:\[0,\d+\]").unwrap();
    timing
        .replace_all(&uid.replace_all(text, ""), "processingTimeMS")
        .into_owned()
}

/// Every file of a built site, by path, normalized.
fn site_files(dist: &Path) -> std::collections::BTreeMap<String, String> {
    walkdir::WalkDir::new(dist)
        .follow_root_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dist).unwrap().display().to_string();
            let bytes = std::fs::read(e.path()).unwrap();
            (rel, normalized(&String::from_utf8_lossy(&bytes)))
        })
        .collect()
}

/// Several dealers in one Astro run: each dealer's site is the one it gets
/// built alone, file for file; a dealer failing its checks in the batch
/// fails alone and keeps no release, the others publish.
#[test]
fn a_batch_builds_the_same_sites_as_separate_runs_and_a_failing_dealer_fails_alone() {
    support::require_astro();
    let dealers = dealers_outside();
    let compliance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compliance");
    for f in ["rate-motors.yaml", "stock/rate-motors.json"] {
        std::fs::copy(compliance.join(f), dealers.path().join(f)).unwrap();
    }
    // One car's comment states a rate without its comparison rate: the
    // finance compliance check refuses rate-motors' site.
    let feed = dealers.path().join("stock/rate-motors.json");
    let text_before = std::fs::read_to_string(&feed).unwrap();
    std::fs::write(
        &feed,
        text_before.replacen(
            "Ask about our finance options.",
            "Finance at 5.99% p.a. available on approved credit.",
            1,
        ),
    )
    .unwrap();
    let build = |sites: &Path, extra: &[&str]| {
        let out = dealergen_at(repo_root(), dealers.path(), sites)
            .args(["build", "--as-of", AS_OF])
            .args(extra)
            .current_dir(dealers.path())
            .output()
            .unwrap();
        (out.status.code(), text(&out))
    };
    // -j 1: one Astro run at a time, so both dealers share one batch.
    let batched = sites_dir();
    let (code, log) = build(batched.path(), &["--all", "-j", "1"]);
    assert_eq!(code, Some(1), "{log}");
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert!(log.contains("FAILED rate-motors"), "{log}");
    assert!(log.contains("without a comparison rate"), "{log}");
    assert!(
        !batched.path().join("rate-motors/current").exists(),
        "no release for the failed dealer"
    );
    let left: Vec<_> = std::fs::read_dir(batched.path().join("rate-motors/releases"))
        .map(|d| d.collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "nothing staged is left behind");
    // The summary table names both.
    assert!(
        log.lines()
            .any(|l| l.starts_with("rate-motors") && l.ends_with("FAILED")),
        "{log}"
    );
    assert!(
        log.lines()
            .any(|l| l.starts_with("tiny-dealer") && l.ends_with("built")),
        "{log}"
    );
    let tiny = batched.path().join("tiny-dealer");
    assert_release_layout(&tiny, &release_of(&tiny));
    assert!(
        !batched.path().join(".batch-1/out").exists(),
        "the batch output was moved or removed"
    );

    // The same dealer built alone (its own Astro run) gives the same site.
    let separate = sites_dir();
    let (code, log) = build(separate.path(), &["--dealer", "tiny-dealer"]);
    assert_eq!(code, Some(0), "{log}");
    let a = site_files(&tiny.join("dist"));
    let b = site_files(&separate.path().join("tiny-dealer/dist"));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (path, text) in &a {
        assert!(
            text == &b[path],
            "{path} differs between batch and separate builds"
        );
    }
    assert!(a.contains_key("404.html") && a.contains_key("cars/car-1/index.html"));
    let car = &a["cars/car-1/index.html"];
    assert!(
        !car.contains("dealergen-batch"),
        "the batch segment leaked into a page"
    );
    assert!(
        car.contains("href=\"https://www.tinymotors.com.au/cars/car-1/\""),
        "canonical"
    );

    // Fixed, and forced: both rebuilt in one batch, both published.
    std::fs::write(&feed, &text_before).unwrap();
    let (code, log) = build(batched.path(), &["--all", "-j", "1", "--force"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("built  rate-motors"), "{log}");
    assert!(log.contains("built  tiny-dealer"), "{log}");
    let rate = batched.path().join("rate-motors");
    assert_release_layout_of(&rate, "rate-motors");
    assert!(rate
        .join("dist/cars/2022-kia-rio-s-501/index.html")
        .is_file());
}

/// When a batch's Astro run itself fails, its dealers are built one by one
/// (so one dealer breaking the run cannot hold the others back); here Node
/// cannot run at all, so each fails on its own, naming Astro, and nothing
/// is published or left staged.
#[test]
fn a_failed_batch_run_builds_its_dealers_one_by_one() {
    let dealers = dealers_outside();
    let compliance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compliance");
    for f in ["rate-motors.yaml", "stock/rate-motors.json"] {
        std::fs::copy(compliance.join(f), dealers.path().join(f)).unwrap();
    }
    let sites = sites_dir();
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args(["build", "--all", "-j", "1", "--as-of", AS_OF])
        .env("DEALERGEN_NODE", "/bin/false")
        .current_dir(dealers.path())
        .output()
        .unwrap();
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    for slug in ["rate-motors", "tiny-dealer"] {
        assert!(
            log.contains(&format!("FAILED {slug}: astro build failed")),
            "{log}"
        );
        let site = sites.path().join(slug);
        assert!(!site.join("current").exists());
        // Each dealer's own run wrote its own log (the one-by-one builds).
        assert!(
            site.join("build.log").is_file(),
            "{slug} was not built alone"
        );
        let staged: Vec<_> = std::fs::read_dir(site.join("releases"))
            .map(|d| d.collect())
            .unwrap_or_default();
        assert!(staged.is_empty(), "{slug}: nothing staged is left");
    }
    assert!(
        sites.path().join(".batch-1/build.log").is_file(),
        "the batch ran first"
    );
    assert!(!sites.path().join(".batch-1/out").exists());
}

/// The page cache of a batch project never serves a stale page either.
/// Three dealers share one batch (`-j 1`) and keep it from run to run
/// (`sites/.batches.json`); two change (tiny-dealer and its twin share a
/// feed), the third does not: the batch renders the changed pages and
/// restores the others, publishes the two changed dealers and leaves the
/// third's release alone, and tiny-dealer's site is then the one a fresh
/// build of it alone makes, file for file. A layout change and a
/// browser-only script change reach every page of a batched dealer.
#[test]
fn a_batch_keeps_its_dealers_and_its_page_cache_and_never_serves_a_stale_page() {
    support::require_astro();
    let root = checkout_copy();
    let sites = sites_dir();
    let dealers = dealers_outside();
    let compliance = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compliance");
    for f in ["rate-motors.yaml", "stock/rate-motors.json"] {
        std::fs::copy(compliance.join(f), dealers.path().join(f)).unwrap();
    }
    let tiny_yaml = std::fs::read_to_string(dealers.path().join("tiny-dealer.yaml")).unwrap();
    std::fs::write(
        dealers.path().join("tiny-twin.yaml"),
        tiny_yaml
            .replace("Tiny Motors", "Tiny Twin Motors")
            .replace("www.tinymotors.com.au", "www.tinytwin.com.au"),
    )
    .unwrap();
    // One job: the three dealers share one batch.
    let build_at = |at: &str, extra: &[&str]| {
        let extra: Vec<&str> = ["-j", "1"].iter().chain(extra).copied().collect();
        build_all_at(root.path(), dealers.path(), sites.path(), at, &extra)
    };
    let build = |extra: &[&str]| build_at(AS_OF, extra);
    let batch_log = || std::fs::read_to_string(sites.path().join(".batch-1/build.log")).unwrap();
    let page_line = |log: &str, dealer: &str, page: &str| -> String {
        let path = format!(" /dealergen-batch/{dealer}/{page} ");
        log.lines()
            .find(|l| l.contains(&path))
            .unwrap_or_else(|| panic!("{path} not in the batch log:\n{log}"))
            .trim_end()
            .to_string()
    };
    let tiny = sites.path().join("tiny-dealer");
    let rate = sites.path().join("rate-motors");

    let log = build(&[]);
    for slug in ["tiny-dealer", "tiny-twin", "rate-motors"] {
        assert!(log.contains(&format!("built  {slug}")), "{log}");
    }
    let assignment = read_json(sites.path().join(".batches.json"));
    assert_eq!(
        assignment["batches"].as_array().unwrap().len(),
        1,
        "{assignment}"
    );
    assert_eq!(assignment["batches"][0].as_array().unwrap().len(), 3);
    let rate_release = release_of(&rate);

    // car-9's comments, shown on its own pages only.
    set_car9(
        &dealers.path().join("stock/tiny.json"),
        "dealercomments",
        "Comments changed for the batch page-cache test".into(),
    );
    let log = build(&[]);
    assert!(log.contains("built  tiny-dealer"), "{log}");
    assert!(log.contains("built  tiny-twin"), "{log}");
    assert!(log.contains("cached rate-motors"), "{log}");
    assert_eq!(
        release_of(&rate),
        rate_release,
        "the unchanged dealer kept its release"
    );
    assert!(
        std::fs::read_to_string(tiny.join("dist/cars/car-9/index.html"))
            .unwrap()
            .contains("Comments changed for the batch page-cache test"),
        "car-9's page is stale"
    );
    let astro = batch_log();
    assert!(!page_line(&astro, "tiny-dealer", "cars/car-9/index.html").ends_with("(restored)"));
    assert!(page_line(&astro, "tiny-dealer", "cars/car-1/index.html").ends_with("(restored)"));
    // The unchanged member was rendered only from the cache.
    let rate_pages: Vec<&str> = astro
        .lines()
        .filter(|l| l.contains(" /dealergen-batch/rate-motors/") && l.contains(".html"))
        .collect();
    assert!(!rate_pages.is_empty(), "{astro}");
    assert!(
        rate_pages
            .iter()
            .all(|l| l.trim_end().ends_with("(restored)")),
        "{rate_pages:#?}"
    );
    let figures = regex::Regex::new(
        r"built  tiny-dealer: .*?(\d+) pages \((\d+) unchanged, from the page cache\)",
    )
    .unwrap()
    .captures(&log)
    .map(|c| {
        (
            c[1].parse::<usize>().unwrap(),
            c[2].parse::<usize>().unwrap(),
        )
    })
    .unwrap_or_else(|| panic!("no page-cache figure for tiny-dealer in:\n{log}"));
    assert!(figures.1 > 0 && figures.1 < figures.0, "{figures:?}");
    // ...and the site is the one tiny-dealer gets built alone, fresh.
    let alone = sites_dir();
    let out = dealergen_at(root.path(), dealers.path(), alone.path())
        .args(["build", "--dealer", "tiny-dealer", "--as-of", AS_OF])
        .current_dir(dealers.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        site_files(&tiny.join("dist")),
        site_files(&alone.path().join("tiny-dealer/dist")),
        "the batched incremental build differs from a fresh build alone"
    );

    // The next hour's refresh: every member is built again (its data
    // carries the new instant), and no car page is rendered again for it.
    let log = build_at(NEXT_HOUR, &[]);
    for slug in ["tiny-dealer", "tiny-twin", "rate-motors"] {
        assert!(log.contains(&format!("built  {slug}")), "{log}");
    }
    let astro = batch_log();
    let car_pages: Vec<&str> = astro
        .lines()
        .filter(|l| l.contains("/cars/") && l.contains("/index.html"))
        .collect();
    assert!(car_pages.len() > 10, "{astro}");
    assert!(
        car_pages
            .iter()
            .all(|l| l.trim_end().ends_with("(restored)")),
        "car pages rendered again only because the hour changed: {car_pages:#?}"
    );

    // A layout change: every page of every changed dealer is rendered.
    let layout = root.path().join("astro-app/src/layouts/BaseLayout.astro");
    let text_before = std::fs::read_to_string(&layout).unwrap();
    std::fs::write(
        &layout,
        text_before.replacen("<body>", "<body data-cache-test=\"batch-layout-v2\">", 1),
    )
    .unwrap();
    // A browser-only change: every car page names the new script file.
    change_browser_script(root.path(), "batch-client-v2");
    let log = build(&[]);
    for slug in ["tiny-dealer", "tiny-twin", "rate-motors"] {
        assert!(log.contains(&format!("built  {slug}")), "{log}");
    }
    for site in [&tiny, &rate] {
        let dist = site.join("current/dist");
        assert_pages_name_only_files_the_site_has(&dist);
        for (path, html) in html_pages(&dist) {
            assert!(
                !html.contains("<body") || html.contains("data-cache-test=\"batch-layout-v2\""),
                "{} is stale after the layout changed",
                path.display()
            );
        }
    }
}

/// `migrate-check` and `explain --address` on a built site (a few files,
/// its `_redirects`): a redirect followed to its page with its rule, a
/// missing address failing the run, the JSON answers.
#[test]
fn migrate_check_and_explain_answer_old_addresses_from_the_built_site() {
    let sites = sites_dir();
    let dist = sites.path().join("tiny-dealer").join("dist");
    for (file, text) in [
        ("index.html", "home"),
        ("404.html", "gone"),
        ("about-us/index.html", "about"),
        ("_redirects", "/our-story /about-us 301\n"),
    ] {
        let p = dist.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = dealergen(
        sites.path(),
        &[
            "explain",
            "--dealer",
            "tiny-dealer",
            "--address",
            "/our-story?x=1",
        ],
    );
    let log = text(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(
        log.contains("1. 301 /about-us?x=1  (_redirects line 1: /our-story /about-us 301)"),
        "{log}"
    );
    assert!(
        log.contains("2. 307 /about-us/?x=1  (the CDN adds the page's trailing slash)"),
        "{log}"
    );
    assert!(
        log.contains("a redirect to /about-us/?x=1 in 2 hop(s)"),
        "{log}"
    );

    let list = sites.path().join("old.txt");
    std::fs::write(
        &list,
        "https://old.example/our-story\n/about-us/\n/gone-page\n",
    )
    .unwrap();
    let args = [
        "migrate-check",
        "--dealer",
        "tiny-dealer",
        "--urls",
        list.to_str().unwrap(),
        "--format",
        "json",
    ];
    let out = dealergen(sites.path(), &args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a missing address fails: {}",
        text(&out)
    );
    let answers: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let brief: Vec<(String, String, serde_json::Value)> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["url"].as_str().unwrap().to_string(),
                a["answer"].as_str().unwrap().to_string(),
                a["to"].clone(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            (
                "https://old.example/our-story".to_string(),
                "redirect".to_string(),
                serde_json::json!("/about-us/")
            ),
            (
                "/about-us/".to_string(),
                "page".to_string(),
                serde_json::Value::Null
            ),
            (
                "/gone-page".to_string(),
                "missing".to_string(),
                serde_json::Value::Null
            ),
        ]
    );
}

/// `dealergen check` knows the site's pages (planned from the dealer file
/// and its stock, no Astro) and refuses the redirects the build would: a
/// target that is no page, a `from` that takes a page's address, each at
/// its line and key; a good redirect passes.
#[test]
fn check_refuses_redirects_the_pages_refuse_at_their_lines() {
    let dealers = dealers_outside();
    let sites = sites_dir();
    append_to_dealer(
        dealers.path(),
        "tiny-dealer",
        "redirects:\n  - { from: /our-story, to: /about-us/ }\n  - { from: /buying, to: /sell-now/ }\n  - { from: /about-us, to: /contact-us/ }\n  - { from: \"/used?make=kia\", to: /search/kia/ }\n",
    );
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args([
            "check",
            "--dealer",
            "tiny-dealer",
            "--as-of",
            AS_OF,
            "--format",
            "github",
        ])
        .current_dir(dealers.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("::error")).collect();
    let file = std::fs::read_to_string(dealers.path().join("tiny-dealer.yaml")).unwrap();
    let line_of = |needle: &str| file.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert_eq!(
        errors,
        [
            format!("::error file=tiny-dealer.yaml,line={},col=1,title=redirects[1].to::`/sell-now/` is not a page of this site", line_of("/sell-now/")),
            format!("::error file=tiny-dealer.yaml,line={},col=1,title=redirects[2].from::`/about-us` is the address of this site's page /about-us/: the redirect would take the page away", line_of("from: /about-us")),
        ],
        "{log}"
    );
    // Fixed, the file passes: the query-string one lands on a page too.
    let fixed = file
        .replace("  - { from: /buying, to: /sell-now/ }\n", "")
        .replace("  - { from: /about-us, to: /contact-us/ }\n", "");
    std::fs::write(dealers.path().join("tiny-dealer.yaml"), fixed).unwrap();
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args(["check", "--dealer", "tiny-dealer", "--as-of", AS_OF])
        .current_dir(dealers.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

/// A feed that has stopped updating (`stock.max_age_hours`, 48 by
/// default) is said by the build: its newest record older than the limit
/// at the build's instant; a dealer that allows longer hears nothing.
#[test]
fn a_feed_that_stopped_updating_is_said_by_the_build() {
    let dealers = dealers_outside();
    let sites = sites_dir();
    // The tiny feed's newest record changed 2026-11-19 18:00 UTC: on the 22nd at midnight it is 54 hours old.
    let later = "2026-11-22T00:00:00Z";
    let log = build_all_at(&repo_root(), dealers.path(), sites.path(), later, &[]);
    assert!(
        log.contains("tiny-dealer: the stock feed's newest record changed 54 hours ago (2026-11-19 18:00 UTC; stock.max_age_hours is 48)"),
        "{log}"
    );
    // At the fixture's own instant it is fresh.
    let log = build_all_at(&repo_root(), dealers.path(), sites.path(), AS_OF, &[]);
    assert!(!log.contains("stock.max_age_hours"), "{log}");
    // A dealer that allows a week.
    let file = dealers.path().join("tiny-dealer.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("stock:\n", "stock:\n  max_age_hours: 168\n", 1),
    )
    .unwrap();
    let log = build_all_at(&repo_root(), dealers.path(), sites.path(), later, &[]);
    assert!(!log.contains("stock.max_age_hours"), "{log}");
}

/// `dealergen status`: the last build, the release built and the feed's
/// age, dealer by dealer; exit 1 when something needs a person (a failed
/// build, a feed that stopped updating), and what it could not see said.
#[test]
fn status_reports_each_dealer_and_fails_when_one_needs_a_person() {
    let dealers = dealers_outside();
    let sites = sites_dir();
    build_all_at(&repo_root(), dealers.path(), sites.path(), AS_OF, &[]);
    let status = |at: &str| {
        let out = dealergen_at(repo_root(), dealers.path(), sites.path())
            .args(["status", "--all", "--format", "json", "--as-of", at])
            .current_dir(dealers.path())
            .output()
            .unwrap();
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
        (out.status.code(), v[0].clone())
    };
    let (code, s) = status(AS_OF);
    assert_eq!(code, Some(0), "{s}");
    assert_eq!(s["dealer"], "tiny-dealer");
    assert_eq!(s["last_build"]["result"], "built");
    assert_eq!(s["release_built"]["release"], s["last_build"]["release"]);
    assert_eq!(s["release_built"]["cars_shown"], 9);
    assert_eq!(s["feed"]["newest_record"], "2026-11-19T18:00:00Z");
    assert!(
        s["not_checked"][0]
            .as_str()
            .unwrap()
            .contains("deployed release"),
        "{s}"
    );
    // Three days on, the feed has stopped updating: a person is needed.
    let (code, s) = status("2026-11-23T00:00:00Z");
    assert_eq!(code, Some(1), "{s}");
    assert!(
        s["needs_person"][0]
            .as_str()
            .unwrap()
            .contains("newest record changed 78 hours ago"),
        "{s}"
    );
    // A broken feed fails the build: said, with the build's reason; the release built stays.
    std::fs::write(dealers.path().join("stock/tiny.json"), "[{\"id\": 1,").unwrap();
    let out = dealergen_at(repo_root(), dealers.path(), sites.path())
        .args(["build", "--all", "--as-of", AS_OF])
        .current_dir(dealers.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let (code, s) = status(AS_OF);
    assert_eq!(code, Some(1), "{s}");
    assert_eq!(s["last_build"]["result"], "failed");
    assert!(
        s["needs_person"][0]
            .as_str()
            .unwrap()
            .starts_with("the last build failed"),
        "{s}"
    );
    assert!(s["release_built"]["release"].is_string(), "{s}");
}
