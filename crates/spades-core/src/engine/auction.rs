//! The bidding: whose bid it is, which bids are allowed and why not.
//! Both the game and each seat's `PlayerView` ask this one type.

use super::bid::Bid;
use super::card::Suit;
use super::cards::CardSet;
use super::rules::{BiddingGame, Rules};
use super::seat::{Mode, PerSeat, PerSide, Seat, Teams};

/// Why blind nil is not on offer to a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BlindNilRefusal {
    /// Blind nil is off in the rules.
    #[error("blind nil is off in these rules")]
    Disabled,
    /// The side does not trail by enough at the deal.
    #[error("your side must trail by at least {needed} at the deal (it trails by {deficit})")]
    NotTrailing {
        /// How far the side trailed at the deal.
        deficit: i32,
        /// How far it must trail.
        needed: i32,
    },
    /// The partner bid blind nil already: one per side.
    #[error("your partner already bid blind nil (one per side)")]
    PartnerBidBlindNil,
    /// The seat has looked at its cards.
    #[error("you have already looked at your cards")]
    AlreadyLooked,
    /// The bidding game has no blind nil.
    #[error("there is no blind nil in {0}")]
    Game(BiddingGame),
    /// With a dummy every bid is a team total.
    #[error("with a dummy every bid is a team total, never nil")]
    Dummy,
}

/// Why a blind numeric bid is not on offer to a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BlindBidRefusal {
    /// Blind bids are off in the rules.
    #[error("blind bids are off in these rules")]
    Disabled,
    /// The side does not trail by enough at the deal.
    #[error("your side must trail by at least {needed} at the deal (it trails by {deficit})")]
    NotTrailing {
        /// How far the side trailed at the deal.
        deficit: i32,
        /// How far it must trail.
        needed: i32,
    },
    /// The seat has looked at its cards.
    #[error("you have already looked at your cards")]
    AlreadyLooked,
    /// The bid is below the rules' least blind bid.
    #[error("a blind bid is at least {min}")]
    TooLow {
        /// The least blind bid.
        min: u8,
    },
}

/// Why a bid is not allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BidError {
    /// Not a number from 1 to the hand size.
    #[error("a bid is a number from 1 to {max}, nil or blind nil")]
    OutOfRange {
        /// The largest bid: the hand size.
        max: u8,
    },
    /// Nil is off in the rules.
    #[error("nil is off in these rules")]
    NilNotAllowed,
    /// With a dummy every bid is a team total: no nil.
    #[error("with a dummy every bid is a team total: nil is not bid")]
    NilWithDummy,
    /// Blind nil is not on offer, and why.
    #[error("blind nil is not allowed: {0}")]
    BlindNil(BlindNilRefusal),
    /// The last bid would bring the total to exactly the tricks in a hand
    /// (house rule).
    #[error("the last bid may not bring the bids to exactly {total} (house rule)")]
    ExactTotal {
        /// The total the bid would make.
        total: u8,
    },
    /// A blind numeric bid is not on offer, and why.
    #[error("a blind bid is not allowed: {0}")]
    Blind(BlindBidRefusal),
    /// Below the house rule's least numeric bid.
    #[error("a numeric bid is at least {min} (house rule)")]
    BelowMin {
        /// The least numeric bid.
        min: u8,
    },
    /// In mirror the bid is the seat's spade count.
    #[error("in mirror you bid your spade count: {bid}")]
    Mirror {
        /// The bid the seat must make.
        bid: Bid,
    },
    /// In whiz the bid is nil or the seat's spade count.
    #[error("in whiz you bid nil or your spade count ({spades})")]
    Whiz {
        /// The seat's spade count.
        spades: u8,
    },
    /// In suicide one partner bids nil and the other at least a minimum.
    #[error("in suicide one partner bids nil and the other at least {min}: {why}")]
    Suicide {
        /// The least the partner who does not bid nil bids.
        min: u8,
        /// What the partner's bid leaves this seat.
        why: SuicideTurn,
    },
    /// The side's bids must reach the board (house rule).
    #[error(
        "your side's bids must reach the board of {board}: your partner bid {partner}, so bid at least {need}"
    )]
    Board {
        /// The least the side's numeric bids add to.
        board: u8,
        /// The partner's bid.
        partner: Bid,
        /// The least this seat may bid.
        need: u8,
    },
}

