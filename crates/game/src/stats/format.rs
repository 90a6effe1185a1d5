//! Figures as the player reads them: times to the centisecond (`14.21`, `1:02.37`), TPS to
//! two decimals, moves whole or to two decimals, a DNF as `DNF`.

use super::{Average, Metric};

/// A time of whole centiseconds: `14.21`, or `1:02.37` from a minute on (minutes are not
/// carried into hours: a year is `525600:00.00`).
fn format_whole_centis(centis: u64) -> String {
    let (seconds, centis) = (centis / 100, centis % 100);
    if seconds < 60 {
        format!("{seconds}.{centis:02}")
    } else {
        format!("{}:{:02}.{centis:02}", seconds / 60, seconds % 60)
    }
}

/// A time in milliseconds to the nearest centisecond (a half up): `14.21`, `1:02.37` from a
/// minute on.
pub fn format_centis(ms: u64) -> String {
    format_whole_centis(ms / 10 + u64::from(ms % 10 >= 5))
}

/// A time in milliseconds that need not be whole (an average), to the nearest centisecond,
/// as [`format_centis`] writes it. A negative time or not a number shows as `0.00`.
pub fn format_time(ms: f64) -> String {
    // `as` saturates: a negative or NaN time is 0, a huge one u64::MAX.
    format_whole_centis((ms / 10.0).round() as u64)
}

/// Moves a second, to two decimals: `12.34`.
pub fn format_tps(tps: f64) -> String {
    format!("{tps:.2}")
}

/// A move count: whole (`48`) as it is, an average to two decimals (`52.33`).
pub fn format_moves(moves: f64) -> String {
    if moves.fract() == 0.0 {
        format!("{moves:.0}")
    } else {
        format!("{moves:.2}")
    }
}

/// A figure of a metric as the player reads it: `DNF` for a DNF, `None` when there are not
/// enough results for it.
pub fn format_figure(metric: Metric, figure: Average) -> Option<String> {
    Some(match figure {
        Average::Value(value) => match metric {
            Metric::Time => format_time(value),
            Metric::Moves | Metric::MovesMtm => format_moves(value),
            Metric::Tps => format_tps(value),
        },
        Average::Dnf => "DNF".to_owned(),
        Average::NotEnough => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_show_centiseconds_and_minutes_from_sixty_seconds() {
        assert_eq!(format_centis(14_210), "14.21");
        assert_eq!(format_centis(14_214), "14.21");
        assert_eq!(format_centis(14_215), "14.22");
        assert_eq!(format_centis(0), "0.00");
        assert_eq!(format_centis(7), "0.01");
        assert_eq!(format_centis(59_990), "59.99");
        assert_eq!(format_centis(59_995), "1:00.00");
        assert_eq!(format_centis(62_370), "1:02.37");
        assert_eq!(format_centis(3_600_000), "60:00.00");
        assert_eq!(format_centis(365 * 24 * 3_600_000), "525600:00.00");
        assert_eq!(format_centis(u64::MAX), "307445734561825:51.62");
    }

    #[test]
    fn averages_round_to_the_nearest_centisecond() {
        assert_eq!(format_time(14_204.6), "14.20");
        assert_eq!(format_time(14_205.0), "14.21");
        assert_eq!(format_time(59_999.9), "1:00.00");
        assert_eq!(format_time(-3.0), "0.00");
        assert_eq!(format_time(f64::NAN), "0.00");
    }

    #[test]
    fn figures_show_in_their_metric() {
        assert_eq!(
            format_figure(Metric::Time, Average::Value(14_213.3)),
            Some("14.21".into())
        );
        assert_eq!(
            format_figure(Metric::Tps, Average::Value(12.345_6)),
            Some("12.35".into())
        );
        assert_eq!(
            format_figure(Metric::Tps, Average::Value(8.0)),
            Some("8.00".into())
        );
        assert_eq!(
            format_figure(Metric::Moves, Average::Value(48.0)),
            Some("48".into())
        );
        assert_eq!(
            format_figure(Metric::MovesMtm, Average::Value(157.0 / 3.0)),
            Some("52.33".into())
        );
        assert_eq!(
            format_figure(Metric::Time, Average::Dnf),
            Some("DNF".into())
        );
        assert_eq!(format_figure(Metric::Moves, Average::NotEnough), None);
    }
}
