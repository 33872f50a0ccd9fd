//! `dealergen rollback`: the dealer's previous deployment back (its site
//! worker version and its kept KV entries), recorded so that a deployment
//! with `--changed` does not redeploy the release rolled back from.

use anyhow::{bail, Context, Result};

use super::remote_state::{self, Deployed, Remote};
use super::wrangler::Wrangler;
use super::{
    credentials, load_config, now, out_dir, refuse_placeholders, state_store, write_state_config,
    RollbackOptions,
};
use crate::project::Project;
use crate::run::release::KvEntry;

pub fn rollback(project: &Project, args: RollbackOptions) -> Result<i32> {
    let cfg = load_config(project, args.config.as_deref())?;
    if !args.dry_run {
        refuse_placeholders(&cfg)?;
    }
    if let Err(why) = credentials(&cfg) {
        bail!("{why}: a rollback reads what is deployed from Cloudflare, even with --dry-run");
    }
    let wrangler = Wrangler::locate(&project.root)?;
    let out = out_dir(project);
    let state_dir = write_state_config(&cfg, &out)?;
    let store = state_store(&wrangler, &state_dir, &cfg, Ok(()));
    let slug = &args.dealer;
    let worker = cfg.site_worker(slug);
    let current = match store.get_json::<Deployed>(&remote_state::deployed_key(slug)) {
        Remote::Found(d) => d,
        Remote::Absent => bail!("dealer `{slug}` has never been deployed: nothing to roll back"),
        Remote::Unknown(why) => bail!("cannot read what is deployed for `{slug}`: {why}"),
    };
    let Some(prev) = current.previous.clone() else {
        bail!(
            "dealer `{slug}`: release {} is live and no earlier deployment is recorded{}",
            current.release,
            if current.rolled_back_from.is_some() {
                " (it was rolled back to already; deploy a release with `dealergen deploy --dealer`)"
            } else {
                ""
            }
        );
    };
    let Some(version) = prev.version.clone() else {
        bail!(
            "dealer `{slug}`: the site worker version of release {} is not recorded",
            prev.release
        );
    };
    let entries = |release: &str| -> Result<Vec<KvEntry>> {
        match store.get(&remote_state::release_key(slug, release)) {
            Remote::Found(t) => serde_json::from_str(t.trim()).with_context(|| {
                format!("{} is unreadable", remote_state::release_key(slug, release))
            }),
            Remote::Absent => bail!(
                "the KV entries of release {release} are not kept ({} is missing)",
                remote_state::release_key(slug, release)
            ),
            Remote::Unknown(why) => bail!("{why}"),
        }
    };
    let old_kv = entries(&prev.release)?;
    let cur_kv = entries(&current.release)?;
    let o = wrangler
        .run(
            &state_dir,
            &[
                "versions",
                "list",
                "--name",
                &worker,
                "--json",
                "--config",
                "wrangler.json",
            ],
            None,
        )?
        .checked("versions list")?;
    let versions: Vec<serde_json::Value> = serde_json::from_str(
        o.stdout
            .get(o.stdout.find('[').unwrap_or(0)..)
            .unwrap_or("")
            .trim(),
    )
    .context("wrangler versions list answered something unreadable")?;
    if !versions.iter().any(|v| v["id"] == version.as_str()) {
        bail!("dealer `{slug}`: version {version} of {worker} (release {}) is no longer kept by Cloudflare; deploy that release again instead", prev.release);
    }
    let (added, changed, removed, same) = remote_state::kv_change(&cur_kv, &old_kv);
    println!(
        "{}roll back {slug}: release {} -> {} ",
        if args.dry_run {
            "dry run, nothing is changed: "
        } else {
            ""
        },
        current.release,
        prev.release
    );
    println!(
        "  site worker {worker}: version {} -> {version}",
        current.version.as_deref().unwrap_or("?")
    );
    println!(
        "  KV: {} keys put ({added} added back, {changed} changed, {same} unchanged), {removed} deleted",
        old_kv.len()
    );
    if args.dry_run {
        return Ok(0);
    }
    let stale = remote_state::stale_keys(&cur_kv, &old_kv);
    // Until the rollback's record is written, the next deployment writes every key.
    store
        .mark_switching(&current, &prev.release)
        .context("nothing was changed: the deployment record could not be marked")?;
    store
        .bulk_put_entries(&old_kv)
        .context("nothing was changed: the previous edge config could not be put")?;
    let message = format!("dealergen rollback to release {}", prev.release);
    let o = wrangler.run(
        &state_dir,
        &[
            "rollback",
            &version,
            "--name",
            &worker,
            "--yes",
            "--message",
            &message,
            "--config",
            "wrangler.json",
        ],
        None,
    )?;
    if !o.ok {
        let back = store
            .bulk_put_entries(&cur_kv)
            .and_then(|_| store.bulk_delete(&remote_state::stale_keys(&old_kv, &cur_kv)))
            .and_then(|_| store.put_json(&remote_state::deployed_key(slug), &current));
        bail!(
            "wrangler rollback of {worker} failed:\n    {}\n{}",
            o.said(),
            match back {
                Ok(()) => format!(
                    "the edge config was put back to release {}: nothing changed",
                    current.release
                ),
                Err(e) => format!("putting the edge config back ALSO failed: {e:#}"),
            }
        );
    }
    if let Err(e) = store.bulk_delete(&stale) {
        eprintln!("warning: {slug}: stale KV keys not deleted: {e:#}");
    }
    let rec = Deployed {
        slug: slug.clone(),
        key: prev.key.clone(),
        release: prev.release.clone(),
        version: Some(version),
        deployed_at: now(),
        dealergen_version: env!("CARGO_PKG_VERSION").into(),
        previous: None,
        rolled_back_from: Some(current.pointer()),
        switching_to: None,
    };
    store.put_json(&remote_state::deployed_key(slug), &rec)?;
    println!("rolled back {slug} to release {}", prev.release);
    Ok(0)
}
