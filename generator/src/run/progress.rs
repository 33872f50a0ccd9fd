//! The progress display of `dealergen build`: dealers done of the total,
//! pages published, errors so far and the elapsed time, plus one spinner
//! per Astro run under way. Drawn on stderr only when it is a terminal,
//! so CI logs and pipes get the plain per-dealer lines and nothing else.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    multi: MultiProgress,
    overall: ProgressBar,
    pages: AtomicUsize,
    errors: AtomicUsize,
}

impl Progress {
    /// A display for `total` dealers (hidden unless stderr is a terminal).
    pub fn new(total: usize) -> Progress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        Progress::with_target(total, target)
    }

    fn with_target(total: usize, target: ProgressDrawTarget) -> Progress {
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total as u64));
        overall.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} dealers  {msg}  {elapsed}")
                .expect("valid template"),
        );
        overall.set_message("0 pages, 0 errors");
        Progress {
            multi,
            overall,
            pages: AtomicUsize::new(0),
            errors: AtomicUsize::new(0),
        }
    }

    /// A spinner for one piece of work (a dealer or a batch), above the total.
    pub fn spinner(&self, prefix: &str) -> ProgressBar {
        let bar = self
            .multi
            .insert_before(&self.overall, ProgressBar::new_spinner());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix:30} {msg}").expect("valid template"),
        );
        bar.set_prefix(prefix.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    }

    /// One dealer finished: its pages (0 when it failed) and whether it failed.
    pub fn dealer_done(&self, pages: usize, failed: bool) {
        let pages = self.pages.fetch_add(pages, Ordering::Relaxed) + pages;
        let errors = self
            .errors
            .fetch_add(usize::from(failed), Ordering::Relaxed)
            + usize::from(failed);
        self.overall
            .set_message(format!("{pages} pages, {errors} errors"));
        self.overall.inc(1);
    }

    /// (dealers done, pages, errors) so far.
    pub fn counts(&self) -> (u64, usize, usize) {
        (
            self.overall.position(),
            self.pages.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
        )
    }

    pub fn finish(&self) {
        self.overall.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_dealers_pages_and_errors() {
        let p = Progress::with_target(3, ProgressDrawTarget::hidden());
        p.dealer_done(120, false);
        p.dealer_done(0, true);
        p.dealer_done(30, false);
        assert_eq!(p.counts(), (3, 150, 1));
        assert_eq!(p.overall.message(), "150 pages, 1 errors");
    }
}
