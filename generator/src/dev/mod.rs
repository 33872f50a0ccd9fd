//! `dealergen dev`: one dealer's site and the edge worker running together
//! on 127.0.0.1. By default the pages are live: each saved change to the
//! dealer's files writes the site's data again (the build's own loading,
//! checks of the YAML and stock reading, without Astro) into a preview
//! project that `astro dev` renders from when a page is asked for, and the
//! open pages reload at once; then the full build (`dealergen build`: every
//! page, the link and compliance checks, publishing) runs in the
//! background and shows its problems over the page. With `--built` the
//! pages are the last good build itself, rebuilt whole after each save.
//! Problems are shown in the terminal (as `dealergen check` prints them)
//! and over the page, which keeps showing the last good preview or build.
//!
//! `serve` answers the browser, `live` runs `astro dev`, `events` is the
//! reload/overlay stream, `watch` decides which changes rebuild, `edge`
//! runs the worker with wrangler, `locate` finds the published build.

pub mod cdn_rules;
mod child;
pub mod events;
mod http;
pub mod live;
pub mod local_worker;
pub mod locate;
mod proxy;
pub mod serve;
pub mod watch;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use dealer_config::diagnostic::render_human;
use dealer_config::Severity;

use crate::cli::Selection;
use crate::project::Project;
use crate::run::build::{build_dealer, write_preview, BuildFailure, BuildOptions, BuildReport};
use crate::selection::{select, slug_of};
use events::{Hub, Overlay, Problem};
use locate::Published;
use serve::{Api, LivePages, Pages, Site};

/// Quiet time after a change before the build starts: an editor's save,
/// a `git checkout` or a feed written in parts is one change.
const DEBOUNCE: Duration = Duration::from_millis(200);
/// Warnings printed after a build (the rest are in the build's report files).
const MAX_WARNINGS: usize = 10;
/// The longest Ctrl-C waits for a stopped build to end.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);

/// What `dealergen dev` previews and how (the command line's
/// `dealergen dev` arguments, already read).
#[derive(Debug, Clone)]
pub struct Options {
    /// The dealer's slug.
    pub dealer: String,
    /// The port on 127.0.0.1 (0: any free port).
    pub port: u16,
    /// Serve the pages only, without the local edge worker.
    pub no_edge: bool,
    /// Serve the last good build instead of live pages.
    pub built: bool,
    /// The instant sold windows and new arrivals are judged at; `None`:
    /// the start of the current hour at each build.
    pub as_of: Option<chrono::DateTime<chrono::Utc>>,
}

