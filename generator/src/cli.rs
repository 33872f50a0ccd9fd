//! Command-line interface (clap). Exit codes (docs/ARCHITECTURE.md, contract 5): 0 ok,
//! 1 build or validation failure, 2 usage error.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "dealergen",
    version,
    about = "Turns dealers/<slug>.yaml and a stock feed into a fast static dealer website.",
    after_help = "Examples:\n  dealergen check --all\n  dealergen build --dealer brisbane-motor-group\n  dealergen explain --dealer brisbane-motor-group --car BMG10849\n\nEach command's --help has examples. Every dealer field: docs/dealer-yaml.md.\nExit codes: 0 ok, 1 build or validation failure, 2 usage error."
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
    #[command(
        after_help = "Examples:\n  dealergen build --dealer brisbane-motor-group\n  dealergen build --all --shard 2/8 -j 2\n  dealergen build --dealer brisbane-motor-group --no-astro --as-of 2026-11-20"
    )]
    Build(BuildArgs),
    /// Validate dealer files without building.
    #[command(
        after_help = "Examples:\n  dealergen check --dealer brisbane-motor-group\n  dealergen check --all --format github   # annotations on the YAML lines of a pull request"
    )]
    Check(CheckArgs),
    /// What needs a person, dealer by dealer: the last build (when, result,
    /// why it failed), the release built, the cars shown, the stock feed's
    /// age and whether it stopped updating. Exit 1 when something needs a
    /// person (a failed build, a stale or missing feed, a broken dealer file).
    #[command(
        after_help = "Examples:\n  dealergen status --all\n  dealergen status --dealer brisbane-motor-group --format json\n\nIt reports what this machine can see (sites/<slug>/, the dealer files and feeds); the deployed release and the leads waiting for delivery are not read yet, and each report says so."
    )]
    Status(StatusArgs),
    /// Print the JSON Schema of the dealer YAML (or write it with --write),
    /// or the marketers' field reference with --docs.
    #[command(
        after_help = "Examples:\n  dealergen schema --write              # dealers/dealer.schema.json\n  dealergen schema --docs --write       # docs/dealer-yaml.md\n  dealergen schema --site-data --write  # astro-app/src/types/site-data.schema.json"
    )]
    Schema {
        /// Write it to its committed path (dealers/dealer.schema.json,
        /// astro-app/src/types/site-data.schema.json with --site-data, or
        /// docs/dealer-yaml.md with --docs).
        #[arg(long)]
        write: bool,
        /// The schema of the data the generator hands the Astro app
        /// (site.json, cars.json) instead of the dealer YAML.
        #[arg(long, conflicts_with = "docs")]
        site_data: bool,
        /// The field reference for marketers (Markdown), made from the same
        /// declarations as the schema and the presets' defaults.
        #[arg(long)]
        docs: bool,
    },
    /// Check a built site (dead links, page conventions) and write its
    /// _headers, _redirects, sitemap.xml and robots.txt, as `build` does
    /// before publishing. For a site built by other means, or a copy.
    #[command(after_help = "Example:\n  dealergen check-links --dealer brisbane-motor-group")]
    CheckLinks(CheckLinksArgs),
    /// Ask a dealer's built site for its old site's addresses, as
    /// Cloudflare will answer them: each a page, a redirect to a page (how
    /// many hops) or missing, with the rule that decided. Exit 1 when one
    /// is missing that `migration.accept_missing` does not accept.
    #[command(
        after_help = "Examples:\n  dealergen migrate-check --dealer brisbane-motor-group --urls old-sitemap.xml\n  dealergen migrate-check --dealer brisbane-motor-group --urls crawl.csv --format json\n\nBuild the dealer first (dealergen build --dealer X). docs/migrating.md walks through a move."
    )]
    MigrateCheck(MigrateCheckArgs),
    /// List the dealers and whether their files are valid.
    #[command(after_help = "Example:\n  dealergen list")]
    List,
    /// Stock feeds: fetch them from each dealer's stock.source.
    #[command(subcommand, after_help = "Example:\n  dealergen stock pull --all")]
    Stock(StockCommand),
    /// Why a car is, or is not, on a dealer's site: the rule that hid it, or
    /// its URL, price, tag and finance display and why, and whether each ads
    /// feed the dealer publishes carries it (and if not, why).
    #[command(
        after_help = "Examples:\n  dealergen explain --dealer brisbane-motor-group --car BMG10849\n  dealergen explain --dealer brisbane-motor-group --car 410282 --as-of 2026-11-20\n\nWith --address PATH instead of --car, the built site's answer to that address, hop by hop (docs/migrating.md)."
    )]
    Explain(ExplainArgs),
    /// What a change to a dealer's files does to its site, as Markdown for a
    /// pull-request comment: pages, cars (with the rule), buttons, promo
    /// tiles, navigation, finance display, edge settings.
    #[command(
        after_help = "Examples:\n  dealergen diff --dealer brisbane-motor-group                 # working tree against HEAD\n  dealergen diff --dealer brisbane-motor-group --base origin/main > diff.md"
    )]
    Diff(DiffArgs),
    /// The dealers whose site a change can alter since a git revision (their
    /// YAML, preset, stock feed or own folder changed, or the platform did),
    /// one slug per line: what CI builds and deploys.
    #[command(
        after_help = "Examples:\n  dealergen changed --base origin/main\n  dealergen changed --base HEAD~1 --shard 2/4    # this CI runner's part\n  dealergen changed --base origin/main --format json"
    )]
    Changed(ChangedArgs),
    // --- deploy ---
    /// Publish what `build` produced to Cloudflare: each dealer's site (a
    /// Workers static-assets worker on its host), its edge config (KV), the
    /// edge worker with its routes, pending D1 migrations; checks the worker
    /// secrets the dealers need first. Settings: config/deploy.toml;
    /// credentials: CLOUDFLARE_API_TOKEN in the environment.
    #[command(
        after_help = "Examples:\n  dealergen deploy --changed --dry-run            # what would be uploaded and changed\n  dealergen deploy --dealer brisbane-motor-group\n  dealergen deploy --edge-only                    # migrations and the edge worker, once\n  dealergen deploy --changed --no-edge --shard 2/4   # then each CI runner's dealers, if changed\n  dealergen deploy --all\n\nThe wrangler configs are written to sites/.deploy/. Exit codes: 0 ok; 1 a dealer failed, secrets are missing or nothing could be read (nothing uploaded for it); 2 usage error. See docs/deploy.md."
    )]
    Deploy(DeployArgs),
    /// Put a dealer back to its previous deployment (site worker version and
    /// edge config), from what Cloudflare keeps: works from any machine.
    #[command(
        after_help = "Examples:\n  dealergen rollback --dealer brisbane-motor-group --dry-run\n  dealergen rollback --dealer brisbane-motor-group\n\nAfter a rollback, `deploy --changed` leaves the dealer alone until a new build; `deploy --dealer` puts the newer release back."
    )]
    Rollback(RollbackArgs),
    // --- end deploy ---
    // --- `dealergen dev` (generator/src/dev) ---
    /// Preview one dealer's site on 127.0.0.1 with the edge worker behind
    /// /api, rebuilt and reloaded in the browser whenever its YAML, preset,
    /// stock feed, content folder or the templates change; problems show in
    /// the terminal and over the page. Ctrl-C stops it (and the worker).
    #[command(
        after_help = "Examples:\n  dealergen dev --dealer brisbane-motor-group              # http://127.0.0.1:4321/\n  dealergen dev --dealer brisbane-motor-group --port 0     # any free port\n  dealergen dev --dealer brisbane-motor-group --no-edge   # pages only, no worker\n\nThe worker needs scripts/install.sh (wrangler) and scripts/edge/build.sh. More: docs/dev.md."
    )]
    Dev(DevArgs),
    // --- end `dealergen dev` ---
    /// Create a new dealer file from a template preset.
    #[command(
        after_help = "Example:\n  dealergen new gold-coast-kia --template franchise-group --name \"Gold Coast Kia\""
    )]
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
    /// Build only shard I of N (1-based), e.g. 2/8: the dealers spread over N CI runners by their expected pages (from the committed stock feeds), the same split on every runner.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Dealers built at once (default: fits the machine's cores and memory).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Judge sold windows, new arrivals and offer windows at this moment
    /// (RFC 3339 or a date) instead of the start of the current hour (so
    /// builds within one hour find unchanged dealers up to date).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    /// Write the Astro projects and data but do not run Astro.
    #[arg(long)]
    pub no_astro: bool,
    /// Rebuild every selected dealer, even those whose published release
    /// was built from the same inputs (same build key).
    #[arg(long)]
    pub force: bool,
    /// Build each dealer in its own Astro run instead of batching several
    /// dealers into one run (slower; for comparison and for isolating a
    /// dealer whose build misbehaves).
    #[arg(long)]
    pub separate: bool,
}