/// What a suicide bidder's partner leaves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SuicideTurn {
    /// Nil, or a number of at least the minimum.
    #[error("bid nil or at least the minimum")]
    Either,
    /// Nil: the partner bid a number.
    #[error("your partner bid a number, so you bid nil")]
    Nil,
    /// A number: the partner bid nil.
    #[error("your partner bid nil, so you bid a number")]
    Number,
}

/// The players in bidding order: clockwise from the dealer's left, the
/// dummy left out.
fn bidding_order(mode: Mode, dealer: Seat) -> impl Iterator<Item = Seat> + Clone {
    (1..=mode.seats())
        .map(move |k| mode.after(dealer, k))
        .filter(move |&s| mode.is_player(s))
}

/// With a dummy, once every player has bid: the declarer, the highest
/// bidder, the earlier bidder (from the dealer's left) on a tie. `None`
/// in other modes or while a bid is missing.
pub fn declarer_of(mode: Mode, dealer: Seat, bids: &PerSeat<Option<Bid>>) -> Option<Seat> {
    mode.dummy()?;
    let mut best: Option<(Seat, u8)> = None;
    for seat in bidding_order(mode, dealer) {
        let tricks = bids[seat]?.tricks();
        if best.is_none_or(|(_, b)| tricks > b) {
            best = Some((seat, tricks));
        }
    }
    best.map(|(seat, _)| seat)
}

/// The bidding of one hand: who bid what, who has looked at their cards, and what
/// the rules allow next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Auction {
    rules: Rules,
    dealer: Seat,
    bids: PerSeat<Option<Bid>>,
    looked: PerSeat<bool>,
    /// How far each side trailed the leading other side at the deal.
    deficit: PerSide<i32>,
    /// Each seat's spade count as dealt, where the bidding game ties bids
    /// to it (mirror, whiz); `None` where not, or not known to this copy
    /// (a seat's view holds only its own).
    spades: PerSeat<Option<u8>>,
}

/// Every fact an auction holds, to carry it whole (the table protocol sends
/// a seat its copy): what `Auction::parts` gives and `Auction::from_parts`
/// takes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuctionParts {
    /// The rules the bids are checked under.
    pub rules: Rules,
    /// The hand's dealer: the bidding starts at its left.
    pub dealer: Seat,
    /// Each seat's bid, once made.
    pub bids: PerSeat<Option<Bid>>,
    /// Has the seat looked at its cards (so no blind bid)?
    pub looked: PerSeat<bool>,
    /// How far each side trailed the leading other side at the deal.
    pub deficit: PerSide<i32>,
    /// Each seat's spade count where mirror or whiz ties the bid to it.
    pub spades: PerSeat<Option<u8>>,
}

impl Auction {
    /// Every fact the auction holds, to carry it whole.
    pub fn parts(&self) -> AuctionParts {
        AuctionParts {
            rules: self.rules,
            dealer: self.dealer,
            bids: self.bids,
            looked: self.looked,
            deficit: self.deficit,
            spades: self.spades,
        }
    }

    /// The auction `parts` describe, as it stands.
    pub fn from_parts(parts: AuctionParts) -> Auction {
        Auction {
            rules: parts.rules,
            dealer: parts.dealer,
            bids: parts.bids,
            looked: parts.looked,
            deficit: parts.deficit,
            spades: parts.spades,
        }
    }

    /// A new auction under `rules`, `dealer` dealing, each side trailing by
    /// `deficit` (for the blind bids).
    pub fn new(rules: Rules, dealer: Seat, deficit: PerSide<i32>) -> Auction {
        let mode = rules.mode;
        Auction {
            rules,
            dealer,
            bids: PerSeat::filled(mode, None),
            looked: PerSeat::filled(mode, false),
            deficit,
            spades: PerSeat::filled(mode, None),
        }
    }

