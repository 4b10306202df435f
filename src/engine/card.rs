//! A single card: suit and rank packed into one byte.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four suits in their ranking order: clubs < diamonds < hearts < spades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// The letter used in card notation: `C D H S`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The Unicode suit symbol.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// The plural name used in messages ("you must follow hearts").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Ranks from 2 (lowest) to ace (highest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(0);
    pub const TEN: Rank = Rank(8);
    pub const JACK: Rank = Rank(9);
    pub const QUEEN: Rank = Rank(10);
    pub const KING: Rank = Rank(11);
    pub const ACE: Rank = Rank(12);
    const LETTERS: &'static [u8; 13] = b"23456789TJQKA";

    /// 0 for the two up to 12 for the ace.
    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn from_index(i: u8) -> Option<Rank> {
        if i < 13 { Some(Rank(i)) } else { None }
    }

    pub fn letter(self) -> char {
        Self::LETTERS[self.0 as usize] as char
    }

    /// How the rank is shown on a card face ("10" rather than "T").
    pub fn face(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ][self.0 as usize]
    }

    fn from_letter(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase() as u8;
        Self::LETTERS
            .iter()
            .position(|&l| l == c)
            .map(|i| Rank(i as u8))
    }
}

/// One card. Its index `suit * 13 + rank` orders cards by suit, then rank, so
/// within a suit a higher index always beats a lower one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// The card with index `0..52`; `None` outside the deck.
    pub const fn from_index(i: u8) -> Option<Card> {
        if i < 52 { Some(Card(i)) } else { None }
    }

    /// Callers guarantee `i < 52` (bit positions of a `CardSet`).
    pub(crate) const fn from_index_unchecked(i: u8) -> Card {
        Card(i)
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 / 13)
    }

    pub const fn rank(self) -> Rank {
        Rank(self.0 % 13)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card written in notation that is not rank-then-suit (`"AS"`, `"TD"`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card: write rank then suit, like AS, TD or 2C")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let mut chars = s.chars();
        let (r, su) = match (chars.next(), chars.next(), chars.next()) {
            (Some(r), Some(su), None) => (r, su),
            _ => return Err(err()),
        };
        let rank = Rank::from_letter(r).ok_or_else(err)?;
        let suit = Suit::from_letter(su).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = [self.rank().letter() as u8, self.suit().letter() as u8];
        // Both bytes are ASCII letters or digits.
        s.serialize_str(std::str::from_utf8(&bytes).unwrap_or("??"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for i in 0..52 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!("AS".parse::<Card>().unwrap().to_string(), "AS");
        assert_eq!(
            "TD".parse::<Card>().unwrap(),
            Card::new(Suit::Diamonds, Rank::TEN)
        );
        assert_eq!("2C".parse::<Card>().unwrap().index(), 0);
    }

    #[test]
    fn bad_notation_is_rejected() {
        for bad in ["", "A", "ASX", "1S", "AX", "10D"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ordering_is_suit_then_rank() {
        let two_spades: Card = "2S".parse().unwrap();
        let ace_hearts: Card = "AH".parse().unwrap();
        assert!(two_spades > ace_hearts);
        assert!("KD".parse::<Card>().unwrap() < "AD".parse::<Card>().unwrap());
    }
}
