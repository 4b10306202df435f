//! Taking a seat back after its connection dropped: connecting again and
//! asking for the seat with its token, a few times, and when that fails,
//! why, so the player is told only what is true (a seat the server may
//! still keep, or a table gone with its server).

use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use super::{Connection, Incoming, Target};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};

/// How often, and how far apart, a dropped connection is tried again.
const REJOIN_TRIES: u32 = 6;
const REJOIN_PAUSE: Duration = Duration::from_secs(2);

/// Why a seat was not taken back after its connection dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NotBack {
    /// The server answered, and has no such seat: the table has ended
    /// (or the seat is no longer this player's), in its words.
    Refused(String),
    /// Nothing listens at the server's address: its program has stopped,
    /// and its tables ended with it.
    NoServer,
    /// No answer, and why: the network, or a server that hangs. It may
    /// still keep the seat.
    Silent(String),
}

impl NotBack {
    /// Why the table is gone for this player, and what they can do: only
    /// a seat the server may still keep is said to be taken back.
    pub(super) fn reason(&self, target: &Target, table: &str) -> String {
        match self {
            NotBack::Refused(said) => {
                format!("the server no longer keeps your seat there ({said})")
            }
            NotBack::NoServer => format!(
                "the server at {} has stopped (nothing listens there now), and its tables ended with it",
                target.address
            ),
            NotBack::Silent(why) => {
                let join = target.table_code(table).map_or_else(
                    || "joining the table again".into(),
                    |code| format!("`spades join {code}`"),
                );
                format!(
                    "the server stopped answering ({why}); if it still runs, {join} takes your seat back while the game goes on"
                )
            }
        }
    }
}

/// Connects again and asks for the seat back, trying a few times (the
/// server may not yet have seen the old connection go).
pub(super) fn rejoin(
    target: Target,
    name: String,
    table: String,
    token: String,
) -> Receiver<Result<Connection, NotBack>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut last = NotBack::Silent("no answer".into());
        for attempt in 0..REJOIN_TRIES {
            if attempt > 0 {
                std::thread::sleep(REJOIN_PAUSE);
            }
            let mut connection = match Connection::reach(&target, &name) {
                Ok(connection) => connection,
                Err(unreached) if unreached.nobody_listens => {
                    last = NotBack::NoServer;
                    continue;
                }
                Err(unreached) => {
                    last = NotBack::Silent(unreached.why);
                    continue;
                }
            };
            connection.send(ClientMessage::Reclaim {
                table: table.clone(),
                token: token.clone(),
            });
            // The seat is back once the server says so; a token it does not
            // take yet (the old connection not yet seen to go) is tried again.
            loop {
                match connection.recv_timeout(Duration::from_secs(10)) {
                    Some(Incoming::Message(ServerMessage::Seated { .. })) => {
                        let _ = tx.send(Ok(connection));
                        return;
                    }
                    // No such table, or not its token: asking again
                    // will not change that.
                    Some(Incoming::Message(ServerMessage::Error {
                        code: ErrorCode::NoTable | ErrorCode::BadToken,
                        message,
                    })) => {
                        let _ = tx.send(Err(NotBack::Refused(message)));
                        return;
                    }
                    Some(Incoming::Message(ServerMessage::Error { message, .. })) => {
                        last = NotBack::Silent(message);
                        break;
                    }
                    Some(Incoming::Closed(why)) => {
                        last = NotBack::Silent(why);
                        break;
                    }
                    Some(_) => {}
                    None => {
                        last = NotBack::Silent("no answer".into());
                        break;
                    }
                }
            }
        }
        let _ = tx.send(Err(last));
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Trust;

    /// Only a seat the server may still keep is said to be taken back,
    /// with the code that does it.
    #[test]
    fn only_a_seat_that_may_be_kept_is_promised() {
        let target = Target {
            address: "10.0.0.7:4466".into(),
            trust: Trust::Pinned("ABCDEFGHIJKLMNOPQRSTUVWXYZ".into()),
        };
        let silent = NotBack::Silent("the connection was cut".into()).reason(&target, "TABLE234");
        assert_eq!(
            silent,
            "the server stopped answering (the connection was cut); if it still runs, \
             `spades join TABLE234.ABCDEFGHIJKLMNOPQRSTUVWXYZ@10.0.0.7:4466` takes your seat \
             back while the game goes on"
        );
        let gone = NotBack::NoServer.reason(&target, "TABLE234");
        assert!(gone.contains("10.0.0.7:4466 has stopped"), "{gone}");
        assert!(!gone.contains("seat back"), "{gone}");
        let refused = NotBack::Refused("no such table".into()).reason(&target, "TABLE234");
        assert!(!refused.contains("seat back"), "{refused}");
    }
}
