//! `dealergen stock pull`: one line per dealer (or JSON), exit 1 when any
//! feed was refused or could not be fetched.

use anyhow::Result;
use dealer_config::diagnostic::render_human;
use rayon::prelude::*;

use crate::cli::{PullArgs, PullFormat};
use crate::project::Project;
use crate::pull::{self, PullFailure, PullOptions, PullReport, Pulled};

/// Feeds fetched at once: the work is waiting on servers, not the CPU.
const PARALLEL_PULLS: usize = 4;

pub fn run(project: &Project, args: PullArgs) -> Result<i32> {
    let files = crate::selection::select(project, &args.selection)?;
    let opts = PullOptions {
        accept_drop: args.accept_drop,
        now: crate::selection::parse_as_of(args.as_of.as_deref())?,
        ..PullOptions::default()
    };
    let env = |name: &str| std::env::var(name).ok();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(PARALLEL_PULLS)
        .build()?;
    let reports: Vec<PullReport> = pool.install(|| {
        files
            .par_iter()
            .map(|file| {
                let slug = crate::selection::slug_of(file);
                pull::pull_dealer(project, file, &opts, &env, &|msg: &str| {
                    eprintln!("{slug}: {msg}")
                })
            })
            .collect()
    });

    // With --all, a dealer without a source is not a failure: its feed is
    // kept up to date some other way. Named with --dealer, it is.
    let named = !args.selection.all;
    let failed = reports
        .iter()
        .filter(|r| match &r.result {
            Err(PullFailure::NoSource) => named,
            Err(_) => true,
            Ok(_) => false,
        })
        .count();
    match args.format {
        PullFormat::Json => println!("{}", serde_json::to_string_pretty(&json(&reports))?),
        PullFormat::Human => {
            for r in &reports {
                print_human(r, named);
            }
            let updated = reports
                .iter()
                .filter(|r| matches!(r.result, Ok(Pulled::Updated { .. })))
                .count();
            let unchanged = reports
                .iter()
                .filter(|r| matches!(r.result, Ok(Pulled::Unchanged { .. })))
                .count();
            println!("{updated} updated, {unchanged} unchanged, {failed} failed");
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

fn print_human(r: &PullReport, named: bool) {
    let slug = &r.slug;
    match &r.result {
        Ok(Pulled::Updated {
            before,
            after,
            bytes,
            skipped,
            warnings,
            drop_accepted,
        }) => {
            let was = before
                .map(|b| format!(" (was {})", b.shown))
                .unwrap_or_else(|| " (no feed before)".into());
            let accepted = if *drop_accepted {
                "; the drop was accepted with --accept-drop"
            } else {
                ""
            };
            println!(
                "updated   {slug}: {} cars shown{was}, {} in the feed; {skipped} record(s) skipped, {warnings} warning(s); {} -> {}{accepted}",
                after.shown,
                after.cars,
                size(*bytes),
                r.feed.display()
            );
        }
        Ok(Pulled::Unchanged { reason }) => println!("unchanged {slug}: {reason}"),
        Err(PullFailure::NoSource) if !named => {
            println!("skipped   {slug}: no stock.source (its feed is not pulled)")
        }
        Err(e) => {
            println!("FAILED    {slug}: {e}");
            if let PullFailure::Invalid(rej) = e {
                eprint!("{}", render_human(&rej.diagnostics, &rej.files));
            }
        }
    }
    for w in &r.stale {
        println!("stale     {slug}: {w}");
    }
}

fn json(reports: &[PullReport]) -> serde_json::Value {
    let items: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            let mut v = match &r.result {
                Ok(p) => serde_json::to_value(p).expect("serialises"),
                Err(PullFailure::NoSource) => serde_json::json!({"status": "no_source"}),
                Err(e) => serde_json::json!({"status": "failed", "message": e.to_string()}),
            };
            v["dealer"] = r.slug.clone().into();
            v["feed"] = r.feed.display().to_string().into();
            v["stale"] = serde_json::json!(r.stale);
            v
        })
        .collect();
    serde_json::Value::Array(items)
}

fn size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / 1024.0 / 1024.0)
    } else {
        format!("{:.0} KB", (bytes as f64 / 1024.0).ceil())
    }
}
