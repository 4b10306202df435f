//! Tricks a team is sure of at a trick's start, found without searching:
//! they settle many questions before any card is tried. Each bound also
//! says the cards whose ranks it rests on (for the table: `tt`), and only
//! those: the fewer, the more positions the table answers with it.

use crate::engine::card::Suit;
use crate::engine::cards::CardSet;
use crate::engine::play::HandState;
use crate::engine::seat::MAX_SEATS;

/// Tricks to come a team is sure of, and the cards whose ranks make it
/// sure: with more of those cards in the same hands the team takes at
/// least as many, so the bound holds wherever they have these holders.
#[derive(Debug, Clone, Copy)]
struct Sure {
    tricks: u8,
    ranks: CardSet,
}

/// Whether the seats `ours` take at least `need` of the tricks still to
/// come from `hand` (at a trick's start after the first trick), if the
/// sure tricks of either team settle it, with the cards whose ranks that
/// rests on.
pub(super) fn settle(
    hand: &HandState,
    ours: &[bool; MAX_SEATS],
    need: u8,
) -> Option<(bool, CardSet)> {
    let left = hand.tricks_left() as u8;
    let out = hand
        .hands
        .iter()
        .fold(CardSet::EMPTY, |all, &h| all.union(h));
    let (trumps, trumps_ours) = top_trumps(hand, out, ours);
    let cashed = cashable(hand, out);
    let cashed_ours = ours[hand.leader().index()];
    // The side reaches `need` when its own sure tricks do; it fails when
    // the other team's leave it fewer than `need`.
    for (sure, team_ours) in [(trumps, trumps_ours), (cashed, cashed_ours)] {
        let Some(sure) = sure else { continue };
        if team_ours && sure.tricks >= need {
            return Some((true, sure.ranks));
        }
        if !team_ours && left - sure.tricks.min(left) < need {
            return Some((false, sure.ranks));
        }
    }
    None
}

/// Tricks the team holding the highest trumps out is sure of, and whether
/// it is the side's: those trumps, while one team holds them all, each win
/// whatever trick they fall on, and one seat's fall on different tricks.
/// The ranks: the trumps of the seat counted.
fn top_trumps(hand: &HandState, out: CardSet, ours: &[bool; MAX_SEATS]) -> (Option<Sure>, bool) {
    let spades = out.suit(Suit::Spades);
    let holder = |card| hand.hands.iter().position(|h| h.contains(card));
    let Some(team) = spades.highest().and_then(holder).map(|seat| ours[seat]) else {
        return (None, false);
    };
    let mut run = [CardSet::EMPTY; MAX_SEATS];
    for card in spades.iter().rev() {
        match holder(card) {
            Some(seat) if ours[seat] == team => run[seat].insert(card),
            _ => break,
        }
    }
    // The seat with the most, and every card above its lowest (a card of
    // the partner's among them is still the team's).
    let most = run.iter().max_by_key(|cards| cards.len()).copied();
    let sure = most.and_then(|cards| {
        cards.lowest().map(|low| Sure {
            tricks: cards.len() as u8,
            ranks: spades.minus(spades.below(low)),
        })
    });
    (sure, team)
}

/// Winners the leader cashes one after another, keeping the lead: in each
/// suit it may lead, the top cards out that it holds, as many rounds as
/// every other seat holding a trump must follow (so nobody can ruff; a
/// seat without trumps never can). The leader's team takes at least these.
/// The ranks: the winners counted.
fn cashable(hand: &HandState, out: CardSet) -> Option<Sure> {
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
        let mut run = out
            .suit(suit)
            .iter()
            .rev()
            .take_while(|&card| held.contains(card))
            .count();
        if suit != Suit::Spades {
            for (seat, others) in hand.hands.pairs() {
                if seat != leader && others.has_suit(Suit::Spades) {
                    run = run.min(others.suit(suit).len() as usize);
                }
            }
        }
        ranks |= out.suit(suit).iter().rev().take(run).collect();
        tricks += run as u8;
    }
    (tricks > 0).then_some(Sure { tricks, ranks })
}
