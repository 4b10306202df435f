//! A table's spectators: connections that hold no seat and are sent only
//! what anyone may know (`Event::public`, `PublicView`), never a hand, an
//! ask nor the record. Each is a link with the same bounded queue as a
//! seat's: one that does not read is let go, and the table never waits.

use std::sync::Arc;

use super::super::ConnId;
use super::super::link::Link;
use super::{Refusal, TableTask};
use crate::protocol::{ErrorCode, MAX_WATCHERS, ServerMessage};

impl TableTask {
    /// Takes `link` as a spectator: it is told `watching`, then the lobby,
    /// or the game's start and where it stands.
    pub(super) fn watch(&mut self, link: Link) -> Result<(), Refusal> {
        if self.watchers.len() >= MAX_WATCHERS {
            return Err((
                ErrorCode::TooManyWatchers,
                format!("this table has its {MAX_WATCHERS} spectators already"),
            ));
        }
        let lobby = self.seating();
        let mut news = vec![ServerMessage::Watching {
            table: self.id.clone(),
            seats: lobby.seats.clone(),
            rules: self.rules_text.clone(),
        }];
        match &self.game {
            None => news.push(ServerMessage::Seating(lobby)),
            Some(game) => {
                news.push(game.start.clone());
                news.push(ServerMessage::Public {
                    view: Box::new(game.table.public_view()),
                });
            }
        }
        let batch: String = news.iter().map(crate::protocol::line).collect();
        if link.send(Arc::from(batch)) {
            self.watchers.push(link);
            self.relist();
        }
        Ok(())
    }

    /// Is `conn` one of the spectators? It leaves if so.
    pub(super) fn unwatch(&mut self, conn: ConnId) -> bool {
        let before = self.watchers.len();
        self.watchers.retain(|w| w.id != conn);
        let left = self.watchers.len() < before;
        if left {
            self.relist();
        }
        left
    }

    /// Sends every spectator `line`; one that cannot take it is let go.
    pub(super) fn tell_watchers(&mut self, line: &Arc<str>) {
        for watcher in &self.watchers {
            if !watcher.send(Arc::clone(line)) {
                self.dropped.push(watcher.id);
            }
        }
    }

    /// What the public was told since last time, with the public view,
    /// to every spectator as one write.
    pub(super) fn flush_watchers(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let events = game.table.take_public_events();
        if events.is_empty() || self.watchers.is_empty() {
            return;
        }
        let view = game.table.public_view();
        let mut batch: String = events
            .into_iter()
            .map(|event| crate::protocol::line(&ServerMessage::Event { event }))
            .collect();
        batch.push_str(&crate::protocol::line(&ServerMessage::Public {
            view: Box::new(view),
        }));
        self.tell_watchers(&Arc::from(batch));
    }

    /// The table ends: every spectator is told why, and let go.
    pub(super) fn close_watchers(&mut self, bye: &Arc<str>) {
        for watcher in self.watchers.drain(..) {
            watcher.close_with(Arc::clone(bye));
        }
    }

    /// Lets go of a spectator too slow to keep up.
    pub(super) fn kill_watcher(&mut self, conn: ConnId) {
        if let Some(watcher) = self.watchers.iter().find(|w| w.id == conn) {
            watcher.kill();
        }
        self.unwatch(conn);
    }
}
