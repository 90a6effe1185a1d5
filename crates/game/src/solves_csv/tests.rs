use super::*;
use crate::Difficulty;
use npuzzle::{Board, Move};
use proptest::prelude::*;

/// The clock of the device importing: 2030-01-01T00:00:00Z.
const NOW: i64 = 1_893_456_000_000;

const HEADER: &str = "finished_at,size,mode,result,time_ms,moves";
const FULL_HEADER: &str = "finished_at,size,mode,result,time_ms,moves,moves_mtm,scramble,solution,helped,photo,shortest,times_ms,boards_before";

/// A 3×3 solve: the gap goes left twice and up once (the tiles: R2D).
fn solve() -> Solve {
    Solve {
        finished_at_ms: 1_796_463_093_365, // 2026-12-05T09:31:33.365Z
        width: 3,
        height: 3,
        mode: Mode::Shuffled(Difficulty::Random),
        start: vec![1, 2, 3, 4, 5, 6, 7, 8, 0],
        moves: String::new(),
        times_ms: Vec::new(),
        time_ms: 0,
        result: Ending::Dnf,
        helped: false,
        photo: "chelsea.png".into(),
        shortest: None,
        counted: None,
        legs: Vec::new(),
    }
}

/// A solved 3×3: `1 2 3/4 0 6/7 5 8`, solved by the gap going down then right.
fn solved() -> Solve {
    Solve {
        start: vec![1, 2, 3, 4, 0, 6, 7, 5, 8],
        moves: "DR".into(),
        times_ms: vec![0, 412],
        time_ms: 1_234,
        result: Ending::Solved,
        shortest: Some(2),
        ..solve()
    }
}

/// The problem and line of a refused import.
fn refusal(text: &str) -> (usize, Problem) {
    match import_csv(text, NOW) {
        Err(ImportError::Line { line, problem }) => (line, problem),
        other => panic!("expected a refused line, got {other:?}"),
    }
}

/// A file of the six required columns: the header, then these rows.
fn six(rows: &[&str]) -> String {
    let mut text = format!("{HEADER}\n");
    for row in rows {
        text += row;
        text.push('\n');
    }
    text
}

const GOOD_ROW: &str = "2026-12-05T09:31:33.365Z,4x4,random,solved,14210,57";

#[test]
fn an_export_writes_the_header_and_a_row_a_solve() {
    let text = export_csv(&[solved()]);
    assert_eq!(
        text,
        format!(
            "{FULL_HEADER}\n2026-12-05T09:31:33.365Z,3x3,random,solved,1234,2,2,1 2 3/4 0 6/7 5 8,UL,false,chelsea.png,2,0 412,\n"
        )
    );
    assert_eq!(import_csv(&text, NOW).unwrap(), [solved()]);
    assert_eq!(export_csv(&[]), format!("{FULL_HEADER}\n"));
}

