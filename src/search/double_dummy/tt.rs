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
use std::hash::{BuildHasherDefault, Hasher};

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
                Some(low) => out.minus(out.below(low)).len() as u8,
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

    fn matches(&self, entry: &Entry) -> bool {
        (0..4).all(|s| (self.holders[s] ^ entry.holders[s]) & top_pairs(entry.depths[s]) == 0)
    }
}

/// The bits of the holders of a suit's top `depth` cards (at most 17).
fn top_pairs(depth: u8) -> u64 {
    (1u64 << (2 * u32::from(depth))).wrapping_sub(1)
}

/// Bounds proven on the tricks still to come from every position matching
/// `depths` and `holders`: at least `lo`, at most `hi`; `best` is the lead
/// that last settled a question there.
#[derive(Debug, Clone, Copy)]
struct Entry {
    depths: [u8; 4],
    holders: [u64; 4],
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

#[derive(Default)]
pub(super) struct Table {
    entries: HashMap<Shape, Vec<Entry>, BuildHasherDefault<ShapeHasher>>,
}

impl Table {
    /// Does the side take at least `need` of the tricks to come from
    /// `at`, as far as the table knows?
    pub(super) fn look(&self, at: &Position, need: u8) -> Lookup {
        let mut best = None;
        for entry in self.entries.get(&at.shape).into_iter().flatten() {
            if !at.matches(entry) {
                continue;
            }
            if entry.lo >= need || entry.hi < need {
                return Lookup::Settled(entry.lo >= need, at.top(entry.depths));
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
        let mut holders = at.holders;
        for (bits, &depth) in holders.iter_mut().zip(&depths) {
            *bits &= top_pairs(depth);
        }
        let bucket = self.entries.entry(at.shape).or_default();
        let found = bucket
            .iter_mut()
            .find(|e| e.depths == depths && e.holders == holders);
        let entry = match found {
            Some(entry) => entry,
            None => {
                bucket.push(Entry {
                    depths,
                    holders,
                    lo: 0,
                    hi: proof.left,
                    best: None,
                });
                bucket
                    .last_mut()
                    .unwrap_or_else(|| unreachable!("just pushed"))
            }
        };
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
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }
}
