//! `normal`: a strong rule-based player. It bids by counting tricks and
//! reading the table and the score, and plays with card counting and void
//! tracking: second hand low, third hand high, the cheapest winner, nil
//! cover and nil busting, and shedding spare tricks when bags threaten.

use super::knowledge::{
    DUMMY_TRICKS, Position, exchange_cards, hand_tricks, nearest_allowed, nil_danger, nil_flaw,
    prefer_side_suits, rank_value, suicide_nil_first,
};
use super::nil::{NilRule, nil_card_why, sparing_cover};
use super::{Bot, BotRng};
use crate::engine::{Bid, Card, CardSet, Mode, PlayerView, Suit};
use crate::search::win_chances;

/// The numbers behind the normal bot's judgement, in one place so they can
/// be measured and tuned together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tuning {
    /// The part of a trick above which an estimate rounds up.
    pub round_up: f32,
    /// The same with the side near the bag limit, where overtricks cost.
    pub round_up_bags: f32,
    /// The nil danger (see `nil_danger`) a nil bid may carry.
    pub nil_limit: f32,
    /// A trailing side whose chance of winning the game is below this
    /// bids blind nil.
    pub blind_hope: f32,
    /// A side-suit lead this likely to win is cashed.
    pub cash: f32,
    /// A hand counted at more tricks than this is not bid nil.
    pub nil_max_tricks: f32,
    /// The share of an overbid table that comes off this bid.
    pub overbid_shade: f32,
    /// A partner's card this likely to hold the trick is left alone.
    pub partner_holds: f32,
    /// A card this likely to win is played to win.
    pub sure: f32,
    /// Third hand plays high with at least this chance of winning.
    pub third_hand: f32,
    /// Tricks an overbid opponent may still lose for a set to be chased.
    pub set_slack: i32,
    /// Tricks to spare beyond the contract before busting a nil.
    pub bust_margin: i32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            round_up: 0.45,
            round_up_bags: 0.65,
            nil_limit: 2.4,
            blind_hope: 0.2,
            cash: 0.55,
            nil_max_tricks: 2.2,
            overbid_shade: 0.4,
            partner_holds: 0.6,
            sure: 0.75,
            third_hand: 0.35,
            set_slack: 1,
            bust_margin: 1,
        }
    }
}

/// The `normal` level: counts the hand's tricks to bid, then plays by rules of
/// thumb to make its side's contract, set the other's and guard a partner's nil.
#[derive(Debug, Clone, Copy, Default)]
pub struct NormalBot {
    pub(crate) tuning: Tuning,
}

impl Bot for NormalBot {
    fn name(&self) -> &'static str {
        "normal"
    }

    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(*self)
    }

    fn blind_nil(&mut self, view: &PlayerView, _rng: &mut BotRng) -> bool {
        wants_blind_nil(view, &self.tuning)
    }

    fn bid(&mut self, view: &PlayerView, _rng: &mut BotRng) -> Bid {
        choose_bid(view, &self.tuning).0
    }

    fn exchange(&mut self, view: &PlayerView, _rng: &mut BotRng) -> CardSet {
        exchange_cards(view)
    }

    fn play(&mut self, view: &PlayerView, _rng: &mut BotRng) -> Card {
        choose_card(view, &self.tuning).card
    }
}

/// The scores as they bear on a decision.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Standing {
    pub mine: i32,
    pub bags: i32,
    pub best_other: i32,
    /// How far the side trails the best other side (0 when it leads).
    pub deficit: i32,
    pub target: i32,
    pub limit: i32,
}

impl Standing {
    pub fn of(view: &PlayerView) -> Standing {
        let side = view.side();
        let mine = view.totals[side].score;
        let best_other = view
            .mode()
            .each_side()
            .filter(|&s| s != side)
            .map(|s| view.totals[s].score)
            .max()
            .unwrap_or(mine);
        Standing {
            mine,
            bags: view.totals[side].bags,
            best_other,
            deficit: view.auction.deficit(view.seat),
            target: view.rules.target_score,
            limit: view.rules.bags.limit,
        }
    }

