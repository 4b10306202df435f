//! The deck a game is dealt from: the classic 52 cards, or a joker deck
//! (`[deck] jokers` in rules.toml). Every deck has 52 cards, so hands,
//! tricks and bids are as in the classic game; only which cards are in it
//! and how the spades rank change.
//!
//! The extra trumps have card indices of their own above the ace of spades
//! (see `card`), so a deck is just the set of cards dealt and nothing else
//! in the engine needs to know the rules to rank a card:
//!
//! - `none`: the classic deck.
//! - `replace_2h_2c`: the Big Joker and the Little Joker replace the two of
//!   hearts and the two of clubs; spades rank BJ > LJ > A > K > ... > 2.
//! - `replace_2d_2c`: the jokers replace the two of diamonds and the two of
//!   clubs instead.
//! - `deuces_high`: the two of hearts and the two of clubs are out, the
//!   jokers in; the trumps from the top are the Big Joker, the Little
//!   Joker, the two of diamonds (`DD`), the two of spades (`DS`), then the
//!   ace of spades down to the three. The two of diamonds is a spade in
//!   every way: it follows a spade lead, cannot follow diamonds, and counts
//!   as a spade for breaking spades.

use serde::{Deserialize, Serialize};

use super::card::{Card, Rank, Suit};
use super::cards::CardSet;

/// Which jokers (and high deuces) the deck has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Jokers {
    /// The classic 52 cards.
    #[default]
    #[serde(rename = "none")]
    None,
    /// The jokers replace the two of hearts and the two of clubs.
    #[serde(rename = "replace_2h_2c")]
    Replace2H2C,
    /// The jokers replace the two of diamonds and the two of clubs.
    #[serde(rename = "replace_2d_2c")]
    Replace2D2C,
    /// The two of hearts and two of clubs out, the jokers in, and the twos
    /// of diamonds and spades trumps just below the jokers.
    #[serde(rename = "deuces_high")]
    DeucesHigh,
}

const fn card(suit: Suit, rank: Rank) -> u64 {
    CardSet::single(Card::new(suit, rank)).bits()
}

const TWO_OF_CLUBS: u64 = card(Suit::Clubs, Rank::TWO);
const TWO_OF_DIAMONDS: u64 = card(Suit::Diamonds, Rank::TWO);
const TWO_OF_HEARTS: u64 = card(Suit::Hearts, Rank::TWO);
const TWO_OF_SPADES: u64 = card(Suit::Spades, Rank::TWO);
const JOKERS: u64 =
    CardSet::single(Card::LITTLE_JOKER).bits() | CardSet::single(Card::BIG_JOKER).bits();
const HIGH_DEUCES: u64 = CardSet::single(Card::HIGH_TWO_OF_SPADES).bits()
    | CardSet::single(Card::HIGH_TWO_OF_DIAMONDS).bits();

impl Jokers {
    /// Every choice, the plain deck first.
    pub const ALL: [Jokers; 4] = [
        Jokers::None,
        Jokers::Replace2H2C,
        Jokers::Replace2D2C,
        Jokers::DeucesHigh,
    ];

    /// The 52 cards dealt.
    pub const fn deck(self) -> CardSet {
        let classic = CardSet::DECK.bits();
        let bits = match self {
            Jokers::None => classic,
            Jokers::Replace2H2C => classic & !(TWO_OF_HEARTS | TWO_OF_CLUBS) | JOKERS,
            Jokers::Replace2D2C => classic & !(TWO_OF_DIAMONDS | TWO_OF_CLUBS) | JOKERS,
            Jokers::DeucesHigh => {
                classic & !(TWO_OF_HEARTS | TWO_OF_CLUBS | TWO_OF_SPADES | TWO_OF_DIAMONDS)
                    | JOKERS
                    | HIGH_DEUCES
            }
        };
        CardSet::from_bits_truncate(bits)
    }

