//! A board you can hear: after each move, a short tone whose pitch rises as the board nears
//! solved (the meter's shortest distance when it has measured the board, else Manhattan
//! distance plus linear conflicts, which it never exceeds), panned left to right by the moved
//! tile's column; a soft rising chime when a tile lands in its home cell, a falling one when
//! it leaves it. The tones are synthesised at start into tiny WAV files, none shipped.
//!
//! On with the Distance tone setting, and by default while a screen reader is listening.

use bevy::a11y::AccessibilityRequested;
use bevy::prelude::*;
use npuzzle::Board;

use crate::assist::meter::Meter;
use crate::frame::AppSet;
use crate::game::Step;
use crate::messages::{Change, GameChanged};
use crate::play::settings::Settings;

/// The lowest note (the board at its farthest), in hertz: A3.
const LOWEST_HZ: f32 = 220.0;
/// The notes between the farthest board and the solved one: two octaves of semitones.
pub const STEPS: u32 = 24;
/// How long a distance's note lasts, in seconds.
pub const NOTE_SECONDS: f32 = 0.12;
/// How long a chime lasts, in seconds.
pub const CHIME_SECONDS: f32 = 0.18;
/// The sample rate of the synthesised sounds.
const SAMPLE_RATE: u32 = 22_050;

/// What a move sounds like: its note, where it is heard, and the chime of a tile's home.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tone {
    /// The distance's note, in semitones above [`LOWEST_HZ`] (0 at the farthest board seen,
    /// [`STEPS`] at solved).
    pub step: u32,
    /// Left (-1) to right (1): the moved tile's column.
    pub pan: f32,
    /// A tile reached its home cell (rising) or left it (falling), if one did.
    pub chime: Option<Chime>,
}

/// The chime of a tile's home cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chime {
    /// A tile landed in its home cell.
    Home,
    /// A tile left its home cell.
    Left,
}

/// The tone of one slide: `distance` moves from solved, the farthest this game has been
/// `farthest`; the slide's steps on a board `columns` wide.
pub fn tone(distance: usize, farthest: usize, steps: &[Step], columns: usize) -> Tone {
    let farthest = farthest.max(distance).max(1);
    let near = 1.0 - distance as f32 / farthest as f32;
    let step = (near * STEPS as f32).round() as u32;
    let column = steps.last().map_or(0, |s| s.to % columns.max(1));
    let pan = match columns {
        0 | 1 => 0.0,
        n => column as f32 / (n - 1) as f32 * 2.0 - 1.0,
    };
    let home = steps.iter().any(|s| s.home);
    let left = steps.iter().any(|s| is_home(s.tile, s.from));
    let chime = match (home, left) {
        (true, _) => Some(Chime::Home),
        (false, true) => Some(Chime::Left),
        (false, false) => None,
    };
    Tone { step, pan, chime }
}

/// Whether `cell` is tile `tile`'s place in the solved board (tile 1 in the first cell).
fn is_home(tile: u8, cell: usize) -> bool {
    tile > 0 && usize::from(tile) == cell + 1
}

/// The frequency of a note `step` semitones above the lowest.
pub fn frequency(step: u32) -> f32 {
    LOWEST_HZ * 2f32.powf(step as f32 / 12.0)
}

/// A stereo 16-bit WAV of a soft sine tone sliding from `from_hz` to `to_hz`, `seconds` long,
/// heard at `pan` (-1 left, 1 right), faded in and out so it never clicks.
pub fn wav(from_hz: f32, to_hz: f32, seconds: f32, pan: f32) -> Vec<u8> {
    let frames = (seconds * SAMPLE_RATE as f32) as u32;
    let (left, right) = ((1.0 - pan) / 2.0, (1.0 + pan) / 2.0);
    let mut samples = Vec::with_capacity(frames as usize * 4);
    let mut phase = 0.0f32;
    for n in 0..frames {
        let at = n as f32 / frames.max(1) as f32;
        let hz = from_hz + (to_hz - from_hz) * at;
        phase += std::f32::consts::TAU * hz / SAMPLE_RATE as f32;
        let fade = (at * 10.0).min(1.0).min((1.0 - at) * 5.0);
        let value = phase.sin() * fade * 0.35;
        for gain in [left, right] {
            let sample = (value * gain * i16::MAX as f32) as i16;
            samples.extend_from_slice(&sample.to_le_bytes());
        }
    }
    wav_file(&samples)
}

/// The bytes of a WAV file holding these stereo 16-bit samples.
fn wav_file(samples: &[u8]) -> Vec<u8> {
    let mut file = Vec::with_capacity(44 + samples.len());
    let length = samples.len() as u32;
    file.extend_from_slice(b"RIFF");
    file.extend_from_slice(&(36 + length).to_le_bytes());
    file.extend_from_slice(b"WAVEfmt ");
    file.extend_from_slice(&16u32.to_le_bytes());
    file.extend_from_slice(&1u16.to_le_bytes()); // PCM
    file.extend_from_slice(&2u16.to_le_bytes()); // stereo
    file.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    file.extend_from_slice(&(SAMPLE_RATE * 4).to_le_bytes());
    file.extend_from_slice(&4u16.to_le_bytes());
    file.extend_from_slice(&16u16.to_le_bytes());
    file.extend_from_slice(b"data");
    file.extend_from_slice(&length.to_le_bytes());
    file.extend_from_slice(samples);
    file
}

