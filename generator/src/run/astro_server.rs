//! Warm Astro processes: `astro build` run by long-lived Node processes
//! (astro_server.mjs), each building one project after another, instead of
//! one new Node process per build.
//!
//! A new process pays Node's start and the loading of Astro, Vite, Rollup
//! and React before it renders a page: about a second of the demo dealer's
//! 2.7 s one-price rebuild (613 pages, page cache warm; 1.8 s warm). A run
//! of `build --all` builds batch after batch and dealer after dealer, and
//! `dealergen dev --built` rebuilds on every save: each takes a process
//! from this pool, and gives it back for the next build.
//!
//! What keeps a warm process from serving a stale page:
//! - the project's code, config and server bundle are loaded afresh for
//!   every build (the script's resolve hook gives them URLs of that build
//!   alone): a changed template, app file or stock feed is always seen;
//! - what it cannot load again, the installed packages (`node_modules`) and
//!   Node itself, is in the pool's key ([`Key`]): when they change, the
//!   next build starts a new process and the old ones are stopped;
//! - a failed build retires its process (Astro's state may be half-made),
//!   and a process retires after 40 builds or past 1.5 GB, as Node never
//!   frees a module it loaded.
//!
//! Unchanged pages cost no copy: Astro restores a page from its page cache
//! by copying the cache's file into the release; in a warm process it is
//! hard-linked instead (the script's `linkedRestores`), so the releases
//! and the cache share one file per unchanged page, as they share the
//! `_astro/` bundles. Safe because, while a build runs, every write into
//! the project's output or cache is a new file renamed over the old, never
//! a write through a link into a file an earlier release still serves.
//!
//! A process that dies mid-build (killed, out of memory) fails that build
//! like a failed `astro build`, with the last lines it printed.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};

use crate::project::Project;

/// The Node side: read by `node --input-type=module --eval`, so that no
/// file of it has to exist beside the binary.
const SCRIPT: &str = include_str!("astro_server.mjs");
/// How the script starts its reply lines (anything else on its stdout is
/// not a reply).
const REPLY: &str = "\u{1}dealergen-astro ";
/// How much of what a process writes to stderr outside a build is kept for
/// an error message.
const STDERR_KEPT: usize = 16 * 1024;

/// What a warm process cannot reload: the Node binary and the installed
/// packages (npm rewrites `node_modules/.package-lock.json` on every
/// install, and Astro's own package.json changes with its version).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key(String);

impl Key {
    fn of(node: &Path, node_modules: &Path) -> Key {
        let stamp = |p: PathBuf| {
            std::fs::metadata(&p)
                .and_then(|m| Ok((m.len(), m.modified()?)))
                .map(|(len, at)| format!("{len}@{at:?}"))
                .unwrap_or_else(|_| "none".to_string())
        };
        Key(format!(
            "{} {} {} {}",
            node.display(),
            stamp(node.to_path_buf()),
            stamp(node_modules.join(".package-lock.json")),
            stamp(node_modules.join("astro/package.json")),
        ))
    }
}

/// One warm process.
struct Server {
    child: Child,
    /// `None` once closed: the script's end of input, on which it exits.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// The end of what it wrote to stderr (outside a build: a crash).
    stderr: Arc<Mutex<Vec<u8>>>,
    key: Key,
}

/// Warm processes: the idle ones, for the next build to take.
pub struct Pool {
    idle: Mutex<Vec<Server>>,
}

/// The pool every build of this dealergen process uses.
pub static POOL: Pool = Pool::new();

/// What a build asks for: the project, its output folder (relative to it,
/// as Astro's config reads it), its cache folder, `--force`, and the log file.
pub struct Request<'a> {
    /// The Node binary (crate::run::astro::node_binary).
    pub node: PathBuf,
    pub project_dir: &'a Path,
    pub out_dir: &'a Path,
    /// Astro's cache folder (relative to the project, as its config says):
    /// with the output, where every write is a new file (the script's
    /// `linkedRestores`).
    pub cache_dir: &'a Path,
    pub force: bool,
    pub log: &'a Path,
}

/// How a build ended.
pub enum Outcome {
    Built,
    /// Astro failed (its error is at the end of the log) or its process died.
    Failed(String),
}

