//! Building one dealer: load and check the config, read and filter the
//! stock, write the Astro project and its data, run Astro, publish `dist/`,
//! and write the edge config the worker reads.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use dealer_config::{Loader, Rejected};
use dealer_rules::edge_config::{
    EdgeAnalytics, EdgeCaptcha, EdgeCar, EdgeCheckout, EdgeConfig, EdgeFeatures, EdgeFinance,
    EdgeForms, EdgeLocation, EdgePayment, EdgeQuoteProvider, EdgeTradeIn, EdgeValuationService,
    LeadRouting, PaymentProvider,
};

use crate::project::Project;
use crate::render::{self, TemplateContext};
use crate::site_data;
use crate::stock::{self, feed, present};

#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The moment visibility and new-arrival rules are judged at.
    pub now: DateTime<Utc>,
    /// Write the Astro project and data but do not run Astro.
    pub skip_astro: bool,
}

/// Whether an up-to-date dealer (same inputs or build key as its current
/// release) is built anyway (`build --force`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rebuild {
    /// Only when something changed.
    IfChanged,
    /// Always.
    Force,
}

/// What a successful build did.
#[derive(Debug)]
pub struct BuildReport {
    pub slug: String,
    pub dist: Option<PathBuf>,
    pub cars_visible: usize,
    pub cars_hidden: usize,
    pub warnings: Warnings,
    pub pages: usize,
    /// Pages Astro reused from its page cache (unchanged route code and
    /// props) instead of rendering them again.
    pub reused_pages: usize,
    /// The publish step's figures (links checked, sitemap, CSP), when Astro ran.
    pub publish: Option<crate::publish::PublishReport>,
    /// The published release (its id under `releases/`), when Astro ran or
    /// the site was already up to date.
    pub release: Option<String>,
    /// The published release already had this build's key: nothing was rebuilt.
    pub cached: bool,
    pub elapsed: Duration,
}

/// What a build that read the stock warns about, whether the site was
/// published or not: counted and printed per dealer, the feed's part also
/// written to `stock-feed-report.txt`.
#[derive(Debug, Default)]
pub struct Warnings {
    /// Feed records skipped for lack of a car page's essentials.
    pub skipped: usize,
    /// Fields (and photos) left out of cars that were kept.
    pub feed_warnings: usize,
    /// Every warning as printed: the dealer file's, then the feed's
    /// (skipped records first), then the build's own, each naming the dealer.
    pub lines: Vec<String>,
    /// All feed problems of this build, one per line (written when there are any).
    pub feed_report: Option<PathBuf>,
}

/// Why a dealer did not build.
#[derive(Debug)]
pub enum BuildFailure {
    /// The dealer file has problems (all of them are listed).
    Invalid(Box<Rejected>),
    /// Anything after validation, before the stock was read and the
    /// site's data generated: the feed file itself, the inputs, the disk.
    Failed(anyhow::Error),
    /// The stock was read and the data generated, but the site was not
    /// published (Astro, a check before publishing, the disk); the
    /// previous site stays. The feed's problems are reported all the
    /// same: a dealer fixing their feed needs them most when nothing
    /// publishes.
    Unpublished {
        error: anyhow::Error,
        warnings: Box<Warnings>,
    },
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildFailure::Invalid(r) => {
                let n = r
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == dealer_config::Severity::Error)
                    .count();
                write!(
                    f,
                    "{n} problem(s) in the dealer file; run `dealergen check --dealer {}`",
                    r.slug
                )
            }
            BuildFailure::Failed(e) | BuildFailure::Unpublished { error: e, .. } => {
                write!(f, "{e:#}")
            }
        }
    }
}

/// Builds one dealer on its own: its own Astro run (see
/// the `batch` module for several dealers in one run).
pub fn build_dealer(
    project: &Project,
    dealer_file: &Path,
    opts: &BuildOptions,
    step: &dyn Fn(&str),
) -> Result<BuildReport, BuildFailure> {
    let shared = crate::cache::SharedKey::compute(project).map_err(BuildFailure::Failed)?;
    let prepared = prepare(
        project,
        dealer_file,
        opts,
        Rebuild::IfChanged,
        &shared,
        step,
    )?;
    build_prepared(project, prepared, step)
}

/// Builds a prepared dealer in its own Astro run (nothing to do when it
/// is cached or --no-astro), checks and publishes it.
pub fn build_prepared(
    project: &Project,
    prepared: Prepared,
    step: &dyn Fn(&str),
) -> Result<BuildReport, BuildFailure> {
    let run = || -> Result<Option<Published>> {
        if !matches!(prepared.state, State::Stale) {
            return Ok(None);
        }
        prepared.write_project(project)?;
        let staged = crate::release::stage(&prepared.site_dir)?;
        prepared.write_edge_files(staged.dir())?;
        step("astro build");
        let reused =
            crate::astro::run(project, &prepared.site_dir, &staged.dist(), prepared.force)?;
        step("checking links");
        let report_file = prepared.site_dir.join("publish-problems.txt");
        let checked = prepared.publish_checks(&staged, &report_file)?;
        step("publishing");
        Ok(Some(prepared.publish(staged, checked, reused)?))
    };
    match run() {
        Ok(published) => prepared.report(published).map_err(BuildFailure::Failed),
        Err(e) => Err(prepared.unpublished(e)),
    }
}

