//! What a deployment would do, read before anything is changed: which
//! dealers and releases, the generated wrangler configs, what is deployed
//! (KV `deployed:<slug>`), the secrets the dealers need and which are set,
//! the D1 migrations not applied, whether the edge worker changed, and
//! what stops the deployment (secrets missing, a site over the plan's
//! limits).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::Result;

use super::config::DeployConfig;
use super::remote_state::{self, Deployed, EdgeDeployed, Remote, Store};
use super::wrangler::Wrangler;
use super::{
    api_hosts, configs, out_dir, secrets, state_store, write_json, write_state_config, Options,
};
use crate::checks::asset_limits as limits;
use crate::project::Project;
use crate::run::release::{self, KvEntry, Release};

/// One dealer's part of a deployment.
pub(super) struct DealerPlan {
    pub(super) release: Release,
    /// Folder of its generated wrangler.json.
    pub(super) dir: PathBuf,
    pub(super) routes: Vec<configs::Route>,
    pub(super) worker: String,
    pub(super) files: Vec<configs::AssetFile>,
    pub(super) deployed: Remote<Deployed>,
    /// Why it is deployed, or why not (None: skipped).
    pub(super) decision: Result<String, String>,
    /// The KV entries of the deployed release, when known.
    pub(super) previous_kv: Option<Vec<KvEntry>>,
    pub(super) new_kv: Vec<KvEntry>,
    /// The entries the deployment writes: those of `new_kv` whose value
    /// differs from `previous_kv`'s, or all of them when KV's content is
    /// not known (never read, or the last deployment did not finish).
    pub(super) kv_put: Vec<KvEntry>,
    pub(super) secrets: BTreeMap<String, String>,
    /// Why the site does not fit the Workers plan's limits (asset_limits.rs).
    pub(super) over_limits: Vec<String>,
}

impl DealerPlan {
    /// The address of each ads feed the release carries (`dist/feeds/`),
    /// on the site's own host: what the dealer gives Google Merchant
    /// Center and Meta Commerce Manager as a scheduled feed.
    pub(super) fn feed_addresses(&self) -> Vec<(String, u64)> {
        let origin = self
            .release
            .edge
            .origins
            .first()
            .map(|o| o.trim_end_matches('/'))
            .unwrap_or_default();
        self.files
            .iter()
            .filter(|f| f.path.starts_with("feeds/"))
            .map(|f| (format!("{origin}/{}", f.path), f.size))
            .collect()
    }
}

fn decide(
    release: &Release,
    deployed: &Remote<Deployed>,
    only_changed: bool,
) -> Result<String, String> {
    match deployed {
        Remote::Absent => Ok("never deployed".into()),
        Remote::Unknown(why) => Ok(format!("deployed key unknown ({why}): treated as changed")),
        Remote::Found(d) if d.key != release.key => {
            if only_changed
                && d.rolled_back_from
                    .as_ref()
                    .is_some_and(|r| r.key == release.key)
            {
                return Err(format!(
                    "release {} was rolled back; deploy it with --dealer {} or build a new one",
                    release.id, release.slug
                ));
            }
            Ok(format!(
                "build key differs from the deployed release {}",
                d.release
            ))
        }
        Remote::Found(d) if only_changed => {
            Err(format!("unchanged (release {} is live)", d.release))
        }
        Remote::Found(_) => Ok("same build key as deployed, redeployed on request".into()),
    }
}

