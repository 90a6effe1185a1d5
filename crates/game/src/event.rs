//! The speedsolvers' events that string boards together on one clock: a marathon (this many
//! boards of one size, back to back) and a relay (3×3, then 4×4, … up to a size). Each board
//! of a run is a leg: a random-state board (the only scramble leaderboards accept), started as
//! the one before is solved, with the clock running on. The run's result is the last leg's
//! time, and the moves of every leg.

use crate::stats;

/// An event of several boards on one clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `count` boards of `width`×`height`, back to back (10 and 42 are the usual counts).
    Marathon {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
        /// How many boards.
        count: u8,
    },
    /// 3×3, then 4×4, … up to `up_to`×`up_to`.
    Relay {
        /// The last board's side.
        up_to: u8,
    },
    /// One board solved blind: the numbers and the photo vanish at the first move, and the
    /// player says when it is done; a board not solved then is a DNF.
    Blind {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
}

impl Event {
    /// The boards of a run, in order, as (width, height).
    pub fn legs(self) -> Vec<(usize, usize)> {
        match self {
            Event::Marathon {
                width,
                height,
                count,
            } => vec![(width.into(), height.into()); count.into()],
            Event::Relay { up_to } => (3..=usize::from(up_to)).map(|n| (n, n)).collect(),
            Event::Blind { width, height } => vec![(width.into(), height.into())],
        }
    }

    /// Whether it is solved blind.
    pub fn is_blind(self) -> bool {
        matches!(self, Event::Blind { .. })
    }

    /// Its name for the player: "Marathon ×10", "Relay 3×3–5×5".
    pub fn label(self) -> String {
        match self {
            Event::Marathon { count, .. } => format!("Marathon ×{count}"),
            Event::Relay { up_to } => format!("Relay 3×3–{up_to}×{up_to}"),
            Event::Blind { .. } => "Blind".into(),
        }
    }

    /// Its key in the solve history: `marathon-10-4x4`, `relay-5`.
    pub fn key(self) -> String {
        match self {
            Event::Marathon {
                width,
                height,
                count,
            } => format!("marathon-{count}-{width}x{height}"),
            Event::Relay { up_to } => format!("relay-{up_to}"),
            Event::Blind { width, height } => format!("blind-{width}x{height}"),
        }
    }

    /// The event a key names (`None` for any other text).
    pub fn from_key(key: &str) -> Option<Event> {
        if let Some(rest) = key.strip_prefix("marathon-") {
            let (count, shape) = rest.split_once('-')?;
            let (width, height) = shape.split_once('x')?;
            let side = |text: &str| text.parse::<u8>().ok().filter(|&n| n >= 2);
            return Some(Event::Marathon {
                width: side(width)?,
                height: side(height)?,
                count: count.parse().ok().filter(|&c| c > 0)?,
            });
        }
        let side = |text: &str| text.parse::<u8>().ok().filter(|&n| n >= 2);
        if let Some(shape) = key.strip_prefix("blind-") {
            let (width, height) = shape.split_once('x')?;
            return Some(Event::Blind {
                width: side(width)?,
                height: side(height)?,
            });
        }
        let up_to = key.strip_prefix("relay-")?.parse().ok()?;
        (up_to >= 3).then_some(Event::Relay { up_to })
    }

    /// Its speedsolving category: the last board's size, and the mode.
    pub fn category(self) -> stats::Category {
        let (width, height) = *self.legs().last().unwrap_or(&(3, 3));
        let mode = match self {
            Event::Marathon { count, .. } => stats::Mode::Marathon(count.into()),
            Event::Relay { .. } => stats::Mode::Relay,
            Event::Blind { .. } => stats::Mode::Blind,
        };
        stats::Category::new(width, height, mode)
    }
}

/// Where a run stands: its event, the leg on the board, and the moves of the legs done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The event.
    pub event: Event,
    /// The leg on the board, from 0.
    pub leg: usize,
    /// Moves of the legs done, in STM.
    pub moves_before: usize,
    /// Moves of the legs done, in MTM.
    pub mtm_before: usize,
    /// Whether the app helped with a leg done (the run then sets no best).
    pub helped: bool,
}

impl Run {
    /// A run of `event` at its first leg.
    pub fn start(event: Event) -> Run {
        Run {
            event,
            leg: 0,
            moves_before: 0,
            mtm_before: 0,
            helped: false,
        }
    }

    /// The shape of the leg on the board.
    pub fn shape(&self) -> (usize, usize) {
        self.event.legs()[self.leg.min(self.legs() - 1)]
    }

    /// How many legs the run has.
    pub fn legs(&self) -> usize {
        self.event.legs().len().max(1)
    }

    /// Whether the leg on the board is the last: solving it ends the run.
    pub fn is_last_leg(&self) -> bool {
        self.leg + 1 >= self.legs()
    }

    /// The run at its next leg, after a leg of `moves` (STM) and `mtm` moves, and whether
    /// the app helped with it.
    pub fn next(&self, moves: usize, mtm: usize, helped: bool) -> Run {
        Run {
            leg: self.leg + 1,
            moves_before: self.moves_before + moves,
            mtm_before: self.mtm_before + mtm,
            helped: self.helped || helped,
            ..*self
        }
    }

    /// Where the run is, for the player: "board 3 of 10".
    pub fn progress(&self) -> String {
        format!("board {} of {}", self.leg + 1, self.legs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relay_climbs_from_3x3_and_a_marathon_repeats_its_board() {
        let relay = Event::Relay { up_to: 5 };
        assert_eq!(relay.legs(), [(3, 3), (4, 4), (5, 5)]);
        let marathon = Event::Marathon {
            width: 4,
            height: 4,
            count: 10,
        };
        assert_eq!(marathon.legs().len(), 10);
        let mut run = Run::start(relay);
        assert_eq!((run.shape(), run.is_last_leg()), ((3, 3), false));
        run = run.next(20, 15, false).next(50, 40, true);
        assert_eq!((run.shape(), run.is_last_leg()), ((5, 5), true));
        assert_eq!(
            (run.moves_before, run.mtm_before, run.helped),
            (70, 55, true)
        );
        assert_eq!(run.progress(), "board 3 of 3");
    }

    #[test]
    fn an_event_reads_back_from_its_key_and_a_bad_key_is_none() {
        let marathon = Event::Marathon {
            width: 4,
            height: 3,
            count: 42,
        };
        assert_eq!(marathon.key(), "marathon-42-4x3");
        assert_eq!(Event::from_key(&marathon.key()), Some(marathon));
        let relay = Event::Relay { up_to: 6 };
        assert_eq!(Event::from_key(&relay.key()), Some(relay));
        for bad in [
            "relay-2",
            "marathon-0-4x4",
            "marathon-x-4x4",
            "marathon-10",
            "custom",
        ] {
            assert_eq!(Event::from_key(bad), None, "{bad}");
        }
        assert_eq!(marathon.category().mode, stats::Mode::Marathon(42));
        assert_eq!(
            (relay.category().width, relay.category().mode),
            (6, stats::Mode::Relay)
        );
    }
}
