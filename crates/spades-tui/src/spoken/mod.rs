//! The screen-reader mode: the same table and session as the full-screen
//! view, said in plain lines instead of drawn. Each thing that happens is
//! one short sentence appended to the terminal, so a screen reader or a
//! braille display reads each new line once; the player answers with a
//! key or words and Enter. No escape sequence is ever written, and both
//! ends may be pipes, so the mode can be scripted and tested.
//!
//! Nothing here decides the game: the `App` the full-screen table uses
//! holds the state, and this view says it and turns words into its
//! actions.

pub mod ask;
pub mod commands;
mod lines;
pub mod lobby;
pub mod remote;
pub mod replay;
pub mod say;
pub mod table;
pub mod watch;
pub mod words;

pub use lines::{Heard, LINE_MAX, Lines};

use crate::config::preferences::{Preferences, Verbosity};

use super::theme::{CardNames, Theme};

/// How the mode speaks: how much, and cards in words or short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speech {
    pub verbosity: Verbosity,
    /// "QH" rather than "queen of hearts", for braille.
    pub short_cards: bool,
}

impl Speech {
    /// Cards in words, at normal length: the mode unless asked otherwise.
    pub const NORMAL: Speech = Speech {
        verbosity: Verbosity::Normal,
        short_cards: false,
    };
    /// Short cards ("QH"), for braille.
    pub const SHORT: Speech = Speech {
        short_cards: true,
        ..Speech::NORMAL
    };
    /// The least said: brief, with short cards.
    pub const BRIEF: Speech = Speech {
        verbosity: Verbosity::Brief,
        ..Speech::SHORT
    };

    pub fn from_preferences(preferences: &Preferences) -> Speech {
        Speech {
            verbosity: preferences.verbosity,
            short_cards: preferences.short_cards,
        }
    }

    /// The theme the app words its sentences with: plain letters and no
    /// colour, cards in words unless they are to be short ("QH").
    pub fn theme(&self) -> Theme {
        Theme {
            card_names: if self.short_cards {
                CardNames::Faces
            } else {
                CardNames::Words
            },
            ..Theme::PLAIN
        }
    }
}