/// A whole deployment's plan (`deploy --dry-run` prints it; a deployment
/// applies it).
pub(super) struct Plan {
    pub(super) cfg: DeployConfig,
    /// Whether remote state can be read (`Err`: why not).
    pub(super) reach: Result<(), String>,
    pub(super) wrangler: Wrangler,
    /// `sites/.deploy/`.
    pub(super) out: PathBuf,
    /// The state config's folder (KV and rollback commands run there).
    pub(super) state_dir: PathBuf,
    /// The edge worker's config folder.
    pub(super) edge_dir: PathBuf,
    /// False with `--no-edge`.
    pub(super) with_edge: bool,
    pub(super) routes: Vec<configs::Route>,
    /// The edge worker's key (config and code), when it is part of the run and built.
    pub(super) edge_key: Option<String>,
    /// Why the edge worker's config could not be made (a dry run without its build).
    pub(super) edge_unbuilt: Option<String>,
    pub(super) edge_state: Remote<EdgeDeployed>,
    pub(super) edge_changed: bool,
    pub(super) dealers: Vec<DealerPlan>,
    /// Selected dealers without a build in this checkout (`--changed`).
    pub(super) not_built: Vec<String>,
    /// Each secret the deployed dealers need, and who needs it.
    pub(super) needed: BTreeMap<String, Vec<String>>,
    /// The edge worker's secrets that are set, or why that is unknown.
    pub(super) secret_state: Result<BTreeSet<String>, String>,
    /// D1 migrations not applied remotely, or why that is unknown.
    pub(super) pending: Result<Vec<String>, String>,
    /// The Workers the platform holds on the account once every dealer is
    /// deployed: a site worker per dealer, the edge worker, and the
    /// previews' edge worker when previews are set up.
    pub(super) account_workers: usize,
}

