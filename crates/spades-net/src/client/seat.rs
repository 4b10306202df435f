//! The player's seat at a table on a server, as the player's own program
//! keeps it: what the server said, kept in arrival order and let out one
//! move at a time (so the others' moves show at the pace the player chose,
//! as at a local table); the decision asked for; the player's own copy of
//! the game's record; and taking the seat back when the connection drops.
//! Nothing here draws.
//!
//! `Remote` holds what the server said of the table and routes what it
//! says to the parts that own the rest: the pacing of what is shown
//! (`pacing`), the game as shown and the answers to it (`shown`), the
//! record's copy (`record_copy`), the way back after a drop (`reconnect`)
//! and the chat and news (`chat`).

mod chat;
mod pacing;
mod reconnect;
mod record_copy;
mod shown;

use std::collections::VecDeque;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::engine::{
    Action, HandResult, Phase, PlayerView, RuleError, Rules, Seat, SeatEvent, Turn,
};
use crate::fairness::{Commitment, Reveal};
use crate::record::RecordLine;
use crate::session::Played;

use super::seating::Started;
use super::table_facts::TableFacts;
use super::{Connection, Incoming};
use crate::protocol::account::GameRating;
use crate::protocol::timer::TimedOut;
use crate::protocol::{ClientMessage, SeatPlayer, ServerMessage};
use chat::Chat;
use pacing::Pacing;
use reconnect::{Reconnect, Rejoin};
use record_copy::RecordCopy;
use shown::{Asked, Shown};

/// The player's seat at a table on a server.
pub struct Remote {
    connection: Connection,
    rules: Rules,
    /// What the server said that the player has not been shown yet.
    pacing: Pacing,
    /// The player's seat and what it has been shown.
    shown: Shown,
    commitment: Option<Commitment>,
    reveal: Option<Reveal>,
    /// The player's own copy of the game's record, as the server wrote it.
    record: RecordCopy,
    /// Chat, seats changing hands and refusals, to tell the player.
    chat: Chat,
    names: Vec<String>,
    /// The seats of guests, whose names the table shows marked.
    guests: Vec<Seat>,
    /// Why the table is gone, once it is.
    closed: Option<String>,
    /// What the server's ladder made of the game, as its goodbye said.
    ladder_rating: Option<GameRating>,
    /// Taking the seat back when the connection drops.
    reconnect: Reconnect,
    /// Whether the server's ladder rates the game, as its record says.
    ladder: Option<Ladder>,
    /// The table's code, who plays each seat, its bots' level and its
    /// rules' origin, as the server said them.
    facts: TableFacts,
}

/// Whether a server's ladder rates a game at its table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ladder {
    Rated,
    /// Not rated, and why (`target_score 10, ranked 500`).
    Unrated(String),
}

impl Remote {
    /// The player's seat at a game that has just started (or was just
    /// taken back), as the lobby hands it over; what came with the start
    /// waits to be shown.
    pub fn new(
        connection: Connection,
        started: Started,
        record: Option<(File, PathBuf)>,
    ) -> Remote {
        let Started {
            commitment,
            names,
            players,
            guests,
            view,
            queued,
            seat_token,
            tokens,
            code,
        } = started;
        // A bot is named by its seat, as the server names it for everyone
        // (every player's copy of the record, the spectators): one bot,
        // one name. A person keeps their name.
        let names: Vec<String> = names
            .iter()
            .map(|n| crate::outside::clean_name(n, crate::naming::MAX_NAME))
            .collect();
        Remote {
            connection,
            rules: view.rules,
            // What came with the start was read just now, as far as its
            // asks' time goes.
            pacing: Pacing::new(queued, Instant::now()),
            shown: Shown::new(view),
            commitment,
            reveal: None,
            record: RecordCopy::new(record),
            chat: Chat::default(),
            names,
            guests,
            closed: None,
            ladder_rating: None,
            reconnect: Reconnect::new(seat_token, tokens),
            ladder: None,
            facts: TableFacts {
                code,
                players,
                ..TableFacts::default()
            },
        }
    }

    pub fn seat(&self) -> Seat {
        self.shown.seat()
    }

    /// Takes in what has arrived by `now`, without showing it yet.
    pub fn pump(&mut self, now: Instant) {
        match self.reconnect.poll(self.connection.target()) {
            Rejoin::Idle => {}
            Rejoin::Waiting => return,
            Rejoin::Back(connection) => {
                self.connection = connection;
                // The whole record comes again: what is kept is not
                // written twice.
                self.record.rejoined();
                self.chat.tell("Back at the table.".into());
            }
            Rejoin::NotBack(reason) => self.pacing.push(
                ServerMessage::Bye {
                    reason,
                    rating: None,
                },
                now,
            ),
        }
        while let Some(incoming) = self.connection.try_recv() {
            match incoming {
                Incoming::Message(message) => {
                    if matches!(message, ServerMessage::Bye { .. }) {
                        self.reconnect.heard_bye();
                    }
                    self.pacing.push(message, now);
                }
                Incoming::Unreadable(why) => {
                    self.chat
                        .tell(format!("The table sent something unreadable: {why}"));
                }
                Incoming::Closed(why) => {
                    // Dropped, not closed by the table: take the seat back.
                    if self.reconnect.dropped(&self.connection) {
                        self.chat.tell(format!(
                            "The connection dropped ({why}): taking your seat back..."
                        ));
                        return;
                    }
                    self.pacing.push(
                        ServerMessage::Bye {
                            reason: why,
                            rating: None,
                        },
                        now,
                    );
                }
            }
        }
    }

