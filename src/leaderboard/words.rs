//! What the win card says of a result on the day's board.

use board_client::Standing;

/// "1st", "2nd", "3rd", "4th", "11th", "12th", "21st", "112th".
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "12th of 340 today, 3.4 s behind the fastest"; "1st of 340 today: the fastest"; "On
/// today's board." when the server did not say where.
pub fn standing_words(standing: &Standing) -> String {
    let (Some(rank), Some(of)) = (standing.rank, standing.of) else {
        return "On today's board.".to_string();
    };
    let place = format!("{} of {of} today", ordinal(rank));
    match (standing.time_ms, standing.fastest_ms) {
        (Some(time), Some(fastest)) if time > fastest => {
            let behind = (time - fastest) as f64 / 1000.0;
            format!("{place}, {behind:.1} s behind the fastest")
        }
        (Some(_), Some(_)) if of > 1 => format!("{place}: the fastest"),
        _ => place,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_as_words() {
        let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 112, 101]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            said,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "112th",
                "101st"
            ]
        );
    }

    #[test]
    fn the_card_says_the_place_and_how_far_behind_the_fastest() {
        let mut standing = Standing {
            rank: Some(12),
            of: Some(340),
            time_ms: Some(20_000),
            fastest_ms: Some(16_600),
        };
        assert_eq!(
            standing_words(&standing),
            "12th of 340 today, 3.4 s behind the fastest"
        );
        standing = Standing {
            rank: Some(1),
            of: Some(340),
            time_ms: Some(16_600),
            fastest_ms: Some(16_600),
        };
        assert_eq!(standing_words(&standing), "1st of 340 today: the fastest");
        standing.fastest_ms = None;
        assert_eq!(standing_words(&standing), "1st of 340 today");
        assert_eq!(standing_words(&Standing::default()), "On today's board.");
    }
}
