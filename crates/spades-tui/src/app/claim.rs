//! `C`: the player claims every trick left. The table checks the claim on
//! the whole deal and plays the hand out; this only asks, lets the solver
//! work on a thread of its own (early in a hand it may take a moment, and
//! the screen keeps drawing meanwhile), and says what came of it, in the
//! game's words.

use crate::engine::Suit;
use crate::session::ClaimRefused;
use crate::table::{Beaten, ClaimCheck, ClaimVerdict};

use super::super::components::aside::Aside;
use super::App;

/// The notice while the solver checks a claim.
pub(super) const CHECKING: &str = "Checking your claim…";

/// A claim being checked on a thread of its own.
#[derive(Debug, Default)]
pub(super) struct Claiming {
    verdict: Option<Aside<ClaimVerdict>>,
}

impl Claiming {
    fn start(&mut self, check: ClaimCheck) {
        self.verdict = Some(Aside::start(move || check.solve()));
    }

    /// The verdict, once the solver has one.
    fn take(&mut self) -> Option<ClaimVerdict> {
        // A solver that panics is a bug: it is not hidden.
        match self
            .verdict
            .take()?
            .into_answer(|| panic!("the claim's check failed"))
        {
            Ok(verdict) => Some(verdict),
            Err(working) => {
                self.verdict = Some(working);
                None
            }
        }
    }

    pub(super) fn pending(&self) -> bool {
        self.verdict.is_some()
    }
}

impl App {
    pub(super) fn claim(&mut self) {
        if self.claiming.pending() {
            self.notice.brief(CHECKING);
            return;
        }
        match self.table.check_claim(self.you) {
            None => self.notice.brief("Claims are made at a table of your own."),
            Some(Ok(check)) => {
                self.claiming.start(check);
                self.notice.stays(CHECKING);
            }
            Some(Err(refused)) => self.claimed(Err(refused)),
        }
    }

    /// Is a claim being checked? Nothing moves at the table meanwhile.
    pub fn checking_claim(&self) -> bool {
        self.claiming.pending()
    }

    /// Takes the claim's verdict in, once it has come: true when it did.
    pub(super) fn settle_claim(&mut self) -> bool {
        let Some(verdict) = self.claiming.take() else {
            return false;
        };
        let answer = self.table.settle_claim(verdict);
        self.claimed(answer);
        true
    }

    /// Says what came of a claim; a granted one's cards are told as played.
    fn claimed(&mut self, answer: Result<u8, ClaimRefused>) {
        let said = match answer {
            Ok(tricks) => {
                let events = self.table.take_events(self.you);
                self.absorb(events);
                match tricks {
                    1 => "Claimed: the last trick is yours.".to_string(),
                    n => format!("Claimed: the last {n} tricks are yours."),
                }
            }
            Err(ClaimRefused::NotYourTurn) => "Claim at your turn to play a card.".into(),
            Err(ClaimRefused::Beaten(None)) => {
                "Refused: the other seats can take a trick against your cards.".into()
            }
            Err(ClaimRefused::Beaten(Some(line))) => format!("Refused: {}.", self.beaten(&line)),
            Err(ClaimRefused::Stale) => "The claim was dropped: the hand moved on.".into(),
        };
        self.notice.brief(said);
    }

    /// The line that beats a claim, in a sentence: "after your ♠A, East
    /// ruffs your ♥K with ♠3".
    fn beaten(&self, line: &Beaten) -> String {
        let theme = &self.theme;
        let winner = line.trick.winner;
        let name = self.names.seat(winner);
        // A claim rests on the claimer's own cards: a partner's may beat it.
        let name = match self.config.game.rules.mode.partner(self.you) {
            Some(partner) if partner == winner => format!("your partner {name}"),
            _ => name.to_string(),
        };
        let winning = line.trick.cards[winner];
        let led = line.trick.cards[line.trick.leader].map(|c| c.suit());
        let how = match (winning, line.yours) {
            (Some(card), Some(yours))
                if card.suit() == Suit::Spades
                    && led != Some(Suit::Spades)
                    && yours.suit() != Suit::Spades =>
            {
                let (card, yours) = (theme.card(card), theme.card(yours));
                format!("{name} ruffs your {yours} with {card}")
            }
            (Some(card), Some(yours)) if yours.suit() == card.suit() => {
                let (card, yours) = (theme.card(card), theme.card(yours));
                format!("{name}'s {card} beats your {yours}")
            }
            (Some(card), _) => format!("{name}'s {} takes the trick", theme.card(card)),
            (None, _) => format!("{name} takes a trick"),
        };
        if line.before.is_empty() {
            return how;
        }
        let before: Vec<String> = line.before.iter().map(|&c| theme.card(c)).collect();
        format!("after your {}, {how}", before.join(" "))
    }
}
