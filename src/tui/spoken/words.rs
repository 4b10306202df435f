//! Cards and hands as the mode says them: in words ("queen of hearts";
//! "spades: ace, ten, four") or short for braille ("QH"; "S: A 10 4").
//! Every line that names a card goes through here, so a card is said the
//! same way wherever it is said.

use crate::engine::{Card, CardSet, Suit};

use super::super::hand::{HAND_SUITS, hand_order};
use super::super::theme::{card_in_words, rank_in_words};
use super::Speech;

/// One card: "queen of hearts", or "QH" (`10H` for a ten, as on its face).
pub fn card(card: Card, speech: &Speech) -> String {
    speech.theme().card(card)
}

/// Cards in the hand's order (by suit, highest first), one after another:
/// "queen of hearts, seven of hearts", or "QH 7H".
pub fn cards(set: CardSet, speech: &Speech) -> String {
    let named: Vec<String> = hand_order(set)
        .into_iter()
        .map(|c| card(c, speech))
        .collect();
    if speech.short_cards {
        named.join(" ")
    } else {
        named.join(", ")
    }
}

/// A hand by suit, suits it lacks left out: "spades: ace, ten, four;
/// hearts: queen", or "S: A 10 4; H: Q". A card whose face shows
/// another suit (the high two of diamonds) or none (a joker) is named
/// whole where it plays.
pub fn by_suit(set: CardSet, speech: &Speech) -> String {
    let mut parts = Vec::new();
    for suit in HAND_SUITS {
        let held = set.suit(suit);
        if held.is_empty() {
            continue;
        }
        let ranks: Vec<String> = held
            .iter()
            .rev()
            .map(|c| in_its_suit(c, suit, speech))
            .collect();
        parts.push(if speech.short_cards {
            format!("{}: {}", suit.letter(), ranks.join(" "))
        } else {
            format!("{}: {}", suit.name(), ranks.join(", "))
        });
    }
    if parts.is_empty() {
        "no cards".to_string()
    } else {
        parts.join("; ")
    }
}

/// A card within its suit's list: its rank, or its whole name when its
/// face says otherwise.
fn in_its_suit(card: Card, suit: Suit, speech: &Speech) -> String {
    let plain = card.printed_suit() == Some(suit) && !card.rank().is_above_ace();
    match (plain, speech.short_cards) {
        (true, true) => card.rank().face().to_string(),
        (true, false) => rank_in_words(card.rank()).to_string(),
        (false, true) => speech.theme().card(card),
        (false, false) => card_in_words(card),
    }
}

/// "1 card", "13 cards".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preferences::Verbosity;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    const WORDS: Speech = Speech {
        verbosity: Verbosity::Normal,
        short_cards: false,
    };
    const SHORT: Speech = Speech {
        verbosity: Verbosity::Normal,
        short_cards: true,
    };

    #[test]
    fn a_hand_is_said_by_suit_highest_first() {
        let hand = set("4S AS TS QH 2C KC");
        assert_eq!(
            by_suit(hand, &WORDS),
            "spades: ace, ten, four; hearts: queen; clubs: king, two"
        );
        assert_eq!(by_suit(hand, &SHORT), "S: A 10 4; H: Q; C: K 2");
        assert_eq!(by_suit(CardSet::EMPTY, &WORDS), "no cards");
    }

    #[test]
    fn cards_are_named_in_words_or_short() {
        let two = set("QH 7H");
        assert_eq!(cards(two, &WORDS), "queen of hearts, seven of hearts");
        assert_eq!(cards(two, &SHORT), "QH 7H");
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(13, "card"), "13 cards");
    }

    #[test]
    fn trumps_above_the_ace_keep_their_own_names() {
        let hand = set("BJ DD AS");
        assert_eq!(
            by_suit(hand, &WORDS),
            "spades: big joker, high two of diamonds, ace"
        );
    }
}