    /// Notes the spade counts dealt, where the bidding game needs them.
    pub(crate) fn deal(&mut self, hands: &PerSeat<CardSet>) {
        for (seat, &hand) in hands.pairs() {
            self.note_spades(seat, hand);
        }
    }

    /// Notes one seat's spade count from its cards, where the bidding game
    /// needs it (a view built from a description knows only its own).
    pub(crate) fn note_spades(&mut self, seat: Seat, hand: CardSet) {
        if self.rules.bidding.game.counts_spades() {
            self.spades[seat] = Some(hand.suit(Suit::Spades).len() as u8);
        }
    }

    /// This auction as `seat` may know it: no other seat's spade count.
    pub(crate) fn seen_by(&self, seat: Seat) -> Auction {
        let mode = self.rules.mode;
        Auction {
            spades: PerSeat::from_fn(mode, |s| self.spades[s].filter(|_| s == seat)),
            ..*self
        }
    }

    /// Each seat's bid, once made.
    pub fn bids(&self) -> PerSeat<Option<Bid>> {
        self.bids
    }

    /// The hand's dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seats that bid, in bidding order: every player clockwise from
    /// the dealer's left (the dummy never bids).
    fn bidding_order(&self) -> impl Iterator<Item = Seat> + Clone {
        bidding_order(self.rules.mode, self.dealer)
    }

    /// The seat to bid next, clockwise from the dealer's left.
    pub fn next_bidder(&self) -> Option<Seat> {
        self.bidding_order().find(|&s| self.bids[s].is_none())
    }

    /// In dummy mode, once every player has bid: the highest bidder, the
    /// earlier bidder on a tie. `None` in other modes.
    pub fn declarer(&self) -> Option<Seat> {
        declarer_of(self.rules.mode, self.dealer, &self.bids)
    }

    /// Has every player bid?
    pub fn is_complete(&self) -> bool {
        self.next_bidder().is_none()
    }

    /// How far `seat`'s side trailed at the deal (the dummy's seat: the
    /// declarer's side, once there is one).
    pub fn deficit(&self, seat: Seat) -> i32 {
        let side = Teams::new(self.rules.mode, self.declarer()).scoring_side(seat);
        self.deficit.get(side).copied().unwrap_or(0)
    }

    /// Why `seat` may not bid blind nil (`None` when it may).
    pub fn blind_nil_refusal(&self, seat: Seat) -> Option<BlindNilRefusal> {
        let rules = &self.rules.blind_nil;
        if self.rules.mode.dummy().is_some() {
            return Some(BlindNilRefusal::Dummy);
        }
        if !rules.allowed {
            return Some(BlindNilRefusal::Disabled);
        }
        let game = self.rules.bidding.game;
        if game != BiddingGame::Classic {
            return Some(BlindNilRefusal::Game(game));
        }
        let deficit = self.deficit(seat);
        if deficit < rules.min_deficit {
            return Some(BlindNilRefusal::NotTrailing {
                deficit,
                needed: rules.min_deficit,
            });
        }
        if rules.one_per_side
            && self
                .rules
                .mode
                .partner(seat)
                .is_some_and(|p| self.bids[p] == Some(Bid::BlindNil))
        {
            return Some(BlindNilRefusal::PartnerBidBlindNil);
        }
        if self.looked[seat] {
            return Some(BlindNilRefusal::AlreadyLooked);
        }
        None
    }

    /// Why `seat` may not make a blind numeric bid (`None` when it may
    /// bid one of `blind_bid.min` or more).
    fn blind_bid_refusal(&self, seat: Seat) -> Option<BlindBidRefusal> {
        let rules = &self.rules.blind_bid;
        if !rules.allowed {
            return Some(BlindBidRefusal::Disabled);
        }
        let deficit = self.deficit(seat);
        if deficit < rules.min_deficit {
            return Some(BlindBidRefusal::NotTrailing {
                deficit,
                needed: rules.min_deficit,
            });
        }
        if self.looked[seat] {
            return Some(BlindBidRefusal::AlreadyLooked);
        }
        None
    }

