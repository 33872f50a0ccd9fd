//! `dealergen build`: one dealer, several, or every one (`--all`, `--shard`),
//! with the summary table and the stock feeds' warnings.

use std::time::Instant;

use anyhow::Result;
use dealer_config::diagnostic::render_human;

use crate::cli::BuildArgs;
use crate::project::Project;
use crate::run::build::{BuildFailure, BuildOptions};
use crate::selection::{parse_as_of, select, slug_of, ShardPlan};

/// Astro builds use ~400 MB and one core each: run as many as both allow.
fn default_jobs() -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mem_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map(|kb| kb / 1024)
        .unwrap_or(2048);
    cores.min(mem_mb / 700).max(1)
}
pub fn run(project: &Project, args: BuildArgs) -> Result<i32> {
    let mut files = select(project, &args.selection)?;
    if let Some((i, n)) = args.shard {
        let plan = ShardPlan::new(project, n)?;
        files.retain(|f| plan.holds(i, &slug_of(f)));
    }
    let opts = crate::run::build_all::RunOptions {
        build: BuildOptions {
            now: match args.as_of.as_deref() {
                Some(at) => parse_as_of(Some(at))?,
                None => parse_as_of(None)?,
            },
            skip_astro: args.no_astro,
        },
        rebuild: if args.force {
            crate::run::build::Rebuild::Force
        } else {
            crate::run::build::Rebuild::IfChanged
        },
        jobs: args.jobs.unwrap_or_else(default_jobs).max(1),
        separate: args.separate,
    };
    let jobs = opts.jobs;
    let started = Instant::now();
    let progress = crate::run::progress::Progress::new(files.len());
    let results = crate::run::build_all::run(project, &files, &opts, &progress)?;
    let plan = crate::deploy::configured_plan(project);

    let mut failed = 0;
    let (mut skipped, mut left_out) = (0, 0);
    for (slug, result) in &results {
        // For `dealergen status`: how this dealer's build went.
        let record = crate::status::LastBuild {
            at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            result: match result {
                Ok(r) if r.cached => "cached",
                Ok(_) => "built",
                Err(_) => "failed",
            }
            .into(),
            release: result.as_ref().ok().and_then(|r| r.release.clone()),
            error: result
                .as_ref()
                .err()
                .map(|e| e.to_string().chars().take(2000).collect()),
        };
        if let Err(e) =
            crate::status::record_build(&crate::status::last_build_file(project, slug), &record)
        {
            eprintln!("{slug}: the build's record for `dealergen status` was not written: {e:#}");
        }
        match result {
            Ok(r) => {
                let dist = match (&r.dist, &r.release) {
                    (Some(d), Some(id)) => format!(" -> {} (release {id})", d.display()),
                    (Some(d), None) => format!(" -> {}", d.display()),
                    (None, _) => " (astro skipped)".into(),
                };
                // A cached dealer's published release was built from the
                // same inputs (the same build key): nothing was rebuilt.
                let verb = if r.cached { "cached" } else { "built " };
                let reused = if r.reused_pages > 0 {
                    format!(" ({} unchanged, from the page cache)", r.reused_pages)
                } else {
                    String::new()
                };
                println!(
                    "{verb} {slug}: {} cars shown, {} hidden; stock feed: {}; {} pages{reused} in {:.1}s{dist}",
                    r.cars_visible,
                    r.cars_hidden,
                    feed_counts(&r.warnings),
                    r.pages,
                    r.elapsed.as_secs_f64()
                );
                if let Some(p) = &r.publish {
                    println!(
                        "       checks in {:.0} ms ({} of {} pages as published before, not parsed again; finance compliance {:.0} ms); {}; {} files",
                        p.checks.as_secs_f64() * 1000.0,
                        p.pages_known,
                        p.links.pages,
                        p.compliance.as_secs_f64() * 1000.0,
                        p.links_line(),
                        p.assets.files
                    );
                    // Published here, but Cloudflare would refuse it: said
                    // now, not at the deployment.
                    for problem in p.assets.problems(plan) {
                        println!(
                            "       warning: the site does not fit Cloudflare's limits: {problem}"
                        );
                    }
                }
                skipped += r.warnings.skipped;
                left_out += r.warnings.feed_warnings;
                print_warnings(&r.warnings);
            }
            Err(e) => {
                failed += 1;
                println!("FAILED {slug}: {e}");
                match e {
                    BuildFailure::Invalid(rej) => {
                        eprint!("{}", render_human(&rej.diagnostics, &rej.files))
                    }
                    // The feed was read: its problems count and print as
                    // for a published site (they may be why it failed).
                    BuildFailure::Unpublished { warnings, .. } => {
                        println!("       stock feed: {}", feed_counts(warnings));
                        skipped += warnings.skipped;
                        left_out += warnings.feed_warnings;
                        print_warnings(warnings);
                    }
                    BuildFailure::Failed(_) => {}
                }
            }
        }
    }
    if results.len() > 1 {
        print!("{}", summary_table(&results));
    }
    let cached = results
        .iter()
        .filter(|(_, r)| r.as_ref().is_ok_and(|r| r.cached))
        .count();
    println!(
        "{} built, {failed} failed, in {:.1}s ({} at a time; {cached} unchanged, not rebuilt); stock feeds: {}, {}",
        results.len() - failed,
        started.elapsed().as_secs_f64(),
        jobs,
        plural(skipped, "record skipped", "records skipped"),
        plural(left_out, "warning", "warnings"),
    );
    Ok(if failed > 0 { 1 } else { 0 })
}

