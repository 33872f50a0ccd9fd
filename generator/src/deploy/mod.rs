//! `dealergen deploy` and `dealergen rollback`: publishing what `build`
//! produced to Cloudflare with wrangler, and going back one deployment.
//!
//! A deployment, in order, stopping before any upload when something is
//! wrong: read `config/deploy.toml`; find each dealer's release
//! (`sites/<slug>/current`); write the wrangler configs into
//! `sites/.deploy/`; read what is deployed (KV `deployed:<slug>`); check
//! the worker secrets the dealers need; apply pending D1 migrations; deploy
//! the edge worker if it changed; then per dealer: keep its KV entries
//! remotely (`release:<slug>:<id>`), put them, deploy its site worker, delete
//! the keys the release no longer has, record it. A dealer whose site upload
//! fails gets its previous KV entries back, so it is never half-deployed;
//! the other dealers go on.

pub mod config;
pub mod configs;
pub mod release;
pub mod secrets;
pub mod state;
pub mod wrangler;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use dealer_config::Loader;

use crate::asset_limits as limits;
use crate::cli::{DeployArgs, RollbackArgs};
use crate::project::Project;
use config::DeployConfig;
use release::{KvEntry, Release};
use state::{Deployed, EdgeDeployed, Remote, Store};
use wrangler::Wrangler;

/// Where the generated configs go: `<sites>/.deploy/` (never a dealer
/// slug: slugs cannot start with a dot).
pub fn out_dir(project: &Project) -> PathBuf {
    project.sites_dir.join(".deploy")
}

fn load_config(project: &Project, file: Option<&Path>) -> Result<DeployConfig> {
    let file = file
        .map(Path::to_path_buf)
        .unwrap_or_else(|| project.root.join(config::DEFAULT_FILE));
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = file
        .strip_prefix(&cwd)
        .or_else(|_| file.strip_prefix(&project.root))
        .unwrap_or(&file)
        .display()
        .to_string();
    DeployConfig::load(&file, &shown)
}

/// The Workers plan of config/deploy.toml, whose limits `build` warns
/// about; the free plan's when the file is missing or has problems
/// (`deploy` names those).
pub fn configured_plan(project: &Project) -> limits::Plan {
    load_config(project, None)
        .map(|c| c.sites.plan)
        .unwrap_or_default()
}

fn refuse_placeholders(cfg: &DeployConfig) -> Result<()> {
    if cfg.placeholders.is_empty() {
        return Ok(());
    }
    bail!(
        "{}\n(a dry run works with the placeholders; a deployment needs the real ids)",
        cfg.placeholders
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    )
}

/// Credentials come from the environment only. `Err` says why remote
/// state cannot be reached.
fn credentials(cfg: &DeployConfig) -> Result<(), String> {
    match std::env::var("CLOUDFLARE_API_TOKEN") {
        Ok(t) if !t.trim().is_empty() => {}
        _ => return Err("CLOUDFLARE_API_TOKEN is not set".into()),
    }
    if let Ok(a) = std::env::var("CLOUDFLARE_ACCOUNT_ID") {
        if !a.trim().is_empty() && !a.trim().eq_ignore_ascii_case(&cfg.account_id) {
            return Err(format!(
                "CLOUDFLARE_ACCOUNT_ID ({}) is not the account_id of {} ({}): refusing to touch another account",
                a.trim(),
                cfg.file.display(),
                cfg.account_id
            ));
        }
    }
    Ok(())
}

