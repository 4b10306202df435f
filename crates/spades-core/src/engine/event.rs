//! What happens in a game, as the engine reports it. The game record
//! (`record::RecordLine`) and the table protocol (`protocol::event`) write
//! these in formats of their own.

use super::bid::Bid;
use super::card::Card;
use super::cards::CardSet;
use super::score::SideScore;
use super::seat::{Seat, Side};

/// What happens in a game, all of it: every hand's cards included (the table's
/// and the record's view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A hand is dealt.
    Deal {
        /// The hand's number, from 1.
        hand: u32,
        /// The hand's dealer.
        dealer: Seat,
        /// Each seat's cards, in seat order.
        hands: Vec<CardSet>,
        /// The cards out of play this hand.
        out: CardSet,
    },
    /// A seat bids.
    Bid {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that bid.
        seat: Seat,
        /// Its bid.
        bid: Bid,
    },
    /// Cards pass between partners.
    Exchange {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that passed them.
        from: Seat,
        /// The partner that received them.
        to: Seat,
        /// The cards passed.
        cards: CardSet,
    },
    /// A card is played.
    Play {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that played.
        seat: Seat,
        /// The card played.
        card: Card,
    },
    /// A trick is won.
    Trick {
        /// The hand's number, from 1.
        hand: u32,
        /// The trick's number in the hand, from 1.
        trick: u32,
        /// The seat that won it.
        winner: Seat,
    },
    /// A hand is scored.
    Score {
        /// The hand's number, from 1.
        hand: u32,
        /// The tricks each seat took.
        tricks: Vec<u8>,
        /// Each side's score for the hand, in side order.
        sides: Vec<SideRecord>,
        /// Quick Play: the player's side's lives left after the hand
        /// (absent in a game to a target).
        lives: Option<u8>,
        /// With a dummy: the player who played with it this hand.
        declarer: Option<Seat>,
    },
    /// The game is over.
    End {
        /// The side that won the game.
        winner: Side,
        /// Each side's final score, in side order.
        scores: Vec<i32>,
    },
}

impl Event {
    /// The hand the event belongs to (`end` belongs to the game).
    pub fn hand(&self) -> Option<u32> {
        match self {
            Event::Deal { hand, .. }
            | Event::Bid { hand, .. }
            | Event::Exchange { hand, .. }
            | Event::Play { hand, .. }
            | Event::Trick { hand, .. }
            | Event::Score { hand, .. } => Some(*hand),
            Event::End { .. } => None,
        }
    }
}

/// One side's line in a `score` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideRecord {
    /// The change in score this hand, the bags' penalty included.
    pub points: i32,
    /// Bags taken this hand.
    pub bags_added: i32,
    /// Points taken off for bags this hand (0 if none).
    pub penalty: i32,
    /// The score after the hand.
    pub score: i32,
    /// The bags after the hand.
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

/// An event as one seat learns of it: everything public, and of the cards
/// only those the seat may see (its own exchange). This, with the seat's
/// `PlayerView`, is all a client of the table is ever given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatEvent {
    /// A new hand is dealt; the seat's own cards are in its view.
    Dealt {
        /// The hand's number, from 1.
        hand: u32,
        /// The hand's dealer.
        dealer: Seat,
    },
    /// A seat bids.
    Bid {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that bid.
        seat: Seat,
        /// Its bid.
        bid: Bid,
    },
    /// Cards passed after a blind nil: what they were only for the two
    /// seats that passed and received them.
    Exchange {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that passed them.
        from: Seat,
        /// The partner that received them.
        to: Seat,
        /// The cards passed.
        cards: Option<CardSet>,
    },
    /// A card is played.
    Play {
        /// The hand's number, from 1.
        hand: u32,
        /// The seat that played.
        seat: Seat,
        /// The card played.
        card: Card,
    },
    /// A trick is won.
    Trick {
        /// The hand's number, from 1.
        hand: u32,
        /// The trick's number in the hand, from 1.
        trick: u32,
        /// The seat that won it.
        winner: Seat,
    },
    /// A hand is scored.
    Score {
        /// The hand's number, from 1.
        hand: u32,
        /// The tricks each seat took.
        tricks: Vec<u8>,
        /// Each side's score for the hand, in side order.
        sides: Vec<SideRecord>,
        /// Quick Play: the player's side's lives left after the hand
        /// (absent in a game to a target).
        lives: Option<u8>,
        /// With a dummy: the player who played with it this hand.
        declarer: Option<Seat>,
    },
    /// The game is over.
    End {
        /// The side that won the game.
        winner: Side,
        /// Each side's final score, in side order.
        scores: Vec<i32>,
    },
}