pub fn run(project: &Project, args: Options) -> Result<i32> {
    let file = select(
        project,
        &Selection {
            dealer: vec![args.dealer.clone()],
            all: false,
        },
    )?
    .remove(0);
    let slug = slug_of(&file);
    // Everything that can be wrong is found before the first build.
    let tools = if args.no_edge {
        None
    } else {
        Some(local_worker::Tools::find(project)?)
    };
    let listener = serve::bind(args.port)?;
    let port = listener.local_addr()?.port();
    let url = format!("http://127.0.0.1:{port}/");

    let hub = Arc::new(Hub::new());
    let site_dir = project.site_dir(&slug);
    let preview_dir = live::preview_dir(project, &slug);
    let api = if args.no_edge {
        "the edge worker is off: dealergen dev was started with --no-edge"
    } else {
        "the edge worker is still starting: try again in a few seconds"
    };
    let pages = if args.built {
        Pages::Built(Published::new(&site_dir))
    } else {
        Pages::Live(LivePages::new(preview_dir.clone()))
    };
    let site = Arc::new(Site::new(pages, hub.clone(), Api::Off(api.into())));
    {
        let site = site.clone();
        std::thread::spawn(move || serve::run(listener, site));
    }
    let (stop_tx, stop_rx) = channel::<()>();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .context("cannot handle Ctrl-C")?;

    let edge: Arc<Mutex<Option<local_worker::Edge>>> = Arc::new(Mutex::new(None));
    let astro: Arc<Mutex<Option<live::Live>>> = Arc::new(Mutex::new(None));
    let checks = Arc::new(Checks::default());
    let dealer = Dealer {
        project: project.clone(),
        file: file.clone(),
        slug: slug.clone(),
        as_of: args.as_of,
        hub: hub.clone(),
    };
    let mut builder = Builder {
        dealer: dealer.clone(),
        inputs: watch::Inputs::new(project, &file),
        edge: edge.clone(),
        mode: if args.built {
            Mode::Built
        } else {
            Mode::Live {
                dir: preview_dir,
                site: site.clone(),
                astro: astro.clone(),
                checks: checks.clone(),
            }
        },
    };
    // Watching starts before the first build: a save during it makes one
    // more build after it, as any other.
    let (changes_tx, changes_rx) = channel::<PathBuf>();
    builder.inputs.read_feed();
    let mut watcher = watch::FileWatch::start(&builder.inputs, changes_tx)?;
    println!("dealergen dev: building {slug} ...");
    builder.build(&[]);
    if let Err(e) = watcher.update(&builder.inputs) {
        eprintln!("warning: {e:#}");
    }
    // Ctrl-C during the first build: stop before starting the worker.
    if stop_rx.try_recv().is_ok() {
        println!("stopped");
        return Ok(0);
    }
    println!("serving {slug} at {url} (Ctrl-C to stop)");

    if let Some(tools) = tools {
        println!("starting the edge worker (wrangler dev) ...");
        let origins = vec![
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
        ];
        let started = Instant::now();
        // Started on this (the main) thread: see child::own_process_group.
        let worker =
            local_worker::Edge::start(tools, &slug, origins, builder.edge_kv().as_deref())?;
        *site.api.write().expect("api lock") = Api::Worker(worker.addr);
        println!(
            "edge worker ready at http://{} in {:.1}s; /api/* on {url} goes to it (leads stay local: no webhook)",
            worker.addr,
            started.elapsed().as_secs_f64()
        );
        *edge.lock().expect("edge lock") = Some(worker);
    }

    let mut threads = Vec::new();
    if let Mode::Live { .. } = builder.mode {
        let checker = Checker {
            dealer,
            checks: checks.clone(),
        };
        threads.push(std::thread::spawn(move || checker.run()));
    }
    let (watch_tx, watch_rx) = channel::<watch::Inputs>();
    println!(
        "watching {}, its preset and content, its stock feed and the templates",
        file.display()
    );
    threads.push(std::thread::spawn(move || {
        builder.watch(changes_rx, watch_tx)
    }));

    loop {
        match stop_rx.recv_timeout(Duration::from_millis(500)) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {}
        }
        // The feed may have moved: watch its new folder.
        while let Ok(inputs) = watch_rx.try_recv() {
            if let Err(e) = watcher.update(&inputs) {
                eprintln!("warning: {e:#}");
            }
        }
        let mut worker = edge.lock().expect("edge lock");
        if let Some(w) = worker.as_mut() {
            if !w.running() {
                eprintln!(
                    "the edge worker stopped; /api/* now answers 503 (restart dealergen dev)"
                );
                *site.api.write().expect("api lock") =
                    Api::Off("the edge worker stopped: restart dealergen dev".into());
                *worker = None;
            }
        }
        let mut pages = astro.lock().expect("astro lock");
        if pages.as_mut().is_some_and(|p| !p.running()) {
            eprintln!("astro dev stopped; the next saved change starts it again");
            if let Pages::Live(live) = &site.pages {
                *live.astro.write().expect("astro lock") = None;
            }
            *pages = None;
        }
    }
    println!("stopping ...");
    checks.stop();
    // A build in progress is stopped and waited for: none outlives dealergen
    // dev, writing into the site after it has exited. The watcher goes
    // first, which ends the builder's wait for changes.
    crate::run::astro::stop_all();
    drop(watcher);
    let deadline = Instant::now() + STOP_TIMEOUT;
    while threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    if threads.iter().any(|t| !t.is_finished()) {
        eprintln!(
            "warning: a build was still running {}s after Ctrl-C; leaving it",
            STOP_TIMEOUT.as_secs()
        );
    }
    if let Some(mut w) = edge.lock().expect("edge lock").take() {
        w.stop();
        println!("edge worker stopped");
    }
    if astro.lock().expect("astro lock").take().is_some() {
        println!("astro dev stopped");
    }
    println!("stopped");
    Ok(0)
}

