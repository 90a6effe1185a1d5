//! Challenge codes as a player meets them: made from solves, opened again, and refused when
//! damaged, cut short, empty or absurd.

use challenge::{Challenge, CodeError, MAX_INPUT_CHARS, decode};
use npuzzle::{Board, Move};
use proptest::prelude::*;

/// A small deterministic random source (xorshift64*), so each test sees the same solves.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A walk of the gap from the goal, each step picked among the legal moves by `picks` (turning
/// straight back only if `back` allows): the board it reaches, and the moves that solve it
/// (the walk undone).
fn scramble(width: usize, height: usize, picks: &[u8], back: bool) -> (Board, Vec<Move>) {
    let mut board = Board::goal(width, height).unwrap();
    let mut walk: Vec<Move> = Vec::new();
    for &pick in picks {
        let legal: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&mv| board.can_move(mv))
            .filter(|&mv| back || walk.last() != Some(&mv.inverse()))
            .collect();
        let mv = legal[pick as usize % legal.len()];
        board.apply(mv);
        walk.push(mv);
    }
    (board, walk.iter().rev().map(|mv| mv.inverse()).collect())
}

/// A human 4×4 solve of 100 moves, by seed.
fn hundred_moves(seed: u64) -> (Board, Vec<Move>) {
    let mut random = Random(seed * 2 + 1);
    let picks: Vec<u8> = (0..100).map(|_| random.below(256) as u8).collect();
    scramble(4, 4, &picks, false)
}

/// Times since the first move for `moves` moves, each `delta` after the one before.
fn times(moves: usize, mut delta: impl FnMut() -> u64) -> Vec<u64> {
    let mut time = 0;
    (0..moves)
        .map(|index| {
            if index > 0 {
                time += delta();
            }
            time
        })
        .collect()
}

#[test]
fn a_hundred_move_4x4_solve_fits_72_characters_and_300_with_its_times() {
    for seed in 0..40 {
        let (start, moves) = hundred_moves(seed);
        assert_eq!(moves.len(), 100);
        for total in [8_000, 20_000, 60_000, 600_000, 3_600_000, 86_400_000] {
            let plain = Challenge::new(start.clone(), moves.clone(), total, None).unwrap();
            assert!(
                plain.code().len() <= 72,
                "{} chars at {total} ms",
                plain.code().len()
            );
        }
        let mut random = Random(seed + 1000);
        let human = times(100, || 80 + random.below(521));
        let slowest = times(100, || 600);
        for times in [human, slowest] {
            let total = times[99] + 250;
            let timed = Challenge::new(start.clone(), moves.clone(), total, Some(times)).unwrap();
            assert!(
                timed.code().len() <= 300,
                "{} chars with times",
                timed.code().len()
            );
        }
    }
}

/// A real code with move times, and one without.
fn real_codes() -> Vec<Challenge> {
    let (start, moves) = hundred_moves(7);
    let mut random = Random(11);
    let times = times(100, || 80 + random.below(521));
    let total = times[99] + 300;
    vec![
        Challenge::new(start.clone(), moves.clone(), 41_250, None).unwrap(),
        Challenge::new(start, moves, total, Some(times)).unwrap(),
    ]
}

const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#[test]
fn one_character_changed_anywhere_is_refused() {
    for challenge in real_codes() {
        let code: Vec<char> = challenge.code().chars().collect();
        for at in 0..code.len() {
            for other in ALPHABET.chars().filter(|&c| c != code[at]) {
                let mut changed = code.clone();
                changed[at] = other;
                let changed: String = changed.into_iter().collect();
                assert_eq!(decode(&changed), Err(CodeError::Damaged), "{at}: {changed}");
            }
        }
    }
}

#[test]
fn a_code_cut_short_anywhere_is_refused() {
    for challenge in real_codes() {
        let code = challenge.code();
        for length in 1..code.len() {
            assert_eq!(decode(&code[..length]), Err(CodeError::Damaged), "{length}");
            assert_eq!(
                decode(&code[length..]),
                Err(CodeError::Damaged),
                "from {length}"
            );
        }
    }
}

