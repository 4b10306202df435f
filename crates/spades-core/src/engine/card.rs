//! A single card: suit and rank packed into one byte.
//!
//! A card's index is `suit * 13 + rank` for the 52 cards of the classic
//! deck, so that within a suit a higher index beats a lower one and the
//! spades, the trumps, come last. The joker decks ([`super::deck`]) add
//! trumps above the ace of spades, and they take the indices above 51 in
//! the same order, so every card of the spade suit is `39 + rank`:
//!
//! | index | card                                              | written |
//! |-------|---------------------------------------------------|---------|
//! | 52    | the two of spades ranking above the ace (deuces high) | `DS`  |
//! | 53    | the two of diamonds as a trump above it (deuces high) | `DD`  |
//! | 54    | the Little Joker                                  | `LJ`    |
//! | 55    | the Big Joker                                     | `BJ`    |
//!
//! One layout serves every deck, so a card's index never depends on the
//! rules, and the trick winner, the legal plays and the searches read the
//! bits as they always did: a higher spade bit beats a lower one.
//!
//! Every card has its own two characters, so card text means the same
//! whatever the rules. The high deuces could have kept the `2S` and `2D`
//! printed on them, but then `2S` would be one card or another by the
//! rules: every reader of card text (records, saves, the blunder suite,
//! the command line, the independent checker) would need the deck before
//! the cards, and a set of cards could no longer be written and read back
//! on its own. `D` (deuce) for the rank keeps the printed suit: `DS` is the
//! deuce of spades above the ace, `DD` the deuce of diamonds above it. Card
//! faces on the screen show `2♠` and `2♦`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four suits in their ranking order: clubs < diamonds < hearts < spades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Clubs, the lowest suit.
    Clubs = 0,
    /// Diamonds.
    Diamonds = 1,
    /// Hearts.
    Hearts = 2,
    /// Spades, always trumps.
    Spades = 3,
}

impl Suit {
    /// The four suits, lowest first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0 clubs to 3 spades; only the low two bits are
    /// read).
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

    /// Diamonds and hearts, the red suits.
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

/// Ranks from 2 (lowest) to ace (highest), then, for the trumps above the
/// ace of the joker decks, the high two of spades, the high two of diamonds,
/// the Little Joker and the Big Joker (ranks 13 to 16, spades only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The two, the lowest rank.
    pub const TWO: Rank = Rank(0);
    /// The ten.
    pub const TEN: Rank = Rank(8);
    /// The jack.
    pub const JACK: Rank = Rank(9);
    /// The queen.
    pub const QUEEN: Rank = Rank(10);
    /// The king.
    pub const KING: Rank = Rank(11);
    /// The ace, the highest rank of a plain deck.
    pub const ACE: Rank = Rank(12);
    /// The two of spades above the ace, when deuces are high.
    pub const HIGH_TWO_OF_SPADES: Rank = Rank(13);
    /// The two of diamonds as a trump above it, when deuces are high.
    pub const HIGH_TWO_OF_DIAMONDS: Rank = Rank(14);
    /// The Little Joker, a trump above the high twos.
    pub const LITTLE_JOKER: Rank = Rank(15);
    /// The Big Joker, the highest trump of all.
    pub const BIG_JOKER: Rank = Rank(16);
    const LETTERS: &'static [u8; 17] = b"23456789TJQKADDLB";

    /// 0 for the two up to 12 for the ace, 13 to 16 for the trumps above it.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// A rank of every suit's thirteen: `i < 13`.
    pub const fn from_index(i: u8) -> Option<Rank> {
        if i < 13 { Some(Rank(i)) } else { None }
    }

    /// The rank's letter: `2`..`9`, `T J Q K A`; `D` for the high deuces,
    /// `L` and `B` for the jokers.
    pub fn letter(self) -> char {
        Self::LETTERS[self.0 as usize % 17] as char
    }

    /// How the rank is shown on a card face ("10" rather than "T"; "LJ"
    /// and "BJ" for the jokers).
    pub fn face(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "2", "LJ", "BJ",
        ][self.0 as usize % 17]
    }

    /// Is this a rank above the ace (a trump of the joker decks)?
    pub const fn is_above_ace(self) -> bool {
        self.0 > Rank::ACE.0
    }

    fn from_letter(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase() as u8;
        Self::LETTERS[..13]
            .iter()
            .position(|&l| l == c)
            .map(|i| Rank(i as u8))
    }
}

/// One card. Its index `suit * 13 + rank` orders cards by suit, then rank, so
/// within a suit a higher index always beats a lower one (the trumps above
/// the ace of spades are indices 52 to 55: see the module's doc).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// How many card indices there are: the 52 cards of the classic deck and
/// the four trumps of the joker decks.
pub const CARD_INDICES: u8 = 56;

