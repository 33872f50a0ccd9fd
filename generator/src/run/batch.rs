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
use serde::{Deserialize, Serialize};

use crate::project::Project;
use crate::run::build::{BuildFailure, BuildReport, Prepared};

/// The route segment dealers are rendered under in a batch.
pub const DEALERS_SEGMENT: &str = "dealergen-batch";

/// Most pages one batch renders: Astro keeps every page's props of a run
/// in memory (measured: ~400 MB fixed, 10,000 pages in ~18 s on 2 cores).
pub const MAX_PAGES: usize = 12_000;

/// How many batches `total` pages of `dealers` dealers make: at least
/// `parallel` (both cores busy) when there are enough dealers, more when
/// the pages exceed [`MAX_PAGES`], and then a multiple of `parallel`, so
/// that every round of runs keeps every core busy: 5 batches on 2 cores
/// ran as 2 + 2 + 1, the last alone on one core (100 × 300 cold: 306 s),
/// where 6 smaller ones run as three full rounds.
fn batch_count(total: usize, dealers: usize, parallel: usize) -> usize {
    let parallel = parallel.max(1);
    let needed = total.div_ceil(MAX_PAGES).max(parallel);
    (needed.div_ceil(parallel) * parallel).min(dealers)
}

/// Splits dealers into batches: [`batch_count`] of them; each dealer goes
/// to the batch with the fewest pages so far, largest dealers first, so
/// the runs end at about the same time.
pub fn plan(pages: &[usize], parallel: usize) -> Vec<Vec<usize>> {
    if pages.is_empty() {
        return Vec::new();
    }
    let n = batch_count(pages.iter().sum(), pages.len(), parallel);
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

/// A dealer of a batch, with the pages it had when last planned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub slug: String,
    pub pages: usize,
}

/// Which dealers share which batch project (`sites/.batch-<n>/` is batch
/// n, from 1), kept between runs in `sites/.batches.json`. A batch
/// project's page cache holds the pages of the dealers it rendered last
/// time and drops those of any dealer it does not render again (Astro
/// prunes them), so a dealer stays in its batch from run to run: an
/// hourly refresh then finds every page it did not change in the cache.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Assignment {
    pub batches: Vec<Vec<Member>>,
}

/// The file the assignment is kept in.
pub const ASSIGNMENT_FILE: &str = ".batches.json";

impl Assignment {
    /// The assignment kept in `sites_dir`; none (a fresh plan) when the
    /// file is missing or unreadable: it only saves work, never decides
    /// what a site shows.
    pub fn load(sites_dir: &Path) -> Assignment {
        std::fs::read_to_string(sites_dir.join(ASSIGNMENT_FILE))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes it to `sites_dir` (a temporary file renamed over the old).
    pub fn save(&self, sites_dir: &Path) -> Result<()> {
        let path = sites_dir.join(ASSIGNMENT_FILE);
        let tmp = sites_dir.join(format!("{ASSIGNMENT_FILE}.tmp"));
        crate::run::render::write_file(
            &tmp,
            (serde_json::to_string_pretty(self)? + "\n").as_bytes(),
        )?;
        std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))
    }

    /// The batches of `dealers` (slug and pages): each dealer in the batch
    /// it had before, new dealers in the lightest batch. Planned afresh
    /// ([`plan`]) when the platform now needs another number of batches
    /// or a batch would exceed [`MAX_PAGES`].
    pub fn assign(
        previous: &Assignment,
        dealers: &[(String, usize)],
        parallel: usize,
    ) -> Assignment {
        if dealers.is_empty() {
            return Assignment::default();
        }
        let total = dealers.iter().map(|(_, p)| p).sum();
        let n = batch_count(total, dealers.len(), parallel);
        let fresh = || {
            let pages: Vec<usize> = dealers.iter().map(|(_, p)| *p).collect();
            Assignment {
                batches: plan(&pages, parallel)
                    .into_iter()
                    .map(|b| {
                        b.into_iter()
                            .map(|i| Member {
                                slug: dealers[i].0.clone(),
                                pages: dealers[i].1,
                            })
                            .collect()
                    })
                    .collect(),
            }
        };
        if previous.batches.len() != n {
            return fresh();
        }
        let mut batches: Vec<Vec<Member>> = vec![Vec::new(); n];
        let mut new = Vec::new();
        for (slug, pages) in dealers {
            let member = Member {
                slug: slug.clone(),
                pages: *pages,
            };
            match previous
                .batches
                .iter()
                .position(|b| b.iter().any(|m| &m.slug == slug))
            {
                Some(i) => batches[i].push(member),
                None => new.push(member),
            }
        }
        new.sort_by_key(|m| std::cmp::Reverse(m.pages));
        let load = |b: &Vec<Member>| b.iter().map(|m| m.pages).sum::<usize>();
        for member in new {
            let lightest = batches
                .iter_mut()
                .min_by_key(|b| load(b))
                .expect("at least one batch");
            lightest.push(member);
        }
        if batches.iter().any(|b| load(b) > MAX_PAGES) {
            return fresh();
        }
        for b in &mut batches {
            b.sort_by(|a, b| a.slug.cmp(&b.slug));
        }
        Assignment { batches }
    }
}

