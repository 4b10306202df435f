//! `CardSet`: any set of cards as one `u64` bit set (bit = card index).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::{CARD_INDICES, Card, Suit};

/// The field is private so that no set can hold a bit beyond the 56 card
/// indices: every constructor keeps to them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = (1 << 13) - 1;
/// The trumps above the ace of spades: bits 52 to 55 (see `card`).
const ABOVE_ACE: u64 = ((1 << CARD_INDICES) - 1) & !((1 << 52) - 1);

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// The classic deck, 52 cards. A game's deck is its rules'
    /// (`Rules::deck`): the joker decks differ.
    pub const DECK: CardSet = CardSet((1 << 52) - 1);
    /// Every card of every deck: the 52 and the four trumps above the ace.
    pub const ANY: CardSet = CardSet((1 << CARD_INDICES) - 1);

    /// The spade suit runs on past the ace, through bit 55. One-cycle
    /// arithmetic beside the shift, rather than a branch (the suit led is
    /// as random as the cards) or a load on the path of every follow.
    #[inline]
    pub const fn of_suit(suit: Suit) -> CardSet {
        let s = suit as u64;
        // All ones for spades (3 + 1 = 4), else zero.
        let spades = 0u64.wrapping_sub((s + 1) >> 2);
        CardSet((SUIT_MASK << (13 * s)) | (ABOVE_ACE & spades))
    }

    /// The set of one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    /// The set as bits, bit `Card::index` for each card: for fast searches and
    /// hashing.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set with these bits, or `None` when a bit lies beyond every card.
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !CardSet::ANY.0 == 0 {
            Some(CardSet(bits))
        } else {
            None
        }
    }

    /// The cards among these bits; bits beyond every card are dropped.
    pub const fn from_bits_truncate(bits: u64) -> CardSet {
        CardSet(bits & CardSet::ANY.0)
    }

    /// How many cards the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Does it hold no card?
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Does it hold `card`?
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds `card` (no change if it is there already).
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Takes `card` out (no change if it is not there).
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// The cards in either set.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    pub const fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards of this set that are not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Is every card of this set in `other`?
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The cards of one suit in this set.
    pub const fn suit(self, suit: Suit) -> CardSet {
        self.intersect(CardSet::of_suit(suit))
    }

    /// Does it hold a card that plays as `suit` (a joker counts as a spade)?
    pub const fn has_suit(self, suit: Suit) -> bool {
        !self.suit(suit).is_empty()
    }

    /// The cards of `card`'s suit in this set that outrank it.
    pub const fn above(self, card: Card) -> CardSet {
        let suit = CardSet::of_suit(card.suit()).0;
        CardSet(self.0 & suit & !((2u64 << card.index()) - 1))
    }

    /// The cards of `card`'s suit in this set that it outranks.
    pub const fn below(self, card: Card) -> CardSet {
        let suit = CardSet::of_suit(card.suit()).0;
        CardSet(self.0 & suit & ((1u64 << card.index()) - 1))
    }

    /// The lowest card (lowest suit, then lowest rank).
    pub fn lowest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card::from_index_unchecked(self.0.trailing_zeros() as u8))
    }

    /// The highest card (highest suit, then highest rank).
    pub fn highest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card::from_index_unchecked(63 - self.0.leading_zeros() as u8))
    }

    /// The `n`th card counting from the lowest, if there are that many.
    /// Broadword select: byte counts and their running sums find the byte,
    /// a table finds the bit. No loop and no data-dependent branch, so random
    /// picks in playouts do not pay for mispredictions.
    pub fn nth(self, n: u32) -> Option<Card> {
        (n < self.len()).then(|| self.select(n))
    }

    /// A card chosen by `random` (any `u32`, e.g. from a generator), each
    /// card equally likely up to a bias below one in 2^28: the playouts' pick.
    #[inline]
    pub fn pick(self, random: u32) -> Option<Card> {
        let len = self.len();
        (len > 0).then(|| self.select(((u64::from(random) * u64::from(len)) >> 32) as u32))
    }

    /// The `n`th card, for `n` below `len()`.
    #[inline]
    fn select(self, n: u32) -> Card {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let x = self.0;
        let mut counts = x - ((x >> 1) & 0x5555_5555_5555_5555);
        counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
        counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        // Byte i holds the number of cards in bytes 0..=i (at most 56).
        let running = counts.wrapping_mul(ONES);
        // High bit of byte i set where running_i <= n: those bytes come before.
        let before = (((u64::from(n) * ONES) | HIGHS) - running) & HIGHS;
        let byte = ((before >> 7).wrapping_mul(ONES) >> 56) as u32;
        let skipped = ((running << 8) >> (byte * 8)) & 0xFF;
        let in_byte = ((x >> (byte * 8)) & 0xFF) as usize;
        let bit = SELECT_IN_BYTE[in_byte][(u64::from(n) - skipped) as usize & 7];
        Card::from_index_unchecked((byte * 8) as u8 + bit)
    }

    /// The cards from the lowest index up (clubs first, spades and the trumps
    /// above the ace last).
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
}

