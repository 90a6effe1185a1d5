//! The player's words, in one place: counts read as spoken ("1 move", "an 18-move"), dates,
//! how far a new board is from solved, and the review in sentences. The rules (`game`) hold
//! numbers and facts; the sentences made of them are written here.

use npuzzle::{Move, Shape};

use crate::game::{DailyResults, Day, GameKind, Recipe, Summary};

/// "1 move", "2 moves".
pub fn moves_text(count: usize) -> String {
    if count == 1 {
        "1 move".into()
    } else {
        format!("{count} moves")
    }
}

/// The way a blank move slides the tile beside the blank: the blank going left slides a tile
/// right.
pub fn tile_direction(mv: Move) -> &'static str {
    match mv {
        Move::Left => "right",
        Move::Right => "left",
        Move::Up => "down",
        Move::Down => "up",
    }
}

/// A row or column of the board read aloud: "Row 2: 5, 6, gap, 8. Two in place." (`row`:
/// a row, else a column; `at`: a cell on it).
pub fn line_text(board: &npuzzle::Board, row: bool, at: usize) -> String {
    let width = board.width();
    let cells: Vec<usize> = match row {
        true => {
            let first = at / width * width;
            (first..first + width).collect()
        }
        false => (at % width..board.tiles().len()).step_by(width).collect(),
    };
    let said: Vec<String> = cells
        .iter()
        .map(|&cell| match board.tiles()[cell] {
            0 => "gap".to_string(),
            tile => tile.to_string(),
        })
        .collect();
    let home = cells
        .iter()
        .filter(|&&cell| {
            let tile = board.tiles()[cell];
            tile != 0 && usize::from(tile) == cell + 1
        })
        .count();
    let (name, number) = match row {
        true => ("Row", at / width + 1),
        false => ("Column", at % width + 1),
    };
    let in_place = match home {
        0 => "None in place.".to_string(),
        n => format!("{} in place.", count_word(n)),
    };
    format!("{name} {number}: {}. {in_place}", said.join(", "))
}

