//! Fixed-window rate limits. The worker keeps one counter row per
//! (bucket, window) in D1 and increments it atomically; these functions
//! decide the window and whether the returned count is still allowed.

/// A limit: at most `max` events per `window_secs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub max: u64,
    pub window_secs: u64,
}

/// Phone reveals per client per dealer: a shopper comparing cars reveals a
/// handful; a scraper walking the stock list needs hundreds.
pub const PHONE_REVEAL: Limit = Limit {
    max: 20,
    window_secs: 3600,
};

/// Sign-in codes per phone per dealer (each costs an SMS).
pub const CODE_REQUESTS: Limit = Limit {
    max: crate::session::MAX_CODE_REQUESTS_PER_HOUR,
    window_secs: 3600,
};

/// Sign-in code requests per client address, so one client cannot spray
/// codes at many numbers.
pub const CODE_REQUESTS_PER_CLIENT: Limit = Limit {
    max: 20,
    window_secs: 3600,
};

impl Limit {
    /// Start of the window `now` falls in (aligned, so every worker instance
    /// agrees on it without coordination).
    pub fn window_start(&self, now: u64) -> u64 {
        let w = self.window_secs.max(1);
        now - now % w
    }

    /// The counter key for `bucket` (e.g. "reveal:<dealer>:<client>") now.
    pub fn key(&self, bucket: &str, now: u64) -> String {
        format!("{bucket}@{}", self.window_start(now))
    }

    /// Whether the event that brought the counter to `count` is allowed.
    pub fn allows(&self, count: u64) -> bool {
        count <= self.max
    }

    /// Seconds until the current window ends (for `Retry-After`).
    pub fn retry_after(&self, now: u64) -> u64 {
        self.window_start(now) + self.window_secs.max(1) - now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_aligned_and_keys_change_with_them() {
        let l = Limit {
            max: 3,
            window_secs: 60,
        };
        assert_eq!(l.window_start(119), 60);
        assert_eq!(l.window_start(120), 120);
        assert_eq!(l.key("reveal:a:x", 100), "reveal:a:x@60");
        assert_ne!(l.key("reveal:a:x", 100), l.key("reveal:a:x", 130));
        assert_eq!(l.retry_after(100), 20);
        assert_eq!(l.retry_after(120), 60);
    }

    #[test]
    fn allows_up_to_max_per_window() {
        let l = Limit {
            max: 3,
            window_secs: 60,
        };
        let allowed: Vec<bool> = (1..=5).map(|n| l.allows(n)).collect();
        assert_eq!(allowed, [true, true, true, false, false]);
        assert!(PHONE_REVEAL.allows(PHONE_REVEAL.max));
        assert!(!PHONE_REVEAL.allows(PHONE_REVEAL.max + 1));
    }

    #[test]
    fn zero_window_does_not_divide_by_zero() {
        let l = Limit {
            max: 1,
            window_secs: 0,
        };
        assert_eq!(l.window_start(5), 5);
        assert_eq!(l.retry_after(5), 1);
    }
}
