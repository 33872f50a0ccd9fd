//! Opening hours as written in YAML ("08:30-17:30" or "closed") and as
//! shown to shoppers ("8:30am - 5:30pm", one "Mon-Fri" line when the five
//! weekdays agree: docs/behaviour/content.md §4).

use crate::model::{ClosedText, WeekHours};

/// One day's hours, in minutes after midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayHours {
    Closed,
    Open { open: u16, close: u16 },
}

/// Parses "08:30-17:30" or "closed" (also "" and a missing day mean closed).
pub fn parse_day(s: &str) -> Result<DayHours, String> {
    let t = s.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("closed") {
        return Ok(DayHours::Closed);
    }
    let (a, b) = t
        .split_once('-')
        .ok_or_else(|| format!("`{t}` is not a time range"))?;
    let open = parse_time(a.trim())?;
    let close = parse_time(b.trim())?;
    if close <= open {
        return Err(format!(
            "closing time {} is not after opening time {}",
            b.trim(),
            a.trim()
        ));
    }
    Ok(DayHours::Open { open, close })
}

/// Parses "8:30" or "17:30" (24-hour) into minutes after midnight.
pub fn parse_time(s: &str) -> Result<u16, String> {
    let (h, m) = s
        .split_once(':')
        .ok_or_else(|| format!("`{s}` is not a time like 08:30"))?;
    let h: u16 = h
        .parse()
        .map_err(|_| format!("`{s}` is not a time like 08:30"))?;
    let m: u16 = m
        .parse()
        .map_err(|_| format!("`{s}` is not a time like 08:30"))?;
    if h > 24
        || m > 59
        || (h == 24 && m > 0)
        || s.split_once(':').is_some_and(|(_, mm)| mm.len() != 2)
    {
        return Err(format!("`{s}` is not a valid time of day"));
    }
    Ok(h * 60 + m)
}

/// "8:30am", "12pm", "5:30pm".
pub fn format_time(minutes: u16) -> String {
    let (h, m) = (minutes / 60, minutes % 60);
    let suffix = if (12..24).contains(&h) { "pm" } else { "am" };
    let h12 = match h % 12 {
        0 => 12,
        x => x,
    };
    if m == 0 {
        format!("{h12}{suffix}")
    } else {
        format!("{h12}:{m:02}{suffix}")
    }
}

pub fn format_day(day: DayHours, closed: ClosedText) -> String {
    match day {
        DayHours::Closed => match closed {
            ClosedText::Closed => "Closed".into(),
            ClosedText::ByAppointment => "By appointment only".into(),
        },
        DayHours::Open { open, close } => format!("{} - {}", format_time(open), format_time(close)),
    }
}

const DAY_LABELS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// Lines for an hours table: Monday to Sunday, with the weekdays as one
/// "Mon-Fri" line when all five are the same. Unparseable days count as
/// closed (validation has already refused them).
pub fn week_lines(week: &WeekHours, closed: ClosedText) -> Vec<(String, String)> {
    let days: Vec<DayHours> = week
        .days()
        .iter()
        .map(|(_, d)| {
            d.as_deref()
                .map(parse_day)
                .and_then(Result::ok)
                .unwrap_or(DayHours::Closed)
        })
        .collect();
    let mut lines = Vec::new();
    let start = if days[..5].iter().all(|d| *d == days[0]) {
        lines.push(("Mon-Fri".to_string(), format_day(days[0], closed)));
        5
    } else {
        0
    };
    for i in start..7 {
        lines.push((DAY_LABELS[i].to_string(), format_day(days[i], closed)));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn week(weekday: &str, sat: Option<&str>) -> WeekHours {
        WeekHours {
            mon: Some(weekday.into()),
            tue: Some(weekday.into()),
            wed: Some(weekday.into()),
            thu: Some(weekday.into()),
            fri: Some(weekday.into()),
            sat: sat.map(String::from),
            sun: None,
        }
    }

    #[test]
    fn parses_ranges_and_closed() {
        assert_eq!(
            parse_day("08:30-17:30"),
            Ok(DayHours::Open {
                open: 510,
                close: 1050
            })
        );
        assert_eq!(parse_day("closed"), Ok(DayHours::Closed));
        assert_eq!(parse_day(" Closed "), Ok(DayHours::Closed));
        assert!(parse_day("17:30-08:30").unwrap_err().contains("not after"));
        assert!(parse_day("8-5").is_err());
        assert!(parse_day("25:00-26:00").is_err());
        assert!(parse_day("08:3-17:30").is_err());
    }

    #[test]
    fn formats_twelve_hour_times() {
        assert_eq!(format_time(510), "8:30am");
        assert_eq!(format_time(720), "12pm");
        assert_eq!(format_time(1050), "5:30pm");
        assert_eq!(format_time(0), "12am");
    }

    #[test]
    fn five_equal_weekdays_make_one_mon_fri_line() {
        let lines = week_lines(
            &week("08:30-17:30", Some("08:00-12:00")),
            ClosedText::Closed,
        );
        assert_eq!(
            lines,
            vec![
                ("Mon-Fri".to_string(), "8:30am - 5:30pm".to_string()),
                ("Sat".to_string(), "8am - 12pm".to_string()),
                ("Sun".to_string(), "Closed".to_string()),
            ]
        );
    }

    #[test]
    fn different_weekdays_are_listed_one_by_one() {
        let mut w = week("08:30-17:30", None);
        w.thu = Some("08:30-21:00".into());
        let lines = week_lines(&w, ClosedText::ByAppointment);
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[3], ("Thu".to_string(), "8:30am - 9pm".to_string()));
        assert_eq!(
            lines[6],
            ("Sun".to_string(), "By appointment only".to_string())
        );
    }
}