    /// A seat that may still bid blind (nil or a number) has not seen its
    /// cards. The whole bid check decides it, so a blind bid another rule
    /// forbids is never offered only to be refused.
    pub fn cards_hidden(&self, seat: Seat) -> bool {
        self.bids[seat].is_none() && self.blind_bids(seat).next().is_some()
    }

    /// The blind bids `seat` could make now: blind nil, then blind numbers.
    pub fn blind_bids(&self, seat: Seat) -> impl Iterator<Item = Bid> + '_ {
        let max = self.rules.mode.hand_size() as u8;
        std::iter::once(Bid::BlindNil)
            .chain((1..=max).map(Bid::Blind))
            .filter(move |&b| self.check(seat, b).is_ok())
    }

    /// Checks a bid by `seat` (whose turn the caller has checked).
    pub fn check(&self, seat: Seat, bid: Bid) -> Result<(), BidError> {
        let max = self.rules.mode.hand_size() as u8;
        match bid {
            Bid::Tricks(n) | Bid::Blind(n) if n == 0 || n > max => {
                return Err(BidError::OutOfRange { max });
            }
            Bid::Nil if self.rules.mode.dummy().is_some() => return Err(BidError::NilWithDummy),
            Bid::Nil if !self.rules.nil.allowed => return Err(BidError::NilNotAllowed),
            Bid::BlindNil => {
                if let Some(why) = self.blind_nil_refusal(seat) {
                    return Err(BidError::BlindNil(why));
                }
            }
            Bid::Blind(n) => {
                if let Some(why) = self.blind_bid_refusal(seat) {
                    return Err(BidError::Blind(why));
                }
                let min = self.rules.blind_bid.min;
                if n < min {
                    return Err(BidError::Blind(BlindBidRefusal::TooLow { min }));
                }
            }
            _ => {}
        }
        let min = self.rules.bidding.min_bid;
        if bid.is_numeric() && bid.tricks() < min {
            return Err(BidError::BelowMin { min });
        }
        self.check_game(seat, bid)?;
        self.check_board(seat, bid)?;
        let others_bid = self.bids.pairs().all(|(s, b)| s == seat || b.is_some());
        if self.rules.bidding.forbid_exact_total && others_bid {
            let total: u32 = self
                .bids
                .iter()
                .flatten()
                .map(|b| u32::from(b.tricks()))
                .sum::<u32>()
                + u32::from(bid.tricks());
            if total == u32::from(max) {
                return Err(BidError::ExactTotal { total: max });
            }
        }
        Ok(())
    }

    /// The bidding game's tie on the bid: the spade count (mirror, whiz),
    /// or one nil and one number a side (suicide). A spade count this copy
    /// of the auction does not know (another seat's, in a view) ties nothing.
    fn check_game(&self, seat: Seat, bid: Bid) -> Result<(), BidError> {
        let spade_bid = |count: u8| {
            if count == 0 {
                Bid::Nil
            } else {
                Bid::Tricks(count)
            }
        };
        match (self.rules.bidding.game, self.spades[seat]) {
            (BiddingGame::Mirror, Some(count)) if bid != spade_bid(count) => {
                Err(BidError::Mirror {
                    bid: spade_bid(count),
                })
            }
            (BiddingGame::Whiz, Some(count)) if bid != Bid::Nil && bid != spade_bid(count) => {
                Err(BidError::Whiz { spades: count })
            }
            (BiddingGame::Suicide, _) => {
                let min = self.rules.suicide_number();
                let partner = self.rules.mode.partner(seat).and_then(|p| self.bids[p]);
                let why = match partner {
                    Some(p) if p.is_nil() && !bid.is_numeric() => SuicideTurn::Number,
                    Some(p) if p.is_nil() && bid.tricks() < min => SuicideTurn::Number,
                    Some(p) if !p.is_nil() && !bid.is_nil() => SuicideTurn::Nil,
                    None if bid.is_numeric() && bid.tricks() < min => SuicideTurn::Either,
                    _ => return Ok(()),
                };
                Err(BidError::Suicide { min, why })
            }
            _ => Ok(()),
        }
    }

    /// The board: a side's second bidder brings the side's numeric bids to
    /// at least `bidding.board` (a nil adds nothing).
    fn check_board(&self, seat: Seat, bid: Bid) -> Result<(), BidError> {
        let board = self.rules.bidding.board;
        let Some(partner) = self.rules.mode.partner(seat).and_then(|p| self.bids[p]) else {
            return Ok(());
        };
        let total = u16::from(partner.tricks()) + u16::from(bid.tricks());
        if board == 0 || total >= u16::from(board) {
            return Ok(());
        }
        Err(BidError::Board {
            board,
            partner,
            need: board.saturating_sub(partner.tricks()),
        })
    }

    /// Every bid `seat` could make now, in the order a bidding panel shows
    /// them: numbers, nil, blind nil, blind numbers.
    pub fn allowed_bids(&self, seat: Seat) -> Vec<Bid> {
        let max = self.rules.mode.hand_size() as u8;
        (1..=max)
            .map(Bid::Tricks)
            .chain([Bid::Nil, Bid::BlindNil])
            .chain((1..=max).map(Bid::Blind))
            .filter(|&b| self.check(seat, b).is_ok())
            .collect()
    }

    pub(crate) fn record(&mut self, seat: Seat, bid: Bid) {
        self.bids[seat] = Some(bid);
        self.looked[seat] = true;
    }

    pub(crate) fn look(&mut self, seat: Seat) {
        self.looked[seat] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::set;
    use crate::engine::seat::Mode;

    fn auction(change: impl FnOnce(&mut crate::engine::RuleSettings)) -> Auction {
        let rules = Rules::default().with(change).unwrap();
        Auction::new(rules, Seat::new(3), PerSide::filled(Mode::Partnership, 0))
    }

    #[test]
    fn a_seat_sees_only_its_own_spade_count() {
        let mut a = auction(|r| r.bidding.game = BiddingGame::Mirror);
        let hands = PerSeat::from_fn(Mode::Partnership, |s: Seat| match s.index() {
            0 => set("AS KS 2H"),
            _ => set("2C"),
        });
        a.deal(&hands);
        let seen = a.seen_by(Seat::new(1));
        assert_eq!(a.check(Seat::new(0), Bid::Tricks(2)), Ok(()));
        assert!(a.check(Seat::new(0), Bid::Tricks(3)).is_err());
        assert_eq!(seen.check(Seat::new(0), Bid::Tricks(3)), Ok(()));
        assert_eq!(seen.check(Seat::new(1), Bid::Nil), Ok(()));
        assert!(seen.check(Seat::new(1), Bid::Tricks(1)).is_err());
    }

    #[test]
    fn a_classic_auction_holds_no_spade_count() {
        let mut a = auction(|_| {});
        a.deal(&PerSeat::filled(Mode::Partnership, set("AS KS QS")));
        assert_eq!(a, auction(|_| {}));
    }

    #[test]
    fn the_board_counts_a_nil_as_nothing() {
        let mut a = auction(|r| r.bidding.board = 4);
        a.record(Seat::new(0), Bid::Nil);
        a.record(Seat::new(1), Bid::Tricks(2));
        let third = Seat::new(2);
        assert!(matches!(
            a.check(third, Bid::Tricks(3)),
            Err(BidError::Board { need: 4, .. })
        ));
        assert_eq!(a.check(third, Bid::Tricks(4)), Ok(()));
        assert_eq!(a.check(Seat::new(3), Bid::Tricks(2)), Ok(()));
        assert!(a.check(Seat::new(3), Bid::Tricks(1)).is_err());
    }
}
