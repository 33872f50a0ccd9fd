//! The wrangler configurations a deployment uses, generated into
//! `sites/.deploy/` (wrangler.json, one per worker) so a dry run shows them
//! and `wrangler deploy --dry-run` can check them.
//!
//! Static sites are Workers with static assets, one per dealer, rather than
//! Pages projects: wrangler can check them offline (`deploy --dry-run`),
//! every upload is a worker version that `wrangler rollback` returns to,
//! routes sit on the same zones as the edge worker's (the more specific
//! `host/api/*` goes to the edge, `host/*` to the site), and the
//! `_headers` / `_redirects` files the build writes apply as on Pages.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

use super::config::{DeployConfig, PreviewTarget};
use crate::run::release::Release;

/// The host of an origin (`https://www.x.com.au` → `www.x.com.au`).
pub fn host_of(origin: &str) -> Option<String> {
    url::Url::parse(origin)
        .ok()?
        .host_str()
        .map(|h| h.to_ascii_lowercase())
}

/// One route of a worker.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Route {
    pub pattern: String,
    pub zone_name: String,
}

/// The site worker of one dealer: its static assets on its site host.
pub fn site(cfg: &DeployConfig, release: &Release, out_dir: &Path) -> Result<serde_json::Value> {
    let origin = &release.edge.origins[0];
    let host = host_of(origin)
        .with_context(|| format!("dealer `{}`: site_url `{origin}` has no host", release.slug))?;
    let zone = cfg.zone_of(&host).with_context(|| {
        format!(
            "dealer `{}`: host {host} is in none of the zones of {} (zones = {:?}); add its domain there",
            release.slug,
            cfg.file.display(),
            cfg.zones
        )
    })?;
    let mut config = worker(cfg, release, out_dir)?;
    config.extend([
        ("workers_dev".into(), serde_json::json!(false)),
        ("preview_urls".into(), serde_json::json!(false)),
        (
            "routes".into(),
            serde_json::json!([Route {
                pattern: format!("{host}/*"),
                zone_name: zone.to_string()
            }]),
        ),
    ]);
    Ok(config.into())
}

/// What a dealer's site worker is wherever it runs, in production or as a
/// preview: its name, account, compatibility date, script and assets.
fn worker(
    cfg: &DeployConfig,
    release: &Release,
    out_dir: &Path,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let serde_json::Value::Object(map) = serde_json::json!({
        "name": cfg.site_worker(&release.slug),
        "account_id": cfg.account_id,
        "compatibility_date": cfg.sites.compatibility_date,
        "main": WORKER,
        "assets": assets(relative(out_dir, &release.dist())?, run_worker_first(&release.dist())),
    }) else {
        unreachable!("a JSON object literal")
    };
    Ok(map)
}

/// The site worker of one dealer as a Worker Preview (`wrangler preview`,
/// `dealergen deploy --preview`): the same worker and assets as in
/// production, without the routes or the workers.dev switches, which are
/// production's and which a preview must not touch. Production's zone
/// route sends `host/api/*` to the edge; a preview has no route, so its
/// script runs first for `/api/*` too and hands those calls to the
/// previews' edge worker (`edge_preview`) through the `EDGE` service
/// binding, a Preview setting (the `previews` block).
pub fn site_preview(
    cfg: &DeployConfig,
    release: &Release,
    out_dir: &Path,
    edge_worker: &str,
) -> Result<serde_json::Value> {
    let mut config = worker(cfg, release, out_dir)?;
    let assets = config["assets"]
        .as_object_mut()
        .expect("assets() is an object");
    // The production worker's list (worker() read the release's query
    // table already), and /api/* too.
    let first = assets
        .get_mut("run_worker_first")
        .and_then(|v| v.as_array_mut())
        .expect("assets() lists run_worker_first");
    first.push(API_PATHS.into());
    config.insert(
        "previews".into(),
        serde_json::json!({ "services": [{ "binding": "EDGE", "service": edge_worker }] }),
    );
    Ok(config.into())
}

/// The edge's paths, which a preview's site worker forwards to the
/// previews' edge worker.
pub const API_PATHS: &str = "/api/*";

/// The paths the site worker's script answers before the assets: the older
/// platform's addresses whose meaning is in the query string. Not /models/,
/// a page of the site: its visits stay the assets' alone (a script run is
/// a billed Worker request; an assets answer is not).
pub const LEGACY_PATHS: [&str; 5] = [
    "/print",
    "/print/",
    "/checkout-journey",
    "/checkout-journey/",
    "/models",
];

