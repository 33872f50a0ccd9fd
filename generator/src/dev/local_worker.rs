//! The edge worker, run locally as the project's scripts run it: the
//! release build in `edge/build/` under `wrangler dev --local` (workerd),
//! with local D1 (migrations applied) and KV seeded from the dealer's
//! `edge-kv.json`, all in a fresh temporary state folder. The dealer's
//! config gets the preview's own origin (so the worker accepts its pages'
//! calls) and no lead webhook (so a test enquiry never reaches the
//! dealer's CRM); leads stay in the local D1 and the worker's log.

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::child::Running;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::project::Project;

/// How long the worker may take to answer /api/health.
const START_TIMEOUT: Duration = Duration::from_secs(90);

/// The tools the worker needs, checked before anything starts.
#[derive(Debug, Clone)]
pub struct Tools {
    node: PathBuf,
    wrangler: PathBuf,
    root: PathBuf,
}

impl Tools {
    pub fn find(project: &Project) -> Result<Self> {
        let wrangler = project.node_modules().join("wrangler/bin/wrangler.js");
        if !wrangler.is_file() {
            bail!(
                "wrangler is not installed ({} is missing): run scripts/install.sh, or start with --no-edge to preview the pages without the worker",
                wrangler.display()
            );
        }
        let shim = project.root.join("edge/build/worker/shim.mjs");
        if !shim.is_file() {
            bail!(
                "the edge worker is not built ({} is missing): run scripts/edge/build.sh, or start with --no-edge",
                shim.display()
            );
        }
        if !project.root.join("wrangler.toml").is_file() {
            bail!(
                "no wrangler.toml in {}: the worker's configuration is missing",
                project.root.display()
            );
        }
        Ok(Tools {
            node: crate::run::astro::node_binary(project),
            wrangler,
            root: project.root.clone(),
        })
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.node);
        cmd.arg(&self.wrangler)
            .current_dir(&self.root)
            // Wrangler's config and telemetry stay inside the project, as
            // in the project's scripts; no colour codes in our terminal.
            .env("WRANGLER_SEND_METRICS", "false")
            .env("CLOUDFLARE_CF_FETCH_ENABLED", "false")
            .env("XDG_CONFIG_HOME", self.root.join(".wrangler/config"))
            .env("NO_COLOR", "1")
            .env("FORCE_COLOR", "0")
            .env("CI", "1");
        cmd
    }

    /// Runs one wrangler command to its end against the local state.
    fn run(&self, state: &Path, args: &[&str]) -> Result<()> {
        let out = self
            .command()
            .args(args)
            .arg("--persist-to")
            .arg(state)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", self.node.display()))?;
        if !out.status.success() {
            bail!(
                "wrangler {} failed ({}):\n{}{}",
                args.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(())
    }
}

/// A running worker; stopped (with its workerd) when dropped.
pub struct Edge {
    tools: Tools,
    child: Option<Running>,
    state: tempfile::TempDir,
    pub addr: SocketAddr,
    slug: String,
    origins: Vec<String>,
    /// The KV entries last written, to skip a write that changes nothing.
    seeded: Option<String>,
}

impl Edge {
    /// Migrates and seeds a fresh local state, starts `wrangler dev` and
    /// waits for /api/health. `origins` are the preview's own addresses.
    pub fn start(
        tools: Tools,
        slug: &str,
        origins: Vec<String>,
        kv: Option<&Path>,
    ) -> Result<Self> {
        let state = tempfile::Builder::new()
            .prefix("dealergen-dev-edge-")
            .tempdir()
            .context("cannot create the worker's state folder")?;
        let mut edge = Edge {
            addr: free_port()?,
            tools,
            child: None,
            state,
            slug: slug.to_string(),
            origins,
            seeded: None,
        };
        let state = edge.state.path().to_path_buf();
        edge.tools
            .run(&state, &["d1", "migrations", "apply", "DB", "--local"])?;
        if let Some(kv) = kv {
            edge.seed(kv)?;
        }
        let mut cmd = edge.tools.command();
        cmd.args([
            "dev",
            "--local",
            "--ip",
            "127.0.0.1",
            "--port",
            &edge.addr.port().to_string(),
            "--show-interactive-dev-session=false",
        ])
        .arg("--persist-to")
        .arg(&state)
        // Signs sessions and codes; a new one each run (so are the local
        // D1 and KV). Other secrets come from .dev.vars, as wrangler reads it.
        .args([
            "--var",
            &format!(
                "SESSION_SECRET:{}",
                crate::deploy::secrets::random_secret()?
            ),
        ])
        // Published KV entries are read anew on every call: a saved edit
        // is live at once (the deployed worker keeps a read for 30 s).
        .args(["--var", "PUBLISHED_CACHE_SECS:0"]);
        // The worker's log goes to the terminal once it is up (sign-in
        // codes are logged there by the dev SMS provider), each line
        // marked; wrangler's start-up banner only if it fails to start.
        let child = edge
            .child
            .insert(Running::spawn(cmd, "wrangler dev", "edge", |_| true)?);
        let addr = edge.addr;
        child.wait_until("wrangler dev (the edge worker)", START_TIMEOUT, |_| {
            healthy(addr).then_some(())
        })?;
        Ok(edge)
    }

    /// Writes a build's KV entries into the local KV (the worker reads KV
    /// per request, so a rebuilt config is live at once).
    pub fn seed(&mut self, kv: &Path) -> Result<()> {
        let text =
            std::fs::read_to_string(kv).with_context(|| format!("cannot read {}", kv.display()))?;
        let entries: Vec<serde_json::Value> = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a list of KV entries", kv.display()))?;
        let entries = for_preview(entries, &self.slug, &self.origins)?;
        let json = serde_json::to_string(&entries)?;
        if self.seeded.as_deref() == Some(json.as_str()) {
            return Ok(());
        }
        let file = self.state.path().join("kv-seed.json");
        std::fs::write(&file, &json)?;
        let state = self.state.path().to_path_buf();
        let file = file.to_string_lossy().into_owned();
        self.tools.run(
            &state,
            &["kv", "bulk", "put", &file, "--local", "--binding", "CONFIG"],
        )?;
        self.seeded = Some(json);
        Ok(())
    }

    /// Whether the worker process is still running.
    pub fn running(&mut self) -> bool {
        self.child.as_mut().is_some_and(Running::running)
    }

    /// Stops wrangler and its workerd.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.stop();
        }
    }
}