    /// An opponent could win the game with one more good hand.
    fn opponent_near_target(&self) -> bool {
        self.best_other >= self.target - self.target / 5
    }
}

/// Blind nil, decided before the cards are seen: a last resort for a side
/// that trails with little chance left of winning the game (far behind,
/// or behind late), when a partner covers and cards are passed; never
/// alone.
fn wants_blind_nil(view: &PlayerView, t: &Tuning) -> bool {
    if view.blind_nil_refusal().is_some() {
        return false;
    }
    if let Some(p) = view.partner()
        && view.bids()[p].is_some_and(Bid::is_nil)
    {
        return false;
    }
    // Alone, or with no cards passed, a blind nil holds about one time in
    // five: never worth 200 points. (Against itself with no exchange,
    // `normal` wins as often without it, and stops losing 200 four times
    // in five.)
    // (`exchange_size` is 0 alone, where nothing is passed.)
    if view.rules.exchange_size() == 0 || Standing::of(view).deficit <= 0 {
        return false;
    }
    // With the partner covering and cards passed a blind nil holds about
    // three times in four, but a set one costs twice its value: a gamble
    // for a side whose game is slipping away, not for one merely behind.
    win_chances(&view.rules, &view.totals)[view.side()] < t.blind_hope
}

/// The number this bot would bid with the hand in `view`, nil set aside:
/// where a person's bid starts them, so that a nil is only ever bid on
/// purpose. Only a bid the rules allow; where they allow no number at
/// all (mirror with no spade), whatever they do allow.
pub fn number_bid(view: &PlayerView) -> Bid {
    let t = Tuning::default();
    match choose_bid(view, &t).0 {
        bid @ Bid::Tricks(_) => bid,
        _ => {
            let est = hand_tricks(view.cards(), view.mode(), view.rules.deck());
            nearest_allowed(view, (est + t.round_up).floor().max(1.0) as i32)
        }
    }
}

/// Which of `normal`'s rules chose its bid: what a hint says of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BidRule {
    /// A nil: few tricks, and low cards safe enough.
    Nil,
    /// Suicide: the side's nil, bid first.
    SuicideNil,
    /// What the hand counts to (`count` tricks), and what moved the bid
    /// off it, if anything.
    Count {
        /// What the hand counts to, in tricks.
        count: f32,
        /// What moved the bid off the count, if anything.
        moved: Option<Moved>,
    },
}

/// What moved a bid off the hand's count, the score before the partner's
/// nil, the table and the bags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// Down: high cards go to covering the partner's nil.
    CoverNil,
    /// Up: behind, with an opponent about to win.
    Push,
    /// Down: ahead and close, a made contract wins.
    Safe,
    /// Down: the table's bids come to more tricks than there are.
    Overbid,
    /// Down: near the bag limit, every overtrick costs.
    Bags,
    /// With the dummy's hand counted as an average one.
    Dummy,
}

/// The bid `normal` makes in `view`, and why (the same bid as its `bid`).
pub(crate) fn bid_and_rule(view: &PlayerView) -> (Bid, BidRule) {
    choose_bid(view, &Tuning::default())
}

