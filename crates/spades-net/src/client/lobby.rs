//! A player's side of a server's lobby, before sitting down: the list of
//! its public tables, opening a table (public or private), and the
//! quick-match queue, each a typed answer. What the lobby screen calls;
//! once seated, `seating::Waiting` follows the table as for `join`.

use super::account::{SignInError, next};
use super::{Connection, Incoming};
use crate::engine::{Mode, Rules, Seat};
use crate::protocol::lobby::{ListedTable, MAX_MINE, QueueCount, is_table_id};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};

/// The server's public tables, as one `tables` answer lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The first `MAX_LISTED`, open tables first, then the newest.
    pub tables: Vec<ListedTable>,
    /// How many public tables match, listed or not.
    pub total: u32,
}

/// A seat at a table, as `seated` gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seated {
    pub table: String,
    pub seat: Seat,
    pub host: bool,
}

/// Out of the quick-match queue, or too late for that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unqueued {
    Left,
    /// A table was found first: the player sits at it (its `seated` and
    /// what follows are still to be read).
    Seated,
}

/// Why a lobby request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    /// The server refused (too many requests, not signed in...), in its
    /// words.
    #[error("the server refused: {message}")]
    Refused { code: ErrorCode, message: String },
    #[error("{0}")]
    Lost(String),
}

impl From<SignInError> for LobbyError {
    fn from(e: SignInError) -> LobbyError {
        match e {
            SignInError::Refused { code, message } => LobbyError::Refused { code, message },
            other => LobbyError::Lost(other.to_string()),
        }
    }
}

/// The `host` message opening a table with `rules`, listed in the lobby
/// when `public`.
pub fn host(rules: &Rules, public: bool) -> ClientMessage {
    ClientMessage::Host {
        rules: crate::config::commented_toml(rules),
        public,
    }
}

/// The server's public tables of `mode` (of every mode when `None`).
pub fn list(connection: &mut Connection, mode: Option<Mode>) -> Result<Listing, LobbyError> {
    connection.send(ClientMessage::Tables { mode });
    answer(connection, |m| match m {
        // A server before `mode` in `tables` answers without it.
        ServerMessage::Tables {
            tables,
            total,
            mode: listed,
        } if listed.is_none() || *listed == mode => Some(Listing {
            tables: tables.clone(),
            total: *total,
        }),
        _ => None,
    })
}

