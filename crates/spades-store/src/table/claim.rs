//! Claiming the rest of the tricks. The player says the cards they play
//! take every trick left; the table, which alone holds the deal, checks it
//! with the double-dummy solver against any play of every other seat (a
//! partner included: a claim rests on the claimer's own cards). Granted,
//! the hand is played out at once as real plays, so the record, the save
//! and the replay hold a hand like any other; refused, the table finds the
//! line that beats it, for the session to show or keep to itself.
//!
//! The solver may take a moment early in a hand, so a screen checks a
//! claim in two steps: `check_claim` hands out a `ClaimCheck` to solve on
//! a thread of its own, and `settle_claim` takes its `ClaimVerdict` back.
//! Both are opaque: the deal they carry is read only here, so no seat
//! learns a card from them.

use crate::engine::play::trick_power;
use crate::engine::{Action, Card, Decision, Game, HandState, Mode, Seat, Side, Teams, TrickDone};
use crate::save::Step;
use crate::search::double_dummy::{most_tricks_with, takes_every_trick};

use super::Table;

/// Why a claim is not granted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimRefusal {
    /// A claim is made at the claimer's turn to play a card.
    NotYourTurn,
    /// Some play of the others takes a trick: the line of play that shows
    /// it (always found, unless the solver and the line disagree).
    Beaten(Option<Beaten>),
    /// The hand moved on while the claim was being checked.
    Stale,
}

/// A claim to check: the deal as it stands when it is made, and who
/// claims. Solved away from the table (`solve`), whose deal it copies.
pub struct ClaimCheck {
    hand: HandState,
    teams: Teams,
    side: Side,
}

/// What the solver found of a claim, for the table that asked to settle.
pub struct ClaimVerdict {
    /// The deal the claim was checked on, to know the hand has not moved.
    hand: HandState,
    outcome: Result<Vec<Card>, Option<Beaten>>,
}

/// Printed, a check and a verdict show nothing of the deal they carry.
impl std::fmt::Debug for ClaimCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClaimCheck { .. }")
    }
}

impl std::fmt::Debug for ClaimVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClaimVerdict { .. }")
    }
}

impl ClaimCheck {
    /// Checks the claim against any play of the others: the line that
    /// plays it out, or the one that beats it.
    pub fn solve(self) -> ClaimVerdict {
        let ClaimCheck { hand, teams, side } = self;
        let outcome =
            claimed_line(&hand, teams, side).ok_or_else(|| beating_line(&hand, teams, side));
        ClaimVerdict { hand, outcome }
    }
}

/// The line that beats a claim: the claimer plays for the most tricks and
/// the others against them, until one of the others wins a trick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beaten {
    /// The claimer's cards played before the trick they lose, in order.
    pub before: Vec<Card>,
    /// The trick the claim loses, every card of it.
    pub trick: TrickDone,
    /// The claimer's card in that trick that came nearest to winning it
    /// (with a dummy, the better of the two).
    pub yours: Option<Card>,
}

/// Who claims: the seats whose cards `claimer` plays this hand (their
/// own, and the dummy's when they declare), as the side the solver plays
/// for, every other seat playing against it.
fn claiming(game: &Game, claimer: Seat) -> (Teams, Side) {
    let teams = match game.mode() {
        // Partners play apart here: the claim is on the claimer's cards.
        // Individual teams seat every one of the four seats alone.
        Mode::Partnership => Teams::new(Mode::Individual, None),
        _ => game.teams(),
    };
    (teams, teams.scoring_side(claimer))
}

/// Does the claim still hold once `card` is played from `hand`: the trick
/// it may end is the side's, and every trick after it?
fn still_holds(hand: &HandState, card: Card, teams: Teams, side: Side) -> bool {
    let mut next = *hand;
    match next.play_unchecked(card) {
        Some(trick) if teams.scoring_side(trick.winner) != side => false,
        _ => takes_every_trick(&next, teams, side),
    }
}

/// The cards the seat to play may play that play differently, highest
/// first.
fn choices(hand: &HandState) -> Vec<Card> {
    hand.distinct_legal().iter().rev().collect()
}

/// The rest of the hand when the claim holds: the claimer plays a card
/// that keeps it whole each time (the highest that does), the others their
/// lowest legal card (any would do: the claim holds against all of them).
/// `None` when the claim does not hold.
pub fn claimed_line(hand: &HandState, teams: Teams, side: Side) -> Option<Vec<Card>> {
    if !takes_every_trick(hand, teams, side) {
        return None;
    }
    let mut hand = *hand;
    let mut line = Vec::new();
    while !hand.is_over() {
        let card = if teams.scoring_side(hand.turn()) == side {
            choices(&hand)
                .into_iter()
                .find(|&card| still_holds(&hand, card, teams, side))?
        } else {
            hand.legal().lowest()?
        };
        hand.play_unchecked(card);
        line.push(card);
    }
    Some(line)
}

