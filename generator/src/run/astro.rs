//! Runs `astro build` for a generated project into a staged release
//! (the `release` module) and checks that it produced every page the contract
//! promises (docs/ARCHITECTURE.md, contract 2) before the caller publishes
//! it: a failed build leaves the old site.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

use crate::project::Project;

/// The Node 22 binary: `DEALERGEN_NODE`, else the one npm installed into
/// node_modules (scripts/setup.sh), else `node` on PATH.
pub fn node_binary(project: &Project) -> PathBuf {
    if let Some(n) = std::env::var_os("DEALERGEN_NODE") {
        return PathBuf::from(n);
    }
    let local = project.node_modules().join("node/bin/node");
    if local.is_file() {
        return local;
    }
    PathBuf::from("node")
}

/// The `astro build` processes running now (their pids), so that a
/// process that stops early (`dealergen dev` on Ctrl-C) stops them too
/// rather than leaving them writing into a site after it has exited.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Set by [`stop_all`]: no `astro build` starts after it.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Stops every `astro build` this process is running (SIGTERM) and starts
/// no more; each stopped build fails, and its staged release is removed as
/// any failed build's is. The caller waits for its build threads to end.
pub fn stop_all() {
    STOPPING.store(true, Ordering::SeqCst);
    crate::run::astro_server::POOL.stop_idle();
    for pid in RUNNING.lock().expect("astro builds lock").iter() {
        // SAFETY: kill(2) on a child of this process that has not been
        // reaped: a warm Astro process leaves this list (under this lock)
        // before it can be reaped (astro_server::build), so the pid cannot
        // have been reused by another process.
        unsafe {
            libc::kill(*pid as i32, libc::SIGTERM);
        }
    }
}

/// Whether [`stop_all`] was called: a build failing now was stopped, not broken.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// Runs `astro build` in `project_dir` with its output in `out_dir` (inside
/// it), in a warm Astro process (crate::run::astro_server); Astro's output
/// goes to `build.log` there, and its last lines into the error when it
/// fails. `force` makes Astro render every page again instead of reusing
/// the unchanged ones from its incremental-build cache.
/// Returns how many pages Astro reused from that cache.
pub fn run(project: &Project, project_dir: &Path, out_dir: &Path, force: bool) -> Result<usize> {
    let astro = project.node_modules().join("astro/bin/astro.mjs");
    if !astro.is_file() {
        bail!(
            "Astro is not installed ({} missing): run scripts/setup.sh first",
            astro.display()
        );
    }
    let relative = out_dir.strip_prefix(project_dir).unwrap_or(out_dir);
    let cache = PageCache::begin(project_dir)?;
    let project_dir = std::path::absolute(project_dir)
        .with_context(|| format!("cannot resolve {}", project_dir.display()))?;
    let log_path = project_dir.join("build.log");
    // The log is this build's or none: a process that dies before writing
    // it must not leave the last build's lines in this one's error.
    match std::fs::remove_file(&log_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("cannot remove {}", log_path.display()))
        }
        _ => {}
    }
    let request = crate::run::astro_server::Request {
        node: node_binary(project),
        project_dir: &project_dir,
        out_dir: relative,
        cache_dir: Path::new(PageCache::DIR),
        force,
        log: &log_path,
    };
    let outcome = crate::run::astro_server::POOL.build(
        project,
        &request,
        |pid| {
            let mut running = RUNNING.lock().expect("astro builds lock");
            if stopping() {
                bail!("stopped before astro build started");
            }
            running.push(pid);
            Ok(())
        },
        |pid| {
            RUNNING
                .lock()
                .expect("astro builds lock")
                .retain(|p| *p != pid)
        },
    )?;
    let mut log = std::fs::read_to_string(&log_path).unwrap_or_default();
    if let crate::run::astro_server::Outcome::Failed(why) = outcome {
        if log.is_empty() {
            // The process died before it wrote a line: the log says why.
            log = why.clone();
            let _ = std::fs::write(&log_path, &log);
        }
        let tail: Vec<&str> = log
            .lines()
            .rev()
            .take(25)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        bail!(
            "astro build failed ({}); last lines of {}:\n{}",
            why.lines().next().unwrap_or("no reason given"),
            log_path.display(),
            tail.join("\n")
        );
    }
    cache.finished()?;
    Ok(reused_pages(&log, "/"))
}

/// Astro's incremental-build cache in a project's `.astro-cache/`: the
/// manifest (path -> cache key) and a copy of each page it rendered. Astro
/// writes the copies as it renders but the manifest only at the end, so a
/// run that fails or is killed half-way can leave copies newer than the
/// manifest says; a later build whose keys match the old manifest would
/// then restore those newer pages. A marker written before each run and
/// removed after a successful one shows that a run did not finish: the
/// next run drops the manifest and renders every page.
struct PageCache {
    marker: PathBuf,
}

impl PageCache {
    const DIR: &'static str = ".astro-cache";
    const MANIFEST: &'static str = "incremental-build.json";
    const MARKER: &'static str = "dealergen-run-unfinished";

    fn begin(project_dir: &Path) -> Result<PageCache> {
        let dir = project_dir.join(Self::DIR);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let marker = dir.join(Self::MARKER);
        if marker.exists() {
            let manifest = dir.join(Self::MANIFEST);
            match std::fs::remove_file(&manifest) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("cannot remove {}", manifest.display()))
                }
                _ => {}
            }
        }
        std::fs::write(&marker, b"")
            .with_context(|| format!("cannot write {}", marker.display()))?;
        Ok(PageCache { marker })
    }

    fn finished(self) -> Result<()> {
        std::fs::remove_file(&self.marker)
            .with_context(|| format!("cannot remove {}", self.marker.display()))
    }
}

