//! The view as the table protocol writes it (`docs/protocol.md`, The
//! view): types of the protocol's own, key for key, so the engine can
//! change how it keeps a seat's view without the wire changing under the
//! programs that read it. A view read from the wire is checked against its
//! rules' mode before the engine is given it: a list by seat has one entry
//! a seat, whoever sent it.
//!
//! The values inside (seats, cards, bids, the rules) are written as
//! everywhere else: they are the format's vocabulary.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::score::{ContractResult, ContractStakes, NilResult};
use crate::engine::{
    Auction, AuctionParts, Bid, Card, CardSet, ExchangeView, HandResult, PerSeat, PerSide, Phase,
    PlayRules, PlayerView, PublicPlay, PublicView, Rules, Seat, Shown, Side, SideScore, SideTotals,
    Suit, TrickDone,
};

/// A seat's view, as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub seat: Seat,
    pub rules: Rules,
    pub hand_no: u32,
    pub dealer: Seat,
    pub phase: Phase,
    pub turn: Option<Seat>,
    pub hand: Option<CardSet>,
    pub shown: Option<ShownCards>,
    pub auction: Bidding,
    pub exchange: Option<Exchange>,
    pub play: Play,
    pub tricks: Vec<Trick>,
    pub totals: PerSide<Totals>,
    pub last_hand: Option<LastHand>,
    pub winner: Option<Side>,
    pub lives_left: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownCards {
    pub seat: Seat,
    pub cards: CardSet,
}

/// The view's `auction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bidding {
    pub rules: Rules,
    pub dealer: Seat,
    pub bids: PerSeat<Option<Bid>>,
    pub looked: PerSeat<bool>,
    pub deficit: PerSide<i32>,
    pub spades: PerSeat<Option<u8>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    pub partner: Seat,
    pub count: u8,
    pub given: Option<CardSet>,
    pub received: Option<CardSet>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    pub leader: Seat,
    pub turn: Seat,
    pub trick: PerSeat<Option<Card>>,
    pub led: Option<Suit>,
    pub winning: Option<Seat>,
    pub spades_broken: bool,
    pub tricks_won: PerSeat<u8>,
    pub tricks_done: usize,
    pub played: CardSet,
    pub rules: PlayRules,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    pub leader: Seat,
    pub cards: PerSeat<Option<Card>>,
    pub winner: Seat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub score: i32,
    pub bags: i32,
}

