//! Running wrangler, the one tool that talks to Cloudflare. Every remote
//! read and write of `deploy` and `rollback` goes through [`Wrangler::run`],
//! so the commands are the ones documented for wrangler and a stand-in
//! `wrangler` on PATH can answer them in tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};

/// `wrangler d1 migrations apply`: the D1 migrations not applied yet to
/// the database of the `wrangler.json` in the folder it runs in (the edge's
/// config, production's or the previews').
pub const MIGRATIONS_APPLY: [&str; 7] = [
    "d1",
    "migrations",
    "apply",
    "DB",
    "--remote",
    "--config",
    "wrangler.json",
];

/// How to start wrangler.
#[derive(Debug, Clone)]
pub struct Wrangler {
    program: PathBuf,
    /// Folders put first on PATH for it (the project's Node 22).
    path_prefix: Vec<PathBuf>,
}

/// What one wrangler call did.
#[derive(Debug)]
pub struct Outcome {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
    /// Entries wrangler wrote to its output file (WRANGLER_OUTPUT_FILE_PATH):
    /// the version id of a deploy or rollback, among others.
    pub records: Vec<serde_json::Value>,
}

impl Outcome {
    /// The last lines of what wrangler said, for an error message.
    pub fn said(&self) -> String {
        let text = format!("{}\n{}", self.stdout, self.stderr);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .collect();
        let tail = &lines[lines.len().saturating_sub(6)..];
        tail.join("\n    ")
    }

    /// This outcome when wrangler succeeded, else the error every step
    /// that cannot go on reports: "wrangler <what> failed:" and what it said.
    pub fn checked(self, what: &str) -> anyhow::Result<Outcome> {
        if self.ok {
            Ok(self)
        } else {
            anyhow::bail!("wrangler {what} failed:\n    {}", self.said())
        }
    }

    /// The version id wrangler reported for a deploy.
    pub fn version_id(&self) -> Option<String> {
        self.records
            .iter()
            .rev()
            .find_map(|r| r.get("version_id")?.as_str().map(String::from))
    }
}

impl Wrangler {
    /// `DEALERGEN_WRANGLER` if set, else `wrangler` on PATH, else the
    /// project's `node_modules/.bin/wrangler` (installed by scripts/install.sh).
    pub fn locate(root: &Path) -> Result<Wrangler> {
        let node_bin = root.join("node_modules/node/bin");
        let path_prefix = if node_bin.is_dir() {
            vec![node_bin]
        } else {
            Vec::new()
        };
        if let Some(p) = std::env::var_os("DEALERGEN_WRANGLER") {
            return Ok(Wrangler {
                program: PathBuf::from(p),
                path_prefix,
            });
        }
        if let Some(p) = on_path("wrangler") {
            return Ok(Wrangler {
                program: p,
                path_prefix,
            });
        }
        let local = root.join("node_modules/.bin/wrangler");
        if local.is_file() {
            return Ok(Wrangler {
                program: local,
                path_prefix,
            });
        }
        anyhow::bail!(
            "wrangler not found (not on PATH, not in {}): run `bash scripts/install.sh`, or set DEALERGEN_WRANGLER",
            local.display()
        )
    }

    /// Runs `wrangler <args>` in `cwd`, with `stdin` fed if given. Never
    /// interactive: CI has no one to answer a prompt.
    pub fn run(&self, cwd: &Path, args: &[&str], stdin: Option<&str>) -> Result<Outcome> {
        let out_file = tempfile::NamedTempFile::new()?;
        let mut path = std::env::var_os("PATH").unwrap_or_default();
        if !self.path_prefix.is_empty() {
            let mut parts = self.path_prefix.clone();
            parts.extend(std::env::split_paths(&path));
            path = std::env::join_paths(parts)?;
        }
        let mut child = Command::new(&self.program)
            .args(args)
            .current_dir(cwd)
            .env("PATH", path)
            .env("CI", "true")
            .env("WRANGLER_SEND_METRICS", "false")
            .env("WRANGLER_OUTPUT_FILE_PATH", out_file.path())
            .env_remove("WRANGLER_OUTPUT_FILE_DIRECTORY")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", self.program.display()))?;
        if let Some(text) = stdin {
            if let Some(mut s) = child.stdin.take() {
                // A wrangler that exits early closes the pipe: its exit
                // status tells what happened, not this write.
                let _ = s.write_all(text.as_bytes());
            }
        }
        let out = child.wait_with_output()?;
        let records = std::fs::read_to_string(out_file.path())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        Ok(Outcome {
            ok: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            records,
        })
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}
