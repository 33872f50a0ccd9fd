//! Which dealers a command works on, and at what instant it judges them:
//! the dealer files `--dealer`/`--all` name, a dealer's slug from its file,
//! its CI shard (`ShardPlan`, balanced by expected pages), and `--as-of`.
//! Shared by the commands, `deploy` (its shards) and `dev`; it knows the
//! CLI's argument types and the project's folders, nothing of building.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};

use crate::cli::Selection;
use crate::project::Project;

/// Dealer files named by --dealer, or all of them, relative to the current
/// folder when inside it (so messages and GitHub annotations say
/// `dealers/x.yaml`, which is what a pull request shows).
pub fn select(project: &Project, sel: &Selection) -> Result<Vec<PathBuf>> {
    let cwd = std::env::current_dir().unwrap_or_default();
    Ok(select_absolute(project, sel)?
        .into_iter()
        .map(|f| f.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(f))
        .collect())
}

fn select_absolute(project: &Project, sel: &Selection) -> Result<Vec<PathBuf>> {
    if sel.all {
        let files = project
            .dealer_files()
            .with_context(|| format!("cannot list dealers in {}", project.dealers_dir.display()))?;
        if files.is_empty() {
            bail!(
                "no dealer files (*.yaml) in {}",
                project.dealers_dir.display()
            );
        }
        return Ok(files);
    }
    let mut files = Vec::new();
    for slug in &sel.dealer {
        let f = project.dealer_file(slug);
        if !f.is_file() {
            let known: Vec<String> = project
                .dealer_files()
                .unwrap_or_default()
                .iter()
                .filter_map(|p| p.file_stem()?.to_str().map(String::from))
                .collect();
            let hint = dealer_config::suggest::closest(slug, known.iter().map(String::as_str))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            bail!("no dealer `{slug}`: {} does not exist{hint}", f.display());
        }
        files.push(f);
    }
    Ok(files)
}

/// Which CI shard (0-based) builds, lists and deploys which dealer, for
/// `build`, `changed` and `deploy --shard i/n`: every dealer of the
/// project spread over the shards by the pages it is expected to have, the
/// largest first onto the shard with the fewest so far (longest-processing-
/// time first: the heaviest shard is within 4/3 of the best split). A hash
/// of the slug alone put a 1,500-car dealer and a 20-car one on equal
/// footing, so one runner could get several times another's pages.
///
/// The weights come only from what every runner's checkout holds (the
/// dealer files and their committed stock feeds), so every runner of one
/// commit computes the same plan and each dealer lands on exactly one.
/// A slug the project no longer has (a removed dealer `changed` reports)
/// falls back to [`shard_of`].
pub struct ShardPlan {
    shards: usize,
    of: std::collections::HashMap<String, usize>,
    /// Expected pages per shard: what the plan balanced.
    pub pages: Vec<u64>,
}

/// A dealer's pages besides its cars' (home, company, forms, search pages,
/// landing pages): about 80 for the demo dealers.
const FIXED_PAGES: u64 = 80;
/// Bytes of one car in a committed stock feed (`stock pull`'s JSON):
/// 4,616 to 4,731 in the three demo feeds.
const FEED_BYTES_PER_CAR: u64 = 4_650;
/// Pages per car, in tenths: 1.1 to 1.7 in the demo dealers (the car
/// page, with search pages and landing pages growing with the stock; 618
/// pages for the Brisbane demo's 321 cars).
const PAGES_PER_CAR_TENTHS: u64 = 16;

/// The pages a dealer with a feed of `feed_bytes` bytes is expected to have.
pub fn expected_pages(feed_bytes: u64) -> u64 {
    FIXED_PAGES + feed_bytes / FEED_BYTES_PER_CAR * PAGES_PER_CAR_TENTHS / 10
}

