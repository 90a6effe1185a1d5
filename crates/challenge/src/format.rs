//! A challenge's fields as bits and characters, and back (docs/challenge-code.md).
//!
//! This module only writes and reads the fields; whether they make a challenge (a solvable
//! board that the moves solve, in a human time) is [`crate::challenge`]'s to check.

use npuzzle::Move;

use crate::base32;
#[cfg(test)]
use crate::bits::MAX_GOLOMB;
use crate::bits::{BitReader, BitWriter};
use crate::error::CodeError;
use crate::rank::{read_permutation, write_permutation};

/// The format's version, the code's first 3 bits.
pub const VERSION: u64 = 1;
/// The bits of the check at the end: a CRC-32.
const CHECK_BITS: u32 = 32;
/// The exponential-Golomb order of the move count.
const COUNT_K: u32 = 6;
/// The bits of the total time's length, without move times (ms: a minute takes 6 + 15 bits,
/// an hour 6 + 21).
const TOTAL_LENGTH_BITS: u32 = 6;
/// The order of each move's time after the one before (ms: 80–600 ms take 9–11 bits), and of
/// the total time after the last move's.
const DELTA_K: u32 = 8;

/// A challenge's fields, unchecked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The start board's tiles, row-major, 0 the gap: each of 0..width × height once.
    pub tiles: Vec<u8>,
    /// The gap's moves.
    pub moves: Vec<Move>,
    /// The total time, ms.
    pub time_ms: u64,
    /// Each move's time since the first move, ms: as many as moves, never decreasing, none past
    /// the total.
    pub times_ms: Option<Vec<u64>>,
}

/// The fields' bits, before the check.
fn payload(fields: &Fields) -> BitWriter {
    let mut writer = BitWriter::new();
    writer.write(VERSION, 3);
    writer.write(fields.width as u64, 4);
    writer.write(fields.height as u64, 4);
    write_permutation(&mut writer, &fields.tiles);
    writer.write_golomb(fields.moves.len() as u64, COUNT_K);
    for mv in &fields.moves {
        writer.write(mv.index() as u64, 2);
    }
    writer.write_bit(fields.times_ms.is_some());
    match &fields.times_ms {
        None => writer.write_sized(fields.time_ms, TOTAL_LENGTH_BITS),
        Some(times) => {
            let mut last = 0;
            for &time in times {
                writer.write_golomb(time - last, DELTA_K);
                last = time;
            }
            writer.write_golomb(fields.time_ms - last, DELTA_K);
        }
    }
    writer
}

/// The characters of a payload: zero bits up to a whole number of characters with the check,
/// then the check.
pub fn seal(mut writer: BitWriter) -> String {
    while !(writer.len() + CHECK_BITS as usize).is_multiple_of(5) {
        writer.write_bit(false);
    }
    let sum = check(&writer.clone().into_bits());
    writer.write(u64::from(sum), CHECK_BITS);
    base32::encode(&writer.into_bits())
}

/// The check of the bits before it: a CRC-32 of their count and of them packed into bytes.
fn check(bits: &[bool]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&(bits.len() as u64).to_be_bytes());
    let bytes: Vec<u8> = bits
        .chunks(8)
        .map(|byte| (0..8).fold(0, |v, i| v << 1 | u8::from(byte.get(i) == Some(&true))))
        .collect();
    hasher.update(&bytes);
    hasher.finalize()
}

/// The code of well-formed fields (times within [`crate::bits::MAX_GOLOMB`]).
pub fn encode(fields: &Fields) -> String {
    seal(payload(fields))
}

/// The fields of a code: its characters (link prefix already removed), checked, then read.
///
/// # Errors
///
/// [`CodeError::Damaged`] for a bad character, a failed check, bits that run out or are left
/// over; [`CodeError::NewerVersion`], [`CodeError::BoardSize`], [`CodeError::NotABoard`] and
/// [`CodeError::BadTimes`] for fields no code of this version holds.
pub fn decode(text: &str) -> Result<Fields, CodeError> {
    let bits = base32::decode(text)?;
    if bits.is_empty() {
        return Err(CodeError::Empty);
    }
    let Some(split) = bits.len().checked_sub(CHECK_BITS as usize) else {
        return Err(CodeError::Damaged);
    };
    let (body, sum) = bits.split_at(split);
    if BitReader::new(sum).read(CHECK_BITS)? != u64::from(check(body)) {
        return Err(CodeError::Damaged);
    }
    let mut reader = BitReader::new(body);
    let fields = read_fields(&mut reader)?;
    let padding = reader.rest();
    if padding.len() >= 5 || padding.contains(&true) {
        return Err(CodeError::Damaged);
    }
    Ok(fields)
}

