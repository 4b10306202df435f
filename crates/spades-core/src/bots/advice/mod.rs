//! A hint: what `hard` advises at a decision, and why in the game's words.
//! The reason is drawn from what decided the choice: the rule `normal`
//! applied when the search kept its choice, or else where the search found
//! the choice better than the next best (the contract, the set, the nil,
//! the tricks, the bags).

use std::fmt;

use crate::engine::{Action, Decision, PlayerView};

use super::hard::{Cancel, Weighed, Weighing, advise_until};
use super::knowledge::Position;
use super::normal::{Aim, BidRule, CardRule, bid_and_rule, card_and_rule};
use super::{BotRng, Effort};

mod blind_nil;
mod facts;
mod words;

pub use blind_nil::BlindNilWhy;
use blind_nil::blind_nil_why;
pub use facts::{CardFacts, ContractState, PartnerFacts};

/// What `hard` advises, weighed, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The choices weighed, the advised one among them.
    pub weighing: Weighing<Action>,
    /// Why the advised choice, in words.
    pub reason: Reason,
}

impl Advice {
    /// The advised choice's figures, when it was weighed.
    pub fn top(&self) -> Option<&Weighed<Action>> {
        let chosen = self.weighing.chosen;
        self.weighing.ranked.iter().find(|w| w.choice == chosen)
    }

    /// The other choices weighed, best first, none better than the advised
    /// one by the chance of winning the game: a choice whose average was a
    /// hair higher but that the search could not tell from the advised one
    /// (`hard` keeps `normal`'s choice then) is left out, so the list never
    /// contradicts its order.
    pub fn others(&self) -> Vec<Weighed<Action>> {
        let Some(top) = self.top() else {
            return Vec::new();
        };
        self.weighing
            .ranked
            .iter()
            .filter(|w| w.choice != top.choice && w.win <= top.win)
            .copied()
            .collect()
    }
}

/// Why the advised choice, in the game's words (`Display`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reason {
    /// The rule `normal` played by, kept by the search.
    Rule {
        /// The rule that chose the card.
        rule: CardRule,
        /// What the play was after, when no nil decided it.
        aim: Option<Aim>,
        /// The partner bid nil and has taken no trick yet.
        partner_nil: bool,
        /// Cards that cover the partner's nil were kept for later.
        kept_cover: bool,
        /// What the seat's view shows of the card: what the words may claim.
        facts: CardFacts,
    },
    /// The rule `normal` bid by, kept by the search.
    Bid(BidRule),
    /// Blind nil or looking, by the blind-nil rule.
    BlindNil(BlindNilWhy),
    /// Where the search found the choice better than the next best.
    Edge(Edge),
    /// Nothing to weigh, or nothing tells the choices apart.
    Usual,
}

/// What the advised choice does better than the next best choice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edge {
    /// What the advised choice does better.
    pub gain: Gain,
    /// The next best choice, the one the figures are set against.
    pub next: Action,
}

/// What the advised choice does better, each as the advised choice's
/// figure and the next best's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gain {
    /// How often the side's nils were made.
    Nil(f64, f64),
    /// How often the side's contract was made.
    Contract(f64, f64),
    /// How often the opponents' contracts were set.
    Set(f64, f64),
    /// The side's average bags taken in the hand.
    Bags(f64, f64),
    /// The side's average points in the hand.
    Points(f64, f64),
    /// The side's average tricks in the hand: more taken, or fewer to keep
    /// bags down.
    Tricks(f64, f64),
    /// Within the deals' noise of the next best.
    Even,
}

/// What `hard` advises at `decision` from the seat's view alone, and why;
/// given up once `cancel` is set.
pub fn advise(
    view: &PlayerView,
    decision: Decision,
    effort: Effort,
    cancel: &Cancel,
    rng: &mut BotRng,
) -> Advice {
    let weighing = advise_until(view, decision, effort, cancel, rng);
    let reason = reason(view, decision, &weighing);
    Advice { weighing, reason }
}

