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
//!
//! `--preview <name>` instead uploads the built sites as Worker Previews
//! for a pull request, touching nothing of production (`preview`).

mod apply;
pub mod config;
pub mod configs;
mod plan;
mod preview;
mod preview_kv;
pub mod remote_state;
mod report;
mod rollback;
pub mod secrets;
pub mod status;
pub mod wrangler;

pub use preview::{preview, PreviewOptions};
pub use rollback::rollback;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use dealer_config::Loader;

use crate::checks::asset_limits as limits;
use crate::project::Project;
use config::DeployConfig;

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

/// The dealers a deploy or preview acts on: `dealers` (each one of `all`,
/// else an error naming the closest), or every one of `all` when none is
/// named; then those of shard `(i, n)`.
fn chosen(
    project: &Project,
    all: Vec<String>,
    dealers: &[String],
    shard: Option<(usize, usize)>,
) -> Result<Vec<String>> {
    for s in dealers {
        if !all.contains(s) {
            let hint = dealer_config::suggest::closest(s, all.iter().map(String::as_str))
                .map(|x| format!(" (did you mean `{x}`?)"))
                .unwrap_or_default();
            bail!("no dealer `{s}` in {}{hint}", project.dealers_dir.display());
        }
    }
    let mut slugs = if dealers.is_empty() {
        all
    } else {
        dealers.to_vec()
    };
    if let Some((i, n)) = shard {
        let plan = crate::selection::ShardPlan::new(project, n)?;
        slugs.retain(|s| plan.holds(i, s));
    }
    Ok(slugs)
}

fn write_json(path: &Path, v: &serde_json::Value) -> Result<()> {
    std::fs::create_dir_all(path.parent().expect("has a parent"))?;
    let mut text = serde_json::to_string_pretty(v)?;
    text.push('\n');
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// What is deployed, kept in the account's KV (`state_dir` holds the
/// config naming the account); `reachable` says why it cannot be read.
fn state_store<'a>(
    wrangler: &'a wrangler::Wrangler,
    state_dir: &Path,
    cfg: &DeployConfig,
    reachable: Result<(), String>,
) -> remote_state::Store<'a> {
    remote_state::Store {
        wrangler,
        dir: state_dir.to_path_buf(),
        namespace_id: cfg.kv_namespace_id.clone(),
        reachable,
    }
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

/// What `dealergen deploy` deploys and how (its command line, read).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The dealers by slug; empty: every dealer.
    pub dealers: Vec<String>,
    /// Only dealers whose release differs from the deployed one; dealers
    /// without a build in this checkout are skipped, not an error.
    pub changed_only: bool,
    /// The edge worker (and D1 migrations) alone, no dealer.
    pub edge_only: bool,
    /// Shard `(i, n)`: the dealers whose slug falls in shard i of n.
    pub shard: Option<(usize, usize)>,
    /// Print the plan; upload and change nothing.
    pub dry_run: bool,
    /// Leave the edge worker and the migrations out (a CI shard's sites).
    pub no_edge: bool,
    /// The deployment config instead of `config/deploy.toml`.
    pub config: Option<PathBuf>,
}

/// What `dealergen rollback` returns to (its command line, read).
#[derive(Debug, Clone)]
pub struct RollbackOptions {
    /// The dealer whose previous deployment comes back.
    pub dealer: String,
    /// Print what would be done; change nothing.
    pub dry_run: bool,
    /// The deployment config instead of `config/deploy.toml`.
    pub config: Option<PathBuf>,
}

/// `dealergen deploy`: the plan (read, nothing changed), printed; then,
/// unless `--dry-run` or something blocks it, carried out.
pub fn deploy(project: &Project, args: Options) -> Result<i32> {
    let cfg = load_config(project, args.config.as_deref())?;
    if !args.dry_run {
        refuse_placeholders(&cfg)?;
        if let Err(why) = credentials(&cfg) {
            bail!("{why}: a deployment needs an API token in the environment (see docs/deploy.md); `--dry-run` works without one");
        }
    }
    let plan = plan::Plan::make(project, &args, cfg)?;
    report::print(&plan, project, args.dry_run);
    if args.dry_run {
        let blocked = plan.blocked();
        println!(
            "dry run: {} dealer(s) would be deployed, {} skipped{}",
            plan.to_deploy().len(),
            plan.skipped(),
            blocked
                .as_ref()
                .map(|why| format!("; a deployment would stop now: {why}"))
                .unwrap_or_default()
        );
        return Ok(if blocked.is_some() || plan.edge_unbuilt.is_some() {
            1
        } else {
            0
        });
    }
    apply::run(&plan)
}

fn show(p: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    p.strip_prefix(&cwd).unwrap_or(p).display().to_string()
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
