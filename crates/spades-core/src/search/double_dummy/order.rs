//! The order the solver tries a seat's cards in: the card likeliest to
//! settle the question first, so that alpha-beta cuts the rest early. Only
//! the order comes from here; which cards may be played is the engine's
//! (`HandState::distinct_legal`).

use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::{HandState, beats, trick_power};
use crate::engine::seat::{MAX_SEATS, Seat};

/// The most cards a seat holds (cutthroat's 17), with room to spare.
const MOST_CARDS: usize = 20;

/// The cards the seat to play may play, each once for cards equal in
/// play, best guess first: `first` when it may be played (the card that
/// settled the question last time). `ours` says which seats play for the
/// side.
pub(super) fn ordered(
    hand: &HandState,
    ours: [bool; MAX_SEATS],
    first: Option<Card>,
) -> impl Iterator<Item = Card> {
    let mut cards: [(i16, Option<Card>); MOST_CARDS] = [(0, None); MOST_CARDS];
    let legal = hand.distinct_legal();
    let judge = Judge::new(hand, &ours);
    for (len, card) in legal.iter().take(MOST_CARDS).enumerate() {
        let score = if Some(card) == first {
            i16::MAX
        } else {
            judge.score(card)
        };
        // Insertion by score, highest first; ties keep the lower card first.
        let mut i = len;
        while i > 0 && cards[i - 1].0 < score {
            cards[i] = cards[i - 1];
            i -= 1;
        }
        cards[i] = (score, Some(card));
    }
    cards.into_iter().map_while(|(_, card)| card)
}

/// What the order looks at, worked out once for the seat to play.
enum Judge {
    /// Leading: the suits whose top card out the team holds (the mover
    /// itself in `own_top`), and the suits a partner or an opponent can
    /// ruff.
    Lead {
        own_top: CardSet,
        team_top: [bool; 4],
        partner_ruffs: [bool; 4],
        ruffed: [bool; 4],
        top: [Option<Card>; 4],
    },
    /// Following: the card winning the trick, the suit led, whether it is
    /// the mover's team's, and the best power a seat of the other team
    /// still to play can play.
    Follow {
        best: Card,
        led: u8,
        team_winning: bool,
        threat: u8,
    },
}

impl Judge {
    fn new(hand: &HandState, ours: &[bool; MAX_SEATS]) -> Judge {
        let seat = hand.turn().index();
        let team = ours[seat];
        match (hand.winning(), hand.led_suit()) {
            (Some(winner), Some(led)) => {
                let best = hand
                    .trick_card(winner)
                    .unwrap_or_else(|| unreachable!("a card is down"));
                Judge::Follow {
                    best,
                    led: led as u8,
                    team_winning: ours[winner.index()] == team,
                    threat: threat_after(hand, ours, led),
                }
            }
            _ => {
                let out = hand
                    .hands
                    .iter()
                    .fold(CardSet::EMPTY, |all, &h| all.union(h));
                let mut own_top = CardSet::EMPTY;
                let mut team_top = [false; 4];
                let mut partner_ruffs = [false; 4];
                let mut ruffed = [false; 4];
                let mut top = [None; 4];
                for suit in Suit::ALL {
                    let i = suit as usize;
                    top[i] = out.suit(suit).highest();
                    for (other, held) in hand.hands.pairs() {
                        let with_us = ours[other.index()] == team;
                        if top[i].is_some_and(|c| held.contains(c)) {
                            team_top[i] = with_us;
                            if other.index() == seat {
                                own_top |= CardSet::of_suit(suit);
                            }
                        }
                        let ruffs = suit != Suit::Spades
                            && !held.has_suit(suit)
                            && held.has_suit(Suit::Spades);
                        if ruffs && with_us && other.index() != seat {
                            partner_ruffs[i] = true;
                        }
                        if ruffs && !with_us {
                            ruffed[i] = true;
                        }
                    }
                }
                Judge::Lead {
                    own_top,
                    team_top,
                    partner_ruffs,
                    ruffed,
                    top,
                }
            }
        }
    }

    /// How promising `card` is. Following, with the trick the other
    /// team's: the cheapest card that takes it for sure (no seat after can
    /// beat it), then the highest that beats it for now, then the lowest. With
    /// the trick its team's for sure, the lowest; for now, the cheapest
    /// sure winner first. Leading: a suit's top card out (a winner), then
    /// a suit a partner ruffs, then a low card to a partner holding the
    /// suit's top, then the lowest; a suit an opponent can ruff last.
    fn score(&self, card: Card) -> i16 {
        let rank = i16::from(card.rank().index());
        match *self {
            Judge::Follow {
                best,
                led,
                team_winning,
                threat,
            } => {
                let power = trick_power(card, led);
                let stands = |power: u8| power > threat;
                match (beats(card, best), team_winning) {
                    (false, true) if stands(trick_power(best, led)) => -rank,
                    (true, _) if stands(power) => 200 - i16::from(power),
                    (false, _) => -rank,
                    (true, true) => -100 - i16::from(power),
                    (true, false) => 100 + i16::from(power),
                }
            }
            Judge::Lead {
                own_top,
                team_top,
                partner_ruffs,
                ruffed,
                top,
            } => {
                let i = card.suit() as usize;
                let score = if top[i] == Some(card) || (own_top.contains(card) && rank > 8) {
                    50 + rank
                } else if partner_ruffs[i] {
                    40 - rank
                } else if team_top[i] {
                    30 - rank
                } else {
                    -rank
                };
                if ruffed[i] { score - 80 } else { score }
            }
        }
    }
}

/// The best power a seat of the other team still to play to this trick
/// can play to a trick led in `led` (0 if none).
fn threat_after(hand: &HandState, ours: &[bool; MAX_SEATS], led: Suit) -> u8 {
    let seats = hand.seats();
    let seat = hand.turn().index();
    let leader = hand.leader().index();
    let mut threat = 0;
    let mut next = (seat + 1) % seats;
    while next != leader {
        if ours[next] != ours[seat] {
            let held = hand.hands[Seat::new(next)];
            let can = if held.has_suit(led) {
                held.suit(led)
            } else {
                held.suit(Suit::Spades)
            };
            if let Some(high) = can.highest() {
                threat = threat.max(trick_power(high, led as u8));
            }
        }
        next = (next + 1) % seats;
    }
    threat
}
