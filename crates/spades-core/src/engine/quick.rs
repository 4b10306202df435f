//! Quick Play (seed 004): instead of playing to a target, a run of hands
//! that lasts as long as the player's side has lives. Each bid the side
//! loses costs a life: a set contract always, a failed nil or blind nil
//! when `game.failed_nil_costs_life`. The run ends after the hand that
//! takes its last life, and its result is the side's total score.

use super::rules::Rules;
use super::score::SideScore;
use super::seat::{Mode, Seat, Side};

/// The seat whose side has the lives: the player's (seat 0 in a game at
/// the table; in `spades sim`, whichever bot sits there).
const PLAYER: Seat = Seat::new(0);

/// The side that has the lives.
pub fn run_side(mode: Mode) -> Side {
    mode.side_of(PLAYER)
}

/// Lives a side's hand costs it: one for a set contract, and one for each
/// failed nil when the rules say so.
pub fn lives_lost(rules: &Rules, side: &SideScore) -> u8 {
    let set = side.contract.is_some_and(|c| !c.made());
    let failed_nils = if rules.game.failed_nil_costs_life {
        side.nils.iter().flatten().filter(|n| !n.made()).count()
    } else {
        0
    };
    u8::from(set) + failed_nils as u8
}

/// Lives left after a hand that cost `lost`, from `before` (never below 0).
pub fn lives_after(before: u8, lost: u8) -> u8 {
    before.saturating_sub(lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The worked examples of lives lost are in tests/engine/quick.rs.
    #[test]
    fn lives_never_go_below_none() {
        assert_eq!(lives_after(1, 2), 0);
        assert_eq!(lives_after(3, 1), 2);
    }
}