/// How the pages follow a saved change.
enum Mode {
    /// A full build, then the reload.
    Built,
    /// The preview project written and `astro dev` (started with the
    /// first good preview) renders it, then the reload; the full build
    /// follows in the background ([`Checker`]).
    Live {
        dir: PathBuf,
        site: Arc<Site>,
        astro: Arc<Mutex<Option<live::Live>>>,
        checks: Arc<Checks>,
    },
}

/// The dealer `dealergen dev` previews, and the pages it tells.
#[derive(Clone)]
struct Dealer {
    project: Project,
    file: PathBuf,
    slug: String,
    as_of: Option<chrono::DateTime<chrono::Utc>>,
    hub: Arc<Hub>,
}

impl Dealer {
    /// The instant a build judges at.
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.as_of.unwrap_or_else(chrono::Utc::now)
    }

    /// The same build as `dealergen build --dealer`.
    fn full_build(&self) -> Result<BuildReport, BuildFailure> {
        let opts = BuildOptions {
            now: self.now(),
            skip_astro: false,
        };
        build_dealer(&self.project, &self.file, &opts, &|_| {})
    }

    /// A failure in the terminal and over the pages ([`show_failure`]).
    fn fail(&self, failure: BuildFailure, served: Served) {
        show_failure(&self.hub, &self.file, &self.slug, failure, served)
    }
}

/// Runs the dealer's build (or preview), one at a time, and tells the pages.
struct Builder {
    dealer: Dealer,
    inputs: watch::Inputs,
    edge: Arc<Mutex<Option<local_worker::Edge>>>,
    mode: Mode,
}