/// A dealer loaded, generated and keyed, before Astro runs.
pub struct Prepared {
    pub slug: String,
    dealer: dealer_config::LoadedDealer,
    /// The generated data (none when the inputs key showed the dealer
    /// unchanged, so nothing was generated).
    generated: Option<Generated>,
    pub site_dir: PathBuf,
    /// Files (relative to dist) every build of this dealer must produce.
    pub must_exist: Vec<String>,
    /// The build key (empty with --no-astro).
    pub key: String,
    /// The inputs key (empty with --no-astro).
    pub inputs_key: String,
    pub state: State,
    /// `build --force`: Astro also ignores its page cache (`astro build --force`).
    force: bool,
    started: Instant,
}

/// What a prepared dealer still needs.
pub enum State {
    /// `--no-astro`: the project is written, nothing is published.
    NoAstro,
    /// The current release has this build key.
    Cached(crate::release::ReleaseInfo),
    /// The current release was generated from the same inputs: nothing
    /// was generated, its summary is reported.
    Unchanged(crate::release::ReleaseInfo, crate::release::Summary),
    /// Astro must run.
    Stale,
}

/// What publishing a newly built release did.
pub struct Published {
    pub release: String,
    pub pages: usize,
    /// Of those, the pages Astro copied from its page cache, unchanged.
    pub reused: usize,
    pub publish: crate::publish::PublishReport,
}

/// Loads and checks the dealer, generates its data, computes its build
/// key and compares it with the published release's. With `--no-astro`
/// the project is written here.
pub fn prepare(
    project: &Project,
    dealer_file: &Path,
    opts: &BuildOptions,
    rebuild: Rebuild,
    shared: &crate::cache::SharedKey,
    step: &dyn Fn(&str),
) -> Result<Prepared, BuildFailure> {
    let started = Instant::now();
    step("checking config");
    let loader = Loader::new(project.presets_dir());
    let dealer = loader
        .load(dealer_file)
        .map_err(|r| BuildFailure::Invalid(Box::new(r)))?;
    prepare_loaded(project, dealer, opts, rebuild, shared, step, started)
}

fn prepare_loaded(
    project: &Project,
    dealer: dealer_config::LoadedDealer,
    opts: &BuildOptions,
    rebuild: Rebuild,
    shared: &crate::cache::SharedKey,
    step: &dyn Fn(&str),
    started: Instant,
) -> Result<Prepared, BuildFailure> {
    let force = rebuild == Rebuild::Force;
    let site_dir = project.site_dir(&dealer.slug);
    let content_dir = dealer.dir().join(&dealer.slug);
    let mut inputs_key = String::new();
    if !opts.skip_astro {
        step("hashing inputs");
        let feed = dealer.dir().join(&dealer.config.stock.feed);
        inputs_key = crate::cache::inputs_key(
            shared,
            &dealer.path,
            &content_dir,
            &feed,
            opts.now.timestamp(),
        )
        .map_err(BuildFailure::Failed)?;
        let unchanged = crate::release::current_inputs(&site_dir)
            .filter(|(key, _)| *key == inputs_key && !force)
            .and_then(|(_, summary)| Some((crate::release::current_info(&site_dir)?, summary)));
        if let Some((info, summary)) = unchanged {
            return Ok(Prepared {
                slug: dealer.slug.clone(),
                dealer,
                generated: None,
                site_dir,
                must_exist: Vec::new(),
                key: info.key.clone(),
                inputs_key,
                state: State::Unchanged(info, summary),
                force,
                started,
            });
        }
    }
    step("reading stock");
    let generated =
        generate(&dealer, &project.public_dir(), opts.now).map_err(BuildFailure::Failed)?;
    // Every page the site data promises (crate::pages), so the page
    // list `dealergen diff` compares is the one Astro really made.
    let must_exist: Vec<String> = generated
        .pages
        .iter()
        .map(|p| crate::pages::dist_file(p))
        .collect();
    let mut prepared = Prepared {
        slug: dealer.slug.clone(),
        dealer,
        generated: Some(generated),
        site_dir,
        must_exist,
        key: String::new(),
        inputs_key,
        state: State::Stale,
        force,
        started,
    };
    // From here on a failure still reports the feed's problems.
    let finish = |prepared: &mut Prepared| -> Result<()> {
        if opts.skip_astro {
            step("writing project");
            prepared.write_project(project)?;
            // Not a release: the worker's files of this generation go to
            // generated/, so the published release's stay as they are.
            let generated = prepared.site_dir.join(GENERATED_DIR);
            std::fs::create_dir_all(&generated)
                .with_context(|| format!("cannot create {}", generated.display()))?;
            prepared.write_edge_files(&generated)?;
            prepared.state = State::NoAstro;
            return Ok(());
        }
        prepared.key =
            crate::cache::dealer_key(shared, &prepared.generated().files, &prepared.must_exist);
        let published = crate::release::current_info(&prepared.site_dir);
        if let Some(info) = published.filter(|info| info.key == prepared.key && !force) {
            // Up to date. The project's data is refreshed only if something
            // else (a --no-astro run) rewrote it, so the project matches the
            // published site.
            refresh_data(&prepared.site_dir, &prepared.data())?;
            prepared.state = State::Cached(info);
        }
        Ok(())
    };
    match finish(&mut prepared) {
        Ok(()) => Ok(prepared),
        Err(e) => Err(prepared.unpublished(e)),
    }
}

