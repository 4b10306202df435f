//! The goodbye of a rated game's players, said once the ladder has rated
//! it: with their new rating, or word that it is pending, never a figure
//! the store does not hold.

use std::sync::Arc;

use super::keeper::Outcome;
use super::rounded;
use crate::engine::Mode;
use crate::ladder::store::AccountId;
use crate::protocol::ServerMessage;
use crate::protocol::account::GameRating;
use crate::server::link::{Link, encode};

/// The connections of a rated game's players, still open, and why the
/// table ended. Dropped untold (the ladder's thread gone), they are sent
/// the goodbye alone: nobody is left waiting.
pub(crate) struct Farewell {
    players: Vec<(Link, AccountId)>,
    reason: String,
}

impl Farewell {
    pub(crate) fn new(players: Vec<(Link, AccountId)>, reason: &str) -> Farewell {
        Farewell {
            players,
            reason: reason.to_string(),
        }
    }

    /// Each player's goodbye, with what the ladder made of the game.
    pub(super) fn tell(mut self, mode: Mode, outcome: &Outcome) {
        for (link, account) in std::mem::take(&mut self.players) {
            let rating = told(mode, outcome, account);
            link.close_with(bye(&self.reason, rating));
        }
    }
}

impl Drop for Farewell {
    fn drop(&mut self) {
        for (link, _) in &self.players {
            link.close_with(bye(&self.reason, None));
        }
    }
}

fn bye(reason: &str, rating: Option<GameRating>) -> Arc<str> {
    encode(&ServerMessage::Bye {
        reason: reason.to_string(),
        rating,
    })
}

/// What `account` is told of the game's rating.
fn told(mode: Mode, outcome: &Outcome, account: AccountId) -> Option<GameRating> {
    match outcome {
        Outcome::Recorded(changes) => {
            let (change, provisional) = changes.iter().find(|(c, _)| c.account == account)?;
            Some(GameRating::Recorded {
                mode,
                before: rounded(change.before.rating),
                after: rounded(change.after.rating),
                deviation: rounded(change.after.deviation),
                provisional: *provisional,
            })
        }
        Outcome::Pending => Some(GameRating::Pending { mode }),
        Outcome::Untold => None,
    }
}
