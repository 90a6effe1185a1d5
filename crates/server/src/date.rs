//! A day's date as the API writes it (YYYY-MM-DD, UTC, the app's day), and when a day takes
//! results: while that date is the local date somewhere on Earth, and for an hour after.

use snapslide_game::{Day, civil_date, day_of, days_in_month};

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;
/// The earliest a date begins anywhere, before it begins in UTC: UTC+14 (Kiribati).
pub const EARLIEST_ZONE_MS: i64 = 14 * 3_600_000;
/// The latest a date ends anywhere, after it ends in UTC: UTC−12 (Baker Island).
pub const LATEST_ZONE_MS: i64 = 12 * 3_600_000;
/// The grace on either side of those: a clock a little wrong, a solve finished at midnight.
pub const GRACE_MS: i64 = 3_600_000;
/// The first year a date may have (the dailies began long after).
pub const FIRST_YEAR: i64 = 2000;

/// The day of a date written `YYYY-MM-DD` (a real date, year from [`FIRST_YEAR`] to 9999),
/// else `None`.
pub fn parse_date(text: &str) -> Option<Day> {
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !shaped {
        return None;
    }
    let year: i64 = text[..4].parse().ok()?;
    let month: u32 = text[5..7].parse().ok()?;
    let date: u32 = text[8..].parse().ok()?;
    let real = year >= FIRST_YEAR && date >= 1 && date <= days_in_month(year, month);
    real.then(|| day_of(year, month, date))
}

/// A day as `YYYY-MM-DD`.
pub fn format_date(day: Day) -> String {
    let (year, month, date) = civil_date(day);
    format!("{year:04}-{month:02}-{date:02}")
}

/// A day as words: "Monday 7 December 2026".
pub fn long_date(day: Day) -> String {
    const WEEKDAYS: [&str; 7] = [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ];
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let (year, month, date) = civil_date(day);
    // 1 January 1970 (day 0) was a Thursday.
    let weekday = WEEKDAYS[(day + 4).rem_euclid(7) as usize];
    format!("{weekday} {date} {} {year}", MONTHS[month as usize - 1])
}

/// The day in UTC at `now_ms` (ms since 1970).
pub fn day_at(now_ms: i64) -> Day {
    now_ms.div_euclid(DAY_MS)
}

/// Whether `day`'s board is out somewhere on Earth at `now_ms` (or within the grace before).
pub fn has_begun(day: Day, now_ms: i64) -> bool {
    now_ms >= day * DAY_MS - EARLIEST_ZONE_MS - GRACE_MS
}

/// Whether `day` takes results at `now_ms`: it is that date somewhere on Earth, give or take
/// [`GRACE_MS`].
pub fn takes_results(day: Day, now_ms: i64) -> bool {
    let ends = (day + 1) * DAY_MS + LATEST_ZONE_MS + GRACE_MS;
    has_begun(day, now_ms) && now_ms < ends
}

/// The clock the server reads: the system's, or a fixed moment (for tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The system clock.
    System,
    /// Always this moment, ms since 1970.
    Fixed(i64),
}

impl Clock {
    /// Now, in ms since 1970.
    pub fn now_ms(self) -> i64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_millis() as i64),
            Clock::Fixed(ms) => ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;

    #[test]
    fn dates_are_read_strictly_and_written_back() {
        let day = parse_date("2026-12-07").unwrap();
        assert_eq!(format_date(day), "2026-12-07");
        assert_eq!(long_date(day), "Monday 7 December 2026");
        assert_eq!(
            parse_date("2024-02-29").map(format_date).as_deref(),
            Some("2024-02-29")
        );
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-07",
            "26-12-07",
            "2026/12/07",
            "1999-12-31",
            "２０２６-12-07",
            "+026-12-07",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_day_takes_results_while_it_is_that_date_somewhere_and_an_hour_more() {
        let day = parse_date("2026-12-07").unwrap();
        let midnight = day * DAY_MS;
        assert!(!takes_results(day, midnight - 15 * HOUR - 1));
        assert!(
            takes_results(day, midnight - 15 * HOUR),
            "14 h east, 1 h grace"
        );
        assert!(takes_results(day, midnight + 12 * HOUR));
        assert!(
            takes_results(day, midnight + 37 * HOUR - 1),
            "12 h west, 1 h grace"
        );
        assert!(!takes_results(day, midnight + 37 * HOUR));
        assert!(has_begun(day, midnight - 15 * HOUR));
        assert!(!has_begun(day, midnight - 15 * HOUR - 1));
        assert_eq!(day_at(midnight + 5), day);
        assert_eq!(day_at(midnight - 5), day - 1);
    }
}
