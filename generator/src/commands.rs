//! What each subcommand does. Returns the process exit code.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use dealer_config::diagnostic::{render_github, render_human};
use dealer_config::{Loader, Severity};

use crate::cli::{
    BuildArgs, CheckArgs, CheckLinksArgs, Cli, Command, OutputFormat, Selection, StockCommand,
};
use crate::project::Project;
use crate::run::build::{BuildFailure, BuildOptions};
use crate::selection::{parse_as_of, select, shard_of, slug_of};

mod diff;
mod explain;
mod pull;

pub fn run(cli: Cli) -> Result<i32> {
    let project = project_from(&cli)?;
    match cli.command {
        Command::Build(args) => build(&project, args),
        Command::Check(args) => check(&project, args),
        Command::Schema {
            write,
            site_data,
            docs,
        } => schema(&project, write, site_data, docs),
        Command::CheckLinks(args) => check_links(&project, args),
        Command::List => list(&project),
        Command::Stock(StockCommand::Pull(args)) => pull::run(&project, args),
        Command::Explain(args) => explain::run(&project, args),
        Command::Diff(args) => diff::run(&project, args),
        Command::Changed(args) => diff::changed(&project, args),
        // --- deploy (issue 13) ---
        Command::Deploy(args) if args.preview.is_some() => crate::deploy::preview(
            &project,
            crate::deploy::PreviewOptions {
                name: args.preview.unwrap_or_default(),
                dealers: args.selection.dealer,
                shard: args.shard,
                remove: args.remove,
                dry_run: args.dry_run,
                config: args.config,
            },
        ),
        Command::Deploy(args) => crate::deploy::deploy(
            &project,
            crate::deploy::Options {
                dealers: args.selection.dealer,
                changed_only: args.selection.changed,
                edge_only: args.selection.edge_only,
                shard: args.shard,
                dry_run: args.dry_run,
                no_edge: args.no_edge,
                config: args.config,
            },
        ),
        Command::Rollback(args) => crate::deploy::rollback(
            &project,
            crate::deploy::RollbackOptions {
                dealer: args.dealer,
                dry_run: args.dry_run,
                config: args.config,
            },
        ),
        // --- end deploy ---
        Command::Dev(args) => crate::dev::run(
            &project,
            crate::dev::Options {
                dealer: args.dealer,
                port: args.port,
                no_edge: args.no_edge,
                built: args.built,
                as_of: args
                    .as_of
                    .as_deref()
                    .map(|t| parse_as_of(Some(t)))
                    .transpose()?,
            },
        ),
        Command::New {
            slug,
            template,
            name,
        } => new_dealer(&project, &slug, &template, name.as_deref()),
    }
}

fn project_from(cli: &Cli) -> Result<Project> {
    let root = match &cli.root {
        Some(r) => r.clone(),
        None => {
            let cwd = std::env::current_dir()?;
            Project::discover(&cwd).with_context(|| {
                format!("{} is not inside a dealergen checkout (no templates/presets above it); pass --root", cwd.display())
            })?
        }
    };
    // Absolute, so the node_modules link and the Astro command of every
    // site work whatever folder they run in (`--root .` included).
    let root = root
        .canonicalize()
        .with_context(|| format!("--root {}: no such folder", root.display()))?;
    let mut p = Project::new(root);
    if let Some(d) = &cli.dealers_dir {
        p.dealers_dir = d.clone();
    }
    if let Some(s) = &cli.sites_dir {
        p.sites_dir = s.clone();
    }
    Ok(p)
}

/// Astro builds use ~400 MB and one core each: run as many as both allow.
fn default_jobs() -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mem_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map(|kb| kb / 1024)
        .unwrap_or(2048);
    cores.min(mem_mb / 700).max(1)
}