/// Why `weighing`'s choice: `normal`'s rule when the search kept the card
/// `normal` plays, else the search's edge over the next best.
pub(crate) fn reason(view: &PlayerView, decision: Decision, weighing: &Weighing<Action>) -> Reason {
    let edge = edge(weighing);
    match (decision, weighing.chosen) {
        (Decision::Play, Action::Play(card)) => {
            let usual = card_and_rule(view);
            if usual.card != card {
                return edge.map_or(Reason::Usual, Reason::Edge);
            }
            Reason::Rule {
                rule: usual.rule,
                aim: usual.aim,
                partner_nil: Position::new(view).partner_live_nil(),
                kept_cover: usual.kept_cover,
                facts: CardFacts::of(view, card),
            }
        }
        (Decision::BlindNil, _) => {
            blind_nil_why(view, weighing).map_or(Reason::Usual, Reason::BlindNil)
        }
        (Decision::Bid, Action::Bid(bid)) => {
            let (usual, rule) = bid_and_rule(view);
            if usual == bid {
                Reason::Bid(facts::moved_as_said(rule, bid))
            } else {
                edge.map_or(Reason::Usual, Reason::Edge)
            }
        }
        _ => edge.map_or(Reason::Usual, Reason::Edge),
    }
}

/// The clearest difference between the advised choice and the next best
/// (the first the hint lists after it, no better by the chance of winning;
/// else the first other); `None` when nothing else was weighed.
fn edge(weighing: &Weighing<Action>) -> Option<Edge> {
    let top = weighing
        .ranked
        .iter()
        .find(|w| w.choice == weighing.chosen)?;
    let others = || weighing.ranked.iter().filter(|w| w.choice != top.choice);
    let next = others().find(|w| w.win <= top.win).or(others().next())?;
    let share = |a: Option<f64>, b: Option<f64>| Some((a?, b?)).filter(|(a, b)| a - b >= 0.03);
    let candidates = [
        share(top.nil, next.nil).map(|(a, b)| (a - b, Gain::Nil(a, b))),
        share(top.contract, next.contract).map(|(a, b)| (a - b, Gain::Contract(a, b))),
        share(top.set, next.set).map(|(a, b)| (a - b, Gain::Set(a, b))),
        // Half a bag saved weighs like a tenth of the contract.
        (next.bags - top.bags >= 0.5).then(|| {
            (
                (next.bags - top.bags) / 5.0,
                Gain::Bags(top.bags, next.bags),
            )
        }),
        (top.points - next.points >= 5.0).then(|| {
            let gain = (top.points - next.points) / 100.0;
            (gain, Gain::Points(top.points, next.points))
        }),
    ];
    let best = candidates
        .into_iter()
        .flatten()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
    let gain = best.map_or(Gain::Even, |e| tricks_gain(top, next, e).unwrap_or(e));
    Some(Edge {
        gain,
        next: next.choice,
    })
}

/// The least difference in the side's average tricks worth naming: a
/// smaller one tells a player little, and the deals' noise may make it.
const LEAST_TRICKS: f64 = 0.3;

/// The tricks behind an edge in bags or points, where they say it in
/// plainer terms: more points from a trick more taken, or fewer bags (or
/// points kept from a bag penalty) from a trick given up. The nil, the
/// contract and the set say more than the tricks behind them: kept.
fn tricks_gain(top: &Weighed<Action>, next: &Weighed<Action>, gain: Gain) -> Option<Gain> {
    let more = top.tricks - next.tricks;
    let told = match gain {
        Gain::Points(..) => more > 0.0 || top.bags < next.bags,
        Gain::Bags(..) => more < 0.0,
        _ => false,
    };
    (told && more.abs() >= LEAST_TRICKS).then_some(Gain::Tricks(top.tricks, next.tricks))
}

impl fmt::Display for Reason {
    /// The reason in full, cards in the game's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said(&|c| c.to_string(), usize::MAX))
    }
}

#[cfg(test)]
mod claims;
#[cfg(test)]
mod tests;
