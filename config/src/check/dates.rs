//! Date windows (offers, promo tiles): moments that parse, that exist in
//! the dealer's time zone, and an end not before the start.

use chrono::NaiveDateTime;

use crate::model::TimeZone;
use crate::moment::{instant, parse_moment};

use super::{Ctx, KeyPath};

/// Checks one moment; `None` when it is not usable (already reported).
pub(super) fn check_moment(
    value: &str,
    end_of_day: bool,
    tz: TimeZone,
    path: &KeyPath,
    cx: &mut Ctx,
) -> Option<NaiveDateTime> {
    let Some(local) = parse_moment(value, end_of_day) else {
        cx.err(path, format!("`{value}` is not a date")).expected =
            Some("\"2025-07-01\" or \"2025-08-21 08:30\" (local time)".into());
        return None;
    };
    if instant(tz, local).is_none() {
        // The hour skipped when daylight saving starts: the site would have
        // no instant to start or stop at, and used to drop the tile.
        cx.err(
            path,
            format!(
                "{} does not exist in {tz}: the clocks skip that hour when daylight saving starts",
                local.format("%Y-%m-%d %H:%M")
            ),
        )
        .hint = Some("use a time an hour later (or earlier)".into());
        return None;
    }
    Some(local)
}

/// A start and end (inclusive; a date-only end lasts the whole day).
/// Warns when `end` (a window's last moment) is before the moment the
/// check judges at (`Ctx::now`): the content no longer shows.
pub(super) fn warn_if_ended(end: &str, tz: TimeZone, path: &KeyPath, what: &str, cx: &mut Ctx) {
    let Some(now) = cx.now else { return };
    let Some(ended) = parse_moment(end, true).and_then(|l| instant(tz, l)) else {
        return;
    };
    if ended.timestamp() < now {
        cx.warn(path, format!("{what} ended {end}: it no longer shows"))
            .hint = Some("give it new dates, or remove it".into());
    }
}

pub(super) fn check_window(
    start: &str,
    end: &str,
    tz: TimeZone,
    path: &KeyPath,
    (start_key, end_key): (&str, &str),
    cx: &mut Ctx,
) {
    let s = check_moment(start, false, tz, &path.clone().key(start_key), cx);
    let e = check_moment(end, true, tz, &path.clone().key(end_key), cx);
    if let (Some(s), Some(e)) = (s, e) {
        if e < s {
            cx.err(
                &path.clone().key(end_key),
                format!("`{end_key}` {end} is before `{start_key}` {start}"),
            )
            .hint = Some("the window would never be open; swap the dates or fix the year".into());
        }
    }
}
