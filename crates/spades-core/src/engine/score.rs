//! Scoring a hand exactly as rules-toml.md words it, and deciding the game.

use super::bid::Bid;
use super::rules::{Rules, SetPenalty};
use super::seat::{Mode, PerSeat, PerSide, Seat, Side, Teams};

/// A side's running totals between hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct SideTotals {
    /// The side's score.
    pub score: i32,
    /// Overtricks counted toward the next bag penalty.
    pub bags: i32,
}

/// How one nil or blind nil went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NilResult {
    /// The seat that bid it.
    pub seat: Seat,
    /// Was it blind nil?
    pub blind: bool,
    /// Tricks the seat took (none, when made).
    pub tricks: u8,
    /// `+value` when made, `-value` when lost.
    pub points: i32,
}

impl NilResult {
    /// Did the seat take no trick?
    pub fn made(&self) -> bool {
        self.tricks == 0
    }
}

/// A side's contract as rules-toml.md defines it: the sum of its numeric
/// bids, and the tricks won by the seats that made them (never a nil
/// bidder's, unless `nil.failed_tricks_count`: see [`Contract::under`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contract {
    /// The tricks the side's numeric bids add to.
    pub bid: u8,
    /// The tricks that count toward it.
    pub taken: u8,
}

impl Contract {
    /// The contract of a side whose seats made these bids and took these
    /// tricks, in the classic count; `None` when no seat made a numeric bid.
    #[inline]
    pub fn of(seats: impl IntoIterator<Item = (Bid, u8)>) -> Option<Contract> {
        Contract::tally(seats, false)
    }

    /// The contract as `rules` count it: with `nil.failed_tricks_count` a
    /// failed nil's tricks count toward it too (a made nil has none).
    #[inline]
    pub fn under(rules: &Rules, seats: impl IntoIterator<Item = (Bid, u8)>) -> Option<Contract> {
        Contract::tally(seats, rules.nil.failed_tricks_count)
    }

    #[inline]
    fn tally(
        seats: impl IntoIterator<Item = (Bid, u8)>,
        nil_tricks_count: bool,
    ) -> Option<Contract> {
        let mut contract = None;
        let mut nil_tricks = 0;
        for (bid, tricks) in seats {
            if bid.is_numeric() {
                let c = contract.get_or_insert(Contract { bid: 0, taken: 0 });
                c.bid += bid.tricks();
                c.taken += tricks;
            } else {
                nil_tricks += tricks;
            }
        }
        if nil_tricks_count && let Some(c) = contract.as_mut() {
            c.taken += nil_tricks;
        }
        contract
    }

    /// Tricks still to take to make it (0 once made).
    pub fn need(&self) -> u8 {
        self.bid.saturating_sub(self.taken)
    }
}

/// How the numeric bids of a side went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ContractResult {
    /// The tricks the side's numeric bids add to.
    pub bid: u8,
    /// Tricks won by the side's numeric bidders (and, under
    /// `nil.failed_tricks_count`, its failed nils').
    pub taken: u8,
    /// `10 * bid` plus the overtricks' points when made, `-10 * bid` (and
    /// the tricks short's, under `set_penalty = "bid_and_short"`) when set,
    /// at its stakes.
    pub points: i32,
    /// Doubled, or a Boston: what the points were worked out at.
    pub stakes: ContractStakes,
}

impl ContractResult {
    /// Did the side take at least its bid?
    pub fn made(&self) -> bool {
        self.taken >= self.bid
    }
}

/// One side's score for a hand, every step kept so it can be shown line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideScore {
    /// The side's nils (at most two), in seat order.
    pub nils: [Option<NilResult>; 2],
    /// `None` when every seat of the side bid nil.
    pub contract: Option<ContractResult>,
    /// Overtricks (bags) taken this hand.
    pub bags_added: i32,
    /// How many times the bag count reached the limit this hand.
    pub penalties: u32,
    /// Points taken off for bags (0 if none).
    pub penalty: i32,
    /// The change in score this hand, penalty included.
    pub points: i32,
    /// Totals after the hand.
    pub score: i32,
    /// Bags after the hand.
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

/// How the bidding house rules weigh a side's contract: doubled for a
/// blind numeric bid or a total of `bidding.double_at` or more (once, for
/// either or both), and the Boston's bonus. Bags are never doubled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ContractStakes {
    /// The contract scored double (a blind numeric bid, or `bidding.double_at`).
    pub doubled: bool,
    /// The side bid every trick of the hand and took them all.
    pub boston: bool,
}

