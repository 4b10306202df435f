//! A connection in the server's lobby, before it sits down: the list of
//! public tables, and the quick-match queue until a table is found.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncRead;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::super::clean_text;
use super::super::flood::{CHAT_SPAN, LISTING_LIMIT, try_again};
use super::super::queue::{self, Entry};
use super::{Command, Conn, State};
use crate::engine::Mode;
use crate::protocol::lobby::{MAX_MINE, MAX_TABLE_ID, MAX_WAIT, is_table_id};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage, within_line};

/// Why `ids` are not what `mine` takes, if they are not: at most
/// `MAX_MINE` table ids.
fn mine_ids(ids: &[String]) -> Result<(), String> {
    if ids.len() > MAX_MINE {
        return Err(format!(
            "mine names at most {MAX_MINE} tables, not {}",
            ids.len()
        ));
    }
    match ids.iter().find(|id| !is_table_id(id)) {
        Some(id) => {
            let shown: String = clean_text(id).chars().take(20).collect();
            Err(format!(
                "mine names tables by their ids (letters and digits, at most {MAX_TABLE_ID}), not {shown:?}"
            ))
        }
        None => Ok(()),
    }
}

/// Resolves once the queue hands over a table (or gives up on this
/// connection); never while not queued.
pub(super) async fn table_found(
    matched: Option<&mut oneshot::Receiver<mpsc::Sender<Command>>>,
) -> Result<mpsc::Sender<Command>, oneshot::error::RecvError> {
    match matched {
        Some(matched) => matched.await,
        None => std::future::pending().await,
    }
}

impl<R: AsyncRead + Unpin> Conn<R> {
    /// The public tables of `mode`, at most `LISTING_LIMIT` asks in a span.
    /// Someone looking through the lobby is not idle: the time to sit
    /// down starts again.
    pub(super) fn tables(&mut self, mode: Option<Mode>) {
        if self.may_list() {
            let (_, answer) = self.shared.lobby.tables_line(mode);
            self.send_line(answer);
        }
    }

    /// Whether another look at the tables (`tables`, `mine`) is within
    /// `LISTING_LIMIT` asks in a span: counted if so, refused if not.
    fn may_list(&mut self) -> bool {
        let now = std::time::Instant::now();
        if self.listing.full(now) {
            let span = CHAT_SPAN.as_secs();
            let again = try_again(self.listing.again_in(now));
            let why = format!(
                "the list of tables at most {LISTING_LIMIT} times in {span} seconds; {again}"
            );
            self.refuse(ErrorCode::Flood, why);
            return false;
        }
        self.listing.count(now);
        self.sit_by = Instant::now() + self.shared.options.sit_timeout;
        true
    }

    /// Those of the tables `ids` where this connection's account holds a
    /// seat, public or private (`mine`), counted with `tables`. Only a
    /// seat's holder learns anything of a private table by it: a guest,
    /// or an account with no seat there, is answered with none.
    pub(super) fn mine(&mut self, ids: Vec<String>) {
        if let Err(why) = mine_ids(&ids) {
            return self.refuse(ErrorCode::BadMessage, why);
        }
        if !self.may_list() {
            return;
        }
        let held = match &self.account {
            Some(account) => self.shared.lobby.held_by(&ids, account.name.shown()),
            None => Vec::new(),
        };
        let answer = within_line(held, |tables| ServerMessage::Yours { tables });
        self.say(&answer);
    }

    /// Into the quick-match queue: signed in, on a server with a ladder,
    /// for a mode that can be rated, waiting at most `MAX_WAIT` seconds.
    pub(super) async fn queue(&mut self, name: String, mode: Mode, wait: u32) {
        if let Err((code, why)) = self.may_queue(mode, wait) {
            self.refuse(code, why);
            self.state = State::Ready { name };
            return;
        }
        let rating = self
            .ratings
            .iter()
            .find(|r| r.mode == mode)
            .map_or(1500, |r| r.rating);
        let (seated, matched) = oneshot::channel();
        let entry = Entry {
            link: self.link.clone(),
            who: self.who(&name),
            mode,
            rating,
            since: std::time::Instant::now(),
            wait: Duration::from_secs(u64::from(wait)),
            alive: self.alive.clone(),
            seated,
        };
        let queue = queue::sender(&Arc::clone(&self.shared));
        if queue
            .send(queue::Command::Join(Box::new(entry)))
            .await
            .is_err()
        {
            self.refuse(ErrorCode::NoTable, "the queue has stopped".into());
            self.state = State::Ready { name };
            return;
        }
        self.matched = Some(matched);
        self.state = State::Queued { name };
    }