impl Prepared {
    fn generated(&self) -> &Generated {
        self.generated
            .as_ref()
            .expect("a dealer to build has its generated data")
    }

    /// The files of `src/data/` the pages read.
    pub fn data(&self) -> Vec<(&'static str, String)> {
        self.generated()
            .files
            .iter()
            .filter(|(name, _)| DATA_FILES.contains(name))
            .map(|(name, text)| (*name, text.clone()))
            .collect()
    }

    /// Pages Astro will make for this dealer (for sizing batches).
    pub fn page_count(&self) -> usize {
        self.must_exist.len()
    }

    /// Writes the dealer's own Astro project (sites/<slug>/).
    pub fn write_project(&self, project: &Project) -> Result<()> {
        write_project(project, &self.site_dir, &self.slug, &self.data())
    }

    /// The worker's config and KV entries, into `dir`.
    pub fn write_edge_files(&self, dir: &Path) -> Result<()> {
        for (name, text) in self
            .generated()
            .files
            .iter()
            .filter(|(name, _)| name.starts_with("edge-"))
        {
            std::fs::write(dir.join(name), text).with_context(|| format!("cannot write {name}"))?;
        }
        Ok(())
    }

    /// The checks a built site passes before it is published, on the
    /// staged release: every promised page, the finance compliance check,
    /// then the publish step (links, sitemap, headers, redirects). Pages
    /// the current release has byte for byte are not parsed again
    /// (`publish::known`); the staged release records its pages for the
    /// next build.
    pub fn publish_checks(
        &self,
        staged: &crate::release::Staged,
        report_file: &Path,
    ) -> Result<crate::publish::PublishReport> {
        use crate::publish::known::{self, KnownPages};
        let started = Instant::now();
        let dist = staged.dist();
        crate::astro::check_promised(&dist, &self.must_exist)?;
        let pages = known::read_pages(&dist)?;
        let mut known = crate::release::current_dir(&self.site_dir)
            .map(|dir| KnownPages::load(&dir))
            .unwrap_or_default();
        // A finance advertisement without its comparison rate
        // keeps the published site (generator/src/compliance.rs).
        let compliance = Instant::now();
        let unknown = pages
            .iter()
            .filter(|p| !known.contains(&p.hash))
            .map(|p| (p.file.as_str(), p.text.as_str()));
        let pages_known = pages.len() - unknown.clone().count();
        crate::compliance::check_pages(&self.slug, unknown).map_err(anyhow::Error::new)?;
        let compliance = compliance.elapsed();
        let mut report = crate::publish::finish(
            &dist,
            &self.generated().plan.plan,
            report_file,
            &pages,
            &mut known,
        )
        .map_err(|e| anyhow::anyhow!("{e:#}\nthe previous site was kept"))?;
        known.save(staged.dir(), &pages)?;
        report.compliance = compliance;
        report.pages_known = pages_known;
        report.checks = started.elapsed();
        Ok(report)
    }

    /// Makes the checked, staged release current.
    pub fn publish(
        &self,
        staged: crate::release::Staged,
        checked: crate::publish::PublishReport,
        reused: usize,
    ) -> Result<Published> {
        let pages = count_pages(&staged.dist());
        let summary = self.summary();
        let release = staged.publish_with(
            &self.slug,
            &self.key,
            Utc::now(),
            pages,
            Some((&self.inputs_key, &summary)),
        )?;
        Ok(Published {
            release,
            pages,
            reused,
            publish: checked,
        })
    }

    /// Every warning of the build as printed: the dealer file's, the
    /// feed's (skipped records first, photos left out among them), the
    /// build's own.
    fn warnings(&self) -> Vec<String> {
        let Some(generated) = &self.generated else {
            return Vec::new();
        };
        let dealer = &self.dealer;
        let mut warnings: Vec<String> = dealer
            .warnings
            .iter()
            .map(|d| format!("{}:{}: {}", d.file.display(), d.line, d.message))
            .collect();
        warnings.extend(self.feed_lines());
        warnings.extend(
            generated
                .build_warnings
                .iter()
                .map(|w| format!("{}: {w}", dealer.slug)),
        );
        warnings
    }

    fn feed_lines(&self) -> Vec<String> {
        let Some(generated) = &self.generated else {
            return Vec::new();
        };
        generated
            .skipped
            .iter()
            .map(ToString::to_string)
            .chain(generated.feed_warnings.iter().map(ToString::to_string))
            .map(|line| {
                format!(
                    "{}: stock feed {}: {line}",
                    self.slug, self.dealer.config.stock.feed
                )
            })
            .collect()
    }

    /// The failure of a build that did not publish after generating:
    /// the feed report is written and the warnings go with the error.
    pub fn unpublished(self, error: anyhow::Error) -> BuildFailure {
        if self.generated.is_none() {
            return BuildFailure::Failed(error);
        }
        let mut lines = self.warnings();
        let feed_report =
            write_feed_report(&self.site_dir, &self.feed_lines()).unwrap_or_else(|e| {
                lines.push(format!("{}: {e:#}", self.slug));
                None
            });
        let generated = self.generated.expect("checked above");
        BuildFailure::Unpublished {
            error,
            warnings: Box::new(Warnings {
                skipped: generated.skipped.len(),
                feed_warnings: generated.feed_warnings.len(),
                lines,
                feed_report,
            }),
        }
    }

