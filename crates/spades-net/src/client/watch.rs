//! A table on a server as a spectator follows it: who sits where, the
//! public view and the latest events, as the server says them. It holds
//! only what the server sends a spectator, so never a hand. Nothing here
//! draws; the terminal's spectator screen shows a `WatchState`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::engine::{PublicView, Rules, Seat, SeatEvent};
use crate::protocol::{ClientMessage, ErrorCode, SeatPlayer, Seating, ServerMessage, TableSeat};

use super::{Connection, Incoming};

/// The latest events kept: enough for a line of what just happened.
const EVENTS_KEPT: usize = 16;

/// The latest lines of news kept (chat, who came and went, refusals).
const NEWS_KEPT: usize = 4;

/// The table as this spectator knows it.
#[derive(Debug, Clone, Default)]
pub struct WatchState {
    /// The table's id, once the server has said `watching`.
    pub table: Option<String>,
    pub rules: Option<Rules>,
    /// Who sits in each seat, in seat order: a name and who plays it.
    pub seats: Vec<TableSeat>,
    /// The lobby, before the game starts.
    pub seating: Option<Seating>,
    /// What anyone may know of the game, once it has begun.
    pub view: Option<PublicView>,
    /// The latest events, oldest first.
    pub events: VecDeque<SeatEvent>,
    /// Chat lines, seat changes and the server's refusals, newest last.
    pub news: VecDeque<String>,
    /// The table (or the connection) is gone, and why.
    pub closed: Option<String>,
}

/// Why a table cannot be watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotWatching {
    /// The server has no table by that id.
    NoTable,
    /// The server refused (the table has its spectators), or the
    /// connection went: why.
    Refused(String),
}

/// How long the server's answer to `watch` is waited for.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Asks to watch `table` over `connection` (hello said) and waits for
/// the answer: once it is `watching`, it is put back for the state to
/// take, with whatever came before it.
pub fn start_watching(connection: &mut Connection, table: &str) -> Result<(), NotWatching> {
    connection.send(ClientMessage::Watch {
        table: table.to_string(),
    });
    let by = Instant::now() + ANSWER_WAIT;
    let mut read = Vec::new();
    loop {
        let left = by.saturating_duration_since(Instant::now());
        let Some(incoming) = connection.recv_timeout(left) else {
            if Instant::now() >= by {
                return Err(NotWatching::Refused("the server does not answer".into()));
            }
            continue;
        };
        match &incoming {
            Incoming::Message(ServerMessage::Watching { .. }) => {
                read.push(incoming);
                connection.put_back(read);
                return Ok(());
            }
            Incoming::Message(ServerMessage::Error { code, message }) => {
                return Err(match code {
                    ErrorCode::NoTable => NotWatching::NoTable,
                    _ => NotWatching::Refused(message.clone()),
                });
            }
            Incoming::Message(ServerMessage::Bye { reason, .. }) | Incoming::Closed(reason) => {
                return Err(NotWatching::Refused(reason.clone()));
            }
            _ => read.push(incoming),
        }
    }
}

impl WatchState {
    /// The name of the seat `i`, as the server gave it, a guest's marked.
    pub fn name(&self, i: usize) -> String {
        self.seats.get(i).map_or_else(
            || "?".to_string(),
            |s| crate::naming::shown_name(s.name.as_deref().unwrap_or("?"), s.guest),
        )
    }