impl ContractStakes {
    /// The stakes of a side whose seats bid as `seats` say, for a
    /// contract of `bid` of which it took `taken`.
    #[inline]
    pub fn of(rules: &Rules, seats: &[(Seat, Bid, u8)], bid: u8, taken: u8) -> ContractStakes {
        let double_at = rules.bidding.double_at;
        let blind = seats.iter().any(|&(_, b, _)| matches!(b, Bid::Blind(_)));
        ContractStakes {
            doubled: blind || (double_at > 0 && bid >= double_at),
            boston: is_boston(rules, bid, taken),
        }
    }

    /// `points` (a contract's `10 * bid`) as these stakes count them.
    pub fn times(&self, points: i32) -> i32 {
        if self.doubled { 2 * points } else { points }
    }

    /// The Boston's bonus, when the side made one.
    pub fn bonus(&self, rules: &Rules) -> i32 {
        if self.boston { rules.boston.bonus } else { 0 }
    }
}

/// The side that won the game outright with a Boston this hand, where
/// `boston.wins_game` says a Boston does: read off the hand's scored
/// contracts, so a declarer's Boston counts the dummy's tricks as its
/// bonus does.
pub(crate) fn boston_winner(rules: &Rules, sides: &PerSide<SideScore>) -> Option<Side> {
    if !rules.boston.wins_game {
        return None;
    }
    sides
        .pairs()
        .find(|(_, s)| s.contract.is_some_and(|c| c.stakes.boston))
        .map(|(side, _)| side)
}

/// A contract of every trick of the hand, every one taken.
fn is_boston(rules: &Rules, bid: u8, taken: u8) -> bool {
    let every_trick = rules.mode.hand_size() as u8;
    bid == every_trick && taken == every_trick
}

