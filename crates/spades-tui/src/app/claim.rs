//! `C`: the player claims every trick left. The table checks the claim on
//! the whole deal and plays the hand out; this only asks and says what
//! came of it, in the game's words.

use crate::engine::Suit;
use crate::session::ClaimRefused;
use crate::table::Beaten;

use super::App;

impl App {
    pub(super) fn claim(&mut self) {
        let Some(answer) = self.table.claim(self.you) else {
            self.notice.brief("Claims are made at a table of your own.");
            return;
        };
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
