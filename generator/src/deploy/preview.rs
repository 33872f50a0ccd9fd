//! `dealergen deploy --preview <name>`: a pull request's built sites as
//! Worker Previews (`wrangler preview --name <name>`), one per changed
//! dealer, under the dealer's own site worker, and `--remove` to delete
//! them when the pull request closes (`wrangler preview delete`).
//!
//! A preview touches nothing of production: no version is deployed, no
//! route or KV key is written (its config has neither routes nor the
//! workers.dev switches, `configs::site_preview`). A preview serves the
//! site's pages only: its `/api/*` reaches no edge worker, so its forms
//! send nothing and no lead reaches the dealer (docs/pull-requests.md).
//! The URLs go to `sites/.deploy/preview/<name>/previews.json` for the
//! pull request's comment.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::wrangler::{Outcome, Wrangler};
use super::{configs, load_config, out_dir, release, write_json, write_state_config};
use crate::project::Project;

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
    if opts.remove {
        remove(&wrangler, &cfg, &out, &opts, &slugs)
    } else {
        make(&wrangler, project, &cfg, &out, &opts, &slugs)
    }
}

fn make(
    wrangler: &Wrangler,
    project: &Project,
    cfg: &super::config::DeployConfig,
    out: &Path,
    opts: &PreviewOptions,
    slugs: &[String],
) -> Result<i32> {
    let mut urls = BTreeMap::new();
    let mut failed = 0;
    for slug in slugs {
        // Only the dealers built here: a CI shard builds its changed dealers.
        let Ok(rel) = release::current(&project.sites_dir, slug) else {
            if !opts.dealers.is_empty() {
                println!("preview {slug}: skipped, not built here");
            }
            continue;
        };
        let dir = out.join(slug);
        let config = configs::site_preview(cfg, &rel, &dir)?;
        write_json(&dir.join("wrangler.json"), &config)?;
        configs::write_worker(&project.site_worker_dir(), &dir)?;
        let worker = cfg.site_worker(slug);
        if opts.dry_run {
            println!(
                "preview {slug}: would run `wrangler preview --name {}` for worker {worker} with release {} ({})",
                opts.name,
                rel.id,
                super::show(&dir.join("wrangler.json"))
            );
            continue;
        }
        let message = format!("dealergen {slug} {}", rel.id);
        let outcome = wrangler.run(
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
        match preview_url(&outcome) {
            Ok(url) => {
                println!("preview {slug}: {url}");
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
            &out.join("previews.json"),
            &serde_json::json!({ "name": opts.name, "dealers": urls }),
        )?;
    }
    Ok(if failed > 0 { 1 } else { 0 })
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

fn remove(
    wrangler: &Wrangler,
    cfg: &super::config::DeployConfig,
    out: &Path,
    opts: &PreviewOptions,
    slugs: &[String],
) -> Result<i32> {
    // The account is named by a small config; the worker by --worker-name.
    let state_dir = write_state_config(cfg, out)?;
    let mut failed = 0;
    for slug in slugs {
        let worker = cfg.site_worker(slug);
        if opts.dry_run {
            println!(
                "preview {slug}: would run `wrangler preview delete --name {} --worker-name {worker}`",
                opts.name
            );
            continue;
        }
        let outcome = wrangler.run(
            &state_dir,
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
        if outcome.ok {
            println!("preview {slug}: removed");
        } else if gone(&outcome) {
            // A dealer the pull request did not change has no preview.
            println!("preview {slug}: none to remove");
        } else {
            failed += 1;
            eprintln!(
                "preview {slug}: wrangler preview delete failed:\n    {}",
                outcome.said()
            );
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
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