/// The line that beats a claim that does not hold: the claimer plays for
/// the most tricks, the others the lowest card that still beats the claim,
/// up to the first trick the claimer loses.
pub fn beating_line(hand: &HandState, teams: Teams, side: Side) -> Option<Beaten> {
    let mut hand = *hand;
    let (mut before, mut this_trick) = (Vec::new(), Vec::new());
    while !hand.is_over() {
        let ours = teams.scoring_side(hand.turn()) == side;
        let after = |card: Card| {
            let mut next = hand;
            next.play_unchecked(card);
            next
        };
        let mut low_first = choices(&hand);
        low_first.reverse();
        let card = if ours {
            // The last of the best is the highest of them.
            low_first
                .into_iter()
                .max_by_key(|&card| most_tricks_with(&after(card), teams, side))?
        } else {
            low_first
                .into_iter()
                .find(|&card| !still_holds(&hand, card, teams, side))?
        };
        if ours {
            this_trick.push(card);
        }
        let Some(trick) = hand.play_unchecked(card) else {
            continue;
        };
        if teams.scoring_side(trick.winner) != side {
            let led = trick.cards[trick.leader].map_or(0, |c| c.suit() as u8);
            let yours = teams
                .mode()
                .each_seat()
                .filter(|&s| teams.scoring_side(s) == side)
                .filter_map(|s| trick.cards[s])
                .max_by_key(|&card| trick_power(card, led));
            return Some(Beaten {
                before,
                trick,
                yours,
            });
        }
        before.append(&mut this_trick);
    }
    None
}

impl Table {
    /// `claimer` claims every trick left: granted, the hand is played out
    /// at once (each card journaled, recorded and told as if played) and
    /// the number of tricks claimed returned; refused, the line that beats
    /// it. Only at the claimer's turn to play.
    pub fn claim(&mut self, claimer: Seat) -> Result<u8, ClaimRefusal> {
        let verdict = self.check_claim(claimer)?.solve();
        self.settle_claim(verdict)
    }

    /// The first step of `claim`: the check to solve, at the claimer's
    /// turn to play a card.
    pub fn check_claim(&self, claimer: Seat) -> Result<ClaimCheck, ClaimRefusal> {
        let turn = self.human_turn().ok_or(ClaimRefusal::NotYourTurn)?;
        if turn.decision != Decision::Play || self.player_for(turn.seat) != claimer {
            return Err(ClaimRefusal::NotYourTurn);
        }
        let (teams, side) = claiming(&self.game, claimer);
        Ok(ClaimCheck {
            hand: *self.game.hand_state(),
            teams,
            side,
        })
    }

