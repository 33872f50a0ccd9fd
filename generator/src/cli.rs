//! Command-line interface (clap). Exit codes (docs/ARCHITECTURE.md, contract 5): 0 ok,
//! 1 build or validation failure, 2 usage error.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "dealergen",
    version,
    about = "Turns dealers/<slug>.yaml and a stock feed into a fast static dealer website."
)]
pub struct Cli {
    /// Checkout root (holds dealers/, templates/, astro-app/). Default: found from the current folder upwards.
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Read dealer files from this folder instead of <root>/dealers.
    #[arg(long, global = true, value_name = "DIR")]
    pub dealers_dir: Option<PathBuf>,
    /// Write sites to this folder instead of <root>/sites.
    #[arg(long, global = true, value_name = "DIR")]
    pub sites_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build dealer sites into sites/<slug>/dist.
    Build(BuildArgs),
    /// Validate dealer files without building.
    Check(CheckArgs),
    /// Print the JSON Schema of the dealer YAML (or write it with --write).
    Schema {
        /// Write it to its committed path (dealers/dealer.schema.json, or
        /// astro-app/src/types/site-data.schema.json with --site-data).
        #[arg(long)]
        write: bool,
        /// The schema of the data the generator hands the Astro app
        /// (site.json, cars.json) instead of the dealer YAML.
        #[arg(long)]
        site_data: bool,
    },
    /// Check a built site (dead links, page conventions) and write its
    /// _headers, _redirects, sitemap.xml and robots.txt, as `build` does
    /// before publishing. For a site built by other means, or a copy.
    CheckLinks(CheckLinksArgs),
    /// List the dealers and whether their files are valid.
    List,
    /// Create a new dealer file from a template preset.
    New {
        /// Slug of the new dealer (file name), e.g. gold-coast-kia.
        slug: String,
        /// Template preset from templates/presets.
        #[arg(long)]
        template: String,
        /// Dealer display name (default: from the slug).
        #[arg(long)]
        name: Option<String>,
    },
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Selection {
    /// One dealer by slug (repeatable).
    #[arg(long, value_name = "SLUG")]
    pub dealer: Vec<String>,
    /// Every dealer in the dealers folder.
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Build only shard I of N (1-based), e.g. 2/8: a stable subset so a CI matrix can spread dealers over runners.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Dealers built at once (default: fits the machine's cores and memory).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Judge sold windows and new arrivals at this moment (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    /// Write the Astro projects and data but do not run Astro.
    #[arg(long)]
    pub no_astro: bool,
}

#[derive(Debug, Args)]
pub struct CheckLinksArgs {
    /// The dealer whose site it is (its address, redirects and origins).
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// The built site (default: sites/<slug>/dist).
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// Judge the sold window (redirects) at this moment (RFC 3339) instead of now.
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Output format: human (terminal), github (workflow annotations), json.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Human,
    Github,
    Json,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 1/4")?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("shard {i}/{n} does not exist: I runs from 1 to N"));
    }
    Ok((i, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_one_based() {
        assert_eq!(parse_shard("2/8"), Ok((2, 8)));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("x").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
