//! Taking the seat back when the connection drops: the table and the
//! seat's token, a new connection on its way from a thread of its own, and
//! forgetting the token once the seat can never be taken back.

use std::sync::mpsc::Receiver;

use crate::client::rejoin::{NotBack, rejoin};
use crate::client::seating::KeepToken;
use crate::client::{Connection, Target};

/// What became of taking the seat back, when asked.
pub enum Rejoin {
    /// Nothing is being taken back.
    Idle,
    /// A new connection is still on its way: nothing else to read yet.
    Waiting,
    /// The seat is taken back on this connection.
    Back(Connection),
    /// The seat is not taken back, and why, for the player.
    NotBack(String),
}

/// The seat's way back to its table.
pub struct Reconnect {
    /// The table and this seat's token, when the server gave one.
    seat_token: Option<(String, String)>,
    /// Where the token is kept, to forget it once the table has ended.
    tokens: KeepToken,
    /// A new connection on its way after a drop, taking the seat back.
    rejoining: Option<Receiver<Result<Connection, NotBack>>>,
    /// The table said goodbye: a connection that ends now was closed, not
    /// dropped.
    bye_heard: bool,
}

impl Reconnect {
    pub fn new(seat_token: Option<(String, String)>, tokens: KeepToken) -> Reconnect {
        Reconnect {
            seat_token,
            tokens,
            rejoining: None,
            bye_heard: false,
        }
    }

    /// The table said goodbye: the connection's end is no drop.
    pub fn heard_bye(&mut self) {
        self.bye_heard = true;
    }

    pub fn bye_heard(&self) -> bool {
        self.bye_heard
    }

    pub fn is_rejoining(&self) -> bool {
        self.rejoining.is_some()
    }

    /// `connection` ended. Dropped, not closed by the table, and with a
    /// seat to take back: a new connection is sought, and `true` says so.
    pub fn dropped(&mut self, connection: &Connection) -> bool {
        match &self.seat_token {
            Some((table, token)) if !self.bye_heard => {
                self.rejoining = Some(rejoin(
                    connection.target().clone(),
                    connection.name().to_string(),
                    table.clone(),
                    token.clone(),
                ));
                true
            }
            _ => false,
        }
    }

    /// How taking the seat back at the server `target` stands. A seat the
    /// server cannot still keep has its token forgotten.
    pub fn poll(&mut self, target: &Target) -> Rejoin {
        let Some(rejoining) = &self.rejoining else {
            return Rejoin::Idle;
        };
        match rejoining.try_recv() {
            Ok(Ok(connection)) => {
                self.rejoining = None;
                Rejoin::Back(connection)
            }
            Ok(Err(not_back)) => {
                self.rejoining = None;
                let table = self.seat_token.as_ref().map_or("", |(t, _)| t.as_str());
                let reason = not_back.reason(target, table);
                // Only a seat the server may still keep stays kept.
                if !matches!(not_back, NotBack::Silent(_)) {
                    self.tokens.forget(table);
                }
                Rejoin::NotBack(reason)
            }
            Err(_) => Rejoin::Waiting,
        }
    }

    /// The game is over for everyone: no seat to take back.
    pub fn game_over(&self) {
        if let Some((table, _)) = &self.seat_token {
            self.tokens.forget(table);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex, mpsc};

    use super::*;
    use crate::client::seating::SeatTokens;
    use crate::code::Trust;

    /// The tables whose tokens were forgotten.
    #[derive(Debug, Default)]
    struct Forgotten(Mutex<Vec<String>>);

    impl SeatTokens for Forgotten {
        fn keep(&self, _table: &str, _token: &str) {}
        fn forget(&self, table: &str) {
            self.0.lock().unwrap().push(table.to_string());
        }
    }

    fn target() -> Target {
        Target {
            address: "127.0.0.1:7777".into(),
            trust: Trust::Plain,
        }
    }

    /// A seat at table `t1` whose way back is under the test's hand.
    fn rejoining() -> (
        Reconnect,
        Arc<Forgotten>,
        mpsc::Sender<Result<Connection, NotBack>>,
    ) {
        let forgotten = Arc::new(Forgotten::default());
        let mut reconnect = Reconnect::new(Some(("t1".into(), "tok".into())), forgotten.clone());
        let (tx, rx) = mpsc::channel();
        reconnect.rejoining = Some(rx);
        (reconnect, forgotten, tx)
    }

    fn forgotten(tokens: &Forgotten) -> Vec<String> {
        tokens.0.lock().unwrap().clone()
    }

    #[test]
    fn nothing_is_taken_back_until_asked_for() {
        let mut reconnect = Reconnect::new(None, Arc::new(Forgotten::default()));
        assert!(matches!(reconnect.poll(&target()), Rejoin::Idle));
        assert!(!reconnect.is_rejoining());
    }

    #[test]
    fn a_refused_seat_is_forgotten_and_said() {
        let (mut reconnect, tokens, tx) = rejoining();
        assert!(matches!(reconnect.poll(&target()), Rejoin::Waiting));
        assert!(reconnect.is_rejoining());
        tx.send(Err(NotBack::Refused("no such seat".into())))
            .unwrap();
        match reconnect.poll(&target()) {
            Rejoin::NotBack(reason) => assert!(reason.contains("no such seat"), "{reason}"),
            _ => panic!("not back"),
        }
        assert_eq!(forgotten(&tokens), ["t1"]);
        assert!(!reconnect.is_rejoining());
        assert!(matches!(reconnect.poll(&target()), Rejoin::Idle));
    }

    /// A server that stopped answering may still keep the seat: its token
    /// stays, and the player is told how to take it back.
    #[test]
    fn a_silent_server_keeps_the_token() {
        let (mut reconnect, tokens, tx) = rejoining();
        tx.send(Err(NotBack::Silent("timed out".into()))).unwrap();
        match reconnect.poll(&target()) {
            Rejoin::NotBack(reason) => assert!(reason.contains("spades join"), "{reason}"),
            _ => panic!("not back"),
        }
        assert!(forgotten(&tokens).is_empty());
    }

    #[test]
    fn the_games_end_forgets_the_token() {
        let tokens = Arc::new(Forgotten::default());
        let mut reconnect = Reconnect::new(Some(("t9".into(), "tok".into())), tokens.clone());
        assert!(!reconnect.bye_heard());
        reconnect.heard_bye();
        assert!(reconnect.bye_heard());
        reconnect.game_over();
        assert_eq!(forgotten(&tokens), ["t9"]);
    }
}
