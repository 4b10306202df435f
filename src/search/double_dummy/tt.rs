//! The table of what is proven at a trick's start, shared by every
//! question asked in one solve (partition search, as bridge solvers do).
//!
//! A result proven from a position holds for every position that differs
//! only in cards whose rank decided no trick of the proof: within a suit,
//! the cards below the lowest card that won a trick against another card
//! of its suit are "small", and only how many each seat holds matters. So
//! a position is filed under its shape (each seat's length in each suit,
//! the leader, whether spades may be led), and an entry keeps, per suit,
//! how many of the top cards out its proof needed and who holds them. A
//! position matches an entry when its own top cards have those holders.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::HandState;
use crate::engine::seat::MAX_SEATS;

/// Every seat's length in every suit, the leader, and whether spades may
/// be led: what entries are filed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    lengths: u128,
    lead: u8,
}

/// A position at a trick's start as the table sees it: its shape, and per
/// suit the holders of the cards out from the highest down, two bits each.
pub(super) struct Position {
    shape: Shape,
    holders: [u64; 4],
    out: CardSet,
}

impl Position {
    pub(super) fn of(hand: &HandState) -> Position {
        let mut held = [0u64; MAX_SEATS];
        for (bits, cards) in held.iter_mut().zip(hand.hands.iter()) {
            *bits = cards.bits();
        }
        let out = held.iter().fold(0, |all, &h| all | h);
        let mut lengths = 0u128;
        let mut holders = [0u64; 4];
        for suit in Suit::ALL {
            let mask = CardSet::of_suit(suit).bits();
            for (seat, &bits) in held.iter().enumerate() {
                let len = u128::from((bits & mask).count_ones());
                lengths |= len << ((seat * 4 + suit as usize) * 5);
            }
            let mut cards = out & mask;
            let mut shift = 0;
            while cards != 0 {
                let at = 63 - cards.leading_zeros();
                cards &= !(1 << at);
                let seat = held.iter().position(|&h| h >> at & 1 == 1).unwrap_or(0);
                holders[suit as usize] |= (seat as u64) << shift;
                shift += 2;
            }
        }
        let lead = hand.leader().index() as u8 | u8::from(hand.spades_may_lead()) << 2;
        Position {
            shape: Shape { lengths, lead },
            holders,
            out: CardSet::from_bits_truncate(out),
        }
    }

    /// How many of each suit's top cards out reach down to the lowest of
    /// `ranks` in that suit (none when `ranks` has none of it).
    fn depths(&self, ranks: CardSet) -> [u8; 4] {
        Suit::ALL.map(|suit| {
            let out = self.out.suit(suit);
            match ranks.intersect(out).lowest() {
                Some(low) => coarse(out.minus(out.below(low)).len() as u8),
                None => 0,
            }
        })
    }

    /// The top `depths` cards out of each suit: what a proof read from an
    /// entry of those depths depended on here.
    fn top(&self, depths: [u8; 4]) -> CardSet {
        let mut cards = CardSet::EMPTY;
        for suit in Suit::ALL {
            let take = usize::from(depths[suit as usize]);
            cards |= self.out.suit(suit).iter().rev().take(take).collect();
        }
        cards
    }

    /// The key of the entry of `depths` this position would match.
    fn key(&self, depths: [u8; 4]) -> Key {
        let mut holders = self.holders;
        for (bits, &depth) in holders.iter_mut().zip(&depths) {
            *bits &= top_pairs(depth);
        }
        Key {
            shape: self.shape,
            depths,
            holders,
        }
    }
}

/// A depth rounded up to one of a few: a lookup probes every depths a
/// shape was kept at, so few of them keep it quick; a deeper key matches
/// fewer positions but never a wrong one.
fn coarse(depth: u8) -> u8 {
    const DEPTHS: [u8; 6] = [0, 1, 2, 3, 5, 8];
    DEPTHS.into_iter().find(|&d| d >= depth).unwrap_or(MOST_OUT)
}

