//! Moments as marketers write them: "2025-07-01" (a whole day) or
//! "2025-08-21 08:30", in the dealer's local time.

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone as _};

use crate::model::TimeZone;

/// "2025-07-01" (from 00:00, or to 23:59:59 when `end_of_day`) or
/// "2025-08-21 08:30". `None` for anything else.
pub fn parse_moment(s: &str, end_of_day: bool) -> Option<NaiveDateTime> {
    if let Ok(dt) = NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M") {
        return Some(dt);
    }
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    if end_of_day {
        d.and_hms_opt(23, 59, 59)
    } else {
        d.and_hms_opt(0, 0, 0)
    }
}

/// The instant a local moment names in the dealer's time zone: the earlier
/// one when clocks go back (the hour happens twice), `None` when clocks go
/// forward over it (the hour does not exist). The config check refuses the
/// latter, so a generator that gets `None` has a config that was not checked.
pub fn instant(tz: TimeZone, local: NaiveDateTime) -> Option<DateTime<chrono_tz::Tz>> {
    tz.tz().from_local_datetime(&local).earliest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_accept_dates_and_local_times() {
        assert_eq!(
            parse_moment("2025-07-24", true).unwrap().to_string(),
            "2025-07-24 23:59:59"
        );
        assert_eq!(
            parse_moment("2025-07-24", false).unwrap().to_string(),
            "2025-07-24 00:00:00"
        );
        assert_eq!(
            parse_moment("2025-08-21 08:30", false).unwrap().to_string(),
            "2025-08-21 08:30:00"
        );
        assert!(parse_moment("21/08/2025", false).is_none());
        assert!(parse_moment("2025-02-30", false).is_none());
        assert!(parse_moment("2025-08-21 25:00", false).is_none());
    }

    #[test]
    fn instants_follow_daylight_saving() {
        let sydney: TimeZone = "Australia/Sydney".parse().unwrap();
        let at = |s: &str| instant(sydney, parse_moment(s, false).unwrap());
        // AEST (+10) in winter, AEDT (+11) in summer.
        assert_eq!(at("2025-07-01 09:00").unwrap().timestamp(), 1_751_324_400);
        assert_eq!(at("2025-12-01 09:00").unwrap().timestamp(), 1_764_540_000);
        // 2025-10-05: clocks go from 02:00 to 03:00; 02:30 never happens.
        assert!(at("2025-10-05 02:30").is_none());
        // 2026-04-05: 02:30 happens twice; the first is taken.
        assert_eq!(at("2026-04-05 02:30").unwrap().timestamp(), 1_775_316_600);
        // Brisbane has no daylight saving.
        let brisbane = TimeZone::default();
        assert!(instant(brisbane, parse_moment("2025-10-05 02:30", false).unwrap()).is_some());
    }
}
