//! Building one dealer: load and check the config, read and filter the
//! stock, write the Astro project and its data, run Astro, publish `dist/`,
//! and write the edge config the worker reads.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use dealer_config::{Loader, Rejected};

mod edge_projection;
mod generate;
mod publish_plan;

pub use edge_projection::{edge_cars, edge_config, edge_kv, edge_stock_words};
pub use generate::{generate, Generated, RedirectProblems};
pub use publish_plan::{publish_plan, PlannedPublish};

use crate::project::Project;
use crate::run::render::{self, TemplateContext};

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
    let shared = crate::run::cache::SharedKey::compute(project).map_err(BuildFailure::Failed)?;
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
        let staged = crate::run::release::stage(&prepared.site_dir)?;
        prepared.write_edge_files(staged.dir())?;
        step("astro build");
        let reused =
            crate::run::astro::run(project, &prepared.site_dir, &staged.dist(), prepared.force)?;
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
    Cached(crate::run::release::ReleaseInfo),
    /// The current release was generated from the same inputs: nothing
    /// was generated, its summary is reported.
    Unchanged(
        crate::run::release::ReleaseInfo,
        crate::run::release::Summary,
    ),
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
    shared: &crate::run::cache::SharedKey,
    step: &dyn Fn(&str),
) -> Result<Prepared, BuildFailure> {
    let started = Instant::now();
    step("checking config");
    let dealer = load(project, dealer_file)?;
    let site_dir = project.site_dir(&dealer.slug);
    prepare_loaded(
        project, dealer, site_dir, opts, rebuild, shared, step, started,
    )
}

/// The dealer file loaded with its preset and checked; all its problems when it has any.
fn load(
    project: &Project,
    dealer_file: &Path,
) -> Result<dealer_config::LoadedDealer, BuildFailure> {
    Loader::new(project.presets_dir())
        .load(dealer_file)
        .map_err(|r| BuildFailure::Invalid(Box::new(r)))
}

/// `dealergen dev`'s live preview of a dealer: the dealer loaded and
/// checked, its stock read and its project written into `dir` (not its
/// own `sites/<slug>/`, whose releases stay as they are), with the
/// worker's files and the CDN's redirects in `dir/generated/`. No Astro
/// build, nothing published: `astro dev` renders the pages from `dir` as
/// they are asked for.
pub fn write_preview(
    project: &Project,
    dealer_file: &Path,
    now: DateTime<Utc>,
    dir: &Path,
) -> Result<BuildReport, BuildFailure> {
    let started = Instant::now();
    let dealer = load(project, dealer_file)?;
    let opts = BuildOptions {
        now,
        skip_astro: true,
    };
    // Not read without Astro: the inputs and build keys are not computed.
    let shared = crate::run::cache::SharedKey::none();
    let prepared = prepare_loaded(
        project,
        dealer,
        dir.to_path_buf(),
        &opts,
        Rebuild::IfChanged,
        &shared,
        &|_| {},
        started,
    )?;
    let redirects = crate::publish::redirects::render(&prepared.generated().plan.plan.redirects);
    let write = || {
        render::write_file(
            &dir.join(GENERATED_DIR).join("_redirects"),
            redirects.as_bytes(),
        )
    };
    match write() {
        Ok(()) => prepared.report(None).map_err(BuildFailure::Failed),
        Err(e) => Err(prepared.unpublished(e)),
    }
}

#[allow(clippy::too_many_arguments)]
fn prepare_loaded(
    project: &Project,
    dealer: dealer_config::LoadedDealer,
    site_dir: PathBuf,
    opts: &BuildOptions,
    rebuild: Rebuild,
    shared: &crate::run::cache::SharedKey,
    step: &dyn Fn(&str),
    started: Instant,
) -> Result<Prepared, BuildFailure> {
    let force = rebuild == Rebuild::Force;
    let content_dir = dealer.dir().join(&dealer.slug);
    let mut inputs_key = String::new();
    if !opts.skip_astro {
        step("hashing inputs");
        let feed = dealer.dir().join(&dealer.config.stock.feed);
        inputs_key = crate::run::cache::inputs_key(
            shared,
            &dealer.path,
            &content_dir,
            &feed,
            opts.now.timestamp(),
        )
        .map_err(BuildFailure::Failed)?;
        let unchanged = crate::run::release::current_inputs(&site_dir)
            .filter(|(key, _)| *key == inputs_key && !force)
            .and_then(|(_, summary)| {
                Some((crate::run::release::current_info(&site_dir)?, summary))
            });
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
    // Every page the site data promises (crate::pipeline::site_data::page_table), so the page
    // list `dealergen diff` compares is the one Astro really made.
    let must_exist: Vec<String> = generated
        .pages
        .iter()
        .map(|p| crate::pipeline::site_data::page_table::dist_file(p))
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
        prepared.key = crate::run::cache::dealer_key(
            shared,
            &prepared.generated().files,
            &prepared.must_exist,
        );
        let published = crate::run::release::current_info(&prepared.site_dir);
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
        staged: &crate::run::release::Staged,
        report_file: &Path,
    ) -> Result<crate::publish::PublishReport> {
        use crate::publish::known::{self, KnownPages};
        let started = Instant::now();
        let dist = staged.dist();
        let pages = known::read_pages(&dist)?;
        crate::run::astro::check_pages(pages.iter().map(|p| p.file.as_str()), &self.must_exist)?;
        let mut known = crate::run::release::current_dir(&self.site_dir)
            .map(|dir| KnownPages::load(&dir))
            .unwrap_or_default();
        // A finance advertisement without its comparison rate
        // keeps the published site (generator/src/checks/compliance/).
        let compliance = Instant::now();
        let unknown = pages
            .iter()
            .filter(|p| !known.contains(&p.hash))
            .map(|p| (p.file.as_str(), p.text.as_str()));
        let pages_known = pages.len() - unknown.clone().count();
        crate::checks::compliance::check_pages(&self.slug, unknown).map_err(anyhow::Error::new)?;
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
        staged: crate::run::release::Staged,
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
            // What the ads feeds left out (pipeline::syndication) and the
            // colours no family claims: feed problems like the others, to
            // fix in the same place.
            .chain(
                generated
                    .syndication
                    .iter()
                    .chain(&generated.colours)
                    .map(|line| format!("{}: {line}", self.slug)),
            )
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
    fn summary(&self) -> crate::run::release::Summary {
        let generated = self.generated();
        crate::run::release::Summary {
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
            crate::run::release::set_current_inputs(
                &self.site_dir,
                &self.inputs_key,
                &self.summary(),
            )?;
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
pub const DATA_FILES: [&str; 4] = ["site.json", "cars.json", "pages.json", "search-index.json"];

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
