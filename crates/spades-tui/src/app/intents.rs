//! What the player means to do, however they said it: a key or a click at
//! the full-screen table, or a word typed in the screen-reader mode. Both
//! end in these methods, so the two views can never disagree on what a
//! bid, a card or leaving does.

use crate::engine::{Action, Bid, Card, CardSet, PlayError, RuleError};

use super::super::Speed;
use super::super::components::windows::Asked;
use super::{App, Screen, sentence};

impl App {
    /// A bid, a blind bid or blind nil, at the player's turn to bid or to
    /// answer the blind offer; the engine says why one is refused.
    pub fn bid(&mut self, bid: Bid) {
        if self.at_turn() {
            self.act(Action::Bid(bid));
        }
    }

    /// Turns the cards face up, giving up the blind offer.
    pub fn look(&mut self) {
        if self.at_turn() {
            self.act(Action::Look);
        }
    }

    /// Passes `cards` to the partner, at the exchange.
    pub fn pass(&mut self, cards: CardSet) {
        if self.at_turn() {
            self.exchange.set(cards);
            self.act(Action::Exchange(cards));
        }
    }

    /// Plays `card`, at the player's turn to play.
    pub fn play(&mut self, card: Card) {
        if self.at_turn() {
            self.act(Action::Play(card));
        }
    }

    /// Asks for the hint at the player's turn (`h`).
    pub fn ask_hint(&mut self) {
        self.hint();
    }

    /// Claims every trick left (`C`).
    pub fn claim_the_rest(&mut self) {
        self.claim();
    }

    /// Takes the last move back, in a practice game (`u`).
    pub fn undo(&mut self) {
        self.take_back();
    }

    /// The hand's summary has been read: the next hand is dealt.
    pub fn next_hand(&mut self) {
        if self.screen() == Screen::Summary {
            self.close_summary();
        }
    }

    /// Another game, once this one is over.
    pub fn new_game(&mut self) {
        if self.screen() == Screen::GameOver {
            self.play_again();
        }
    }

    /// Sends a chat line to the shared table; false at a table of one's
    /// own, where nobody would read it.
    pub fn send_chat(&mut self, text: &str) -> bool {
        let text = text.trim();
        let Some(remote) = self.table.remote() else {
            return false;
        };
        if !text.is_empty() {
            let text: String = text.chars().take(crate::protocol::MAX_CHAT).collect();
            remote.chat(&text);
        }
        true
    }

    /// `q`: asks first, unless nothing would be lost (the game over, or
    /// the shared table gone).
    pub fn ask_to_quit(&mut self) {
        if self.screen() == Screen::GameOver || self.table.is_gone() {
            self.quit = true;
        } else {
            self.windows.ask_to_quit();
        }
    }

    /// The answer to "leave this game?".
    pub fn answer_quit(&mut self, leave: bool) {
        if self.windows.answer_quit(leave) == Asked::Leave {
            self.quit = true;
        }
    }

    /// Leaves at once, as the end of the input or Ctrl-C does: the game is
    /// kept or given up as on quitting.
    pub fn leave_now(&mut self) {
        self.quit = true;
    }

    /// The pace the table moves at from now on, whatever the game was
    /// started with (the screen-reader mode has no eyes to wait for).
    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
    }

    /// What leaving does, as the server does it (`net::server::table::seats`
    /// and the ladder's `glicko`): a table served from the host's own program
    /// ends with them; one nobody else is at ends as the player goes; else a
    /// bot plays the seat on, and the seat's token takes it back until the
    /// end. A rated game left counts as a loss, whatever the score, for a
    /// player not back in their seat when it ends.
    pub fn leaving_words(&self) -> Vec<&'static str> {
        use crate::net::client::seat::Ladder;
        if !self.is_shared() {
            return vec![if self.is_saved() {
                "It is saved: `spades resume` takes it up."
            } else {
                "It cannot be saved: it ends here."
            }];
        }
        if self.config.serves_table {
            return vec!["You serve this table: it ends for all."];
        }
        let rated = self.ladder() == Some(&Ladder::Rated);
        let mut said = if self.others_here() {
            vec![
                "The game plays on: a bot plays your seat,",
                "which stays yours to take back until the end.",
            ]
        } else {
            vec!["Nobody else is at this table: it ends now."]
        };
        if rated && self.others_here() {
            said.extend([
                "This rated game counts as your loss,",
                "whatever the score, unless you are back",
                "in your seat when it ends.",
            ]);
        } else if rated {
            said.push("This rated game counts as your loss.");
        }
        said
    }

    /// The engine's refusal as a sentence, a card in it named as the
    /// theme names cards ("the queen of hearts" when said aloud, not "QH").
    pub(super) fn refusal(&self, error: RuleError) -> String {
        let card = |card| self.theme.card(card);
        match error {
            RuleError::Play(PlayError::NotInHand(held)) | RuleError::ExchangeNotHeld(held) => {
                format!("You do not hold the {}.", card(held))
            }
            RuleError::Play(PlayError::MustLeadLowestClub(lowest)) => format!(
                "The lowest club leads the first trick (house rule): lead the {}.",
                card(lowest)
            ),
            _ => sentence(&error.to_string()),
        }
    }

    /// Is it the player's turn? If not, the notice says whose it is.
    fn at_turn(&mut self) -> bool {
        if self.human_turn().is_some() {
            return true;
        }
        self.say_whose_turn();
        false
    }

    /// "Wait: it is West's turn.", when someone else is to act.
    pub(super) fn say_whose_turn(&mut self) {
        if let Some(seat) = self.waiting_for() {
            self.notice
                .brief(format!("Wait: it is {}'s turn.", self.names.seat(seat)));
        }
    }
}