/// HTML pages an `astro build` log shows as taken from the incremental-build
/// cache rather than rendered: Astro marks each "(cached)" (already in the
/// output folder) or "(restored)" (copied from the cache). Other files
/// (the JSON endpoints) are not counted, as the build's page count is HTML.
/// Only the pages under `under` count (`/` for all, a batched dealer's
/// `/dealergen-batch/<slug>/` for its own).
pub fn reused_pages(log: &str, under: &str) -> usize {
    log.lines()
        .filter(|l| {
            let l = l.trim_end();
            (l.ends_with(".html (cached)") || l.ends_with(".html (restored)"))
                && l.split_whitespace().any(|w| w.starts_with(under))
        })
        .count()
}

/// The pages Astro made are exactly the page table's (`pipeline::site_data::page_table`),
/// both ways: a page the table promises is in the built site, and a page
/// in the built site (an `index.html` of a folder, Astro's directory
/// format) is in the table, so the list `dealergen diff`, the sitemap and
/// the link check use cannot drift from the routes. `built` are the site's
/// HTML files relative to `dist` (`publish::known::read_pages`, which
/// reads them for the other checks anyway).
pub fn check_pages<'a>(built: impl IntoIterator<Item = &'a str>, table: &[String]) -> Result<()> {
    // Astro's own folder and the files that are not a folder's index are no pages.
    let built: std::collections::BTreeSet<&str> = built
        .into_iter()
        .filter(|f| (*f == "index.html" || f.ends_with("/index.html")) && !f.starts_with("_astro/"))
        .collect();
    let listed: std::collections::BTreeSet<&str> = table.iter().map(String::as_str).collect();
    let missing: Vec<&str> = listed.difference(&built).copied().collect();
    let unlisted: Vec<&str> = built.difference(&listed).copied().collect();
    let some = |files: &[&str]| files.iter().take(3).copied().collect::<Vec<_>>().join(", ");
    if !missing.is_empty() {
        bail!(
            "astro build did not produce {} page(s) of the page table, e.g. {}; the previous site was kept",
            missing.len(),
            some(&missing)
        );
    }
    if !unlisted.is_empty() {
        bail!(
            "astro build produced {} page(s) the page table (generator/src/pipeline/site_data/page_table.rs) does not list, e.g. {}; the previous site was kept",
            unlisted.len(),
            some(&unlisted)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check_pages, PageCache};

    #[test]
    fn the_built_pages_must_be_the_page_tables_both_ways() {
        let built = [
            "index.html",
            "a/index.html",
            "_astro/x/index.html",
            "404.html",
        ];
        let table = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // Astro's own folder and files that are not a folder's index are no pages.
        check_pages(built, &table(&["index.html", "a/index.html"])).unwrap();
        let unlisted = check_pages(built, &table(&["index.html"])).unwrap_err();
        assert!(
            unlisted.to_string().contains("does not list")
                && unlisted.to_string().contains("a/index.html"),
            "{unlisted}"
        );
        let missing = check_pages(
            built,
            &table(&["index.html", "a/index.html", "b/index.html"]),
        )
        .unwrap_err();
        assert!(
            missing.to_string().contains("did not produce")
                && missing.to_string().contains("b/index.html"),
            "{missing}"
        );
    }

    #[test]
    fn an_unfinished_run_drops_the_page_cache_manifest_and_a_finished_one_keeps_it() {
        let project = tempfile::tempdir().unwrap();
        let manifest = project.path().join(".astro-cache/incremental-build.json");
        // A first run: nothing to drop; it finishes and Astro wrote a manifest.
        let run = PageCache::begin(project.path()).unwrap();
        std::fs::write(&manifest, "{}").unwrap();
        run.finished().unwrap();
        // A run that finishes keeps the manifest for the next.
        PageCache::begin(project.path())
            .unwrap()
            .finished()
            .unwrap();
        assert!(manifest.is_file());
        // A run that fails (never finished) ...
        let failed = PageCache::begin(project.path()).unwrap();
        drop(failed);
        assert!(manifest.is_file());
        // ... makes the next one start without it: every page is rendered.
        let next = PageCache::begin(project.path()).unwrap();
        assert!(!manifest.exists());
        next.finished().unwrap();
    }

    #[test]
    fn reused_pages_counts_the_pages_astro_took_from_its_cache() {
        let log = "21:20:57   ├─ /search/page/2/index.html (restored)\n\
                   21:20:57   ├─ /cars/a/index.html (+21ms) \n\
                   21:20:57   ├─ /cars/b/index.html (cached) \n\
                   21:20:57   ├─ /cars/b.json (restored)\n\
                   21:20:57 [build] 3 page(s) built in 3.38s\n";
        assert_eq!(super::reused_pages(log, "/"), 2);
        let batch = "21:20:57   ├─ /dealergen-batch/a/cars/x/index.html (restored)\n\
                     21:20:57   ├─ /dealergen-batch/ab/cars/x/index.html (restored)\n\
                     21:20:57   ├─ /dealergen-batch/a/cars/y/index.html (+3ms)\n";
        assert_eq!(super::reused_pages(batch, "/dealergen-batch/a/"), 1);
        assert_eq!(super::reused_pages(batch, "/"), 2);
    }
}
