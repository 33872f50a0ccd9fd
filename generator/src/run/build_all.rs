//! Building many dealers: every dealer is prepared (checked, generated,
//! keyed) in parallel; the cached ones are done there; the rest are built
//! in batches (crate::run::batch), at most `jobs` Astro runs at once, or each in
//! its own run with `--separate`, when only one dealer needs building, or
//! when only one dealer of its batch does. Which batch a dealer is in is
//! kept from run to run (`batch::Assignment`), so each batch project's page
//! cache meets the same dealers again.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::project::Project;
use crate::run::build::{BuildFailure, BuildOptions, BuildReport, Prepared, Rebuild, State};
use crate::run::progress::Progress;
use crate::selection::slug_of;

/// How `build` runs.
pub struct RunOptions {
    pub build: BuildOptions,
    /// `--force`: rebuild dealers that are up to date.
    pub rebuild: Rebuild,
    /// Astro runs at once (the machine's cores and memory decide the default).
    pub jobs: usize,
    /// One Astro run per dealer instead of batches (today's way before
    /// batching; the bench compares the two).
    pub separate: bool,
}

pub type DealerResult = (String, Result<BuildReport, BuildFailure>);

/// Builds the dealers of `files`; results in the order of `files`.
pub fn run(
    project: &Project,
    files: &[PathBuf],
    opts: &RunOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<DealerResult>> {
    let slugs: Vec<String> = files.iter().map(|f| slug_of(f)).collect();
    // Templates, app, presets and tool versions: hashed once for the run.
    let shared = crate::run::cache::SharedKey::compute(project)?;
    // The Rust stage uses every core: it is short, and Astro has not started.
    let prepared: Vec<(String, Result<Prepared, BuildFailure>)> = files
        .par_iter()
        .zip(&slugs)
        .map(|(file, slug)| {
            (
                slug.clone(),
                crate::run::build::prepare(
                    project,
                    file,
                    &opts.build,
                    opts.rebuild,
                    &shared,
                    &|_| {},
                ),
            )
        })
        .collect();

    let mut results: Vec<DealerResult> = Vec::new();
    let mut stale: Vec<Prepared> = Vec::new();
    // Every dealer that builds or is up to date, with its pages: what the
    // batches are planned over, whatever changed this time.
    let mut members: Vec<(String, usize)> = Vec::new();
    for (slug, p) in prepared {
        match p {
            Ok(p) if matches!(p.state, State::Stale) => {
                members.push((slug, p.page_count()));
                stale.push(p);
            }
            Ok(p) => {
                let r = p.report(None).map_err(BuildFailure::Failed);
                progress.dealer_done(r.as_ref().map(|r| r.pages).unwrap_or(0), r.is_err());
                if let Ok(report) = &r {
                    members.push((slug.clone(), report.pages));
                }
                results.push((slug, r));
            }
            Err(e) => {
                progress.dealer_done(0, true);
                results.push((slug, Err(e)));
            }
        }
    }

    let jobs = opts.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let built: Vec<DealerResult> = if opts.separate || stale.len() <= 1 {
        pool.install(|| {
            stale
                .into_par_iter()
                .map(|p| {
                    let slug = p.slug.clone();
                    let bar = progress.spinner(&slug);
                    let r = crate::run::build::build_prepared(project, p, &|m: &str| {
                        bar.set_message(m.to_string())
                    });
                    bar.finish_and_clear();
                    progress.dealer_done(r.as_ref().map(|r| r.pages).unwrap_or(0), r.is_err());
                    (slug, r)
                })
                .collect()
        })
    } else {
        let assignment = crate::run::batch::Assignment::assign(
            &crate::run::batch::Assignment::load(&project.sites_dir),
            &members,
            jobs,
        );
        assignment.save(&project.sites_dir)?;
        let mut slots: Vec<Option<Prepared>> = stale.into_iter().map(Some).collect();
        let batches: Vec<(usize, Vec<Prepared>, Vec<String>)> = assignment
            .batches
            .iter()
            .enumerate()
            .map(|(i, batch)| {
                let mut changed = Vec::new();
                let mut unchanged = Vec::new();
                for m in batch {
                    match slots
                        .iter_mut()
                        .find(|s| s.as_ref().is_some_and(|p| p.slug == m.slug))
                    {
                        Some(slot) => changed.push(slot.take().expect("found above")),
                        None => unchanged.push(m.slug.clone()),
                    }
                }
                (i + 1, changed, unchanged)
            })
            .filter(|(_, changed, _)| !changed.is_empty())
            .collect();
        pool.install(|| {
            batches
                .into_par_iter()
                .flat_map_iter(|(n, mut dealers, unchanged)| {
                    let bar = progress.spinner(&format!("batch {n}"));
                    let step = |m: &str| bar.set_message(m.to_string());
                    // One changed dealer gains nothing from its batch: it
                    // is built in its own project, which has a page cache
                    // of its own, and the batch's cache waits for a run
                    // that changes more of its dealers.
                    let out = if dealers.len() == 1 {
                        let d = dealers.pop().expect("one dealer");
                        vec![(
                            d.slug.clone(),
                            crate::run::build::build_prepared(project, d, &step),
                        )]
                    } else {
                        crate::run::batch::build(project, n, dealers, &unchanged, &step)
                    };
                    bar.finish_and_clear();
                    for (_, r) in &out {
                        progress.dealer_done(r.as_ref().map(|r| r.pages).unwrap_or(0), r.is_err());
                    }
                    out
                })
                .collect()
        })
    };
    results.extend(built);
    results.sort_by_key(|(slug, _)| slugs.iter().position(|s| s == slug));
    progress.finish();
    Ok(results)
}