/// The paths a built site's worker script runs first for: the older
/// platform's (LEGACY_PATHS), then those of the dealer's own query-string
/// redirects (`/query-redirects.json` in `dist`, written by the publish
/// step). `dealergen migrate-check` resolves with the same list
/// ([`worker_first_for`]).
pub fn run_worker_first(dist: &Path) -> Vec<String> {
    worker_first_for(&crate::publish::redirects::read_query_table(dist))
}

/// LEGACY_PATHS, then the paths of `rules` not among them.
pub fn worker_first_for(rules: &[dealer_config::redirect_rules::QueryRule]) -> Vec<String> {
    let mut paths: Vec<String> = LEGACY_PATHS.iter().map(|p| p.to_string()).collect();
    for p in crate::publish::redirects::query_paths(rules) {
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    paths
}

/// The site worker's script beside its config (`write_worker`).
pub const WORKER: &str = "worker.mjs";

/// Writes the site worker's script (templates/site-worker/worker.mjs) into
/// a config's folder: the static assets answer every path but the older
/// platform's query-string addresses, which the script redirects.
pub fn write_worker(project_worker_dir: &Path, out_dir: &Path) -> Result<()> {
    let from = project_worker_dir.join(WORKER);
    std::fs::create_dir_all(out_dir)?;
    std::fs::copy(&from, out_dir.join(WORKER))
        .with_context(|| format!("cannot copy the site worker {}", from.display()))?;
    Ok(())
}

/// How a site worker serves its static assets from `directory`. The e2e
/// suites serve built sites in workerd with the same settings
/// (`rules/vectors/site-worker.json`, pinned by the test below).
pub fn assets(directory: String, run_worker_first: Vec<String>) -> serde_json::Value {
    serde_json::json!({
        "directory": directory,
        // Astro writes /cars/x/index.html; the site links to /cars/x/.
        "html_handling": "auto-trailing-slash",
        "not_found_handling": "404-page",
        // The script (WORKER) reads the assets through this binding and runs
        // only for the query-string addresses (the older platform's, the dealer's).
        "binding": "ASSETS",
        "run_worker_first": run_worker_first,
    })
}

/// Hosts whose `/api/*` the edge worker answers, by dealer: the site's own
/// host, or the host of `edge.api_base` when the dealer's API is elsewhere.
pub fn edge_routes(cfg: &DeployConfig, api_hosts: &BTreeMap<String, String>) -> Result<Vec<Route>> {
    let mut routes = Vec::new();
    let mut problems = Vec::new();
    for (slug, host) in api_hosts {
        match cfg.zone_of(host) {
            Some(zone) => routes.push(Route {
                pattern: format!("{host}/api/*"),
                zone_name: zone.to_string(),
            }),
            None => problems.push(format!(
                "dealer `{slug}`: host {host} is in none of the zones of {}; add its domain to `zones`",
                cfg.file.display()
            )),
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    routes.sort();
    routes.dedup();
    Ok(routes)
}

/// The edge worker's config: the checkout's wrangler.toml (bindings,
/// queues, crons, Durable Objects: declared once, used by `wrangler dev`
/// too) with the real ids, the routes and the secrets it requires.
pub fn edge(
    cfg: &DeployConfig,
    root: &Path,
    routes: &[Route],
    required_secrets: &[String],
    out_dir: &Path,
) -> Result<serde_json::Value> {
    let production = Resources {
        name: &cfg.edge.name,
        kv_namespace_id: &cfg.kv_namespace_id,
        d1_database_name: &cfg.d1_database_name,
        d1_database_id: &cfg.d1_database_id,
    };
    let mut v = edge_worker(cfg, &production, root, out_dir)?;
    let o = v.as_object_mut().expect("a TOML table is an object");
    o.insert("routes".into(), serde_json::to_value(routes)?);
    if let Some(key) = &cfg.edge.step_up_site_key {
        // The step-up widget's site key is public: a variable, not a secret.
        o.entry("vars")
            .or_insert_with(|| serde_json::json!({}))
            .as_object_mut()
            .context("the edge's `vars` is not a table")?
            .insert(
                dealer_rules::edge_config::STEP_UP_SITE_KEY_VAR.into(),
                key.as_str().into(),
            );
    }
    // How long the edge keeps what it stores (dealer_rules::retention).
    o.entry("vars")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .context("the edge's `vars` is not a table")?
        .insert(
            dealer_rules::retention::VAR.into(),
            cfg.edge.retention_days.to_string().into(),
        );
    // Wrangler refuses to deploy a version without these (belt and braces:
    // `dealergen deploy` checks them first and names the missing ones).
    o.insert(
        "secrets".into(),
        serde_json::json!({ "required": required_secrets }),
    );
    Ok(v)
}

/// The edge worker behind the previews (`deploy --preview`): production's
/// worker and bindings with the preview's own name, KV namespace, D1
/// database and lead queue, no route (the previews' site workers reach it
/// through a service binding, nothing else can), and sign-in codes logged,
/// never texted (`SMS_PROVIDER = "log"`). Its dealers' configs have no lead
/// webhook or e-mail (`preview_kv`), and it has no mail relay: a lead sent
/// from a preview stays in the preview's D1.
pub fn edge_preview(
    cfg: &DeployConfig,
    preview: &PreviewTarget,
    root: &Path,
    out_dir: &Path,
) -> Result<serde_json::Value> {
    let resources = Resources {
        name: &preview.edge_name,
        kv_namespace_id: &preview.kv_namespace_id,
        d1_database_name: &preview.d1_database_name,
        d1_database_id: &preview.d1_database_id,
    };
    let mut v = edge_worker(cfg, &resources, root, out_dir)?;
    let o = v.as_object_mut().expect("a TOML table is an object");
    if let Some(queues) = o.get_mut("queues").and_then(|q| q.as_object_mut()) {
        for side in ["producers", "consumers"] {
            for q in queues
                .get_mut(side)
                .and_then(|l| l.as_array_mut())
                .into_iter()
                .flatten()
            {
                if let Some(name) = q["queue"].as_str() {
                    q["queue"] = format!("{name}-preview").into();
                }
            }
        }
    }
    o.insert("routes".into(), serde_json::json!([]));
    let vars = o
        .entry("vars")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .context("the edge's `vars` is not a table")?;
    vars.insert("SMS_PROVIDER".into(), "log".into());
    Ok(v)
}

/// What an edge worker is deployed with: its name and its data.
struct Resources<'a> {
    name: &'a str,
    kv_namespace_id: &'a str,
    d1_database_name: &'a str,
    d1_database_id: &'a str,
}

/// The checkout's wrangler.toml with `resources` in place of its
/// placeholders, never on workers.dev.
fn edge_worker(
    cfg: &DeployConfig,
    resources: &Resources,
    root: &Path,
    out_dir: &Path,
) -> Result<serde_json::Value> {
    let file = root.join(&cfg.edge.wrangler_toml);
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read the edge's {}", file.display()))?;
    let base_dir = file.parent().unwrap_or(root);
    let table: toml::Table =
        toml::from_str(&text).with_context(|| format!("{} is not valid TOML", file.display()))?;
    let mut v = serde_json::to_value(&table)?;
    let o = v.as_object_mut().expect("a TOML table is an object");
    o.insert("name".into(), resources.name.into());
    o.insert("account_id".into(), cfg.account_id.clone().into());
    o.insert("workers_dev".into(), false.into());
    o.insert("preview_urls".into(), false.into());
    let main = o
        .get("main")
        .and_then(|m| m.as_str())
        .with_context(|| format!("{}: no `main` (the built worker)", file.display()))?;
    let main = base_dir.join(main);
    if !main.is_file() {
        bail!(
            "the edge worker is not built ({} does not exist): run `bash scripts/edge/build.sh`",
            main.display()
        );
    }
    o.insert("main".into(), relative(out_dir, &main)?.into());
    let Some(dbs) = o.get_mut("d1_databases").and_then(|d| d.as_array_mut()) else {
        bail!("{}: no [[d1_databases]]", file.display());
    };
    let db = dbs
        .iter_mut()
        .find(|d| d["binding"] == "DB")
        .with_context(|| format!("{}: no D1 database bound as DB", file.display()))?;
    db["database_name"] = resources.d1_database_name.into();
    db["database_id"] = resources.d1_database_id.into();
    if let Some(m) = db.get("migrations_dir").and_then(|m| m.as_str()) {
        let dir = base_dir.join(m);
        db["migrations_dir"] = relative(out_dir, &dir)?.into();
    }
    let Some(kvs) = o.get_mut("kv_namespaces").and_then(|d| d.as_array_mut()) else {
        bail!("{}: no [[kv_namespaces]]", file.display());
    };
    let kv = kvs
        .iter_mut()
        .find(|d| d["binding"] == "CONFIG")
        .with_context(|| format!("{}: no KV namespace bound as CONFIG", file.display()))?;
    kv["id"] = resources.kv_namespace_id.into();
    Ok(v)
}

/// The migrations folder of the edge config (absolute).
pub fn migrations_dir(cfg: &DeployConfig, root: &Path) -> Result<PathBuf> {
    let file = root.join(&cfg.edge.wrangler_toml);
    let table: toml::Table = toml::from_str(&std::fs::read_to_string(&file)?)?;
    let dir = table
        .get("d1_databases")
        .and_then(|d| d.as_array())
        .and_then(|a| {
            a.iter()
                .find(|d| d.get("binding").and_then(|b| b.as_str()) == Some("DB"))
        })
        .and_then(|d| d.get("migrations_dir"))
        .and_then(|m| m.as_str())
        .unwrap_or("migrations");
    Ok(file.parent().unwrap_or(root).join(dir))
}

/// The migration files, in the order wrangler applies them.
pub fn migration_files(dir: &Path) -> Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().map(String::from))
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    Ok(names)
}