    /// Is a move by someone else next, to be shown after a pause?
    pub fn next_is_others_move(&self) -> bool {
        self.pacing
            .next_is_move_by(|seat| self.shown.is_others(seat))
    }

    /// Has something arrived that the player has not been shown?
    pub fn has_waiting(&self) -> bool {
        !self.pacing.is_empty()
    }

    /// Shows the next change at the table: its events, then the view they
    /// lead to, and what follows at once (an ask, record lines, chat).
    pub fn step(&mut self) {
        for (message, read) in self.pacing.next_change() {
            match message {
                ServerMessage::Event { event } => self.shown.event(event),
                ServerMessage::View { view, timed_out } => {
                    self.shown.see(*view);
                    if let Some(timed_out) = timed_out {
                        self.shown.bot_answered(timed_out);
                    }
                }
                ServerMessage::Ask {
                    seat,
                    decision,
                    legal,
                    time_left,
                    view,
                } => self.shown.ask(Asked {
                    seat,
                    decision,
                    legal,
                    view: *view,
                    deadline: time_left.map(|left| read + left.duration()),
                }),
                ServerMessage::Record { lines } => self.keep_record(&lines),
                ServerMessage::Seat {
                    seat,
                    name,
                    player,
                    guest,
                } => {
                    if let Some(now) = self.facts.players.get_mut(seat.index()) {
                        *now = player;
                    }
                    let name = crate::naming::shown_name(&name, guest);
                    self.chat.seat_changed(seat, &name, player);
                }
                ServerMessage::Chat { from, text, guest } => {
                    self.chat
                        .heard(&crate::naming::shown_name(&from, guest), &text);
                }
                ServerMessage::Error { message, .. } => self.chat.tell(message),
                ServerMessage::Bye { reason, rating } => {
                    self.closed.get_or_insert(reason);
                    self.ladder_rating = self.ladder_rating.take().or(rating);
                    self.record.flush();
                    // What follows waits for the next step.
                    return;
                }
                ServerMessage::Welcome { .. }
                | ServerMessage::Seated { .. }
                | ServerMessage::Seating(_)
                | ServerMessage::Start { .. }
                // For spectators, not seats.
                | ServerMessage::Watching { .. }
                | ServerMessage::Public { .. }
                // Answers to what is asked before sitting down.
                | ServerMessage::Challenge { .. }
                | ServerMessage::SignedIn { .. }
                | ServerMessage::Rotated { .. }
                | ServerMessage::Ladder { .. }
                | ServerMessage::Tables { .. }
                | ServerMessage::Yours { .. }
                | ServerMessage::Queues { .. }
                | ServerMessage::Queued { .. }
                | ServerMessage::Unqueued {}
                // Answered by the connection itself; never passed on.
                | ServerMessage::Ping {} => {}
            }
        }
    }

    /// What a bot did for the player when their time ran out, once.
    pub fn take_timed_out(&mut self) -> Option<TimedOut> {
        self.shown.take_timed_out()
    }

    /// When a bot of the table answers the decision asked of the player,
    /// on a table with a turn timer: the ask shown, else the next one read
    /// and not shown yet (while the player reads a hand's score, say),
    /// whose time runs all the same.
    pub fn deadline(&self) -> Option<Instant> {
        // Gone, or taking the seat back: the table will ask anew.
        if self.closed.is_some() || self.reconnect.is_rejoining() {
            return None;
        }
        match self.shown.asked_deadline() {
            Some(shown) => shown,
            None => self.pacing.next_ask_deadline(),
        }
    }

    /// Keeps the server's record lines in the player's own copy, with the
    /// header saying which seat was the player's.
    fn keep_record(&mut self, lines: &[RecordLine]) {
        for line in self.record.new_lines(lines) {
            // Every string in it was cleaned as the line was read
            // (`client::read_server`), as names and chat are.
            let mut line = line.clone();
            match &mut line {
                RecordLine::Game(header) => {
                    header.info.id = self.record.game_id().or(header.info.id.take());
                    header.info.player_seat = Some(self.shown.seat());
                    // The names as this player saw them at the table.
                    header.names = self.names.clone();
                    self.facts.heard_header(&header.info);
                    self.ladder = match (header.info.rated, &header.info.unrated) {
                        (true, _) => Some(Ladder::Rated),
                        (false, Some(why)) => Some(Ladder::Unrated(why.clone())),
                        (false, None) => None,
                    };
                }
                RecordLine::End { .. } | RecordLine::Abandoned { .. } => {
                    self.reveal = line.revealed();
                    self.reconnect.game_over();
                }
                _ => {}
            }
            self.record.write(&line);
        }
        self.record.flush();
    }