fn build(project: &Project, args: BuildArgs) -> Result<i32> {
    let mut files = select(project, &args.selection)?;
    if let Some((i, n)) = args.shard {
        files.retain(|f| shard_of(&slug_of(f), n) == i - 1);
    }
    let opts = crate::run::build_all::RunOptions {
        build: BuildOptions {
            now: match args.as_of.as_deref() {
                Some(at) => parse_as_of(Some(at))?,
                None => parse_as_of(None)?,
            },
            skip_astro: args.no_astro,
        },
        rebuild: if args.force {
            crate::run::build::Rebuild::Force
        } else {
            crate::run::build::Rebuild::IfChanged
        },
        jobs: args.jobs.unwrap_or_else(default_jobs).max(1),
        separate: args.separate,
    };
    let jobs = opts.jobs;
    let started = Instant::now();
    let progress = crate::run::progress::Progress::new(files.len());
    let results = crate::run::build_all::run(project, &files, &opts, &progress)?;
    let plan = crate::deploy::configured_plan(project);

    let mut failed = 0;
    let (mut skipped, mut left_out) = (0, 0);
    for (slug, result) in &results {
        match result {
            Ok(r) => {
                let dist = match (&r.dist, &r.release) {
                    (Some(d), Some(id)) => format!(" -> {} (release {id})", d.display()),
                    (Some(d), None) => format!(" -> {}", d.display()),
                    (None, _) => " (astro skipped)".into(),
                };
                // A cached dealer's published release was built from the
                // same inputs (the same build key): nothing was rebuilt.
                let verb = if r.cached { "cached" } else { "built " };
                let reused = if r.reused_pages > 0 {
                    format!(" ({} unchanged, from the page cache)", r.reused_pages)
                } else {
                    String::new()
                };
                println!(
                    "{verb} {slug}: {} cars shown, {} hidden; stock feed: {}; {} pages{reused} in {:.1}s{dist}",
                    r.cars_visible,
                    r.cars_hidden,
                    feed_counts(&r.warnings),
                    r.pages,
                    r.elapsed.as_secs_f64()
                );
                if let Some(p) = &r.publish {
                    println!(
                        "       checks in {:.0} ms ({} of {} pages as published before, not parsed again; finance compliance {:.0} ms); links: {} internal checked ({} exempt) on {} pages and {} stylesheets in {:.0} ms, 0 dead; sitemap {} URLs, CSP {} script hash(es), {} redirect(s); {} files",
                        p.checks.as_secs_f64() * 1000.0,
                        p.pages_known,
                        p.links.pages,
                        p.compliance.as_secs_f64() * 1000.0,
                        p.links.checked,
                        p.links.exempt,
                        p.links.pages,
                        p.links.stylesheets,
                        p.links.elapsed.as_secs_f64() * 1000.0,
                        p.sitemap_urls,
                        p.script_hashes,
                        p.redirects,
                        p.assets.files
                    );
                    // Published here, but Cloudflare would refuse it: said
                    // now, not at the deployment.
                    for problem in p.assets.problems(plan) {
                        println!(
                            "       warning: the site does not fit Cloudflare's limits: {problem}"
                        );
                    }
                }
                skipped += r.warnings.skipped;
                left_out += r.warnings.feed_warnings;
                print_warnings(&r.warnings);
            }
            Err(e) => {
                failed += 1;
                println!("FAILED {slug}: {e}");
                match e {
                    BuildFailure::Invalid(rej) => {
                        eprint!("{}", render_human(&rej.diagnostics, &rej.files))
                    }
                    // The feed was read: its problems count and print as
                    // for a published site (they may be why it failed).
                    BuildFailure::Unpublished { warnings, .. } => {
                        println!("       stock feed: {}", feed_counts(warnings));
                        skipped += warnings.skipped;
                        left_out += warnings.feed_warnings;
                        print_warnings(warnings);
                    }
                    BuildFailure::Failed(_) => {}
                }
            }
        }
    }
    if results.len() > 1 {
        print!("{}", summary_table(&results));
    }
    let cached = results
        .iter()
        .filter(|(_, r)| r.as_ref().is_ok_and(|r| r.cached))
        .count();
    println!(
        "{} built, {failed} failed, in {:.1}s ({} at a time; {cached} unchanged, not rebuilt); stock feeds: {}, {}",
        results.len() - failed,
        started.elapsed().as_secs_f64(),
        jobs,
        plural(skipped, "record skipped", "records skipped"),
        plural(left_out, "warning", "warnings"),
    );
    Ok(if failed > 0 { 1 } else { 0 })
}