impl Plan {
    /// Reads everything the plan needs; changes nothing remotely (it writes
    /// the wrangler configs under `sites/.deploy/`).
    pub(super) fn make(project: &Project, args: &Options, cfg: DeployConfig) -> Result<Plan> {
        let reach = super::credentials(&cfg);
        let cfg_preview = cfg.preview.is_some();
        let wrangler = Wrangler::locate(&project.root)?;
        let out = out_dir(project);
        let hosts = api_hosts(project)?;

        // Which dealers, and their releases.
        let with_edge = !args.no_edge;
        let slugs: Vec<String> = if args.edge_only {
            Vec::new()
        } else {
            super::chosen(
                project,
                hosts.keys().cloned().collect(),
                &args.dealers,
                args.shard,
            )?
        };
        let mut releases = Vec::new();
        let mut not_built = Vec::new();
        for slug in &slugs {
            match release::current(&project.sites_dir, slug) {
                Ok(r) => releases.push(r),
                // A CI runner builds only its changed dealers: the others have
                // nothing here to compare, and nothing to upload.
                Err(_) if args.changed_only => not_built.push(slug.clone()),
                Err(e) => return Err(e),
            }
        }

        // The generated configs.
        let state_dir = write_state_config(&cfg, &out)?;
        let edge_dir = out.join("edge");
        let routes = configs::edge_routes(&cfg, &hosts)?;
        let platform_secrets: Vec<String> = secrets::platform(&cfg.edge).into_keys().collect();
        // The edge worker's config and key (not with --no-edge: the sites of a
        // CI shard go out without the worker, which one job deploys first).
        let mut edge_unbuilt = None;
        let edge_key = if with_edge {
            match configs::edge(&cfg, &project.root, &routes, &platform_secrets, &edge_dir) {
                Ok(edge_json) => {
                    write_json(&edge_dir.join("wrangler.json"), &edge_json)?;
                    let main = edge_dir.join(edge_json["main"].as_str().unwrap_or_default());
                    Some(configs::edge_key(
                        &serde_json::to_string(&edge_json)?,
                        &main,
                    )?)
                }
                // A dry run still shows the dealers' part on a machine that
                // has not built the worker (it takes minutes the first time).
                Err(e) if args.dry_run && e.to_string().contains("not built") => {
                    edge_unbuilt = Some(e.to_string());
                    None
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let store = state_store(&wrangler, &state_dir, &cfg, reach.clone());

        let mut plans = Vec::new();
        for r in releases {
            let dir = out.join(&r.slug);
            let site = configs::site(&cfg, &r, &dir)?;
            write_json(&dir.join("wrangler.json"), &site)?;
            configs::write_worker(&project.site_worker_dir(), &dir)?;
            let files = configs::manifest(&r.dist())?;
            let mut tsv = String::from("path\tbytes\tsha256\n");
            for f in &files {
                tsv.push_str(&format!("{}\t{}\t{}\n", f.path, f.size, f.sha256));
            }
            std::fs::write(dir.join("assets.tsv"), tsv)?;
            let routes: Vec<configs::Route> = serde_json::from_value(site["routes"].clone())
                .map(|v: Vec<RouteIn>| v.into_iter().map(RouteIn::into_route).collect())
                .unwrap_or_default();
            let deployed = store.get_json::<Deployed>(&remote_state::deployed_key(&r.slug));
            let decision = decide(&r, &deployed, args.changed_only);
            let previous_kv = match &deployed {
                Remote::Found(d) => match release::by_id(&project.sites_dir, &r.slug, &d.release) {
                    Some(local) => release::kv_entries(&local.kv_file()).ok(),
                    None => match store.get(&remote_state::release_key(&r.slug, &d.release)) {
                        Remote::Found(t) => serde_json::from_str(t.trim()).ok(),
                        _ => None,
                    },
                },
                Remote::Absent => Some(Vec::new()),
                Remote::Unknown(_) => None,
            };
            let new_kv = release::kv_entries(&r.kv_file())?;
            // Only the keys whose value changed, when KV is known to hold
            // the deployed release's entries.
            let unfinished = matches!(&deployed, Remote::Found(d) if d.switching_to.is_some());
            let kv_put = match &previous_kv {
                Some(old) if !unfinished => remote_state::changed_entries(old, &new_kv),
                _ => new_kv.clone(),
            };
            let secrets = secrets::required(&r.edge);
            let over_limits =
                limits::AssetCount::of(files.iter().map(|f| (f.path.as_str(), f.size)))
                    .problems(cfg.sites.plan);
            plans.push(DealerPlan {
                worker: cfg.site_worker(&r.slug),
                release: r,
                dir,
                routes,
                files,
                deployed,
                decision,
                previous_kv,
                new_kv,
                kv_put,
                secrets,
                over_limits,
            });
        }
        let to_deploy: Vec<&DealerPlan> = plans.iter().filter(|p| p.decision.is_ok()).collect();

        // Secrets of the edge worker: names only.
        let mut needed: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, why) in secrets::platform(&cfg.edge) {
            needed
                .entry(name)
                .or_default()
                .push(format!("every dealer: {why}"));
        }
        for p in &to_deploy {
            for (name, why) in &p.secrets {
                needed
                    .entry(name.clone())
                    .or_default()
                    .push(format!("{}: {why}", p.release.slug));
            }
        }
        let secret_state: Result<BTreeSet<String>, String> = match &reach {
            Err(why) => Err(why.clone()),
            Ok(()) => {
                let o = wrangler.run(
                    &state_dir,
                    &[
                        "secret",
                        "list",
                        "--name",
                        &cfg.edge.name,
                        "--format",
                        "json",
                        "--config",
                        "wrangler.json",
                    ],
                    None,
                )?;
                if o.ok {
                    secrets::parse_list(&o.stdout)
                        .map(|v| v.into_iter().collect())
                        .map_err(|e| {
                            format!("wrangler secret list answered something unreadable ({e})")
                        })
                } else {
                    Err(format!("wrangler secret list failed:\n    {}", o.said()))
                }
            }
        };
        // D1 migrations not applied remotely.
        let mig_dir = configs::migrations_dir(&cfg, &project.root)?;
        // (--no-edge: the migrations go with the edge worker.)
        let local_migrations = configs::migration_files(&mig_dir)?;
        let pending: Result<Vec<String>, String> = match &reach {
            _ if !with_edge => Ok(Vec::new()),
            _ if edge_unbuilt.is_some() => Err("the edge worker's config needs its build".into()),
            Err(why) => Err(why.clone()),
            Ok(()) => {
                let o = wrangler.run(
                    &edge_dir,
                    &[
                        "d1",
                        "migrations",
                        "list",
                        "DB",
                        "--remote",
                        "--config",
                        "wrangler.json",
                    ],
                    None,
                )?;
                if o.ok {
                    // wrangler prints the unapplied ones in a table (or "No
                    // migrations to apply"): the local names it mentions.
                    Ok(local_migrations
                        .iter()
                        .filter(|m| o.stdout.contains(m.as_str()))
                        .cloned()
                        .collect())
                } else {
                    Err(format!(
                        "wrangler d1 migrations list failed:\n    {}",
                        o.said()
                    ))
                }
            }
        };
        let edge_state = match &edge_key {
            Some(_) => store.get_json::<EdgeDeployed>(remote_state::EDGE_KEY),
            None => Remote::Absent,
        };
        let edge_changed = match (&edge_key, &edge_state) {
            (None, _) => false,
            (Some(k), Remote::Found(e)) => e.key != *k,
            _ => true,
        };

        Ok(Plan {
            cfg,
            reach,
            wrangler,
            out,
            state_dir,
            edge_dir,
            with_edge,
            routes,
            edge_key,
            edge_unbuilt,
            edge_state,
            edge_changed,
            dealers: plans,
            not_built,
            needed,
            secret_state,
            pending,
            account_workers: hosts.len() + 1 + usize::from(cfg_preview),
        })
    }

    /// The store of deployment state (KV through wrangler).
    pub(super) fn store(&self) -> Store<'_> {
        state_store(
            &self.wrangler,
            &self.state_dir,
            &self.cfg,
            self.reach.clone(),
        )
    }

    /// The dealers this deployment uploads.
    pub(super) fn to_deploy(&self) -> Vec<&DealerPlan> {
        self.dealers.iter().filter(|p| p.decision.is_ok()).collect()
    }

    /// Dealers left as they are (unchanged, or not built here).
    pub(super) fn skipped(&self) -> usize {
        self.dealers.len() - self.to_deploy().len() + self.not_built.len()
    }

    /// The secrets needed and not set (none while that is unknown).
    pub(super) fn missing_secrets(&self) -> Vec<(&String, &Vec<String>)> {
        match &self.secret_state {
            Ok(set) => self
                .needed
                .iter()
                .filter(|(n, _)| !set.contains(*n))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Why nothing may go out: secrets missing, or a site over the plan's
    /// limits (Cloudflare would refuse it half-way through a deployment).
    pub(super) fn blocked(&self) -> Option<String> {
        let oversized: Vec<&str> = self
            .to_deploy()
            .iter()
            .filter(|p| !p.over_limits.is_empty())
            .map(|p| p.release.slug.as_str())
            .collect();
        let over = || {
            format!(
                "over the Workers {} plan's limits: {}",
                self.cfg.sites.plan.name(),
                oversized.join(", ")
            )
        };
        let mut why: Vec<String> = Vec::new();
        if !self.missing_secrets().is_empty() {
            why.push("secrets missing".into());
        }
        if !oversized.is_empty() {
            why.push(over());
        }
        if let Some(too_many) = self.too_many_workers() {
            why.push(too_many);
        }
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// The account's Worker limit, when the platform would pass it.
    pub(super) fn too_many_workers(&self) -> Option<String> {
        let plan = self.cfg.sites.plan;
        let max = plan.max_workers();
        (self.account_workers > max).then(|| {
            format!(
                "the account would hold {} Workers (one site worker per dealer, {} dealers, and the edge{}), over the Workers {} plan's {max}: deploy fewer dealers to this account (docs/scale.md § Workers per account)",
                self.account_workers,
                self.account_workers - 1 - usize::from(self.cfg.preview.is_some()),
                if self.cfg.preview.is_some() { " and the previews' edge" } else { "" },
                plan.name()
            )
        })
    }
}

#[derive(serde::Deserialize)]
struct RouteIn {
    pattern: String,
    zone_name: String,
}
impl RouteIn {
    fn into_route(self) -> configs::Route {
        configs::Route {
            pattern: self.pattern,
            zone_name: self.zone_name,
        }
    }
}
