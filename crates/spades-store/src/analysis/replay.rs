//! Walking a recorded game through the engine to every decision of one
//! seat, with the view the table gave that seat at that moment.

use crate::engine::HandState;
use crate::engine::{Action, Bid, Decision, Event, Game, PlayerView, Seat, Turn};
use crate::record::{self, RecordedGame, action_of};
use crate::search::win_chances;

use super::AnalysisError;

/// One decision of the seat, as it stood when it was made.
#[derive(Debug, Clone)]
pub(super) struct Moment {
    pub hand: u16,
    /// What the table showed the seat: never another seat's hidden card.
    pub view: PlayerView,
    pub decision: Decision,
    /// What the seat did (`Look` for a blind nil on offer and not bid).
    pub taken: Action,
}

/// A hand once scored: the side's chance of winning the game from there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct HandEnd {
    pub hand: u16,
    pub win_after: f64,
    /// The hand as its play began (after any exchange), every card
    /// known, and what the seat's side bid together (a nil counts 0).
    pub start: Option<(HandState, u8)>,
}

/// Every decision of the seat and every hand scored, in order.
#[derive(Debug, Clone)]
pub(super) struct Walk {
    pub moments: Vec<Moment>,
    pub hands: Vec<HandEnd>,
}

/// Walks `recorded` through the engine (`record::walk`, which checks
/// every line) and stops at each decision of `seat`. A game not over yet
/// is walked as far as its record goes.
pub(super) fn walk(recorded: &RecordedGame, seat: Seat) -> Result<Walk, AnalysisError> {
    let mode = recorded.header.rules.mode;
    if !mode.has_seat(seat) {
        // A record that does not replay is the first thing to say.
        record::replay(recorded)?;
        return Err(AnalysisError::Unfit(format!(
            "there is no seat {seat} in this {mode} game (seats 0 to {})",
            mode.seats() - 1
        )));
    }
    let mut walked = Walk {
        moments: Vec::new(),
        hands: Vec::new(),
    };
    let mut start = None;
    record::walk(recorded, |at| {
        let game = at.game;
        if let Event::Play { .. } = at.event
            && first_card(game)
        {
            start = Some((*game.hand_state(), side_bid(game, seat)));
        }
        if let Some(result) = at.scored() {
            walked
                .hands
                .push(hand_end(game, seat, result.hand, start.take()));
        }
        if let Some((by, action)) = action_of(at.event)
            && by == seat
        {
            stop_at(game, seat, action, &mut walked.moments);
        }
        Ok::<(), AnalysisError>(())
    })?;
    Ok(walked)
}

/// Notes the seat's decisions before `action` is applied: a blind nil on
/// offer is a decision of its own (to bid it, or to look), as the table
/// asks it; looking is applied to a copy here, so the bid after it is
/// seen with the cards (the bid itself looks, so the walk needs no copy).
fn stop_at(game: &Game, seat: Seat, action: Action, moments: &mut Vec<Moment>) {
    let hand = u16::try_from(game.hand_no()).unwrap_or(u16::MAX);
    let mut note = |game: &Game, decision, taken| {
        moments.push(Moment {
            hand,
            view: game.view(seat),
            decision,
            taken,
        });
    };
    let mut looked = None;
    let turn = game.to_act();
    if turn
        == Some(Turn {
            seat,
            decision: Decision::BlindNil,
        })
    {
        if matches!(action, Action::Bid(Bid::BlindNil | Bid::Blind(_))) {
            note(game, Decision::BlindNil, action);
            return;
        }
        note(game, Decision::BlindNil, Action::Look);
        let mut copy = game.clone();
        // Looking is always allowed during the bidding.
        let _ = copy.apply(seat, Action::Look);
        looked = Some(copy);
    }
    let decision = match action {
        Action::Exchange(_) => Decision::Exchange,
        Action::Bid(_) | Action::Look => Decision::Bid,
        Action::Play(_) => Decision::Play,
    };
    note(looked.as_ref().unwrap_or(game), decision, action);
}

/// The side's chance of winning from the totals after a hand: certain
/// once the game is decided.
fn hand_end(game: &Game, seat: Seat, hand: u32, start: Option<(HandState, u8)>) -> HandEnd {
    let side = game.view(seat).side();
    let win_after = match game.winner() {
        Some(winner) => f64::from(u8::from(winner == side)),
        None => f64::from(win_chances(game.rules(), game.totals())[side]),
    };
    HandEnd {
        hand: u16::try_from(hand).unwrap_or(u16::MAX),
        win_after,
        start,
    }
}

/// What the seat's side bid together, a nil counting 0.
fn side_bid(game: &Game, seat: Seat) -> u8 {
    let view = game.view(seat);
    let mode = game.rules().mode;
    mode.each_seat()
        .filter(|&s| mode.side_of(s) == view.side())
        .filter_map(|s| view.bids()[s])
        .map(Bid::tricks)
        .sum()
}

/// Is the hand's first card about to be played?
fn first_card(game: &Game) -> bool {
    let hand = game.hand_state();
    hand.tricks_done() == 0 && hand.winning().is_none()
}