impl Pool {
    /// A pool without processes (they start with the first build).
    pub const fn new() -> Pool {
        Pool {
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Runs one build in a warm process: an idle one of the same [`Key`],
    /// or a new one. `register` gets the process's pid before the build
    /// starts (an error, e.g. dealergen is stopping, ends the process and
    /// is returned) and `unregister` after it ended (crate::run::astro's
    /// list of running builds, which `stop_all` stops).
    pub fn build(
        &self,
        project: &Project,
        request: &Request,
        register: impl FnOnce(u32) -> Result<()>,
        unregister: impl FnOnce(u32),
    ) -> Result<Outcome> {
        let node = &request.node;
        let key = Key::of(node, &project.node_modules());
        let mut server = match self.take(&key) {
            Some(s) => s,
            None => Server::start(node, &project.node_modules(), key)?,
        };
        let pid = server.child.id();
        if let Err(e) = register(pid) {
            server.stop();
            return Err(e);
        }
        let reply = server.ask(request);
        unregister(pid);
        match reply {
            Ok(Reply { ok, error, retire }) => {
                if retire || !ok {
                    server.stop();
                } else {
                    self.idle.lock().expect("warm astro pool").push(server);
                }
                Ok(if ok {
                    Outcome::Built
                } else {
                    Outcome::Failed(error.unwrap_or_else(|| "astro build failed".to_string()))
                })
            }
            Err(e) => {
                let status = server.stop();
                let stderr = server.stderr_tail();
                Ok(Outcome::Failed(format!(
                    "the Astro process ended during the build ({e:#}; {status}){}",
                    if stderr.is_empty() {
                        String::new()
                    } else {
                        format!("; it wrote:\n{stderr}")
                    }
                )))
            }
        }
    }

    /// An idle process of `key`; the idle ones of another key are stopped (the
    /// packages changed under them).
    fn take(&self, key: &Key) -> Option<Server> {
        let (taken, stale) = {
            let mut idle = self.idle.lock().expect("warm astro pool");
            let (same, stale): (Vec<Server>, Vec<Server>) =
                idle.drain(..).partition(|s| &s.key == key);
            *idle = same;
            (idle.pop(), stale)
        };
        for mut s in stale {
            s.stop();
        }
        taken
    }

    /// Stops the idle processes (the running ones are stopped by killing their
    /// pid, crate::run::astro::stop_all).
    pub fn stop_idle(&self) {
        let idle: Vec<Server> = self
            .idle
            .lock()
            .expect("warm astro pool")
            .drain(..)
            .collect();
        for mut s in idle {
            s.stop();
        }
    }
}

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}

#[derive(serde::Deserialize)]
struct Reply {
    ok: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    retire: bool,
}

impl Server {
    fn start(node: &Path, node_modules: &Path, key: Key) -> Result<Server> {
        let mut child = Command::new(node)
            .args(["--input-type=module", "--eval", SCRIPT])
            .arg(node_modules)
            .env("ASTRO_TELEMETRY_DISABLED", "1")
            // A plain log: build.log is read by people and by reused_pages.
            .env("NO_COLOR", "1")
            .env_remove("FORCE_COLOR")
            .env("NODE_ENV", "production")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| {
                format!(
                    "cannot run {} (Node 22 is installed by scripts/setup.sh)",
                    node.display()
                )
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().expect("piped stderr");
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut kept = kept.lock().expect("stderr buffer");
                kept.extend_from_slice(&buf[..n]);
                let over = kept.len().saturating_sub(STDERR_KEPT);
                kept.drain(..over);
            }
        });
        Ok(Server {
            child,
            stdin: Some(stdin),
            stdout,
            stderr,
            key,
        })
    }

    /// Sends the request and waits for its reply.
    fn ask(&mut self, request: &Request) -> Result<Reply> {
        let line = serde_json::json!({
            "dir": request.project_dir,
            "out": format!("./{}", request.out_dir.display()),
            "cache": request.cache_dir,
            "force": request.force,
            "log": request.log,
        });
        let stdin = self
            .stdin
            .as_mut()
            .context("the Astro process was stopped")?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .context("cannot send the build to the Astro process")?;
        let mut text = String::new();
        loop {
            text.clear();
            let n = self
                .stdout
                .read_line(&mut text)
                .context("cannot read the Astro process's reply")?;
            if n == 0 {
                bail!("no reply");
            }
            if let Some(json) = text.strip_prefix(REPLY) {
                return serde_json::from_str(json.trim_end())
                    .with_context(|| format!("a reply that is not one: {json}"));
            }
        }
    }

    /// Ends the process (closing its input ends it; a process in a build or
    /// stuck is killed) and reaps it.
    fn stop(&mut self) -> String {
        // A closed stdin is the end of the script's loop; a process that
        // has not ended within a second (stuck in a build) is killed.
        drop(self.stdin.take());
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.to_string();
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        self.child
            .wait()
            .map(|s| s.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    fn stderr_tail(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().expect("stderr buffer"))
            .trim_end()
            .to_string()
    }
}
