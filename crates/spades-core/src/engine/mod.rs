//! The rules of Spades as pure functions and plain data: no I/O, no clock,
//! no terminal and no global randomness.

pub mod auction;
pub mod bid;
pub mod card;
pub mod cards;
pub mod deal;
pub mod deck;
pub mod event;
pub mod game;
pub mod memory;
pub mod play;
pub mod quick;
pub mod rules;
pub mod score;
pub mod seat;
pub mod turn;
pub mod view;

pub use auction::{Auction, AuctionParts, BidError, BlindBidRefusal, BlindNilRefusal, SuicideTurn};
pub use bid::Bid;
pub use card::{Card, Rank, Suit};
pub use cards::CardSet;
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
pub use seat::{DUMMY_SEAT, Each, MAX_SEATS, Mode, PerSeat, PerSide, Seat, Side, Teams};
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