    /// What a later build that finds this dealer unchanged reports.
    fn summary(&self) -> crate::release::Summary {
        let generated = self.generated();
        crate::release::Summary {
            cars_visible: generated.cars.len(),
            cars_hidden: generated.hidden,
            skipped: generated.skipped.len(),
            feed_warnings: generated.feed_warnings.len(),
            warnings: self.warnings(),
        }
    }

    /// The build's report: warnings, feed report, what was published.
    pub fn report(self, published: Option<Published>) -> Result<BuildReport> {
        let dist = Some(self.site_dir.join("dist"));
        if let State::Unchanged(info, summary) = &self.state {
            // Nothing generated: the release's own summary; the feed
            // report of its build is still in place.
            let feed_report =
                Some(self.site_dir.join("stock-feed-report.txt")).filter(|p| p.is_file());
            return Ok(BuildReport {
                slug: self.slug.clone(),
                dist,
                cars_visible: summary.cars_visible,
                cars_hidden: summary.cars_hidden,
                warnings: Warnings {
                    skipped: summary.skipped,
                    feed_warnings: summary.feed_warnings,
                    lines: summary.warnings.clone(),
                    feed_report,
                },
                pages: info.pages,
                reused_pages: 0,
                publish: None,
                release: Some(info.release.clone()),
                cached: true,
                elapsed: self.started.elapsed(),
            });
        }
        let warnings = self.warnings();
        let feed_report = write_feed_report(&self.site_dir, &self.feed_lines())?;
        if let State::Cached(_) = &self.state {
            // The build key matched under new inputs: the next build with
            // these inputs need not generate anything.
            crate::release::set_current_inputs(&self.site_dir, &self.inputs_key, &self.summary())?;
        }
        let Prepared {
            slug,
            generated,
            state,
            started,
            ..
        } = self;
        let generated = generated.expect("generated unless unchanged");
        let (dist, pages, reused_pages, publish, release, cached) = match (state, published) {
            (State::NoAstro, _) => (None, 0, 0, None, None, false),
            (State::Cached(info), _) => (dist, info.pages, 0, None, Some(info.release), true),
            (State::Stale, Some(p)) => (
                dist,
                p.pages,
                p.reused,
                Some(p.publish),
                Some(p.release),
                false,
            ),
            (State::Stale, None) => anyhow::bail!("{slug}: built but not published"),
            (State::Unchanged(..), _) => unreachable!("returned above"),
        };
        Ok(BuildReport {
            slug,
            dist,
            cars_visible: generated.cars.len(),
            cars_hidden: generated.hidden,
            warnings: Warnings {
                skipped: generated.skipped.len(),
                feed_warnings: generated.feed_warnings.len(),
                lines: warnings,
                feed_report,
            },
            pages,
            reused_pages,
            publish,
            release,
            cached,
            elapsed: started.elapsed(),
        })
    }
}

/// Where `--no-astro` writes the worker's files (edge-config.json,
/// edge-kv.json): beside the project, outside the published release.
pub const GENERATED_DIR: &str = "generated";

fn write_project(
    project: &Project,
    site_dir: &Path,
    slug: &str,
    data: &[(&str, String)],
) -> Result<()> {
    let ctx = TemplateContext {
        project: slug.to_string(),
    };
    render::write_project(project, site_dir, &ctx, data)
}

/// Rewrites the project's data files whose text differs from `data`.
fn refresh_data(site_dir: &Path, data: &[(&str, String)]) -> Result<()> {
    for (name, text) in data {
        let path = site_dir.join("src/data").join(name);
        if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
            render::write_file(&path, text.as_bytes())?;
        }
    }
    Ok(())
}

/// HTML pages in a built site.
pub fn count_pages(dist: &Path) -> usize {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .count()
}

/// The files of `src/data/` the pages read; the other generated files go next to the project.
pub const DATA_FILES: [&str; 3] = ["site.json", "cars.json", "search-index.json"];

