//! Scoring a hand exactly as rules-toml.md words it, and deciding the game.

use super::bid::Bid;
use super::rules::Rules;
use super::seat::{Mode, PerSeat, PerSide, Seat, Side};

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

/// A side's contract as rules-toml.md defines it: the sum of its numeric
/// bids, and the tricks won by the seats that made them (never a nil
/// bidder's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contract {
    pub bid: u8,
    pub taken: u8,
}

impl Contract {
    /// The contract of a side whose seats made these bids and took these
    /// tricks; `None` when no seat made a numeric bid.
    #[inline]
    pub fn of(seats: impl IntoIterator<Item = (Bid, u8)>) -> Option<Contract> {
        let mut contract = None;
        for (bid, tricks) in seats {
            if let Bid::Tricks(n) = bid {
                let c = contract.get_or_insert(Contract { bid: 0, taken: 0 });
                c.bid += n;
                c.taken += tricks;
            }
        }
        contract
    }

    /// Tricks still to take to make it (0 once made).
    pub fn need(&self) -> u8 {
        self.bid.saturating_sub(self.taken)
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

/// Scores one side given each of its seats' bid and tricks.
#[inline]
pub fn score_side(rules: &Rules, seats: &[(Seat, Bid, u8)], before: SideTotals) -> SideScore {
    let mut nils = [None; 2];
    let mut points = 0;
    let mut bags_added = 0;
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
                let nil_points = if tricks == 0 { value } else { -value };
                points += nil_points;
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
            Bid::Tricks(_) => {}
        }
    }
    let contract = Contract::of(seats.iter().map(|&(_, b, tricks)| (b, tricks)));
    let contract = contract.map(|Contract { bid, taken }| {
        let contract_points = if taken >= bid {
            let over = i32::from(taken - bid);
            bags_added += over;
            10 * i32::from(bid) + over
        } else {
            -10 * i32::from(bid)
        };
        points += contract_points;
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
    let penalty = penalties as i32 * rules.bags.penalty;
    points -= penalty;
    SideScore {
        nils,
        contract,
        bags_added,
        penalties,
        penalty,
        points,
        // Saturating: a game that never ends could otherwise run a score
        // past `i32`'s range after some hundred thousand hands.
        score: before.score.saturating_add(points),
        bags,
    }
}

/// Scores every side of a hand from each seat's bid and tricks, without
/// allocating: playouts score millions of hands. Inlined so that callers
/// reading only some fields do not pay for building the rest.
#[inline]
pub fn score_hand(
    rules: &Rules,
    bids: &PerSeat<Bid>,
    tricks: &PerSeat<u8>,
    before: &PerSide<SideTotals>,
) -> PerSide<SideScore> {
    let mode = rules.mode;
    PerSide::from_fn(mode, |side| {
        let mut seats = [(Seat::new(0), Bid::Nil, 0); 2];
        let mut len = 0;
        for s in mode.side_seats(side) {
            seats[len] = (s, bids[s], tricks[s]);
            len += 1;
        }
        score_side(rules, &seats[..len], before[side])
    })
}

/// The winning side once the scores decide the game: some side at or past
/// the target (or at or below the losing score) and one side strictly
/// highest. A Quick Play run has no target: only its lives end it.
pub fn game_winner(rules: &Rules, scores: &[i32]) -> Option<Side> {
    let reached = !rules.is_quick()
        && scores
            .iter()
            .any(|&s| s >= rules.target_score || rules.losing_score.is_some_and(|l| s <= l));
    if !reached {
        return None;
    }
    sole_leader(scores)
}

/// Who wins when a hand ends the game, if one does: the scores (see
/// [`game_winner`]); or, with `game.hands` set, that many hands played,
/// when one side is strictly highest (level leaders play another hand);
/// or a Quick Play run's last life lost (`lives_left` is the player's
/// side's, `None` outside Quick Play), which ends it whatever the
/// scores: the highest wins, level leaders going to the lowest-numbered
/// side.
pub fn game_end(
    rules: &Rules,
    scores: &[i32],
    hands_played: u32,
    lives_left: Option<u8>,
) -> Option<Side> {
    if lives_left == Some(0) {
        let best = *scores.iter().max()?;
        return scores
            .iter()
            .position(|&s| s == best)
            .and_then(Side::from_index);
    }
    let out_of_hands = rules.game.hands > 0 && hands_played >= rules.game.hands;
    if out_of_hands {
        return sole_leader(scores);
    }
    game_winner(rules, scores)
}

/// The side strictly highest, if one is.
fn sole_leader(scores: &[i32]) -> Option<Side> {
    let best = *scores.iter().max()?;
    let mut leaders = scores.iter().enumerate().filter(|&(_, &s)| s == best);
    let (winner, _) = leaders.next()?;
    leaders
        .next()
        .is_none()
        .then_some(winner)
        .and_then(Side::from_index)
}

/// How far a side trails the highest other side (0 when it leads or ties).
pub fn deficit(mode: Mode, scores: &PerSide<i32>, side: Side) -> i32 {
    let best_other = mode
        .each_side()
        .filter(|&o| o != side)
        .map(|o| scores[o])
        .max()
        .unwrap_or(scores[side]);
    best_other.saturating_sub(scores[side]).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{MAX_BAG_LIMIT, MAX_POINTS};

    #[test]
    fn the_largest_rules_cannot_overflow_a_score() {
        let rules = Rules::default()
            .with(|r| {
                r.target_score = MAX_POINTS;
                r.bags.penalty = MAX_POINTS;
                r.bags.limit = 1;
                r.nil.value = MAX_POINTS;
                r.blind_nil.value = MAX_POINTS;
            })
            .unwrap();
        for score in [i32::MIN, -1, 0, i32::MAX] {
            let before = SideTotals { score, bags: 0 };
            let lost = score_side(
                &rules,
                &[
                    (Seat::new(0), Bid::BlindNil, 13),
                    (Seat::new(2), Bid::Nil, 0),
                ],
                before,
            );
            assert_eq!(lost.points, -MAX_POINTS + MAX_POINTS - 13 * MAX_POINTS);
            let won = score_side(&rules, &[(Seat::new(0), Bid::Tricks(13), 13)], before);
            assert_eq!(won.points, 130);
            let wide = Rules::default()
                .with(|r| r.bags.limit = MAX_BAG_LIMIT)
                .unwrap();
            score_side(&wide, &[(Seat::new(0), Bid::Tricks(1), 13)], before);
        }
        let scores = PerSide::from_slice(&[i32::MIN, i32::MAX]).unwrap();
        assert_eq!(deficit(Mode::Partnership, &scores, Side::new(0)), i32::MAX);
    }

    #[test]
    fn a_contract_counts_numeric_bids_and_their_tricks_only() {
        let nil_took_two = [(Bid::Tricks(4), 3), (Bid::Nil, 2)];
        let c = Contract::of(nil_took_two).expect("a numeric bid");
        assert_eq!((c.bid, c.taken, c.need()), (4, 3, 1));
        let both = [(Bid::Tricks(4), 6), (Bid::Tricks(3), 2)];
        let c = Contract::of(both).expect("numeric bids");
        assert_eq!((c.bid, c.taken, c.need()), (7, 8, 0));
        assert_eq!(Contract::of([(Bid::Nil, 0), (Bid::BlindNil, 1)]), None);
        assert_eq!(Contract::of([]), None);
    }

    #[test]
    fn totals_before_undo_the_hand_even_across_penalties() {
        let rules = Rules::default();
        for (bags, tricks) in [(0, 5), (8, 13), (9, 2), (19, 13)] {
            let before = SideTotals { score: 120, bags };
            let side = score_side(
                &rules,
                &[
                    (Seat::new(0), Bid::Tricks(2), tricks),
                    (Seat::new(2), Bid::Nil, 1),
                ],
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
