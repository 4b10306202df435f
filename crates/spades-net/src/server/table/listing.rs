//! A table's place in the server's lobby: its summary, put there whenever
//! its seats change, so a `tables` (or `mine`) request never waits on it.

use super::TableTask;
use super::rated::Counts;
use crate::config;
use crate::protocol::lobby::{ListedSeat, ListedTable};

impl TableTask {
    /// The table as the lobby lists it.
    pub(super) fn listed(&self) -> ListedTable {
        let mode = self.mode();
        let counts = self.counts();
        let seats = self
            .seating()
            .seats
            .into_iter()
            .map(|shown| ListedSeat {
                name: shown.name,
                player: shown.player,
                rating: shown.rating,
                guest: shown.guest,
            })
            .collect();
        ListedTable {
            table: self.id.clone(),
            mode,
            rules: config::in_a_line(&self.rules),
            seats,
            started: self.game.is_some(),
            rated: counts == Counts::Rated,
            unrated: counts.why_not(),
            watchers: u32::try_from(self.watchers.len()).unwrap_or(u32::MAX),
            code: None,
        }
    }

    /// A public table's summary in the server's lobby is brought up to
    /// date; a private table is never listed, its summary only kept for
    /// its seats' holders to find it again (`mine`).
    pub(super) fn relist(&self) {
        if self.ended {
            return;
        }
        if self.public {
            self.shared.lobby.put(self.listed());
        } else {
            self.shared.lobby.put_unlisted(self.listed());
        }
    }
}