/// Those of `kept` (tables this machine keeps a seat token for) where
/// the signed-in player holds a seat on this server, public or private.
/// `None` from a server before `mine`, which refuses it: the public list
/// alone shows the player's own tables then.
pub fn mine(
    connection: &mut Connection,
    kept: &[String],
) -> Result<Option<Vec<ListedTable>>, LobbyError> {
    let tables: Vec<String> = kept
        .iter()
        .filter(|id| is_table_id(id))
        .take(MAX_MINE)
        .cloned()
        .collect();
    connection.send(ClientMessage::Mine { tables });
    let yours = answer(connection, |m| match m {
        ServerMessage::Yours { tables } => Some(tables.clone()),
        _ => None,
    });
    match yours {
        Ok(tables) => Ok(Some(tables)),
        Err(LobbyError::Refused {
            code: ErrorCode::BadMessage,
            ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The player's own tables (`yours`, of `mode` when one is asked) first,
/// then the listing's others: a table in both is listed once.
pub fn yours_first(yours: &[ListedTable], listing: Listing, mode: Option<Mode>) -> Listing {
    let yours: Vec<ListedTable> = yours
        .iter()
        .filter(|t| mode.is_none_or(|m| t.mode == m))
        .cloned()
        .collect();
    let added = yours
        .iter()
        .filter(|y| !listing.tables.iter().any(|t| t.table == y.table))
        .count();
    let others = listing
        .tables
        .into_iter()
        .filter(|t| !yours.iter().any(|y| y.table == t.table));
    Listing {
        tables: yours.iter().cloned().chain(others).collect(),
        total: listing
            .total
            .saturating_add(u32::try_from(added).unwrap_or(u32::MAX)),
    }
}

/// What a server tells a lobby that follows it, unasked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum News {
    /// The public tables of `mode` (every mode: `None`) now.
    Tables {
        mode: Option<Mode>,
        listing: Listing,
    },
    /// How many wait in each quick-match queue now.
    Queues(Vec<QueueCount>),
}

impl News {
    /// The news in a message, if it is some.
    pub fn of(message: &ServerMessage) -> Option<News> {
        match message {
            ServerMessage::Tables {
                tables,
                total,
                mode,
            } => Some(News::Tables {
                mode: *mode,
                listing: Listing {
                    tables: tables.clone(),
                    total: *total,
                },
            }),
            ServerMessage::Queues { queues } => Some(News::Queues(queues.clone())),
            _ => None,
        }
    }
}

/// Follows the server's lobby of `mode`: its tables now (`Some`), told
/// again with the queues' counts whenever they change (`News`). `None`
/// from a server before `follow`, which refuses it: ask with `list`.
pub fn follow(
    connection: &mut Connection,
    mode: Option<Mode>,
) -> Result<Option<Listing>, LobbyError> {
    connection.send(ClientMessage::Follow { mode });
    // Tables of the mode followed before may still come first: passed by.
    let listed = answer(connection, |m| match News::of(m) {
        Some(News::Tables {
            mode: listed,
            listing,
        }) if listed == mode => Some(listing),
        _ => None,
    });
    match listed {
        Ok(listing) => Ok(Some(listing)),
        Err(LobbyError::Refused {
            code: ErrorCode::BadMessage,
            ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens a table with `rules` and sits at it as its host. The `seated`
/// and `lobby` that came are left to be read, for `seating::Waiting`.
pub fn open(
    connection: &mut Connection,
    rules: &Rules,
    public: bool,
) -> Result<Seated, LobbyError> {
    connection.send(host(rules, public));
    let mut aside = Vec::new();
    let got = next(connection, &mut aside, |m| {
        matches!(
            m,
            ServerMessage::Seated { .. } | ServerMessage::Error { .. }
        )
        .then(|| m.clone())
    });
    let message = got.map_err(LobbyError::from)?;
    let seated = match &message {
        ServerMessage::Seated {
            table, seat, host, ..
        } => Ok(Seated {
            table: table.clone(),
            seat: *seat,
            host: *host,
        }),
        ServerMessage::Error { code, message } => Err(LobbyError::Refused {
            code: *code,
            message: message.clone(),
        }),
        _ => Err(LobbyError::Lost(
            "the server did not seat this player".into(),
        )),
    };
    if seated.is_ok() {
        // Read again by whoever follows the table, its token kept.
        aside.push(Incoming::Message(message));
    }
    connection.put_back(aside);
    seated
}

/// Into the quick-match queue of `mode`, waiting at most `wait` seconds
/// for players before bots fill the table; how many wait in it now.
pub fn queue(connection: &mut Connection, mode: Mode, wait: u32) -> Result<u32, LobbyError> {
    connection.send(ClientMessage::Queue { mode, wait });
    answer(connection, |m| match m {
        ServerMessage::Queued { waiting, .. } => Some(*waiting),
        _ => None,
    })
}

/// Out of the quick-match queue.
pub fn unqueue(connection: &mut Connection) -> Result<Unqueued, LobbyError> {
    connection.send(ClientMessage::Unqueue {});
    match answer(connection, |m| match m {
        ServerMessage::Unqueued {} => Some(Unqueued::Left),
        _ => None,
    }) {
        // Refused as the queue had found a table: seated there.
        Err(LobbyError::Refused {
            code: ErrorCode::BadMessage,
            ..
        }) => Ok(Unqueued::Seated),
        other => other,
    }
}

/// The answer `wanted` picks out, or the server's refusal; what else came
/// meanwhile is put back for the caller.
fn answer<T>(
    connection: &mut Connection,
    mut wanted: impl FnMut(&ServerMessage) -> Option<T>,
) -> Result<T, LobbyError> {
    let mut aside: Vec<Incoming> = Vec::new();
    let found = next(connection, &mut aside, |m| match m {
        ServerMessage::Error { code, message } => Some(Err(LobbyError::Refused {
            code: *code,
            message: message.clone(),
        })),
        other => wanted(other).map(Ok),
    });
    connection.put_back(aside);
    found?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(id: &str, mode: Mode) -> ListedTable {
        ListedTable {
            table: id.into(),
            mode,
            rules: String::new(),
            seats: Vec::new(),
            started: true,
            rated: false,
            unrated: None,
            watchers: 0,
            code: None,
        }
    }

    fn ids(listing: &Listing) -> Vec<&str> {
        listing.tables.iter().map(|t| t.table.as_str()).collect()
    }

    #[test]
    fn the_players_own_tables_come_first_once_and_of_the_mode_asked() {
        let public = Listing {
            tables: vec![
                table("OPEN", Mode::Partnership),
                table("MINEPUB", Mode::Partnership),
            ],
            total: 5,
        };
        let yours = [
            table("MINEPUB", Mode::Partnership),
            table("PRIVATE", Mode::Partnership),
            table("CUT", Mode::Cutthroat),
        ];
        let all = yours_first(&yours, public.clone(), None);
        assert_eq!(ids(&all), ["MINEPUB", "PRIVATE", "CUT", "OPEN"]);
        // The two not in the public list are counted with it.
        assert_eq!(all.total, 7);
        let partnership = yours_first(&yours, public.clone(), Some(Mode::Partnership));
        assert_eq!(ids(&partnership), ["MINEPUB", "PRIVATE", "OPEN"]);
        assert_eq!(partnership.total, 6);
        assert_eq!(yours_first(&[], public.clone(), None), public);
    }
}
