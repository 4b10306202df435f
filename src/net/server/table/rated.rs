//! A game the ladder rates: secret deals, and every seat a signed-in
//! person or a server bot of a fixed level (as the local rating treats
//! them). A person not at the table when it ends (who left, or whose
//! connection was lost and did not come back) counts as leaving, and loses.

use sha2::{Digest, Sha256};

use super::{Holder, TableTask};
use crate::bots::{BotSpec, Effort};
use crate::ladder::store::{Occupant, RecordHash};
use crate::ladder::{FinishedGame, UnixTime};
use crate::net::server::ConnId;
use crate::net::server::ladder::Farewell;

impl TableTask {
    /// Hands the ended game to the ladder when it is rated: a game over,
    /// or one ended early because a person left (`over` false and someone
    /// away); never one the server stopped. The players still here are
    /// said goodbye by the ladder, with their new rating (or word that it
    /// is pending): their connections are returned, not to be closed here.
    pub(super) fn rate(&self, over: bool, reason: &str, leaver: Option<ConnId>) -> Vec<ConnId> {
        let Some(ladder) = &self.shared.ladder else {
            return Vec::new();
        };
        let Some(game) = self.finished_game() else {
            return Vec::new();
        };
        if !over && !game.seats.iter().any(|&(_, _, left)| left) {
            return Vec::new();
        }
        let players: Vec<_> = self
            .seats
            .iter()
            .filter_map(|holder| match holder {
                Holder::Person(person) => Some((person.conn?, person.account?)),
                _ => None,
            })
            .filter(|&(conn, _)| Some(conn) != leaver)
            .filter_map(|(conn, account)| {
                let present = self.conns.iter().find(|p| p.link.id == conn)?;
                Some((present.link.clone(), account))
            })
            .collect();
        let told = players.iter().map(|(link, _)| link.id).collect();
        ladder.rate(game, Farewell::new(players, reason));
        told
    }

    /// Would the game count for the ladder, as the table stands now (an
    /// empty seat to be filled by the table's bots)? The lobby says so.
    pub(super) fn counts_for_ladder(&self) -> bool {
        self.shared.ladder.is_some() && self.occupants().is_some()
    }

    /// Who the ladder rates in each seat, and whether they left; `None`
    /// when the game is not rated: a person not signed in, a bot not of
    /// a fixed level, or a dummy.
    fn occupants(&self) -> Option<Vec<(Occupant, bool)>> {
        self.seats
            .iter()
            .map(|holder| match holder {
                Holder::Person(person) => {
                    Some((Occupant::Player(person.account?), person.conn.is_none()))
                }
                Holder::Bot | Holder::Empty => match &self.level {
                    BotSpec::Level(level, Effort::Usual) => Some((Occupant::Bot(*level), false)),
                    _ => None,
                },
                Holder::Dummy => None,
            })
            .collect()
    }

    /// The game as the ladder rates it, if it is rated.
    fn finished_game(&self) -> Option<FinishedGame> {
        let game = self.game.as_ref()?;
        game.table.commitment()?;
        let mode = self.mode();
        let totals = game.table.view(crate::engine::Seat::new(0)).totals;
        let seats = mode
            .each_seat()
            .zip(self.occupants()?)
            .map(|(seat, (occupant, left))| {
                let score = totals.get(mode.side_of(seat)).map_or(0, |t| t.score);
                (occupant, score, left)
            })
            .collect();
        Some(FinishedGame {
            mode,
            record: RecordHash(Sha256::digest(&game.record_text).into()),
            finished: UnixTime::now(),
            seats,
        })
    }
}
