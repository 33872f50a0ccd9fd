//! `dealergen deploy --preview <name>`: a pull request's built sites as
//! Worker Previews (`wrangler preview --name <name>`), one per changed
//! dealer, under the dealer's own site worker, and `--remove` to delete
//! them when the pull request closes (`wrangler preview delete`).
//!
//! A preview touches nothing of production: no version is deployed, no
//! route or KV key is written (its config has neither routes nor the
//! workers.dev switches, `configs::site_preview`). Its `/api/*` goes to the
//! previews' edge worker (`[preview]` of the deploy config,
//! `configs::edge_preview`): production's edge code with a KV namespace
//! and D1 database of its own, where each preview's dealer has an id of its
//! own and no lead delivery (`preview_kv`), so its forms, sign-in and phone
//! reveal work and no lead reaches the dealer (docs/pull-requests.md).
//! The URLs go to `sites/.deploy/preview/<name>/previews.json` for the
//! pull request's comment.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::config::{DeployConfig, PreviewTarget};
use super::remote_state::{Remote, Store};
use super::wrangler::{Outcome, Wrangler};
use super::{configs, load_config, out_dir, preview_kv, write_json, write_state_config};
use crate::project::Project;
use crate::run::release;
use crate::run::release::Release;

/// What `dealergen deploy --preview` does (its command line, read).
#[derive(Debug, Clone)]
pub struct PreviewOptions {
    /// The preview's name, e.g. `pr-123`.
    pub name: String,
    /// The dealers by slug; empty: every dealer with a build here.
    pub dealers: Vec<String>,
    /// Shard `(i, n)`: the dealers whose slug falls in shard i of n.
    pub shard: Option<(usize, usize)>,
    /// Delete the previews of that name instead of making them.
    pub remove: bool,
    /// Write the configs and print what would run; call nothing.
    pub dry_run: bool,
    /// The deployment config instead of `config/deploy.toml`.
    pub config: Option<std::path::PathBuf>,
}

/// A preview name wrangler takes and a workers.dev host can carry: lowercase
/// letters, digits and dashes, starting with a letter, at most 40 characters
/// (it prefixes the worker's name in the URL).
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && !name.ends_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok {
        bail!("`{name}` is not a preview name: use lowercase letters, digits and dashes, starting with a letter, at most 40 characters (e.g. pr-123)");
    }
    Ok(())
}

/// `dealergen deploy --preview <name> [--remove]`.
pub fn preview(project: &Project, opts: PreviewOptions) -> Result<i32> {
    check_name(&opts.name)?;
    let cfg = load_config(project, opts.config.as_deref())?;
    let Some(target) = cfg.preview.clone() else {
        bail!(
            "{}: no [preview] table: a preview's API needs an edge worker with a KV namespace and D1 database of its own (docs/deploy.md, \"Previews for pull requests\")",
            cfg.file.display()
        );
    };
    if !opts.dry_run {
        super::refuse_placeholders(&cfg)?;
        if let Err(why) = super::credentials(&cfg) {
            bail!("{why}: a preview needs an API token in the environment (see docs/deploy.md); `--dry-run` works without one");
        }
    }
    let all: Vec<String> = project
        .dealer_files()
        .with_context(|| format!("cannot read {}", project.dealers_dir.display()))?
        .iter()
        .map(|f| crate::selection::slug_of(f))
        .collect();
    let slugs = super::chosen(project, all, &opts.dealers, opts.shard)?;
    let out = out_dir(project).join("preview").join(&opts.name);
    let wrangler = Wrangler::locate(&project.root)?;
    let run = Run {
        wrangler: &wrangler,
        cfg: &cfg,
        target: &target,
        out: &out,
        // The account is named by a small config (written once); workers by name.
        state_dir: write_state_config(&cfg, &out)?,
        opts: &opts,
    };
    if opts.remove {
        run.remove(&slugs)
    } else {
        let built: Vec<Release> = slugs
            .iter()
            .filter_map(|slug| match release::current(&project.sites_dir, slug) {
                Ok(rel) => Some(rel),
                // Only the dealers built here: a CI shard builds its changed dealers.
                Err(_) => {
                    if !opts.dealers.is_empty() {
                        println!("preview {slug}: skipped, not built here");
                    }
                    None
                }
            })
            .collect();
        run.make(project, &built)
    }
}

