//! How long the edge keeps what it stores (docs/scale.md § D1): the
//! platform's `retention_days` (`config/deploy.toml` `[edge]`), given to
//! the edge worker as the `RETENTION_DAYS` variable. After that many days
//! the cron deletes, in bounded batches, delivered leads with their
//! deliveries and saved valuations, analytics events, phone reveals and
//! finished reservation holds. A lead that has not reached the dealer
//! (pending, retrying, held, or with no route) is never deleted: the edge
//! is its only copy.

/// The edge worker's variable.
pub const VAR: &str = "RETENTION_DAYS";
/// Without a setting: a year (a dealer's CRM is the lasting record; the
/// edge keeps leads for redelivery, duplicate checks and the dealer's
/// questions about a lead, and no personal detail longer than it needs:
/// the Privacy Act's APP 11.2).
pub const DEFAULT_DAYS: u32 = 365;
/// At least a month (a delivery retried for days, a lead looked up after
/// the CRM lost it), at most ten years.
pub const MIN_DAYS: u32 = 30;
pub const MAX_DAYS: u32 = 3650;
/// Rows each statement deletes at most per cron run (every minute): a
/// backlog is worked off over several runs, and no run holds the database
/// for long.
pub const BATCH: u32 = 500;

/// The days the variable sets: the default without one; Err (with the
/// default to use) for a value that is not a whole number of days in
/// MIN_DAYS..=MAX_DAYS.
pub fn days(var: Option<&str>) -> Result<u32, String> {
    let Some(text) = var.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_DAYS);
    };
    match text.parse::<u32>() {
        Ok(n) if (MIN_DAYS..=MAX_DAYS).contains(&n) => Ok(n),
        _ => Err(format!(
            "{VAR} is {text:?}: expected whole days from {MIN_DAYS} to {MAX_DAYS}; keeping {DEFAULT_DAYS}"
        )),
    }
}

/// The statements of one cron run, in order (a lead's deliveries before
/// the lead, which D1's foreign keys require). Each takes `?1`, the cutoff
/// in Unix seconds, and `?2`, the batch size.
pub const STATEMENTS: [(&str, &str); 6] = [
    (
        "retention: deliveries of old delivered leads",
        "DELETE FROM lead_deliveries WHERE lead_id IN (SELECT id FROM leads WHERE delivery_status = 'delivered' \
         AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch') ORDER BY created_at LIMIT ?2)",
    ),
    (
        "retention: old delivered leads",
        "DELETE FROM leads WHERE id IN (SELECT l.id FROM leads l WHERE l.delivery_status = 'delivered' \
         AND l.created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch') \
         AND NOT EXISTS (SELECT 1 FROM lead_deliveries d WHERE d.lead_id = l.id) ORDER BY l.created_at LIMIT ?2)",
    ),
    (
        "retention: old saved valuations",
        "DELETE FROM miscellaneous WHERE id IN (SELECT m.id FROM miscellaneous m \
         WHERE m.created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch') \
         AND NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = m.lead_id) LIMIT ?2)",
    ),
    (
        "retention: old analytics events",
        "DELETE FROM events WHERE id IN (SELECT id FROM events \
         WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch') ORDER BY id LIMIT ?2)",
    ),
    (
        "retention: old phone reveals",
        "DELETE FROM phone_reveals WHERE id IN (SELECT id FROM phone_reveals \
         WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch') ORDER BY id LIMIT ?2)",
    ),
    (
        "retention: old finished holds",
        "DELETE FROM checkout_holds WHERE id IN (SELECT id FROM checkout_holds \
         WHERE state IN ('released', 'expired', 'ended') AND created_at < ?1 LIMIT ?2)",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_default_bounds_and_refusals() {
        assert_eq!(days(None), Ok(DEFAULT_DAYS));
        assert_eq!(days(Some(" ")), Ok(DEFAULT_DAYS));
        assert_eq!(days(Some("90")), Ok(90));
        for bad in ["0", "29", "3651", "-5", "1y", "365.5"] {
            let e = days(Some(bad)).unwrap_err();
            assert!(e.contains("keeping 365"), "{bad}: {e}");
        }
    }

    #[test]
    fn no_statement_deletes_a_lead_that_has_not_reached_the_dealer() {
        for (what, sql) in STATEMENTS {
            assert!(sql.contains("LIMIT ?2"), "{what}: unbounded");
            if sql.starts_with("DELETE FROM leads")
                || sql.starts_with("DELETE FROM lead_deliveries")
            {
                assert!(sql.contains("delivery_status = 'delivered'"), "{what}");
            }
        }
    }
}