/// The farthest the game on the board has been from solved, as heard.
#[derive(Resource, Default)]
struct Farthest(usize);

/// Where the tones are chosen in the frame (the sounds play them after).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChooseTones;

/// A tone to play (the sounds module makes and plays it).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlayTone(pub Tone);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Farthest>()
        .add_message::<PlayTone>()
        .add_systems(
            Update,
            choose_tones.in_set(AppSet::Animate).in_set(ChooseTones),
        );
}

/// Whether the tones play: the player's setting, else on while a screen reader listens.
fn heard(settings: &Settings, reader: Option<&AccessibilityRequested>) -> bool {
    let listening = reader.is_some_and(AccessibilityRequested::get);
    settings.sound && settings.tone.unwrap_or(listening)
}

/// What decides whether and what `choose_tones` plays.
#[derive(bevy::ecs::system::SystemParam)]
struct Hearing<'w> {
    settings: Res<'w, Settings>,
    reader: Option<Res<'w, AccessibilityRequested>>,
    meter: Res<'w, Meter>,
}

/// Chooses each slide's tone, and its chime.
fn choose_tones(
    mut changes: MessageReader<GameChanged>,
    hearing: Hearing,
    mut farthest: ResMut<Farthest>,
    mut play: MessageWriter<PlayTone>,
) {
    let Hearing {
        settings,
        reader,
        meter,
    } = hearing;
    let on = heard(&settings, reader.as_deref());
    for changed in changes.read() {
        let steps = match &changed.change {
            Change::Slid { steps, .. } => steps,
            Change::Reset(..) => {
                farthest.0 = distance(&changed.board, None);
                continue;
            }
            _ => continue,
        };
        let reading = meter.at(changed.position).map(|r| r.moves);
        let distance = distance(&changed.board, reading);
        farthest.0 = farthest.0.max(distance);
        if !on || changed.blindfolded {
            continue;
        }
        play.write(PlayTone(tone(
            distance,
            farthest.0,
            steps,
            changed.board.width(),
        )));
    }
}

/// How far the board is: the meter's reading when it has one, else the estimate.
fn distance(board: &Board, reading: Option<usize>) -> usize {
    reading.unwrap_or_else(|| npuzzle::manhattan(board) + npuzzle::linear_conflict(board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::{Move, parse_board};

    /// The steps of a blank move on a board.
    fn slid(board: &mut Board, mv: Move) -> Vec<Step> {
        let mut game = crate::game::Game::new(board.clone(), crate::game::GameKind::Custom);
        let crate::game::Outcome::Moved { steps, .. } = game.apply(&[mv]) else {
            panic!("{mv:?} is not a move here");
        };
        *board = game.board().clone();
        steps
    }

    #[test]
    fn a_scripted_solve_rises_in_pitch_to_the_solved_board_and_pans_by_column() {
        // Four moves from solved on 3×3: each step nearer sounds higher, the last the highest.
        let mut board = parse_board("0 1 3 / 4 2 5 / 7 8 6").unwrap();
        let solve = [Move::Right, Move::Down, Move::Right, Move::Down];
        let farthest = distance(&board, None);
        let mut heard = Vec::new();
        for mv in solve {
            let steps = slid(&mut board, mv);
            let tone = tone(distance(&board, None), farthest, &steps, 3);
            heard.push((tone, steps[0].to % 3));
        }
        assert!(board.is_goal());
        let pitches: Vec<u32> = heard.iter().map(|(t, _)| t.step).collect();
        assert!(pitches.windows(2).all(|w| w[0] < w[1]), "{pitches:?}");
        assert_eq!(pitches.last(), Some(&STEPS), "solved is the top note");
        for (tone, column) in &heard {
            let expected = *column as f32 - 1.0;
            assert!(
                (tone.pan - expected).abs() < 1e-6,
                "{tone:?} in column {column}"
            );
        }
        // The last move puts tile 6 home, with the rising chime.
        assert_eq!(heard.last().unwrap().0.chime, Some(Chime::Home));
    }

    #[test]
    fn a_tile_leaving_its_home_chimes_down() {
        // Tile 7 slides right out of its home cell.
        let mut board = parse_board("1 2 3 / 4 5 6 / 7 0 8").unwrap();
        let steps = slid(&mut board, Move::Left);
        assert_eq!(steps[0].tile, 7);
        let tone = tone(1, 1, &steps, 3);
        assert_eq!(tone.chime, Some(Chime::Left));
        assert_eq!(tone.step, 0, "the farthest yet is the lowest note");
    }

    #[test]
    fn a_tone_is_a_wav_file_as_long_as_asked_and_panned() {
        let bytes = wav(440.0, 440.0, 0.1, -1.0);
        assert_eq!(&bytes[..4], b"RIFF");
        let frames = (bytes.len() - 44) / 4;
        assert_eq!(frames, (0.1 * SAMPLE_RATE as f32) as usize);
        // Hard left: the right channel is silent, the left is not.
        let sample = |at: usize, channel: usize| {
            let i = 44 + at * 4 + channel * 2;
            i16::from_le_bytes([bytes[i], bytes[i + 1]])
        };
        assert!((0..frames).all(|n| sample(n, 1) == 0));
        assert!((0..frames).any(|n| sample(n, 0).unsigned_abs() > 1000));
        assert!(
            (frequency(12) - 440.0).abs() < 1e-3,
            "an octave up from A3 is A4"
        );
    }
}