/// Per dealer: pages, warnings, time and whether it was built, cached or failed.
fn summary_table(results: &[crate::run::build_all::DealerResult]) -> String {
    let width = results
        .iter()
        .map(|(s, _)| s.len())
        .max()
        .unwrap_or(0)
        .max("dealer".len());
    let mut out = format!(
        "{:<width$}  {:>6}  {:>8}  {:>7}  result\n",
        "dealer", "pages", "warnings", "time"
    );
    for (slug, r) in results {
        let line = match r {
            Ok(r) => format!(
                "{slug:<width$}  {:>6}  {:>8}  {:>6.1}s  {}\n",
                r.pages,
                r.warnings.lines.len(),
                r.elapsed.as_secs_f64(),
                if r.cached {
                    "cached"
                } else if r.dist.is_none() {
                    "generated"
                } else {
                    "built"
                }
            ),
            Err(e) => format!(
                "{slug:<width$}  {:>6}  {:>8}  {:>7}  FAILED\n",
                "-",
                match e {
                    BuildFailure::Unpublished { warnings, .. } => warnings.lines.len().to_string(),
                    _ => "-".into(),
                },
                "-"
            ),
        };
        out.push_str(&line);
    }
    out
}

/// Warnings printed per dealer; the rest are in its stock-feed-report.txt.
const MAX_PRINTED_WARNINGS: usize = 25;

/// "2 records skipped, 19 warnings".
fn feed_counts(w: &crate::run::build::Warnings) -> String {
    format!(
        "{}, {}",
        plural(w.skipped, "record skipped", "records skipped"),
        plural(w.feed_warnings, "warning", "warnings")
    )
}

/// A dealer's warnings, the first [`MAX_PRINTED_WARNINGS`] of them.
fn print_warnings(w: &crate::run::build::Warnings) {
    for line in w.lines.iter().take(MAX_PRINTED_WARNINGS) {
        println!("       warning: {line}");
    }
    if let Some(more) = w.lines.len().checked_sub(MAX_PRINTED_WARNINGS) {
        if more > 0 {
            let report = w
                .feed_report
                .as_ref()
                .map(|p| format!(": all of them are in {}", p.display()))
                .unwrap_or_default();
            println!("       ... and {more} more warning(s){report}");
        }
    }
}

/// "1 record skipped", "0 warnings".
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
