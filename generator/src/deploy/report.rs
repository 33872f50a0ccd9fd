//! The plan of a deployment as `deploy` prints it (and `--dry-run` only
//! prints): the account, D1 migrations, secrets, the edge worker, and per
//! dealer its release, files, routes and KV changes.

use std::collections::{BTreeMap, BTreeSet};

use super::plan::{DealerPlan, Plan};
use super::remote_state::{self, Remote};
use super::{configs, show};
use crate::project::Project;
use crate::run::release;

/// Prints the whole plan.
pub(super) fn print(plan: &Plan, project: &Project, dry_run: bool) {
    let missing = plan.missing_secrets();
    let shown_out = show(&plan.out);
    println!(
        "{}deployment to account {} ({}):",
        if dry_run {
            "dry run, nothing is uploaded or changed: "
        } else {
            ""
        },
        plan.cfg.account_id,
        show(&plan.cfg.file)
    );
    println!("wrangler configs: {shown_out}/");
    println!(
        "Workers on the account: {} of the Workers {} plan's {} (a site worker per dealer, the edge{})",
        plan.account_workers,
        plan.cfg.sites.plan.name(),
        plan.cfg.sites.plan.max_workers(),
        if plan.cfg.preview.is_some() { " and the previews' edge" } else { "" }
    );
    if let Err(why) = &plan.reach {
        println!("remote state: cannot be read ({why}): every dealer is treated as changed; pending migrations and missing secrets are not known");
    }
    match &plan.pending {
        _ if !plan.with_edge => println!(
            "D1 {} and edge worker {}: not part of this run (--no-edge)",
            plan.cfg.d1_database_name, plan.cfg.edge.name
        ),
        Ok(p) if p.is_empty() => println!("D1 {}: no migration pending", plan.cfg.d1_database_name),
        Ok(p) => println!(
            "D1 {}: {} migration(s) to apply: {}",
            plan.cfg.d1_database_name,
            p.len(),
            p.join(", ")
        ),
        Err(why) => println!(
            "D1 {}: pending migrations unknown ({why})",
            plan.cfg.d1_database_name
        ),
    }
    match &plan.secret_state {
        Ok(_) if missing.is_empty() => println!(
            "secrets of {}: all {} needed are set ({})",
            plan.cfg.edge.name,
            plan.needed.len(),
            plan.needed.keys().cloned().collect::<Vec<_>>().join(", ")
        ),
        Ok(_) => {
            println!(
                "secrets of {}: {} MISSING:",
                plan.cfg.edge.name,
                missing.len()
            );
            for (name, who) in &missing {
                println!("  {name}  (needed by {})", who.join("; "));
            }
            println!(
                "  set each with `wrangler secret put NAME --name {}`",
                plan.cfg.edge.name
            );
        }
        Err(why) => println!(
            "secrets of {}: cannot check ({why}); needed: {}",
            plan.cfg.edge.name,
            plan.needed.keys().cloned().collect::<Vec<_>>().join(", ")
        ),
    }
    if let Some(why) = &plan.edge_unbuilt {
        println!(
            "edge worker {}: {why}; a deployment would stop here",
            plan.cfg.edge.name
        );
    } else if plan.with_edge {
        println!(
            "edge worker {}: {} ({} route(s); config {shown_out}/edge/wrangler.json)",
            plan.cfg.edge.name,
            match &plan.edge_state {
                Remote::Found(_) if !plan.edge_changed => "unchanged, not redeployed".to_string(),
                Remote::Found(_) => "changed, deploy".to_string(),
                Remote::Absent => "never deployed, deploy".to_string(),
                Remote::Unknown(_) => "deployed key unknown, deploy".to_string(),
            },
            plan.routes.len()
        );
        for r in &plan.routes {
            println!("  route {} (zone {})", r.pattern, r.zone_name);
        }
    }
    for p in &plan.dealers {
        print_dealer(p, project);
    }
    for s in &plan.not_built {
        println!("dealer {s}: skip (no build in this checkout; only built dealers are compared)");
    }
}

