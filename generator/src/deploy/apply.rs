//! Carrying out a deployment's plan, platform first: the D1 migrations,
//! then the edge worker the new sites call, then each dealer all or
//! nothing as far as shoppers see it (KV entries kept for rollback, put,
//! the site worker deployed, stale keys deleted, the release recorded; a
//! failed upload puts the previous entries back).

use anyhow::{bail, Context, Result};

use super::now;
use super::plan::{DealerPlan, Plan};
use super::remote_state::{self, Deployed, EdgeDeployed, Remote, Store};
use super::wrangler::Wrangler;

/// Deploys `plan` (after it was printed); the exit code.
pub(super) fn run(plan: &Plan) -> Result<i32> {
    let to_deploy = plan.to_deploy();
    let store = plan.store();
    if let Some(why) = plan.blocked() {
        println!("FAILED: {why}; nothing was uploaded");
        return Ok(1);
    }
    if let Err(why) = &plan.secret_state {
        println!("FAILED: cannot check the secrets ({why}); nothing was uploaded");
        return Ok(1);
    }
    let unknown: Vec<&str> = to_deploy
        .iter()
        .filter(|p| matches!(p.deployed, Remote::Unknown(_)))
        .map(|p| p.release.slug.as_str())
        .collect();
    if !unknown.is_empty() || matches!(plan.edge_state, Remote::Unknown(_)) {
        println!(
            "FAILED: what is deployed cannot be read ({}); nothing was uploaded",
            if unknown.is_empty() {
                "edge".to_string()
            } else {
                unknown.join(", ")
            }
        );
        return Ok(1);
    }

    // Platform first: the schema, then the worker the new sites call.
    let pending = match &plan.pending {
        Ok(p) => p,
        Err(why) => {
            println!("FAILED: {why}; nothing was uploaded");
            return Ok(1);
        }
    };
    if !pending.is_empty() {
        let o = plan
            .wrangler
            .run(&plan.edge_dir, &super::wrangler::MIGRATIONS_APPLY, None)?;
        if !o.ok {
            println!("FAILED D1 migrations: {}\nno dealer was deployed", o.said());
            return Ok(1);
        }
        println!("applied {} D1 migration(s)", pending.len());
    }
    if plan.edge_changed {
        let message = format!("dealergen {} deploy", env!("CARGO_PKG_VERSION"));
        let o = plan.wrangler.run(
            &plan.edge_dir,
            &["deploy", "--config", "wrangler.json", "--message", &message],
            None,
        )?;
        if !o.ok {
            println!(
                "FAILED edge worker {}: {}\nno dealer was deployed",
                plan.cfg.edge.name,
                o.said()
            );
            return Ok(1);
        }
        let rec = EdgeDeployed {
            key: plan.edge_key.clone().unwrap_or_default(),
            version: o.version_id(),
            deployed_at: now(),
        };
        store.put_json(remote_state::EDGE_KEY, &rec)?;
        println!(
            "deployed edge worker {} (version {})",
            plan.cfg.edge.name,
            rec.version.as_deref().unwrap_or("?")
        );
    }

    let (mut ok, mut failed) = (0, 0);
    for p in &to_deploy {
        match deploy_dealer(&plan.wrangler, &store, p) {
            Ok(rec) => {
                ok += 1;
                println!(
                    "deployed {}: release {} (site version {})",
                    p.release.slug,
                    rec.release,
                    rec.version.as_deref().unwrap_or("?")
                );
                // The addresses the dealer gives Google and Meta (once;
                // they stay the same from release to release).
                for (url, _) in p.feed_addresses() {
                    println!("  ads feed: {url}");
                }
            }
            Err(e) => {
                failed += 1;
                println!("FAILED {}: {e:#}", p.release.slug);
            }
        }
    }
    println!(
        "{ok} dealer(s) deployed, {failed} failed, {} skipped",
        plan.skipped()
    );
    Ok(if failed > 0 { 1 } else { 0 })
}

