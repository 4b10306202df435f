//! The lobby of a table on a server as the player's program follows it:
//! who sits where and the host's settings, as the server says them, until
//! the game starts and hands over to the player's seat (`seat::Remote`).
//! Nothing here draws; the terminal's lobby screen shows a `LobbyState`.

use crate::engine::{Mode, PlayerView, Rules, Seat};
use crate::fairness::Commitment;

use super::client::Incoming;
use crate::protocol::{ClientMessage, ErrorCode, Lobby, SeatPlayer, ServerMessage};

/// The lobby as this player knows it.
#[derive(Debug, Clone)]
pub struct LobbyState {
    pub seat: Seat,
    pub host: bool,
    /// What a friend types to join, when this player can tell them.
    pub join_command: Option<String>,
    pub lobby: Option<Lobby>,
    pub rules: Option<Rules>,
    /// Chat lines and the server's refusals, newest last.
    pub news: Vec<String>,
    /// In the quick-match queue of a mode, with this many players in it.
    pub queued: Option<(Mode, u32)>,
}

impl LobbyState {
    pub fn new(seat: Seat, host: bool, join_command: Option<String>) -> LobbyState {
        LobbyState {
            seat,
            host,
            join_command,
            lobby: None,
            rules: None,
            news: Vec::new(),
            queued: None,
        }
    }

    /// The lobby the server sent, with the rules it holds.
    pub fn update(&mut self, lobby: Lobby) {
        self.rules = crate::config::parse_rules(&lobby.rules, "the table's rules").ok();
        self.lobby = Some(lobby);
    }

    pub fn tell(&mut self, news: String) {
        self.news.push(news);
        let keep = 4;
        if self.news.len() > keep {
            self.news.drain(..self.news.len() - keep);
        }
    }
}

/// Why a player never got to a table's game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSeated {
    /// The server has no table by the id asked for.
    NoTable,
    /// The table went away (or the connection did), and why.
    Closed(String),
}

impl std::fmt::Display for NotSeated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotSeated::NoTable => write!(f, "no such table"),
            NotSeated::Closed(why) => write!(f, "{why}"),
        }
    }
}

/// Keeps a seat's token (table id, token) to take the seat back later.
pub type KeepToken = Box<dyn FnMut(&str, &str)>;

/// What a player with no table to join asks the server for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seeking {
    /// A table of their own, joined by its code only.
    #[default]
    Private,
    /// A table of their own, listed in the server's lobby too.
    Public,
    /// A seat at a table quick match finds, bots filling the seats no
    /// player took once `wait` seconds have passed.
    Quick { mode: Mode, wait: u32 },
}

/// What a player at a table on a server needs besides the connection.
pub struct Joining {
    /// The table to sit at; `None` when opening one (`host`) or asking
    /// quick match for one, as `seeking` says.
    pub table: Option<String>,
    pub seeking: Seeking,
    /// A seat token kept from before, to take that seat back.
    pub token: Option<String>,
    /// Where to keep the seat's token: called once the server gives one.
    pub keep_token: KeepToken,
    /// The code a friend types, once the table's id is known.
    pub join_command: Box<dyn Fn(&str) -> String>,
}

impl Joining {
    /// The first thing to ask the server, once hello is said: to take a
    /// kept seat back, to sit at the table, to open one with `rules`, or
    /// to queue for quick match.
    pub fn request(&self, rules: &Rules) -> ClientMessage {
        match (&self.table, &self.token) {
            (Some(table), Some(token)) => ClientMessage::Reclaim {
                table: table.clone(),
                token: token.clone(),
            },
            (Some(table), None) => ClientMessage::Join {
                table: table.clone(),
            },
            (None, _) => match self.seeking {
                Seeking::Private => super::directory::host(rules, false),
                Seeking::Public => super::directory::host(rules, true),
                Seeking::Quick { mode, wait } => ClientMessage::Queue { mode, wait },
            },
        }
    }
}

/// The game's first moments, as the lobby hands them to the table.
#[derive(Debug)]
pub struct Started {
    pub commitment: Option<Commitment>,
    /// Each seat's name, in seat order, as the server gave them.
    pub names: Vec<String>,
    /// Who plays each seat: a person or a bot (or the dummy).
    pub players: Vec<SeatPlayer>,
    /// The seats of guests, whose names are shown marked.
    pub guests: Vec<Seat>,
    pub view: PlayerView,
    /// What came with the start, in order, the first view included.
    pub queued: Vec<ServerMessage>,
    /// The table and the seat's token, to take the seat back if the
    /// connection drops.
    pub seat_token: Option<(String, String)>,
}

