//! A hint: what `hard` advises at a decision, and why in the game's words.
//! The reason is drawn from what decided the choice: the rule `normal`
//! applied when the search kept its choice, or else where the search found
//! the choice better than the next best (the contract, the set, the nil,
//! the tricks, the bags).

mod blind_nil;

use std::fmt;

use crate::engine::{Action, Decision, PlayerView};

use super::hard::{Cancel, Weighed, Weighing, advise_until};
use super::knowledge::{DUMMY_TRICKS, Position};
use super::nil::NilRule;
use super::normal::{Aim, BidRule, CardRule, Moved, bid_and_rule, card_and_rule};
use super::{BotRng, Effort};
pub use blind_nil::BlindNilWhy;
use blind_nil::blind_nil_why;

/// What `hard` advises, weighed, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub weighing: Weighing<Action>,
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
        rule: CardRule,
        aim: Option<Aim>,
        /// The partner bid nil and has taken no trick yet.
        partner_nil: bool,
        /// Cards that cover the partner's nil were kept for later.
        kept_cover: bool,
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

/// What the advised choice does better than the next best, each as the
/// advised choice's figure and the next best's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Edge {
    Nil(f64, f64),
    Contract(f64, f64),
    Set(f64, f64),
    Bags(f64, f64),
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
pub fn reason(view: &PlayerView, decision: Decision, weighing: &Weighing<Action>) -> Reason {
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
            }
        }
        (Decision::BlindNil, _) => {
            blind_nil_why(view, weighing).map_or(Reason::Usual, Reason::BlindNil)
        }
        (Decision::Bid, Action::Bid(bid)) => {
            let (usual, rule) = bid_and_rule(view);
            if usual == bid {
                Reason::Bid(rule)
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
        share(top.nil, next.nil).map(|(a, b)| (a - b, Edge::Nil(a, b))),
        share(top.contract, next.contract).map(|(a, b)| (a - b, Edge::Contract(a, b))),
        share(top.set, next.set).map(|(a, b)| (a - b, Edge::Set(a, b))),
        // Half a bag saved weighs like a tenth of the contract.
        (next.bags - top.bags >= 0.5).then(|| {
            (
                (next.bags - top.bags) / 5.0,
                Edge::Bags(top.bags, next.bags),
            )
        }),
        (top.points - next.points >= 5.0).then(|| {
            let gain = (top.points - next.points) / 100.0;
            (gain, Edge::Points(top.points, next.points))
        }),
    ];
    let best = candidates
        .into_iter()
        .flatten()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
    Some(best.map_or(Edge::Even, |e| tricks_edge(top, next, e).unwrap_or(e)))
}

/// The least difference in the side's average tricks worth naming: a
/// smaller one tells a player little, and the deals' noise may make it.
const LEAST_TRICKS: f64 = 0.3;

/// The tricks behind an edge in bags or points, where they say it in
/// plainer terms: more points from a trick more taken, or fewer bags (or
/// points kept from a bag penalty) from a trick given up. The nil, the
/// contract and the set say more than the tricks behind them: kept.
fn tricks_edge(top: &Weighed<Action>, next: &Weighed<Action>, edge: Edge) -> Option<Edge> {
    let more = top.tricks - next.tricks;
    let told = match edge {
        Edge::Points(..) => more > 0.0 || top.bags < next.bags,
        Edge::Bags(..) => more < 0.0,
        _ => false,
    };
    (told && more.abs() >= LEAST_TRICKS).then_some(Edge::Tricks(top.tricks, next.tricks))
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::Rule {
                rule,
                aim,
                partner_nil,
                kept_cover,
            } => {
                let covers = matches!(
                    rule,
                    CardRule::Nil(
                        NilRule::CoverLead | NilRule::CoverOvertake | NilRule::CoverAbove
                    ) | CardRule::SaveCover
                );
                let words = rule_words(rule, aim);
                // With the partner on nil, how the card keeps it safe.
                let prefix = match (partner_nil && !covers, kept_cover) {
                    (false, _) => return f.write_str(words),
                    (true, true) => "Cover kept for the nil; ",
                    (true, false) => "Nil safe here; ",
                };
                let mut chars = words.chars();
                let first = chars.next().map(|c| c.to_lowercase().to_string());
                write!(f, "{prefix}{}{}", first.unwrap_or_default(), chars.as_str())
            }
            Reason::Bid(rule) => write!(f, "{}", bid_words(rule)),
            Reason::BlindNil(why) => write!(f, "{why}"),
            Reason::Edge(edge) => write!(f, "{edge}"),
            Reason::Usual => f.write_str("Nothing else is clearly better."),
        }
    }
}