    /// Takes in what the server said.
    pub fn take(&mut self, incoming: Incoming) {
        let message = match incoming {
            Incoming::Message(message) => message,
            Incoming::Unreadable(why) => {
                return self.tell(format!("The table sent something unreadable: {why}"));
            }
            Incoming::Closed(why) => {
                self.closed.get_or_insert(why);
                return;
            }
        };
        match message {
            ServerMessage::Watching {
                table,
                seats,
                rules,
            } => {
                self.table = Some(table);
                self.seats = seats;
                self.rules = crate::config::parse_rules(&rules, "the table's rules").ok();
            }
            ServerMessage::Seating(seating) => {
                self.seats = seating.seats.clone();
                self.seating = Some(seating);
            }
            ServerMessage::Start {
                seats,
                players,
                guests,
                ..
            } => {
                self.seating = None;
                self.seats = seats
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| TableSeat {
                        name: Some(name),
                        player: players.get(i).copied().unwrap_or(SeatPlayer::Person),
                        rating: None,
                        guest: guests.contains(&Seat::new(i)),
                    })
                    .collect();
            }
            ServerMessage::Public { view } => self.view = Some(*view),
            ServerMessage::Event { event } => {
                if self.events.len() == EVENTS_KEPT {
                    self.events.pop_front();
                }
                self.events.push_back(event);
            }
            ServerMessage::Seat {
                seat,
                name,
                player,
                guest,
            } => {
                if let Some(at) = self.seats.get_mut(seat.index()) {
                    *at = TableSeat {
                        name: Some(name.clone()),
                        player,
                        rating: None,
                        guest,
                    };
                }
                let name = crate::naming::shown_name(&name, guest);
                let line = match player {
                    SeatPlayer::Away => format!("{name} left: a computer plays for them."),
                    SeatPlayer::Person => format!("{name} is back."),
                    _ => String::new(),
                };
                if !line.is_empty() {
                    self.tell(line);
                }
            }
            ServerMessage::Chat { from, text, guest } => {
                let from = crate::naming::shown_name(&from, guest);
                self.tell(format!("{from}: {text}"));
            }
            ServerMessage::Error { message, .. } => self.tell(message),
            ServerMessage::Bye { reason, .. } => {
                self.closed.get_or_insert(reason);
            }
            // A spectator is sent nothing else; whatever else comes is
            // not its to act on.
            _ => {}
        }
    }

    fn tell(&mut self, news: String) {
        if self.news.len() == NEWS_KEPT {
            self.news.pop_front();
        }
        self.news.push_back(news);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Side;

    fn said(message: ServerMessage) -> Incoming {
        Incoming::Message(message)
    }

    #[test]
    fn the_state_follows_the_table_and_keeps_only_the_latest() {
        let mut state = WatchState::default();
        state.take(said(ServerMessage::Watching {
            table: "ABCDEF".into(),
            seats: vec![
                TableSeat {
                    name: Some("Ann".into()),
                    player: SeatPlayer::Person,
                    rating: None,
                    guest: false,
                };
                4
            ],
            rules: crate::config::commented_toml(&Rules::default()),
        }));
        assert_eq!(state.table.as_deref(), Some("ABCDEF"));
        assert_eq!(state.rules, Some(Rules::default()));
        state.take(said(ServerMessage::Start {
            commitment: None,
            seats: ["Ann", "East", "Bo", "West"].map(String::from).to_vec(),
            players: vec![SeatPlayer::Person, SeatPlayer::Bot],
            guests: vec![Seat::new(2)],
        }));
        assert_eq!(state.name(2), "~Bo");
        assert_eq!(
            state.seats[3].player,
            SeatPlayer::Person,
            "unsaid: a person"
        );
        for hand in 0..40 {
            state.take(said(ServerMessage::Event {
                event: SeatEvent::Dealt {
                    hand,
                    dealer: Seat::new(0),
                },
            }));
        }
        assert_eq!(state.events.len(), EVENTS_KEPT);
        assert_eq!(
            state.events.back(),
            Some(&SeatEvent::Dealt {
                hand: 39,
                dealer: Seat::new(0)
            })
        );
        for i in 0..10 {
            state.take(said(ServerMessage::Chat {
                from: "Ann".into(),
                text: format!("line {i}"),
                guest: false,
            }));
        }
        assert_eq!(state.news.len(), NEWS_KEPT);
        assert_eq!(state.news.back().map(String::as_str), Some("Ann: line 9"));
        state.take(said(ServerMessage::Event {
            event: SeatEvent::End {
                winner: Side::new(0),
                scores: vec![500, 200],
            },
        }));
        state.take(said(ServerMessage::Bye {
            reason: "the game is over".into(),
            rating: None,
        }));
        state.take(Incoming::Closed("later".into()));
        assert_eq!(state.closed.as_deref(), Some("the game is over"));
    }
}