impl Builder {
    /// Waits for changes; a burst of them is one build, and changes made
    /// during a build make exactly one more build after it.
    fn watch(mut self, changes: Receiver<PathBuf>, watch: std::sync::mpsc::Sender<watch::Inputs>) {
        while let Ok(first) = changes.recv() {
            let mut changed = vec![first];
            loop {
                match changes.recv_timeout(DEBOUNCE) {
                    Ok(p) => changed.push(p),
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            changed.retain(|p| self.inputs.affects(p));
            changed.sort();
            changed.dedup();
            if changed.is_empty() {
                continue;
            }
            self.build(&changed);
            let _ = watch.send(self.inputs.clone());
        }
    }

    /// The worker's KV entries of what the pages show now.
    fn edge_kv(&self) -> Option<PathBuf> {
        match &self.mode {
            Mode::Built => {
                Published::new(self.dealer.project.site_dir(&self.dealer.slug)).edge_kv()
            }
            Mode::Live { dir, .. } => Some(
                dir.join(crate::run::build::GENERATED_DIR)
                    .join("edge-kv.json"),
            )
            .filter(|p| p.is_file()),
        }
    }

    /// One build or preview; `changed` names what started it (empty: the first).
    fn build(&mut self, changed: &[PathBuf]) {
        let cwd = std::env::current_dir().unwrap_or_default();
        if !changed.is_empty() {
            let names: Vec<String> = changed
                .iter()
                .take(3)
                .map(|p| p.strip_prefix(&cwd).unwrap_or(p).display().to_string())
                .collect();
            let more = changed.len().saturating_sub(3);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            println!(
                "changed: {}{more}; rebuilding {} ...",
                names.join(", "),
                self.dealer.slug
            );
        }
        self.inputs.read_feed();
        self.dealer.hub.building();
        let d = &self.dealer;
        let result = match &self.mode {
            Mode::Built => d.full_build(),
            Mode::Live { dir, .. } => write_preview(&d.project, &d.file, d.now(), dir),
        };
        let report = match result {
            Ok(report) => report,
            // Stopped by Ctrl-C, not broken.
            Err(_) if crate::run::astro::stopping() => return,
            Err(failure) => {
                let served = match self.mode {
                    Mode::Built => Served::LastBuild,
                    Mode::Live { .. } => Served::LastPreview,
                };
                return self.dealer.fail(failure, served);
            }
        };
        if let Err(e) = self.show_live() {
            return self
                .dealer
                .fail(BuildFailure::Failed(e), Served::LastPreview);
        }
        match self.mode {
            Mode::Built => println!(
                "built  {}: {} cars shown, {} hidden; {} pages in {:.1}s",
                self.dealer.slug,
                report.cars_visible,
                report.cars_hidden,
                report.pages,
                report.elapsed.as_secs_f64()
            ),
            Mode::Live { .. } => println!(
                "preview {}: {} cars shown, {} hidden; data written in {:.1}s (pages render as they are opened; the full build follows)",
                self.dealer.slug,
                report.cars_visible,
                report.cars_hidden,
                report.elapsed.as_secs_f64()
            ),
        }
        print_warnings(&report.warnings.lines);
        self.reseed_edge();
        let pages = self.dealer.hub.reload();
        if !changed.is_empty() {
            println!("reloaded {pages} open page(s)");
        }
        if let Mode::Live { checks, .. } = &self.mode {
            checks.want();
        }
    }

    /// Live pages: `astro dev` running on the preview project (started
    /// with the first good preview, or again after it stopped).
    fn show_live(&self) -> Result<()> {
        let Mode::Live {
            dir, site, astro, ..
        } = &self.mode
        else {
            return Ok(());
        };
        let mut astro = astro.lock().expect("astro lock");
        if astro.is_none() {
            println!("starting the live pages (astro dev) ...");
            let started = Instant::now();
            let running = live::Live::start(&self.dealer.project, dir)?;
            println!(
                "live pages ready in {:.1}s",
                started.elapsed().as_secs_f64()
            );
            if let Pages::Live(pages) = &site.pages {
                *pages.astro.write().expect("astro lock") = Some(running.addr);
            }
            *astro = Some(running);
        }
        Ok(())
    }

    /// The rebuilt worker config and cars into the local KV.
    fn reseed_edge(&self) {
        let mut edge = self.edge.lock().expect("edge lock");
        let Some(worker) = edge.as_mut() else {
            return;
        };
        let Some(kv) = self.edge_kv() else {
            return;
        };
        if let Err(e) = worker.seed(&kv) {
            println!("warning: the edge worker kept its previous config: {e:#}");
        }
    }
}

/// What the pages show while a build or preview has failed.
#[derive(Clone, Copy)]
enum Served {
    /// The last good build (`--built`).
    LastBuild,
    /// The last good preview (live pages: the failed change is not written).
    LastPreview,
    /// The change itself (live pages: the preview took it, the full build
    /// would not publish it).
    Unpublishable,
}

impl Served {
    /// Over the page, before "Save a fix and this page reloads."
    fn note(self) -> &'static str {
        match self {
            Served::LastBuild => "The page below is the last good build.",
            Served::LastPreview => "The page below is the last good preview.",
            Served::Unpublishable => {
                "The page below shows your change, but the full build would not publish it."
            }
        }
    }

    /// In the terminal, under the problems.
    fn terminal(self) -> &'static str {
        match self {
            Served::LastBuild => "the last good build is still served; fix the problem and it rebuilds",
            Served::LastPreview => {
                "the last good preview is still served; fix the problem and the pages reload"
            }
            Served::Unpublishable => {
                "the preview shows the change, but it would not publish; the published site is unchanged"
            }
        }
    }
}