/// One `deploy --preview` run.
struct Run<'a> {
    wrangler: &'a Wrangler,
    cfg: &'a DeployConfig,
    target: &'a PreviewTarget,
    out: &'a Path,
    /// The folder of the config naming the account (`write_state_config`).
    state_dir: std::path::PathBuf,
    opts: &'a PreviewOptions,
}

impl Run<'_> {
    /// The previews' KV namespace, through wrangler.
    fn store(&self) -> Store<'_> {
        Store {
            wrangler: self.wrangler,
            dir: self.state_dir.clone(),
            namespace_id: self.target.kv_namespace_id.clone(),
            reachable: Ok(()),
        }
    }

    fn make(&self, project: &Project, built: &[Release]) -> Result<i32> {
        let opts = self.opts;
        let mut urls = BTreeMap::new();
        if !built.is_empty() && !self.edge_up(project)? {
            return Ok(1);
        }
        let mut failed = 0;
        for rel in built {
            let slug = &rel.slug;
            let dir = self.out.join(slug);
            let config = configs::site_preview(self.cfg, rel, &dir, &self.target.edge_name)?;
            write_json(&dir.join("wrangler.json"), &config)?;
            configs::write_worker(&project.site_worker_dir(), &dir)?;
            let worker = self.cfg.site_worker(slug);
            let id = preview_kv::dealer_id(slug, &opts.name);
            if opts.dry_run {
                println!(
                    "preview {slug}: would run `wrangler preview --name {}` for worker {worker} with release {} ({}), then put its API's dealer {id} in KV namespace {}",
                    opts.name,
                    rel.id,
                    super::show(&dir.join("wrangler.json")),
                    self.target.kv_namespace_id
                );
                continue;
            }
            let message = format!("dealergen {slug} {}", rel.id);
            let outcome = self.wrangler.run(
                &dir,
                &[
                    "preview",
                    "--config",
                    "wrangler.json",
                    "--name",
                    &opts.name,
                    "--message",
                    &message,
                    "--json",
                ],
                None,
            )?;
            let done = preview_url(&outcome).and_then(|url| {
                self.put_api(rel, &id, &url)
                    .with_context(|| format!("the preview's API (dealer {id}) was not set up"))?;
                Ok(url)
            });
            match done {
                Ok(url) => {
                    println!("preview {slug}: {url} (its API: dealer {id}, leads kept in the previews' D1)");
                    urls.insert(slug.clone(), url);
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("preview {slug}: {e:#}");
                }
            }
        }
        if !opts.dry_run {
            write_json(
                &self.out.join("previews.json"),
                &serde_json::json!({ "name": opts.name, "dealers": urls }),
            )?;
        }
        Ok(if failed > 0 { 1 } else { 0 })
    }

    /// The previews' edge worker, up to date: its D1 migrations, the worker
    /// built here, and a session secret of its own. False (said why) when a
    /// step failed: a preview without its API is not made.
    fn edge_up(&self, project: &Project) -> Result<bool> {
        let dir = self.out.join("@edge");
        let config = configs::edge_preview(self.cfg, self.target, &project.root, &dir)?;
        write_json(&dir.join("wrangler.json"), &config)?;
        let name = &self.target.edge_name;
        if self.opts.dry_run {
            println!(
                "previews' edge worker {name}: would apply the D1 migrations to {}, deploy it and set its SESSION_SECRET if missing ({})",
                self.target.d1_database_name,
                super::show(&dir.join("wrangler.json"))
            );
            return Ok(true);
        }
        let message = format!("dealergen {} previews", env!("CARGO_PKG_VERSION"));
        let steps: [(&str, Vec<&str>); 2] = [
            ("D1 migrations", super::wrangler::MIGRATIONS_APPLY.to_vec()),
            (
                "deploy",
                vec!["deploy", "--config", "wrangler.json", "--message", &message],
            ),
        ];
        for (what, args) in steps {
            let o = self.wrangler.run(&dir, &args, None)?;
            if !o.ok {
                eprintln!(
                    "FAILED previews' edge worker {name}: {what}: {}\nno preview was made",
                    o.said()
                );
                return Ok(false);
            }
        }
        let list = self.wrangler.run(
            &dir,
            &[
                "secret",
                "list",
                "--name",
                name,
                "--format",
                "json",
                "--config",
                "wrangler.json",
            ],
            None,
        )?;
        let have = if list.ok {
            super::secrets::parse_list(&list.stdout).map_err(|e| anyhow::anyhow!(e))
        } else {
            Err(anyhow::anyhow!("{}", list.said()))
        };
        match have {
            Ok(names) if names.iter().any(|n| n == "SESSION_SECRET") => {}
            Ok(_) => {
                // Its own: a preview's sessions never sign in to production.
                let secret = super::secrets::random_secret()?;
                let o = self.wrangler.run(
                    &dir,
                    &[
                        "secret",
                        "put",
                        "SESSION_SECRET",
                        "--name",
                        name,
                        "--config",
                        "wrangler.json",
                    ],
                    Some(&secret),
                )?;
                if !o.ok {
                    eprintln!("FAILED previews' edge worker {name}: SESSION_SECRET: {}\nno preview was made", o.said());
                    return Ok(false);
                }
            }
            Err(e) => {
                eprintln!("FAILED previews' edge worker {name}: wrangler secret list: {e}\nno preview was made");
                return Ok(false);
            }
        }
        println!("previews' edge worker {name}: deployed");
        Ok(true)
    }

    /// The dealer's build in the previews' KV under the preview's dealer id,
    /// reached from `url`; keys an earlier push wrote and this one does not
    /// (a car sold since) are deleted.
    fn put_api(&self, rel: &Release, id: &str, url: &str) -> Result<()> {
        let build = release::kv_entries(&rel.kv_file())?;
        let entries = preview_kv::entries(&build, &rel.slug, id, url)?;
        let store = self.store();
        let before = self.written(&store, id)?;
        store.bulk_put_entries(&entries)?;
        let now: std::collections::HashSet<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        let stale: Vec<String> = before
            .into_iter()
            .filter(|k| !now.contains(k.as_str()))
            .collect();
        store.bulk_delete(&stale)
    }

    /// The keys the preview `id` wrote, from its key list (none: nothing).
    fn written(&self, store: &Store, id: &str) -> Result<Vec<String>> {
        match store.get(&preview_kv::keys_key(id)) {
            Remote::Found(list) => preview_kv::written(list.trim()),
            Remote::Absent => Ok(Vec::new()),
            Remote::Unknown(why) => bail!("{why}"),
        }
    }
}

