//! What Cloudflare holds that `dealergen status` reports: each dealer's
//! deployed release (KV `deployed:<slug>`, as `deploy` and `rollback` keep
//! it) and the leads the edge has not delivered (D1, through `wrangler d1
//! execute --remote --json`). Read with the same credentials and account
//! as a deployment; without them, why not.

use std::collections::BTreeMap;

use serde::Serialize;

use super::remote_state::{deployed_key, Deployed, Remote};
use crate::project::Project;

/// The leads of one dealer the edge has not delivered.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeadBacklog {
    /// Leads not delivered (pending, retrying, held or without a route).
    pub waiting: u64,
    /// The oldest of them (its `created_at`).
    pub oldest_waiting: Option<String>,
    /// Leads whose delivery failed and is being retried.
    pub failing: u64,
    /// The oldest failing one, and its last error.
    pub oldest_failing: Option<String>,
    pub last_error: Option<String>,
    /// Leads the edge could send nowhere (the dealer has no webhook or e-mail).
    pub no_route: u64,
}

/// The backlog of every dealer with one, in one query.
pub const LEADS_SQL: &str = "SELECT dealer, count(*) AS waiting, min(created_at) AS oldest_waiting, \
     sum(delivery_status = 'retrying') AS failing, \
     min(CASE WHEN delivery_status = 'retrying' THEN created_at END) AS oldest_failing, \
     (SELECT l2.last_error FROM leads l2 WHERE l2.dealer = leads.dealer AND l2.delivery_status = 'retrying' ORDER BY l2.created_at LIMIT 1) AS last_error, \
     sum(delivery_status = 'no_route') AS no_route \
     FROM leads WHERE delivery_status <> 'delivered' GROUP BY dealer";

/// What could be read: each dealer's deployment, and the backlogs (Err:
/// why the leads could not be read).
pub struct RemoteFacts {
    pub deployed: BTreeMap<String, Remote<Deployed>>,
    pub leads: Result<BTreeMap<String, LeadBacklog>, String>,
}

/// Reads what Cloudflare holds for `slugs`. Err: why nothing could be read
/// (no deploy config, no credentials, no wrangler).
pub fn read(
    project: &Project,
    config: Option<&std::path::Path>,
    slugs: &[String],
) -> Result<RemoteFacts, String> {
    let cfg = super::load_config(project, config).map_err(|e| format!("{e:#}"))?;
    super::credentials(&cfg)?;
    let wrangler =
        super::wrangler::Wrangler::locate(&project.root).map_err(|e| format!("{e:#}"))?;
    let dir = super::out_dir(project).join("status");
    super::write_json(
        &dir.join("wrangler.json"),
        &serde_json::json!({
            "name": cfg.edge.name,
            "account_id": cfg.account_id,
            "compatibility_date": cfg.sites.compatibility_date,
            "d1_databases": [{ "binding": "DB", "database_name": cfg.d1_database_name, "database_id": cfg.d1_database_id }],
        }),
    )
    .map_err(|e| format!("{e:#}"))?;
    let store = super::state_store(&wrangler, &dir, &cfg, Ok(()));
    let deployed = slugs
        .iter()
        .map(|s| (s.clone(), store.get_json::<Deployed>(&deployed_key(s))))
        .collect();
    let leads = wrangler
        .run(
            &dir,
            &[
                "d1",
                "execute",
                "DB",
                "--remote",
                "--json",
                "--command",
                LEADS_SQL,
            ],
            None,
        )
        .map_err(|e| format!("{e:#}"))
        .and_then(|o| {
            if o.ok {
                backlogs(&o.stdout)
            } else {
                Err(format!("wrangler d1 execute failed:\n    {}", o.said()))
            }
        });
    Ok(RemoteFacts { deployed, leads })
}

/// `wrangler d1 execute --json`'s answer to [`LEADS_SQL`], by dealer.
fn backlogs(stdout: &str) -> Result<BTreeMap<String, LeadBacklog>, String> {
    let v: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("wrangler d1 execute answered something unreadable ({e})"))?;
    let rows = v[0]["results"]
        .as_array()
        .ok_or("wrangler d1 execute answered no results")?;
    let text = |r: &serde_json::Value, k: &str| r[k].as_str().map(String::from);
    Ok(rows
        .iter()
        .filter_map(|r| {
            Some((
                r["dealer"].as_str()?.to_string(),
                LeadBacklog {
                    waiting: r["waiting"].as_u64().unwrap_or(0),
                    oldest_waiting: text(r, "oldest_waiting"),
                    failing: r["failing"].as_u64().unwrap_or(0),
                    oldest_failing: text(r, "oldest_failing"),
                    last_error: text(r, "last_error"),
                    no_route: r["no_route"].as_u64().unwrap_or(0),
                },
            ))
        })
        .collect())
}
