//! A table's seating on a server (its lobby, before the game) as the
//! player's program follows it: who sits where and the host's settings, as
//! the server says them, until the game starts and hands over to the
//! player's seat (`seat::Remote`). Nothing here draws; the terminal's
//! seating screen shows a `SeatingState`.

use std::time::{Duration, Instant};

use crate::engine::{Mode, PlayerView, Rules, Seat};
use crate::fairness::Commitment;

use super::Incoming;
use crate::protocol::lobby::{MAX_QUEUED_NAMES, MAX_WAIT};
use crate::protocol::{ClientMessage, ErrorCode, SeatPlayer, Seating, ServerMessage};

/// The seating as this player knows it.
#[derive(Debug, Clone)]
pub struct SeatingState {
    pub seat: Seat,
    pub host: bool,
    /// What a friend types to join, when this player can tell them.
    pub join_command: Option<String>,
    /// What a friend types to watch, once the table's code is known.
    pub watch_command: Option<String>,
    pub seating: Option<Seating>,
    pub rules: Option<Rules>,
    /// Chat lines and the server's refusals, newest last.
    pub news: Vec<String>,
    /// In the quick-match queue, as the server last told it.
    pub queued: Option<InQueue>,
}

/// The quick-match queue as the server last told a player in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InQueue {
    pub mode: Mode,
    /// How many wait for the mode, this player included.
    pub waiting: u32,
    /// The first of them by name, longest waiting first (at most
    /// `MAX_QUEUED_NAMES`).
    pub names: Vec<String>,
    /// When this player's wait is over and bots fill the seats left, by
    /// this program's clock, as the server counted it; `None` from a
    /// server that does not say.
    pub bots_at: Option<Instant>,
}

impl InQueue {
    /// What a `queued` says, heard at `now`: the names cut to
    /// `MAX_QUEUED_NAMES` and the wait to `MAX_WAIT`, whatever a server
    /// sent (each name was cut as it was read, `client::read_server`).
    pub fn heard(
        mode: Mode,
        waiting: u32,
        mut names: Vec<String>,
        bots_in: Option<u32>,
        now: Instant,
    ) -> InQueue {
        names.truncate(MAX_QUEUED_NAMES);
        let bots_at = bots_in.map(|s| now + Duration::from_secs(u64::from(s.min(MAX_WAIT))));
        InQueue {
            mode,
            waiting,
            names,
            bots_at,
        }
    }

    /// Whole seconds left at `now` before bots fill the seats, rounded
    /// up, so the count shows 1 until it is over; `None` when not known.
    pub fn seconds_left(&self, now: Instant) -> Option<u64> {
        let left = self.bots_at?.saturating_duration_since(now);
        Some(left.as_secs() + u64::from(left.subsec_nanos() > 0))
    }
}

impl SeatingState {
    pub fn new(seat: Seat, host: bool, join_command: Option<String>) -> SeatingState {
        SeatingState {
            seat,
            host,
            join_command,
            watch_command: None,
            seating: None,
            rules: None,
            news: Vec::new(),
            queued: None,
        }
    }

    /// The seating the server sent, with the rules it holds.
    pub fn update(&mut self, seating: Seating) {
        self.rules = crate::config::parse_rules(&seating.rules, "the table's rules").ok();
        self.seating = Some(seating);
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

/// Where a seat's token (table id, token) is kept, to take the seat back
/// later (`seats_kept`): kept once the server gives it, forgotten once
/// the seat cannot be taken back (the table ended, or the server no
/// longer knows the token), so that no stale token is ever sent.
pub trait SeatTokens: std::fmt::Debug + Send + Sync {
    fn keep(&self, table: &str, token: &str);
    fn forget(&self, table: &str);
}

/// The seat tokens as the seating and the seat share them.
pub type KeepToken = std::sync::Arc<dyn SeatTokens>;

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
    /// The table's whole code, for a friend to join or watch by, once
    /// its id is known.
    pub code: Box<dyn Fn(&str) -> String>,
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
                Seeking::Private => super::lobby::host(rules, false),
                Seeking::Public => super::lobby::host(rules, true),
                Seeking::Quick { mode, wait } => ClientMessage::Queue { mode, wait },
            },
        }
    }
}

