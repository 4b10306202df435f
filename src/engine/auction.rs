//! The bidding: whose bid it is, which bids are allowed and why not.
//! Both the game and each seat's `PlayerView` ask this one type.

use super::bid::Bid;
use super::rules::Rules;
use super::seat::{PerSeat, PerSide, Seat};

/// Why blind nil is not on offer to a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BlindNilRefusal {
    #[error("blind nil is off in these rules")]
    Disabled,
    #[error("your side must trail by at least {needed} at the deal (it trails by {deficit})")]
    NotTrailing { deficit: i32, needed: i32 },
    #[error("your partner already bid blind nil (one per side)")]
    PartnerBidBlindNil,
    #[error("you have already looked at your cards")]
    AlreadyLooked,
}

/// Why a bid is not allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BidError {
    #[error("a bid is a number from 1 to {max}, nil or blind nil")]
    OutOfRange { max: u8 },
    #[error("nil is off in these rules")]
    NilNotAllowed,
    #[error("blind nil is not allowed: {0}")]
    BlindNil(BlindNilRefusal),
    #[error("the last bid may not bring the bids to exactly {total} (house rule)")]
    ExactTotal { total: u8 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Auction {
    rules: Rules,
    dealer: Seat,
    bids: PerSeat<Option<Bid>>,
    looked: PerSeat<bool>,
    /// How far each side trailed the leading other side at the deal.
    deficit: PerSide<i32>,
}

impl Auction {
    pub fn new(rules: Rules, dealer: Seat, deficit: PerSide<i32>) -> Auction {
        let mode = rules.mode;
        Auction {
            rules,
            dealer,
            bids: PerSeat::filled(mode, None),
            looked: PerSeat::filled(mode, false),
            deficit,
        }
    }

    pub fn bids(&self) -> PerSeat<Option<Bid>> {
        self.bids
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat to bid next, clockwise from the dealer's left.
    pub fn next_bidder(&self) -> Option<Seat> {
        let mode = self.rules.mode;
        (1..=mode.seats())
            .map(|k| mode.after(self.dealer, k))
            .find(|&s| self.bids[s].is_none())
    }

    pub fn is_complete(&self) -> bool {
        self.next_bidder().is_none()
    }

    /// How far `seat`'s side trailed at the deal.
    pub fn deficit(&self, seat: Seat) -> i32 {
        self.deficit[self.rules.mode.side_of(seat)]
    }

    /// Why `seat` may not bid blind nil (`None` when it may).
    pub fn blind_nil_refusal(&self, seat: Seat) -> Option<BlindNilRefusal> {
        let rules = &self.rules.blind_nil;
        if !rules.allowed {
            return Some(BlindNilRefusal::Disabled);
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

    /// A seat that may still bid blind nil has not seen its cards. The whole
    /// bid check decides it, so a blind nil the exact-total rule forbids is
    /// never offered only to be refused.
    pub fn cards_hidden(&self, seat: Seat) -> bool {
        self.bids[seat].is_none() && self.check(seat, Bid::BlindNil).is_ok()
    }

    /// Checks a bid by `seat` (whose turn the caller has checked).
    pub fn check(&self, seat: Seat, bid: Bid) -> Result<(), BidError> {
        let max = self.rules.mode.hand_size() as u8;
        match bid {
            Bid::Tricks(n) if n == 0 || n > max => return Err(BidError::OutOfRange { max }),
            Bid::Nil if !self.rules.nil.allowed => return Err(BidError::NilNotAllowed),
            Bid::BlindNil => {
                if let Some(why) = self.blind_nil_refusal(seat) {
                    return Err(BidError::BlindNil(why));
                }
            }
            _ => {}
        }
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

    /// Every bid `seat` could make now, in the order a bidding panel shows them.
    pub fn allowed_bids(&self, seat: Seat) -> Vec<Bid> {
        let max = self.rules.mode.hand_size() as u8;
        (1..=max)
            .map(Bid::Tricks)
            .chain([Bid::Nil, Bid::BlindNil])
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
