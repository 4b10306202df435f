//! The messages of a server's public lobby (`docs/protocol.md`, *The
//! lobby*): the list of its public tables, who sits at them with their
//! ratings, and the quick-match queue. A private table is never listed: it
//! is joined by its code, as before, and found again only by a player who
//! holds a seat at it (`mine`).

use serde::{Deserialize, Serialize};

use super::SeatPlayer;
use crate::engine::Mode;

/// The most tables one `tables` answer lists: a line stays well under
/// `MAX_LINE` however many tables the server holds.
pub const MAX_LISTED: usize = 100;

/// The most table ids one `mine` names: a machine keeps a token for few
/// tables at once (each for a day at most).
pub const MAX_MINE: usize = 50;

/// The longest table id a `mine` may name (ids are base32, 16 long now).
pub const MAX_TABLE_ID: usize = 32;

/// Could `id` be a table's id: letters and digits, not too long? What
/// `mine` takes, and what a client sends it.
pub fn is_table_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_TABLE_ID && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The longest a player may ask to wait in the quick-match queue before
/// bots fill the seats no player took, in seconds.
pub const MAX_WAIT: u32 = 300;

/// The most names a `queued` message lists: who waits first, enough to
/// see who is there; `waiting` counts them all.
pub const MAX_QUEUED_NAMES: usize = 8;

/// How many wait in one mode's quick-match queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueCount {
    pub mode: Mode,
    pub waiting: u32,
}

/// A rating as the lobby shows it beside a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRating {
    /// Rounded to the nearest point.
    pub rating: i32,
    pub deviation: i32,
    /// The deviation is still wide: the rating is a guess (shown with `?`).
    pub provisional: bool,
}

/// One seat of a listed table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedSeat {
    /// The player's or bot's name; absent for an empty seat.
    pub name: Option<String>,
    pub player: SeatPlayer,
    /// A signed-in player's rating in the table's mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<ShownRating>,
    /// A guest: a person not signed in (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
}

/// One public table of the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedTable {
    /// The table's part of its code: what `join` and `watch` take.
    pub table: String,
    pub mode: Mode,
    /// The rules in one short line (target, bags, nil values...).
    pub rules: String,
    /// One entry a seat, in seat order.
    pub seats: Vec<ListedSeat>,
    /// The game has started: its free seats are gone, it can be watched.
    pub started: bool,
    /// Every seat is a signed-in player or a bot of a fixed level: the
    /// game counts for the ladder.
    pub rated: bool,
    /// Why the game would not count for the ladder, when it would not
    /// (`target_score 10, ranked 500`, `Bob is not signed in`); absent
    /// from servers before this key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
    /// How many are watching.
    pub watchers: u32,
    /// The table's whole code when another server of the answering one's
    /// fleet holds it: `join` and `watch` it there, by this code. Absent
    /// for the answering server's own tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

impl ListedTable {
    /// Does `name` hold a seat in this table's game: playing it, or away
    /// from it while a bot plays it (a seat its token takes back)?
    pub fn seat_held_by(&self, name: &str) -> bool {
        self.started
            && self.seats.iter().any(|s| {
                s.name.as_deref() == Some(name)
                    && matches!(s.player, SeatPlayer::Person | SeatPlayer::Away)
            })
    }

    /// Seats a person could take now.
    pub fn free_seats(&self) -> usize {
        if self.started {
            return 0;
        }
        self.seats
            .iter()
            .filter(|s| s.player == SeatPlayer::Empty)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: SeatPlayer) -> ListedSeat {
        ListedSeat {
            name: None,
            player,
            rating: None,
            guest: false,
        }
    }

    #[test]
    fn a_started_table_has_no_free_seat() {
        let mut table = ListedTable {
            table: "K7QXM2PD4T9RWA3B".into(),
            mode: Mode::Partnership,
            rules: String::new(),
            seats: vec![
                seat(SeatPlayer::Person),
                seat(SeatPlayer::Empty),
                seat(SeatPlayer::Bot),
                seat(SeatPlayer::Empty),
            ],
            started: false,
            rated: false,
            unrated: None,
            watchers: 0,
            code: None,
        };
        assert_eq!(table.free_seats(), 2);
        table.started = true;
        assert_eq!(table.free_seats(), 0);
    }
}