/// `normal`'s rule in a player's words, a sentence.
fn rule_words(rule: CardRule, aim: Option<Aim>) -> &'static str {
    let set = aim == Some(Aim::Set);
    match rule {
        CardRule::Only => "Your only legal card.",
        CardRule::Nil(nil) => nil_words(nil),
        CardRule::Cash if set => "Cash it before they can trump it: set them.",
        CardRule::Cash => "Cash your winner before they can trump it.",
        CardRule::DrawTrumps => "Draw their trumps with your top spade.",
        CardRule::LowLead {
            partners_void: true,
        } => "Lead to your partner's void: they can trump it.",
        CardRule::LowLead { .. } => "A low lead, from the suit that costs least.",
        CardRule::PartnerHolds => "Partner's card holds the trick: spend nothing.",
        CardRule::CheapestWinner if set => "Win it cheaply, last to play: set them.",
        CardRule::CheapestWinner => "Last to play: the cheapest card that wins.",
        CardRule::SureWinner if set => "The cheapest sure winner: set them.",
        CardRule::SureWinner => "The cheapest card sure to win the trick.",
        CardRule::SecondHandLow => "Second hand low: your partner still plays.",
        CardRule::ThirdHandHigh => "Third hand high: your best chance at the trick.",
        CardRule::CannotWin => "Nothing wins it: throw your least useful card.",
        CardRule::ShedLead => "Your contract is safe: lead low to avoid a bag.",
        CardRule::Duck => "Your contract is safe: duck to avoid a bag.",
        CardRule::SaveCover => "Let it go: keep your high cards to cover partner's nil.",
        CardRule::CannotDuck => "Any card wins now: the one likeliest to be beaten.",
    }
}

/// `normal`'s bid in a player's words, a sentence.
fn bid_words(rule: BidRule) -> String {
    let BidRule::Count { count, moved } = rule else {
        return match rule {
            BidRule::SuicideNil => "Suicide: one of you bids nil, and it is you.",
            _ => "Few tricks and safe low cards: a nil.",
        }
        .to_string();
    };
    if moved == Some(Moved::Dummy) {
        return format!("Your cards count about {count:.1} tricks, the dummy's {DUMMY_TRICKS:.1}.");
    }
    let why = match moved {
        None | Some(Moved::Dummy) => "",
        Some(Moved::CoverNil) => ", less for covering partner's nil",
        Some(Moved::Push) => ", pushed up: they are close to winning",
        Some(Moved::Safe) => ", kept safe: a made contract wins",
        Some(Moved::Overbid) => ", shaded: the table has bid the tricks",
        Some(Moved::Bags) => ", rounded down: bags are near the limit",
    };
    format!("Your cards count about {count:.1} tricks{why}.")
}

fn nil_words(rule: NilRule) -> &'static str {
    match rule {
        NilRule::OwnLead => "For your nil: a lead someone else must beat.",
        NilRule::OwnDuck => "For your nil: the highest card that still loses.",
        NilRule::OwnUnload => "This trick is lost: shed your most dangerous card.",
        NilRule::OwnHope => "Every card beats it: low, hoping to be overtaken.",
        NilRule::CoverLead => "Lead a winner: your partner plays under it, nil safe.",
        NilRule::CoverOvertake => "Overtake your partner's card: their nil is safe.",
        NilRule::CoverAbove => "Win it before your partner plays: their nil is safe.",
        NilRule::BustLead => "Lead low into the nil bidder's suit to set the nil.",
        NilRule::BustUnder => "Stay under the nil bidder: let them take the trick.",
        NilRule::BustLow => "Keep the trick low: the nil bidder may win it.",
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pc = |p: f64| (100.0 * p).round();
        match *self {
            Edge::Nil(a, b) => write!(f, "The nil holds {}%, {}% for the next.", pc(a), pc(b)),
            Edge::Contract(a, b) => {
                write!(f, "Makes the contract {}%, {}% for the next.", pc(a), pc(b))
            }
            Edge::Set(a, b) => write!(f, "Sets them {}%, {}% for the next.", pc(a), pc(b)),
            Edge::Bags(a, b) => write!(f, "Fewer bags: {a:.1} a hand, {b:.1} for the next."),
            Edge::Points(a, b) => write!(f, "More points: {a:+.0}, {b:+.0} for the next."),
            Edge::Tricks(a, b) if a >= b => write!(
                f,
                "Takes {} more: {a:.1} tricks, {b:.1} for the next.",
                about_tricks(a - b)
            ),
            Edge::Tricks(a, b) => write!(
                f,
                "Gives up {} to keep bags down: {a:.1}, {b:.1} for the next.",
                about_tricks(b - a)
            ),
            Edge::Even => f.write_str("The next best is about as good."),
        }
    }
}