/// Everything a build derives from the dealer and its stock before Astro
/// runs, in memory: what `build_dealer` writes, what `dealergen diff`
/// compares between two revisions, and what the config-field test
/// compares (every documented field must change some of it).
pub struct Generated {
    pub site: site_data::SiteData,
    /// The visible cars as the pages show them.
    pub cars: Vec<present::Car>,
    /// (file name, text): site.json, cars.json, search-index.json (the
    /// pages' data), edge-config.json and edge-kv.json (the worker's),
    /// redirects.txt (the sold-car redirects the publish step writes).
    pub files: Vec<(&'static str, String)>,
    /// The worker's configuration (also in `files` as edge-config.json).
    pub edge: EdgeConfig,
    pub plan: PlannedPublish,
    /// Paths of every page the site has (`crate::pages`).
    pub pages: Vec<String>,
    pub skipped: Vec<feed::SkippedRecord>,
    pub feed_warnings: Vec<feed::FeedWarning>,
    /// Warnings of the build itself (links left out, redirects that did not fit).
    pub build_warnings: Vec<String>,
    /// Cars of the feed the site does not show (incl. other dealerships).
    pub hidden: usize,
}

impl Generated {
    /// One generated file's text (see [`Generated::files`]).
    pub fn file(&self, name: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
    }
}

/// Reads the stock and resolves everything the site and the worker get.
/// `public` holds the site's public files (`astro-app/public`, see
/// [`Project::public_dir`]): a shown car's photo named by a site path that
/// is not there is left out of the car, with a feed warning.
pub fn generate(
    dealer: &dealer_config::LoadedDealer,
    public: &Path,
    now: DateTime<Utc>,
) -> Result<Generated> {
    let cfg = &dealer.config;
    let feed_path = dealer.dir().join(&cfg.stock.feed);
    if !feed_path.exists() && cfg.stock.source.is_some() {
        anyhow::bail!(
            "the stock feed {} is not there yet: run `dealergen stock pull --dealer {}` first",
            feed_path.display(),
            dealer.slug
        );
    }
    let mut feed = feed::load(&feed_path)?;
    let skipped = std::mem::take(&mut feed.skipped);
    let mut feed_warnings = std::mem::take(&mut feed.warnings);
    let mut selection = stock::select(feed, cfg, now);
    let mut build_warnings: Vec<String> = Vec::new();
    feed_warnings.append(&mut selection.warnings);
    // Before any page or the search index names them (crate::photos).
    feed_warnings.extend(crate::photos::drop_missing_local_photos(
        &mut selection.visible,
        &cfg.images,
        public,
    ));
    let mut cars: Vec<present::Car> = selection
        .visible
        .iter()
        .map(|c| present::present(c, cfg, now))
        .collect();
    stock::detail::attach_similar(&mut cars, cfg);
    let hidden = selection.hidden.values().sum::<usize>() + selection.other_dealership;

    let mut site = site_data::build_with_pages(&dealer.slug, cfg, &cars, &dealer.pages, now);
    site.logo_size = site_data::logo::intrinsic_size(public, &site.theme.logo);
    let car_slugs = cars.iter().map(|c| c.slug.clone()).collect();
    let settled = site_data::pages::settle_links(&mut site, &car_slugs);
    let mut link_errors = settled.errors;
    link_errors.extend(site_data::pages::unmatched_gated_routes(&site, &car_slugs));
    if !link_errors.is_empty() {
        anyhow::bail!(
            "{} link(s) or gated route(s) in {} lead to no page:\n  {}",
            link_errors.len(),
            dealer.path.display(),
            link_errors.join("\n  ")
        );
    }
    build_warnings.extend(settled.warnings);
    let plan = publish_plan(&dealer.slug, cfg, &site, &cars, &selection.gone);
    if plan.left_out > 0 {
        build_warnings.push(format!(
            "{} sold car(s) past the window get no redirect: _redirects holds {} static rules, shared with the old platform's addresses (the most recent sales are kept)",
            plan.left_out,
            crate::publish::redirects::MAX_REDIRECTS
        ));
    }
    let pages = crate::pages::page_paths(&site, &cars);
    let edge = edge_config(&dealer.slug, cfg);
    let kv = edge_kv(&edge, &edge_cars(cfg, &cars))?;
    let files = vec![
        ("site.json", serde_json::to_string_pretty(&site)?),
        ("cars.json", serde_json::to_string(&cars)?),
        (
            "search-index.json",
            serde_json::to_string(&crate::search_index::build(
                &cars,
                &crate::search_index::IndexContext {
                    dealer_slug: &dealer.slug,
                    dealer_name: &cfg.name,
                    new_arrival_text: &cfg.copy.new_arrival_text,
                },
            ))?,
        ),
        ("edge-config.json", serde_json::to_string_pretty(&edge)?),
        ("edge-kv.json", serde_json::to_string_pretty(&kv)?),
        (
            "redirects.txt",
            crate::publish::redirects::render(&plan.plan.redirects),
        ),
    ];
    Ok(Generated {
        site,
        cars,
        files,
        edge,
        plan,
        pages,
        skipped,
        feed_warnings,
        build_warnings,
        hidden,
    })
}

pub struct PlannedPublish {
    pub plan: crate::publish::PublishPlan,
    pub left_out: usize,
}

/// What the publish step needs besides the built pages: the sold-car
/// redirects and the origins the site's scripts reach at run time.
pub fn publish_plan(
    slug: &str,
    cfg: &dealer_config::DealerConfig,
    site: &site_data::SiteData,
    cars: &[present::Car],
    gone: &[crate::stock::GoneCar],
) -> PlannedPublish {
    use crate::publish::headers::origin_of;
    let landings: std::collections::HashSet<String> = site
        .search
        .landing_pages
        .iter()
        .map(|l| l.path.clone())
        .collect();
    let live: std::collections::HashSet<&str> = cars.iter().map(|c| c.slug.as_str()).collect();
    let site_pages: std::collections::HashSet<String> = site.pages.iter().cloned().collect();
    let legacy =
        crate::publish::redirects::legacy_addresses(&site_pages, cfg.manufacturer.as_deref());
    let static_legacy = legacy
        .iter()
        .filter(|r| !crate::publish::redirects::is_dynamic(r))
        .count();
    let room = crate::publish::redirects::MAX_REDIRECTS.saturating_sub(static_legacy);
    let (mut redirects, left_out) =
        crate::publish::redirects::sold_cars(gone, &landings, &live, room);
    // Static rules (sold cars, old addresses) before the dynamic ones.
    let (dynamic, fixed): (Vec<_>, Vec<_>) = legacy
        .into_iter()
        .partition(crate::publish::redirects::is_dynamic);
    redirects.extend(fixed);
    redirects.extend(dynamic);
    redirects.extend(crate::publish::redirects::retired_pages());
    let mut runtime = crate::publish::headers::RuntimeOrigins::default();
    // The edge API (leads, watchlist, quotes...) and, when hosted, the search service.
    if let Some(api) = origin_of(&cfg.edge.api_base) {
        runtime.connect.insert(api.clone());
        runtime.forms.insert(api);
    }
    if let Some(hosted) = &site.search.hosted {
        if let Some(o) = origin_of(&format!("https://{}", hosted.host)) {
            runtime.connect.insert(o);
        }
    }
    // Car photos (search results and the watchlist render them in islands),
    // and the configured images.
    let images = cars
        .iter()
        .flat_map(|c| c.images.iter())
        .chain(site.search.promo_tiles.iter().map(|t| &t.image))
        .chain(std::iter::once(&site.theme.logo));
    runtime.images.extend(images.filter_map(|u| origin_of(u)));
    // The captcha widget (lib/forms/turnstile.ts) loads its script and its
    // challenge frame from Cloudflare, on the pages with a form.
    if site.forms.captcha_site_key.is_some() {
        let turnstile = "https://challenges.cloudflare.com".to_string();
        runtime.scripts.insert(turnstile.clone());
        runtime.frames.insert(turnstile);
    }
    PlannedPublish {
        plan: crate::publish::PublishPlan {
            dealer: slug.to_string(),
            origin: cfg.site_url.clone(),
            redirects,
            runtime,
        },
        left_out,
    }
}

/// Writes every feed problem to `stock-feed-report.txt` in the site folder
/// (a big feed can have more than a terminal should show), or removes the
/// report of an earlier build when there are none.
fn write_feed_report(site_dir: &Path, lines: &[String]) -> Result<Option<PathBuf>> {
    let path = site_dir.join("stock-feed-report.txt");
    if lines.is_empty() {
        if path.exists() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
        return Ok(None);
    }
    std::fs::write(&path, lines.join("\n") + "\n")
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Some(path))
}