/// Builds `dealers` (all stale: Astro must run) in one Astro run in
/// `sites/.batch-<n>`, then checks and publishes each dealer's release.
/// `unchanged` are the batch's other members (see [`Assignment`]): their
/// last data (from their own projects) is rendered too, almost all of it
/// restored from the page cache, and not published, so that the cache
/// keeps their pages for the next run that changes them.
/// Returns each stale dealer's result, in the order given.
pub fn build(
    project: &Project,
    n: usize,
    dealers: Vec<Prepared>,
    unchanged: &[String],
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
    // what `astro check` and `dealergen dev` use, and what a later batch
    // run reads an unchanged member's data from.
    let written: Vec<Result<()>> = dealers
        .par_iter()
        .map(|d| d.write_project(project))
        .collect();
    let ran = write_batch_project(project, &dir, &dealers, unchanged).and_then(|()| {
        step(&format!("{what}: astro build"));
        crate::run::astro::run(project, &dir, &out, false).map(|_| ())
    });
    let results = match ran {
        Ok(()) => {
            step("checking and publishing");
            let shared = shared_entries(&out);
            let log = std::fs::read_to_string(dir.join("build.log")).unwrap_or_default();
            dealers
                .into_par_iter()
                .zip(written)
                .map(|(d, written)| {
                    let slug = d.slug.clone();
                    let result = match written.and_then(|()| publish_one(&d, &out, &shared, &log)) {
                        Ok(published) => d.report(Some(published)).map_err(BuildFailure::Failed),
                        Err(e) => Err(d.unpublished(e)),
                    };
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
                    let result = crate::run::build::build_prepared(project, d, &|m| step(m));
                    (slug, result)
                })
                .collect()
        }
        Err(e) => dealers
            .into_iter()
            .map(|d| (d.slug.clone(), Err(d.unpublished(anyhow::anyhow!("{e:#}")))))
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&out);
    results
}