/// A small count as a word at the start of a sentence ("Two"), a larger one as digits.
fn count_word(n: usize) -> String {
    const WORDS: [&str; 9] = [
        "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map_or(n.to_string(), |w| (*w).to_string())
}

/// A board that came on, in words, for a screen reader: a new one, the same from its start, a
/// solve watched again, the review, the game brought back.
pub fn board_came_text(game: &crate::game::Game, began: crate::messages::Began) -> String {
    use crate::messages::Began;
    let shape = game.board().shape();
    let size = format!("{}×{}", shape.width, shape.height);
    match (game.kind(), began) {
        (GameKind::Replay(_), _) => format!("A {size} solve, watched again from its start."),
        (GameKind::Review(_), _) => format!("The review of your {size} solve, from its start."),
        _ if game.is_won() => format!("Your {size} game, solved in {}.", moves_text(game.moves())),
        (_, Began::Restarted) => format!("The same {size} board, from its start."),
        (_, Began::Resumed) => format!("Your {size} game, {} in.", moves_text(game.moves())),
        (_, Began::New) => format!("A new {size} board."),
    }
}

/// A move in words, for a screen reader: "Tile 7 moved left.", "Tiles 5, 6 and 7 moved up.".
pub fn moved_text(tiles: &[u8], mv: Move) -> String {
    if tiles.is_empty() {
        return String::new();
    }
    sentence(&format!(
        "{} moved {}",
        tile_list(tiles),
        tile_direction(mv)
    ))
}

/// A move in words when the tiles are hidden (a blind solve): "A tile moved left.", "3 tiles
/// moved up.": how many, never which.
pub fn moved_blind_text(count: usize, mv: Move) -> String {
    match count {
        0 => String::new(),
        1 => format!("A tile moved {}.", tile_direction(mv)),
        count => format!("{count} tiles moved {}.", tile_direction(mv)),
    }
}

/// Tiles counted, not named: "1 tile", "2 tiles".
pub fn tile_count(count: usize) -> String {
    match count {
        1 => "1 tile".to_string(),
        count => format!("{count} tiles"),
    }
}

/// Words as a sentence: a capital first, one full stop last.
fn sentence(words: &str) -> String {
    let mut letters = words.chars();
    let Some(first) = letters.next() else {
        return String::new();
    };
    let rest = letters.as_str().trim_end_matches('.');
    format!("{}{rest}.", first.to_uppercase())
}

/// A hint in words: "Hint: tile 7, left." (the tile the hinted blank move slides).
pub fn hint_text(tile: u8, mv: Move) -> String {
    format!("Hint: tile {tile}, {}.", tile_direction(mv))
}

/// Tiles named in a list: "tile 8", "tiles 5 and 6", "tiles 2, 3 and 4".
pub fn tile_list(tiles: &[u8]) -> String {
    match tiles {
        [] => String::new(),
        [tile] => format!("tile {tile}"),
        [first @ .., last] => {
            let first: Vec<String> = first.iter().map(u8::to_string).collect();
            format!("tiles {} and {last}", first.join(", "))
        }
    }
}

/// A distance from solved: "23 moves from solved.", or "At least 120 moves from solved.".
pub fn distance_text(moves: usize, exact: bool) -> String {
    if exact {
        format!("{} from solved.", moves_text(moves))
    } else {
        format!("At least {} from solved.", moves_text(moves))
    }
}

/// Why a set-up board cannot be played, in the player's words: what to change, without the
/// line and column a parser would give (the command line keeps those).
pub fn setup_error_text(error: &crate::game::SetupError) -> String {
    use npuzzle::ParseErrorKind::*;
    let crate::game::SetupError::Parse(parse) = error else {
        return sentence(&error.to_string());
    };
    match &parse.kind {
        Empty => "Type the rows of a board, 0 for the gap.".into(),
        RowLength {
            row,
            expected,
            found,
        } => format!("Row {row} needs {expected} numbers; it has {found}."),
        RowCount { expected, found } => {
            format!("The board needs {expected} rows; it has {found}.")
        }
        NotANumber(text) => format!("“{text}” is not a number: type the tiles, 0 for the gap."),
        Negative(text) => format!("{text} is below 0: tiles start at 1, and 0 is the gap."),
        OutOfRange { text, max } => {
            format!("{text} is too big: on this board the tiles go up to {max}.")
        }
        Duplicate { tile, missing, .. } => {
            format!("Tile {tile} is there twice, and tile {missing} is missing.")
        }
        _ => sentence(&parse.kind.to_string()),
    }
}

/// "1 day", "2 days".
pub fn days_text(count: usize) -> String {
    if count == 1 {
        "1 day".into()
    } else {
        format!("{count} days")
    }
}

/// The article before a number read aloud: "an" for 8, 11, 18, 80…, else "a".
pub fn article(number: usize) -> &'static str {
    let spoken = number.to_string();
    let eleven_or_eighteen =
        spoken.len() % 3 == 2 && ["11", "18"].iter().any(|p| spoken.starts_with(p));
    if spoken.starts_with('8') || eleven_or_eighteen {
        "an"
    } else {
        "a"
    }
}

/// "a 17-move", "an 18-move", "an 8-move", "an 11-move".
pub fn a_moves(count: usize) -> String {
    format!("{} {count}-move", article(count))
}

/// The months as the player reads them in a date.
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A day as a date: "30 Nov 2026".
pub fn date_text(day: Day) -> String {
    let (year, month, date) = crate::game::civil_date(day);
    format!("{date} {} {year}", MONTHS[month as usize - 1])
}

/// The day's results in a line for the records: how many played, the streak, how many in the
/// fewest moves possible; `None` before the first.
pub fn days_summary(days: &DailyResults, today: Day) -> Option<String> {
    if days.0.is_empty() {
        return None;
    }
    let played = days.0.len();
    let fewest = days.0.values().filter(|r| r.extra() == 0).count();
    let streak = days.streak(today);
    Some(format!(
        "Puzzles of the day: {played} played, {fewest} in the fewest moves possible; streak: {}.",
        days_text(streak)
    ))
}

/// The day's result to share, giving nothing of the board away: "Snapslide, puzzle of 5 Dec
/// 2026 · 38 moves (2 more than the shortest) · 1:12 · streak 3 days".
pub fn day_share_text(day: Day, result: &crate::game::DailyResult, streak: usize) -> String {
    let how_far = match result.extra() {
        0 => "the fewest possible".to_string(),
        extra => format!("{} more than the shortest", moves_text(extra)),
    };
    let helped = if result.helped { " · with help" } else { "" };
    format!(
        "Snapslide, puzzle of {} · {} ({how_far}) · {}{helped} · streak {}",
        date_text(day),
        moves_text(result.moves),
        result_time(std::time::Duration::from_millis(result.millis)),
        days_text(streak)
    )
}