/// The preview's URL from `wrangler preview --json`: the preview's own
/// (stable for its name), else the deployment's.
fn preview_url(outcome: &Outcome) -> Result<String> {
    if !outcome.ok {
        bail!("wrangler preview failed:\n    {}", outcome.said());
    }
    let text = outcome.stdout.trim();
    let json = text
        .find('{')
        .zip(text.rfind('}'))
        .and_then(|(a, b)| serde_json::from_str::<serde_json::Value>(&text[a..=b]).ok())
        .with_context(|| format!("wrangler preview printed no JSON:\n    {}", outcome.said()))?;
    ["preview", "deployment"]
        .iter()
        .find_map(|k| json[k]["urls"][0].as_str().map(String::from))
        .with_context(|| {
            "wrangler preview gave no URL: are preview URLs on for the account's workers.dev subdomain?"
                .to_string()
        })
}

impl Run<'_> {
    fn remove(&self, slugs: &[String]) -> Result<i32> {
        let opts = self.opts;
        let mut failed = 0;
        for slug in slugs {
            let worker = self.cfg.site_worker(slug);
            let id = preview_kv::dealer_id(slug, &opts.name);
            if opts.dry_run {
                println!(
                    "preview {slug}: would run `wrangler preview delete --name {} --worker-name {worker}` and delete its API's dealer {id} from KV namespace {}",
                    opts.name, self.target.kv_namespace_id
                );
                continue;
            }
            let outcome = self.wrangler.run(
                &self.state_dir,
                &[
                    "preview",
                    "delete",
                    "--name",
                    &opts.name,
                    "--worker-name",
                    &worker,
                    "--skip-confirmation",
                ],
                None,
            )?;
            let site = if outcome.ok {
                Ok("removed")
            } else if gone(&outcome) {
                // A dealer the pull request did not change has no preview.
                Ok("none to remove")
            } else {
                Err(anyhow::anyhow!(
                    "wrangler preview delete failed:\n    {}",
                    outcome.said()
                ))
            };
            // Its API's keys are written only after its site preview was
            // made: a dealer with no preview has none (one call fewer per
            // dealer the pull request did not change).
            let api = match site {
                Ok("removed") => self.remove_api(&id),
                _ => Ok(0),
            };
            match (site, api) {
                (Ok(said), Ok(keys)) => println!(
                    "preview {slug}: {said}{}",
                    if keys > 0 {
                        format!(" (its API's dealer {id}: {keys} KV keys deleted)")
                    } else {
                        String::new()
                    }
                ),
                (site, api) => {
                    failed += 1;
                    for e in [site.err(), api.err()].into_iter().flatten() {
                        eprintln!("preview {slug}: {e:#}");
                    }
                }
            }
        }
        Ok(if failed > 0 { 1 } else { 0 })
    }

    /// Deletes what the preview `id` wrote to the previews' KV; how many keys.
    fn remove_api(&self, id: &str) -> Result<usize> {
        let store = self.store();
        let mut keys = self.written(&store, id)?;
        if keys.is_empty() {
            return Ok(0);
        }
        let n = keys.len();
        keys.push(preview_kv::keys_key(id));
        store.bulk_delete(&keys)?;
        Ok(n)
    }
}

