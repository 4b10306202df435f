//! What a hand is worth before a card is played: the tricks it should
//! take, and how risky it is to bid nil on. Honours are counted from the
//! top of each suit of the deck in play (`plays_as`), so the jokers and
//! high deuces count as the top trumps.

use super::{SIDE_SUITS, SPADES, below};
use crate::engine::{Card, CardSet, Mode, Rank};

/// The classic rank `card` plays as in a game dealt from `deck`: its place
/// from the top of its suit. The classic deck's cards play as their own
/// rank; in a joker deck the Big Joker plays as the ace of trumps, the
/// Little Joker as the king and the ace of spades as the queen, and the
/// spades too far down for a classic rank play as the two.
pub(crate) fn plays_as(card: Card, deck: CardSet) -> Rank {
    let from_top = deck.above(card).len().min(12) as u8;
    Rank::from_index(12 - from_top).unwrap_or(Rank::TWO)
}

/// Does `cards` (of one suit) hold the card that plays as `rank`?
fn has(cards: CardSet, deck: CardSet, rank: Rank) -> bool {
    cards.iter().any(|c| plays_as(c, deck) == rank)
}

/// Rough count of tricks: aces, guarded kings, spade honours and spades past
/// the third. What a casual player counts. Honours are counted from the
/// top of each suit of `deck` (`plays_as`): a Big Joker is an ace.
pub(crate) fn plain_tricks(hand: CardSet, deck: CardSet) -> f32 {
    let mut t = 0.0;
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        if has(cards, deck, Rank::ACE) {
            t += 1.0;
        }
        if has(cards, deck, Rank::KING) && cards.len() >= 2 {
            t += 0.7;
        }
    }
    let spades = hand.suit(SPADES);
    let n = spades.len();
    if has(spades, deck, Rank::ACE) {
        t += 1.0;
    }
    if has(spades, deck, Rank::KING) && n >= 2 {
        t += 1.0;
    }
    if has(spades, deck, Rank::QUEEN) && n >= 3 {
        t += 0.7;
    }
    t + n.saturating_sub(3) as f32 * 0.8
}

/// A careful count of the tricks a hand should take: side aces and guarded
/// kings (queens only in short suits), spade honours and length, and ruffs
/// from short side suits with spare spades. Honours are counted from the
/// top of each suit of `deck` (`plays_as`): the jokers and high deuces are
/// the top trumps.
pub(crate) fn hand_tricks(hand: CardSet, mode: Mode, deck: CardSet) -> f32 {
    // With 17 cards each side suits run longer before anyone shows out.
    let long = if mode == Mode::Cutthroat { 7 } else { 5 };
    let mut t = 0.0;
    let mut shortness = 0.0f32;
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        let n = cards.len();
        let (a, k, q) = (
            has(cards, deck, Rank::ACE),
            has(cards, deck, Rank::KING),
            has(cards, deck, Rank::QUEEN),
        );
        if a {
            t += if n > long + 1 { 0.7 } else { 1.0 };
        }
        if k {
            t += match (a, n) {
                (_, 1) => 0.15,
                (true, n) if n <= long => 0.9,
                (false, 2) => 0.55,
                (false, n) if n <= long => 0.65,
                _ => 0.3,
            };
        }
        if q && n <= 4 {
            t += match (a, k, n) {
                (true, true, _) => 0.5,
                (true, false, 3..) | (false, true, 3..) => 0.35,
                (false, false, 3..) => 0.2,
                _ => 0.05,
            };
        }
        shortness += match n {
            0 => 1.0,
            1 => 0.6,
            2 => 0.2,
            _ => 0.0,
        };
    }
    let spades = hand.suit(SPADES);
    let n = spades.len();
    let mut honours = 0;
    let mut sp = 0.0;
    for (i, c) in spades.iter().rev().enumerate() {
        let r = plays_as(c, deck);
        let value = if r == Rank::ACE {
            1.0
        } else if r == Rank::KING {
            if n >= 2 { 0.95 } else { 0.45 }
        } else if r == Rank::QUEEN {
            match n {
                0..=1 => 0.15,
                2 => 0.45,
                _ => 0.8,
            }
        } else if r == Rank::JACK {
            match n {
                0..=2 => 0.05,
                3 => 0.3,
                _ => 0.55,
            }
        } else {
            0.0
        };
        // The fourth spade on tends to win as a trump whatever its rank.
        let length = if i >= 3 { 0.85 } else { 0.0 };
        let v = f32::max(value, length);
        if value > 0.4 {
            honours += 1;
        }
        sp += v;
    }
    t += sp;
    // Ruffs need spades beyond those already counted as length winners.
    let spare = (n.min(3) as f32 - honours.min(3) as f32).max(0.0);
    t += shortness.min(spare) * 0.8;
    t
}

