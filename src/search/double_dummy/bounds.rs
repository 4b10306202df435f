//! Tricks a team is sure of at a trick's start, found without searching:
//! they bound the answer before any card is tried, and end the search of
//! a position whose question they already settle. Each also says the
//! cards whose ranks it rests on (for the table: `tt`).

use crate::engine::card::Suit;
use crate::engine::cards::CardSet;
use crate::engine::play::HandState;
use crate::engine::seat::MAX_SEATS;

/// The least and the most of the tricks still to come the seats `ours`
/// take from `hand`, at a trick's start after the first trick, and the
/// cards whose ranks the two rest on.
pub(super) fn sure(hand: &HandState, ours: &[bool; MAX_SEATS]) -> (u8, u8, CardSet) {
    let left = hand.tricks_left() as u8;
    let (mut lo, mut hi) = (0, left);
    let out = hand
        .hands
        .iter()
        .fold(CardSet::EMPTY, |all, &h| all.union(h));
    let (trumps, team, mut ranks) = top_trumps(hand, out, ours);
    if team {
        lo = trumps;
    } else {
        hi = left - trumps;
    }
    let (cashed, runs) = cashable(hand, out);
    let cashed = cashed.min(left);
    ranks |= runs;
    if ours[hand.leader().index()] {
        lo = lo.max(cashed);
    } else {
        hi = hi.min(left - cashed);
    }
    (lo, hi, ranks)
}

/// Tricks the team holding the highest trumps out is sure of, and whether
/// it is the side's: those trumps, while one team holds them all, each win
/// whatever trick they fall on, and one seat's fall on different tricks.
/// The ranks: those trumps and the one below them.
fn top_trumps(hand: &HandState, out: CardSet, ours: &[bool; MAX_SEATS]) -> (u8, bool, CardSet) {
    let spades = out.suit(Suit::Spades);
    let holder = |card| hand.hands.iter().position(|h| h.contains(card));
    let Some(team) = spades.highest().and_then(holder).map(|seat| ours[seat]) else {
        return (0, false, CardSet::EMPTY);
    };
    let mut count = [0u8; MAX_SEATS];
    let mut ranks = CardSet::EMPTY;
    for card in spades.iter().rev() {
        ranks.insert(card);
        match holder(card) {
            Some(seat) if ours[seat] == team => count[seat] += 1,
            _ => break,
        }
    }
    (count.iter().copied().max().unwrap_or(0), team, ranks)
}

/// Winners the leader cashes one after another, keeping the lead: in each
/// suit it may lead, the top cards out that it holds, as many rounds as
/// every other seat holding a trump must follow (so nobody can ruff; a
/// seat without trumps never can). The leader's team takes at least these.
/// The ranks: each suit's run and the card below it.
fn cashable(hand: &HandState, out: CardSet) -> (u8, CardSet) {
    let leader = hand.leader();
    let held = hand.hands[leader];
    let mut tricks = 0;
    let mut ranks = CardSet::EMPTY;
    for suit in Suit::ALL {
        if suit == Suit::Spades
            && !hand.spades_may_lead()
            && !held.minus(CardSet::of_suit(suit)).is_empty()
        {
            continue;
        }
        let mut run = 0;
        for card in out.suit(suit).iter().rev() {
            ranks.insert(card);
            if !held.contains(card) {
                break;
            }
            run += 1;
        }
        if suit != Suit::Spades {
            for (seat, others) in hand.hands.pairs() {
                if seat != leader && others.has_suit(Suit::Spades) {
                    run = run.min(others.suit(suit).len());
                }
            }
        }
        tricks += run as u8;
    }
    (tricks, ranks)
}