/// What a hash covers of the edge: the config it is deployed with and
/// every file of the built worker, so an unchanged edge is not redeployed.
pub fn edge_key(config_json: &str, main: &Path) -> Result<String> {
    let mut h = Sha256::new();
    h.update(config_json.as_bytes());
    // worker-build writes build/{index.js,index_bg.wasm,worker/shim.mjs}.
    let build = match main.parent() {
        Some(p) if p.file_name().is_some_and(|n| n == "worker") => p.parent().unwrap_or(p),
        Some(p) => p,
        None => Path::new("."),
    };
    for f in manifest(build)? {
        h.update(f.path.as_bytes());
        h.update(f.sha256.as_bytes());
    }
    Ok(hex(&h.finalize()))
}

/// One file of a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetFile {
    /// Relative, with `/`.
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// Every file under `dir`, sorted by path.
pub fn manifest(dir: &Path) -> Result<Vec<AssetFile>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let bytes = std::fs::read(entry.path())
            .with_context(|| format!("cannot read {}", entry.path().display()))?;
        let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        files.push(AssetFile {
            path: rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            size: bytes.len() as u64,
            sha256: hex(&Sha256::digest(&bytes)),
        });
    }
    Ok(files)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `to` relative to the folder `from` (both made absolute), with `/`.