/// The view's `last_hand`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastHand {
    pub hand: u32,
    pub dealer: Seat,
    pub bids: PerSeat<Bid>,
    pub declarer: Option<Seat>,
    pub tricks: PerSeat<u8>,
    pub sides: PerSide<SideScored>,
    pub lives_left: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideScored {
    pub nils: [Option<Nil>; 2],
    pub contract: Option<Contract>,
    pub bags_added: i32,
    pub penalties: u32,
    pub penalty: i32,
    pub points: i32,
    pub score: i32,
    pub bags: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nil {
    pub seat: Seat,
    pub blind: bool,
    pub tricks: u8,
    pub points: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    pub bid: u8,
    pub taken: u8,
    pub points: i32,
    pub stakes: Stakes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stakes {
    pub doubled: bool,
    pub boston: bool,
}

impl From<&PlayerView> for View {
    fn from(v: &PlayerView) -> View {
        let a = v.auction.parts();
        View {
            seat: v.seat,
            rules: v.rules,
            hand_no: v.hand_no,
            dealer: v.dealer,
            phase: v.phase,
            turn: v.turn,
            hand: v.hand,
            shown: v.shown.map(|s| ShownCards {
                seat: s.seat,
                cards: s.cards,
            }),
            auction: Bidding {
                rules: a.rules,
                dealer: a.dealer,
                bids: a.bids,
                looked: a.looked,
                deficit: a.deficit,
                spades: a.spades,
            },
            exchange: v.exchange.map(|e| Exchange {
                partner: e.partner,
                count: e.count,
                given: e.given,
                received: e.received,
            }),
            play: Play::from(&v.play),
            tricks: v.tricks.iter().map(Trick::from).collect(),
            totals: v.totals.map(|t| Totals {
                score: t.score,
                bags: t.bags,
            }),
            last_hand: v.last_hand.as_ref().map(LastHand::from),
            winner: v.winner,
            lives_left: v.lives_left,
        }
    }
}

/// A view whose lists do not fit its rules' mode, or whose seats are not
/// the table's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a view that does not fit a {mode} table: {what}")]
pub struct BadView {
    pub mode: crate::engine::Mode,
    pub what: &'static str,
}

impl TryFrom<View> for PlayerView {
    type Error = BadView;

    fn try_from(v: View) -> Result<PlayerView, BadView> {
        let mode = v.rules.mode;
        let bad = |what| BadView { mode, what };
        let (seats, sides) = (mode.seats(), mode.sides());
        let seat_ok = |s: Seat| s.index() < seats;
        let side_ok = |s: Side| s.index() < sides;
        let a = &v.auction;
        let lists_fit = [
            a.bids.len(),
            a.looked.len(),
            a.spades.len(),
            v.play.trick.len(),
            v.play.tricks_won.len(),
        ]
        .iter()
        .all(|&n| n == seats)
            && a.deficit.len() == sides
            && v.totals.len() == sides
            && v.tricks.iter().all(|t| t.cards.len() == seats)
            && v.last_hand.as_ref().is_none_or(|h| {
                h.bids.len() == seats && h.tricks.len() == seats && h.sides.len() == sides
            });
        if !lists_fit {
            return Err(bad("a list by seat or by side has the wrong length"));
        }
        let seats_ok = [v.seat, v.dealer, a.dealer, v.play.leader, v.play.turn]
            .into_iter()
            .chain(v.turn)
            .chain(v.play.winning)
            .chain(v.shown.map(|s| s.seat))
            .chain(v.exchange.map(|e| e.partner))
            .chain(v.tricks.iter().flat_map(|t| [t.leader, t.winner]))
            .all(seat_ok)
            && v.winner.is_none_or(side_ok)
            && a.rules == v.rules;
        if !seats_ok {
            return Err(bad("a seat or side it names is not at the table"));
        }
        Ok(PlayerView {
            seat: v.seat,
            rules: v.rules,
            hand_no: v.hand_no,
            dealer: v.dealer,
            phase: v.phase,
            turn: v.turn,
            hand: v.hand,
            shown: v.shown.map(|s| Shown {
                seat: s.seat,
                cards: s.cards,
            }),
            auction: Auction::from_parts(AuctionParts {
                rules: a.rules,
                dealer: a.dealer,
                bids: a.bids,
                looked: a.looked,
                deficit: a.deficit,
                spades: a.spades,
            }),
            exchange: v.exchange.map(|e| ExchangeView {
                partner: e.partner,
                count: e.count,
                given: e.given,
                received: e.received,
            }),
            play: v.play.into(),
            tricks: v.tricks.into_iter().map(TrickDone::from).collect(),
            totals: v.totals.map(|t| SideTotals {
                score: t.score,
                bags: t.bags,
            }),
            last_hand: v.last_hand.map(HandResult::from),
            winner: v.winner,
            lives_left: v.lives_left,
        })
    }
}

impl From<&PublicPlay> for Play {
    fn from(p: &PublicPlay) -> Play {
        Play {
            leader: p.leader,
            turn: p.turn,
            trick: p.trick,
            led: p.led,
            winning: p.winning,
            spades_broken: p.spades_broken,
            tricks_won: p.tricks_won,
            tricks_done: p.tricks_done,
            played: p.played,
            rules: p.rules,
        }
    }
}

impl From<Play> for PublicPlay {
    fn from(p: Play) -> PublicPlay {
        PublicPlay {
            leader: p.leader,
            turn: p.turn,
            trick: p.trick,
            led: p.led,
            winning: p.winning,
            spades_broken: p.spades_broken,
            tricks_won: p.tricks_won,
            tricks_done: p.tricks_done,
            played: p.played,
            rules: p.rules,
        }
    }
}

impl From<&TrickDone> for Trick {
    fn from(t: &TrickDone) -> Trick {
        Trick {
            leader: t.leader,
            cards: t.cards,
            winner: t.winner,
        }
    }
}

impl From<Trick> for TrickDone {
    fn from(t: Trick) -> TrickDone {
        TrickDone {
            leader: t.leader,
            cards: t.cards,
            winner: t.winner,
        }
    }
}

impl From<&HandResult> for LastHand {
    fn from(h: &HandResult) -> LastHand {
        LastHand {
            hand: h.hand,
            dealer: h.dealer,
            bids: h.bids,
            declarer: h.declarer,
            tricks: h.tricks,
            sides: h.sides.map(|s| SideScored {
                nils: s.nils.map(|n| {
                    n.map(|n| Nil {
                        seat: n.seat,
                        blind: n.blind,
                        tricks: n.tricks,
                        points: n.points,
                    })
                }),
                contract: s.contract.map(|c| Contract {
                    bid: c.bid,
                    taken: c.taken,
                    points: c.points,
                    stakes: Stakes {
                        doubled: c.stakes.doubled,
                        boston: c.stakes.boston,
                    },
                }),
                bags_added: s.bags_added,
                penalties: s.penalties,
                penalty: s.penalty,
                points: s.points,
                score: s.score,
                bags: s.bags,
            }),
            lives_left: h.lives_left,
        }
    }
}

impl From<LastHand> for HandResult {
    fn from(h: LastHand) -> HandResult {
        HandResult {
            hand: h.hand,
            dealer: h.dealer,
            bids: h.bids,
            declarer: h.declarer,
            tricks: h.tricks,
            sides: h.sides.map(|s| SideScore {
                nils: s.nils.map(|n| {
                    n.map(|n| NilResult {
                        seat: n.seat,
                        blind: n.blind,
                        tricks: n.tricks,
                        points: n.points,
                    })
                }),
                contract: s.contract.map(|c| ContractResult {
                    bid: c.bid,
                    taken: c.taken,
                    points: c.points,
                    stakes: ContractStakes {
                        doubled: c.stakes.doubled,
                        boston: c.stakes.boston,
                    },
                }),
                bags_added: s.bags_added,
                penalties: s.penalties,
                penalty: s.penalty,
                points: s.points,
                score: s.score,
                bags: s.bags,
            }),
            lives_left: h.lives_left,
        }
    }
}

/// The public view, as sent to a spectator: the seat's view's keys less
/// every private one (`seat`, `hand`, `shown`, `exchange`), the bids
/// alone of the auction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub rules: Rules,
    pub hand_no: u32,
    pub dealer: Seat,
    pub phase: Phase,
    pub turn: Option<Seat>,
    pub bids: PerSeat<Option<Bid>>,
    pub play: Play,
    pub tricks: Vec<Trick>,
    pub totals: PerSide<Totals>,
    pub last_hand: Option<LastHand>,
    pub winner: Option<Side>,
    pub lives_left: Option<u8>,
}

impl From<&PublicView> for Public {
    fn from(v: &PublicView) -> Public {
        Public {
            rules: v.rules,
            hand_no: v.hand_no,
            dealer: v.dealer,
            phase: v.phase,
            turn: v.turn,
            bids: v.bids,
            play: Play::from(&v.play),
            tricks: v.tricks.iter().map(Trick::from).collect(),
            totals: v.totals.map(|t| Totals {
                score: t.score,
                bags: t.bags,
            }),
            last_hand: v.last_hand.as_ref().map(LastHand::from),
            winner: v.winner,
            lives_left: v.lives_left,
        }
    }
}

impl TryFrom<Public> for PublicView {
    type Error = BadView;

    /// Checked as a seat's view is: a list by seat has one entry a seat,
    /// and every seat named is at the table.
    fn try_from(v: Public) -> Result<PublicView, BadView> {
        let mode = v.rules.mode;
        let bad = |what| BadView { mode, what };
        let (seats, sides) = (mode.seats(), mode.sides());
        let seat_ok = |s: Seat| s.index() < seats;
        let lists_fit = [v.bids.len(), v.play.trick.len(), v.play.tricks_won.len()]
            .iter()
            .all(|&n| n == seats)
            && v.totals.len() == sides
            && v.tricks.iter().all(|t| t.cards.len() == seats)
            && v.last_hand.as_ref().is_none_or(|h| {
                h.bids.len() == seats && h.tricks.len() == seats && h.sides.len() == sides
            });
        if !lists_fit {
            return Err(bad("a list by seat or by side has the wrong length"));
        }
        let seats_ok = [v.dealer, v.play.leader, v.play.turn]
            .into_iter()
            .chain(v.turn)
            .chain(v.play.winning)
            .chain(v.tricks.iter().flat_map(|t| [t.leader, t.winner]))
            .all(seat_ok)
            && v.winner.is_none_or(|s| s.index() < sides);
        if !seats_ok {
            return Err(bad("a seat or side it names is not at the table"));
        }
        Ok(PublicView {
            rules: v.rules,
            hand_no: v.hand_no,
            dealer: v.dealer,
            phase: v.phase,
            turn: v.turn,
            bids: v.bids,
            play: v.play.into(),
            tricks: v.tricks.into_iter().map(TrickDone::from).collect(),
            totals: v.totals.map(|t| SideTotals {
                score: t.score,
                bags: t.bags,
            }),
            last_hand: v.last_hand.map(HandResult::from),
            winner: v.winner,
            lives_left: v.lives_left,
        })
    }
}

/// For a message's field that holds the engine's `PublicView`: written
/// and read as a `Public`, checked.
pub mod public {
    use super::*;

    pub fn serialize<S: Serializer>(view: &PublicView, s: S) -> Result<S::Ok, S::Error> {
        Public::from(view).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<PublicView>, D::Error> {
        let view = Public::deserialize(d)?;
        PublicView::try_from(view)
            .map(Box::new)
            .map_err(serde::de::Error::custom)
    }
}

/// For a message's field that holds the engine's `PlayerView`: written and
/// read as a `View` (`#[serde(with = "crate::protocol::view::boxed")]`).
pub mod boxed {
    use super::*;

    pub fn serialize<V: AsRef<PlayerView>, S: Serializer>(
        view: &V,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        View::from(view.as_ref()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<PlayerView>, D::Error> {
        let view = View::deserialize(d)?;
        PlayerView::try_from(view)
            .map(Box::new)
            .map_err(serde::de::Error::custom)
    }
}
