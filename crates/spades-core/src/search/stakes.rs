//! What a played-out hand is worth in game terms: its points, bags, bag
//! penalties and nils exactly as `score` counts them, and how the totals
//! after it bear on winning the game. A point is worth more to a side
//! close behind than to one far ahead, and nothing once the game is
//! decided, so a search compares hands by the chance of winning they leave.

use crate::engine::bid::Bid;
use crate::engine::rules::Rules;
use crate::engine::score::{SideScore, SideTotals, game_winner, score_hand};
use crate::engine::seat::{PerSeat, PerSide};

/// Points a side usually scores in a hand: how fast a game runs to its
/// target.
const POINTS_PER_HAND: f32 = 60.0;
/// How far apart two sides' scores drift in one hand: the spread of the
/// final margin grows with the square root of the hands still to play.
const SWING_PER_HAND: f32 = 70.0;

/// One played-out hand in game terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandOutcome {
    /// Every side's score for the hand, as the game would record it.
    pub sides: PerSide<SideScore>,
    /// Every side's chance of winning the game from the totals after it.
    pub win: PerSide<f32>,
}

/// Scores a hand played out with these bids and tricks from the totals
/// `before`, and values the game it leaves.
#[inline]
pub fn hand_outcome(
    rules: &Rules,
    bids: &PerSeat<Bid>,
    tricks: &PerSeat<u8>,
    before: &PerSide<SideTotals>,
) -> HandOutcome {
    let sides = score_hand(rules, bids, tricks, before);
    let after = sides.map(|s| SideTotals {
        score: s.score,
        bags: s.bags,
    });
    HandOutcome {
        sides,
        win: win_chances(rules, &after),
    }
}

/// Every side's chance of winning the game from these totals: certain
/// once the game is decided, else a smooth guess. Each side's standing is
/// its score less the share of the next bag penalty its bags have run up;
/// the chances are a softmax of the standings over the spread of scores
/// the hands still to play make (about `(target - leading score) / 60`).
pub fn win_chances(rules: &Rules, totals: &PerSide<SideTotals>) -> PerSide<f32> {
    let scores = totals.map(|t| t.score);
    if let Some(winner) = game_winner(rules, scores.as_slice()) {
        return PerSide::from_fn(rules.mode, |side| f32::from(u8::from(side == winner)));
    }
    let bag_cost = if rules.bags.limit > 0 {
        rules.bags.penalty as f32 / rules.bags.limit as f32
    } else {
        0.0
    };
    let standing = totals.map(|t| t.score as f32 - bag_cost * t.bags as f32);
    let leading = scores.iter().copied().max().unwrap_or(0);
    let hands_left = ((rules.target_score - leading).max(0) as f32 / POINTS_PER_HAND).max(1.0);
    let spread = SWING_PER_HAND * hands_left.sqrt();
    let best = standing.iter().copied().fold(f32::MIN, f32::max);
    let odds = standing.map(|s| ((s - best) / spread).exp());
    let sum: f32 = odds.iter().sum();
    odds.map(|o| o / sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::seat::{Mode, Side};

    fn chance(rules: &Rules, mine: (i32, i32), theirs: (i32, i32)) -> f32 {
        let totals = PerSide::from_slice(&[
            SideTotals {
                score: mine.0,
                bags: mine.1,
            },
            SideTotals {
                score: theirs.0,
                bags: theirs.1,
            },
        ])
        .unwrap();
        let win = win_chances(rules, &totals);
        assert!((win.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{win:?}");
        win[Side::new(0)]
    }

    #[test]
    fn a_lead_is_worth_more_near_the_target() {
        let rules = Rules::classic(Mode::Partnership);
        assert!((chance(&rules, (100, 0), (100, 0)) - 0.5).abs() < 1e-6);
        let early = chance(&rules, (60, 0), (0, 0));
        let late = chance(&rules, (460, 0), (400, 0));
        assert!(0.5 < early && early < late && late < 1.0, "{early} {late}");
        assert!(chance(&rules, (200, 8), (200, 1)) < 0.5, "bags cost");
    }

    #[test]
    fn a_decided_game_is_certain() {
        let rules = Rules::classic(Mode::Partnership);
        assert_eq!(chance(&rules, (510, 0), (480, 0)), 1.0);
        assert_eq!(chance(&rules, (480, 0), (520, 0)), 0.0);
        // Both past the target and level: another hand, still open.
        assert!((chance(&rules, (520, 0), (520, 0)) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_hand_outcome_is_the_games_score() {
        let rules = Rules::classic(Mode::Partnership);
        let bids = PerSeat::from_slice(&[Bid::Tricks(4), Bid::Nil, Bid::Tricks(3), Bid::Tricks(5)])
            .unwrap();
        let tricks = PerSeat::from_slice(&[5, 1, 3, 4]).unwrap();
        let before = PerSide::filled(
            Mode::Partnership,
            SideTotals {
                score: 480,
                bags: 9,
            },
        );
        let outcome = hand_outcome(&rules, &bids, &tricks, &before);
        assert_eq!(outcome.sides, score_hand(&rules, &bids, &tricks, &before));
        // Side 0 made 7 with a bag: 71 points and the bag penalty, 451.
        assert_eq!(outcome.sides[Side::new(0)].score, 451);
        // Side 1 lost the nil and set its 5: 480 - 100 - 50 + (bags 1 -> 10: -100).
        assert_eq!(outcome.sides[Side::new(1)].score, 230);
        assert!(outcome.win[Side::new(0)] > 0.9);
    }
}