/// One dealer, all or nothing as far as shoppers see it.
fn deploy_dealer(wrangler: &Wrangler, store: &Store, p: &DealerPlan) -> Result<Deployed> {
    let r = &p.release;
    let previous = match &p.deployed {
        Remote::Found(d) => Some(d.clone()),
        _ => None,
    };
    // 1. Keep this release's entries remotely: what a rollback restores.
    let size = std::fs::metadata(r.kv_file())?.len();
    if size > KV_VALUE_LIMIT {
        bail!(
            "{} is {size} bytes, over the 25 MiB of one KV value: the release cannot be kept for rollback; nothing was changed",
            r.kv_file().display()
        );
    }
    store
        .put_file(&remote_state::release_key(&r.slug, &r.id), &r.kv_file())
        .context("nothing was changed")?;
    // Until this run's record is written, the next one must not trust KV
    // to hold the deployed release's entries (`Deployed::switching_to`).
    if let Some(d) = &previous {
        store
            .mark_switching(d, &r.id)
            .context("nothing was changed")?;
    }
    // Puts the deployed release's entries back and removes the new ones.
    let restore = |what: &str| -> String {
        let Some(old) = &p.previous_kv else {
            return format!("{what}; its previous KV entries are unknown and were not restored");
        };
        let put = if old.is_empty() {
            Ok(())
        } else {
            store.bulk_put_entries(old)
        };
        let del = store.bulk_delete(&remote_state::stale_keys(&p.new_kv, old));
        // KV holds the deployed release's entries again: its record loses the mark.
        let record = match (&put, &del, &previous) {
            (Ok(()), Ok(()), Some(d)) => store.put_json(&remote_state::deployed_key(&r.slug), d),
            _ => Ok(()),
        };
        match (put, del.and(record)) {
            (Ok(()), Ok(())) => format!(
                "{what}; its edge config was put back to {}",
                previous
                    .as_ref()
                    .map(|d| format!("release {}", d.release))
                    .unwrap_or_else(|| "nothing (never deployed)".into())
            ),
            (Err(e), _) | (_, Err(e)) => {
                format!("{what}; putting its previous edge config back ALSO failed: {e:#}")
            }
        }
    };
    // 2. The edge config: the keys whose value changed (`DealerPlan::kv_put`).
    if !p.kv_put.is_empty() {
        if let Err(e) = store.bulk_put_entries(&p.kv_put) {
            bail!("{}", restore(&format!("edge config (KV) not put: {e:#}")));
        }
    }
    // 3. The site.
    let message = format!("dealergen release {}", r.id);
    let o = wrangler.run(
        &p.dir,
        &["deploy", "--config", "wrangler.json", "--message", &message],
        None,
    )?;
    if !o.ok {
        bail!(
            "{}",
            restore(&format!(
                "site worker {} not deployed:\n    {}\n ",
                p.worker,
                o.said()
            ))
        );
    }
    // 4. Keys of the old release the new one has not: sold cars, old origins.
    if let Some(old) = &p.previous_kv {
        if let Err(e) = store.bulk_delete(&remote_state::stale_keys(old, &p.new_kv)) {
            eprintln!("warning: {}: stale KV keys not deleted: {e:#}", r.slug);
        }
    }
    // 5. The record.
    let rec = Deployed {
        slug: r.slug.clone(),
        key: r.key.clone(),
        release: r.id.clone(),
        version: o.version_id(),
        deployed_at: now(),
        dealergen_version: env!("CARGO_PKG_VERSION").into(),
        previous: previous
            .as_ref()
            .filter(|d| d.release != r.id)
            .map(Deployed::pointer)
            .or_else(|| previous.as_ref().and_then(|d| d.previous.clone())),
        rolled_back_from: None,
        switching_to: None,
    };
    store
        .put_json(&remote_state::deployed_key(&r.slug), &rec)
        .context("the site and its config are live, but the deployment record was not written (rerun the deploy)")?;
    // Only the live release and the one before are kept remotely.
    let keep: Vec<&str> = std::iter::once(rec.release.as_str())
        .chain(rec.previous.as_ref().map(|p| p.release.as_str()))
        .collect();
    let older: Vec<String> = previous
        .iter()
        .flat_map(|d| {
            std::iter::once(d.release.clone())
                .chain(d.previous.as_ref().map(|p| p.release.clone()))
                .chain(d.rolled_back_from.as_ref().map(|p| p.release.clone()))
        })
        .filter(|id| !keep.contains(&id.as_str()))
        .map(|id| remote_state::release_key(&r.slug, &id))
        .collect();
    if let Err(e) = store.bulk_delete(&older) {
        eprintln!(
            "warning: {}: old release entries not deleted: {e:#}",
            r.slug
        );
    }
    Ok(rec)
}

/// Cloudflare KV's limit on one value (a release's entries are one).
const KV_VALUE_LIMIT: u64 = 25 * 1024 * 1024;
