//! How the table looks and moves for the player: the speed of the
//! computer players' moves, plain letters or symbols, and whether a
//! forced card is played for them. A game's save keeps its look, so a
//! game taken up again looks as it was left unless the command line says
//! otherwise.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How fast the computer players' moves appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
    /// No pauses at all: for tests and for players who only want the result.
    Instant,
}

impl Speed {
    /// Slowest first: `+` and `-` step along it.
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Instant];

    pub const fn name(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "normal",
            Speed::Fast => "fast",
            Speed::Instant => "instant",
        }
    }

    /// One step faster (`up` > 0) or slower, stopping at either end.
    pub fn step(self, up: i32) -> Speed {
        let at = Speed::ALL.iter().position(|&s| s == self).unwrap_or(1) as i32;
        Speed::ALL[(at + up).clamp(0, Speed::ALL.len() as i32 - 1) as usize]
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == s)
            .ok_or_else(|| format!("unknown speed `{s}`: use slow, normal, fast or instant"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_speed_reads_back_as_it_is_written() {
        for speed in Speed::ALL {
            assert_eq!(speed.to_string().parse(), Ok(speed));
            let json = serde_json::to_string(&speed).unwrap();
            assert_eq!(json, format!("\"{speed}\""));
        }
        assert!("quick".parse::<Speed>().is_err());
    }

    #[test]
    fn steps_stop_at_either_end() {
        assert_eq!(Speed::Slow.step(-1), Speed::Slow);
        assert_eq!(Speed::Normal.step(1), Speed::Fast);
        assert_eq!(Speed::Instant.step(1), Speed::Instant);
    }
}

/// How the table looks and moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Look {
    pub speed: Speed,
    /// Plain letters for suits and borders, whatever the terminal can show.
    pub ascii: bool,
    /// Play a card for the player when it is the only one they may play.
    pub auto_play: bool,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            speed: Speed::Normal,
            ascii: false,
            auto_play: true,
        }
    }
}

/// Which parts of the look the command line set: those win over a saved
/// game's own look when it is taken up again, the others are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chosen {
    pub speed: bool,
    pub ascii: bool,
    pub auto_play: bool,
}

impl Chosen {
    /// Every part chosen: a saved look changes nothing.
    pub const ALL: Chosen = Chosen {
        speed: true,
        ascii: true,
        auto_play: true,
    };

    /// `now` where it was chosen, else what the game `kept`.
    pub fn over(self, now: Look, kept: Look) -> Look {
        Look {
            speed: if self.speed { now.speed } else { kept.speed },
            ascii: if self.ascii { now.ascii } else { kept.ascii },
            auto_play: if self.auto_play {
                now.auto_play
            } else {
                kept.auto_play
            },
        }
    }
}

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