#[test]
fn a_code_reads_back_in_any_case_with_look_alikes_separators_and_its_link() {
    for challenge in real_codes() {
        let code = challenge.code();
        assert!(code.chars().all(|c| ALPHABET.contains(c)), "{code}");
        assert_eq!(decode(code).as_ref(), Ok(&challenge));
        assert_eq!(decode(&challenge.link()).as_ref(), Ok(&challenge));
        assert!(challenge.link().starts_with("snapslide://c/"));
        let spoken: String = code
            .to_lowercase()
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let c = match c {
                    '0' => 'o',
                    '1' if i % 2 == 0 => 'I',
                    '1' => 'l',
                    other => other,
                };
                if i % 4 == 3 { vec![c, '-'] } else { vec![c] }
            })
            .collect();
        let pasted = format!("  SnapSlide://C/{spoken}\n");
        assert_eq!(decode(&pasted), Ok(challenge.clone()), "{pasted}");
        assert_eq!(pasted.parse::<Challenge>(), Ok(challenge));
    }
}

#[test]
fn empty_and_absurdly_long_text_is_refused_in_plain_words() {
    for empty in ["", "   ", "- - -", "\n", "snapslide://c/"] {
        assert_eq!(decode(empty), Err(CodeError::Empty), "{empty:?}");
    }
    let megabyte = "7".repeat(1 << 20);
    assert_eq!(decode(&megabyte), Err(CodeError::InputTooLong));
    let just_over = "Z".repeat(MAX_INPUT_CHARS + 1);
    assert_eq!(decode(&just_over), Err(CodeError::InputTooLong));
    let just_under = "Z".repeat(MAX_INPUT_CHARS);
    assert_eq!(decode(&just_under), Err(CodeError::Damaged));
    assert_eq!(decode("héllo"), Err(CodeError::Damaged));
    assert_eq!(
        CodeError::Damaged.to_string(),
        "This challenge code is damaged: check that it was copied whole"
    );
}

#[test]
fn what_a_code_holds_is_what_it_was_made_from() {
    let start = Board::new(3, 2, vec![1, 2, 3, 0, 4, 5]).unwrap();
    let moves = vec![Move::Right, Move::Right];
    let made = Challenge::new(start.clone(), moves.clone(), 2_345, Some(vec![0, 900])).unwrap();
    let opened = decode(made.code()).unwrap();
    assert_eq!(opened.start(), &start);
    assert_eq!(opened.moves(), moves.as_slice());
    assert_eq!(opened.time_ms(), 2_345);
    assert_eq!(opened.times_ms(), Some(&[0, 900][..]));
    let plain = Challenge::new(start, moves, 2_345, None).unwrap();
    assert_eq!(decode(plain.code()).unwrap().times_ms(), None);
    assert!(plain.code().len() < made.code().len());
}

/// Human-looking times for `moves` moves: 34 ms to 2 s apart, now and then a pause of up to a
/// minute (never 30 moves within a second), and a total a little after the last.
fn human_times(moves: usize, seed: u64) -> (u64, Vec<u64>) {
    let mut random = Random(seed | 1);
    let times = times(moves, || match random.below(100) {
        0 => random.below(60_000) + 34,
        _ => random.below(2_000) + 34,
    });
    let total = times.last().copied().unwrap_or(0) + random.below(1_000);
    (total.max(moves as u64 * 34), times)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_solve_reads_back_the_same(
        width in 2usize..=8,
        height in 2usize..=8,
        walk in proptest::collection::vec(any::<u8>(), 0..=10_000),
        seed in any::<u64>(),
        with_times in any::<bool>(),
    ) {
        let (start, moves) = scramble(width, height, &walk, true);
        let (total, times) = human_times(moves.len(), seed);
        let times = with_times.then_some(times);
        let made = Challenge::new(start, moves, total, times).unwrap();
        let opened = decode(made.code()).unwrap();
        prop_assert_eq!(&opened, &made);
        prop_assert_eq!(opened.code(), made.code());
    }
}