/// The batch project: the same templates and app as a dealer's own project
/// (crate::run::render), with each dealer's data in `src/data/<slug>/` and
/// their list in `src/data/dealers.json`, which makes the app's routes
/// render under the dealer segment ([`DEALERS_SEGMENT`]). An unchanged
/// member's data is its own project's (`sites/<slug>/src/data/`), the data
/// of its published site; a member without one is left out.
fn write_batch_project(
    project: &Project,
    dir: &Path,
    dealers: &[Prepared],
    unchanged: &[String],
) -> Result<()> {
    let out = dir.join("out");
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("cannot clear {}", out.display()))?;
    }
    let mut slugs: Vec<&str> = dealers.iter().map(|d| d.slug.as_str()).collect();
    let mut data = Vec::new();
    for d in dealers {
        data.extend(
            d.data()
                .into_iter()
                .map(|(name, text)| (format!("{}/{name}", d.slug), text)),
        );
    }
    for slug in unchanged {
        let own = project.site_dir(slug).join("src/data");
        let files: Option<Vec<(String, String)>> = crate::run::build::DATA_FILES
            .iter()
            .map(|name| {
                let text = std::fs::read_to_string(own.join(name)).ok()?;
                Some((format!("{slug}/{name}"), text))
            })
            .collect();
        if let Some(files) = files {
            data.extend(files);
            slugs.push(slug);
        }
    }
    data.push(("dealers.json".to_string(), serde_json::to_string(&slugs)?));
    let ctx = crate::run::render::TemplateContext {
        project: format!("a batch of {} dealers", slugs.len()),
    };
    crate::run::render::write_project(project, dir, &ctx, &data)
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
fn publish_one(
    d: &Prepared,
    out: &Path,
    shared: &[PathBuf],
    log: &str,
) -> Result<crate::run::build::Published> {
    let pages = out.join(DEALERS_SEGMENT).join(&d.slug);
    anyhow::ensure!(
        pages.is_dir(),
        "the batched astro build made no pages for {} (expected {})",
        d.slug,
        pages.display()
    );
    let staged = crate::run::release::stage(&d.site_dir)?;
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
            crate::run::render::copy_or_link_tree(entry, &target, true)?;
        } else if std::fs::hard_link(entry, &target).is_err() {
            std::fs::copy(entry, &target)
                .with_context(|| format!("cannot copy {}", entry.display()))?;
        }
    }
    let report_file = d.site_dir.join("publish-problems.txt");
    let checked = d.publish_checks(&staged, &report_file)?;
    let reused = crate::run::astro::reused_pages(log, &format!("/{DEALERS_SEGMENT}/{}/", d.slug));
    d.publish(staged, checked, reused)
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
        // 33,000 pages need 3 batches; on 2 cores, 4 (two full rounds).
        assert_eq!(33_000usize.div_ceil(MAX_PAGES), 3);
        assert_eq!(plan.len(), 4);
        assert_eq!(super::plan(&pages, 3).len(), 3);
        assert_eq!(
            super::plan(&vec![330; 150], 2).len(),
            6,
            "5 needed, 6 on 2 cores"
        );
        // Never more batches than dealers.
        assert_eq!(super::plan(&[11_000, 11_000, 11_000], 2).len(), 3);
        assert!(plan
            .iter()
            .all(|b| b.iter().map(|&i| pages[i]).sum::<usize>() <= MAX_PAGES));
        assert_eq!(super::plan(&[500], 2), vec![vec![0]]);
        assert!(super::plan(&[], 2).is_empty());
    }
    fn dealers(list: &[(&str, usize)]) -> Vec<(String, usize)> {
        list.iter().map(|(s, p)| (s.to_string(), *p)).collect()
    }

    fn slugs(a: &Assignment) -> Vec<Vec<&str>> {
        a.batches
            .iter()
            .map(|b| b.iter().map(|m| m.slug.as_str()).collect())
            .collect()
    }

    #[test]
    fn a_dealer_stays_in_its_batch_when_pages_change_and_dealers_come_and_go() {
        let first = Assignment::assign(
            &Assignment::default(),
            &dealers(&[("a", 300), ("b", 300), ("c", 300), ("d", 2000)]),
            2,
        );
        assert_eq!(slugs(&first), [vec!["d"], vec!["a", "b", "c"]]);
        // d lost most of its cars and c doubled: a fresh plan would move
        // dealers; the kept one does not.
        let pages = dealers(&[("a", 300), ("b", 300), ("c", 600), ("d", 400)]);
        assert_eq!(plan(&[300, 300, 600, 400], 2), [vec![1, 2], vec![0, 3]]);
        let second = Assignment::assign(&first, &pages, 2);
        assert_eq!(slugs(&second), slugs(&first));
        assert_eq!(second.batches[1][2].pages, 600, "pages are updated");
        // b left; e and f are new: each to the lightest batch, largest first.
        let third = Assignment::assign(
            &second,
            &dealers(&[("a", 300), ("c", 600), ("d", 400), ("e", 500), ("f", 100)]),
            2,
        );
        assert_eq!(slugs(&third), [vec!["d", "e", "f"], vec!["a", "c"]]);
    }

    #[test]
    fn another_number_of_batches_or_an_overfull_one_plans_afresh() {
        let first = Assignment::assign(
            &Assignment::default(),
            &dealers(&[("a", 300), ("b", 300)]),
            2,
        );
        assert_eq!(slugs(&first), [vec!["a"], vec!["b"]]);
        // -j 1: one batch.
        let one = Assignment::assign(&first, &dealers(&[("a", 300), ("b", 300)]), 1);
        assert_eq!(slugs(&one), [vec!["a", "b"]]);
        // Three dealers that fill two batches past MAX_PAGES when kept.
        let big = MAX_PAGES / 2 + 1;
        let kept = Assignment {
            batches: vec![
                vec![
                    Member {
                        slug: "a".into(),
                        pages: 1,
                    },
                    Member {
                        slug: "b".into(),
                        pages: 1,
                    },
                ],
                vec![Member {
                    slug: "c".into(),
                    pages: 1,
                }],
            ],
        };
        let grown = Assignment::assign(&kept, &dealers(&[("a", big), ("b", big), ("c", 10)]), 2);
        assert_eq!(slugs(&grown), [vec!["a", "c"], vec!["b"]], "a and b apart");
        assert!(grown
            .batches
            .iter()
            .all(|b| b.iter().map(|m| m.pages).sum::<usize>() <= MAX_PAGES));
        assert_eq!(Assignment::assign(&kept, &[], 2), Assignment::default());
    }

    #[test]
    fn the_assignment_is_kept_in_the_sites_folder_and_a_broken_file_only_means_a_fresh_plan() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Assignment::load(dir.path()), Assignment::default());
        let a = Assignment::assign(&Assignment::default(), &dealers(&[("a", 3), ("b", 4)]), 2);
        a.save(dir.path()).unwrap();
        assert_eq!(Assignment::load(dir.path()), a);
        std::fs::write(dir.path().join(ASSIGNMENT_FILE), "{ not json").unwrap();
        assert_eq!(Assignment::load(dir.path()), Assignment::default());
    }
}
