//! Properties over random boards, moves and text.

use npuzzle::random::random_solvable;
use npuzzle::{
    Algorithm, Board, Move, Options, ParseErrorKind, Shape, is_solvable, parse_board, solve,
};
use proptest::prelude::*;

fn shapes() -> impl Strategy<Value = Shape> {
    (2usize..=8, 2usize..=8).prop_map(|(w, h)| Shape::new(w, h).unwrap())
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    proptest::collection::vec(prop::sample::select(Move::ALL.to_vec()), 0..200)
}

proptest! {
    #[test]
    fn legal_moves_keep_a_solvable_permutation(shape in shapes(), moves in moves()) {
        let mut board = Board::goal_of(shape);
        for mv in moves {
            board.apply(mv);
        }
        let mut sorted = board.tiles().to_vec();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..shape.cells() as u8).collect::<Vec<_>>());
        prop_assert_eq!(board.tile_at(board.blank()), 0);
        prop_assert!(is_solvable(&board));
        // The board is still valid by the constructor's checks.
        prop_assert!(Board::new(shape.width, shape.height, board.tiles().to_vec()).is_ok());
    }

    #[test]
    fn solutions_replay_to_the_goal(seed in any::<u64>(), greedy in any::<bool>()) {
        let board = random_solvable(Shape::new(3, 3).unwrap(), seed);
        let algorithm = if greedy { Algorithm::Greedy } else { Algorithm::AStar };
        let options = Options { algorithm: Some(algorithm), ..Options::default() };
        let solution = solve(&board, &options).unwrap();
        prop_assert!(solution.solves(&board));
        prop_assert!(solution.lower_bound <= solution.len());
    }

    #[test]
    fn greedy_solves_small_rectangles(seed in any::<u64>(), tall in any::<bool>()) {
        let shape = if tall { Shape::new(2, 4) } else { Shape::new(4, 2) }.unwrap();
        let board = random_solvable(shape, seed);
        let options = Options { algorithm: Some(Algorithm::Greedy), ..Options::default() };
        prop_assert!(solve(&board, &options).unwrap().solves(&board));
    }

    #[test]
    fn the_parser_reads_any_text_or_points_into_it(text in "[\\PC\n]{0,300}") {
        match parse_board(&text) {
            Ok(board) => prop_assert_eq!(parse_board(&board.to_string()).unwrap(), board),
            Err(error) => {
                // Where it says the text is wrong is in the text (or just past a line's end),
                // and a word it does not take is found there.
                let lines: Vec<&str> = text.lines().collect();
                prop_assert!((1..=lines.len().max(1)).contains(&error.line), "{:?}", error);
                let line = lines.get(error.line - 1).copied().unwrap_or("");
                let columns = 1..=line.chars().count() + 1;
                prop_assert!(columns.contains(&error.column), "{:?} in {:?}", error, line);
                if let ParseErrorKind::NotANumber(word) | ParseErrorKind::Negative(word) =
                    &error.kind
                {
                    let there: String = line.chars().skip(error.column - 1).collect();
                    prop_assert!(there.starts_with(word.as_str()), "{:?} in {:?}", error, line);
                }
            }
        }
    }

    #[test]
    fn the_parser_never_panics_on_boardlike_text(
        text in "[0-9 /#x\\n,-]{0,120}"
    ) {
        if let Ok(board) = parse_board(&text) {
            prop_assert_eq!(parse_board(&board.to_string()).unwrap(), board);
        }
    }

    #[test]
    fn display_round_trips(shape in shapes(), seed in any::<u64>()) {
        let board = random_solvable(shape, seed);
        prop_assert_eq!(parse_board(&board.to_string()).unwrap(), board);
    }

    #[test]
    fn sliding_a_tapped_tile_ends_with_the_blank_there(shape in shapes(), seed in any::<u64>(), cell in 0usize..64) {
        let board = random_solvable(shape, seed);
        let cell = cell % shape.cells();
        if let Some(moves) = board.moves_to_slide_cell(cell) {
            let mut after = board.clone();
            after.apply_all(&moves).unwrap();
            prop_assert_eq!(after.blank(), cell);
            prop_assert_eq!(moves.len(), shape.distance(board.blank(), cell));
        } else {
            let (c, r) = shape.column_row(cell);
            let (bc, br) = shape.column_row(board.blank());
            prop_assert!(cell == board.blank() || (c != bc && r != br));
        }
    }
}

proptest! {
    #[test]
    fn boards_in_the_slash_form_read_back_equal(shape in shapes(), seed in any::<u64>()) {
        let board = random_solvable(shape, seed);
        let text = npuzzle::notation::format_board(&board);
        prop_assert_eq!(parse_board(&text), Ok(board.clone()));
        // The same rows one a line with the slashes at their ends, as a paste may break them.
        let broken = text.replace('/', "/\n");
        prop_assert_eq!(parse_board(&broken), Ok(board));
    }

    #[test]
    fn tile_moves_read_back_equal(moves in moves()) {
        let text = npuzzle::format_tile_moves(&moves);
        prop_assert_eq!(npuzzle::parse_tile_moves(&text), Ok(moves.clone()));
        // The letters name the tile: each is the opposite of the blank's letter.
        let expanded: String = moves.iter().map(|m| npuzzle::notation::tile_letter(*m)).collect();
        let blank: String = npuzzle::moves_to_string(&moves);
        prop_assert!(expanded.chars().zip(blank.chars()).all(|(t, b)| t != b));
        prop_assert_eq!(npuzzle::parse_tile_moves(&expanded), Ok(moves.clone()));
        // One letter (and its count) for each multi-tile move, a run past the largest count
        // (which no board allows) in pieces.
        let letters = text.chars().filter(char::is_ascii_alphabetic).count();
        let runs = npuzzle::notation::runs(&moves);
        prop_assert_eq!(runs.len(), npuzzle::mtm_length(&moves));
        let pieces: usize = runs.iter().map(|(_, n)| n.div_ceil(npuzzle::notation::MAX_REPEAT)).sum();
        prop_assert_eq!(letters, pieces);
    }
}