// --- deploy ---
#[derive(Debug, Args)]
pub struct DeployArgs {
    #[command(flatten)]
    pub selection: DeploySelection,
    /// Only the dealers of shard I of N (the same split as `build --shard`).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Print what would be uploaded and changed and write the wrangler
    /// configs, without uploading or changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Leave the D1 migrations and the edge worker alone (a CI shard's
    /// run, after one `--edge-only` run deployed them).
    #[arg(long, conflicts_with = "edge_only")]
    pub no_edge: bool,
    /// The deploy settings (default: config/deploy.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Upload the selected dealers' builds as Worker Previews named NAME
    /// (e.g. pr-123; dealers not built here are skipped), printing each
    /// preview's URL: production's versions, routes and KV are not touched;
    /// a preview's API is the previews' edge worker (`[preview]` of the
    /// deploy settings), where its leads reach nobody (docs/deploy.md).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["changed", "edge_only", "no_edge"])]
    pub preview: Option<String>,
    /// With --preview: delete the previews of that name (when the pull
    /// request closes).
    #[arg(long, requires = "preview")]
    pub remove: bool,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct DeploySelection {
    /// One dealer by slug (repeatable).
    #[arg(long, value_name = "SLUG")]
    pub dealer: Vec<String>,
    /// Every dealer in the dealers folder.
    #[arg(long)]
    pub all: bool,
    /// Only dealers whose build key differs from the one deployed (read
    /// remotely, so it works on a fresh CI runner); dealers not built here are skipped.
    #[arg(long)]
    pub changed: bool,
    /// No dealer: only the pending D1 migrations and the edge worker (if
    /// changed). CI runs this once before the shards deploy with --no-edge.
    #[arg(long)]
    pub edge_only: bool,
}

#[derive(Debug, Args)]
pub struct RollbackArgs {
    /// The dealer, by slug.
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// Print what would change, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The deploy settings (default: config/deploy.toml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}
// --- end deploy ---

#[derive(Debug, Subcommand)]
pub enum StockCommand {
    /// Fetch each dealer's feed from stock.source (HTTPS or a file), check it
    /// with the build's decoder and put it in place of stock.feed. A feed
    /// that does not parse, or would show more than
    /// stock.source.max_drop_percent fewer cars, is refused and the previous
    /// one kept (exit 1).
    #[command(
        after_help = "Examples:\n  dealergen stock pull --dealer brisbane-motor-group\n  dealergen stock pull --all --format json    # one result per dealer, for CI\n  dealergen stock pull --dealer brisbane-motor-group --accept-drop\n\nExit codes: 0 every feed updated or unchanged; 1 a feed was refused or could not be fetched (its previous feed is kept); 2 usage error."
    )]
    Pull(PullArgs),
}