/// Host whose `/api/*` the edge answers, per dealer, from every dealer file
/// (the edge serves them all: its routes must not lose a dealer that is not
/// part of this deployment).
fn api_hosts(project: &Project) -> Result<BTreeMap<String, String>> {
    let loader = Loader::new(project.presets_dir());
    let mut hosts = BTreeMap::new();
    let mut bad = Vec::new();
    for file in project.dealer_files()? {
        match loader.load(&file) {
            Ok(d) => {
                let api = &d.config.edge.api_base;
                let origin = if api.is_empty() {
                    &d.config.site_url
                } else {
                    api
                };
                match configs::host_of(origin) {
                    Some(h) => {
                        hosts.insert(d.slug.clone(), h);
                    }
                    None => bad.push(format!("{}: `{origin}` has no host", file.display())),
                }
            }
            Err(r) => bad.push(format!(
                "{}: {} problem(s); run `dealergen check --dealer {}`",
                file.display(),
                r.diagnostics.len(),
                r.slug
            )),
        }
    }
    if !bad.is_empty() {
        bail!(
            "the edge worker's routes come from every dealer file, and these cannot be read:\n  {}",
            bad.join("\n  ")
        );
    }
    Ok(hosts)
}

fn write_json(path: &Path, v: &serde_json::Value) -> Result<()> {
    std::fs::create_dir_all(path.parent().expect("has a parent"))?;
    let mut text = serde_json::to_string_pretty(v)?;
    text.push('\n');
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// The small config the KV and rollback commands run with (it names the
/// account; they need no worker code).
fn write_state_config(cfg: &DeployConfig, out: &Path) -> Result<PathBuf> {
    let dir = out.join("state");
    write_json(
        &dir.join("wrangler.json"),
        &serde_json::json!({
            "name": cfg.edge.name,
            "account_id": cfg.account_id,
            "compatibility_date": cfg.sites.compatibility_date,
        }),
    )?;
    Ok(dir)
}

/// One dealer's part of a deployment.
struct DealerPlan {
    release: Release,
    /// Folder of its generated wrangler.json.
    dir: PathBuf,
    routes: Vec<configs::Route>,
    worker: String,
    files: Vec<configs::AssetFile>,
    deployed: Remote<Deployed>,
    /// Why it is deployed, or why not (None: skipped).
    decision: Result<String, String>,
    /// The KV entries of the deployed release, when known.
    previous_kv: Option<Vec<KvEntry>>,
    new_kv: Vec<KvEntry>,
    secrets: BTreeMap<String, String>,
    /// Why the site does not fit the Workers plan's limits (asset_limits.rs).
    over_limits: Vec<String>,
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

pub fn deploy(project: &Project, args: DeployArgs) -> Result<i32> {
    let cfg = load_config(project, args.config.as_deref())?;
    let reach = credentials(&cfg);
    if !args.dry_run {
        refuse_placeholders(&cfg)?;
        if let Err(why) = &reach {
            bail!("{why}: a deployment needs an API token in the environment (see docs/deploy.md); `--dry-run` works without one");
        }
    }
    let wrangler = Wrangler::locate(&project.root)?;
    let out = out_dir(project);
    let hosts = api_hosts(project)?;

    // Which dealers, and their releases.
    let with_edge = !args.no_edge;
    let all: Vec<String> = hosts.keys().cloned().collect();
    let mut slugs: Vec<String> = if args.selection.edge_only {
        Vec::new()
    } else if args.selection.dealer.is_empty() {
        all.clone()
    } else {
        for s in &args.selection.dealer {
            if !hosts.contains_key(s) {
                let hint = dealer_config::suggest::closest(s, all.iter().map(String::as_str))
                    .map(|x| format!(" (did you mean `{x}`?)"))
                    .unwrap_or_default();
                bail!("no dealer `{s}` in {}{hint}", project.dealers_dir.display());
            }
        }
        args.selection.dealer.clone()
    };
    if let Some((i, n)) = args.shard {
        slugs.retain(|s| crate::selection::shard_of(s, n) == i - 1);
    }
    let mut releases = Vec::new();
    let mut not_built = Vec::new();
    for slug in &slugs {
        match release::current(&project.sites_dir, slug) {
            Ok(r) => releases.push(r),
            // A CI runner builds only its changed dealers: the others have
            // nothing here to compare, and nothing to upload.
            Err(_) if args.selection.changed => not_built.push(slug.clone()),
            Err(e) => return Err(e),
        }
    }

    // The generated configs.
    let state_dir = write_state_config(&cfg, &out)?;
    let edge_dir = out.join("edge");
    let routes = configs::edge_routes(&cfg, &hosts)?;
    let platform_secrets: Vec<String> = secrets::platform().into_keys().collect();
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
    let store = Store {
        wrangler: &wrangler,
        dir: state_dir.clone(),
        namespace_id: cfg.kv_namespace_id.clone(),
        reachable: reach.clone(),
    };

    let mut plans = Vec::new();
    for r in releases {
        let dir = out.join(&r.slug);
        let site = configs::site(&cfg, &r, &dir)?;
        write_json(&dir.join("wrangler.json"), &site)?;
        let files = configs::manifest(&r.dist())?;
        let mut tsv = String::from("path\tbytes\tsha256\n");
        for f in &files {
            tsv.push_str(&format!("{}\t{}\t{}\n", f.path, f.size, f.sha256));
        }
        std::fs::write(dir.join("assets.tsv"), tsv)?;
        let routes: Vec<configs::Route> = serde_json::from_value(site["routes"].clone())
            .map(|v: Vec<RouteIn>| v.into_iter().map(RouteIn::into_route).collect())
            .unwrap_or_default();
        let deployed = store.get_json::<Deployed>(&state::deployed_key(&r.slug));
        let decision = decide(&r, &deployed, args.selection.changed);
        let previous_kv = match &deployed {
            Remote::Found(d) => match release::by_id(&project.sites_dir, &r.slug, &d.release) {
                Some(local) => release::kv_entries(&local.kv_file()).ok(),
                None => match store.get(&state::release_key(&r.slug, &d.release)) {
                    Remote::Found(t) => serde_json::from_str(t.trim()).ok(),
                    _ => None,
                },
            },
            Remote::Absent => Some(Vec::new()),
            Remote::Unknown(_) => None,
        };
        let new_kv = release::kv_entries(&r.kv_file())?;
        let secrets = secrets::required(&r.edge);
        let over_limits = limits::AssetCount::of(files.iter().map(|f| (f.path.as_str(), f.size)))
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
            secrets,
            over_limits,
        });
    }
    let to_deploy: Vec<&DealerPlan> = plans.iter().filter(|p| p.decision.is_ok()).collect();

    // Secrets of the edge worker: names only.
    let mut needed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, why) in secrets::platform() {
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
    let missing: Vec<(&String, &Vec<String>)> = match &secret_state {
        Ok(set) => needed.iter().filter(|(n, _)| !set.contains(*n)).collect(),
        Err(_) => Vec::new(),
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
        Some(_) => store.get_json::<EdgeDeployed>(state::EDGE_KEY),
        None => Remote::Absent,
    };
    let edge_changed = match (&edge_key, &edge_state) {
        (None, _) => false,
        (Some(k), Remote::Found(e)) => e.key != *k,
        _ => true,
    };

    // The plan.
    let shown_out = show(&out);
    println!(
        "{}deployment to account {} ({}):",
        if args.dry_run {
            "dry run, nothing is uploaded or changed: "
        } else {
            ""
        },
        cfg.account_id,
        show(&cfg.file)
    );
    println!("wrangler configs: {shown_out}/");
    if let Err(why) = &reach {
        println!("remote state: cannot be read ({why}): every dealer is treated as changed; pending migrations and missing secrets are not known");
    }
    match &pending {
        _ if !with_edge => println!(
            "D1 {} and edge worker {}: not part of this run (--no-edge)",
            cfg.d1_database_name, cfg.edge.name
        ),
        Ok(p) if p.is_empty() => println!("D1 {}: no migration pending", cfg.d1_database_name),
        Ok(p) => println!(
            "D1 {}: {} migration(s) to apply: {}",
            cfg.d1_database_name,
            p.len(),
            p.join(", ")
        ),
        Err(why) => println!(
            "D1 {}: pending migrations unknown ({why})",
            cfg.d1_database_name
        ),
    }
    match &secret_state {
        Ok(_) if missing.is_empty() => println!(
            "secrets of {}: all {} needed are set ({})",
            cfg.edge.name,
            needed.len(),
            needed.keys().cloned().collect::<Vec<_>>().join(", ")
        ),
        Ok(_) => {
            println!("secrets of {}: {} MISSING:", cfg.edge.name, missing.len());
            for (name, who) in &missing {
                println!("  {name}  (needed by {})", who.join("; "));
            }
            println!(
                "  set each with `wrangler secret put NAME --name {}`",
                cfg.edge.name
            );
        }
        Err(why) => println!(
            "secrets of {}: cannot check ({why}); needed: {}",
            cfg.edge.name,
            needed.keys().cloned().collect::<Vec<_>>().join(", ")
        ),
    }
    if let Some(why) = &edge_unbuilt {
        println!(
            "edge worker {}: {why}; a deployment would stop here",
            cfg.edge.name
        );
    } else if with_edge {
        println!(
            "edge worker {}: {} ({} route(s); config {shown_out}/edge/wrangler.json)",
            cfg.edge.name,
            match &edge_state {
                Remote::Found(_) if !edge_changed => "unchanged, not redeployed".to_string(),
                Remote::Found(_) => "changed, deploy".to_string(),
                Remote::Absent => "never deployed, deploy".to_string(),
                Remote::Unknown(_) => "deployed key unknown, deploy".to_string(),
            },
            routes.len()
        );
        for r in &routes {
            println!("  route {} (zone {})", r.pattern, r.zone_name);
        }
    }
    for p in &plans {
        print_dealer(p, project);
    }
    for s in &not_built {
        println!("dealer {s}: skip (no build in this checkout; only built dealers are compared)");
    }

    // A site over the plan's limits would be refused by Cloudflare half-way
    // through a deployment: nothing goes out.
    let oversized: Vec<&str> = to_deploy
        .iter()
        .filter(|p| !p.over_limits.is_empty())
        .map(|p| p.release.slug.as_str())
        .collect();
    let blocked = match (missing.is_empty(), oversized.is_empty()) {
        (true, true) => None,
        (false, true) => Some("secrets missing".to_string()),
        (true, false) => Some(format!(
            "over the Workers {} plan's limits: {}",
            cfg.sites.plan.name(),
            oversized.join(", ")
        )),
        (false, false) => Some(format!(
            "secrets missing; over the Workers {} plan's limits: {}",
            cfg.sites.plan.name(),
            oversized.join(", ")
        )),
    };
    if args.dry_run {
        println!(
            "dry run: {} dealer(s) would be deployed, {} skipped{}",
            to_deploy.len(),
            plans.len() - to_deploy.len() + not_built.len(),
            blocked
                .as_ref()
                .map(|why| format!("; a deployment would stop now: {why}"))
                .unwrap_or_default()
        );
        return Ok(if blocked.is_some() || edge_unbuilt.is_some() {
            1
        } else {
            0
        });
    }
    if let Some(why) = &blocked {
        println!("FAILED: {why}; nothing was uploaded");
        return Ok(1);
    }
    if let Err(why) = &secret_state {
        println!("FAILED: cannot check the secrets ({why}); nothing was uploaded");
        return Ok(1);
    }
    let unknown: Vec<&str> = to_deploy
        .iter()
        .filter(|p| matches!(p.deployed, Remote::Unknown(_)))
        .map(|p| p.release.slug.as_str())
        .collect();
    if !unknown.is_empty() || matches!(edge_state, Remote::Unknown(_)) {
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
    let pending = match pending {
        Ok(p) => p,
        Err(why) => {
            println!("FAILED: {why}; nothing was uploaded");
            return Ok(1);
        }
    };
    if !pending.is_empty() {
        let o = wrangler.run(
            &edge_dir,
            &[
                "d1",
                "migrations",
                "apply",
                "DB",
                "--remote",
                "--config",
                "wrangler.json",
            ],
            None,
        )?;
        if !o.ok {
            println!("FAILED D1 migrations: {}\nno dealer was deployed", o.said());
            return Ok(1);
        }
        println!("applied {} D1 migration(s)", pending.len());
    }
    if edge_changed {
        let message = format!("dealergen {} deploy", env!("CARGO_PKG_VERSION"));
        let o = wrangler.run(
            &edge_dir,
            &["deploy", "--config", "wrangler.json", "--message", &message],
            None,
        )?;
        if !o.ok {
            println!(
                "FAILED edge worker {}: {}\nno dealer was deployed",
                cfg.edge.name,
                o.said()
            );
            return Ok(1);
        }
        let rec = EdgeDeployed {
            key: edge_key.clone().unwrap_or_default(),
            version: o.version_id(),
            deployed_at: now(),
        };
        store.put_json(state::EDGE_KEY, &rec)?;
        println!(
            "deployed edge worker {} (version {})",
            cfg.edge.name,
            rec.version.as_deref().unwrap_or("?")
        );
    }

    let (mut ok, mut failed) = (0, 0);
    for p in &to_deploy {
        match deploy_dealer(&wrangler, &store, p) {
            Ok(rec) => {
                ok += 1;
                println!(
                    "deployed {}: release {} (site version {})",
                    p.release.slug,
                    rec.release,
                    rec.version.as_deref().unwrap_or("?")
                );
            }
            Err(e) => {
                failed += 1;
                println!("FAILED {}: {e:#}", p.release.slug);
            }
        }
    }
    println!(
        "{ok} dealer(s) deployed, {failed} failed, {} skipped",
        plans.len() - to_deploy.len() + not_built.len()
    );
    Ok(if failed > 0 { 1 } else { 0 })
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

fn show(p: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    p.strip_prefix(&cwd).unwrap_or(p).display().to_string()
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
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
    match &p.previous_kv {
        Some(old) => {
            let (added, changed, removed, same) = state::kv_change(old, &p.new_kv);
            println!(
                "  KV: {} keys put ({by_prefix}): {added} new, {changed} changed, {same} unchanged; {removed} deleted",
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
        .new_kv
        .iter()
        .filter(|e| e.key.starts_with("dealer:") || e.key.starts_with("origin:"))
    {
        println!("    put {}", e.key);
    }
    if let Some(old) = &p.previous_kv {
        let gone = state::stale_keys(old, &p.new_kv);
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
        .put_file(&state::release_key(&r.slug, &r.id), &r.kv_file())
        .context("nothing was changed")?;
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
        let del = store.bulk_delete(&state::stale_keys(&p.new_kv, old));
        match (put, del) {
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
    // 2. The edge config.
    if let Err(e) = store.bulk_put(&r.kv_file()) {
        bail!("{}", restore(&format!("edge config (KV) not put: {e:#}")));
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
        if let Err(e) = store.bulk_delete(&state::stale_keys(old, &p.new_kv)) {
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
    };
    store
        .put_json(&state::deployed_key(&r.slug), &rec)
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
        .map(|id| state::release_key(&r.slug, &id))
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

pub fn rollback(project: &Project, args: RollbackArgs) -> Result<i32> {
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
    let store = Store {
        wrangler: &wrangler,
        dir: state_dir.clone(),
        namespace_id: cfg.kv_namespace_id.clone(),
        reachable: Ok(()),
    };
    let slug = &args.dealer;
    let worker = cfg.site_worker(slug);
    let current = match store.get_json::<Deployed>(&state::deployed_key(slug)) {
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
        match store.get(&state::release_key(slug, release)) {
            Remote::Found(t) => serde_json::from_str(t.trim())
                .with_context(|| format!("{} is unreadable", state::release_key(slug, release))),
            Remote::Absent => bail!(
                "the KV entries of release {release} are not kept ({} is missing)",
                state::release_key(slug, release)
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
    let (added, changed, removed, same) = state::kv_change(&cur_kv, &old_kv);
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
    let stale = state::stale_keys(&cur_kv, &old_kv);
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
            .and_then(|_| store.bulk_delete(&state::stale_keys(&old_kv, &cur_kv)));
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
    };
    store.put_json(&state::deployed_key(slug), &rec)?;
    println!("rolled back {slug} to release {}", prev.release);
    Ok(0)
}