#[test]
fn the_solution_is_in_the_tiles_direction_with_repeat_counts() {
    // The gap goes left, left, up, up: the tiles go right twice, then down twice.
    let board = Board::new(3, 3, vec![1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let moves = [Move::Left, Move::Left, Move::Up, Move::Up];
    let mut start = board.clone();
    start.apply_all(&moves).unwrap();
    let back: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
    let walked = Solve {
        start: start.tiles().to_vec(),
        moves: moves_to_string(&back),
        times_ms: vec![0, 1, 2, 3],
        time_ms: 9,
        result: Ending::Solved,
        ..solve()
    };
    let text = export_csv(std::slice::from_ref(&walked));
    assert!(text.contains(",4,2,0 2 3/1 5 6/4 7 8,U2L2,"), "{text}");
    assert_eq!(import_csv(&text, NOW).unwrap(), [walked]);
}

#[test]
fn awkward_photo_names_are_quoted_and_read_back() {
    let names = [
        "a, b",
        "say \"cheese\"",
        "two\nlines",
        "cr\r\nlf",
        "\"",
        ",",
        " spaced ",
    ];
    let solves: Vec<Solve> = names
        .iter()
        .map(|name| Solve {
            photo: name.to_string(),
            ..solved()
        })
        .collect();
    let text = export_csv(&solves);
    assert!(text.contains(",\"say \"\"cheese\"\"\",") && text.contains(",\"a, b\","));
    assert_eq!(import_csv(&text, NOW).unwrap(), solves);
    // A quoted line break moves the lines on: the row after it is refused at its own line.
    let broken = text.replace(
        "\n2026-12-05T09:31:33.365Z,3x3,random,solved,1234,2,2,1 2 3/4 0 6/7 5 8,UL,false,\",\"",
        "\n2026-12-05T09:31:33.365Z,3x3,random,solved,0,2,2,1 2 3/4 0 6/7 5 8,UL,false,\",\"",
    );
    assert_eq!(refusal(&broken), (9, Problem::ZeroTime));
}

#[test]
fn six_columns_are_enough_and_keep_the_counts() {
    let text = six(&[GOOD_ROW, "2026-12-05T09:40:00Z,3x4,marathon-10,dnf,0,0"]);
    let solves = import_csv(&text, NOW).unwrap();
    assert_eq!(solves.len(), 2);
    let first = &solves[0];
    assert_eq!((first.width, first.height, first.time_ms), (4, 4, 14_210));
    assert_eq!(first.mode, Mode::Shuffled(Difficulty::Random));
    assert_eq!(first.counted, Some(MoveCounts { stm: 57, mtm: None }));
    assert_eq!((first.stm(), first.mtm().known()), (57, None));
    assert!(first.start.is_empty() && first.moves.is_empty() && first.times_ms.is_empty());
    assert!(first.attempt().is_some(), "counted by the statistics");
    assert_eq!(solves[1].mode, Mode::Other("marathon-10".into()));
    assert_eq!((solves[1].result, solves[1].counted), (Ending::Dnf, None));
    assert_eq!(solves[1].finished_at_ms, 1_796_463_600_000);
    // Exported again, the counts stay counts.
    assert_eq!(import_csv(&export_csv(&solves), NOW).unwrap(), solves);
    // The history keeps them; a record written before they were is read without them.
    assert_eq!(Solve::decode(&first.encode()).as_ref(), Some(first));
    assert!(first.encode().contains(r#""n":{"s":57}"#));
    assert!(!solved().encode().contains(r#""n":"#));
}

#[test]
fn line_ends_a_bom_and_empty_lines_are_taken() {
    let text = format!("\u{feff}{HEADER}\r\n\r\n{GOOD_ROW}\r\n\n{GOOD_ROW}");
    assert_eq!(import_csv(&text, NOW).unwrap().len(), 2);
    assert_eq!(import_csv(&format!("{HEADER}\n"), NOW).unwrap(), []);
    assert_eq!(import_csv(HEADER, NOW).unwrap(), []);
}

#[test]
fn a_wrong_or_missing_header_is_refused() {
    assert_eq!(refusal(""), (1, Problem::NoHeader));
    assert_eq!(refusal("\n\n"), (1, Problem::NoHeader));
    let (line, problem) = refusal(&format!("{GOOD_ROW}\n"));
    assert_eq!((line, problem), (1, Problem::WrongHeader(GOOD_ROW.into())));
    let swapped = "finished_at,mode,size,result,time_ms,moves\n";
    assert!(matches!(refusal(swapped), (1, Problem::WrongHeader(_))));
    let short = "finished_at,size,mode,result,time_ms\n";
    assert!(matches!(refusal(short), (1, Problem::WrongHeader(_))));
    let unknown = format!("{HEADER},colour\n");
    assert_eq!(
        refusal(&unknown),
        (1, Problem::UnknownColumn("colour".into()))
    );
    let twice = format!("{HEADER},photo,photo\n");
    assert_eq!(
        refusal(&twice),
        (1, Problem::DuplicateColumn("photo".into()))
    );
    let message = import_csv(swapped, NOW).unwrap_err().to_string();
    assert!(
        message.starts_with("line 1: the header must begin with finished_at,size,"),
        "{message}"
    );
}

#[test]
fn a_row_with_the_wrong_number_of_fields_is_refused() {
    let text = six(&[GOOD_ROW, "2026-12-05T09:31:33.365Z,4x4,random,solved,14210"]);
    let expected = Problem::FieldCount {
        expected: 6,
        found: 5,
    };
    assert_eq!(refusal(&text), (3, expected));
    let text = six(&[&format!("{GOOD_ROW},extra")]);
    assert_eq!(
        refusal(&text),
        (
            2,
            Problem::FieldCount {
                expected: 6,
                found: 7
            }
        )
    );
    let message = import_csv(&text, NOW).unwrap_err().to_string();
    assert_eq!(message, "line 2: 7 fields where the header has 6 columns");
}

#[test]
fn bad_quotes_are_refused() {
    let text = six(&["2026-12-05T09:31:33.365Z,4x4,\"random,solved,14210,57"]);
    assert_eq!(refusal(&text), (2, Problem::UnclosedQuote));
    let text = six(&["2026-12-05T09:31:33.365Z,4x4,ran\"dom,solved,14210,57"]);
    assert_eq!(refusal(&text), (2, Problem::StrayQuote));
    let text = six(&["2026-12-05T09:31:33.365Z,4x4,\"random\"x,solved,14210,57"]);
    assert_eq!(refusal(&text), (2, Problem::StrayQuote));
    let text = six(&["2026-12-05T09:31:33.365Z,4x4,\"ran\"\"dom\",solved,14210,57"]);
    assert_eq!(
        import_csv(&text, NOW).unwrap()[0].mode,
        Mode::Other("ran\"dom".into())
    );
}

#[test]
fn a_bad_date_is_refused() {
    for date in [
        "yesterday",
        "",
        "2026-12-05",
        "2026-12-05T09:31:33",
        "2026-13-05T09:31:33Z",
        "2026-02-29T09:31:33Z",
        "2026-12-05T24:00:00Z",
        "2026-12-05T09:31:33.Z",
        "2026-12-05T09:31:33+1:00",
        "2026/12/05T09:31:33Z",
        "+026-12-05T09:31:33Z",
        "2026-12-05T09:31:33.365ZZ",
        "2026-12-05T09:31:33é",
    ] {
        let row = GOOD_ROW.replace("2026-12-05T09:31:33.365Z", date);
        assert_eq!(
            refusal(&six(&[&row])),
            (2, Problem::BadDate(date.into())),
            "{date}"
        );
    }
}

#[test]
fn dates_are_read_as_rfc_3339_writes_them() {
    let at = 1_796_463_093_365;
    assert_eq!(format_timestamp(at), "2026-12-05T09:31:33.365Z");
    assert_eq!(parse_timestamp("2026-12-05T09:31:33.365Z"), Some(at));
    assert_eq!(parse_timestamp("2026-12-05t09:31:33.3659z"), Some(at));
    assert_eq!(parse_timestamp("2026-12-05 10:31:33.365+01:00"), Some(at));
    assert_eq!(parse_timestamp("2026-12-05T09:00:33.365-00:31"), Some(at));
    assert_eq!(parse_timestamp("2026-12-05T09:31:33.3Z"), Some(at - 65));
    assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(format_timestamp(-1), "1969-12-31T23:59:59.999Z");
    assert_eq!(
        parse_timestamp("2024-02-29T00:00:00Z"),
        Some(1_709_164_800_000)
    );
}

#[test]
fn an_unknown_size_is_refused() {
    for (size, out_of_range) in [
        ("9x9", true),
        ("2x2", true),
        ("4x1", true),
        ("0x0", true),
        ("99999999999x4", true),
        ("4", false),
        ("4x", false),
        ("x4", false),
        ("4x-4", false),
        ("four", false),
    ] {
        let row = GOOD_ROW.replace("4x4", size);
        let expected = match out_of_range {
            true => Problem::SizeOutOfRange(size.into()),
            false => Problem::BadSize(size.into()),
        };
        assert_eq!(refusal(&six(&[&row])), (2, expected), "{size}");
    }
    for size in ["3x3", "8x8", "3x8", "5X4", "4×4"] {
        import_csv(&six(&[&GOOD_ROW.replace("4x4", size)]), NOW).unwrap();
    }
}

#[test]
fn a_result_other_than_solved_or_dnf_is_refused() {
    for result in ["won", "Solved", "DNF", ""] {
        let row = GOOD_ROW.replace("solved", result);
        assert_eq!(
            refusal(&six(&[&row])),
            (2, Problem::BadResult(result.into()))
        );
    }
    let row = GOOD_ROW.replace("random", "");
    assert_eq!(refusal(&six(&[&row])), (2, Problem::NoMode));
}

#[test]
fn times_of_zero_or_over_a_year_are_refused() {
    let zero = GOOD_ROW.replace("14210", "0");
    assert_eq!(refusal(&six(&[GOOD_ROW, &zero])), (3, Problem::ZeroTime));
    // A DNF given up at once (a few moves, the clock not yet on).
    let dnf = zero.replace("solved", "dnf").replace(",57", ",5");
    import_csv(&six(&[&dnf]), NOW).expect("a DNF may take no time");
    let year = GOOD_ROW.replace("14210", &MAX_TIME_MS.to_string());
    import_csv(&six(&[&year]), NOW).expect("a year is the most");
    let over = GOOD_ROW.replace("14210", &(MAX_TIME_MS + 1).to_string());
    assert_eq!(
        refusal(&six(&[&over])),
        (2, Problem::TimeTooLong(MAX_TIME_MS + 1))
    );
    let message = import_csv(&six(&[&over]), NOW).unwrap_err().to_string();
    assert_eq!(
        message,
        "line 2: a time of 31536000001 ms is longer than a year"
    );
    for time in ["", "1.5", "-3", "14s", "99999999999999999999999"] {
        let row = GOOD_ROW.replace("14210", time);
        let value = time.to_string();
        let expected = Problem::NotANumber {
            column: "time_ms",
            value,
        };
        assert_eq!(refusal(&six(&[&row])), (2, expected), "{time}");
    }
}

#[test]
fn moves_that_are_not_a_number_are_refused() {
    for moves in ["", "many", "5.0", "-1", "+5", "4294967296"] {
        let row = GOOD_ROW.replace(",57", &format!(",{moves}"));
        let value = moves.to_string();
        let expected = Problem::NotANumber {
            column: "moves",
            value,
        };
        assert_eq!(refusal(&six(&[&row])), (2, expected), "{moves}");
    }
    let header = format!("{HEADER},moves_mtm,shortest,times_ms\n");
    let bad = |fields: &str| refusal(&format!("{header}{GOOD_ROW},{fields}\n")).1;
    let not = |column, value: &str| Problem::NotANumber {
        column,
        value: value.into(),
    };
    assert_eq!(bad("x,,"), not("moves_mtm", "x"));
    assert_eq!(bad(",x,"), not("shortest", "x"));
    assert_eq!(bad(",,1 2 x"), not("times_ms", "1 2 x"));
    assert_eq!(bad("0,,"), Problem::MtmOutOfRange { mtm: 0, stm: 57 });
    assert_eq!(bad("58,,"), Problem::MtmOutOfRange { mtm: 58, stm: 57 });
    assert_eq!(
        bad(",,1 2"),
        Problem::TimesCount {
            found: 2,
            moves: 57
        }
    );
}

/// The export of [`solved`] with one field changed.
fn solved_with(column: &str, value: &str) -> String {
    let at = COLUMNS.iter().position(|&c| c == column).unwrap();
    let text = export_csv(&[solved()]);
    let (header, row) = text.trim_end().split_once('\n').unwrap();
    let mut fields: Vec<&str> = row.split(',').collect();
    fields[at] = value;
    format!("{header}\n{}\n", fields.join(","))
}

#[test]
fn a_solution_with_an_unknown_letter_is_refused() {
    let (line, problem) = refusal(&solved_with("solution", "UX"));
    assert_eq!(line, 2);
    let Problem::BadSolution(error) = problem else {
        panic!("expected a bad solution, got {problem:?}")
    };
    assert_eq!(
        error.kind,
        npuzzle::notation::NotationErrorKind::UnknownLetter('X')
    );
    let message = import_csv(&solved_with("solution", "UX"), NOW)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("line 2: the solution cannot be read: column 2:"),
        "{message}"
    );
}

#[test]
fn a_solution_must_agree_with_its_counts_and_solve_its_scramble() {
    let disagrees = |column, stated, counted| Problem::CountDisagrees {
        column,
        stated,
        counted,
    };
    assert_eq!(
        refusal(&solved_with("solution", "U")).1,
        disagrees("moves", 2, 1)
    );
    assert_eq!(
        refusal(&solved_with("moves_mtm", "1")).1,
        disagrees("moves_mtm", 1, 2)
    );
    assert_eq!(
        refusal(&solved_with("solution", "LU")).1,
        Problem::NotSolved
    );
    let off = solved_with("solution", "DD").replace(",2,2,", ",2,1,");
    assert_eq!(refusal(&off).1, Problem::OffTheBoard(2));
    let dnf = solved_with("solution", "LU").replace(",solved,", ",dnf,");
    import_csv(&dnf, NOW).expect("a DNF need not solve its scramble");
    let scramble = refusal(&solved_with("scramble", "1 2 3/4 0 4/5 6 7"));
    assert!(
        matches!(scramble.1, Problem::BadScramble(_)),
        "{scramble:?}"
    );
    let size = |found: &str| Problem::ScrambleSize {
        size: "3x3".into(),
        found: found.into(),
    };
    let wide = "1 2 3 4/5 6 7 8/9 10 11 0";
    assert_eq!(refusal(&solved_with("scramble", wide)).1, size("4x3"));
    // Without a scramble the solution cannot be checked, but is kept; with no moves, the
    // scramble must be solved already.
    assert_eq!(
        import_csv(&solved_with("scramble", ""), NOW).unwrap()[0].moves,
        "DR"
    );
    let none = solved_with("solution", "").replace(",2,2,", ",0,,");
    assert_eq!(refusal(&none).1, Problem::NotSolved);
    assert_eq!(
        refusal(&solved_with("helped", "yes")).1,
        Problem::BadHelped("yes".into())
    );
}

#[test]
fn limits_refuse_a_file_too_large_or_too_long_without_a_panic() {
    let text = six(&[GOOD_ROW, GOOD_ROW, GOOD_ROW]);
    assert_eq!(import_limited(&text, text.len(), 3, NOW).unwrap().len(), 3);
    let too_large = ImportError::TooLarge {
        bytes: text.len(),
        limit: text.len() - 1,
    };
    assert_eq!(
        import_limited(&text, text.len() - 1, 3, NOW),
        Err(too_large)
    );
    let too_long = ImportError::Line {
        line: 4,
        problem: Problem::TooManyRows(2),
    };
    assert_eq!(import_limited(&text, text.len(), 2, NOW), Err(too_long));
    let too_large = ImportError::TooLarge {
        bytes: MAX_BYTES + 1,
        limit: MAX_BYTES,
    };
    assert_eq!(too_large.line(), None);
    let message = too_large.to_string();
    assert_eq!(
        message,
        "the file is 268435457 bytes; an import reads at most 268435456 bytes"
    );
}

#[test]
fn a_hundred_thousand_rows_import() {
    let rows: Vec<Solve> = (0..100_000)
        .map(|n| Solve {
            finished_at_ms: 1_796_463_093_365 + n * 61_000,
            time_ms: 1_000 + n as u64,
            photo: format!("photo {n}, the {}th", n % 7),
            ..solved()
        })
        .collect();
    let text = export_csv(&rows);
    let back = import_csv(&text, NOW).unwrap();
    assert_eq!(back.len(), 100_000);
    assert!(back == rows, "every row read back as it was written");
    // One bad row among them refuses the lot, at its line.
    let at = text.match_indices(",3x3,").nth(77_776).unwrap().0;
    let bad = format!("{},9x9,{}", &text[..at], &text[at + 5..]);
    assert_eq!(
        refusal(&bad),
        (77_778, Problem::SizeOutOfRange("9x9".into()))
    );
}

/// A board walked `walk` legal gap moves from solved, and the moves back (which solve it).
fn scramble(width: usize, height: usize, walk: &[u8]) -> (Board, Vec<Move>) {
    let mut board = Board::goal(width, height).unwrap();
    let mut made = Vec::new();
    for &step in walk {
        let mv = Move::ALL[step as usize % 4];
        if board.apply(mv) {
            made.push(mv);
        }
    }
    (board, made.iter().rev().map(|mv| mv.inverse()).collect())
}

prop_compose! {
    /// A solve that carries every field: solved by the moves back, or a DNF partway.
    fn any_solve()(
        (width, height) in (3usize..=8, 3usize..=8),
        walk in prop::collection::vec(0u8..4, 0..120),
        dnf in any::<bool>(),
        cut in any::<prop::sample::Index>(),
        finished_at_ms in 0i64..=NOW,
        // 120 moves at most: 4 s keeps them under 30 a second.
        time_ms in 4_000u64..=MAX_TIME_MS,
        with_times in any::<bool>(),
        mode in prop::sample::select(vec!["random", "easy", "daily-20787", "custom", "relay-5", "marathon-42", "marathon-10-4x4", "blind-3x3"]),
        before in (1u32..500, 1u32..500, any::<bool>()),
        helped in any::<bool>(),
        photo in "[ -~\n\r\u{e9}]{0,16}",
        shortest in prop::option::of(0u32..200),
    ) -> Solve {
        let (start, mut moves) = scramble(width, height, &walk);
        let result = match dnf {
            true => { moves.truncate(cut.index(moves.len() + 1)); Ending::Dnf }
            false => Ending::Solved,
        };
        let times_ms = match with_times {
            true => (0..moves.len() as u32).map(|i| i * 97).collect(),
            false => Vec::new(),
        };
        let mode = Mode::from(mode.to_string());
        // A run's counts are its boards': the earlier boards' (STM and MTM, MTM perhaps not
        // known) and the last's, whose moves it keeps.
        let (stm_before, mtm_before, mtm_known) = before;
        let counted = (mode.boards() > 1).then(|| MoveCounts {
            stm: moves.len() as u32 + stm_before.max(mtm_before),
            mtm: mtm_known.then_some(mtm_length(&moves) as u32 + mtm_before.min(stm_before)),
        });
        Solve {
            finished_at_ms,
            width: width as u8,
            height: height as u8,
            mode,
            start: start.tiles().to_vec(),
            moves: moves_to_string(&moves),
            times_ms,
            time_ms: time_ms.max(u64::from(counted.map_or(0, |c| c.stm)) * 40),
            result,
            helped,
            photo,
            shortest,
            counted,
            legs: Vec::new(),
        }
    }
}

proptest! {
    #[test]
    fn an_export_reads_back_as_it_was(solves in prop::collection::vec(any_solve(), 0..8)) {
        let text = export_csv(&solves);
        prop_assert_eq!(import_csv(&text, NOW), Ok(solves));
    }

    #[test]
    fn any_text_is_read_or_refused_by_a_line_it_has(text in "[ -~\n\r\"]{0,200}") {
        for text in [format!("{HEADER}\n{text}"), text] {
            // A refusal points at a line of the file (the header is line 1), never past it.
            if let Err(refused) = import_csv(&text, NOW) {
                let lines = text.lines().count().max(1);
                let line = refused.line();
                prop_assert!(line.is_some_and(|line| (1..=lines).contains(&line)), "{refused} in {lines} lines");
            }
        }
    }
}
