//! `dealergen check` (every problem of the dealer files, as text, JSON or
//! GitHub annotations) and `dealergen check-links` (a built site's links).

use anyhow::{bail, Result};
use dealer_config::diagnostic::{render_github, render_human};
use dealer_config::{Loader, Severity};

use crate::cli::{CheckArgs, CheckLinksArgs, OutputFormat};
use crate::project::Project;
use crate::selection::{parse_as_of, select, slug_of};

pub fn links(project: &Project, args: CheckLinksArgs) -> Result<i32> {
    let dealer = match super::load_one(project, &args.dealer)? {
        Ok(d) => d,
        Err(code) => return Ok(code),
    };
    let dist = args
        .dist
        .unwrap_or_else(|| project.site_dir(&dealer.slug).join("dist"));
    if !dist.join("index.html").is_file() {
        bail!("{} is not a built site (no index.html)", dist.display());
    }
    let generated = crate::run::build::generate(
        &dealer,
        &project.public_dir(),
        parse_as_of(args.as_of.as_deref())?,
    )?;
    let report_file = project.site_dir(&dealer.slug).join("publish-problems.txt");
    std::fs::create_dir_all(project.site_dir(&dealer.slug))?;
    let pages = crate::publish::known::read_pages(&dist)?;
    let mut known = crate::publish::known::KnownPages::none();
    match crate::publish::finish(
        &dist,
        &generated.plan.plan,
        &report_file,
        &pages,
        &mut known,
    ) {
        Ok(p) => {
            println!("ok     {}: {}", dealer.slug, p.links_line());
            Ok(0)
        }
        Err(e) => {
            println!("FAILED {e:#}");
            Ok(1)
        }
    }
}

/// Diagnostics with their files relative to the repository's root, as
/// GitHub attaches annotations to a pull request's lines: the workflow's
/// checkout (`GITHUB_WORKSPACE`), else the nearest folder above the
/// current one holding `.git`. A file outside it keeps its path.
fn for_github(mut diags: Vec<dealer_config::Diagnostic>) -> Vec<dealer_config::Diagnostic> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let root = std::env::var_os("GITHUB_WORKSPACE")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            cwd.ancestors()
                .find(|d| d.join(".git").exists())
                .map(Into::into)
        });
    if let Some(root) = root {
        for d in &mut diags {
            d.file = repository_path(&cwd, &root, &d.file);
        }
    }
    diags
}

/// `file` (relative to `cwd`, or absolute) relative to `root` when inside it.
fn repository_path(
    cwd: &std::path::Path,
    root: &std::path::Path,
    file: &std::path::Path,
) -> std::path::PathBuf {
    let absolute = crate::diff::normalize(&cwd.join(file));
    absolute
        .strip_prefix(crate::diff::normalize(root))
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|_| file.to_path_buf())
}

pub fn run(project: &Project, args: CheckArgs) -> Result<i32> {
    let files = select(project, &args.selection)?;
    // Dated content is judged as a build judges it: a tile that has ended is a warning.
    let now = crate::selection::parse_as_of(args.as_of.as_deref())?;
    let loader = Loader::new(project.presets_dir()).judging_at(now);
    let mut failed = 0;
    let mut json = Vec::new();
    for file in &files {
        let (diags, files_src, ok) = match loader.load(file) {
            Ok(d) => {
                let mut diags = d.warnings.clone();
                let page_problems = redirect_page_problems(project, &d, now);
                let ok = !page_problems.iter().any(|p| p.severity == Severity::Error);
                diags.extend(page_problems);
                (diags, None, ok)
            }
            Err(r) => (r.diagnostics, Some(r.files), false),
        };
        if !ok {
            failed += 1;
        }
        match args.format {
            OutputFormat::Human => {
                if let Some(src) = &files_src {
                    print!("{}", render_human(&diags, src));
                } else if !diags.is_empty() {
                    let mut src = dealer_config::SourceFiles::default();
                    src.add(
                        file.clone(),
                        std::fs::read_to_string(file).unwrap_or_default(),
                    );
                    print!("{}", render_human(&diags, &src));
                }
                let errors = diags
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                if ok {
                    println!("ok     {}", file.display());
                } else {
                    println!("FAILED {}: {errors} problem(s)\n", file.display());
                }
            }
            OutputFormat::Github => print!("{}", render_github(&for_github(diags))),
            OutputFormat::Json => json.push(serde_json::json!({
                "dealer": slug_of(file),
                "file": file,
                "ok": ok,
                "diagnostics": diags,
            })),
        }
    }
    match args.format {
        OutputFormat::Json => println!("{}", serde_json::to_string_pretty(&json)?),
        OutputFormat::Human => {
            println!("{} dealer(s) checked, {failed} with problems", files.len())
        }
        OutputFormat::Github => {}
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// The dealer's redirects against the site's pages, once the pages are
/// known: the page table the build would make from the dealer file and its
/// stock (no Astro), checked as the build checks it (a target that is no
/// page, a `from` that takes a page's address). Nothing for a dealer
/// without redirects; a warning when the pages cannot be planned (no stock
/// feed here): the build still checks them.
fn redirect_page_problems(
    project: &Project,
    dealer: &dealer_config::LoadedDealer,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<dealer_config::Diagnostic> {
    if dealer.config.redirects.is_empty() {
        return Vec::new();
    }
    match crate::run::build::generate(dealer, &project.public_dir(), now) {
        Ok(_) => Vec::new(),
        Err(e) => match e.downcast_ref::<crate::run::build::RedirectProblems>() {
            Some(problems) => problems.0.clone(),
            None => vec![dealer_config::Diagnostic {
                severity: Severity::Warning,
                file: dealer.path.clone(),
                line: dealer.redirect_lines.first().copied().unwrap_or(1),
                column: 1,
                key: "redirects".into(),
                message: format!(
                    "the redirects' targets were not checked against the site's pages, which could not be planned here: {e:#}"
                ),
                expected: None,
                hint: Some("the build checks them (dealergen build)".into()),
            }],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn annotation_paths_are_relative_to_the_repository_from_any_folder() {
        let root = Path::new("/repo");
        // From the repository's root, a subfolder, or outside it.
        assert_eq!(
            repository_path(root, root, Path::new("dealers/x.yaml")),
            Path::new("dealers/x.yaml")
        );
        assert_eq!(
            repository_path(Path::new("/repo/dealers"), root, Path::new("x.yaml")),
            Path::new("dealers/x.yaml")
        );
        assert_eq!(
            repository_path(
                Path::new("/repo/dealers"),
                root,
                Path::new("/repo/templates/presets/a.yaml")
            ),
            Path::new("templates/presets/a.yaml")
        );
        assert_eq!(
            repository_path(
                Path::new("/repo/dealers"),
                root,
                Path::new("../templates/presets/a.yaml")
            ),
            Path::new("templates/presets/a.yaml")
        );
        assert_eq!(
            repository_path(Path::new("/elsewhere"), root, Path::new("x.yaml")),
            Path::new("x.yaml")
        );
    }
}