    fn may_queue(&self, mode: Mode, wait: u32) -> Result<(), (ErrorCode, String)> {
        if self.shared.ladder.is_none() {
            let why =
                "this server keeps no ladder, so it has no quick match: join a table by its code";
            return Err((ErrorCode::NoLadder, why.into()));
        }
        if self.account.is_none() {
            let why = "sign in before quick match: its games are rated";
            return Err((ErrorCode::NotSignedIn, why.into()));
        }
        if mode.dummy().is_some() {
            let why = "quick match is for partnership, cutthroat and individual: a game with the dummy is not rated";
            return Err((ErrorCode::BadMessage, why.into()));
        }
        if wait > MAX_WAIT {
            let why = format!("wait at most {MAX_WAIT} seconds for players, not {wait}");
            return Err((ErrorCode::BadMessage, why));
        }
        Ok(())
    }

    /// In the queue: it may look at the tables, or leave the queue.
    pub(super) async fn queued(
        &mut self,
        name: String,
        message: ClientMessage,
    ) -> Option<super::End> {
        self.state = State::Queued { name: name.clone() };
        match message {
            ClientMessage::Tables { mode } => self.tables(mode),
            ClientMessage::Mine { tables } => self.mine(tables),
            ClientMessage::Follow { mode } => self.follow(mode),
            ClientMessage::Unfollow {} => self.unfollow(),
            ClientMessage::Unqueue {} => {
                if self.unqueue(name).await {
                    self.say(&ServerMessage::Unqueued {});
                } else {
                    let why = "a table was found: you sit at it";
                    self.refuse(ErrorCode::BadMessage, why.into());
                }
            }
            ClientMessage::Bye {} => return Some(super::End::Bye("you left".into())),
            ClientMessage::Pong {} => {}
            _ => {
                let why = "you wait in the quick-match queue: unqueue first";
                self.refuse(ErrorCode::BadMessage, why.into());
            }
        }
        None
    }

    /// Out of the queue: whether it was still waiting (ready again), or a
    /// table had been found for it (seated at it).
    pub(super) async fn unqueue(&mut self, name: String) -> bool {
        let (left, answer) = oneshot::channel();
        let leave = queue::Command::Leave {
            conn: self.link.id,
            left,
        };
        let queue = queue::sender(&Arc::clone(&self.shared));
        let was_waiting = queue.send(leave).await.is_ok() && answer.await.unwrap_or(false);
        // The queue hands a table over before it answers: it is here now.
        let found = self.matched.take().and_then(|mut m| m.try_recv().ok());
        match found {
            Some(table) if !was_waiting => {
                self.state = State::Seated { table };
                false
            }
            _ => {
                self.state = State::Ready { name };
                self.sit_by = Instant::now() + self.shared.options.sit_timeout;
                true
            }
        }
    }

    /// The queue's answer: a table it is seated at, or none (the queue
    /// stopped): ready again.
    pub(super) fn found(
        &mut self,
        found: Result<mpsc::Sender<Command>, oneshot::error::RecvError>,
    ) {
        self.matched = None;
        let State::Queued { name } = &self.state else {
            return;
        };
        let name = name.clone();
        match found {
            Ok(table) => self.state = State::Seated { table },
            Err(_) => {
                self.refuse(
                    ErrorCode::NoTable,
                    "the quick-match queue has stopped".into(),
                );
                self.state = State::Ready { name };
                self.sit_by = Instant::now() + self.shared.options.sit_timeout;
            }
        }
    }
}
