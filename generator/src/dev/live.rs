//! The live pages of `dealergen dev`: `astro dev` on the dealer's preview
//! project (`sites/.dev/<slug>/`, written by `run::build::write_preview`
//! after each saved edit), rendering each page when the browser asks for it
//! from the data as it is then (app/src/integrations/live-data.ts). A saved
//! edit costs the data's generation and the one page open, not a build of
//! every page; the full build that checks and publishes runs after it.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::child::Running;
use crate::project::Project;

/// How long `astro dev` may take to listen (its start is about 1.5 s here).
const START_TIMEOUT: Duration = Duration::from_secs(90);

/// Where a dealer's live preview project is written.
pub fn preview_dir(project: &Project, slug: &str) -> PathBuf {
    project.sites_dir.join(".dev").join(slug)
}

/// `astro dev`, running; stopped (with Vite's workers) when dropped.
pub struct Live {
    running: Running,
    /// Where it listens, on 127.0.0.1.
    pub addr: SocketAddr,
}

impl Live {
    /// Starts `astro dev` in `dir` (a written preview project) on a free
    /// port of 127.0.0.1 and waits until it listens.
    pub fn start(project: &Project, dir: &Path) -> Result<Self> {
        let astro = project.node_modules().join("astro/bin/astro.mjs");
        if !astro.is_file() {
            bail!(
                "Astro is not installed ({} missing): run scripts/setup.sh first",
                astro.display()
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .context("no free port on 127.0.0.1")?
            .port();
        let mut cmd = Command::new(crate::run::astro::node_binary(project));
        cmd.arg(&astro)
            .args(["dev", "--host", "127.0.0.1", "--port", &port.to_string()])
            .current_dir(dir)
            .env("ASTRO_TELEMETRY_DISABLED", "1")
            .env("NO_COLOR", "1")
            .env_remove("FORCE_COLOR")
            .env("BROWSER", "none");
        let mut running = Running::spawn(cmd, "astro dev", "astro", worth_showing)?;
        // Astro takes the next port when that one was taken meanwhile: the
        // address is the one it prints.
        let addr = running.wait_until("astro dev (the live pages)", START_TIMEOUT, listening)?;
        Ok(Live { running, addr })
    }

    /// Whether `astro dev` is still running.
    pub fn running(&mut self) -> bool {
        self.running.running()
    }
}

/// The address `astro dev` says it listens on (`Local  http://127.0.0.1:N/`).
fn listening(log: &str) -> Option<SocketAddr> {
    log.lines().find_map(|line| {
        let rest = line.split("http://127.0.0.1:").nth(1)?;
        let port: u16 = rest.trim_end_matches('/').trim().parse().ok()?;
        line.contains("Local")
            .then(|| SocketAddr::from(([127, 0, 0, 1], port)))
    })
}

/// `astro dev` logs every request; the terminal gets its errors and the
/// pages that failed to render.
fn worth_showing(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("error") || line.contains("[500]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_is_the_one_astro_prints() {
        let log = " astro  v7.3.5 ready in 1356 ms\n┃ Local    http://127.0.0.1:4391/\n┃ Network  use --host to expose\n";
        assert_eq!(
            listening(log),
            Some(SocketAddr::from(([127, 0, 0, 1], 4391)))
        );
        assert_eq!(listening(" astro  v7.3.5 ready in 1356 ms\n"), None);
    }

    #[test]
    fn request_lines_stay_out_of_the_terminal() {
        assert!(!worth_showing("09:26:31 [200] /cars/a/ 36ms"));
        assert!(!worth_showing("09:26:31 [404] /nope/ 20ms"));
        assert!(worth_showing("09:26:31 [500] /cars/a/ 36ms"));
        assert!(worth_showing("[ERROR] [vite] Internal server error: x"));
    }
}