/// `SELECT_IN_BYTE[b][k]`: the position of the `k`th set bit of byte `b`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// Cards from lowest to highest.
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl DoubleEndedIterator for CardIter {
    fn next_back(&mut self) -> Option<Card> {
        let top = CardSet(self.0).highest()?;
        self.0 &= !(1 << top.index());
        Some(top)
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        self.union(rhs)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        self.intersect(rhs)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// Parses cards separated by spaces or commas: `"AS KS 2C"`.
impl std::str::FromStr for CardSet {
    type Err = super::card::ParseCardError;
    fn from_str(s: &str) -> Result<CardSet, Self::Err> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse::<Card>)
            .collect()
    }
}

/// Serialised as a list of cards, lowest first, as in the game record.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let set: CardSet = cards.iter().copied().collect();
        if set.len() as usize != cards.len() {
            return Err(serde::de::Error::custom("a card is listed twice"));
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suits_partition_every_card() {
        let all = Suit::ALL
            .iter()
            .fold(CardSet::EMPTY, |acc, &s| acc | CardSet::of_suit(s));
        assert_eq!(all, CardSet::ANY);
        assert_eq!(CardSet::DECK.len(), 52);
        for s in Suit::ALL {
            let classic = CardSet::of_suit(s).intersect(CardSet::DECK);
            assert_eq!(classic.len(), 13);
            assert!(CardSet::of_suit(s).iter().all(|c| c.suit() == s));
        }
        assert_eq!(CardSet::of_suit(Suit::Spades).len(), 17);
        for i in 0..56 {
            let c = Card::from_index(i).unwrap();
            assert!(CardSet::of_suit(c.suit()).contains(c), "{c}");
        }
    }

    #[test]
    fn the_trumps_above_the_ace_outrank_it() {
        let ace: Card = "AS".parse().unwrap();
        let spades = CardSet::of_suit(Suit::Spades);
        let above: Vec<String> = spades.above(ace).iter().map(|c| c.to_string()).collect();
        assert_eq!(above, ["DS", "DD", "LJ", "BJ"]);
        assert_eq!(spades.below(Card::LITTLE_JOKER).len(), 15);
        assert_eq!(CardSet::ANY.highest(), Some(Card::BIG_JOKER));
        assert_eq!(CardSet::ANY.nth(55), Some(Card::BIG_JOKER));
    }

    #[test]
    fn iteration_is_ordered_both_ways() {
        let set: CardSet = "AS 2C KH 5D".parse().unwrap();
        let up: Vec<String> = set.iter().map(|c| c.to_string()).collect();
        assert_eq!(up, ["2C", "5D", "KH", "AS"]);
        let down: Vec<String> = set.iter().rev().map(|c| c.to_string()).collect();
        assert_eq!(down, ["AS", "KH", "5D", "2C"]);
        assert_eq!(set.nth(2).unwrap().to_string(), "KH");
        assert_eq!(set.nth(4), None);
        assert_eq!(set.highest().unwrap().to_string(), "AS");
        assert_eq!(set.lowest().unwrap().to_string(), "2C");
    }

    #[test]
    fn nth_agrees_with_iteration() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = CardSet::from_bits_truncate(x);
            let cards: Vec<Card> = set.iter().collect();
            for (k, &c) in cards.iter().enumerate() {
                assert_eq!(set.nth(k as u32), Some(c), "{set:?} #{k}");
            }
            assert_eq!(set.nth(cards.len() as u32), None);
        }
        assert_eq!(
            CardSet::DECK.nth(51).map(|c| c.to_string()),
            Some("AS".into())
        );
        assert_eq!(CardSet::EMPTY.nth(0), None);
    }

    #[test]
    fn no_set_holds_a_bit_beyond_every_card() {
        assert_eq!(CardSet::from_bits(1 << 56), None);
        assert_eq!(CardSet::from_bits(u64::MAX), None);
        assert_eq!(
            CardSet::from_bits(CardSet::DECK.bits()),
            Some(CardSet::DECK)
        );
        assert_eq!(CardSet::from_bits_truncate(u64::MAX), CardSet::ANY);
        assert_eq!(CardSet::from_bits_truncate(u64::MAX).len(), 56);
    }

    #[test]
    fn serde_is_a_list_of_cards() {
        let set: CardSet = "AS TD".parse().unwrap();
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["TD","AS"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), set);
        assert!(serde_json::from_str::<CardSet>(r#"["AS","AS"]"#).is_err());
    }
}
