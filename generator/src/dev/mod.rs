//! `dealergen dev`: one dealer's site and the edge worker running together
//! on 127.0.0.1, rebuilt with the same build as `dealergen build` when the
//! dealer's files change, the pages reloaded after a good build and the
//! problems of a bad one shown in the terminal (as `dealergen check` prints
//! them) and over the page, which keeps showing the last good build.
//!
//! `serve` answers the browser, `events` is the reload/overlay stream,
//! `watch` decides which changes rebuild, `edge` runs the worker with
//! wrangler, `locate` finds the published build.

pub mod cdn_rules;
pub mod edge;
pub mod events;
mod http;
pub mod locate;
mod proxy;
pub mod serve;
pub mod watch;

use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use dealer_config::diagnostic::render_human;
use dealer_config::Severity;

use crate::cli::Selection;
use crate::project::Project;
use crate::run::build::{build_dealer, BuildFailure, BuildOptions};
use crate::selection::{select, slug_of};
use events::{Hub, Overlay, Problem};
use locate::Published;
use serve::{Api, Site};

/// Quiet time after a change before the build starts: an editor's save,
/// a `git checkout` or a feed written in parts is one change.
const DEBOUNCE: Duration = Duration::from_millis(200);
/// Warnings printed after a build (the rest are in the build's report files).
const MAX_WARNINGS: usize = 10;

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
    let as_of = args.as_of;
    // Everything that can be wrong is found before the first build.
    let tools = if args.no_edge {
        None
    } else {
        Some(edge::Tools::find(project)?)
    };
    let listener = serve::bind(args.port)?;
    let port = listener.local_addr()?.port();
    let url = format!("http://127.0.0.1:{port}/");

    let hub = Arc::new(Hub::new());
    let site_dir = project.site_dir(&slug);
    let api = if args.no_edge {
        "the edge worker is off: dealergen dev was started with --no-edge"
    } else {
        "the edge worker is still starting: try again in a few seconds"
    };
    let site = Arc::new(Site::new(
        Published::new(&site_dir),
        hub.clone(),
        Api::Off(api.into()),
    ));
    {
        let site = site.clone();
        std::thread::spawn(move || serve::run(listener, site));
    }
    let (stop_tx, stop_rx) = channel::<()>();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .context("cannot handle Ctrl-C")?;

    let edge: Arc<Mutex<Option<edge::Edge>>> = Arc::new(Mutex::new(None));
    let mut builder = Builder {
        project: project.clone(),
        file: file.clone(),
        slug: slug.clone(),
        as_of,
        hub: hub.clone(),
        inputs: watch::Inputs::new(project, &file),
        edge: edge.clone(),
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
        // Started on this (the main) thread: see edge::own_process_group.
        let worker = edge::Edge::start(
            tools,
            &slug,
            origins,
            Published::new(&site_dir).edge_kv().as_deref(),
        )?;
        *site.api.write().expect("api lock") = Api::Worker(worker.addr);
        println!(
            "edge worker ready at http://{} in {:.1}s; /api/* on {url} goes to it (leads stay local: no webhook)",
            worker.addr,
            started.elapsed().as_secs_f64()
        );
        *edge.lock().expect("edge lock") = Some(worker);
    }

    let (watch_tx, watch_rx) = channel::<watch::Inputs>();
    println!(
        "watching {}, its preset and content, its stock feed and the templates",
        file.display()
    );
    std::thread::spawn(move || builder.watch(changes_rx, watch_tx));

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
    }
    println!("stopping ...");
    if let Some(mut w) = edge.lock().expect("edge lock").take() {
        w.stop();
        println!("edge worker stopped");
    }
    println!("stopped");
    Ok(0)
}

/// Runs the dealer's build, one at a time, and tells the pages.
struct Builder {
    project: Project,
    file: PathBuf,
    slug: String,
    as_of: Option<chrono::DateTime<chrono::Utc>>,
    hub: Arc<Hub>,
    inputs: watch::Inputs,
    edge: Arc<Mutex<Option<edge::Edge>>>,
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

    /// One build; `changed` names what started it (empty: the first build).
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
                self.slug
            );
        }
        self.inputs.read_feed();
        self.hub.building();
        let opts = BuildOptions {
            now: self.as_of.unwrap_or_else(chrono::Utc::now),
            skip_astro: false,
        };
        match build_dealer(&self.project, &self.file, &opts, &|_| {}) {
            Ok(report) => {
                println!(
                    "built  {}: {} cars shown, {} hidden; {} pages in {:.1}s",
                    self.slug,
                    report.cars_visible,
                    report.cars_hidden,
                    report.pages,
                    report.elapsed.as_secs_f64()
                );
                print_warnings(&report.warnings.lines);
                self.reseed_edge();
                let pages = self.hub.reload();
                if !changed.is_empty() {
                    println!("reloaded {pages} open page(s)");
                }
            }
            Err(BuildFailure::Invalid(rejected)) => {
                // As `dealergen check` prints it.
                print!("{}", render_human(&rejected.diagnostics, &rejected.files));
                let errors: Vec<_> = rejected
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect();
                println!(
                    "FAILED {}: {} problem(s)",
                    self.file.display(),
                    errors.len()
                );
                println!(
                    "       the last good build is still served; fix the file and it rebuilds"
                );
                let overlay = Overlay {
                    title: format!("{} has {} problem(s)", self.file.display(), errors.len()),
                    text: render_human(&rejected.diagnostics, &rejected.files),
                    problems: errors
                        .iter()
                        .map(|d| Problem {
                            at: format!("{}:{}:{}", d.file.display(), d.line, d.column),
                            message: d.message.clone(),
                        })
                        .collect(),
                };
                self.hub.overlay(&overlay);
            }
            Err(BuildFailure::Failed(e)) => self.show_failure(&e, &[]),
            // A build that failed after reading the feed still has the
            // feed's warnings: shown with the error, as a build shows them.
            Err(BuildFailure::Unpublished { error, warnings }) => {
                self.show_failure(&error, &warnings.lines)
            }
        }
    }

    /// The rebuilt worker config and cars into the local KV.
    /// A build that did not publish: its warnings and the error, in the
    /// terminal and in the browser's overlay.
    fn show_failure(&self, e: &anyhow::Error, warnings: &[String]) {
        println!("FAILED {}: {e:#}", self.slug);
        print_warnings(warnings);
        println!("       the last good build is still served; fix the problem and it rebuilds");
        let mut text = format!("{e:#}");
        if !warnings.is_empty() {
            text.push_str(&format!(
                "\n\n{} warning(s):\n{}",
                warnings.len(),
                warnings.join("\n")
            ));
        }
        self.hub.overlay(&Overlay {
            title: format!("{} did not build", self.slug),
            text,
            problems: Vec::new(),
        });
    }

    fn reseed_edge(&self) {
        let mut edge = self.edge.lock().expect("edge lock");
        let Some(worker) = edge.as_mut() else {
            return;
        };
        let Some(kv) = Published::new(self.project.site_dir(&self.slug)).edge_kv() else {
            return;
        };
        if let Err(e) = worker.seed(&kv) {
            println!("warning: the edge worker kept its previous config: {e:#}");
        }
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