/// The lobby following the server: who sits where, until the game starts
/// and the first view of the player's seat arrives.
pub struct Waiting {
    pub state: LobbyState,
    seat_token: Option<(String, String)>,
    start: Option<Begun>,
    queued: Vec<ServerMessage>,
}

/// The server's `start`, waiting for the first view.
struct Begun {
    commitment: Option<Commitment>,
    names: Vec<String>,
    players: Vec<SeatPlayer>,
    guests: Vec<Seat>,
}

impl Waiting {
    pub fn new(state: LobbyState) -> Waiting {
        Waiting {
            state,
            seat_token: None,
            start: None,
            queued: Vec::new(),
        }
    }

    /// Takes in what the server said: `Some(Ok)` once the game has begun,
    /// `Some(Err(why))` when the table is gone, or was never there.
    pub fn take(
        &mut self,
        incoming: Incoming,
        joining: &mut Joining,
    ) -> Option<Result<Started, NotSeated>> {
        let message = match incoming {
            Incoming::Message(m) => m,
            Incoming::Unreadable(why) => {
                self.state
                    .tell(format!("The table sent something unreadable: {why}"));
                return None;
            }
            Incoming::Closed(why) => return Some(Err(NotSeated::Closed(why))),
        };
        if let Some(begun) = &self.start {
            // The game has begun: everything goes to the table, and the
            // first view of the player's own seat opens it.
            let view = match &message {
                ServerMessage::View { view } => Some((**view).clone()),
                ServerMessage::Ask { view, seat, .. } if *seat == view.seat => {
                    Some((**view).clone())
                }
                _ => None,
            };
            let ended = matches!(message, ServerMessage::Bye { .. });
            self.queued.push(message);
            if let Some(view) = view {
                return Some(Ok(Started {
                    commitment: begun.commitment.clone(),
                    names: begun.names.clone(),
                    players: begun.players.clone(),
                    guests: begun.guests.clone(),
                    view,
                    queued: std::mem::take(&mut self.queued),
                    seat_token: self.seat_token.clone(),
                }));
            }
            if ended {
                return Some(Err(NotSeated::Closed(
                    "the table closed as the game began".into(),
                )));
            }
            return None;
        }
        match message {
            ServerMessage::Seated {
                table,
                seat,
                token,
                host,
            } => {
                (joining.keep_token)(&table, &token);
                self.seat_token = Some((table.clone(), token));
                self.state.seat = seat;
                self.state.host = host;
                self.state.join_command = Some((joining.join_command)(&table));
            }
            ServerMessage::Lobby(lobby) => self.state.update(lobby),
            ServerMessage::Queued { mode, waiting } => self.state.queued = Some((mode, waiting)),
            // The lobby followed before queueing: the count as it changes
            // (never below this player, who may be seated as it drops).
            ServerMessage::Queues { queues } => {
                if let Some((mode, waiting)) = &mut self.state.queued
                    && let Some(count) = queues.iter().find(|q| q.mode == *mode)
                {
                    *waiting = count.waiting.max(1);
                }
            }
            ServerMessage::Start {
                commitment,
                seats,
                players,
                guests,
            } => {
                self.start = Some(Begun {
                    commitment: commitment.and_then(|c| Commitment::parse(&c)),
                    names: seats,
                    players,
                    guests,
                });
            }
            ServerMessage::Chat { from, text, guest } => {
                let from = crate::naming::shown_name(&from, guest);
                self.state.tell(format!("{from}: {text}"));
            }
            // Not seated yet, and no table by that id: nothing will come.
            ServerMessage::Error {
                code: ErrorCode::NoTable,
                ..
            } if self.seat_token.is_none() => return Some(Err(NotSeated::NoTable)),
            // Quick match refused before any seat: none will come.
            ServerMessage::Error {
                code: ErrorCode::NotSignedIn | ErrorCode::NoLadder,
                message,
            } if self.seat_token.is_none() => return Some(Err(NotSeated::Closed(message))),
            ServerMessage::Error { message, .. } => self.state.tell(message),
            ServerMessage::Bye { reason, .. } => return Some(Err(NotSeated::Closed(reason))),
            _ => {}
        }
        None
    }
}