fn choose_bid(view: &PlayerView, t: &Tuning) -> (Bid, BidRule) {
    let hand = view.cards();
    let mode = view.mode();
    let size = mode.hand_size() as f32;
    let st = Standing::of(view);
    let est = hand_tricks(hand, mode, view.rules.deck());
    let bids = view.bids();
    let partner_bid = view.partner().and_then(|p| bids[p]);

    if view.check_bid(Bid::Nil).is_ok() && should_nil(view, hand, est, partner_bid, &st, t) {
        return (Bid::Nil, BidRule::Nil);
    }
    let count = |moved| BidRule::Count { count: est, moved };
    if mode.dummy().is_some() {
        // A team total: this hand with the dummy, unseen, as an average
        // hand. The bids are rivals, not shares, so no table total applies.
        let round_up = if st.limit - st.bags <= 3 {
            t.round_up_bags
        } else {
            t.round_up
        };
        let n = (est + DUMMY_TRICKS + round_up).floor().max(1.0) as i32;
        return (nearest_allowed(view, n), count(Some(Moved::Dummy)));
    }
    if suicide_nil_first(view, est) {
        return (Bid::Nil, BidRule::SuicideNil);
    }
    let mut moved = Vec::new();

    let mut want = est;
    // The tricks are not there for everyone: shade down when the table's
    // bids, with this one, come to more than the hand holds.
    let others: f32 = bids
        .pairs()
        .filter(|&(s, _)| s != view.seat)
        .filter_map(|(_, b)| *b)
        .map(|b| f32::from(b.tricks()))
        .sum();
    let unbid = view
        .mode()
        .each_seat()
        .filter(|&s| s != view.seat && bids[s].is_none())
        .count() as f32;
    let projected = others + want + unbid * size / view.seats() as f32 * 0.75;
    if projected > size {
        want -= (projected - size) * t.overbid_shade;
        moved.push(Moved::Overbid);
    }
    // Covering a nil partner spends high cards on the partner's behalf.
    if partner_bid.is_some_and(Bid::is_nil) {
        want -= 0.3;
        moved.insert(0, Moved::CoverNil);
    }
    // Behind with an opponent about to win: push for points.
    if st.opponent_near_target() && st.deficit > 0 {
        want += 0.4;
        moved.insert(0, Moved::Push);
    }
    // Ahead and close: a made contract is what wins.
    if st.mine >= st.target - st.target / 10 && st.mine > st.best_other {
        want -= 0.3;
        moved.insert(0, Moved::Safe);
    }
    // With many bags, every overtrick costs: bid nearer the top of the range.
    let round_up = if st.limit - st.bags <= 3 {
        moved.push(Moved::Bags);
        t.round_up_bags
    } else {
        t.round_up
    };
    let mut n = (want + round_up).floor().max(1.0) as i32;
    // The side can never take more than the whole hand.
    if let Some(Bid::Tricks(b)) = partner_bid {
        n = n.min(size as i32 - i32::from(b)).max(1);
    }
    // What moved the bid, when it moved off what the count alone bids.
    let plain = (est + t.round_up).floor().max(1.0) as i32;
    let moved = moved.first().copied().filter(|_| n != plain);
    (nearest_allowed(view, n), count(moved))
}

/// A nil no strong player bids, whatever the score: beside a partner's
/// nil (nobody would cover), after an opponent's blind nil (the side's
/// tricks go to setting it, and a nil of its own hands the opponents an
/// easy defence), with too many tricks, or with a flaw that sinks nils
/// (`nil_flaw`). `hard` weighs nil only where this is false.
pub(crate) fn nil_unthinkable(view: &PlayerView, est: f32, t: &Tuning) -> bool {
    let bids = view.bids();
    let partner_nil = view
        .partner()
        .is_some_and(|p| bids[p].is_some_and(Bid::is_nil));
    let blind_against = view
        .mode()
        .each_seat()
        .any(|s| s != view.seat && Some(s) != view.partner() && bids[s] == Some(Bid::BlindNil));
    partner_nil
        || blind_against
        || est > t.nil_max_tricks
        || nil_flaw(view.cards(), view.rules.deck())
}

