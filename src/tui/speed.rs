//! How fast the table moves: the pause before each computer player's
//! move, how long a finished trick stays, and the guard against a key meant
//! for the pause being taken for the turn after it.

use std::time::Duration;

pub use crate::look::Speed;

/// The pauses a speed makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    /// Before each bot's bid or card.
    pub bot: Duration,
    /// How long a finished trick stays on the table.
    pub trick: Duration,
    /// How long after a pause, or the start of the player's turn, a key
    /// that would act is taken as meant for the pause, not for the turn.
    pub guard: Duration,
}

impl Speed {
    /// The pauses this speed makes at the table.
    pub fn pace(self) -> Pace {
        let ms = Duration::from_millis;
        match self {
            Speed::Slow => Pace {
                bot: ms(1100),
                trick: ms(2500),
                guard: ms(500),
            },
            Speed::Normal => Pace {
                bot: ms(600),
                trick: ms(1500),
                guard: ms(400),
            },
            Speed::Fast => Pace {
                bot: ms(250),
                trick: ms(700),
                guard: ms(300),
            },
            Speed::Instant => Pace {
                bot: Duration::ZERO,
                trick: Duration::ZERO,
                guard: Duration::ZERO,
            },
        }
    }
}
