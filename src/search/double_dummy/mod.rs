//! The most tricks a side can take "with all cards seen" (double dummy):
//! every hand is known, the side plays for its tricks and every other
//! seat plays against it (in partnership the other side; in cutthroat and
//! individual the other seats together). What the game review shows as a
//! second opinion on a deal, apart from its verdicts.
//!
//! A zero-window search: "can the side take at least `k` more tricks?",
//! answered by alpha-beta over the engine's own plays (`HandState`, every
//! house rule included; cards equal in play tried once through
//! `HandState::distinct_legal`), and `k` found by bisection. Between the
//! searches a transposition table keeps, for each position at a trick's
//! start, the bounds proven on the tricks still to come. Positions are
//! keyed by each card's rank among the cards still out in its suit, so two
//! positions that differ only in which small cards have gone share an
//! entry. Measured in `docs/performance.md` (`cargo bench --bench
//! double_dummy`).

mod bounds;
mod order;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::play::HandState;
use crate::engine::seat::{MAX_SEATS, Mode, PerSide, Side, Teams};

/// The most tricks `side` takes in the whole hand, the tricks it has
/// already won included, when it plays for them and every other seat plays
/// against it, from `hand` as it stands (at a trick's start or mid-trick).
/// In dummy mode the dummy plays for nobody here: use `most_tricks_with`
/// and the hand's declarer.
pub fn most_tricks(hand: &HandState, mode: Mode, side: Side) -> u8 {
    most_tricks_with(hand, Teams::new(mode, None), side)
}

/// `most_tricks` for the seats that score for `side` in `teams` (in dummy
/// mode the declarer plays the dummy's cards for its own side).
pub fn most_tricks_with(hand: &HandState, teams: Teams, side: Side) -> u8 {
    let won = teams.side_tricks(side, &hand.tricks_won());
    won + Solver::new(team(hand, teams, side)).most(hand)
}

/// `most_tricks`, or `None` once the search has visited `limit`
/// positions without an answer: a few deals take a thousand times the
/// usual search, and a caller that must answer in time (the game review)
/// gives up on those. Counted in positions, not seconds, so the same deal
/// is answered, or not, the same way on every machine.
pub fn most_tricks_within(hand: &HandState, mode: Mode, side: Side, limit: u64) -> Option<u8> {
    let teams = Teams::new(mode, None);
    let won = teams.side_tricks(side, &hand.tricks_won());
    let mut solver = Solver::new(team(hand, teams, side));
    solver.limit = limit;
    let most = solver.most(hand);
    (solver.visits <= limit).then_some(won + most)
}

/// Each side's `most_tricks`, each solved on its own (the others all
/// playing against it), so in cutthroat they may add up to more than the
/// hand's tricks.
pub fn all_sides(hand: &HandState, mode: Mode) -> PerSide<u8> {
    all_sides_with(hand, Teams::new(mode, None))
}

/// `all_sides` with the teams of the hand (dummy mode's declarer).
pub fn all_sides_with(hand: &HandState, teams: Teams) -> PerSide<u8> {
    let mode = teams.mode();
    if mode.sides() != 2 {
        return PerSide::from_fn(mode, |side| most_tricks_with(hand, teams, side));
    }
    // Two sides: the tricks one side takes at most, the other is held to
    // at least, so one search answers both.
    let first = Side::new(0);
    let future = Solver::new(team(hand, teams, first)).most(hand);
    let left = hand.tricks_left() as u8;
    PerSide::from_fn(mode, |side| {
        let won = teams.side_tricks(side, &hand.tricks_won());
        won + if side == first { future } else { left - future }
    })
}

/// The seats that play for `side`: those whose tricks count for it.
fn team(hand: &HandState, teams: Teams, side: Side) -> [bool; MAX_SEATS] {
    debug_assert_eq!(hand.seats(), teams.mode().seats(), "a hand of the mode");
    let mut ours = [false; MAX_SEATS];
    for seat in teams.mode().each_seat() {
        ours[seat.index()] = teams.scoring_side(seat) == side;
    }
    ours
}

/// One side's search: which seats play for it, and what has been proven.
struct Solver {
    ours: [bool; MAX_SEATS],
    table: HashMap<Key, Bounds, BuildHasherDefault<KeyHasher>>,
    /// Positions visited, and the most it may visit: past it every
    /// question is answered "no" at once and the answer is thrown away.
    visits: u64,
    limit: u64,
}

/// What is proven of the tricks still to come from a position: the side
/// takes at least `lo` and at most `hi` of them; `best` is the lead that
/// last settled a question there.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lo: u8,
    hi: u8,
    best: Option<Card>,
}