impl Card {
    /// The card of this suit and rank; a rank above the ace is a spade.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        if rank.is_above_ace() {
            Card(Suit::Spades as u8 * 13 + rank.0)
        } else {
            Card(suit as u8 * 13 + rank.0)
        }
    }

    /// The Little Joker (it plays as a spade).
    pub const LITTLE_JOKER: Card = Card::new(Suit::Spades, Rank::LITTLE_JOKER);
    /// The Big Joker, which beats every card.
    pub const BIG_JOKER: Card = Card::new(Suit::Spades, Rank::BIG_JOKER);
    /// The two of spades ranking above the ace (deuces high).
    pub const HIGH_TWO_OF_SPADES: Card = Card::new(Suit::Spades, Rank::HIGH_TWO_OF_SPADES);
    /// The two of diamonds as a trump (deuces high).
    pub const HIGH_TWO_OF_DIAMONDS: Card = Card::new(Suit::Spades, Rank::HIGH_TWO_OF_DIAMONDS);

    /// The card with index `0..56`; `None` beyond every deck.
    pub const fn from_index(i: u8) -> Option<Card> {
        if i < CARD_INDICES {
            Some(Card(i))
        } else {
            None
        }
    }

    /// Callers guarantee `i < 56` (bit positions of a `CardSet`).
    pub(crate) const fn from_index_unchecked(i: u8) -> Card {
        Card(i)
    }

    /// The card's index `0..56`: its bit in a `CardSet`, and its order (suit,
    /// then rank).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The suit the card plays as: every trump above the ace is a spade.
    #[inline]
    pub const fn suit(self) -> Suit {
        // `i * 5 >> 6` is `i / 13` for the 52 (one multiply, as the
        // division compiles to) and 4 for the trumps above the ace, which
        // the compare, run beside it, takes back to spades.
        let i = self.0 as u16;
        Suit::from_index(((i * 5) >> 6) as u8 - (i >= 52) as u8)
    }

    /// The card's rank, as it plays (the trumps above the ace included).
    pub const fn rank(self) -> Rank {
        Rank(SUIT_AND_RANK[self.0 as usize & 63] & 31)
    }

    /// Is it the Little or the Big Joker?
    pub const fn is_joker(self) -> bool {
        self.0 >= Card::LITTLE_JOKER.0
    }

    /// The suit printed on the card, `None` for a joker: the high two of
    /// diamonds plays as a spade but shows a diamond.
    pub const fn printed_suit(self) -> Option<Suit> {
        match self.0 {
            53 => Some(Suit::Diamonds),
            54.. => None,
            _ => Some(self.suit()),
        }
    }
}

/// `suit << 5 | rank` for every card index (64 wide for masked indices),
/// the trumps above the ace being spades of ranks 13 to 16.
const SUIT_AND_RANK: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut i = 0;
    while i < CARD_INDICES as usize {
        let suit = if i >= 39 { 3 } else { i / 13 };
        table[i] = (suit << 5 | (i - 13 * suit)) as u8;
        i += 1;
    }
    table
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suit = self.printed_suit().map_or('J', Suit::letter);
        write!(f, "{}{}", self.rank().letter(), suit)
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card written in notation that is not rank-then-suit (`"AS"`, `"TD"`)
/// or a joker (`"LJ"`, `"BJ"`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a card: write rank then suit, like AS, TD or 2C (LJ and BJ for the jokers, DS and DD for the high deuces)"
)]
/// The text that was not a card, as given.
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
        match (r.to_ascii_uppercase(), su.to_ascii_uppercase()) {
            ('D', 'S') => return Ok(Card::HIGH_TWO_OF_SPADES),
            ('D', 'D') => return Ok(Card::HIGH_TWO_OF_DIAMONDS),
            ('L', 'J') => return Ok(Card::LITTLE_JOKER),
            ('B', 'J') => return Ok(Card::BIG_JOKER),
            _ => {}
        }
        let rank = Rank::from_letter(r).ok_or_else(err)?;
        let suit = Suit::from_letter(su).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

/// A suit is written as its letter: `"S"`, `"H"`, `"D"`, `"C"`.
impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.letter().encode_utf8(&mut [0; 4]))
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let mut chars = s.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(serde::de::Error::custom(format!(
                "`{s}` is not a suit: write S, H, D or C"
            ))),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let suit = self.printed_suit().map_or('J', Suit::letter);
        let bytes = [self.rank().letter() as u8, suit as u8];
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
        for i in 0..CARD_INDICES {
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
    fn the_trumps_above_the_ace_are_spades_in_rank_order() {
        let above = [
            Card::HIGH_TWO_OF_SPADES,
            Card::HIGH_TWO_OF_DIAMONDS,
            Card::LITTLE_JOKER,
            Card::BIG_JOKER,
        ];
        let ace = Card::new(Suit::Spades, Rank::ACE);
        for (k, c) in above.iter().enumerate() {
            assert_eq!(c.index(), 52 + k as u8);
            assert_eq!(c.suit(), Suit::Spades, "{c}");
            assert_eq!(c.rank().index(), 13 + k as u8, "{c}");
            assert_eq!(Card::new(c.suit(), c.rank()), *c);
            assert!(*c > ace);
        }
        let written: Vec<String> = above.iter().map(Card::to_string).collect();
        assert_eq!(written, ["DS", "DD", "LJ", "BJ"]);
        for c in above {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(
            Card::HIGH_TWO_OF_DIAMONDS.printed_suit(),
            Some(Suit::Diamonds)
        );
        assert_eq!(Card::BIG_JOKER.printed_suit(), None);
        assert!(Card::LITTLE_JOKER.is_joker() && !ace.is_joker());
        assert_eq!("lj".parse::<Card>().unwrap(), Card::LITTLE_JOKER);
        assert_eq!("BJ".parse::<Card>().unwrap(), Card::BIG_JOKER);
        assert_eq!(Card::from_index(56), None);
        for i in 0..52 {
            let c = Card::from_index(i).unwrap();
            assert_eq!((c.suit() as u8, c.rank().index()), (i / 13, i % 13));
        }
    }

    #[test]
    fn bad_notation_is_rejected() {
        for bad in [
            "", "A", "ASX", "1S", "AX", "10D", "LS", "BH", "JJ", "AJ", "DH", "DC", "DJ",
        ] {
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
