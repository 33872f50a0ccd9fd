//! Several dealers in one Astro run.
//!
//! One `astro build` has a fixed start-up cost of about two seconds and
//! renders a few hundred pages a second; built one dealer at a time, a
//! platform of hundreds of dealers pays that start-up hundreds of times.
//! A batch project (`sites/.batch-<n>/`) is written from the same templates
//! and app as a dealer's own project; its data (`src/data/<slug>/`, listed
//! in `src/data/dealers.json`) makes the app's one set of routes render
//! under a dealer segment, `/dealergen-batch/<slug>/…`
//! (astro-app/src/integrations/routes.ts).
//! After the run each dealer's folder becomes the `dist/` of a staged
//! release, with the run's shared files (`_astro/` bundles and the public
//! files) linked in; the dealer's checks (promised pages, finance
//! compliance, links) run on it before its release is published, exactly
//! as for a dealer built alone. A dealer failing its checks fails alone.
//! If a batch's Astro run fails, its dealers are built one by one, so one
//! dealer whose data breaks a page cannot keep the others unpublished.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::build::{BuildFailure, BuildReport, Prepared};
use crate::project::Project;

/// The route segment dealers are rendered under in a batch.
pub const DEALERS_SEGMENT: &str = "dealergen-batch";

/// Most pages one batch renders: Astro keeps every page's props of a run
/// in memory (measured: ~400 MB fixed, 10,000 pages in ~18 s on 2 cores).
pub const MAX_PAGES: usize = 12_000;

/// Splits dealers into batches: at least `parallel` batches when there are
/// enough dealers (both cores busy), more when the pages exceed
/// [`MAX_PAGES`]; each dealer goes to the batch with the fewest pages so
/// far, largest dealers first, so the runs end at about the same time.
pub fn plan(pages: &[usize], parallel: usize) -> Vec<Vec<usize>> {
    if pages.is_empty() {
        return Vec::new();
    }
    let total: usize = pages.iter().sum();
    let n = total
        .div_ceil(MAX_PAGES)
        .max(parallel.max(1))
        .min(pages.len());
    let mut order: Vec<usize> = (0..pages.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(pages[i]));
    let mut batches: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); n];
    for i in order {
        let lightest = batches
            .iter_mut()
            .min_by_key(|(p, _)| *p)
            .expect("at least one batch");
        lightest.0 += pages[i];
        lightest.1.push(i);
    }
    batches
        .into_iter()
        .map(|(_, mut b)| {
            b.sort();
            b
        })
        .filter(|b| !b.is_empty())
        .collect()
}

/// Builds `dealers` (all stale: Astro must run) in one Astro run in
/// `sites/.batch-<n>`, then checks and publishes each dealer's release.
/// Returns each dealer's result, in the order given.
pub fn build(
    project: &Project,
    n: usize,
    dealers: Vec<Prepared>,
    step: &(dyn Fn(&str) + Sync),
) -> Vec<(String, Result<BuildReport, BuildFailure>)> {
    use rayon::prelude::*;
    let dir = project.sites_dir.join(format!(".batch-{n}"));
    let out = dir.join("out");
    let started = Instant::now();
    let what = format!(
        "{} dealers, {} pages",
        dealers.len(),
        dealers.iter().map(Prepared::page_count).sum::<usize>()
    );
    step(&format!("{what}: writing projects"));
    // The dealers' own projects (sites/<slug>/) are written too: they are
    // what `astro check` and `dealergen dev` use.
    let written: Vec<Result<()>> = dealers
        .par_iter()
        .map(|d| d.write_project(project))
        .collect();
    let ran = write_batch_project(project, &dir, &dealers).and_then(|()| {
        step(&format!("{what}: astro build"));
        crate::astro::run(project, &dir, &out, false).map(|_| ())
    });
    let results = match ran {
        Ok(()) => {
            step("checking and publishing");
            let shared = shared_entries(&out);
            dealers
                .into_par_iter()
                .zip(written)
                .map(|(d, written)| {
                    let slug = d.slug.clone();
                    let result = written
                        .and_then(|()| publish_one(&d, &out, &shared))
                        .and_then(|published| d.report(Some(published)))
                        .map_err(BuildFailure::Failed);
                    (slug, result)
                })
                .collect()
        }
        Err(_) if dealers.len() > 1 => {
            // Which dealer broke the run is not known: each is built alone,
            // so the others still publish and the broken one names its error.
            step(&format!(
                "batch failed after {:.1}s, building its dealers one by one",
                started.elapsed().as_secs_f64()
            ));
            dealers
                .into_iter()
                .map(|d| {
                    let slug = d.slug.clone();
                    let result = crate::build::build_prepared(project, d, &|m| step(m));
                    (slug, result)
                })
                .collect()
        }
        Err(e) => dealers
            .into_iter()
            .map(|d| {
                (
                    d.slug.clone(),
                    Err(BuildFailure::Failed(anyhow::anyhow!("{e:#}"))),
                )
            })
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&out);
    results
}