fn print_dealer(p: &DealerPlan, project: &Project) {
    let r = &p.release;
    let reason = match &p.decision {
        Ok(why) => format!("deploy release {} ({why})", r.id),
        Err(why) => {
            println!("dealer {}: skip: {why}", r.slug);
            return;
        }
    };
    println!("dealer {}: {reason}", r.slug);
    let bytes: u64 = p.files.iter().map(|f| f.size).sum();
    // Compared with the deployed release when it is still on this machine.
    let compared = match &p.deployed {
        Remote::Found(d) => release::by_id(&project.sites_dir, &r.slug, &d.release)
            .and_then(|old| configs::manifest(&old.dist()).ok())
            .map(|old| {
                let before: BTreeMap<&str, &str> = old
                    .iter()
                    .map(|f| (f.path.as_str(), f.sha256.as_str()))
                    .collect();
                let now: BTreeSet<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
                let new_or_changed = p
                    .files
                    .iter()
                    .filter(|f| before.get(f.path.as_str()) != Some(&f.sha256.as_str()))
                    .count();
                let removed = before.keys().filter(|k| !now.contains(*k)).count();
                format!(
                    "; against release {}: {new_or_changed} new or changed, {removed} removed",
                    d.release
                )
            }),
        _ => None,
    }
    .unwrap_or_default();
    println!(
        "  site worker {}: {} files, {} ({} sha256 in {}){compared}",
        p.worker,
        p.files.len(),
        human_bytes(bytes),
        p.files.len(),
        show(&p.dir.join("assets.tsv"))
    );
    for problem in &p.over_limits {
        println!("  OVER THE LIMITS: {problem}");
    }
    for route in &p.routes {
        println!("  route {} (zone {})", route.pattern, route.zone_name);
    }
    for (url, size) in p.feed_addresses() {
        println!("  ads feed {url} ({})", human_bytes(size));
    }
    let mut prefixes: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &p.new_kv {
        let prefix = e.key.split(':').next().unwrap_or("");
        *prefixes.entry(prefix).or_default() += 1;
    }
    let by_prefix = prefixes
        .iter()
        .map(|(k, n)| format!("{n} {k}:"))
        .collect::<Vec<_>>()
        .join(", ");
    let unfinished = match &p.deployed {
        Remote::Found(d) => d
            .switching_to
            .as_ref()
            .map(|to| format!(" (every key: the deployment of release {to} did not finish)"))
            .unwrap_or_default(),
        _ => String::new(),
    };
    match &p.previous_kv {
        Some(old) => {
            let (added, changed, removed, same) = remote_state::kv_change(old, &p.new_kv);
            println!(
                "  KV: {} of {} keys put{unfinished} ({by_prefix}): {added} new, {changed} changed, {same} unchanged; {removed} deleted",
                p.kv_put.len(),
                p.new_kv.len()
            );
        }
        None => println!(
            "  KV: {} keys put ({by_prefix}); keys to delete unknown (deployed release not readable)",
            p.new_kv.len()
        ),
    }
    println!("    from {}", show(&p.release.kv_file()));
    for e in p
        .kv_put
        .iter()
        .filter(|e| e.key.starts_with("dealer:") || e.key.starts_with("origin:"))
    {
        println!("    put {}", e.key);
    }
    if let Some(old) = &p.previous_kv {
        let gone = remote_state::stale_keys(old, &p.new_kv);
        for k in gone.iter().take(MAX_LISTED) {
            println!("    delete {k}");
        }
        if gone.len() > MAX_LISTED {
            println!("    ... and {} more deleted", gone.len() - MAX_LISTED);
        }
    }
    if !p.secrets.is_empty() {
        println!(
            "  secrets used: {}",
            p.secrets.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    println!("  config {}", show(&p.dir.join("wrangler.json")));
}

/// Keys to delete listed one by one in a plan; the rest are counted.
const MAX_LISTED: usize = 20;

fn human_bytes(n: u64) -> String {
    if n >= 1024 * 1024 {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    } else if n >= 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{n} B")
    }
}
