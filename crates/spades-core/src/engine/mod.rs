//! The rules of Spades as pure functions and plain data: no I/O, no clock,
//! no terminal and no global randomness.

pub mod auction;
pub(crate) mod bid;
pub(crate) mod card;
pub(crate) mod cards;
pub mod deal;
pub(crate) mod deck;
pub(crate) mod event;
pub(crate) mod game;
pub(crate) mod memory;
pub mod play;
pub mod quick;
pub mod rules;
pub mod score;
pub(crate) mod seat;
pub(crate) mod turn;
pub(crate) mod view;

pub use auction::{Auction, AuctionParts, BidError, BlindBidRefusal, BlindNilRefusal, SuicideTurn};
pub use bid::Bid;
pub use card::{Card, ParseCardError, Rank, Suit};
pub use cards::{CardIter, CardSet};
pub use deal::Deal;
pub use deck::Jokers;
pub use event::{Event, SeatEvent, SideRecord};
pub use game::{Action, Decision, Game, HandResult, Phase, RuleError, Turn};
pub use memory::Memory;
pub use play::{HandState, PlayError, PublicPlay, ResumeError, TrickDone};
pub use rules::{
    BiddingGame, FirstLead, GameKind, GameRules, InvalidRule, PlayRules, RuleSettings, Rules,
    ScoringRules, SetPenalty, SpadesLead,
};
pub use score::{SideScore, SideTotals};
pub use seat::{DUMMY_SEAT, Each, Key, MAX_SEATS, Mode, PerSeat, PerSide, Seat, Side, Teams};
pub use view::{ExchangeView, PlayerView, PublicView, Shown};

/// Card notation for unit tests: `set("AS KH")`, `card("AS")`.
#[cfg(test)]
pub(crate) mod notation {
    use super::{Card, CardSet};

    pub fn set(s: &str) -> CardSet {
        s.parse().expect("cards in test notation")
    }

    pub fn card(s: &str) -> Card {
        s.parse().expect("a card in test notation")
    }
}
