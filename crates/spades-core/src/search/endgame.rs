//! The last tricks of a hand searched exactly. With every hand known (a
//! guessed deal) and few cards left, every way of playing them out is
//! tried: each seat plays the card that leaves its own side best off
//! (max-n; with two sides this is minimax), cards equal in play tried once
//! (`HandState::distinct_legal`). A search uses it in place of a playout's
//! habits once the hand is this short: no habit misplays the last tricks.

use crate::engine::play::HandState;
use crate::engine::seat::{Mode, PerSeat, PerSide};

/// Tricks left at which the exact search takes over: at most `(3!)^4`
/// lines of play on a deal, a few microseconds in practice
/// (`cargo bench --bench search`).
pub const EXACT_TRICKS: usize = 3;

/// The tricks each seat ends the hand with when every seat plays its best
/// for its side, `value` saying what a finished hand's tricks are worth
/// to each side. On a tie a seat plays its lowest card.
pub fn solve(
    hand: HandState,
    mode: Mode,
    value: &impl Fn(&PerSeat<u8>) -> PerSide<f32>,
) -> PerSeat<u8> {
    best_line(hand, mode, value).0
}

fn best_line(
    hand: HandState,
    mode: Mode,
    value: &impl Fn(&PerSeat<u8>) -> PerSide<f32>,
) -> (PerSeat<u8>, PerSide<f32>) {
    if hand.is_over() {
        let tricks = hand.tricks_won();
        return (tricks, value(&tricks));
    }
    let side = mode.side_of(hand.turn());
    let mut best: Option<(PerSeat<u8>, PerSide<f32>)> = None;
    for card in hand.distinct_legal() {
        let mut next = hand;
        next.play_unchecked(card);
        let line = best_line(next, mode, value);
        if best.is_none_or(|(_, b)| line.1[side] > b[side]) {
            best = Some(line);
        }
    }
    best.expect("the seat to play holds a card")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::set;
    use crate::engine::seat::{Seat, Side};

    /// Each side values its own tricks.
    fn tricks_count(mode: Mode) -> impl Fn(&PerSeat<u8>) -> PerSide<f32> {
        move |t: &PerSeat<u8>| {
            let mut v = PerSide::filled(mode, 0.0);
            for seat in mode.each_seat() {
                v[mode.side_of(seat)] += f32::from(t[seat]);
            }
            v
        }
    }

    #[test]
    fn the_last_tricks_go_to_the_side_that_plays_them_best() {
        let mode = Mode::Partnership;
        // Seat 0 leads from AH QH. The queen first loses to the KH, and
        // seat 1's 2C then strands the ace: no trick. The ace first, then
        // the queen, takes both.
        let hands =
            PerSeat::from_slice(&[set("AH QH"), set("KH 2C"), set("3D 4D"), set("5D 6D")]).unwrap();
        let hand = HandState::new(hands, Seat::new(0));
        let tricks = solve(hand, mode, &tricks_count(mode));
        assert_eq!(tricks[Seat::new(0)], 2, "{tricks:?}");
        assert_eq!(tricks[Seat::new(1)], 0, "{tricks:?}");
    }

    #[test]
    fn each_seat_plays_for_its_own_side() {
        let mode = Mode::Partnership;
        // Seat 1 must follow to the KD led; holding AD and 2D, it takes
        // the trick with the ace.
        let hands = PerSeat::from_slice(&[set("KD"), set("AD"), set("3C"), set("4C")]).unwrap();
        let hand = HandState::new(hands, Seat::new(0));
        let tricks = solve(hand, mode, &tricks_count(mode));
        assert_eq!(tricks[Seat::new(1)], 1);
        // Valued the other way round (side 1 wants no tricks, a nil), the
        // same seat ducks when it can.
        let hands =
            PerSeat::from_slice(&[set("KD 5H"), set("AD 2D"), set("3C 6H"), set("4C 7H")]).unwrap();
        let hand = HandState::new(hands, Seat::new(0));
        let nil = |t: &PerSeat<u8>| {
            let mut v = tricks_count(mode)(t);
            v[Side::new(1)] = -f32::from(t[Seat::new(1)]);
            v
        };
        let tricks = solve(hand, mode, &nil);
        assert_eq!(tricks[Seat::new(1)], 0, "{tricks:?}");
    }
}