pub fn relative(from: &Path, to: &Path) -> Result<String> {
    let from = absolute(from)?;
    let to = absolute(to)?;
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".into(); f.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    })
}

/// Absolute with links resolved as far as the path exists.
fn absolute(p: &Path) -> Result<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Ok(c);
    }
    let abs = std::path::absolute(p)?;
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) if parent != abs => Ok(absolute(parent)?.join(name)),
        _ => Ok(abs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("sites/.deploy/x");
        let b = d.path().join("sites/x/releases/r/dist");
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        assert_eq!(relative(&a, &b).unwrap(), "../../x/releases/r/dist");
        assert_eq!(relative(&a, &a).unwrap(), ".");
    }

    /// The e2e suites serve sites in workerd as deployment configures them:
    /// rules/vectors/site-worker.json holds the settings both read.
    #[test]
    fn site_worker_settings_match_the_shared_file() {
        let text = include_str!("../../../rules/vectors/site-worker.json");
        let shared: serde_json::Value = serde_json::from_str(text).unwrap();
        let mut ours = assets("dist".into(), run_worker_first(Path::new("no-such-dist")));
        ours.as_object_mut().unwrap().remove("directory");
        assert_eq!(ours, shared["assets"]);
        // The same script: the one beside a deployed config is this file.
        assert_eq!(
            shared["main"].as_str(),
            Some(format!("templates/site-worker/{WORKER}").as_str())
        );
        assert_eq!(
            shared["compatibility_date"].as_str(),
            Some(super::super::config::DEFAULT_COMPAT)
        );
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("https://WWW.X.com.au/").as_deref(),
            Some("www.x.com.au")
        );
        assert_eq!(host_of("nope"), None);
    }
}