/// The batch project: the same templates and app as a dealer's own project
/// (crate::render), with each dealer's data in `src/data/<slug>/` and
/// their list in `src/data/dealers.json`, which makes the app's routes
/// render under the dealer segment ([`DEALERS_SEGMENT`]).
fn write_batch_project(project: &Project, dir: &Path, dealers: &[Prepared]) -> Result<()> {
    let out = dir.join("out");
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("cannot clear {}", out.display()))?;
    }
    let slugs: Vec<&str> = dealers.iter().map(|d| d.slug.as_str()).collect();
    let mut data = vec![("dealers.json".to_string(), serde_json::to_string(&slugs)?)];
    for d in dealers {
        data.extend(
            d.data()
                .into_iter()
                .map(|(name, text)| (format!("{}/{name}", d.slug), text)),
        );
    }
    let ctx = crate::render::TemplateContext {
        project: format!("a batch of {} dealers", dealers.len()),
    };
    crate::render::write_project(project, dir, &ctx, &data)
}

/// The run's files every dealer's site shares: everything at the top of
/// the output but the dealers' folder (`_astro/` bundles, public files).
fn shared_entries(out: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(out)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_name() != DEALERS_SEGMENT)
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Moves one dealer's pages into a staged release, links the shared files
/// in, runs its checks and publishes it. Any error leaves its current
/// release as it was.
fn publish_one(d: &Prepared, out: &Path, shared: &[PathBuf]) -> Result<crate::build::Published> {
    let pages = out.join(DEALERS_SEGMENT).join(&d.slug);
    anyhow::ensure!(
        pages.is_dir(),
        "the batched astro build made no pages for {} (expected {})",
        d.slug,
        pages.display()
    );
    let staged = crate::release::stage(&d.site_dir)?;
    d.write_edge_files(staged.dir())?;
    let dist = staged.dist();
    std::fs::rename(&pages, &dist)
        .with_context(|| format!("cannot move {} to {}", pages.display(), dist.display()))?;
    // The 404 page: Astro writes src/pages/404.astro as 404.html, but a
    // 404 route under the dealer segment as an ordinary page.
    let not_found = dist.join("404/index.html");
    if not_found.is_file() {
        std::fs::rename(&not_found, dist.join("404.html"))?;
        let _ = std::fs::remove_dir(dist.join("404"));
    }
    for entry in shared {
        let name = entry.file_name().expect("a directory entry has a name");
        let target = dist.join(name);
        if entry.is_dir() {
            crate::render::copy_or_link_tree(entry, &target, true)?;
        } else if std::fs::hard_link(entry, &target).is_err() {
            std::fs::copy(entry, &target)
                .with_context(|| format!("cannot copy {}", entry.display()))?;
        }
    }
    let report_file = d.site_dir.join("publish-problems.txt");
    let checked = d.publish_checks(&dist, &report_file)?;
    d.publish(staged, checked, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_keep_both_runs_busy_and_balance_pages() {
        let plan = plan(&[300, 300, 300, 300, 2000, 100], 2);
        assert_eq!(plan.len(), 2);
        let pages = |b: &Vec<usize>| {
            b.iter()
                .map(|&i| [300, 300, 300, 300, 2000, 100][i])
                .sum::<usize>()
        };
        // The big dealer alone in one batch, the five others together.
        let mut sizes: Vec<usize> = plan.iter().map(pages).collect();
        sizes.sort();
        assert_eq!(sizes, [1300, 2000]);
        let mut all: Vec<usize> = plan.concat();
        all.sort();
        assert_eq!(all, [0, 1, 2, 3, 4, 5], "every dealer once");
    }

    #[test]
    fn big_platforms_get_more_batches_and_one_dealer_one_batch() {
        let pages = vec![330; 100];
        let plan = plan(&pages, 2);
        assert_eq!(plan.len(), 33_000usize.div_ceil(MAX_PAGES));
        assert!(plan
            .iter()
            .all(|b| b.iter().map(|&i| pages[i]).sum::<usize>() <= MAX_PAGES));
        assert_eq!(super::plan(&[500], 2), vec![vec![0]]);
        assert!(super::plan(&[], 2).is_empty());
    }
}