/// The facts the edge worker needs (rules/src/edge_config.rs).
pub fn edge_config(slug: &str, cfg: &dealer_config::DealerConfig) -> EdgeConfig {
    let origins = std::iter::once(&cfg.site_url)
        .chain(&cfg.edge.extra_origins)
        .map(|o| dealer_rules::edge_config::normalize_origin(o))
        .collect();
    EdgeConfig {
        dealer: slug.to_string(),
        name: cfg.name.clone(),
        origins,
        locations: cfg
            .locations
            .iter()
            .map(|l| EdgeLocation {
                id: l.id.clone(),
                name: l.name.clone(),
                phone: l.phone.clone(),
                lead_email: l.lead_email.clone(),
            })
            .collect(),
        leads: LeadRouting {
            email: cfg.leads.email.clone(),
            webhook_url: cfg.leads.webhook_url.clone(),
        },
        features: EdgeFeatures {
            watchlist: cfg.features.watchlist,
            phone_reveal: cfg.features.phone_reveal,
            trade_in: cfg.features.trade_in,
        },
        dealership_id: cfg.dealership_id,
        forms: EdgeForms {
            message_required: cfg.forms.message_required,
            terms_required: cfg.forms.terms_required,
            success_path: cfg.forms.success_path.clone(),
            // The check makes captcha-on-without-a-widget an error; the
            // filter only keeps a stray widget of a dealer with captcha off
            // from switching the captcha on.
            captcha: cfg
                .forms
                .turnstile
                .as_ref()
                .filter(|_| cfg.features.captcha)
                .map(|t| EdgeCaptcha {
                    secret_name: t.secret_name.clone(),
                }),
        },
        finance: EdgeFinance {
            // Only the URL and the secret's NAME: the key itself is a worker
            // secret and never appears in generated output.
            quote_provider: cfg
                .finance
                .quote_provider
                .as_ref()
                .map(|q| EdgeQuoteProvider {
                    url: q.url.clone(),
                    secret_name: q.secret_name.clone(),
                }),
        },
        analytics: EdgeAnalytics {
            enabled: cfg.edge.analytics_sink,
        },
        rate_limits: cfg.edge.rate_limits.resolve(),
        checkout: EdgeCheckout {
            enabled: cfg.features.checkout.enabled,
            path: match cfg.features.checkout.path {
                dealer_config::model::CheckoutPath::Checkout => "checkout".into(),
                dealer_config::model::CheckoutPath::BuyOnline => "buy-online".into(),
            },
            hold_hours: cfg.features.checkout.hold_hours,
            payment: cfg.features.checkout.payment.as_ref().map(|p| EdgePayment {
                provider: match p.provider {
                    dealer_config::model::PaymentProvider::Stripe => PaymentProvider::Stripe,
                },
                secret_name: p.secret_name.clone(),
                webhook_secret_name: p.webhook_secret_name.clone(),
            }),
        },
        trade_in: EdgeTradeIn {
            valuation: cfg
                .trade_in
                .valuation
                .as_ref()
                .map(|v| EdgeValuationService {
                    url: v.url.clone(),
                    secret_name: v.secret_name.clone(),
                }),
            save_valuation: cfg.trade_in.save_valuation,
        },
    }
}