impl Event {
    /// This event as `seat` may learn of it.
    pub fn seen_by(&self, seat: Seat) -> SeatEvent {
        self.told(|s| s == seat)
    }

    /// This event as anyone may learn of it, a spectator of the table:
    /// what `seen_by` gives a seat that passed and received no cards.
    pub fn public(&self) -> SeatEvent {
        self.told(|_| false)
    }

    /// This event told to someone who sees the cards of the seats
    /// `sees` picks out (their own), and only those.
    fn told(&self, sees: impl Fn(Seat) -> bool) -> SeatEvent {
        match self {
            Event::Deal { hand, dealer, .. } => SeatEvent::Dealt {
                hand: *hand,
                dealer: *dealer,
            },
            Event::Bid { hand, seat, bid } => SeatEvent::Bid {
                hand: *hand,
                seat: *seat,
                bid: *bid,
            },
            Event::Exchange {
                hand,
                from,
                to,
                cards,
            } => SeatEvent::Exchange {
                hand: *hand,
                from: *from,
                to: *to,
                cards: (sees(*from) || sees(*to)).then_some(*cards),
            },
            Event::Play { hand, seat, card } => SeatEvent::Play {
                hand: *hand,
                seat: *seat,
                card: *card,
            },
            Event::Trick {
                hand,
                trick,
                winner,
            } => SeatEvent::Trick {
                hand: *hand,
                trick: *trick,
                winner: *winner,
            },
            Event::Score {
                hand,
                tricks,
                sides,
                lives,
                declarer,
            } => SeatEvent::Score {
                hand: *hand,
                tricks: tricks.clone(),
                sides: sides.clone(),
                lives: *lives,
                declarer: *declarer,
            },
            Event::End { winner, scores } => SeatEvent::End {
                winner: *winner,
                scores: scores.clone(),
            },
        }
    }
}

impl SeatEvent {
    /// Every card this event shows.
    pub fn cards(&self) -> CardSet {
        match self {
            SeatEvent::Play { card, .. } => CardSet::single(*card),
            SeatEvent::Exchange {
                cards: Some(cards), ..
            } => *cards,
            _ => CardSet::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_sees_no_dealt_cards_and_only_its_own_exchange() {
        let hands = vec!["AS KS".parse().unwrap(), "2C".parse().unwrap()];
        let deal = Event::Deal {
            hand: 1,
            dealer: Seat::new(1),
            hands,
            out: CardSet::EMPTY,
        };
        assert_eq!(deal.seen_by(Seat::new(0)).cards(), CardSet::EMPTY);
        let passed: CardSet = "2H 3H".parse().unwrap();
        let exchange = Event::Exchange {
            hand: 1,
            from: Seat::new(1),
            to: Seat::new(3),
            cards: passed,
        };
        assert_eq!(exchange.seen_by(Seat::new(1)).cards(), passed);
        assert_eq!(exchange.seen_by(Seat::new(3)).cards(), passed);
        assert_eq!(exchange.seen_by(Seat::new(0)).cards(), CardSet::EMPTY);
        assert_eq!(exchange.seen_by(Seat::new(2)).cards(), CardSet::EMPTY);
        assert_eq!(exchange.public().cards(), CardSet::EMPTY);
        assert_eq!(deal.public().cards(), CardSet::EMPTY);
        // Everything but the cards is told alike.
        assert_eq!(exchange.public(), exchange.seen_by(Seat::new(0)));
        let play = Event::Play {
            hand: 1,
            seat: Seat::new(2),
            card: "QD".parse().unwrap(),
        };
        assert_eq!(play.public(), play.seen_by(Seat::new(0)));
        assert_eq!(play.public().cards(), "QD".parse().unwrap());
    }
}
