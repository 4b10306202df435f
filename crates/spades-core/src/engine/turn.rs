//! A seat's turn at the table: what it is asked to decide, what it does,
//! the phases of a hand, and why the rules refuse an action.

use super::auction::BidError;
use super::bid::Bid;
use super::card::Card;
use super::cards::CardSet;
use super::play::PlayError;
use super::seat::Seat;

/// Something a seat does. Written in saves as `"look"`, `{"bid":3}`,
/// `{"exchange":["2C","3D"]}` or `{"play":"AS"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Look at the cards, giving up a blind nil still on offer. Any seat that
    /// has not bid may look at any time during the bidding. A numeric or nil
    /// bid made while the cards are face down counts as looking first: only
    /// blind nil needs the cards unseen, so no other bid is refused for it.
    Look,
    /// A bid in the auction.
    Bid(Bid),
    /// The cards passed to the partner after a blind nil (or in a nil pass).
    Exchange(CardSet),
    /// A card played to the trick.
    Play(Card),
}

/// Where the hand (or the game) stands: what kind of action comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seats bid, in turn from the dealer's left.
    Bidding,
    /// Cards pass between partners (after a blind nil, or a nil pass).
    Exchange,
    /// The tricks are played.
    Playing,
    /// A hand is over and scored and the next is not dealt yet: the table
    /// deals it (`Game::deal_next_hand`) when its seats are ready, so the
    /// finished hand can be looked at first. Also where replayed deals end.
    AwaitingDeal,
    /// The game is over: no more hands.
    Over,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Bidding => "the bidding is under way",
            Phase::Exchange => "the partners' card exchange is under way",
            Phase::Playing => "the cards are being played",
            Phase::AwaitingDeal => "the next hand has not been dealt",
            Phase::Over => "the game is over",
        })
    }
}

/// What the game is waiting for from a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A blind bid (nil, or a number where `[blind_bid]` allows) or not,
    /// decided before seeing the cards.
    BlindNil,
    /// A bid in the auction.
    Bid,
    /// Cards to pass to the partner.
    Exchange,
    /// A card to play.
    Play,
}

/// Whose turn it is, and what it calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// The seat to act.
    pub seat: Seat,
    /// What it must decide.
    pub decision: Decision,
}

/// An action the rules do not allow, saying which rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// There is no such seat at this table.
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    /// Another seat is to act.
    #[error("it is not your turn: seat {turn} is to act")]
    NotYourTurn {
        /// The seat to act.
        turn: Seat,
    },
    /// The action does not fit the hand's phase.
    #[error("you cannot {action} now: {phase}")]
    NotNow {
        /// What was tried, in words.
        action: &'static str,
        /// Where the hand stands.
        phase: Phase,
    },
    /// The bid is not allowed.
    #[error(transparent)]
    Bid(#[from] BidError),
    /// The card may not be played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// No pass is owed: there was no blind nil.
    #[error("you have no cards to pass this hand")]
    NoExchange,
    /// The seat has passed its cards already.
    #[error("you have already passed your cards")]
    AlreadyExchanged,
    /// The wrong number of cards passed.
    #[error("pass exactly {expected} cards (you chose {got})")]
    ExchangeCount {
        /// How many cards to pass.
        expected: u8,
        /// How many were chosen.
        got: u32,
    },
    /// A card passed that the seat does not hold.
    #[error("you do not hold the {0}")]
    ExchangeNotHeld(Card),
}
