//! A game the ladder rates: secret deals, and every seat a signed-in
//! person or a server bot of a fixed level (as the local rating treats
//! them), under the server's ranked rules for its mode. A person not at
//! the table when it ends (who left, or whose connection was lost and did
//! not come back) counts as leaving, and loses; their seat was played on
//! by a bot to the end, and the others are rated by that end's score.

use sha2::{Digest, Sha256};

use super::super::seat_name;
use super::{Holder, TableTask};
use crate::bots::{BotSpec, Effort};
use crate::ladder::store::{Occupant, RecordHash};
use crate::ladder::{FinishedGame, UnixTime};
use crate::server::ConnId;
use crate::server::ladder::Farewell;

/// Whether a table's game counts for the ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Counts {
    /// The server keeps no ladder: nothing is rated, nothing to say.
    NoLadder,
    Rated,
    /// Not rated, and why (`target_score 10, ranked 500`).
    Unrated(String),
}

impl Counts {
    /// Why not rated, on a server with a ladder.
    pub(super) fn why_not(self) -> Option<String> {
        match self {
            Counts::Unrated(why) => Some(why),
            Counts::NoLadder | Counts::Rated => None,
        }
    }
}

impl TableTask {
    /// Hands the ended game to the ladder when it is rated: a game over,
    /// or one ended early because everyone left (`over` false and
    /// someone away); never one the server stopped. The players still here
    /// are said goodbye by the ladder, with their new rating (or word that
    /// it is pending): their connections are returned, not to be closed here.
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

    /// Whether the game would count for the ladder, as the table stands
    /// now (an empty seat to be filled by the table's bots), and why not
    /// in a few words the lobby, the listing and the record give.
    pub(super) fn counts(&self) -> Counts {
        if self.shared.ladder.is_none() {
            return Counts::NoLadder;
        }
        let why = self
            .shared
            .options
            .ranked
            .differs(&self.rules)
            .or_else(|| self.occupants().err());
        why.map_or(Counts::Rated, Counts::Unrated)
    }

    /// Who the ladder rates in each seat, and whether they left; or why
    /// nobody is rated: a person not signed in, a bot not of a fixed
    /// level, or a dummy.
    fn occupants(&self) -> Result<Vec<(Occupant, bool)>, String> {
        self.mode()
            .each_seat()
            .zip(&self.seats)
            .map(|(seat, holder)| match holder {
                Holder::Person(person) => match person.account {
                    Some(account) => Ok((Occupant::Player(account), person.conn.is_none())),
                    None => Err(format!("{} is not signed in", person.name)),
                },
                Holder::Bot | Holder::Empty => match &self.level {
                    BotSpec::Level(level, Effort::Usual) => Ok((Occupant::Bot(*level), false)),
                    other => Err(format!("the bots ({other}) have no fixed rating")),
                },
                Holder::Dummy => Err(format!(
                    "{} is a dummy: never rated",
                    seat_name(self.mode(), seat)
                )),
            })
            .collect()
    }

    /// The game as the ladder rates it, if it is rated.
    fn finished_game(&self) -> Option<FinishedGame> {
        let game = self.game.as_ref()?;
        game.table.commitment()?;
        if self.counts() != Counts::Rated {
            return None;
        }
        let mode = self.mode();
        let totals = game.table.view(crate::engine::Seat::new(0)).totals;
        let seats = mode
            .each_seat()
            .zip(self.occupants().ok()?)
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