impl ShardPlan {
    /// The plan for `shards` shards of every dealer file of `project`. A
    /// dealer whose file or feed cannot be read weighs its fixed pages only
    /// (its build reports the problem).
    pub fn new(project: &Project, shards: usize) -> Result<Self> {
        use rayon::prelude::*;
        let files = project
            .dealer_files()
            .with_context(|| format!("cannot list dealers in {}", project.dealers_dir.display()))?;
        let loader = dealer_config::Loader::new(project.presets_dir());
        let weights: Vec<(String, u64)> = files
            .par_iter()
            .map(|f| {
                let bytes = loader
                    .load(f)
                    .ok()
                    .and_then(|d| std::fs::metadata(d.dir().join(&d.config.stock.feed)).ok())
                    .map_or(0, |m| m.len());
                (slug_of(f), expected_pages(bytes))
            })
            .collect();
        Ok(Self::of_weights(weights, shards))
    }

    /// The plan for dealers of the given expected pages.
    pub fn of_weights(mut weights: Vec<(String, u64)>, shards: usize) -> Self {
        let shards = shards.max(1);
        // Heaviest first; the slug breaks ties, so the order is the same everywhere.
        weights.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut pages = vec![0u64; shards];
        let mut of = std::collections::HashMap::with_capacity(weights.len());
        for (slug, w) in weights {
            let lightest = (0..shards).min_by_key(|&k| (pages[k], k)).unwrap_or(0);
            pages[lightest] += w;
            of.insert(slug, lightest);
        }
        Self { shards, of, pages }
    }

    /// Whether dealer `slug` is in shard `i` (1-based, as `--shard i/n` says).
    pub fn holds(&self, i: usize, slug: &str) -> bool {
        self.shard_of(slug) + 1 == i
    }

    /// The shard (0-based) of dealer `slug`.
    pub fn shard_of(&self, slug: &str) -> usize {
        self.of
            .get(slug)
            .copied()
            .unwrap_or_else(|| shard_of(slug, self.shards))
    }
}

/// Stable shard of a slug: FNV-1a, for a dealer no [`ShardPlan`] knows.
pub fn shard_of(slug: &str, shards: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in slug.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % shards as u64) as usize
}

/// The instant `--as-of` names (RFC 3339, or a date at midnight UTC);
/// without it, the instant a build judges the stock at: the start of the
/// current hour ([`judged_now`]). Every command judges at that instant, so
/// `explain` and `diff` answer for the site the hourly build makes.
pub fn parse_as_of(s: Option<&str>) -> Result<DateTime<Utc>> {
    match s {
        None => Ok(judged_now(Utc::now())),
        Some(s) => {
            if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                return Ok(t.with_timezone(&Utc));
            }
            let d = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").with_context(|| {
                format!("--as-of `{s}` is not a date (2026-11-20) or RFC 3339 time")
            })?;
            Ok(d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc())
        }
    }
}

/// A dealer's slug: its YAML file's name without the extension.
pub fn slug_of(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string()
}

