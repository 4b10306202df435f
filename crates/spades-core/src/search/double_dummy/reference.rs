//! The answer the solver must give, found the plain way: minimax over every
//! legal card with an alpha-beta window, no table, no bounds, no order. Too
//! slow for whole deals; the tests hold the solver to it on short ones.

use crate::engine::play::HandState;
use crate::engine::seat::MAX_SEATS;

/// The tricks still to come that the seats `ours` take when they play for
/// them and every other seat plays against them.
pub(super) fn most(hand: &HandState, ours: &[bool; MAX_SEATS]) -> u8 {
    let left = hand.tricks_left() as i8;
    search(hand, ours, -1, left + 1) as u8
}

/// The value of `hand` if it lies strictly between `alpha` and `beta`;
/// otherwise a value at or beyond the bound it passes (fail-hard).
fn search(hand: &HandState, ours: &[bool; MAX_SEATS], mut alpha: i8, mut beta: i8) -> i8 {
    if hand.is_over() {
        return 0;
    }
    let maximizing = ours[hand.turn().index()];
    for card in hand.legal() {
        let mut next = *hand;
        let won = next
            .play_unchecked(card)
            .is_some_and(|done| ours[done.winner.index()]);
        let won = i8::from(won);
        let value = won + search(&next, ours, alpha - won, beta - won);
        if maximizing {
            alpha = alpha.max(value);
        } else {
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    if maximizing { alpha } else { beta }
}