/// Whether a failed delete said the preview (or its worker) does not exist.
fn gone(outcome: &Outcome) -> bool {
    let said = outcome.said().to_ascii_lowercase();
    said.contains("not found") || said.contains("does not exist")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preview_names() {
        for ok in ["pr-123", "a", "staging-2"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "PR-1", "1pr", "pr_1", "pr-", "pr 1", &"a".repeat(41)] {
            let e = check_name(bad).unwrap_err().to_string();
            assert!(e.contains("is not a preview name"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_url_is_the_previews_else_the_deployments() {
        let out = |ok: bool, stdout: &str| Outcome {
            ok,
            stdout: stdout.into(),
            stderr: String::new(),
            records: Vec::new(),
        };
        let both = r#"{"preview":{"urls":["https://pr-1-w.x.workers.dev"]},"deployment":{"urls":["https://ab12-w.x.workers.dev"]}}"#;
        assert_eq!(
            preview_url(&out(true, both)).unwrap(),
            "https://pr-1-w.x.workers.dev"
        );
        let deployment = r#"note first
{"preview":{"urls":[]},"deployment":{"urls":["https://ab12-w.x.workers.dev"]}}"#;
        assert_eq!(
            preview_url(&out(true, deployment)).unwrap(),
            "https://ab12-w.x.workers.dev"
        );
        let none = preview_url(&out(true, r#"{"preview":{},"deployment":{}}"#)).unwrap_err();
        assert!(none.to_string().contains("gave no URL"), "{none}");
        let failed = preview_url(&out(false, "X [ERROR] boom")).unwrap_err();
        assert!(
            failed.to_string().contains("wrangler preview failed"),
            "{failed}"
        );
    }
}