/// What the worker knows of each visible car: the facts a lead's vehicle
/// is filled from and whether it may be reserved, as the car's page shows
/// them.
pub fn edge_cars(
    cfg: &dealer_config::DealerConfig,
    cars: &[crate::stock::present::Car],
) -> Vec<EdgeCar> {
    let base = cfg.site_url.trim_end_matches('/');
    cars.iter()
        .map(|c| EdgeCar {
            id: c.id.clone(),
            slug: c.slug.clone(),
            name: c.name.clone(),
            stock_number: c.stocknum.clone(),
            vin: c.vin.clone(),
            year: c.year,
            make: c.make.clone(),
            model: c.model.clone(),
            badge: c.badge.clone(),
            car_type: c.car_type.as_str().into(),
            status: c.status.as_str().into(),
            reserved: c.reserved,
            price: c.price,
            price_text: c.price_text.clone(),
            km: c.km,
            url: format!("{base}/cars/{}/", c.slug),
            location_id: c.location.id.clone(),
            checkout: c.checkout,
            deposit: cfg.features.checkout.deposit,
        })
        .collect()
}

/// Every KV entry the worker reads for this dealer, in the format of
/// `wrangler kv bulk put` (`[{"key", "value"}]`): the config, one origin
/// key per allowed origin, the visible cars' slugs (the worker counts
/// views of these cars only), and per visible car its facts (by slug) and
/// its id's slug. One key per car rather than one document: a lead reads
/// the one car it names (a few hundred bytes) however big the stock.
pub fn edge_kv(edge: &EdgeConfig, cars: &[EdgeCar]) -> anyhow::Result<serde_json::Value> {
    use dealer_rules::edge_config::{
        car_id_key, car_key, car_list, cars_key, dealer_key, origin_key,
    };
    let mut entries = vec![serde_json::json!({
        "key": dealer_key(&edge.dealer),
        "value": serde_json::to_string(edge)?,
    })];
    for origin in &edge.origins {
        entries.push(serde_json::json!({ "key": origin_key(origin), "value": edge.dealer }));
    }
    entries.push(serde_json::json!({
        "key": cars_key(&edge.dealer),
        "value": car_list(cars.iter().map(|c| c.slug.as_str())),
    }));
    for car in cars {
        entries.push(serde_json::json!({
            "key": car_key(&edge.dealer, &car.slug),
            "value": serde_json::to_string(car)?,
        }));
        entries.push(serde_json::json!({
            "key": car_id_key(&edge.dealer, &car.id),
            "value": car.slug,
        }));
    }
    Ok(serde_json::Value::Array(entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fact the worker reads about a dealer comes from the YAML model.
    #[test]
    fn edge_config_carries_the_worker_facts() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://Demo.example", "dealership_id": 77,
            "edge": {"extra_origins": ["https://staging.demo.example"], "analytics_sink": true,
                     "rate_limits": {"leads": {"per_client": 50}, "code_cooldown_secs": 30}},
            "forms": {"message_required": false},
            "finance": {"calculator": {"default_interest_rate": 8.5, "establishment_fee": 395.0},
                        "quote_provider": {"url": "https://quotes.example/q", "secret_name": "YOUX_API_KEY"}},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        assert_eq!(
            edge.origins,
            ["https://demo.example", "https://staging.demo.example"]
        );
        assert_eq!(edge.dealership_id, Some(77));
        assert!(!edge.forms.message_required);
        assert!(edge.analytics.enabled);
        let provider = edge.finance.quote_provider.unwrap();
        assert_eq!(
            (provider.url.as_str(), provider.secret_name.as_str()),
            ("https://quotes.example/q", "YOUX_API_KEY")
        );
        let defaults = dealer_rules::edge_config::EdgeRateLimits::default();
        assert_eq!(edge.rate_limits.leads.per_client, 50);
        assert_eq!(edge.rate_limits.leads.per_dealer, defaults.leads.per_dealer);
        assert_eq!(edge.rate_limits.views, defaults.views);
        assert_eq!(edge.rate_limits.code_cooldown_secs, 30);
        // The JSON written next to the site must load in the worker.
        let json = serde_json::to_string(&edge_config("demo", &cfg)).unwrap();
        let back: EdgeConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(back.dealer, "demo");
        assert_eq!(back.rate_limits, edge_config("demo", &cfg).rate_limits);
    }

    /// The KV entries: the config, every origin, the visible cars' slugs,
    /// and per car its facts and its id's slug.
    #[test]
    fn edge_kv_lists_every_key_the_worker_reads() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "edge": {"extra_origins": ["https://staging.demo.example"]},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        let cars = edge_cars(
            &cfg,
            &crate::site_data::test_support::cars(&[("Kia", "new"), ("MG", "used")]),
        );
        let kv = edge_kv(&edge, &cars).unwrap();
        let keys: Vec<&str> = kv
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["key"].as_str().unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "dealer:demo",
                "origin:https://demo.example",
                "origin:https://staging.demo.example",
                "cars:demo",
                "car:demo:c-0",
                "car-id:demo:0",
                "car:demo:c-1",
                "car-id:demo:1",
            ]
        );
        assert_eq!(kv[3]["value"], "c-0\nc-1");
        assert_eq!(kv[1]["value"], "demo");
        assert_eq!(kv[5]["value"], "c-0", "id → slug");
        let config: EdgeConfig = serde_json::from_str(kv[0]["value"].as_str().unwrap()).unwrap();
        assert_eq!(config, edge);
        let car: EdgeCar = serde_json::from_str(kv[6]["value"].as_str().unwrap()).unwrap();
        assert_eq!(car, cars[1]);
        assert_eq!(
            (car.make.as_str(), car.car_type.as_str(), car.url.as_str()),
            ("MG", "used", "https://demo.example/cars/c-1/")
        );
    }

    /// Per car: the facts a lead's vehicle is filled from, and whether the
    /// dealer's checkout rules let it be reserved.
    #[test]
    fn edge_cars_carry_the_page_facts_and_checkout_rules() {
        use crate::stock::{feed, present};
        let records = serde_json::json!([
            {"id": 7, "slug": "a-7", "make": "Kia", "model": "Rio", "badge": "S", "year": 2022, "car_type": "used",
             "status": "in_stock", "price": 18990, "stocknum": "K7", "vin": "KNADN512AN6000007", "km": 12000.4,
             "location_id": "a"},
            {"id": 8, "slug": "b-8", "make": "MG", "model": "ZS", "year": 2024, "car_type": "new", "status": "in_stock"},
            {"id": 9, "slug": "c-9", "make": "Kia", "model": "EV6", "year": 2024, "car_type": "used", "status": "in_stock",
             "reserved": true},
            {"id": 10, "slug": "d-10", "make": "Kia", "model": "EV6", "year": 2024, "car_type": "used", "status": "sold",
             "sold_date_timestamp": 1}
        ]);
        let feed = feed::parse(&records.to_string(), "f.json").unwrap();
        let cfg = crate::site_data::test_support::config_with(serde_json::json!({
            "features": {"checkout": {"enabled": true, "deposit": 500, "car_types": ["used"], "makes": ["KIA"]}}
        }));
        let cars: Vec<present::Car> = feed
            .cars
            .iter()
            .map(|c| present::present(c, &cfg, chrono::Utc::now()))
            .collect();
        let edge = edge_cars(&cfg, &cars);
        let rio = &edge[0];
        assert_eq!(
            (
                rio.id.as_str(),
                rio.stock_number.as_deref(),
                rio.vin.as_deref(),
                rio.year,
                rio.km
            ),
            ("7", Some("K7"), Some("KNADN512AN6000007"), 2022, 12000)
        );
        assert_eq!((rio.price, rio.price_text.as_str()), (18990.0, "$18,990"));
        assert_eq!((rio.location_id.as_str(), rio.deposit), ("a", 500));
        assert_eq!(rio.url, "https://www.demo.com.au/cars/a-7/");
        let reservable: Vec<bool> = edge.iter().map(|c| c.checkout).collect();
        // Used Kia in stock: yes; a new MG: type and make excluded; a
        // reserved car; a sold car.
        assert_eq!(reservable, [true, false, false, false]);
        assert_eq!(
            cars.iter().map(|c| c.checkout).collect::<Vec<_>>(),
            reservable,
            "the page shows the same rule"
        );
    }

    /// The forms, checkout and trade-in settings reach the worker.
    #[test]
    fn edge_config_carries_the_form_settings() {
        let cfg = crate::site_data::test_support::config_with(serde_json::json!({
            "features": {"captcha": true, "trade_in": false,
                "checkout": {"enabled": true, "path": "buy-online", "hold_hours": 72,
                    "payment": {"provider": "stripe", "secret_name": "SK_DEMO", "webhook_secret_name": "WH_DEMO"}}},
            "forms": {"terms_required": false, "success_path": "/thank-you",
                "turnstile": {"site_key": "0x4AAAAAAAB1cD2eF3gH4iJ5", "secret_name": "TS_DEMO"}},
            "trade_in": {"valuation": {"url": "https://valuations.example/v1", "secret_name": "VAL_DEMO"}, "save_valuation": true}
        }));
        let edge = edge_config("demo", &cfg);
        assert!(!edge.forms.terms_required && !edge.features.trade_in);
        assert_eq!(edge.forms.success_path, "/thank-you");
        assert_eq!(edge.forms.captcha.as_ref().unwrap().secret_name, "TS_DEMO");
        assert!(edge.checkout.enabled);
        assert_eq!(
            (edge.checkout.path.as_str(), edge.checkout.hold_hours),
            ("buy-online", 72)
        );
        let pay = edge.checkout.payment.as_ref().unwrap();
        assert_eq!(
            (pay.secret_name.as_str(), pay.webhook_secret_name.as_str()),
            ("SK_DEMO", "WH_DEMO")
        );
        assert_eq!(
            edge.trade_in.valuation.as_ref().unwrap().url,
            "https://valuations.example/v1"
        );
        assert!(edge.trade_in.save_valuation);
        let json = serde_json::to_string(&edge).unwrap();
        assert!(
            !json.contains("0x4AAAAAAAB1cD2eF3gH4iJ5"),
            "the worker needs no site key"
        );

        // Captcha off: a widget left in the file does not switch it on.
        let off = crate::site_data::test_support::config_with(serde_json::json!({
            "forms": {"turnstile": {"site_key": "0x4AAAAAAAB1cD2eF3gH4iJ5", "secret_name": "TS_DEMO"}}
        }));
        assert_eq!(edge_config("demo", &off).forms.captcha, None);
        let defaults = edge_config("demo", &crate::site_data::test_support::config());
        assert!(defaults.forms.terms_required && defaults.features.trade_in);
        assert_eq!(defaults.forms.success_path, "/success");
        assert_eq!(defaults.checkout.hold_hours, 48);
    }
}