/// How risky a hand is to bid nil on: 0 for a perfect nil hand, 10 or more
/// for one that must not (the ace of spades, a side ace, long or high
/// spades). High cards count less with small cards of their suit to duck
/// under them; short side suits help by giving discards. Ranks are counted
/// from the top of each suit of `deck` (`plays_as`): a Big Joker is the ace.
pub(crate) fn nil_danger(hand: CardSet, deck: CardSet) -> f32 {
    let spades = hand.suit(SPADES);
    if has(spades, deck, Rank::ACE) {
        return 10.0;
    }
    let n = spades.len();
    let mut d = 0.0;
    if n > 3 {
        d += 1.5 * (n - 3) as f32;
    }
    for c in spades {
        d += card_danger(c, below(spades, c).len(), deck);
    }
    for suit in SIDE_SUITS {
        let cards = hand.suit(suit);
        let small = cards.iter().filter(|&c| is_small(c)).count() as f32;
        for c in cards {
            d += card_danger(c, below(cards, c).len(), deck);
        }
        match cards.len() {
            0 => d -= 0.3,
            1 if small > 0.0 => d -= 0.15,
            _ => {}
        }
    }
    d.max(0.0)
}

/// A card low enough to duck under most leads of its suit: two to six.
fn is_small(c: Card) -> bool {
    c.rank().index() <= 4
}

/// A holding a strong player never bids nil with, however low the rest of
/// the hand: too many spades or spade honours, or a side honour that will
/// be left to win a round of its suit. Over thousands of arena hands such
/// nils made 40-55% of the time, against about 77% for the others, and the
/// strong players' guides say the same. Ranks are counted from the top of
/// each suit of `deck` (`plays_as`).
pub(crate) fn nil_flaw(hand: CardSet, deck: CardSet) -> bool {
    spade_flaw(hand.suit(SPADES), deck) || SIDE_SUITS.iter().any(|&s| bare_honour(hand.suit(s)))
}

/// Four spades, or two of the ten and up ("no J10 of spades"): too many
/// chances to be forced to win a spade trick.
fn spade_flaw(spades: CardSet, deck: CardSet) -> bool {
    let honours = spades
        .iter()
        .filter(|&c| plays_as(c, deck) >= Rank::TEN)
        .count();
    spades.len() >= 4 || honours >= 2
}

/// A side ace, king or queen with no small card in its suit to duck with,
/// an ace with fewer than three cards under it ("no Axx"), or a king with
/// fewer than two under the jack ("no Kxx", nor K-Q-x or K-J-x).
fn bare_honour(cards: CardSet) -> bool {
    let small = cards.iter().any(is_small);
    cards.iter().any(|c| {
        let under = below(cards, c);
        let spots = under.iter().filter(|u| u.rank() < Rank::JACK).count();
        match c.rank() {
            Rank::ACE => !small || under.len() < 3,
            Rank::KING => !small || spots < 2,
            Rank::QUEEN => !small,
            _ => false,
        }
    })
}

/// How risky one card is to a nil bidder who holds `lower` smaller cards
/// of its suit: a king or queen of spades without small spades under it
/// counts as much as the ace. Ranks are counted from the top of the suit
/// of `deck` (`plays_as`).
pub(super) fn card_danger(card: Card, lower: u32, deck: CardSet) -> f32 {
    let rank = plays_as(card, deck).index();
    if card.suit() == SPADES {
        return match rank {
            12 => 10.0,
            11 if lower >= 3 => 2.0,
            10 if lower >= 2 => 1.2,
            10..=11 => 10.0,
            9 => 0.7,
            8 => 0.4,
            7 => 0.25,
            6 => 0.15,
            _ => 0.05,
        };
    }
    let base = match rank {
        12 => 4.0,
        11 => 1.6,
        10 => 0.9,
        9 => 0.45,
        8 => 0.25,
        7 => 0.1,
        _ => 0.0,
    };
    // Small cards below let the seat duck the first rounds.
    let cover = (1.0 - 0.25 * lower.min(3) as f32).max(0.3);
    base * cover
}