/// The moment a build without `--as-of` judges the stock at: the start of
/// the current hour. Every time rule (sold window, new arrivals, offer
/// windows) is applied at one instant that site.json carries to the pages;
/// judging at the exact second would make every build's data differ, so no
/// dealer would ever be found unchanged. Within the hour, an unchanged
/// dealer is not rebuilt; the first build of the next hour rebuilds it
/// with the rules applied at that hour.
pub fn judged_now(now: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::Timelike;
    now.with_nanosecond(0)
        .and_then(|t| t.with_second(0))
        .and_then(|t| t.with_minute(0))
        .unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds without --as-of within one hour judge the stock at one
    /// instant (so an unchanged dealer keeps its build key).
    #[test]
    fn a_build_judges_the_stock_at_the_start_of_the_hour() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(
            judged_now(at("2026-11-20T10:59:59.999Z")),
            at("2026-11-20T10:00:00Z")
        );
        assert_eq!(
            judged_now(at("2026-11-20T10:00:00Z")),
            at("2026-11-20T10:00:00Z")
        );
        assert_ne!(
            judged_now(at("2026-11-20T11:00:00Z")),
            at("2026-11-20T10:00:00Z")
        );
    }
    #[test]
    fn shards_cover_every_dealer_exactly_once() {
        let slugs: Vec<String> = (0..200).map(|i| format!("dealer-{i}")).collect();
        let n = 7;
        let mut counts = vec![0; n];
        for s in &slugs {
            let k = shard_of(s, n);
            assert!(k < n);
            counts[k] += 1;
        }
        assert_eq!(counts.iter().sum::<usize>(), 200);
        assert!(counts.iter().all(|c| *c > 10), "unbalanced: {counts:?}");
        // Stable: the same slug always lands on the same shard.
        assert_eq!(
            shard_of("brisbane-motor-group", n),
            shard_of("brisbane-motor-group", n)
        );
    }

    #[test]
    fn the_shard_plan_spreads_dealers_by_their_pages_and_every_runner_gets_the_same_plan() {
        // A platform of mixed sizes: a few big dealers, many small ones.
        let weights: Vec<(String, u64)> = (0..60)
            .map(|i| {
                let cars = match i % 10 {
                    0 => 1_500,
                    1 | 2 => 400,
                    _ => 20 + i * 3,
                };
                (
                    format!("dealer-{i:02}"),
                    expected_pages(cars * FEED_BYTES_PER_CAR),
                )
            })
            .collect();
        let n = 4;
        let plan = ShardPlan::of_weights(weights.clone(), n);
        let total: u64 = weights.iter().map(|w| w.1).sum();
        assert_eq!(plan.pages.iter().sum::<u64>(), total);
        let mut load = vec![0u64; n];
        for (slug, w) in &weights {
            let k = plan.shard_of(slug);
            assert!(k < n);
            load[k] += w;
        }
        assert_eq!(load, plan.pages);
        // Longest-processing-time first: no shard above the mean by more than the largest dealer.
        let largest = weights.iter().map(|w| w.1).max().unwrap();
        let mean = total / n as u64;
        assert!(
            load.iter().all(|&l| l <= mean + largest),
            "{load:?}, mean {mean}"
        );
        let (min, max) = (*load.iter().min().unwrap(), *load.iter().max().unwrap());
        assert!(max * 100 <= min * 110, "shards within 10%: {load:?}");
        // The slug hash alone on the same platform: what the plan replaced.
        let mut hashed = vec![0u64; n];
        for (slug, w) in &weights {
            hashed[shard_of(slug, n)] += w;
        }
        assert!(
            hashed.iter().max().unwrap() > &max,
            "hash {hashed:?} vs plan {load:?}"
        );
        // The same dealers in another order (another runner's directory listing): the same plan.
        let mut shuffled = weights.clone();
        shuffled.reverse();
        let again = ShardPlan::of_weights(shuffled, n);
        for (slug, _) in &weights {
            assert_eq!(again.shard_of(slug), plan.shard_of(slug), "{slug}");
        }
        // A dealer the plan does not know (removed since): the slug hash.
        assert_eq!(plan.shard_of("gone-dealer"), shard_of("gone-dealer", n));
    }

    #[test]
    fn a_dealer_is_expected_to_have_its_fixed_pages_and_about_two_per_car() {
        assert_eq!(expected_pages(0), FIXED_PAGES);
        // The demo dealer's feed (321 cars, 1,518,795 bytes): 618 pages when built.
        let demo = expected_pages(1_518_795);
        assert!((560..=680).contains(&demo), "{demo}");
    }

    #[test]
    fn without_as_of_every_command_judges_at_the_builds_instant() {
        // explain, diff, pull and check-links answer for the site the
        // hourly build makes, not for this second.
        let before = judged_now(Utc::now());
        let got = parse_as_of(None).unwrap();
        let after = judged_now(Utc::now());
        assert!(got == before || got == after, "{got}");
        assert_eq!(got, judged_now(got), "the start of an hour");
    }

    #[test]
    fn as_of_accepts_dates_and_times() {
        assert_eq!(
            parse_as_of(Some("2026-11-20")).unwrap().to_rfc3339(),
            "2026-11-20T00:00:00+00:00"
        );
        assert_eq!(
            parse_as_of(Some("2026-11-20T10:00:00+10:00"))
                .unwrap()
                .to_rfc3339(),
            "2026-11-20T00:00:00+00:00"
        );
        assert!(parse_as_of(Some("20/11/2026")).is_err());
    }
}