/// The game's first moments, as the seating hands them to the table.
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
    /// Where the token is kept, to forget it once the table has ended.
    pub tokens: KeepToken,
    /// The table's whole code, for a friend who would watch.
    pub code: Option<String>,
}

/// The seating following the server: who sits where, until the game starts
/// and the first view of the player's seat arrives.
pub struct Waiting {
    pub state: SeatingState,
    seat_token: Option<(String, String)>,
    code: Option<String>,
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
    pub fn new(state: SeatingState) -> Waiting {
        Waiting {
            state,
            seat_token: None,
            code: None,
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
        if self.start.is_some() {
            return self.after_start(message, joining);
        }
        match message {
            ServerMessage::Seated {
                table,
                seat,
                token,
                host,
            } => {
                self.seated(joining, table, seat, token, host);
            }
            ServerMessage::Seating(seating) => self.state.update(seating),
            ServerMessage::Queued {
                mode,
                waiting,
                names,
                bots_in,
            } => {
                let heard = InQueue::heard(mode, waiting, names, bots_in, Instant::now());
                self.state.queued = Some(heard);
            }
            // The lobby followed before queueing: the count as it changes
            // (never below this player, who may be seated as it drops).
            ServerMessage::Queues { queues } => {
                if let Some(queued) = &mut self.state.queued
                    && let Some(count) = queues.iter().find(|q| q.mode == queued.mode)
                {
                    queued.waiting = count.waiting.max(1);
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
            ServerMessage::Error { code, message } => return self.refused(code, message, joining),
            ServerMessage::Bye { reason, .. } => {
                // The table ended before its game: its seats with it.
                if let Some((table, _)) = &self.seat_token {
                    joining.keep_token.forget(table);
                }
                return Some(Err(NotSeated::Closed(reason)));
            }
            _ => {}
        }
        None
    }

    /// The server gave the player a seat: its token is kept, and its code
    /// is what a friend joins or watches by.
    fn seated(&mut self, joining: &Joining, table: String, seat: Seat, token: String, host: bool) {
        joining.keep_token.keep(&table, &token);
        self.seat_token = Some((table.clone(), token));
        self.state.seat = seat;
        self.state.host = host;
        let code = (joining.code)(&table);
        self.state.join_command = Some(format!("spades join {code}"));
        self.state.watch_command = Some(format!("spades watch {code}"));
        self.code = Some(code);
    }

    /// The game has begun: everything goes to the table, and the first
    /// view of the player's own seat opens it.
    fn after_start(
        &mut self,
        message: ServerMessage,
        joining: &Joining,
    ) -> Option<Result<Started, NotSeated>> {
        let begun = self.start.as_ref()?;
        let view = match &message {
            ServerMessage::View { view, .. } => Some((**view).clone()),
            ServerMessage::Ask { view, seat, .. } if *seat == view.seat => Some((**view).clone()),
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
                tokens: joining.keep_token.clone(),
                code: self.code.clone(),
            }));
        }
        ended.then(|| {
            Err(NotSeated::Closed(
                "the table closed as the game began".into(),
            ))
        })
    }

    /// An error from the server before the game: some end the wait for a
    /// seat, the rest are said.
    fn refused(
        &mut self,
        code: ErrorCode,
        message: String,
        joining: &mut Joining,
    ) -> Option<Result<Started, NotSeated>> {
        let seated = self.seat_token.is_some();
        match code {
            // Not seated yet, and no table by that id: nothing will come,
            // and a token kept for it is of no more use.
            ErrorCode::NoTable if !seated => {
                forget_asked(joining);
                return Some(Err(NotSeated::NoTable));
            }
            // The table does not know the kept token (the seat was freed):
            // forgotten, so joining again sits the player anew.
            ErrorCode::BadToken if !seated && joining.token.is_some() => {
                forget_asked(joining);
                joining.token = None;
                self.state.tell(
                    "The seat kept for you at this table is no longer yours: leave and join it again to sit anew."
                        .into(),
                );
            }
            // Quick match refused before any seat: none will come.
            ErrorCode::NotSignedIn | ErrorCode::NoLadder if !seated => {
                return Some(Err(NotSeated::Closed(message)));
            }
            _ => self.state.tell(message),
        }
        None
    }
}

/// Forgets the token kept for the table the player asked for.
fn forget_asked(joining: &Joining) {
    if let Some(table) = &joining.table {
        joining.keep_token.forget(table);
    }
}
