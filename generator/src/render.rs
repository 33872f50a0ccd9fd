//! Writes the generated Astro project of one dealer: the thin files from
//! `templates/site/` (minijinja, strict undefined so a typo is an error) and
//! the data the pages read (`src/data/site.json`, `src/data/cars.json`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;
use walkdir::WalkDir;

use crate::project::Project;

/// Values the site templates may use. Data for pages travels as JSON files,
/// never spliced into code.
#[derive(Debug, Serialize)]
pub struct TemplateContext {
    pub slug: String,
    /// astro-app relative to the site folder.
    pub app_dir: String,
    pub site_url: String,
}

/// Renders the project into `site_dir`. `src/` is written fresh each time so
/// no page of an earlier build lingers; `dist/` is not touched here.
pub fn write_project(
    project: &Project,
    site_dir: &Path,
    ctx: &TemplateContext,
    data: &[(&str, String)],
) -> Result<()> {
    let templates = project.site_templates_dir();
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // .astro/.mjs/.json files are code: no HTML auto-escaping.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_keep_trailing_newline(true);

    let src = site_dir.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src).with_context(|| format!("cannot clear {}", src.display()))?;
    }
    std::fs::create_dir_all(site_dir)
        .with_context(|| format!("cannot create {}", site_dir.display()))?;

    let mut count = 0;
    for entry in WalkDir::new(&templates).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot read {}", templates.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&templates)
            .expect("walkdir yields children");
        let rel_str = rel.to_string_lossy().replace('\\', "/");
        let out_rel = rel_str.strip_suffix(".j2").unwrap_or(&rel_str).to_string();
        let source = std::fs::read_to_string(entry.path())
            .with_context(|| format!("cannot read template {}", entry.path().display()))?;
        let rendered = env
            .render_str(&source, ctx)
            .map_err(|e| anyhow::anyhow!("template {}: {e:#}", entry.path().display()))?;
        write_file(&site_dir.join(&out_rel), rendered.as_bytes())?;
        count += 1;
    }
    anyhow::ensure!(
        count > 0,
        "no site templates found in {}",
        templates.display()
    );

    for (name, json) in data {
        write_file(&src.join("data").join(name), json.as_bytes())?;
    }
    link_node_modules(project, site_dir)?;
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Every site shares the one node_modules at the root (no install per dealer).
fn link_node_modules(project: &Project, site_dir: &Path) -> Result<()> {
    let link = site_dir.join("node_modules");
    let target: PathBuf = project.node_modules();
    if std::fs::symlink_metadata(&link).is_ok() {
        if std::fs::read_link(&link).ok().as_deref() == Some(target.as_path()) {
            return Ok(());
        }
        std::fs::remove_file(&link).or_else(|_| std::fs::remove_dir_all(&link))?;
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, &link)
        .with_context(|| format!("cannot link {}", link.display()))?;
    Ok(())
}
