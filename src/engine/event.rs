//! What happens in a game, as the engine reports it. The game record is these
//! events written one per line (see docs/game-record.md), so field names here
//! are the record's contract.

use serde::{Deserialize, Serialize};

use super::bid::Bid;
use super::card::Card;
use super::cards::CardSet;
use super::score::SideScore;
use super::seat::{Seat, Side};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Deal {
        hand: u32,
        dealer: Seat,
        hands: Vec<CardSet>,
        out: CardSet,
    },
    Bid {
        hand: u32,
        seat: Seat,
        bid: Bid,
    },
    Exchange {
        hand: u32,
        from: Seat,
        to: Seat,
        cards: CardSet,
    },
    Play {
        hand: u32,
        seat: Seat,
        card: Card,
    },
    Trick {
        hand: u32,
        trick: u32,
        winner: Seat,
    },
    Score {
        hand: u32,
        tricks: Vec<u8>,
        sides: Vec<SideRecord>,
    },
    End {
        winner: Side,
        scores: Vec<i32>,
    },
}

/// One side's line in a `score` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideRecord {
    pub points: i32,
    pub bags_added: i32,
    pub penalty: i32,
    pub score: i32,
    pub bags: i32,
}

impl From<&SideScore> for SideRecord {
    fn from(s: &SideScore) -> SideRecord {
        SideRecord {
            points: s.points,
            bags_added: s.bags_added,
            penalty: s.penalty,
            score: s.score,
            bags: s.bags,
        }
    }
}