fn should_nil(
    view: &PlayerView,
    hand: CardSet,
    est: f32,
    partner_bid: Option<Bid>,
    st: &Standing,
    t: &Tuning,
) -> bool {
    let deck = view.rules.deck();
    if nil_unthinkable(view, est, t) {
        return false;
    }
    let danger = nil_danger(hand, deck);
    let mut limit = t.nil_limit;
    match partner_bid {
        Some(Bid::Tricks(b)) if b >= 4 => limit += 0.4,
        Some(Bid::Tricks(b)) if b <= 2 => limit -= 0.3,
        _ => {}
    }
    // Alone nobody covers; with 17 cards there are more ways to be forced.
    if !view.mode().has_partners() {
        limit -= 1.1;
    }
    if view.mode() == Mode::Cutthroat {
        limit -= 0.5;
    }
    if st.opponent_near_target() && st.deficit > 0 {
        limit += 0.4;
    }
    // About to win: a made contract is enough, a lost nil could cost the
    // game. Only a nearly certain nil is worth it then.
    if about_to_win(st) {
        let home = game_in_hand(st, partner_bid);
        limit = limit.min(if home { 0.3 } else { 0.8 });
    }
    danger <= limit
}

/// The side leads and is within a tenth of the target.
fn about_to_win(st: &Standing) -> bool {
    st.mine >= st.target - st.target / 10 && st.mine > st.best_other
}

/// The side is about to win and the partner's contract alone takes it
/// home: a nil can only lose the game there.
pub(crate) fn game_in_hand(st: &Standing, partner_bid: Option<Bid>) -> bool {
    about_to_win(st)
        && matches!(partner_bid, Some(Bid::Tricks(b)) if st.mine + 10 * i32::from(b) >= st.target)
}

/// What the seat is after in the play of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// Win tricks: the contract needs them.
    Make,
    /// Win tricks: an opponent's contract can be set.
    Set,
    /// Let tricks go: the contract is safe and overtricks are bags.
    Shed,
}

/// Which of `normal`'s rules chose its card: what a hint says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardRule {
    /// The only legal card.
    Only,
    /// A nil at the table: the seat's own, the partner's or an opponent's.
    Nil(NilRule),
    /// A side-suit winner, cashed before it can be trumped.
    Cash,
    /// The top spade, drawing the opponents' trumps.
    DrawTrumps,
    /// A low card of the suit that costs least to lead; `partners_void`
    /// when the partner can trump it.
    LowLead {
        /// The partner can trump it.
        partners_void: bool,
    },
    /// The partner's card holds the trick: nothing is spent on it.
    PartnerHolds,
    /// Last to play: the cheapest card that wins.
    CheapestWinner,
    /// The cheapest card sure enough to win.
    SureWinner,
    /// Second hand low: the partner still plays.
    SecondHandLow,
    /// Third hand high: the best chance to win, at the lowest price.
    ThirdHandHigh,
    /// Nothing is likely to win the trick: the least useful card goes.
    CannotWin,
    /// The lead least likely to win a trick the side does not want.
    ShedLead,
    /// Under the card winning: a trick the side does not want.
    Duck,
    /// The least card, the high ones kept for the partner's nil.
    SaveCover,
    /// Every card wins for now: the one most likely to be overtaken.
    CannotDuck,
}

/// `normal`'s card and the rule that chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardChoice {
    /// The card.
    pub card: Card,
    /// The rule that chose it.
    pub rule: CardRule,
    /// What the play was after, when no nil decided it.
    pub aim: Option<Aim>,
    /// Cards that cover the partner's nil were set aside for later.
    pub kept_cover: bool,
}

/// The card `normal` plays in `view`, and why (the same card as its
/// `play`).
pub fn card_and_rule(view: &PlayerView) -> CardChoice {
    choose_card(view, &Tuning::default())
}

fn choose_card(view: &PlayerView, t: &Tuning) -> CardChoice {
    let pos = Position::new(view);
    let legal = pos.legal;
    let only = |card| CardChoice {
        card,
        rule: CardRule::Only,
        aim: None,
        kept_cover: false,
    };
    let pick = if legal.len() <= 1 {
        legal.lowest().map(only)
    } else if let Some((card, rule)) = nil_card_why(&pos, t.bust_margin) {
        Some(CardChoice {
            card,
            rule: CardRule::Nil(rule),
            aim: None,
            kept_cover: false,
        })
    } else {
        let aim = aim(&pos, &Standing::of(view), t);
        // A trick the contract does not need is not worth the card
        // that covers a partner's nil.
        let sparing = if contract_needs_tricks(&pos) {
            pos
        } else {
            sparing_cover(&pos)
        };
        contract_play(&sparing, aim, t).map(|(card, rule)| CardChoice {
            card,
            rule,
            aim: Some(aim),
            kept_cover: sparing.legal != pos.legal,
        })
    };
    pick.or(legal.lowest().map(only))
        .expect("the game asks only a seat that holds a legal card")
}

