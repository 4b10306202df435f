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
}

/// The bits of the holders of a suit's top `depth` cards (at most 17).
fn top_pairs(depth: u8) -> u64 {
    (1u64 << (2 * u32::from(depth))).wrapping_sub(1)
}

/// One suit's part of what a proof rests on: the holders of the suit's
/// top `depth` cards out (two bits each, the highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pattern {
    depth: u8,
    holders: u64,
}

impl Pattern {
    fn of(at: &Position, suit: usize, depth: u8) -> Pattern {
        Pattern {
            depth,
            holders: at.holders[suit] & top_pairs(depth),
        }
    }

    fn fits(&self, at: &Position, suit: usize) -> bool {
        (at.holders[suit] ^ self.holders) & top_pairs(self.depth) == 0
    }
}

/// A node of a shape's tree: level one holds a pattern of the first suit,
/// level two of the second, and so on; a node of the fourth level ends a
/// path and keeps the bounds proven on the tricks still to come for every
/// position that fits its four patterns (at least `lo`, at most `hi`) and
/// the lead that last settled a question there. Filed as a tree, a lookup
/// leaves a whole branch the moment one suit does not fit, where a list
/// would test each entry's four suits.
#[derive(Debug, Clone, Copy)]
struct Node {
    pattern: Pattern,
    /// The first node of the next level under this one, and the next node
    /// of this level under the same parent (`NONE` for none).
    child: u32,
    sibling: u32,
    lo: u8,
    hi: u8,
    best: Option<Card>,
}

const NONE: u32 = u32::MAX;

/// What the table knows of a question: settled (with the cards whose ranks
/// the proof rests on), or not, with the lead to try first.
pub(super) enum Lookup {
    Settled(bool, CardSet),
    Open(Option<Card>),
}

/// A shape's tree: `first` is the first node of level one.
struct Tree {
    first: u32,
}

#[derive(Default)]
pub(super) struct Table {
    trees: HashMap<Shape, Tree, BuildHasherDefault<ShapeHasher>>,
    /// Every tree's nodes, in one place.
    nodes: Vec<Node>,
}

impl Table {
    /// Does the side take at least `need` of the tricks to come from
    /// `at`, as far as the table knows?
    pub(super) fn look(&self, at: &Position, need: u8) -> Lookup {
        let Some(tree) = self.trees.get(&at.shape) else {
            return Lookup::Open(None);
        };
        let mut search = Search {
            nodes: &self.nodes,
            at,
            need,
            depths: [0; 4],
            best: None,
        };
        match search.level(tree.first, 0) {
            Some(reached) => Lookup::Settled(reached, at.top(search.depths)),
            None => Lookup::Open(search.best),
        }
    }

    /// Keeps that the side takes at least `need` (`reached`) or fewer, of
    /// the `left` tricks to come, in every position like `at` in the cards
    /// `ranks`.
    pub(super) fn keep(&mut self, at: &Position, proof: Proof) {
        let depths = at.depths(proof.ranks);
        let first = match self.trees.get(&at.shape) {
            Some(tree) => tree.first,
            None => NONE,
        };
        let mut head = first;
        let mut parent = NONE;
        for (suit, &depth) in depths.iter().enumerate() {
            let pattern = Pattern::of(at, suit, depth);
            let mut node = head;
            while node != NONE && self.nodes[node as usize].pattern != pattern {
                node = self.nodes[node as usize].sibling;
            }
            if node == NONE {
                node = self.nodes.len() as u32;
                self.nodes.push(Node {
                    pattern,
                    child: NONE,
                    sibling: head,
                    lo: 0,
                    hi: proof.left,
                    best: None,
                });
                // The newest first: it is the likeliest to be asked again.
                match parent {
                    NONE => {
                        self.trees.insert(at.shape, Tree { first: node });
                    }
                    parent => self.nodes[parent as usize].child = node,
                }
            }
            parent = node;
            head = self.nodes[node as usize].child;
        }
        let leaf = &mut self.nodes[parent as usize];
        if proof.reached {
            leaf.lo = leaf.lo.max(proof.need);
        } else {
            leaf.hi = leaf.hi.min(proof.need - 1);
        }
        leaf.best = proof.best.or(leaf.best);
    }
}

/// One lookup's walk down a shape's tree.
struct Search<'a> {
    nodes: &'a [Node],
    at: &'a Position,
    need: u8,
    /// The depths along the path being walked.
    depths: [u8; 4],
    best: Option<Card>,
}

impl Search<'_> {
    /// Walks the nodes of `level` from `node` on that fit the position:
    /// the answer of the first path whose bounds settle the question.
    fn level(&mut self, mut node: u32, level: usize) -> Option<bool> {
        while node != NONE {
            let here = self.nodes[node as usize];
            node = here.sibling;
            if !here.pattern.fits(self.at, level) {
                continue;
            }
            self.depths[level] = here.pattern.depth;
            if level == 3 {
                if here.lo >= self.need || here.hi < self.need {
                    return Some(here.lo >= self.need);
                }
                self.best = self.best.or(here.best);
            } else if let Some(reached) = self.level(here.child, level + 1) {
                return Some(reached);
            }
        }
        None
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
