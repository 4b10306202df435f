//! A claim at a local game: the table checks it on the whole deal; the
//! session decides how much of the line that beats it the player may see.
//! In a practice game the whole line (the others' cards in it included,
//! as a teacher would show it); in any other game only that the claim
//! fails, so a claim never shows a card the player could not know.

use crate::engine::Seat;
use crate::table::{Beaten, ClaimCheck, ClaimRefusal, ClaimVerdict};

use super::LocalGame;

/// Why a claim was refused, as far as the player may be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimRefused {
    /// Claims are made at the claimer's turn to play a card.
    NotYourTurn,
    /// The others can take a trick; in a practice game, the line that
    /// shows how (`None` otherwise).
    Beaten(Option<Beaten>),
    /// The hand moved on while the claim was being checked.
    Stale,
}

impl LocalGame {
    /// `seat` claims every trick left. Granted, the hand is played out at
    /// once and the tricks claimed are returned.
    pub fn claim(&mut self, seat: Seat) -> Result<u8, ClaimRefused> {
        let verdict = self.check_claim(seat)?.solve();
        self.settle_claim(verdict)
    }

    /// The claim to check, away from the screen's thread (`ClaimCheck::
    /// solve`), at `seat`'s turn to play a card.
    pub fn check_claim(&self, seat: Seat) -> Result<ClaimCheck, ClaimRefused> {
        self.table.check_claim(seat).map_err(|r| self.refused(r))
    }

    /// The claim checked: played out, or refused as far as the player may
    /// be told.
    pub fn settle_claim(&mut self, verdict: ClaimVerdict) -> Result<u8, ClaimRefused> {
        self.table
            .settle_claim(verdict)
            .map_err(|r| self.refused(r))
    }

    fn refused(&self, refusal: ClaimRefusal) -> ClaimRefused {
        match refusal {
            ClaimRefusal::NotYourTurn => ClaimRefused::NotYourTurn,
            ClaimRefusal::Stale => ClaimRefused::Stale,
            ClaimRefusal::Beaten(line) => {
                ClaimRefused::Beaten(line.filter(|_| self.setup.practice))
            }
        }
    }
}