/// The build's KV entries for the preview: the dealer's config also
/// accepts the preview's origins and has no lead webhook, and each preview
/// origin leads to the dealer.
pub fn for_preview(
    mut entries: Vec<serde_json::Value>,
    slug: &str,
    origins: &[String],
) -> Result<Vec<serde_json::Value>> {
    let key = format!("dealer:{slug}");
    let entry = entries
        .iter_mut()
        .find(|e| e["key"] == key.as_str())
        .with_context(|| format!("edge-kv.json has no `{key}` entry"))?;
    let mut config: serde_json::Value = serde_json::from_str(entry["value"].as_str().unwrap_or(""))
        .with_context(|| format!("the `{key}` entry is not the dealer's edge config"))?;
    if let Some(list) = config["origins"].as_array_mut() {
        for o in origins {
            list.push(serde_json::Value::String(o.clone()));
        }
    }
    if config["leads"].is_object() {
        config["leads"]["webhook_url"] = serde_json::Value::Null;
    }
    entry["value"] = serde_json::Value::String(config.to_string());
    for o in origins {
        entries.push(serde_json::json!({ "key": format!("origin:{o}"), "value": slug }));
    }
    Ok(entries)
}

fn free_port() -> Result<SocketAddr> {
    let l = TcpListener::bind("127.0.0.1:0").context("no free port on 127.0.0.1")?;
    Ok(l.local_addr()?)
}

fn healthy(addr: SocketAddr) -> bool {
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    use std::io::Write;
    if s.write_all(b"GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    s.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_origin_is_accepted_and_leads_stay_local() {
        let config = serde_json::json!({
            "dealer": "tiny", "origins": ["https://tiny.example"],
            "leads": {"email": "a@tiny.example", "webhook_url": "https://crm.example/hook"}
        });
        let entries = vec![
            serde_json::json!({"key": "dealer:tiny", "value": config.to_string()}),
            serde_json::json!({"key": "origin:https://tiny.example", "value": "tiny"}),
            serde_json::json!({"key": "cars:tiny", "value": "a-1"}),
        ];
        let out = for_preview(entries, "tiny", &["http://127.0.0.1:4321".into()]).unwrap();
        let config: serde_json::Value =
            serde_json::from_str(out[0]["value"].as_str().unwrap()).unwrap();
        assert_eq!(
            config["origins"],
            serde_json::json!(["https://tiny.example", "http://127.0.0.1:4321"])
        );
        assert_eq!(config["leads"]["webhook_url"], serde_json::Value::Null);
        assert_eq!(config["leads"]["email"], "a@tiny.example");
        assert_eq!(
            out.last().unwrap(),
            &serde_json::json!({"key": "origin:http://127.0.0.1:4321", "value": "tiny"})
        );
        assert_eq!(out.len(), 4);
        assert!(for_preview(vec![], "tiny", &[]).is_err());
    }

    #[test]
    fn a_missing_wrangler_is_named_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let err = Tools::find(&Project::new(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("wrangler is not installed"), "{err}");
        assert!(err.contains("--no-edge"), "{err}");
    }
}