/// Every card of a suit out, in any deal (cutthroat's 17 cards a seat).
const MOST_OUT: u8 = 17;

/// The bits of the holders of a suit's top `depth` cards (at most 17).
fn top_pairs(depth: u8) -> u64 {
    (1u64 << (2 * u32::from(depth))).wrapping_sub(1)
}

/// Where an entry is filed: the shape, how many top cards of each suit
/// its proof needed, and the holders of those cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    shape: Shape,
    depths: [u8; 4],
    holders: [u64; 4],
}

impl Hash for Key {
    // Whole words, not the bytes one by one: keys are hashed at every
    // lookup, once per depth kept for the shape.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u128(self.shape.lengths);
        let depths = u64::from(u32::from_le_bytes(self.depths));
        state.write_u64(u64::from(self.shape.lead) | depths << 8);
        for holders in self.holders {
            state.write_u64(holders);
        }
    }
}

/// Bounds proven on the tricks still to come from every position matching
/// an entry's key: at least `lo`, at most `hi`; `best` is the lead that
/// last settled a question there.
#[derive(Debug, Clone, Copy)]
struct Entry {
    lo: u8,
    hi: u8,
    best: Option<Card>,
}

/// What the table knows of a question: settled (with the cards whose ranks
/// the proof rests on), or not, with the lead to try first.
pub(super) enum Lookup {
    Settled(bool, CardSet),
    Open(Option<Card>),
}

type Fast = BuildHasherDefault<ShapeHasher>;

/// Entries filed by their whole key, and per shape the depths kept for
/// it: a position matches at most one entry of each depths, found by one
/// probe, where scanning every entry of a shape cost most of the search.
#[derive(Default)]
pub(super) struct Table {
    depths: HashMap<Shape, Vec<[u8; 4]>, Fast>,
    entries: HashMap<Key, Entry, Fast>,
}

impl Table {
    /// Does the side take at least `need` of the tricks to come from
    /// `at`, as far as the table knows?
    pub(super) fn look(&self, at: &Position, need: u8) -> Lookup {
        let mut best = None;
        for &depths in self.depths.get(&at.shape).into_iter().flatten() {
            let Some(entry) = self.entries.get(&at.key(depths)) else {
                continue;
            };
            if entry.lo >= need || entry.hi < need {
                return Lookup::Settled(entry.lo >= need, at.top(depths));
            }
            best = best.or(entry.best);
        }
        Lookup::Open(best)
    }

    /// Keeps that the side takes at least `need` (`reached`) or fewer, of
    /// the `left` tricks to come, in every position like `at` in the cards
    /// `ranks`.
    pub(super) fn keep(&mut self, at: &Position, proof: Proof) {
        let depths = at.depths(proof.ranks);
        let entry = self.entries.entry(at.key(depths)).or_insert_with(|| {
            let kept = self.depths.entry(at.shape).or_default();
            if !kept.contains(&depths) {
                kept.push(depths);
            }
            Entry {
                lo: 0,
                hi: proof.left,
                best: None,
            }
        });
        if proof.reached {
            entry.lo = entry.lo.max(proof.need);
        } else {
            entry.hi = entry.hi.min(proof.need - 1);
        }
        entry.best = proof.best.or(entry.best);
    }
}

/// An answer to keep: whether the side takes `need` of the `left` tricks
/// to come, the cards whose ranks the proof rests on, and the lead that
/// settled it.
pub(super) struct Proof {
    pub(super) need: u8,
    pub(super) left: u8,
    pub(super) reached: bool,
    pub(super) ranks: CardSet,
    pub(super) best: Option<Card>,
}

/// A fast multiplicative hash for the table's shapes (no denial of service
/// to fear in a search of our own positions).
#[derive(Default)]
struct ShapeHasher(u64);

impl ShapeHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for ShapeHasher {
    fn finish(&self) -> u64 {
        // The product's high bits are its best: fold them into the low
        // ones, which pick the bucket.
        self.0 ^ self.0 >> 29
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }
}
