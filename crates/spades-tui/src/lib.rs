//! The game in a terminal: one client of the table. `app` holds the state
//! and turns input into actions; `view` draws that state; `terminal` owns
//! the real terminal and puts it back however the program ends; `run`
//! ties them together for a game, a replay and a shared table's lobby.

pub mod app;
mod components;
mod hand;
pub mod hint;
mod hits;
pub mod input;
pub mod layout;
pub mod link;
pub mod lobby;
pub mod offer;
pub mod replay;
pub mod replay_view;
mod run;
mod scored;
pub mod seating;
pub mod spoken;
pub mod standing;
pub mod summary;
pub mod terminal;
mod text;
pub mod theme;
pub mod view;
mod waiting;
pub mod watch;
mod widgets;

// The layers below, under the names the modules use.
use spades_core::{bots, engine};
use spades_formats::{config, fairness, look, naming, outside, protocol, record, signals};
use spades_net as net;
use spades_store::{analysis, history, rating, save, session, stats, story, table};

use std::fmt;

use crate::config::preferences::Preferences;
use crate::look::{Chosen, Look};
use crate::save::Saved;
use crate::session::{GameSetup, Played, SessionError};
use crate::signals::Signal;
use crate::table::BotError;

pub use crate::look::{Pace, Speed};
pub use app::App;
pub use hand::{CARD_KEYS, HAND_SUITS, hand_order};
pub use hits::{Hits, OfferChoice, Target};
pub use input::{Input, Key};
pub use run::{RemoteEnd, Start, run, run_remote, run_replay};
pub use theme::Theme;

/// Everything a game in the terminal needs to start: the game itself, and
/// how the table looks and moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayConfig {
    pub game: GameSetup,
    pub speed: Speed,
    /// Plain letters for suits and borders, whatever the terminal can show.
    pub ascii: bool,
    /// Play a card for the player when it is the only one they may play.
    pub auto_play: bool,
    /// Which of the look above the command line set: a resumed game keeps
    /// its own for the rest.
    pub chosen: Chosen,
    /// This program serves the shared table it sits at (`spades host`):
    /// leaving ends the table for everyone.
    pub serves_table: bool,
    /// The player came to the table from a server's lobby (`spades
    /// lobby`): leaving goes back there, and the screen says so.
    pub from_lobby: bool,
    /// How the game is shown and said: the screen-reader mode, the
    /// four-colour deck, the high-contrast theme.
    pub preferences: Preferences,
}

impl PlayConfig {
    /// The given rules and open seed against the default bots, at normal
    /// speed, unrecorded.
    pub fn new(rules: crate::engine::Rules, seed: u64) -> PlayConfig {
        PlayConfig {
            game: GameSetup::new(rules, seed),
            speed: Speed::Normal,
            ascii: false,
            auto_play: true,
            chosen: Chosen::ALL,
            serves_table: false,
            from_lobby: false,
            preferences: Preferences::default(),
        }
    }

    /// How the table is to look and move.
    pub fn look(&self) -> Look {
        Look {
            speed: self.speed,
            ascii: self.ascii,
            auto_play: self.auto_play,
        }
    }

    /// This configuration for taking `saved` up again: the look the game
    /// kept, but for what the command line chose.
    pub fn resuming(self, saved: &Saved) -> PlayConfig {
        let look = match saved.header.look {
            Some(kept) => self.chosen.over(self.look(), kept),
            None => self.look(),
        };
        PlayConfig {
            speed: look.speed,
            ascii: look.ascii,
            auto_play: look.auto_play,
            ..self
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    #[error("the terminal failed: {0}")]
    Terminal(#[from] std::io::Error),
    #[error("the game stopped: {0}")]
    Bot(#[from] BotError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// How a session at the table ended, and what it left behind.
#[derive(Debug)]
pub struct Outcome {
    pub played: Played,
    pub ending: Result<Ending, TuiError>,
}

/// Why the player left the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// From the game itself (`q`).
    Quit,
    /// With Ctrl-C.
    Interrupted,
    /// A stop signal from outside: SIGTERM, SIGHUP (the window closed) or
    /// SIGINT.
    Signal(Signal),
}

impl Ending {
    /// 0 for quitting; otherwise 128 plus the signal's number, as shells
    /// report a program stopped by it (Ctrl-C is SIGINT's 130).
    pub fn exit_code(self) -> i32 {
        match self {
            Ending::Quit => 0,
            Ending::Interrupted => 130,
            Ending::Signal(signal) => signal.exit_code(),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Quit => f.write_str("left the table"),
            Ending::Interrupted => f.write_str("interrupted (Ctrl-C)"),
            Ending::Signal(signal) => write!(f, "stopped by {signal}"),
        }
    }
}
