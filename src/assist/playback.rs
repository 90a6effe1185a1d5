//! A solution being played: one move at a time at the player's speed, each after the slide
//! before it; paused by the player, or while a sheet covers the board.

use std::collections::VecDeque;

use bevy::prelude::*;
use npuzzle::Move;

use crate::messages::{BoardCovered, GameCommand};
use crate::play::Pace;
use crate::play::settings::Settings;

/// A solution being played.
#[derive(Resource, Default, Debug, Clone)]
pub struct Playback {
    /// Moves still to play.
    pub moves: VecDeque<Move>,
    /// Paused by the player.
    pub paused: bool,
    /// A sheet covers the board: nothing plays under it.
    covered: bool,
    /// Seconds since the last move.
    since_last: f32,
}

impl Playback {
    /// Whether a solution is playing (or paused).
    pub fn active(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whether moves are being played now (neither paused nor under a sheet).
    pub fn playing(&self) -> bool {
        self.active() && !self.paused && !self.covered
    }

    /// Plays these moves from now on, the first at once.
    pub fn start(&mut self, moves: &[Move]) {
        self.moves = moves.iter().copied().collect();
        self.paused = false;
        self.since_last = f32::MAX;
    }

    /// Pauses, or resumes.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// Stops the playback.
    pub fn stop(&mut self) {
        self.moves.clear();
        self.paused = false;
    }

    /// The HUD's line: how many moves are left, and whether it is paused.
    pub fn words(&self) -> String {
        let left = self.moves.len();
        if self.paused {
            format!("Paused: {left} to go")
        } else {
            format!("Playing: {left} to go")
        }
    }
}

/// Plays the next move once the slide before it is over and the interval has passed.
pub(super) fn play_solution(
    time: Res<Time>,
    settings: Res<Settings>,
    pace: Res<Pace>,
    mut covers: MessageReader<BoardCovered>,
    mut playback: ResMut<Playback>,
    mut game_commands: MessageWriter<GameCommand>,
) {
    if let Some(BoardCovered(covered)) = covers.read().last() {
        playback.covered = *covered;
    }
    if !playback.playing() {
        return;
    }
    playback.since_last += time.delta_secs();
    let interval = 1.0 / settings.speed;
    if pace.busy() || playback.since_last < interval {
        return;
    }
    if let Some(mv) = playback.moves.pop_front() {
        playback.since_last = 0.0;
        game_commands.write(GameCommand::AppMove(mv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paused_or_covered_playback_plays_nothing_and_says_so() {
        let mut playback = Playback::default();
        playback.start(&[Move::Up; 193]);
        assert!(playback.playing());
        assert_eq!(playback.words(), "Playing: 193 to go");
        playback.toggle_pause();
        assert!(!playback.playing());
        assert_eq!(playback.words(), "Paused: 193 to go");
        playback.toggle_pause();
        playback.covered = true;
        assert!(!playback.playing() && playback.active());
    }
}