/// Per dealer: pages, warnings, time and whether it was built, cached or failed.
fn summary_table(results: &[crate::run::build_all::DealerResult]) -> String {
    let width = results
        .iter()
        .map(|(s, _)| s.len())
        .max()
        .unwrap_or(0)
        .max("dealer".len());
    let mut out = format!(
        "{:<width$}  {:>6}  {:>8}  {:>7}  result\n",
        "dealer", "pages", "warnings", "time"
    );
    for (slug, r) in results {
        let line = match r {
            Ok(r) => format!(
                "{slug:<width$}  {:>6}  {:>8}  {:>6.1}s  {}\n",
                r.pages,
                r.warnings.lines.len(),
                r.elapsed.as_secs_f64(),
                if r.cached {
                    "cached"
                } else if r.dist.is_none() {
                    "generated"
                } else {
                    "built"
                }
            ),
            Err(e) => format!(
                "{slug:<width$}  {:>6}  {:>8}  {:>7}  FAILED\n",
                "-",
                match e {
                    BuildFailure::Unpublished { warnings, .. } => warnings.lines.len().to_string(),
                    _ => "-".into(),
                },
                "-"
            ),
        };
        out.push_str(&line);
    }
    out
}

/// Warnings printed per dealer; the rest are in its stock-feed-report.txt.
const MAX_PRINTED_WARNINGS: usize = 25;

/// "2 records skipped, 19 warnings".
fn feed_counts(w: &crate::run::build::Warnings) -> String {
    format!(
        "{}, {}",
        plural(w.skipped, "record skipped", "records skipped"),
        plural(w.feed_warnings, "warning", "warnings")
    )
}

/// A dealer's warnings, the first [`MAX_PRINTED_WARNINGS`] of them.
fn print_warnings(w: &crate::run::build::Warnings) {
    for line in w.lines.iter().take(MAX_PRINTED_WARNINGS) {
        println!("       warning: {line}");
    }
    if let Some(more) = w.lines.len().checked_sub(MAX_PRINTED_WARNINGS) {
        if more > 0 {
            let report = w
                .feed_report
                .as_ref()
                .map(|p| format!(": all of them are in {}", p.display()))
                .unwrap_or_default();
            println!("       ... and {more} more warning(s){report}");
        }
    }
}

