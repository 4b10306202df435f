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
    Auction, AuctionParts, Bid, Card, CardSet, ExchangeView, HandResult, Mode, PerSeat, PerSide,
    Phase, PlayRules, PlayerView, PublicPlay, PublicView, Rules, Seat, Shown, Side, SideScore,
    SideTotals, Suit, TrickDone,
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
    pub mode: Mode,
    pub what: &'static str,
}

/// The keys a seat's view and the public view share, checked the same
/// way for both: every list by seat or by side as long as the table has
/// seats or sides, and every seat or side named one at the table.
struct Shared<'a> {
    mode: Mode,
    dealer: Seat,
    turn: Option<Seat>,
    play: &'a Play,
    tricks: &'a [Trick],
    totals: &'a PerSide<Totals>,
    last_hand: Option<&'a LastHand>,
    winner: Option<Side>,
}

impl Shared<'_> {
    /// The shared keys checked, with the view's own lists by seat
    /// (`seat_lists`, their lengths) and by side, and the seats it names.
    fn check(
        &self,
        seat_lists: &[usize],
        side_lists: &[usize],
        named: impl IntoIterator<Item = Seat>,
    ) -> Result<(), BadView> {
        let mode = self.mode;
        let bad = |what| BadView { mode, what };
        let (seats, sides) = (mode.seats(), mode.sides());
        let play = self.play;
        let lists_fit = [play.trick.len(), play.tricks_won.len()]
            .iter()
            .chain(seat_lists)
            .all(|&n| n == seats)
            && side_lists.iter().all(|&n| n == sides)
            && self.totals.len() == sides
            && self.tricks.iter().all(|t| t.cards.len() == seats)
            && self.last_hand.is_none_or(|h| {
                h.bids.len() == seats && h.tricks.len() == seats && h.sides.len() == sides
            });
        if !lists_fit {
            return Err(bad("a list by seat or by side has the wrong length"));
        }
        let seats_ok = [self.dealer, play.leader, play.turn]
            .into_iter()
            .chain(self.turn)
            .chain(play.winning)
            .chain(self.tricks.iter().flat_map(|t| [t.leader, t.winner]))
            .chain(named)
            .all(|s| s.index() < seats)
            && self.winner.is_none_or(|s| s.index() < sides);
        if !seats_ok {
            return Err(bad("a seat or side it names is not at the table"));
        }
        Ok(())
    }
}

impl TryFrom<View> for PlayerView {
    type Error = BadView;

    fn try_from(v: View) -> Result<PlayerView, BadView> {
        let a = &v.auction;
        Shared {
            mode: v.rules.mode,
            dealer: v.dealer,
            turn: v.turn,
            play: &v.play,
            tricks: &v.tricks,
            totals: &v.totals,
            last_hand: v.last_hand.as_ref(),
            winner: v.winner,
        }
        .check(
            &[a.bids.len(), a.looked.len(), a.spades.len()],
            &[a.deficit.len()],
            [v.seat, a.dealer]
                .into_iter()
                .chain(v.shown.map(|s| s.seat))
                .chain(v.exchange.map(|e| e.partner)),
        )?;
        if a.rules != v.rules {
            return Err(BadView {
                mode: v.rules.mode,
                what: "its auction is played by other rules",
            });
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
        Shared {
            mode: v.rules.mode,
            dealer: v.dealer,
            turn: v.turn,
            play: &v.play,
            tricks: &v.tricks,
            totals: &v.totals,
            last_hand: v.last_hand.as_ref(),
            winner: v.winner,
        }
        .check(&[v.bids.len()], &[], [])?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Mode};
    use serde_json::{Value, json};

    /// A seat's view and the public view of a cutthroat game just dealt
    /// (three seats: a fourth is past the table), as sent.
    fn sent() -> (Value, Value) {
        let game = Game::new(Rules::classic(Mode::Cutthroat), 7);
        let seat = serde_json::to_value(View::from(&game.view(Seat::new(1)))).unwrap();
        let public = serde_json::to_value(Public::from(&game.public_view())).unwrap();
        (seat, public)
    }

    fn read_seat(v: Value) -> Result<PlayerView, String> {
        let view: View = serde_json::from_value(v).map_err(|e| e.to_string())?;
        PlayerView::try_from(view).map_err(|e| e.to_string())
    }

    fn read_public(v: Value) -> Result<PublicView, String> {
        let view: Public = serde_json::from_value(v).map_err(|e| e.to_string())?;
        PublicView::try_from(view).map_err(|e| e.to_string())
    }

    #[test]
    fn a_view_read_back_is_the_view_sent() {
        let game = Game::new(Rules::classic(Mode::Cutthroat), 7);
        let (seat, public) = sent();
        assert_eq!(read_seat(seat).unwrap(), game.view(Seat::new(1)));
        assert_eq!(read_public(public).unwrap(), game.public_view());
    }

    /// A sender may put anything in a view: a list with a seat too many or
    /// a seat past the table is refused, in both kinds of view alike.
    #[test]
    fn a_view_that_does_not_fit_its_table_is_refused() {
        let (seat, public) = sent();
        let spoiled = |v: &Value, pointer: &str, with: Value| {
            let mut v = v.clone();
            *v.pointer_mut(pointer)
                .unwrap_or_else(|| panic!("{pointer}")) = with;
            v
        };
        let four = json!([null, null, null, null]);
        for (pointer, with, says) in [
            ("/auction/bids", four.clone(), "wrong length"),
            ("/play/trick", four.clone(), "wrong length"),
            (
                "/totals",
                json!([{"score": 0, "bags": 0}, {"score": 0, "bags": 0}]),
                "wrong length",
            ),
            ("/winner", json!(3), "not at the table"),
            ("/dealer", json!(3), "not at the table"),
            ("/seat", json!(3), "not at the table"),
            ("/auction/dealer", json!(3), "not at the table"),
            ("/auction/rules/target_score", json!(250), "other rules"),
        ] {
            let err = read_seat(spoiled(&seat, pointer, with)).unwrap_err();
            assert!(err.contains(says), "{pointer}: {err}");
        }
        for (pointer, with, says) in [
            ("/bids", four.clone(), "wrong length"),
            ("/play/tricks_won", json!([0, 0, 0, 0]), "wrong length"),
            ("/play/leader", json!(3), "not at the table"),
            ("/turn", json!(3), "not at the table"),
            ("/winner", json!(3), "not at the table"),
        ] {
            let err = read_public(spoiled(&public, pointer, with)).unwrap_err();
            assert!(err.contains(says), "{pointer}: {err}");
        }
    }
}
