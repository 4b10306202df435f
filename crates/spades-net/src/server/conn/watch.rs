//! A connection that watches a table: it holds no seat, so of what a
//! player may say it may only leave; everything else is refused here,
//! before the table hears of it.

use tokio::io::AsyncRead;
use tokio::sync::mpsc;

use super::super::table::Command;
use super::{Conn, End, State};
use crate::protocol::{ClientMessage, ErrorCode};

impl<R: AsyncRead + Unpin> Conn<R> {
    /// Asks the table `id` to take this connection as a spectator.
    pub(super) async fn watch(
        &mut self,
        id: &str,
    ) -> Result<mpsc::Sender<Command>, (ErrorCode, String)> {
        let link = self.link.clone();
        self.reach_table(id, |reply| Command::Watch { link, reply })
            .await
    }

    /// Watching a table: leaving is all a spectator may say. Chat is a
    /// player's: a spectator reads the table's, and says nothing to it.
    pub(super) async fn watching(
        &mut self,
        table: mpsc::Sender<Command>,
        message: ClientMessage,
    ) -> Option<End> {
        let refused = match message {
            ClientMessage::StopWatching {} | ClientMessage::Bye {} => {
                self.state = State::Watching { table };
                return Some(End::Bye("you stopped watching".into()));
            }
            ClientMessage::Pong {} => None,
            ClientMessage::Act { .. }
            | ClientMessage::Start {}
            | ClientMessage::Fill { .. }
            | ClientMessage::Chat { .. } => Some((
                ErrorCode::Watching,
                "a spectator may not act, start, fill the seats nor chat",
            )),
            ClientMessage::Hello { .. } => Some((ErrorCode::BadMessage, "hello was said already")),
            ClientMessage::Host { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Reclaim { .. }
            | ClientMessage::Watch { .. }
            | ClientMessage::Tables { .. }
            | ClientMessage::Mine { .. }
            | ClientMessage::Follow { .. }
            | ClientMessage::Unfollow {}
            | ClientMessage::Queue { .. }
            | ClientMessage::Unqueue {} => Some((
                ErrorCode::BadMessage,
                "you watch a table already (stop_watching leaves it)",
            )),
            ClientMessage::Register { .. }
            | ClientMessage::SignIn { .. }
            | ClientMessage::Rotate { .. }
            | ClientMessage::Ladder { .. } => Some((
                ErrorCode::BadMessage,
                "accounts and the ladder are for before watching a table",
            )),
        };
        if let Some((code, why)) = refused {
            self.refuse(code, why.to_string());
        }
        self.state = State::Watching { table };
        None
    }
}