/// "0:34", "12:05".
pub fn clock(time: std::time::Duration) -> String {
    let seconds = time.as_secs();
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// A result's time: to the centisecond under a minute ("24.37 s"), as the clock above it
/// ("1:04").
pub fn result_time(time: std::time::Duration) -> String {
    if time.as_secs() < 60 {
        let centis = time.as_millis() / 10;
        format!("{}.{:02} s", centis / 100, centis % 100)
    } else {
        clock(time)
    }
}

/// The minute `now_ms` (ms since 1970, UTC) as a file name's part: "20261205-1130".
pub fn file_stamp(now_ms: i64) -> String {
    let (year, month, date) = crate::game::civil_date(now_ms.div_euclid(86_400_000));
    let minutes = now_ms.rem_euclid(86_400_000) / 60_000;
    let (hour, minute) = (minutes / 60, minutes % 60);
    format!("{year}{month:02}{date:02}-{hour:02}{minute:02}")
}

/// How many of the latest puzzles of the day the records list one by one.
pub const DAYS_LISTED: usize = 7;

/// The latest puzzles of the day played, newest first: the day ("Today", "Yesterday", "30
/// Nov"), the moves, the time, and how they compare with the shortest ("fewest", "+4",
/// with "helped" when the app helped).
pub fn day_rows(days: &DailyResults, today: Day) -> Vec<[String; 4]> {
    days.0
        .iter()
        .rev()
        .take(DAYS_LISTED)
        .map(|(&day, result)| {
            let mut against = match result.extra() {
                0 => "fewest".to_string(),
                extra => format!("+{extra}"),
            };
            if result.helped {
                against += ", helped";
            }
            [
                day_name(day, today),
                result.moves.to_string(),
                result_time(std::time::Duration::from_millis(result.millis)),
                against,
            ]
        })
        .collect()
}

/// A day as the player says it: "Today", "Yesterday", else "30 Nov".
pub fn day_name(day: Day, today: Day) -> String {
    match today - day {
        0 => "Today".into(),
        1 => "Yesterday".into(),
        _ => {
            let (_, month, date) = crate::game::civil_date(day);
            format!("{date} {}", MONTHS[month as usize - 1])
        }
    }
}

/// What a new board is, as the player reads it before the first move: "24 moves from solved
/// (shortest)" where the distance is known, "Shuffled by 375 random moves", "Drawn at random
/// from every board"; nothing for a board set up or a review.
pub fn how_far(kind: &GameKind, shape: Shape, shortest: Option<usize>) -> Option<String> {
    if let Some(moves) = shortest {
        return Some(format!("{} from solved (shortest)", moves_text(moves)));
    }
    match kind.difficulty()?.recipe(shape) {
        Recipe::Exact(moves) => Some(format!("{} from solved", moves_text(moves))),
        Recipe::Shuffle(moves) => Some(format!("Shuffled by {moves} random moves")),
        Recipe::Uniform => Some("Drawn at random from every board".into()),
    }
}

/// The review in sentences: the player's moves against the best line, and where the path
/// left it. Never claims a shortest that is not proved.
pub fn review_lines(summary: &Summary) -> Vec<String> {
    let (yours, best) = (moves_text(summary.moves), moves_text(summary.shortest));
    let mut lines = vec![if summary.exact {
        format!("You: {yours}. Shortest: {best}.")
    } else {
        format!("You: {yours}. The app's best: {best}. No shorter solution is known.")
    }];
    let extra = summary.extra();
    lines.push(match (summary.exact, summary.off_at, extra) {
        (true, _, 0) => "A shortest solution: nothing to improve.".into(),
        (true, Some(at), _) => format!("From move {at}: {} more than needed.", moves_text(extra)),
        (true, None, _) => format!("{} more than needed.", moves_text(extra)),
        (_, _, 0) if summary.moves < summary.shortest => format!(
            "{} fewer than the app's best.",
            moves_text(summary.shortest - summary.moves)
        ),
        (_, _, 0) => "As short as the app's best.".into(),
        (_, _, _) => format!("{} more than the app's best.", moves_text(extra)),
    });
    if summary.helped {
        lines.push("Solved with the app's help.".into());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DailyResult, Difficulty};

    #[test]
    fn a_line_is_read_with_its_gap_and_how_many_are_home() {
        let board = npuzzle::parse_board("1 2 3 4 / 5 6 0 8 / 9 10 11 7 / 13 14 15 12").unwrap();
        assert_eq!(
            line_text(&board, true, 5),
            "Row 2: 5, 6, gap, 8. Three in place."
        );
        assert_eq!(
            line_text(&board, false, 6),
            "Column 3: 3, gap, 11, 15. Three in place."
        );
        assert_eq!(
            line_text(&board, false, 3),
            "Column 4: 4, 8, 7, 12. Two in place."
        );
    }

    #[test]
    fn a_board_that_comes_on_is_said_for_what_it_is() {
        use crate::game::Game;
        use crate::messages::Began;
        let board = npuzzle::parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap();
        let mut game = Game::new(board.clone(), Difficulty::Easy);
        assert_eq!(board_came_text(&game, Began::New), "A new 3×3 board.");
        assert_eq!(
            board_came_text(&game, Began::Restarted),
            "The same 3×3 board, from its start."
        );
        let replay = Game::replay(board, &game);
        assert!(board_came_text(&replay, Began::New).contains("watched again"));
        game.apply(&[Move::Right]);
        assert_eq!(
            board_came_text(&game, Began::Resumed),
            "Your 3×3 game, solved in 1 move."
        );
        let review = Game::review(&game);
        assert!(board_came_text(&review, Began::New).starts_with("The review"));
    }

    #[test]
    fn a_hidden_tile_s_move_is_counted_not_named() {
        assert_eq!(moved_blind_text(1, Move::Left), "A tile moved right.");
        assert_eq!(moved_blind_text(3, Move::Down), "3 tiles moved up.");
        assert_eq!(moved_text(&[5, 6], Move::Down), "Tiles 5 and 6 moved up.");
    }

    #[test]
    fn the_day_s_result_is_shared_without_the_board() {
        let result = DailyResult {
            moves: 38,
            millis: 72_400,
            shortest: 36,
            helped: false,
        };
        assert_eq!(
            day_share_text(20_792, &result, 3),
            "Snapslide, puzzle of 5 Dec 2026 · 38 moves (2 moves more than the shortest) · 1:12 \
             · streak 3 days"
        );
        let fewest = DailyResult {
            moves: 36,
            ..result
        };
        assert!(day_share_text(20_792, &fewest, 1).contains("(the fewest possible)"));
    }

    #[test]
    fn a_set_up_board_s_mistake_is_said_without_a_parser_s_line_and_column() {
        use crate::game::check_setup;
        let said = |text: &str| setup_error_text(&check_setup(text).unwrap_err());
        assert_eq!(
            said("1 2 3\n4 5 6\n7 8"),
            "Row 3 needs 3 numbers; it has 2."
        );
        assert_eq!(
            said("1 2 3\n4 5 5\n7 8 0"),
            "Tile 5 is there twice, and tile 6 is missing."
        );
        assert_eq!(
            said("1 2 3\n4 x 6\n7 8 0"),
            "“x” is not a number: type the tiles, 0 for the gap."
        );
        assert!(!said("1 2 3\n4 5 6\n7 9 0").contains("column"));
        let unsolvable = said("2 1 3\n4 5 6\n7 8 0");
        assert!(
            unsolvable.starts_with("This board can't be solved"),
            "{unsolvable}"
        );
        assert!(!unsolvable.ends_with(".."), "{unsolvable}");
    }

    #[test]
    fn clocks_read_minutes_and_seconds() {
        use std::time::Duration;
        assert_eq!(clock(Duration::from_secs(34)), "0:34");
        assert_eq!(result_time(Duration::from_millis(24_379)), "24.37 s");
        assert_eq!(result_time(Duration::from_millis(420)), "0.42 s");
        assert_eq!(result_time(Duration::from_millis(64_999)), "1:04");
        assert_eq!(clock(Duration::from_millis(725_900)), "12:05");
    }

    #[test]
    fn days_read_as_dates() {
        assert_eq!(day_name(20_790, 20_790), "Today");
        assert_eq!(day_name(20_789, 20_790), "Yesterday");
        assert_eq!(day_name(20_787, 20_790), "30 Nov");
    }

    #[test]
    fn the_records_list_the_latest_days_with_their_moves_and_time() {
        let mut days = DailyResults::default();
        for day in 20_780..20_791 {
            let result = DailyResult {
                moves: 40 + (day % 3) as usize,
                millis: 64_500,
                shortest: 40,
                helped: day == 20_789,
            };
            days.record(day, result);
        }
        let rows = day_rows(&days, 20_790);
        assert_eq!(rows.len(), DAYS_LISTED);
        assert_eq!(rows[0], ["Today", "40", "1:04", "fewest"].map(String::from));
        assert_eq!(
            rows[1],
            ["Yesterday", "42", "1:04", "+2, helped"].map(String::from)
        );
        assert_eq!(rows[6][0], "27 Nov");
    }

    #[test]
    fn counts_read_as_spoken() {
        assert_eq!(moves_text(1), "1 move");
        assert_eq!(moves_text(0), "0 moves");
        assert_eq!(moves_text(56), "56 moves");
        assert_eq!(days_text(1), "1 day");
        assert_eq!(days_text(3), "3 days");
        for (number, word) in [(8, "an"), (11, "an"), (18, "an"), (80, "an"), (3, "a")] {
            assert_eq!(article(number), word, "{number}");
        }
        assert_eq!((article(17), article(110), article(1)), ("a", "a", "a"));
        assert_eq!(a_moves(18), "an 18-move");
        assert_eq!(a_moves(110), "a 110-move");
    }

    #[test]
    fn moves_read_as_a_screen_reader_says_them() {
        assert_eq!(moved_text(&[7], Move::Right), "Tile 7 moved left.");
        assert_eq!(
            moved_text(&[5, 6, 7], Move::Down),
            "Tiles 5, 6 and 7 moved up."
        );
        assert_eq!(distance_text(23, true), "23 moves from solved.");
        assert_eq!(distance_text(120, false), "At least 120 moves from solved.");
    }

    #[test]
    fn days_read_as_dates_and_results_as_a_line() {
        assert_eq!(date_text(0), "1 Jan 1970");
        assert_eq!(date_text(20_787), "30 Nov 2026");
        assert_eq!(date_text(11_016), "29 Feb 2000");
        let mut days = DailyResults::default();
        assert_eq!(days_summary(&days, 100), None);
        let result = |moves| DailyResult {
            moves,
            millis: 1000,
            shortest: 36,
            helped: false,
        };
        days.record(99, result(40));
        days.record(100, result(36));
        assert_eq!(
            days_summary(&days, 100).unwrap(),
            "Puzzles of the day: 2 played, 1 in the fewest moves possible; streak: 2 days."
        );
    }

    #[test]
    fn a_new_board_says_how_far_it_is() {
        let shape = |w, h| Shape::new(w, h).unwrap();
        let medium = GameKind::from(Difficulty::Medium);
        assert_eq!(
            how_far(&medium, shape(4, 4), Some(24)).as_deref(),
            Some("24 moves from solved (shortest)")
        );
        let hard = GameKind::from(Difficulty::Hard);
        let moves = match Difficulty::Hard.recipe(shape(5, 5)) {
            Recipe::Shuffle(moves) => moves,
            other => panic!("5×5 Hard is {other:?}"),
        };
        assert_eq!(
            how_far(&hard, shape(5, 5), None),
            Some(format!("Shuffled by {moves} random moves"))
        );
        assert_eq!(how_far(&GameKind::Custom, shape(4, 4), None), None);
    }

    fn summary(moves: usize, shortest: usize, exact: bool, off_at: Option<usize>) -> Summary {
        Summary {
            moves,
            shortest,
            exact,
            off_at,
            helped: false,
        }
    }

    #[test]
    fn the_review_never_contradicts_itself() {
        let lines = review_lines(&summary(4, 2, true, Some(1)));
        assert_eq!(lines[1], "From move 1: 2 moves more than needed.");
        let lines = review_lines(&summary(2, 2, true, None));
        assert_eq!(lines[1], "A shortest solution: nothing to improve.");
        // Not proved shortest: never "a shortest solution".
        for (moves, best) in [(160, 162), (162, 162), (170, 162)] {
            let lines = review_lines(&summary(moves, best, false, None));
            assert!(lines.iter().all(|l| !l.contains("shortest")), "{lines:?}");
        }
        let lines = review_lines(&summary(160, 162, false, None));
        assert_eq!(lines[1], "2 moves fewer than the app's best.");
    }
}
