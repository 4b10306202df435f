//! The game as the player has been shown it so far: their view, the
//! decision asked of them, the events not yet taken by the app, the hands
//! scored, and what a bot did when their time ran out. An answer is
//! checked here before it is sent, and refused as the engine words it.

use std::time::Instant;

use crate::engine::{
    Action, Decision, HandResult, Phase, PlayerView, RuleError, Seat, SeatEvent, Turn,
};
use crate::protocol::Legal;
use crate::protocol::timer::TimedOut;

/// A decision the server asked for, shown to the player.
pub struct Asked {
    pub seat: Seat,
    pub decision: Decision,
    pub legal: Legal,
    pub view: PlayerView,
    /// When a bot of the table answers it, by this program's own clock:
    /// the time the server gave, from when the ask was read.
    pub deadline: Option<Instant>,
}

/// What the player at `seat` has been shown.
pub struct Shown {
    seat: Seat,
    /// The player's view as far as the player has been shown.
    view: PlayerView,
    asked: Option<Asked>,
    /// The turn timer ran out and a bot acted for the player: what it
    /// did, until the app takes it.
    timed_out: Option<TimedOut>,
    /// Events shown and not yet taken by the app.
    inbox: Vec<SeatEvent>,
    results: Vec<HandResult>,
}

impl Shown {
    /// The player's seat, shown `view` (whose seat it is).
    pub fn new(view: PlayerView) -> Shown {
        Shown {
            seat: view.seat,
            view,
            asked: None,
            timed_out: None,
            inbox: Vec::new(),
            results: Vec::new(),
        }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn event(&mut self, event: SeatEvent) {
        self.inbox.push(event);
    }

    /// The view the table now shows the player; a hand it scores for the
    /// first time is kept.
    pub fn see(&mut self, view: PlayerView) {
        if let Some(last) = &view.last_hand
            && self.results.last().is_none_or(|r| r.hand < last.hand)
        {
            self.results.push(last.clone());
        }
        self.view = view;
    }

    /// The table asks a decision of a seat the player acts for; the view
    /// asked with is the player's own when the seat is theirs.
    pub fn ask(&mut self, asked: Asked) {
        if asked.seat == self.seat {
            self.see(asked.view.clone());
        }
        self.asked = Some(asked);
    }

    /// The turn timer ran out on the ask for `timed_out.seat`: the table
    /// no longer waits for the player there, and the app is to say what
    /// the bot did.
    pub fn bot_answered(&mut self, timed_out: TimedOut) {
        if self
            .asked
            .as_ref()
            .is_some_and(|a| a.seat == timed_out.seat)
        {
            self.asked = None;
        }
        self.timed_out = Some(timed_out);
    }

    /// What a bot did for the player when their time ran out, once.
    pub fn take_timed_out(&mut self) -> Option<TimedOut> {
        self.timed_out.take()
    }

    /// When a bot answers the ask shown: `None` without one, `Some(None)`
    /// for an ask with no timer.
    pub fn asked_deadline(&self) -> Option<Option<Instant>> {
        self.asked.as_ref().map(|a| a.deadline)
    }

    /// Is `seat` played by someone other than the player?
    pub fn is_others(&self, seat: Seat) -> bool {
        self.view.teams().player_for(seat) != self.seat
    }

    /// The view `seat` is shown: what was asked of it, else the player's.
    pub fn view(&self, seat: Seat) -> PlayerView {
        match &self.asked {
            Some(asked) if asked.seat == seat => asked.view.clone(),
            _ => self.view.clone(),
        }
    }

    /// The decision asked of this player, if one is waiting.
    pub fn turn(&self) -> Option<Turn> {
        self.asked.as_ref().map(|a| Turn {
            seat: a.seat,
            decision: a.decision,
        })
    }

    /// The seat someone else (a person or a bot) must act for now. A turn
    /// the player has just answered is nobody else's: until the table's
    /// answer comes, the player is not shown waiting on themselves.
    pub fn others_turn(&self) -> Option<Turn> {
        let seat = self.view.turn?;
        if !self.is_others(seat) {
            return None;
        }
        let decision = match self.view.phase {
            Phase::Bidding => Decision::Bid,
            Phase::Exchange => Decision::Exchange,
            Phase::Playing => Decision::Play,
            Phase::AwaitingDeal | Phase::Over => return None,
        };
        self.asked.is_none().then_some(Turn { seat, decision })
    }

    /// The player's action for `seat`, taken as the answer to what was
    /// asked when it is one; refused as the engine words it otherwise.
    pub fn answer(&mut self, seat: Seat, action: Action) -> Result<(), RuleError> {
        let Some(asked) = self.asked.as_ref().filter(|a| a.seat == seat) else {
            let turn = self.asked.as_ref().map(|a| a.seat).or(self.view.turn);
            return Err(RuleError::NotYourTurn {
                turn: turn.unwrap_or(seat),
            });
        };
        if !asked.legal.allows(&action, asked.view.cards()) {
            // The engine words the refusal, as at a local table.
            return Err(asked.view.refusal(action).unwrap_or(RuleError::NotNow {
                action: "do that",
                phase: asked.view.phase,
            }));
        }
        self.asked = None;
        Ok(())
    }

    /// The events shown since last taken.
    pub fn take_events(&mut self) -> Vec<SeatEvent> {
        std::mem::take(&mut self.inbox)
    }

    /// Every hand scored so far, as the views told them.
    pub fn results(&self) -> &[HandResult] {
        &self.results
    }

    pub fn phase(&self) -> Phase {
        self.view.phase
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::{Bid, Mode, Rules};
    use crate::fairness::Dealing;
    use crate::table::{Player, Table};

    /// A table of four people, bid on until a seat other than 0 is to bid.
    fn a_table() -> Table {
        let players = (0..4).map(|_| Player::Human).collect();
        let mut table = Table::new(Rules::classic(Mode::Partnership), Dealing::Open(1), players);
        while let Some(turn) = table.human_turn().filter(|t| t.seat == Seat::new(0)) {
            let view = table.view(turn.seat);
            let action = Legal::of(&view, turn.decision).first(view.cards()).unwrap();
            table.act(turn.seat, action).unwrap();
        }
        table
    }

    /// What the table asks of the seat whose turn it is.
    fn asked_of(table: &Table, deadline: Option<Instant>) -> Asked {
        let turn = table.human_turn().unwrap();
        let view = table.view(turn.seat);
        Asked {
            seat: turn.seat,
            decision: turn.decision,
            legal: Legal::of(&view, turn.decision),
            view,
            deadline,
        }
    }

    #[test]
    fn anothers_turn_is_shown_until_the_player_is_asked() {
        let table = a_table();
        let turn = table.human_turn().unwrap();
        assert_ne!(turn.seat, Seat::new(0));
        let shown = Shown::new(table.view(Seat::new(0)));
        assert_eq!(shown.seat(), Seat::new(0));
        assert_eq!(shown.others_turn(), Some(turn));
        assert_eq!(shown.turn(), None);
        assert_eq!(shown.asked_deadline(), None);
        assert!(shown.is_others(turn.seat));
        assert!(!shown.is_others(Seat::new(0)));
    }

    /// Only the seat asked may answer, and only with what it may do: the
    /// refusal is the engine's; a legal answer ends the ask.
    #[test]
    fn an_answer_is_checked_before_it_is_taken() {
        let table = a_table();
        let asked = asked_of(&table, None);
        let seat = asked.seat;
        let mut shown = Shown::new(table.view(seat));
        let legal = asked.legal.first(asked.view.cards()).unwrap();
        let view = asked.view.clone();
        shown.ask(asked);
        assert_eq!(shown.turn().map(|t| t.seat), Some(seat));
        assert_eq!(shown.others_turn(), None);

        let wrong_seat = Seat::new((seat.index() + 1) % 4);
        assert_eq!(
            shown.answer(wrong_seat, legal),
            Err(RuleError::NotYourTurn { turn: seat })
        );
        let illegal = Action::Bid(Bid::Tricks(14));
        assert_eq!(
            shown.answer(seat, illegal),
            Err(view.refusal(illegal).unwrap())
        );
        assert!(shown.turn().is_some(), "a refused answer leaves the ask");
        assert_eq!(shown.answer(seat, legal), Ok(()));
        assert_eq!(shown.turn(), None);
        assert_eq!(
            shown.view(seat),
            shown.view(wrong_seat),
            "the player's own view"
        );
    }

    #[test]
    fn a_bot_answering_in_time_ends_the_ask_and_is_told_once() {
        let table = a_table();
        let deadline = Instant::now() + Duration::from_secs(30);
        let asked = asked_of(&table, Some(deadline));
        let seat = asked.seat;
        let mut shown = Shown::new(table.view(seat));
        let action = asked.legal.first(asked.view.cards()).unwrap();
        shown.ask(asked);
        assert_eq!(shown.asked_deadline(), Some(Some(deadline)));
        let timed_out = TimedOut {
            seat,
            decision: Decision::Bid,
            action,
        };
        shown.bot_answered(timed_out);
        assert_eq!(shown.turn(), None);
        assert_eq!(shown.take_timed_out(), Some(timed_out));
        assert_eq!(shown.take_timed_out(), None);
    }
}