    /// The card of this deck dealt where the classic deck deals `classic`:
    /// the card itself, or what replaces it (the Little Joker for the two
    /// of clubs, the Big Joker for the other two replaced, and the high
    /// deuces for the low ones). So a seed deals a joker deck as it deals
    /// the classic one, with the replaced cards swapped.
    pub const fn in_place_of(self, classic: Card) -> Card {
        let i = classic.index();
        let replaced = CardSet::DECK.minus(self.deck());
        if !replaced.contains(classic) {
            return classic;
        }
        match self {
            Jokers::DeucesHigh if i == TWO_OF_SPADES.trailing_zeros() as u8 => {
                Card::HIGH_TWO_OF_SPADES
            }
            Jokers::DeucesHigh if i == TWO_OF_DIAMONDS.trailing_zeros() as u8 => {
                Card::HIGH_TWO_OF_DIAMONDS
            }
            _ if i == TWO_OF_CLUBS.trailing_zeros() as u8 => Card::LITTLE_JOKER,
            _ => Card::BIG_JOKER,
        }
    }

    /// The value as written in rules.toml.
    pub const fn name(self) -> &'static str {
        match self {
            Jokers::None => "none",
            Jokers::Replace2H2C => "replace_2h_2c",
            Jokers::Replace2D2C => "replace_2d_2c",
            Jokers::DeucesHigh => "deuces_high",
        }
    }

    /// How many spades the deck has (13, or 15 with the jokers).
    pub const fn spades(self) -> u32 {
        self.deck().suit(Suit::Spades).len()
    }
}

impl std::fmt::Display for Jokers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(set: CardSet) -> String {
        set.to_string()
    }

    #[test]
    fn every_deck_has_52_cards() {
        for jokers in Jokers::ALL {
            assert_eq!(jokers.deck().len(), 52, "{jokers}");
            assert!(jokers.deck().is_subset(CardSet::ANY));
        }
        assert_eq!(Jokers::None.deck(), CardSet::DECK);
    }

    #[test]
    fn each_deck_has_the_cards_its_rule_names() {
        let extra = |j: Jokers| cards(j.deck().minus(CardSet::DECK));
        let missing = |j: Jokers| cards(CardSet::DECK.minus(j.deck()));
        assert_eq!(extra(Jokers::Replace2H2C), "LJ BJ");
        assert_eq!(missing(Jokers::Replace2H2C), "2C 2H");
        assert_eq!(extra(Jokers::Replace2D2C), "LJ BJ");
        assert_eq!(missing(Jokers::Replace2D2C), "2C 2D");
        assert_eq!(extra(Jokers::DeucesHigh), "DS DD LJ BJ");
        assert_eq!(missing(Jokers::DeucesHigh), "2C 2D 2H 2S");
        let suits = |j: Jokers| Suit::ALL.map(|s| j.deck().suit(s).len());
        assert_eq!(suits(Jokers::Replace2H2C), [12, 13, 12, 15]);
        assert_eq!(suits(Jokers::Replace2D2C), [12, 12, 13, 15]);
        assert_eq!(suits(Jokers::DeucesHigh), [12, 12, 12, 16]);
        assert_eq!(Jokers::DeucesHigh.spades(), 16);
    }

    #[test]
    fn each_card_replaced_has_one_card_in_its_place() {
        for jokers in Jokers::ALL {
            let placed: CardSet = CardSet::DECK
                .iter()
                .map(|c| jokers.in_place_of(c))
                .collect();
            assert_eq!(placed, jokers.deck(), "{jokers}");
        }
        let two = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(
            Jokers::DeucesHigh.in_place_of(two("2D")),
            Card::HIGH_TWO_OF_DIAMONDS
        );
        assert_eq!(
            Jokers::DeucesHigh.in_place_of(two("2S")),
            Card::HIGH_TWO_OF_SPADES
        );
        assert_eq!(Jokers::Replace2D2C.in_place_of(two("2D")), Card::BIG_JOKER);
        assert_eq!(
            Jokers::Replace2H2C.in_place_of(two("2C")),
            Card::LITTLE_JOKER
        );
        assert_eq!(Jokers::Replace2H2C.in_place_of(two("2D")), two("2D"));
    }

    #[test]
    fn names_are_the_rules_file_values() {
        for jokers in Jokers::ALL {
            let json = serde_json::to_string(&jokers).unwrap();
            assert_eq!(json, format!("\"{}\"", jokers.name()));
            assert_eq!(serde_json::from_str::<Jokers>(&json).unwrap(), jokers);
        }
    }
}
