//! Scoring a hand exactly as rules-toml.md words it, and deciding the game.

use super::bid::Bid;
use super::rules::Rules;
use super::seat::{MAX_SEATS, Mode, Seat};

/// A side's running totals between hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideTotals {
    pub score: i32,
    pub bags: i32,
}

/// How one nil or blind nil went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NilResult {
    pub seat: Seat,
    pub blind: bool,
    pub tricks: u8,
    /// `+value` when made, `-value` when lost.
    pub points: i32,
}

impl NilResult {
    pub fn made(&self) -> bool {
        self.tricks == 0
    }
}

/// How the numeric bids of a side went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContractResult {
    pub bid: u8,
    /// Tricks won by the side's numeric bidders (never a nil bidder's).
    pub taken: u8,
    /// `10 * bid + overtricks` when made, `-10 * bid` when set.
    pub points: i32,
}

impl ContractResult {
    pub fn made(&self) -> bool {
        self.taken >= self.bid
    }
}

/// One side's score for a hand, every step kept so it can be shown line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideScore {
    pub nils: [Option<NilResult>; 2],
    /// `None` when every seat of the side bid nil.
    pub contract: Option<ContractResult>,
    pub bags_added: i32,
    /// How many times the bag count reached the limit this hand.
    pub penalties: u32,
    /// Points taken off for bags (0 if none).
    pub penalty: i32,
    /// The change in score this hand, penalty included.
    pub points: i32,
    /// Totals after the hand.
    pub score: i32,
    pub bags: i32,
}

impl SideScore {
    /// The side's totals before this hand, worked back from the hand's own
    /// figures (penalties took `limit` bags each off the count).
    pub fn totals_before(&self, bag_limit: i32) -> SideTotals {
        SideTotals {
            score: self.score - self.points,
            bags: self.bags + self.penalties as i32 * bag_limit - self.bags_added,
        }
    }
}

/// Scores one side given each of its seats' bid and tricks. Points stop at
/// the ends of `i32` rather than overflow, whatever values the rules hold (a
/// record's rules are replayed as written).
#[inline]
pub fn score_side(rules: &Rules, seats: &[(Seat, Bid, u8)], before: SideTotals) -> SideScore {
    let mut nils = [None; 2];
    let mut points: i32 = 0;
    let mut bags_added = 0;
    let (mut bid, mut taken, mut has_contract) = (0u8, 0u8, false);
    let mut nil_count = 0;
    for &(seat, b, tricks) in seats {
        match b {
            Bid::Nil | Bid::BlindNil => {
                let blind = b == Bid::BlindNil;
                let value = if blind {
                    rules.blind_nil.value
                } else {
                    rules.nil.value
                };
                let nil_points = if tricks == 0 {
                    value
                } else {
                    value.saturating_neg()
                };
                points = points.saturating_add(nil_points);
                bags_added += i32::from(tricks);
                if nil_count < nils.len() {
                    nils[nil_count] = Some(NilResult {
                        seat,
                        blind,
                        tricks,
                        points: nil_points,
                    });
                    nil_count += 1;
                }
            }
            Bid::Tricks(n) => {
                has_contract = true;
                bid += n;
                taken += tricks;
            }
        }
    }
    let contract = has_contract.then(|| {
        let contract_points = if taken >= bid {
            let over = i32::from(taken - bid);
            bags_added += over;
            10 * i32::from(bid) + over
        } else {
            -10 * i32::from(bid)
        };
        points = points.saturating_add(contract_points);
        ContractResult {
            bid,
            taken,
            points: contract_points,
        }
    });
    let mut bags = before.bags + bags_added;
    let mut penalties = 0;
    // A limit below 1 never comes off (Rules::validate rejects it anyway).
    while rules.bags.limit > 0 && bags >= rules.bags.limit {
        bags -= rules.bags.limit;
        penalties += 1;
    }
    let penalty = (penalties as i32).saturating_mul(rules.bags.penalty);
    points = points.saturating_sub(penalty);
    SideScore {
        nils,
        contract,
        bags_added,
        penalties,
        penalty,
        points,
        score: before.score.saturating_add(points),
        bags,
    }
}

/// Scores every side of a hand.
pub fn score_hand(
    rules: &Rules,
    bids: &[Bid],
    tricks: &[u8],
    before: &[SideTotals],
) -> Vec<SideScore> {
    score_sides(rules, bids, tricks, before)[..rules.mode.sides()].to_vec()
}

/// `score_hand` without allocating, for playouts that score millions of
/// hands: the first `mode.sides()` entries are the sides' scores, the rest
/// score nothing. Inlined so that callers reading only some fields do not
/// pay for building the rest.
#[inline]
pub fn score_sides(
    rules: &Rules,
    bids: &[Bid],
    tricks: &[u8],
    before: &[SideTotals],
) -> [SideScore; MAX_SEATS] {
    let mode = rules.mode;
    let mut scores = [NO_SIDE; MAX_SEATS];
    for (side, score) in scores.iter_mut().enumerate().take(mode.sides()) {
        let mut seats = [(0, Bid::Nil, 0); MAX_SEATS];
        let mut len = 0;
        for s in mode.side_seats(side) {
            seats[len] = (s, bids[s], tricks[s]);
            len += 1;
        }
        *score = score_side(rules, &seats[..len], before[side]);
    }
    scores
}

/// A side with no seats: nothing bid, nothing scored.
const NO_SIDE: SideScore = SideScore {
    nils: [None; 2],
    contract: None,
    bags_added: 0,
    penalties: 0,
    penalty: 0,
    points: 0,
    score: 0,
    bags: 0,
};

/// The winning side once the game is decided: some side at or past the
/// target (or at or below the losing score) and one side strictly highest.
pub fn game_winner(rules: &Rules, scores: &[i32]) -> Option<usize> {
    let reached = scores
        .iter()
        .any(|&s| s >= rules.target_score || rules.losing_score.is_some_and(|l| s <= l));
    if !reached {
        return None;
    }
    let best = *scores.iter().max()?;
    let mut leaders = scores.iter().enumerate().filter(|&(_, &s)| s == best);
    let (winner, _) = leaders.next()?;
    leaders.next().is_none().then_some(winner)
}

/// How far a side trails the highest other side (0 when it leads or ties).
pub fn deficit(mode: Mode, scores: &[i32; MAX_SEATS], side: usize) -> i32 {
    let best_other = (0..mode.sides())
        .filter(|&o| o != side)
        .map(|o| scores[o])
        .max()
        .unwrap_or(scores[side]);
    best_other.saturating_sub(scores[side]).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_before_undo_the_hand_even_across_penalties() {
        let rules = Rules::default();
        for (bags, tricks) in [(0, 5), (8, 13), (9, 2), (19, 13)] {
            let before = SideTotals { score: 120, bags };
            let side = score_side(
                &rules,
                &[(0, Bid::Tricks(2), tricks), (2, Bid::Nil, 1)],
                before,
            );
            assert_eq!(
                side.totals_before(rules.bags.limit),
                before,
                "{bags} bags, {tricks} tricks"
            );
        }
    }
}
