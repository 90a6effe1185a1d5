//! The puzzle of the day: one 4×4 board at a fixed shortest distance and one bundled photo a
//! day, both chosen from the date alone, so every player has the same puzzle on the same date,
//! offline, forever. The day changes at midnight UTC. Results are kept by day, with the
//! streak of days played.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use npuzzle::generate::GenerateError;
use npuzzle::random::SplitMix64;
use npuzzle::{Board, Options, Shape};
use serde::{Deserialize, Serialize};

/// The board of the day: 4×4.
pub const DAILY_SHAPE: (usize, usize) = (4, 4);
/// Its shortest solution: 36 moves, a hard puzzle that most players finish.
pub const DAILY_DISTANCE: usize = 36;
/// The bundled photos (file names in `assets/photos/`) the puzzle of the day is drawn from, in
/// the order [`DailyPuzzle::photo`] indexes them: each has shapes and colours to find a tile's
/// place by eye (the Hubble Deep Field, galaxies alike on black, is left out). The app and the
/// leaderboard's server both read the day's photo here.
pub const DAILY_PHOTOS: [&str; 4] = ["chelsea.png", "coffee.png", "rocket.jpg", "astronaut.png"];

/// A day, counted from 1 January 1970 (UTC).
pub type Day = i64;

/// Today, by the system clock, in UTC.
pub fn today() -> Day {
    let seconds = match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(since) => since.as_secs() as i64,
        Err(before) => -(before.duration().as_secs() as i64),
    };
    seconds.div_euclid(86_400)
}

/// The calendar date (year, month 1–12, day 1–31) of a day, in the proleptic Gregorian
/// calendar (Howard Hinnant's `civil_from_days`); [`day_of`] is its inverse.
pub fn civil_date(day: Day) -> (i64, u32, u32) {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let date = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, date)
}

/// The day of a calendar date (month 1–12, day 1–31; not checked: see [`days_in_month`]), the
/// inverse of [`civil_date`] (Howard Hinnant's `days_from_civil`).
pub fn day_of(year: i64, month: u32, date: u32) -> Day {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let shifted_month = i64::from((month + 9) % 12);
    let day_of_year = (153 * shifted_month + 2) / 5 + i64::from(date) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The days in a month (1–12) of a year, 0 for a month that is not one.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    }
}

/// What a day's puzzle is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailyPuzzle {
    /// The day.
    pub day: Day,
    /// The board's seed (for [`crate::make_board`] at [`DAILY_DISTANCE`]).
    pub seed: u64,
    /// Which bundled photo, as an index.
    pub photo: usize,
}

impl DailyPuzzle {
    /// The puzzle of a day, with `photos` bundled photos to choose from.
    pub fn of(day: Day, photos: usize) -> DailyPuzzle {
        let mut rng = SplitMix64::new(0x5eed_da11 ^ day as u64);
        let seed = rng.next_u64();
        let photo = rng.below(photos.max(1) as u64) as usize;
        DailyPuzzle { day, seed, photo }
    }

    /// The board's shape.
    pub fn shape() -> Shape {
        Shape::new(DAILY_SHAPE.0, DAILY_SHAPE.1).expect("4×4 is a board")
    }

    /// The day's board as the app deals it: [`DAILY_SHAPE`], exactly [`DAILY_DISTANCE`] moves
    /// from solved, made from the day's seed. The same board whichever tables `options` name
    /// (only its speed depends on them).
    ///
    /// # Errors
    ///
    /// A [`GenerateError`] when the search runs out of the options' budget or is cancelled.
    pub fn board(&self, options: &Options) -> Result<Board, GenerateError> {
        crate::make_board(
            DailyPuzzle::shape(),
            crate::Recipe::Exact(DAILY_DISTANCE),
            self.seed,
            options,
        )
    }

    /// The file name of the day's photo, one of [`DAILY_PHOTOS`] (with `photos` the count of
    /// [`DAILY_PHOTOS`] given to [`DailyPuzzle::of`]).
    pub fn photo_name(&self) -> &'static str {
        DAILY_PHOTOS[self.photo % DAILY_PHOTOS.len()]
    }
}

/// One day's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyResult {
    /// Moves made.
    pub moves: usize,
    /// Time taken, in milliseconds.
    pub millis: u64,
    /// The shortest solution.
    pub shortest: usize,
    /// Whether the app helped.
    pub helped: bool,
}

impl DailyResult {
    /// How many moves more than the shortest.
    pub fn extra(&self) -> usize {
        self.moves.saturating_sub(self.shortest)
    }
}