/// Scores one side given each of its seats' bid and tricks.
#[inline]
pub fn score_side(rules: &Rules, seats: &[(Seat, Bid, u8)], before: SideTotals) -> SideScore {
    let mut nils = [None; 2];
    let mut points = 0;
    let mut bags_added = 0;
    let mut nil_count = 0;
    let contract = Contract::under(rules, seats.iter().map(|&(_, b, tricks)| (b, tricks)));
    // A nil's tricks are bags, unless the rules count them toward a contract.
    let nil_tricks_are_bags = contract.is_none() || !rules.nil.failed_tricks_count;
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
                if nil_tricks_are_bags {
                    bags_added += i32::from(tricks);
                }
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
            Bid::Tricks(_) | Bid::Blind(_) => {}
        }
    }
    let contract = contract.map(|c| {
        let stakes = ContractStakes::of(rules, seats, c.bid, c.taken);
        let (contract_points, overtricks) = contract_points(rules, c, stakes);
        bags_added += overtricks;
        points += contract_points;
        ContractResult {
            bid: c.bid,
            taken: c.taken,
            points: contract_points,
            stakes,
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

/// A contract's points and the bags (overtricks) it adds. Made: `10 x bid`
/// (doubled at its stakes), `scoring.overtrick_points` a trick over, every
/// trick over a bag, and a Boston's bonus. Set: `-10 x bid`, less the
/// tricks short's (`set_short_points`), all doubled at its stakes.
#[inline]
fn contract_points(
    rules: &Rules,
    Contract { bid, taken }: Contract,
    stakes: ContractStakes,
) -> (i32, i32) {
    let bid_points = 10 * i32::from(bid);
    if taken >= bid {
        let over = i32::from(taken - bid);
        let points = stakes.times(bid_points) + over * rules.scoring.overtrick_points;
        (points + stakes.bonus(rules), over)
    } else {
        (
            -stakes.times(bid_points + set_short_points(rules, bid - taken)),
            0,
        )
    }
}

/// What a set side loses beyond its bid for the tricks it fell short:
/// nothing (classic), or 10 a trick under `set_penalty = "bid_and_short"`.
#[inline]
fn set_short_points(rules: &Rules, short: u8) -> i32 {
    match rules.scoring.set_penalty {
        SetPenalty::Bid => 0,
        SetPenalty::BidAndShort => 10 * i32::from(short),
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

/// The defenders' contract against a declarer's bid of `bid` with the
/// dummy: the tricks the declarer did not bid for (`13 - bid`).
pub(crate) const fn defenders_contract(bid: u8) -> u8 {
    (Mode::Dummy.hand_size() as u8).saturating_sub(bid)
}

/// The two contracts of a dummy hand, the declarer's (with the dummy's
/// tricks) and the defenders', from the declarer's bid and each seat's
/// tricks. `declarer` is a player of a dummy-mode table.
fn dummy_contracts(declarer: Seat, bid: u8, tricks: &PerSeat<u8>) -> [Contract; 2] {
    let teams = Teams::new(Mode::Dummy, Some(declarer));
    let taken = |defending: bool| -> u8 {
        Mode::Dummy
            .each_seat()
            .filter(|&s| teams.is_defender(s) == defending)
            .map(|s| tricks[s])
            .sum()
    };
    [
        Contract {
            bid,
            taken: taken(false),
        },
        Contract {
            bid: defenders_contract(bid),
            taken: taken(true),
        },
    ]
}

/// A side's contract so far, as the scoring counts it, from the bids and
/// each seat's tricks: with a dummy (once there is a declarer), the
/// declarer's bid on the declaring team's tricks, or for a defender the
/// defenders' contract on both defenders' tricks.
pub fn side_contract(
    rules: &Rules,
    teams: Teams,
    side: Side,
    bids: &PerSeat<Option<Bid>>,
    won: &PerSeat<u8>,
) -> Option<Contract> {
    let mode = teams.mode();
    if teams.declarer().is_some() {
        return declared_contract(teams, side, bids, won);
    }
    Contract::under(
        rules,
        mode.side_seats(side)
            .filter_map(|s| Some((bids[s]?, won[s]))),
    )
}

/// With a dummy, once the bidding has named a declarer, a side's
/// contract: the declarer's bid on its own and the dummy's tricks, or for
/// a defender the defenders' (`13 - bid`) on both defenders' tricks.
/// `None` before there is a declarer, and at a table without a dummy:
/// there each seat's bid is its side's.
pub fn declared_contract(
    teams: Teams,
    side: Side,
    bids: &PerSeat<Option<Bid>>,
    won: &PerSeat<u8>,
) -> Option<Contract> {
    let declarer = teams.declarer()?;
    let [declaring, defending] = dummy_contracts(declarer, bids[declarer]?.tricks(), won);
    Some(if teams.mode().side_of(declarer) == side {
        declaring
    } else {
        defending
    })
}

/// Scores a hand with a dummy: the declarer scores the declaring team's
/// contract (its bid, the dummy's tricks counting with its own), and each
/// defender scores the defenders' contract (`13 - bid`, the two
/// defenders' tricks together) on its own totals, bags and all.
pub(crate) fn score_dummy_hand(
    rules: &Rules,
    declarer: Seat,
    bid: u8,
    tricks: &PerSeat<u8>,
    before: &PerSide<SideTotals>,
) -> PerSide<SideScore> {
    let mode = rules.mode;
    let contracts = dummy_contracts(declarer, bid, tricks);
    PerSide::from_fn(mode, |side| {
        // Sides are the players' seats (the dummy, seat 3, has none).
        let seat = Seat::new(side.index());
        let c = contracts[usize::from(seat != declarer)];
        score_side(rules, &[(seat, Bid::Tricks(c.bid), c.taken)], before[side])
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
pub(crate) fn game_end(
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

/// Everything about one finished hand.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandResult {
    /// The hand's number, from 1.
    pub hand: u32,
    /// The hand's dealer.
    pub dealer: Seat,
    /// Each seat's bid; with a dummy, the dummy's entry is the declarer's
    /// bid, the contract it played for.
    pub bids: PerSeat<Bid>,
    /// The player who played with the dummy (dummy mode only).
    pub declarer: Option<Seat>,
    /// The tricks each seat took.
    pub tricks: PerSeat<u8>,
    /// Each side's score for the hand.
    pub sides: PerSide<SideScore>,
    /// Quick Play: the player's side's lives left after this hand.
    pub lives_left: Option<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{MAX_BAG_LIMIT, MAX_POINTS};

    /// Ann (seat 0) declares 9: the defenders, Ben and Cat, share a
    /// contract of 4 on their tricks together, whatever they bid first.
    #[test]
    fn a_declared_contract_is_the_bid_or_the_defenders_rest() {
        let nine = Some(Bid::Tricks(9));
        let bids = PerSeat::from_slice(&[nine, Some(Bid::Tricks(4)), nine, None]).unwrap();
        let won = PerSeat::from_slice(&[3, 1, 2, 4]).unwrap();
        let teams = Teams::new(Mode::Dummy, Some(Seat::new(0)));
        let of = |side| declared_contract(teams, Side::new(side), &bids, &won);
        assert_eq!(of(0), Some(Contract { bid: 9, taken: 7 }));
        for defender in [1, 2] {
            assert_eq!(of(defender), Some(Contract { bid: 4, taken: 3 }));
        }
        let undeclared = Teams::new(Mode::Dummy, None);
        assert_eq!(
            declared_contract(undeclared, Side::new(1), &bids, &won),
            None
        );
    }

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
    fn a_blind_bid_and_double_at_double_a_contract_once() {
        let rules = Rules::default().with(|r| r.bidding.double_at = 7).unwrap();
        let seats = [
            (Seat::new(0), Bid::Blind(6), 5),
            (Seat::new(2), Bid::Tricks(2), 4),
        ];
        let stakes = ContractStakes::of(&rules, &seats, 8, 9);
        assert!(stakes.doubled && !stakes.boston);
        assert_eq!(
            score_side(&rules, &seats, SideTotals::default()).points,
            161
        );
        let plain = [
            (Seat::new(0), Bid::Tricks(4), 5),
            (Seat::new(2), Bid::Tricks(2), 4),
        ];
        assert_eq!(score_side(&rules, &plain, SideTotals::default()).points, 63);
    }

    #[test]
    fn a_boston_wins_only_where_the_rules_say() {
        let bids =
            PerSeat::from_slice(&[Bid::Tricks(13), Bid::Nil, Bid::Nil, Bid::Tricks(1)]).unwrap();
        let tricks = PerSeat::from_slice(&[13, 0, 0, 0]).unwrap();
        let classic = Rules::default();
        let scored = |rules: &Rules, tricks| {
            let totals = PerSide::filled(rules.mode, SideTotals::default());
            score_hand(rules, &bids, tricks, &totals)
        };
        assert_eq!(boston_winner(&classic, &scored(&classic, &tricks)), None);
        let moonshot = Rules::default()
            .with(|r| r.boston.wins_game = true)
            .unwrap();
        let sides = scored(&moonshot, &tricks);
        assert_eq!(boston_winner(&moonshot, &sides), Some(Side::new(0)));
        let twelve = PerSeat::from_slice(&[12, 0, 0, 1]).unwrap();
        assert_eq!(boston_winner(&moonshot, &scored(&moonshot, &twelve)), None);
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

    fn side(rules: &Rules, seats: &[(Bid, u8)]) -> SideScore {
        let seats: Vec<(Seat, Bid, u8)> = seats
            .iter()
            .enumerate()
            .map(|(k, &(b, t))| (Seat::new(2 * k), b, t))
            .collect();
        score_side(rules, &seats, SideTotals::default())
    }

    #[test]
    fn overtricks_may_score_nothing_but_are_bags_all_the_same() {
        let rules = Rules::default()
            .with(|r| r.scoring.overtrick_points = 0)
            .unwrap();
        let s = side(&rules, &[(Bid::Tricks(4), 6)]);
        assert_eq!((s.points, s.bags_added), (40, 2));
        let classic = side(&Rules::default(), &[(Bid::Tricks(4), 6)]);
        assert_eq!((classic.points, classic.bags_added), (42, 2));
    }

    #[test]
    fn a_set_may_cost_the_tricks_short_too() {
        let rules = Rules::default()
            .with(|r| r.scoring.set_penalty = SetPenalty::BidAndShort)
            .unwrap();
        assert_eq!(side(&rules, &[(Bid::Tricks(5), 3)]).points, -70);
        assert_eq!(side(&rules, &[(Bid::Tricks(5), 5)]).points, 50);
        assert_eq!(side(&Rules::default(), &[(Bid::Tricks(5), 3)]).points, -50);
    }

    #[test]
    fn a_failed_nils_tricks_may_count_toward_the_partners_contract() {
        let rules = Rules::default()
            .with(|r| r.nil.failed_tricks_count = true)
            .unwrap();
        // 4 bid, 3 taken, the nil took 2: 5 of 4, one bag.
        let s = side(&rules, &[(Bid::Tricks(4), 3), (Bid::Nil, 2)]);
        let c = s.contract.unwrap();
        assert_eq!((c.taken, c.points, s.bags_added, s.points), (5, 41, 1, -59));
        // Classic: set, and the nil's two tricks are bags.
        let s = side(&Rules::default(), &[(Bid::Tricks(4), 3), (Bid::Nil, 2)]);
        assert_eq!((s.points, s.bags_added), (-140, 2));
        // With no contract on the side, a nil's tricks are bags as ever.
        let s = side(&rules, &[(Bid::Nil, 0), (Bid::BlindNil, 3)]);
        assert_eq!((s.points, s.bags_added), (100 - 200, 3));
        assert_eq!(
            Contract::under(&rules, [(Bid::Tricks(4), 3), (Bid::Nil, 2)]),
            Some(Contract { bid: 4, taken: 5 })
        );
    }
}
