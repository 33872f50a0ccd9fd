//! What each subcommand does (one file per command beside this one).
//! Returns the process exit code.

use anyhow::{Context, Result};

use crate::cli::{Cli, Command, StockCommand};
use crate::project::Project;
use crate::selection::parse_as_of;

mod build;
mod check;
mod diff;
mod explain;
mod list;
mod migrate;
mod new;
mod pull;
mod schema;
mod status;

pub use schema::schema_text;

pub fn run(cli: Cli) -> Result<i32> {
    let project = project_from(&cli)?;
    match cli.command {
        Command::Build(args) => build::run(&project, args),
        Command::Check(args) => check::run(&project, args),
        Command::Status(args) => status::run(&project, args),
        Command::Schema {
            write,
            site_data,
            docs,
        } => schema::run(&project, write, site_data, docs),
        Command::CheckLinks(args) => check::links(&project, args),
        Command::MigrateCheck(args) => migrate::run(&project, args),
        Command::List => list::run(&project),
        Command::Stock(StockCommand::Pull(args)) => pull::run(&project, args),
        Command::Explain(args) => explain::run(&project, args),
        Command::Diff(args) => diff::run(&project, args),
        Command::Changed(args) => diff::changed(&project, args),
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
        } => new::run(&project, &slug, &template, name.as_deref()),
    }
}

/// The one dealer a command names, loaded; `Err(code)` once its problems
/// are printed (the command exits with it).
fn load_one(
    project: &Project,
    slug: &str,
) -> Result<std::result::Result<dealer_config::LoadedDealer, i32>> {
    let files = crate::selection::select(
        project,
        &crate::cli::Selection {
            dealer: vec![slug.to_string()],
            all: false,
        },
    )?;
    Ok(
        match dealer_config::Loader::new(project.presets_dir()).load(&files[0]) {
            Ok(d) => Ok(d),
            Err(r) => {
                eprint!(
                    "{}",
                    dealer_config::diagnostic::render_human(&r.diagnostics, &r.files)
                );
                println!(
                    "FAILED {slug}: the dealer file has problems (dealergen check --dealer {slug})"
                );
                Err(1)
            }
        },
    )
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