/// "1 record skipped", "0 warnings".
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn check_links(project: &Project, args: CheckLinksArgs) -> Result<i32> {
    let files = select(
        project,
        &Selection {
            dealer: vec![args.dealer.clone()],
            all: false,
        },
    )?;
    let loader = Loader::new(project.presets_dir());
    let dealer = match loader.load(&files[0]) {
        Ok(d) => d,
        Err(r) => {
            eprint!("{}", render_human(&r.diagnostics, &r.files));
            println!("FAILED {}: the dealer file has problems", args.dealer);
            return Ok(1);
        }
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
    let pages = crate::checks::publish::known::read_pages(&dist)?;
    let mut known = crate::checks::publish::known::KnownPages::none();
    match crate::checks::publish::finish(
        &dist,
        &generated.plan.plan,
        &report_file,
        &pages,
        &mut known,
    ) {
        Ok(p) => {
            println!(
                "ok     {}: links: {} internal checked ({} exempt) on {} pages and {} stylesheets in {:.0} ms, 0 dead; sitemap {} URLs, CSP {} script hash(es), {} redirect(s)",
                dealer.slug,
                p.links.checked,
                p.links.exempt,
                p.links.pages,
                p.links.stylesheets,
                p.links.elapsed.as_secs_f64() * 1000.0,
                p.sitemap_urls,
                p.script_hashes,
                p.redirects
            );
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

fn check(project: &Project, args: CheckArgs) -> Result<i32> {
    let files = select(project, &args.selection)?;
    // Dated content is judged as a build judges it: a tile that has ended is a warning.
    let now = crate::selection::parse_as_of(args.as_of.as_deref())?;
    let loader = Loader::new(project.presets_dir()).judging_at(now);
    let mut failed = 0;
    let mut json = Vec::new();
    for file in &files {
        let (diags, files_src, ok) = match loader.load(file) {
            Ok(d) => (d.warnings, None, true),
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

pub fn schema_text() -> String {
    let mut s = serde_json::to_string_pretty(dealer_config::schema()).expect("schema serialises");
    s.push('\n');
    s
}

fn schema(project: &Project, write: bool, site_data: bool, docs: bool) -> Result<i32> {
    let (text, path) = if docs {
        (
            crate::docs::field_reference(&Loader::new(project.presets_dir()))?,
            project.field_reference_file(),
        )
    } else if site_data {
        (
            crate::pipeline::site_data::contract_schema_text(),
            project.site_data_schema_file(),
        )
    } else {
        (schema_text(), project.schema_file())
    };
    if write {
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    } else {
        print!("{text}");
    }
    Ok(0)
}

fn list(project: &Project) -> Result<i32> {
    let loader = Loader::new(project.presets_dir());
    let mut bad = 0;
    for file in project.dealer_files()? {
        match loader.load(&file) {
            Ok(d) => println!(
                "{:32} {:22} {:40} {} location(s)",
                d.slug,
                d.config.template,
                d.config.name,
                d.config.locations.len()
            ),
            Err(r) => {
                bad += 1;
                println!(
                    "{:32} INVALID: {} problem(s), run `dealergen check --dealer {}`",
                    r.slug,
                    r.diagnostics.len(),
                    r.slug
                );
            }
        }
    }
    Ok(if bad > 0 { 1 } else { 0 })
}

fn new_dealer(project: &Project, slug: &str, template: &str, name: Option<&str>) -> Result<i32> {
    if slug.is_empty()
        || !slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        bail!("`{slug}` is not a valid slug: use lower-case letters, digits and dashes, e.g. gold-coast-kia");
    }
    let loader = Loader::new(project.presets_dir());
    let presets = loader.presets();
    if !presets.iter().any(|p| p == template) {
        bail!(
            "no template preset `{template}`; available: {}",
            presets.join(", ")
        );
    }
    let file = project.dealer_file(slug);
    if file.exists() {
        bail!("{} already exists", file.display());
    }
    let name = name.map(String::from).unwrap_or_else(|| {
        slug.split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ")
    });
    let feed_rel = format!("stock/{slug}.json");
    let feed = project.dealers_dir.join(&feed_rel);
    let created_feed = !feed.exists();
    if created_feed {
        std::fs::create_dir_all(feed.parent().expect("has parent"))?;
        std::fs::write(&feed, "[]\n")?;
    }
    let text = crate::scaffold::dealer_yaml(slug, template, &name, &feed_rel);
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
    // The scaffold must validate; if it does not, leave nothing behind.
    if let Err(r) = loader.load(&file) {
        let _ = std::fs::remove_file(&file);
        if created_feed {
            let _ = std::fs::remove_file(&feed);
        }
        eprint!("{}", render_human(&r.diagnostics, &r.files));
        bail!(
            "the scaffold for `{slug}` did not validate (a bug in dealergen); nothing was written"
        );
    }
    println!("created {}", file.display());
    if created_feed {
        println!(
            "created {} (empty stock feed: point stock.feed at the real one)",
            feed.display()
        );
    }
    println!("next: edit the file, then `dealergen check --dealer {slug}` and `dealergen build --dealer {slug}`");
    Ok(0)
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
