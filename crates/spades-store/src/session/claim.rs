//! A claim at a local game: the table checks it on the whole deal; the
//! session decides how much of the line that beats it the player may see.
//! In a practice game the whole line (the others' cards in it included,
//! as a teacher would show it); in any other game only that the claim
//! fails, so a claim never shows a card the player could not know.

use crate::engine::Seat;
use crate::table::{Beaten, ClaimRefusal};

use super::LocalGame;

/// Why a claim was refused, as far as the player may be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimRefused {
    /// Claims are made at the claimer's turn to play a card.
    NotYourTurn,
    /// The others can take a trick; in a practice game, the line that
    /// shows how (`None` otherwise).
    Beaten(Option<Beaten>),
}

impl LocalGame {
    /// `seat` claims every trick left. Granted, the hand is played out at
    /// once and the tricks claimed are returned.
    pub fn claim(&mut self, seat: Seat) -> Result<u8, ClaimRefused> {
        let practice = self.setup.practice;
        self.table.claim(seat).map_err(|refusal| match refusal {
            ClaimRefusal::NotYourTurn => ClaimRefused::NotYourTurn,
            ClaimRefusal::Beaten(line) => ClaimRefused::Beaten(line.filter(|_| practice)),
        })
    }
}