/// The side's contract still needs tricks, and can still be made.
fn contract_needs_tricks(pos: &Position) -> bool {
    let side = pos.my_side();
    let need = pos.need(side);
    pos.has_contract(side) && need > 0 && need <= pos.tricks_left
}

fn aim(pos: &Position, st: &Standing, t: &Tuning) -> Aim {
    if contract_needs_tricks(pos) {
        return Aim::Make;
    }
    let room = st.limit - st.bags;
    for opp in pos.opponent_sides() {
        if !pos.has_contract(opp) {
            continue;
        }
        let their_need = pos.need(opp);
        if their_need == 0 {
            continue;
        }
        // Tricks they can still afford to lose.
        let slack = pos.tricks_left - their_need;
        if slack >= 0 && (slack <= t.set_slack || (slack <= t.set_slack + 2 && room > slack + 2)) {
            return Aim::Set;
        }
    }
    Aim::Shed
}

fn contract_play(pos: &Position, aim: Aim, t: &Tuning) -> Option<(Card, CardRule)> {
    match (aim, pos.is_leading()) {
        (Aim::Make | Aim::Set, true) => lead_to_take(pos, t),
        (Aim::Make | Aim::Set, false) => follow_to_take(pos, t),
        (Aim::Shed, true) => lead_to_shed(pos),
        (Aim::Shed, false) => follow_to_shed(pos),
    }
}

/// Cash sure winners (side suits first, before they can be ruffed), draw
/// trumps with the top spade, else lead low where it costs least.
fn lead_to_take(pos: &Position, t: &Tuning) -> Option<(Card, CardRule)> {
    let legal = pos.legal;
    let rival = |s| pos.is_rival(s);
    let cash = legal
        .iter()
        .filter(|&c| c.suit() != Suit::Spades)
        .map(|c| (c, pos.win_chance(c, rival)))
        .filter(|&(_, p)| p >= t.cash)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
    let spades = legal.suit(Suit::Spades);
    let draw = spades
        .highest()
        .filter(|&top| pos.is_top(top))
        .filter(|_| spades.len() >= 2 || pos.unseen.suit(Suit::Spades).len() <= 2);
    if let Some((c, _)) = cash {
        return Some((c, CardRule::Cash));
    }
    if let Some(top) = draw {
        return Some((top, CardRule::DrawTrumps));
    }
    let partner = pos.partner;
    let mut best: Option<(i32, Card)> = None;
    for suit in Suit::ALL {
        let cards = legal.suit(suit);
        let Some(low) = cards.lowest() else { continue };
        let n = cards.len() as i32;
        let mut score = 0;
        if suit == Suit::Spades {
            score -= 2;
        } else {
            // A short suit led now can be ruffed later.
            if n <= 2 && pos.hand.suit(Suit::Spades).len() >= 2 {
                score += 3 - n;
            }
            // Leading away from an unsupported honour gives it up.
            if cards
                .iter()
                .any(|c| c.rank().index() >= 10 && !pos.is_top(c) && cards.len() >= 2)
            {
                score -= 2;
            }
            if let Some(p) = partner
                && pos.void[suit as usize][p]
                && !pos.void[Suit::Spades as usize][p]
            {
                score += 3;
            }
            for s in pos.mode.each_seat() {
                if pos.is_rival(s)
                    && pos.void[suit as usize][s]
                    && !pos.void[Suit::Spades as usize][s]
                {
                    score -= 3;
                }
            }
            // Small cards of a long suit cost nothing to lead.
            score += (n - 3).clamp(0, 2);
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, low));
        }
    }
    let low = best.map(|(_, c)| c).or(legal.lowest())?;
    let partners_void = partner.is_some_and(|p| {
        low.suit() != Suit::Spades
            && pos.void[low.suit() as usize][p]
            && !pos.void[Suit::Spades as usize][p]
    });
    Some((low, CardRule::LowLead { partners_void }))
}