#[derive(Debug, Args)]
pub struct PullArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Take the new feed even when it shows more than
    /// stock.source.max_drop_percent fewer cars than the current one.
    #[arg(long)]
    pub accept_drop: bool,
    /// Count the cars the site shows (for the drop guard) at this moment (RFC 3339 or a date) instead of the start of the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    /// Output format: human (terminal) or json (one result per dealer).
    #[arg(long, value_enum, default_value_t = PullFormat::Human)]
    pub format: PullFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PullFormat {
    Human,
    Json,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The dealer, by slug.
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// The car: its stock number, feed id or slug.
    #[arg(
        long,
        value_name = "STOCKNUM|ID",
        required_unless_present = "address",
        conflicts_with = "address"
    )]
    pub car: Option<String>,
    /// Instead of a car, an address (an old one, or the site's own): what the built site answers and each rule on the way, as `migrate-check` asks it.
    #[arg(long, value_name = "PATH|URL")]
    pub address: Option<String>,
    /// Judge the sold window and new arrivals at this moment (RFC 3339 or a date) instead of the start of the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The dealer, by slug.
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// The git revision to compare the working tree with (a branch, tag or commit).
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub base: String,
    /// Judge the sold window and promo windows at this moment (RFC 3339 or a date) instead of the start of the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    /// markdown: the pull request comment; json: the pages the diff says
    /// change (car pages changed, added and removed; other pages added and
    /// removed), for tools and tests.
    #[arg(long, value_enum, default_value_t = DiffFormat::Markdown)]
    pub format: DiffFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct ChangedArgs {
    /// The git revision to compare the working tree with.
    #[arg(long, value_name = "REV")]
    pub base: String,
    /// Only the changed dealers of shard I of N (the same split as `build --shard`).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// lines: one slug per line; json: each dealer with the file that changed it.
    #[arg(long, value_enum, default_value_t = PullFormat::Human)]
    pub format: PullFormat,
}