/// Reads the fields after a passed check.
fn read_fields(reader: &mut BitReader) -> Result<Fields, CodeError> {
    match reader.read(3)? {
        VERSION => {}
        0 => return Err(CodeError::Damaged),
        _ => return Err(CodeError::NewerVersion),
    }
    let width = reader.read(4)? as usize;
    let height = reader.read(4)? as usize;
    if !(2..=8).contains(&width) || !(2..=8).contains(&height) {
        return Err(CodeError::BoardSize { width, height });
    }
    let tiles = read_permutation(reader, width * height)?;
    let count = reader.read_golomb(COUNT_K)?;
    let moves = (0..count)
        .map(|_| Ok(Move::ALL[reader.read(2)? as usize]))
        .collect::<Result<Vec<_>, CodeError>>()?;
    let (time_ms, times_ms) = if reader.read_bit()? {
        let (total, times) = read_times(reader, moves.len())?;
        (total, Some(times))
    } else {
        (reader.read_sized(TOTAL_LENGTH_BITS)?, None)
    };
    Ok(Fields {
        width,
        height,
        tiles,
        moves,
        time_ms,
        times_ms,
    })
}

/// Reads `count` move times and the total after them.
fn read_times(reader: &mut BitReader, count: usize) -> Result<(u64, Vec<u64>), CodeError> {
    let mut times = Vec::new();
    let mut last = 0u64;
    for _ in 0..count {
        last = last
            .checked_add(reader.read_golomb(DELTA_K)?)
            .ok_or(CodeError::BadTimes)?;
        times.push(last);
    }
    let total = last
        .checked_add(reader.read_golomb(DELTA_K)?)
        .ok_or(CodeError::BadTimes)?;
    Ok((total, times))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2×3 board one move from the goal, and that move, in 1.2 s.
    fn fields() -> Fields {
        Fields {
            width: 3,
            height: 2,
            tiles: vec![1, 2, 3, 4, 0, 5],
            moves: vec![Move::Right],
            time_ms: 1_200,
            times_ms: None,
        }
    }

    /// The version and a 2×3 shape, as a code's first bits.
    fn header(version: u64) -> BitWriter {
        let mut writer = BitWriter::new();
        writer.write(version, 3);
        writer.write(3, 4);
        writer.write(2, 4);
        writer
    }

    #[test]
    fn fields_read_back_with_and_without_times() {
        let plain = fields();
        assert_eq!(decode(&encode(&plain)), Ok(plain.clone()));
        let timed = Fields {
            times_ms: Some(vec![0]),
            ..plain
        };
        assert_eq!(decode(&encode(&timed)), Ok(timed));
    }

    #[test]
    fn a_rank_no_permutation_has_is_not_a_board() {
        let mut writer = header(VERSION);
        writer.write(720, 10); // 6! = 720 ranks: 0 to 719.
        assert_eq!(decode(&seal(writer)), Err(CodeError::NotABoard));
    }

    #[test]
    fn versions_and_sizes_no_code_holds_are_refused() {
        assert_eq!(decode(&seal(header(2))), Err(CodeError::NewerVersion));
        assert_eq!(decode(&seal(header(0))), Err(CodeError::Damaged));
        for (width, height) in [(9, 2), (2, 9), (1, 4), (0, 0), (15, 15)] {
            let mut writer = BitWriter::new();
            writer.write(VERSION, 3);
            writer.write(width, 4);
            writer.write(height, 4);
            let refused = CodeError::BoardSize {
                width: width as usize,
                height: height as usize,
            };
            assert_eq!(decode(&seal(writer)), Err(refused));
        }
    }

    #[test]
    fn bits_left_over_or_missing_are_damaged() {
        let mut extra = payload(&fields());
        extra.write(0, 5);
        assert_eq!(decode(&seal(extra)), Err(CodeError::Damaged));
        let mut set = payload(&fields());
        set.write_bit(true);
        assert_eq!(decode(&seal(set)), Err(CodeError::Damaged));
        let mut short = header(VERSION);
        write_permutation(&mut short, &[1, 2, 3, 4, 0, 5]);
        assert_eq!(
            decode(&seal(short)),
            Err(CodeError::Damaged),
            "no move count"
        );
    }

    #[test]
    fn a_move_count_past_the_bits_left_is_damaged() {
        let mut writer = header(VERSION);
        write_permutation(&mut writer, &[1, 2, 3, 4, 0, 5]);
        writer.write_golomb(MAX_GOLOMB, COUNT_K);
        assert_eq!(decode(&seal(writer)), Err(CodeError::Damaged));
    }

    #[test]
    fn times_that_overflow_do_not_add_up() {
        let mut writer = header(VERSION);
        write_permutation(&mut writer, &[1, 2, 3, 4, 0, 5]);
        // 2^56 ms a move: the 256th move's time is past u64.
        writer.write_golomb(300, COUNT_K);
        (0..300).for_each(|_| writer.write(Move::Up.index() as u64, 2));
        writer.write_bit(true);
        for _ in 0..301 {
            writer.write_golomb(MAX_GOLOMB, DELTA_K);
        }
        assert_eq!(decode(&seal(writer)), Err(CodeError::BadTimes));
    }

    #[test]
    fn a_wrong_check_is_damaged() {
        let code = encode(&fields());
        let last = code.chars().last().unwrap();
        let other = if last == '0' { '1' } else { '0' };
        let changed = format!("{}{other}", &code[..code.len() - 1]);
        assert_eq!(decode(&changed), Err(CodeError::Damaged));
        assert_eq!(decode(&code[..code.len() - 1]), Err(CodeError::Damaged));
        assert_eq!(decode("0"), Err(CodeError::Damaged));
        assert_eq!(decode(""), Err(CodeError::Empty));
    }
}
