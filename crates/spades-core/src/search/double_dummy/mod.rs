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
//! searches a table (`tt`) keeps, for positions at a trick's start, the
//! bounds proven on the tricks still to come, for every position that
//! differs only in cards whose ranks the proof did not rest on (partition
//! search). Sure tricks (`bounds`) settle many questions unsearched, and
//! the cards are tried likeliest first (`order`). Measured in
//! `docs/performance.md` (`cargo bench --bench double_dummy`).

mod bounds;
mod order;
mod tt;

use tt::{Lookup, Position, Proof, Table};

use crate::engine::card::Card;
use crate::engine::cards::CardSet;
use crate::engine::play::{HandState, TrickDone};
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

/// Whether the seats of `side` in `teams` take every trick still to come
/// from `hand`: one question, not the bisection of `most_tricks_with`, and
/// a claim that fails is usually refuted by the first tricks tried.
pub fn takes_every_trick(hand: &HandState, teams: Teams, side: Side) -> bool {
    let left = hand.tricks_left() as u8;
    Solver::new(team(hand, teams, side)).reaches(hand, left).0
}

/// Positions the solver may visit for one hand "with all cards seen":
/// most partnership deals need a few million, 25 million is a few seconds
/// on the slowest deals (`docs/performance.md`); past it the hand shows
/// no second opinion rather than hold up the review.
pub const ALL_SEEN_LIMIT: u64 = 25_000_000;

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
pub(crate) fn all_sides_with(hand: &HandState, teams: Teams) -> PerSide<u8> {
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
    table: Table,
    /// Positions visited, and the most it may visit: past it every
    /// question is answered "no" at once and the answer is thrown away.
    visits: u64,
    limit: u64,
}

/// An answer to "does the side take `need`?" and the cards whose ranks it
/// rests on: with every other card swapped for a lower one of its suit
/// held by the same seat, the answer stands.
type Answer = (bool, CardSet);

impl Solver {
    fn new(ours: [bool; MAX_SEATS]) -> Solver {
        Solver {
            ours,
            table: Table::default(),
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
            if self.reaches(hand, mid).0 {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Can the side take at least `need` of the tricks still to come?
    fn reaches(&mut self, hand: &HandState, need: u8) -> Answer {
        if need == 0 {
            return (true, CardSet::EMPTY);
        }
        self.visits += 1;
        if self.visits > self.limit {
            return (false, CardSet::EMPTY);
        }
        let left = hand.tricks_left() as u8;
        if need > left {
            return (false, CardSet::EMPTY);
        }
        if left == 1 {
            return self.last_trick(hand);
        }
        // Only a trick's start is kept: mid-trick positions are many and
        // cheap. The first trick is left out, its house rules being in no
        // key (it is the root anyway).
        if hand.winning().is_some() || hand.tricks_done() == 0 {
            let (reached, ranks, _) = self.tries(hand, need, None);
            return (reached, ranks);
        }
        let at = Position::of(hand);
        let first = match self.table.look(&at, need) {
            Lookup::Settled(reached, ranks) => return (reached, ranks),
            Lookup::Open(first) => first,
        };
        if let Some(settled) = bounds::settle(hand, &self.ours, need) {
            return settled;
        }
        let (reached, ranks, best) = self.tries(hand, need, first);
        let proof = Proof {
            need,
            left,
            reached,
            ranks,
            best,
        };
        self.table.keep(&at, proof);
        (reached, ranks)
    }

    /// Does the side take the last trick? Every seat has one card left, so
    /// there is nothing to choose.
    fn last_trick(&self, hand: &HandState) -> Answer {
        let mut hand = *hand;
        loop {
            let Some(card) = hand.hands[hand.turn()].lowest() else {
                return (false, CardSet::EMPTY);
            };
            if let Some(done) = hand.play_unchecked(card) {
                return (self.ours[done.winner.index()], deciding(&done));
            }
        }
    }

    /// The seat to play tries its cards, the likeliest to settle the
    /// question first (`first` if it may play it), until one does; says
    /// the answer, the ranks it rests on and the card that settled it.
    fn tries(
        &mut self,
        hand: &HandState,
        need: u8,
        first: Option<Card>,
    ) -> (bool, CardSet, Option<Card>) {
        let playing_for_us = self.ours[hand.turn().index()];
        // Failing, every card's answer counts.
        let mut ranks = CardSet::EMPTY;
        for card in order::ordered(hand, self.ours, first) {
            let mut next = *hand;
            let (need, trick) = match next.play_unchecked(card) {
                Some(done) => {
                    let won = self.ours[done.winner.index()];
                    (need - u8::from(won), deciding(&done))
                }
                None => (need, CardSet::EMPTY),
            };
            let (reached, below) = self.reaches(&next, need);
            if reached == playing_for_us {
                return (playing_for_us, below.union(trick), Some(card));
            }
            ranks = ranks.union(below).union(trick);
        }
        (!playing_for_us, ranks, None)
    }
}

/// The card whose rank decided a finished trick: its winner, when it beat
/// another card of its own suit (a card alone in its suit wins by the
/// seats' lengths, which the table keeps anyway).
fn deciding(done: &TrickDone) -> CardSet {
    let winner = done.cards[done.winner].unwrap_or_else(|| unreachable!("the winner played"));
    let contested = done
        .cards
        .iter()
        .flatten()
        .any(|&card| card != winner && card.suit() == winner.suit());
    if contested {
        CardSet::single(winner)
    } else {
        CardSet::EMPTY
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