/// Every day's result (kept in the daily file).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyResults(pub BTreeMap<Day, DailyResult>);

impl DailyResults {
    /// Keeps a day's result; a day already played keeps its better result (fewer moves).
    pub fn record(&mut self, day: Day, result: DailyResult) {
        let better = self
            .0
            .get(&day)
            .is_none_or(|old| (result.moves, result.millis) < (old.moves, old.millis));
        if better {
            self.0.insert(day, result);
        }
    }

    /// The days played in a row up to `today` (or up to yesterday, if today is not played
    /// yet: the streak is still alive).
    pub fn streak(&self, today: Day) -> usize {
        let start = if self.0.contains_key(&today) {
            today
        } else {
            today - 1
        };
        (0..)
            .take_while(|back| self.0.contains_key(&(start - back)))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Recipe, make_board};

    #[test]
    fn dates_and_days_convert_both_ways() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_790), (2026, 12, 3));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(day_of(2000, 2, 29), 11_016);
        assert_eq!(day_of(1969, 12, 31), -1);
        for day in (-800_000..3_000_000).step_by(997) {
            let (year, month, date) = civil_date(day);
            assert!(date >= 1 && date <= days_in_month(year, month));
            assert_eq!(day_of(year, month, date), day);
        }
        assert_eq!(days_in_month(1900, 2), 28);
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(2024, 13), 0);
    }

    #[test]
    fn a_day_has_one_puzzle_and_days_differ() {
        // Small tables, quick to build: the board does not depend on which tables search.
        let options = npuzzle::Options::default().with_partition("5-5-5");
        let day = 20_787; // 30 Nov 2026
        assert_eq!(DailyPuzzle::of(day, 5), DailyPuzzle::of(day, 5));
        let boards: Vec<_> = (day..day + 3)
            .map(|d| {
                let puzzle = DailyPuzzle::of(d, 5);
                make_board(
                    DailyPuzzle::shape(),
                    Recipe::Exact(DAILY_DISTANCE),
                    puzzle.seed,
                    &options,
                )
                .unwrap()
            })
            .collect();
        assert_ne!(boards[0], boards[1]);
        assert_ne!(boards[1], boards[2]);
        // The same date gives the same board again, and it is exactly that far.
        let again = make_board(
            DailyPuzzle::shape(),
            Recipe::Exact(DAILY_DISTANCE),
            DailyPuzzle::of(day, 5).seed,
            &options,
        )
        .unwrap();
        assert_eq!(again, boards[0]);
        let shortest = npuzzle::distance::optimal_distance(&again, &options);
        assert_eq!(shortest, Ok(DAILY_DISTANCE));
    }

    #[test]
    fn the_days_board_is_the_one_made_from_its_seed_and_its_photo_one_of_the_list() {
        let options = npuzzle::Options::default().with_partition("5-5-5");
        let puzzle = DailyPuzzle::of(20_787, DAILY_PHOTOS.len());
        let made = make_board(
            DailyPuzzle::shape(),
            Recipe::Exact(DAILY_DISTANCE),
            puzzle.seed,
            &options,
        );
        assert_eq!(puzzle.board(&options).unwrap(), made.unwrap());
        assert_eq!(puzzle.photo_name(), DAILY_PHOTOS[puzzle.photo]);
        let names: std::collections::BTreeSet<_> = (20_787..20_807)
            .map(|day| DailyPuzzle::of(day, DAILY_PHOTOS.len()).photo_name())
            .collect();
        assert_eq!(names.len(), DAILY_PHOTOS.len(), "every photo comes");
    }

    #[test]
    fn the_streak_counts_days_in_a_row() {
        let result = DailyResult {
            moves: 40,
            millis: 60_000,
            shortest: 36,
            helped: false,
        };
        let mut results = DailyResults::default();
        assert_eq!(results.streak(100), 0);
        for day in [95, 97, 98, 99] {
            results.record(day, result);
        }
        assert_eq!(results.streak(100), 3, "alive until today is over");
        results.record(100, result);
        assert_eq!(results.streak(100), 4);
        assert_eq!(results.streak(102), 0, "a day missed");
        // A second try keeps the better result.
        results.record(
            100,
            DailyResult {
                moves: 38,
                ..result
            },
        );
        results.record(
            100,
            DailyResult {
                moves: 50,
                ..result
            },
        );
        assert_eq!(results.0[&100].moves, 38);
        assert_eq!(results.0[&100].extra(), 2);
    }
}
