//! The hint (`h`) at the table: the `Hints` component works it out on a
//! thread of its own; here the app gives it the player's decision and
//! shows what it answers, in the notice and on the cursors.

use crate::bots::Effort;
use crate::engine::{Action, Decision, PlayerView};

use super::super::components::DecisionKey;
use super::super::components::hints::{HintJob, Shown};
use super::super::hand::hand_order;
use super::super::link::TableLink;
use super::App;

impl App {
    /// `h`: says what `hard` would do at the player's turn, from the
    /// player's own view of the table (nothing else is given to it).
    pub(super) fn hint(&mut self) {
        let Some(decision) = self.decision_now(&self.view()) else {
            self.notice.brief("A hint is for your turn.");
            return;
        };
        let effort = self.config.game.effort;
        let start = |decision| start_hint(&self.table, decision, effort);
        let shown = self.hints.ask(decision, start, &self.theme);
        self.show_hint(shown);
    }

    /// Is a hint the player asked for still being worked out?
    pub fn hint_pending(&self) -> bool {
        self.hints.pending()
    }

    /// Keeps the hint in step with the table: a stale one is dropped, one
    /// is started ahead for a new decision once the player has asked for
    /// hints, and answers that came are shown.
    pub(super) fn follow_hint(&mut self) {
        let decision = self.decision_now(&self.view());
        let effort = self.config.game.effort;
        let start = |decision| start_hint(&self.table, decision, effort);
        let shown = self.hints.follow(decision, start, &self.theme);
        self.show_hint(shown);
    }

    /// Shows what the hint answered, in order: each in the notice, the
    /// selection moved where it says.
    fn show_hint(&mut self, shown: Vec<Shown>) {
        for Shown { notice, select } in shown {
            self.notice.brief(notice);
            if let Some(action) = select {
                self.select(action, &self.hand_view());
            }
        }
    }

    /// Puts the selection on `action`, for the player to make: the card,
    /// the bid, the answer to the blind offer, or the cards to pass.
    fn select(&mut self, action: Action, view: &PlayerView) {
        match action {
            Action::Play(card) => self.hand.place_on(card, &hand_order(view.cards())),
            Action::Bid(_) | Action::Look
                if self.human_turn().map(|t| t.decision) == Some(Decision::BlindNil) =>
            {
                self.offer.select(action);
            }
            Action::Bid(bid) => self.bids.choose(bid, view),
            Action::Look => {}
            Action::Exchange(cards) => self.exchange.set(cards),
        }
    }
}

/// Starts working out the hint for `decision`, the player's turn at
/// `table`, as the seat that acts sees it (the dummy's cards to its
/// declarer).
fn start_hint(table: &TableLink, decision: DecisionKey, effort: Effort) -> Option<HintJob> {
    let turn = table.human_turn()?;
    let view = table.view(turn.seat);
    Some(HintJob::start(decision, view, turn.decision, effort))
}