// --- `dealergen dev` (generator/src/dev) ---
#[derive(Debug, Args)]
pub struct DevArgs {
    /// The dealer to preview, by slug.
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// Port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 4321)]
    pub port: u16,
    /// Serve the pages only: no local worker, /api answers 503.
    #[arg(long)]
    pub no_edge: bool,
    /// Serve the last good build, exactly as it would be published (with
    /// its Content-Security-Policy), rebuilt whole after each save, instead
    /// of live pages rendered on request by `astro dev` (a save shows in
    /// about a second; the full build runs after it to check).
    #[arg(long)]
    pub built: bool,
    /// Judge sold windows and new arrivals at this moment (RFC 3339 or a date) instead of the start of the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}
// --- end `dealergen dev` ---

#[derive(Debug, Args)]
pub struct CheckLinksArgs {
    /// The dealer whose site it is (its address, redirects and origins).
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// The built site (default: sites/<slug>/dist).
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// Judge the sold window (redirects) at this moment (RFC 3339) instead of the start of the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

#[derive(Debug, Args)]
pub struct MigrateCheckArgs {
    /// The dealer moving onto the platform.
    #[arg(long, value_name = "SLUG")]
    pub dealer: String,
    /// The old site's addresses: its sitemap.xml, a crawler's CSV export (a URL or Address column), or one address a line; full URLs or paths.
    #[arg(long, value_name = "FILE")]
    pub urls: PathBuf,
    /// The built site (default: sites/<slug>/dist).
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// Output format: human (terminal), github (workflow annotations on the list's lines), json (an array of {url, answer, to, rule, hops, chain, accepted}).
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Output format: human (terminal), github (workflow annotations), json.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Judge dated content (a promo tile whose window has ended is warned
    /// about) at this moment (RFC 3339 or a date) instead of the start of
    /// the current hour (the instant a build judges at).
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub selection: Selection,
    /// Output format: human (terminal) or json.
    #[arg(long, value_enum, default_value_t = PullFormat::Human)]
    pub format: PullFormat,
    /// Judge the feed's age at this moment (RFC 3339 or a date) instead of now.
    #[arg(long, value_name = "TIME")]
    pub as_of: Option<String>,
    /// The deployment settings naming the Cloudflare account (default:
    /// config/deploy.toml); with CLOUDFLARE_API_TOKEN set, the deployed
    /// release and the leads not delivered are read from it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
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

    /// Every command's --help shows how to call it.
    #[test]
    fn every_command_has_an_example_in_its_help() {
        use clap::CommandFactory;
        fn walk(cmd: &mut clap::Command, path: &str, missing: &mut Vec<String>) {
            let help = cmd.render_help().to_string();
            if !help.contains("Example") {
                missing.push(path.to_string());
            }
            for sub in cmd.get_subcommands_mut() {
                if sub.get_name() == "help" {
                    continue;
                }
                let name = format!("{path} {}", sub.get_name());
                walk(sub, &name, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&mut Cli::command(), "dealergen", &mut missing);
        assert!(
            missing.is_empty(),
            "no example in the --help of: {missing:?}"
        );
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