    /// Chat, seats changing hands and the server's refusals, since last asked.
    pub fn take_news(&mut self) -> Vec<String> {
        self.chat.take_news()
    }

    /// The chat so far (the latest lines), oldest first.
    pub fn chat_log(&self) -> &VecDeque<String> {
        self.chat.log()
    }

    /// Why the table is gone, once it is.
    pub fn closed(&self) -> Option<&str> {
        self.closed.as_deref()
    }

    /// What the server's ladder made of the game: the rating it recorded,
    /// or that it is pending; `None` for a game it did not rate.
    pub fn ladder_rating(&self) -> Option<&GameRating> {
        self.ladder_rating.as_ref()
    }

    /// What the server said of the table: its code, who plays where,
    /// its bots' level and its rules' origin.
    pub fn facts(&self) -> &TableFacts {
        &self.facts
    }

    /// Each seat's name as this player sees it: bots by their place.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The seats of guests (not signed in, on a server with a ladder).
    pub fn guests(&self) -> &[Seat] {
        &self.guests
    }

    /// Is another person still at the table? When nobody is, the server
    /// ends the table as the player leaves it; a server that never said who
    /// plays each seat is taken to play on.
    pub fn others_here(&self) -> bool {
        let players = &self.facts.players;
        players.is_empty()
            || players
                .iter()
                .enumerate()
                .any(|(i, p)| i != self.seat().index() && *p == SeatPlayer::Person)
    }

    /// The view `seat` is shown: what was asked of it, else the player's.
    pub fn view(&self, seat: Seat) -> PlayerView {
        self.shown.view(seat)
    }

    /// The decision the server asked of this player, if one is waiting.
    pub fn turn(&self) -> Option<Turn> {
        // An ask the table made before it ended can never be answered.
        if self.closed.is_some() {
            return None;
        }
        self.shown.turn()
    }

    /// The seat someone else (a person or a bot) must act for now; the
    /// player's own answered turn is nobody else's.
    pub fn others_turn(&self) -> Option<Turn> {
        // A table that has ended waits on nobody.
        if self.closed.is_some() {
            return None;
        }
        self.shown.others_turn()
    }

    /// The events shown since last taken.
    pub fn take_events(&mut self) -> Vec<SeatEvent> {
        self.shown.take_events()
    }

    /// Every hand scored so far, as the views told them.
    pub fn results(&self) -> &[HandResult] {
        self.shown.results()
    }

    pub fn phase(&self) -> Phase {
        self.shown.phase()
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn commitment(&self) -> Option<Commitment> {
        self.commitment.clone()
    }

    /// The seed and salt, once the record's last line has told them.
    pub fn revealed(&self) -> Option<Reveal> {
        self.reveal.clone()
    }

    /// The player leaves: the seat is given up with a goodbye (a bot takes
    /// it), and the player's copy of the record is kept as it stands.
    pub fn leave(&mut self) -> Played {
        self.connection.send(ClientMessage::Bye {});
        self.hear_last_lines();
        // The record's lines not yet shown are kept all the same: the
        // copy ends with the table's closing line when it sent one.
        for message in self.pacing.take_all() {
            if let ServerMessage::Record { lines } = message {
                self.keep_record(&lines);
            }
        }
        self.record.flush();
        Played {
            records: self
                .record_path()
                .map(Path::to_path_buf)
                .into_iter()
                .collect(),
            saved: None,
            record_problem: self.record.problem().map(String::from),
        }
    }

    /// After a goodbye, waits a little for what the table still says: a
    /// table that ends as the player leaves it (the host leaving) sends its
    /// record's closing line, which reveals the seed, then its goodbye.
    fn hear_last_lines(&mut self) {
        if self.reconnect.bye_heard() || self.reconnect.is_rejoining() {
            return;
        }
        let until = std::time::Instant::now() + super::LEAVE_WAIT;
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match self.connection.recv_timeout(left) {
                Some(Incoming::Message(message)) => {
                    let bye = matches!(message, ServerMessage::Bye { .. });
                    self.pacing.push(message, std::time::Instant::now());
                    if bye {
                        return;
                    }
                }
                Some(Incoming::Unreadable(_)) => {}
                Some(Incoming::Closed(_)) | None => return,
            }
        }
    }

    pub fn record_path(&self) -> Option<&Path> {
        self.record.path()
    }

    /// Whether the server's ladder rates this game: `None` on a server
    /// without one (or before the record's first line).
    pub fn ladder(&self) -> Option<&Ladder> {
        self.ladder.as_ref()
    }

    pub fn chat(&self, text: &str) {
        self.connection.send(ClientMessage::Chat {
            text: text.to_string(),
        });
    }

    /// The player's action for `seat`, sent when it answers what was
    /// asked; refused as the engine words it otherwise.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.shown.answer(seat, action)?;
        self.connection.send(ClientMessage::Act { action });
        Ok(())
    }
}
