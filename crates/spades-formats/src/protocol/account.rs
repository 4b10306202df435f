//! The messages of accounts and the ladder (`docs/protocol.md`, *Accounts
//! and the ladder*): a server that keeps a ladder offers a challenge in its
//! `welcome`; a client signs it to sign in or register, and may ask for the
//! ladder. Keys, nonces and signatures travel as lowercase hex.

use serde::{Deserialize, Serialize};

use crate::engine::Mode;

/// The most ladder rows a server sends, and of a player's history.
pub const MAX_ROWS: usize = 100;

/// A player's standing in one mode, as `signed_in` tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeRating {
    pub mode: Mode,
    /// Rounded to the nearest point, as shown.
    pub rating: i32,
    pub deviation: i32,
    pub games: u32,
    /// The deviation is still wide: the rating is a guess.
    pub provisional: bool,
}

/// One line of the ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rung {
    /// From 1.
    pub rank: u32,
    pub name: String,
    pub rating: i32,
    pub deviation: i32,
    pub games: u32,
    pub provisional: bool,
}

/// One rated game in the asking player's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rated {
    /// When the game ended, seconds since the Unix epoch.
    pub finished: i64,
    pub before: i32,
    pub after: i32,
    /// The deviation after the game.
    pub deviation: i32,
}

/// A ladder's state when it cannot be used, as `welcome` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LadderState {
    /// The server keeps a ladder, but its database does not answer: no
    /// challenge, nobody signs in, games are played unrated.
    Unavailable,
}

/// What the ladder made of a rated game, for one of its players: the
/// rating it recorded, or that the result is kept to be recorded once the
/// store can be written (never a figure the store does not hold).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GameRating {
    Recorded {
        mode: Mode,
        before: i32,
        after: i32,
        /// The deviation after the game.
        deviation: i32,
        provisional: bool,
    },
    Pending {
        mode: Mode,
    },
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(bytes)
}

/// The bytes of lowercase or uppercase hex, if it is hex of exactly `N`
/// bytes.
pub fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let bytes = data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.as_bytes())
        .ok()?;
    bytes.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_back_only_at_its_length() {
        let bytes = [0xab_u8; 32];
        assert_eq!(unhex::<32>(&hex(&bytes)), Some(bytes));
        assert_eq!(unhex::<32>(&hex(&bytes).to_uppercase()), Some(bytes));
        assert_eq!(unhex::<32>("ab"), None);
        assert_eq!(unhex::<2>("zzzz"), None);
    }
}