/// A difference in average tricks as a player would say it.
fn about_tricks(by: f64) -> String {
    match by {
        ..0.75 => "about half a trick".to_string(),
        ..1.5 => "about a trick".to_string(),
        _ => format!("about {by:.0} tricks"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Bid;

    /// A bid weighed with these figures; no nil, contract or set to tell.
    fn bid(tricks: u8, win: f64, points: f64, bags: f64, taken: f64) -> Weighed<Action> {
        Weighed {
            choice: Action::Bid(Bid::Tricks(tricks)),
            win,
            points,
            bags,
            tricks: taken,
            contract: None,
            nil: None,
            set: None,
        }
    }

    fn weighing(ranked: Vec<Weighed<Action>>) -> Weighing<Action> {
        Weighing {
            chosen: ranked[0].choice,
            ranked,
        }
    }

    /// The reason line, with room left for nothing else, fits the notice.
    fn fits(edge: Edge) -> String {
        let words = edge.to_string();
        assert!(words.chars().count() <= 76, "{words}");
        words
    }

    #[test]
    fn more_points_from_a_trick_more_are_said_as_the_trick() {
        let w = weighing(vec![
            bid(4, 0.6, 30.0, 0.2, 4.2),
            bid(3, 0.5, 22.0, 0.2, 3.3),
        ]);
        let edge = edge(&w).unwrap();
        assert_eq!(edge, Edge::Tricks(4.2, 3.3));
        assert_eq!(
            fits(edge),
            "Takes about a trick more: 4.2 tricks, 3.3 for the next."
        );
    }

    #[test]
    fn fewer_bags_from_a_trick_given_up_are_said_as_the_trick() {
        let w = weighing(vec![
            bid(3, 0.6, 30.0, 0.4, 3.4),
            bid(4, 0.5, 30.0, 1.2, 4.2),
        ]);
        let edge = edge(&w).unwrap();
        assert_eq!(edge, Edge::Tricks(3.4, 4.2));
        assert_eq!(
            fits(edge),
            "Gives up about a trick to keep bags down: 3.4, 4.2 for the next."
        );
    }

    /// A difference in tricks too small to name, or one behind the
    /// contract, leaves the edge as it was.
    #[test]
    fn the_tricks_give_way_when_small_or_behind_the_contract() {
        let small = weighing(vec![
            bid(4, 0.6, 30.0, 0.2, 3.5),
            bid(3, 0.5, 22.0, 0.2, 3.3),
        ]);
        assert_eq!(edge(&small), Some(Edge::Points(30.0, 22.0)));
        let mut top = bid(4, 0.6, 30.0, 0.2, 4.2);
        let mut next = bid(3, 0.5, 22.0, 0.2, 3.3);
        (top.contract, next.contract) = (Some(0.8), Some(0.6));
        let contract = weighing(vec![top, next]);
        assert_eq!(edge(&contract), Some(Edge::Contract(0.8, 0.6)));
    }

    #[test]
    fn every_edge_fits_the_reason_line() {
        for edge in [
            Edge::Nil(0.74, 0.61),
            Edge::Contract(0.75, 0.62),
            Edge::Set(0.17, 0.08),
            Edge::Bags(0.4, 1.5),
            Edge::Points(-113.0, -140.0),
            Edge::Tricks(12.9, 9.3),
            Edge::Tricks(3.3, 3.7),
            Edge::Even,
        ] {
            fits(edge);
        }
        assert_eq!(
            fits(Edge::Tricks(12.9, 9.3)),
            "Takes about 4 tricks more: 12.9 tricks, 9.3 for the next."
        );
        assert!(fits(Edge::Tricks(3.3, 3.7)).starts_with("Gives up about half a trick"));
    }
}