    /// The last step of `claim`: a verdict on this very position played
    /// out, or refused. A verdict on a hand that has moved on since is
    /// `Stale`.
    pub fn settle_claim(&mut self, verdict: ClaimVerdict) -> Result<u8, ClaimRefusal> {
        if verdict.hand != *self.game.hand_state() {
            return Err(ClaimRefusal::Stale);
        }
        let line = verdict.outcome.map_err(ClaimRefusal::Beaten)?;
        for card in line {
            let seat = self.game.hand_state().turn();
            let action = Action::Play(card);
            // Every card of the line is legal where it is played: the
            // engine says so again, and a refusal would stop the line.
            let Ok(events) = self.game.apply(seat, action) else {
                break;
            };
            self.journal(Step::Act { seat, action });
            self.publish(events);
        }
        Ok(verdict.hand.tricks_left() as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{CardSet, Deal, Jokers, PerSeat};

    fn cards(text: &str) -> CardSet {
        text.split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    /// A partnership ending, seat 0 to lead, spades not broken.
    fn ending(hands: [&str; 4]) -> HandState {
        let hands = PerSeat::from_slice(&hands.map(cards)).unwrap();
        HandState::new(hands, Seat::new(0))
    }

    /// Seat 0 claims, in partnership: its own cards against the other three.
    fn seat0() -> (Teams, Side) {
        let teams = Teams::new(Mode::Individual, None);
        (teams, teams.scoring_side(Seat::new(0)))
    }

    #[test]
    fn top_spades_take_every_trick_and_the_line_plays_them() {
        let hand = ending(["AS KS QS", "2H 3H 4H", "5D 6D 7D", "2C 3C 4C"]);
        let (teams, side) = seat0();
        let line = claimed_line(&hand, teams, side).expect("the claim holds");
        assert_eq!(line.len(), 12);
        let mut played = hand;
        for card in line {
            assert!(played.legal().contains(card), "{card} is legal");
            played.play_unchecked(card);
        }
        assert_eq!(played.tricks_won()[Seat::new(0)], 3);
        assert!(beating_line(&hand, teams, side).is_none());
    }

    #[test]
    fn a_higher_card_out_beats_the_claim() {
        // Spades unbroken: seat 0 must lead the heart, into West's ace.
        let hand = ending(["AS KH", "AH 2C", "3C 4C", "5C 6C"]);
        let (teams, side) = seat0();
        assert_eq!(claimed_line(&hand, teams, side), None);
        let beaten = beating_line(&hand, teams, side).expect("a line beats it");
        assert!(beaten.before.is_empty());
        assert_eq!(beaten.trick.winner, Seat::new(1));
        assert_eq!(
            beaten.trick.cards[Seat::new(1)],
            Some(cards("AH").lowest().unwrap())
        );
        assert_eq!(beaten.yours, cards("KH").lowest());
    }

    #[test]
    fn a_ruff_beats_the_claim_after_the_sure_tricks() {
        // The club ace first, then the heart king, which East ruffs.
        let hand = ending(["AC KH AS", "2H 3C 4C", "5C 6C 7C", "8C 9C 2S"]);
        let (teams, side) = seat0();
        assert_eq!(claimed_line(&hand, teams, side), None);
        let beaten = beating_line(&hand, teams, side).expect("a line beats it");
        assert_eq!(beaten.trick.winner, Seat::new(3));
        assert_eq!(beaten.trick.cards[Seat::new(3)], cards("2S").lowest());
        assert_eq!(beaten.yours, cards("KH").lowest());
    }

    #[test]
    fn a_partner_who_may_overtake_beats_the_claim() {
        // Seat 0 holds only spades, so it may lead them; its partner's ace
        // could take the king: the claim rests on seat 0's own cards.
        let hand = ending(["KS QS", "2H 3H", "AS 2C", "4C 5C"]);
        let (teams, side) = seat0();
        assert_eq!(claimed_line(&hand, teams, side), None);
        let beaten = beating_line(&hand, teams, side).expect("a line beats it");
        assert_eq!(beaten.trick.winner, Seat::new(2));
    }

    /// Does seat 0 take every trick left whatever the others play? Every
    /// play tried: small endings only.
    fn brute_force(hand: &HandState) -> bool {
        if hand.is_over() {
            return true;
        }
        let ours = hand.turn() == Seat::new(0);
        let mut each = hand.legal().iter().map(|card| {
            let mut next = *hand;
            match next.play_unchecked(card) {
                Some(done) if done.winner != Seat::new(0) => false,
                _ => brute_force(&next),
            }
        });
        if ours {
            each.any(|b| b)
        } else {
            each.all(|b| b)
        }
    }

    #[test]
    fn claims_agree_with_every_play_tried_on_small_endings() {
        let (teams, side) = seat0();
        let (mut granted, mut refused) = (0, 0);
        for seed in 0..300u64 {
            let dealt = Deal::from_seed_in(Jokers::None, seed, 1, Mode::Partnership, Seat::new(3));
            // Three cards a seat: the seat's highest, so claims happen.
            let keep = 3 - usize::from(seed % 2 == 1);
            let hands = dealt
                .hands
                .map(|held| held.iter().rev().take(keep).collect());
            let hand = HandState::new(hands, Seat::new((seed % 4) as usize));
            let line = claimed_line(&hand, teams, side);
            assert_eq!(line.is_some(), brute_force(&hand), "seed {seed}: {hand:?}");
            match line {
                Some(line) => {
                    granted += 1;
                    let mut played = hand;
                    for card in line {
                        assert!(played.legal().contains(card));
                        played.play_unchecked(card);
                    }
                    assert_eq!(played.tricks_won()[Seat::new(0)] as usize, keep);
                }
                None => {
                    refused += 1;
                    let beaten = beating_line(&hand, teams, side).expect("a line");
                    assert_ne!(beaten.trick.winner, Seat::new(0), "seed {seed}");
                }
            }
        }
        assert!(
            granted > 5 && refused > 5,
            "{granted} granted, {refused} refused"
        );
    }
}