fn follow_to_take(pos: &Position, t: &Tuning) -> Option<(Card, CardRule)> {
    let legal = pos.legal;
    let rival = |s| pos.is_rival(s);
    let throw = |rule| pos.throwaway(legal).map(|c| (c, rule));
    let partner_holds = pos.partner_winning() && pos.winner_holds(rival) >= t.partner_holds;
    if partner_holds {
        // Never overtake or trump a partner's winner.
        return throw(CardRule::PartnerHolds);
    }
    let beaters = pos.beaters(legal);
    if beaters.is_empty() {
        return throw(CardRule::CannotWin);
    }
    let cheapest = |set: CardSet, rule| {
        set.iter()
            .min_by_key(|&c| rank_value(c, pos.led))
            .map(|c| (c, rule))
    };
    if pos.is_last() {
        if pos.partner_winning() {
            return throw(CardRule::PartnerHolds);
        }
        return cheapest(beaters, CardRule::CheapestWinner);
    }
    let sure: CardSet = beaters
        .iter()
        .filter(|&c| pos.win_chance(c, rival) >= t.sure)
        .collect();
    if !sure.is_empty() {
        return cheapest(sure, CardRule::SureWinner);
    }
    if pos.partner_winning() {
        return throw(CardRule::PartnerHolds);
    }
    let partner_later = pos.partner.is_some_and(|p| pos.later().contains(&p));
    let following = legal.has_suit(pos.led?);
    if partner_later && following {
        // Second hand low: the partner still has a say.
        return throw(CardRule::SecondHandLow);
    }
    // Third hand high: the best chance, at the lowest price.
    let (card, chance) = beaters
        .iter()
        .map(|c| (c, pos.win_chance(c, rival)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
    if chance >= t.third_hand {
        return Some((card, CardRule::ThirdHandHigh));
    }
    throw(CardRule::CannotWin)
}

/// Lead the card least likely to take the trick, the highest such first.
fn lead_to_shed(pos: &Position) -> Option<(Card, CardRule)> {
    let opp = |s| pos.is_opponent(s);
    prefer_side_suits(pos.legal)
        .iter()
        .map(|c| (c, (pos.win_chance(c, opp) * 10.0) as i32))
        .min_by_key(|&(c, chance)| (chance, -(c.rank().index() as i32)))
        .map(|(c, _)| (c, CardRule::ShedLead))
}

fn follow_to_shed(pos: &Position) -> Option<(Card, CardRule)> {
    let legal = pos.legal;
    let losers = legal.minus(pos.beaters(legal));
    if pos.partner_live_nil() {
        // The high cards will be wanted over the partner's: let this
        // trick go with the least of them.
        let least = pos.throwaway(if losers.is_empty() { legal } else { losers });
        return least.map(|c| (c, CardRule::SaveCover));
    }
    if !losers.is_empty() {
        let duck = if legal.has_suit(pos.led?) {
            pos.highest_loser(legal)
        } else {
            pos.shed(losers)
        };
        return duck.map(|c| (c, CardRule::Duck));
    }
    // Every card wins for now: the one most likely to be overtaken, or if
    // the trick is ours anyway, the one most likely to win later.
    let card = if pos.is_last() {
        legal.iter().max_by_key(|&c| rank_value(c, pos.led))
    } else {
        let opp = |s| pos.is_opponent(s);
        legal
            .iter()
            .map(|c| (c, (pos.win_chance(c, opp) * 10.0) as i32))
            .min_by_key(|&(c, chance)| (chance, rank_value(c, pos.led)))
            .map(|(c, _)| c)
    };
    card.map(|c| (c, CardRule::CannotDuck))
}
