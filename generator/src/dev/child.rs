//! A tool `dealergen dev` runs beside itself (wrangler for the edge
//! worker, `astro dev` for the live pages): started in a process group of
//! its own so stopping it stops what it started (workerd, Vite's workers),
//! its output read line by line into a bounded log (shown when it fails to
//! start) and, once it is up, the lines worth a reader's eye passed to the
//! terminal with a mark.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// The most of a tool's output kept for an error message.
const MAX_LOG: usize = 64 * 1024;

/// A running tool; stopped (with its whole process group) when dropped.
pub struct Running {
    child: Option<Child>,
    log: Arc<Mutex<String>>,
    ready: Arc<AtomicBool>,
    /// Output readers still reading (each ends at its pipe's end).
    reading: Arc<std::sync::atomic::AtomicUsize>,
}

impl Running {
    /// Starts `cmd` with its output piped. Once [`Running::ready`] is
    /// called, each line for which `echo` holds is printed as `mark | line`.
    pub fn spawn(
        mut cmd: Command,
        what: &str,
        mark: &'static str,
        echo: fn(&str) -> bool,
    ) -> Result<Self> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        own_process_group(&mut cmd);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start {what}"))?;
        let log = Arc::new(Mutex::new(String::new()));
        let ready = Arc::new(AtomicBool::new(false));
        let reading = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let outputs = [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
        ];
        for out in outputs.into_iter().flatten() {
            let (log, ready, reading) = (log.clone(), ready.clone(), reading.clone());
            reading.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    let line = strip_ansi(&line);
                    if line.trim().is_empty() {
                        continue;
                    }
                    if ready.load(Ordering::SeqCst) && echo(&line) {
                        eprintln!("{mark} | {line}");
                    }
                    let mut log = log.lock().expect("log lock");
                    if log.len() < MAX_LOG {
                        log.push_str(&line);
                        log.push('\n');
                    }
                }
                reading.fetch_sub(1, Ordering::SeqCst);
            });
        }
        Ok(Running {
            child: Some(child),
            log,
            ready,
            reading,
        })
    }

    /// The output so far (its first [`MAX_LOG`] bytes).
    pub fn log(&self) -> String {
        self.log.lock().expect("log lock").clone()
    }

    /// Up: its lines go to the terminal from now on.
    pub fn ready(&self) {
        self.ready.store(true, Ordering::SeqCst);
    }

    /// How it ended, if it has.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child
            .as_mut()
            .and_then(|c| c.try_wait().ok().flatten())
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        self.child.is_some() && self.exited().is_none()
    }

    /// Waits until `up` holds (polled every 100 ms), failing with the log
    /// when the tool stops first or `timeout` passes.
    pub fn wait_until<T>(
        &mut self,
        what: &str,
        timeout: Duration,
        mut up: impl FnMut(&str) -> Option<T>,
    ) -> Result<T> {
        let started = Instant::now();
        loop {
            if let Some(found) = up(&self.log()) {
                self.ready();
                return Ok(found);
            }
            if let Some(status) = self.exited() {
                // Its last lines may still be in the pipes: read them (a
                // grandchild holding a pipe open gets 2 s).
                let end = Instant::now() + Duration::from_secs(2);
                while self.reading.load(Ordering::SeqCst) > 0 && Instant::now() < end {
                    std::thread::sleep(Duration::from_millis(10));
                }
                anyhow::bail!(
                    "{what} stopped ({status}) before it was ready:\n{}",
                    self.log()
                );
            }
            if started.elapsed() > timeout {
                anyhow::bail!(
                    "{what} was not ready within {}s; its output:\n{}",
                    timeout.as_secs(),
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stops it and everything it started (its process group): SIGTERM,
    /// then SIGKILL after 5 s.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let group = child.id() as i32;
        signal_group(group, libc::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && child.try_wait().ok().flatten().is_none() {
            std::thread::sleep(Duration::from_millis(50));
        }
        // workerd may outlive wrangler briefly: the group goes in any case.
        signal_group(group, libc::SIGKILL);
        let _ = child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `text` without terminal colour codes (ESC [ ... letter).
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The child leads a process group of its own, so stopping it stops
/// what it started too; on Linux it is also told to stop if dealergen
/// dies (the signal follows the thread that spawned it: `dealergen dev`
/// starts its tools from its main thread, which lives as long as the
/// process).
fn own_process_group(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    unsafe {
        // SAFETY: prctl is async-signal-safe; nothing else runs in the fork.
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: kill(2) with a negative pid signals that process group only.
    unsafe {
        libc::kill(-group, signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_codes_are_left_out_of_the_log() {
        assert_eq!(
            strip_ansi("\u{1b}[33m▲ \u{1b}[43;33m[WARNING]\u{1b}[0m Scheduled"),
            "▲ [WARNING] Scheduled"
        );
    }

    #[test]
    fn waiting_ends_with_the_log_when_the_tool_stops_and_stopping_ends_the_group() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo starting; exit 3"]);
        let mut failed = Running::spawn(cmd, "the test tool", "t", |_| true).unwrap();
        let err = failed
            .wait_until("the test tool", Duration::from_secs(10), |log| {
                log.contains("never").then_some(())
            })
            .unwrap_err()
            .to_string();
        assert!(err.contains("stopped") && err.contains("starting"), "{err}");

        // A tool whose own child would outlive it: the group goes.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & echo up $!; wait"]);
        let mut up = Running::spawn(cmd, "the test tool", "t", |_| true).unwrap();
        let pid: i32 = up
            .wait_until("the test tool", Duration::from_secs(10), |log| {
                log.lines()
                    .find_map(|l| l.strip_prefix("up ")?.trim().parse().ok())
            })
            .unwrap();
        up.stop();
        assert!(!up.running());
        // Gone, or a zombie waiting for whoever adopted it to reap it; a
        // killed process dies when it next runs, so a busy machine gets 5 s.
        let alive = || {
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            state
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z'))
        };
        let end = Instant::now() + Duration::from_secs(5);
        while alive() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(), "the tool's own child {pid} outlived it");
    }
}
