//! Table modes, seats and sides.

use serde::{Deserialize, Serialize};

/// Seats are numbered `0..n` clockwise; seat 0 is the local player.
pub type Seat = usize;

/// The most seats any mode has; per-seat data lives in arrays of this size.
pub const MAX_SEATS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Four seats in two sides, partners opposite; 13 cards each.
    #[default]
    Partnership,
    /// Three seats, each alone; 17 cards each and one card out of play.
    Cutthroat,
    /// Four seats, each alone; 13 cards each.
    Individual,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Partnership, Mode::Cutthroat, Mode::Individual];

    pub const fn seats(self) -> usize {
        match self {
            Mode::Cutthroat => 3,
            _ => 4,
        }
    }

    /// Cards dealt to each seat, which is also the number of tricks in a hand.
    pub const fn hand_size(self) -> usize {
        match self {
            Mode::Cutthroat => 17,
            _ => 13,
        }
    }

    pub const fn sides(self) -> usize {
        match self {
            Mode::Partnership => 2,
            m => m.seats(),
        }
    }

    pub const fn has_partners(self) -> bool {
        matches!(self, Mode::Partnership)
    }

    pub const fn side_of(self, seat: Seat) -> usize {
        match self {
            Mode::Partnership => seat % 2,
            _ => seat,
        }
    }

    pub const fn partner(self, seat: Seat) -> Option<Seat> {
        match self {
            Mode::Partnership => Some((seat + 2) % 4),
            _ => None,
        }
    }

    /// The seats of one side, in seat order.
    pub fn side_seats(self, side: usize) -> impl Iterator<Item = Seat> {
        (0..self.seats()).filter(move |&s| self.side_of(s) == side)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Mode::Partnership => "partnership",
            Mode::Cutthroat => "cutthroat",
            Mode::Individual => "individual",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown mode `{s}`: use partnership, cutthroat or individual"))
    }
}