impl Solver {
    fn new(ours: [bool; MAX_SEATS]) -> Solver {
        Solver {
            ours,
            table: HashMap::default(),
            visits: 0,
            limit: u64::MAX,
        }
    }

    /// The most tricks still to come the side takes: the largest `k` it
    /// reaches, by bisection; each probe reuses what the others proved.
    fn most(&mut self, hand: &HandState) -> u8 {
        let (mut lo, mut hi) = (0, hand.tricks_left() as u8);
        while lo < hi && self.visits <= self.limit {
            let mid = (lo + hi).div_ceil(2);
            if self.reaches(hand, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Can the side take at least `need` of the tricks still to come?
    fn reaches(&mut self, hand: &HandState, need: u8) -> bool {
        if need == 0 {
            return true;
        }
        self.visits += 1;
        if self.visits > self.limit {
            return false;
        }
        let left = hand.tricks_left() as u8;
        if need > left {
            return false;
        }
        if left == 1 {
            return self.last_trick(hand);
        }
        // Only a trick's start is kept: mid-trick positions are many and
        // cheap. The first trick is left out, its house rules being in no
        // key (it is the root anyway).
        if hand.winning().is_some() || hand.tricks_done() == 0 {
            return self.tries(hand, need, None).0;
        }
        let key = Key::of(hand);
        let mut bounds = match self.table.get(&key) {
            Some(&b) => b,
            None => {
                let (lo, hi) = bounds::sure(hand, &self.ours);
                Bounds { lo, hi, best: None }
            }
        };
        if bounds.lo >= need {
            return true;
        }
        if bounds.hi < need {
            return false;
        }
        let (reached, best) = self.tries(hand, need, bounds.best);
        if reached {
            bounds.lo = need;
        } else {
            bounds.hi = need - 1;
        }
        bounds.best = best.or(bounds.best);
        self.table.insert(key, bounds);
        reached
    }

    /// Does the side take the last trick? Every seat has one card left, so
    /// there is nothing to choose.
    fn last_trick(&self, hand: &HandState) -> bool {
        let mut hand = *hand;
        loop {
            let Some(card) = hand.hands[hand.turn()].lowest() else {
                return false;
            };
            if let Some(done) = hand.play_unchecked(card) {
                return self.ours[done.winner.index()];
            }
        }
    }

    /// The seat to play tries its cards, the likeliest to settle the
    /// question first (`first` if it may play it), until one does; says
    /// the answer and the card that settled it.
    fn tries(&mut self, hand: &HandState, need: u8, first: Option<Card>) -> (bool, Option<Card>) {
        let playing_for_us = self.ours[hand.turn().index()];
        for card in order::ordered(hand, self.ours, first) {
            let mut next = *hand;
            let need = match next.play_unchecked(card) {
                Some(done) if self.ours[done.winner.index()] => need - 1,
                _ => need,
            };
            if self.reaches(&next, need) == playing_for_us {
                return (playing_for_us, Some(card));
            }
        }
        (!playing_for_us, None)
    }
}

/// A position at a trick's start, as far as the rest of the hand goes:
/// each seat's cards by their rank among the cards still out in their
/// suit, who leads, and whether spades may be led.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    hands: [u64; MAX_SEATS],
    lead: u8,
}

impl Key {
    fn of(hand: &HandState) -> Key {
        let mut held = [0u64; MAX_SEATS];
        for (bits, cards) in held.iter_mut().zip(hand.hands.iter()) {
            *bits = cards.bits();
        }
        let out = held.iter().fold(0, |all, &h| all | h);
        let mut hands = [0u64; MAX_SEATS];
        for suit in Suit::ALL {
            // Each suit keeps its place in the card's index, so the spades'
            // trumps above the ace still fit.
            let mut rank = suit as u32 * 13;
            let mut cards = out & CardSet::of_suit(suit).bits();
            while cards != 0 {
                let at = cards.trailing_zeros();
                cards &= cards - 1;
                for (packed, &bits) in hands.iter_mut().zip(&held) {
                    *packed |= ((bits >> at) & 1) << rank;
                }
                rank += 1;
            }
        }
        let lead = hand.leader().index() as u8 | u8::from(hand.spades_may_lead()) << 2;
        Key { hands, lead }
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &bits in &self.hands {
            state.write_u64(bits);
        }
        state.write_u8(self.lead);
    }
}

/// A fast multiplicative hash for the table's keys (no denial of service
/// to fear in a search of our own positions).
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
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

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
}

#[cfg(test)]
mod tests;