/// A build or preview that failed: its problems in the terminal (an
/// invalid file as `dealergen check` prints it) and over the pages, saying
/// what the page under them is.
fn show_failure(hub: &Hub, file: &Path, slug: &str, failure: BuildFailure, served: Served) {
    let (e, warnings) = match failure {
        BuildFailure::Invalid(rejected) => {
            print!("{}", render_human(&rejected.diagnostics, &rejected.files));
            let errors: Vec<_> = rejected
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            println!("FAILED {}: {} problem(s)", file.display(), errors.len());
            println!("       {}", served.terminal());
            hub.overlay(&Overlay {
                title: format!("{} has {} problem(s)", file.display(), errors.len()),
                note: served.note().to_string(),
                text: render_human(&rejected.diagnostics, &rejected.files),
                problems: errors
                    .iter()
                    .map(|d| Problem {
                        at: format!("{}:{}:{}", d.file.display(), d.line, d.column),
                        message: d.message.clone(),
                    })
                    .collect(),
            });
            return;
        }
        BuildFailure::Failed(e) => (e, Vec::new()),
        // A build that failed after reading the feed still has the
        // feed's warnings: shown with the error, as a build shows them.
        BuildFailure::Unpublished { error, warnings } => (error, warnings.lines),
    };
    println!("FAILED {slug}: {e:#}");
    print_warnings(&warnings);
    println!("       {}", served.terminal());
    let mut text = format!("{e:#}");
    if !warnings.is_empty() {
        text.push_str(&format!(
            "\n\n{} warning(s):\n{}",
            warnings.len(),
            warnings.join("\n")
        ));
    }
    hub.overlay(&Overlay {
        title: format!("{slug} did not build"),
        note: served.note().to_string(),
        text,
        problems: Vec::new(),
    });
}

/// The full builds live pages ask for: how many were asked for, and
/// whether `dealergen dev` is stopping.
#[derive(Default)]
struct Checks {
    state: Mutex<(u64, bool)>,
    wake: Condvar,
}

impl Checks {
    /// One more full build wanted (of the files as they are now).
    fn want(&self) {
        self.state.lock().expect("checks lock").0 += 1;
        self.wake.notify_all();
    }

    fn stop(&self) {
        self.state.lock().expect("checks lock").1 = true;
        self.wake.notify_all();
    }

    /// Waits until a build newer than `done` is wanted; `None` when stopping.
    fn next(&self, done: u64) -> Option<u64> {
        let mut state = self.state.lock().expect("checks lock");
        loop {
            if state.1 {
                return None;
            }
            if state.0 > done {
                return Some(state.0);
            }
            state = self.wake.wait(state).expect("checks lock");
        }
    }

    /// Whether a build newer than `asked` is wanted already.
    fn superseded(&self, asked: u64) -> bool {
        self.state.lock().expect("checks lock").0 > asked
    }
}

/// Live pages' full build, in the background: the same build as
/// `dealergen build` (every page, the checks before publishing, the
/// release), after each good preview; saves during one make one more
/// after it. Its problems go over the pages, unless a newer save already
/// asked for another.
struct Checker {
    dealer: Dealer,
    checks: Arc<Checks>,
}

impl Checker {
    fn run(self) {
        let mut done = 0;
        while let Some(asked) = self.checks.next(done) {
            done = asked;
            let result = self.dealer.full_build();
            if crate::run::astro::stopping() {
                return;
            }
            if self.checks.superseded(asked) {
                continue;
            }
            match result {
                Ok(report) => self.report(&report),
                Err(failure) => self.dealer.fail(failure, Served::Unpublishable),
            }
        }
    }

    fn report(&self, report: &BuildReport) {
        println!(
            "checked {}: built, checked and published {} pages in {:.1}s{}",
            self.dealer.slug,
            report.pages,
            report.elapsed.as_secs_f64(),
            if report.cached { " (unchanged)" } else { "" }
        );
    }
}

/// A build's warnings under its result line, the first [`MAX_WARNINGS`].
fn print_warnings(lines: &[String]) {
    for w in lines.iter().take(MAX_WARNINGS) {
        println!("       warning: {w}");
    }
    if lines.len() > MAX_WARNINGS {
        println!(
            "       ... and {} more warning(s)",
            lines.len() - MAX_WARNINGS
        );
    }
}
