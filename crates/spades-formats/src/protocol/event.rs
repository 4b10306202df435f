//! An event as the table protocol writes it to one seat (`docs/protocol.md`,
//! Events): a type of the protocol's own, converted from and to the
//! engine's `SeatEvent`. The score's sides are written as in the record.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{Bid, Card, CardSet, Seat, SeatEvent, Side, SideRecord};
use crate::record::SideLine;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Told {
    Dealt {
        hand: u32,
        dealer: Seat,
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
        cards: Option<CardSet>,
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
        sides: Vec<SideLine>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lives: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declarer: Option<Seat>,
    },
    End {
        winner: Side,
        scores: Vec<i32>,
    },
}

impl From<&SeatEvent> for Told {
    fn from(event: &SeatEvent) -> Told {
        match event {
            &SeatEvent::Dealt { hand, dealer } => Told::Dealt { hand, dealer },
            &SeatEvent::Bid { hand, seat, bid } => Told::Bid { hand, seat, bid },
            &SeatEvent::Exchange {
                hand,
                from,
                to,
                cards,
            } => Told::Exchange {
                hand,
                from,
                to,
                cards,
            },
            &SeatEvent::Play { hand, seat, card } => Told::Play { hand, seat, card },
            &SeatEvent::Trick {
                hand,
                trick,
                winner,
            } => Told::Trick {
                hand,
                trick,
                winner,
            },
            SeatEvent::Score {
                hand,
                tricks,
                sides,
                lives,
                declarer,
            } => Told::Score {
                hand: *hand,
                tricks: tricks.clone(),
                sides: sides.iter().map(SideLine::from).collect(),
                lives: *lives,
                declarer: *declarer,
            },
            SeatEvent::End { winner, scores } => Told::End {
                winner: *winner,
                scores: scores.clone(),
            },
        }
    }
}

impl From<Told> for SeatEvent {
    fn from(told: Told) -> SeatEvent {
        match told {
            Told::Dealt { hand, dealer } => SeatEvent::Dealt { hand, dealer },
            Told::Bid { hand, seat, bid } => SeatEvent::Bid { hand, seat, bid },
            Told::Exchange {
                hand,
                from,
                to,
                cards,
            } => SeatEvent::Exchange {
                hand,
                from,
                to,
                cards,
            },
            Told::Play { hand, seat, card } => SeatEvent::Play { hand, seat, card },
            Told::Trick {
                hand,
                trick,
                winner,
            } => SeatEvent::Trick {
                hand,
                trick,
                winner,
            },
            Told::Score {
                hand,
                tricks,
                sides,
                lives,
                declarer,
            } => SeatEvent::Score {
                hand,
                tricks,
                sides: sides.iter().map(SideRecord::from).collect(),
                lives,
                declarer,
            },
            Told::End { winner, scores } => SeatEvent::End { winner, scores },
        }
    }
}

/// For a message's field that holds the engine's `SeatEvent`: written and
/// read as a `Told` (`#[serde(with = "crate::protocol::event::told")]`).
pub mod told {
    use super::*;

    pub fn serialize<S: Serializer>(event: &SeatEvent, s: S) -> Result<S::Ok, S::Error> {
        Told::from(event).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SeatEvent, D::Error> {
        Told::deserialize(d).map(SeatEvent::from)
    }
}
