//! How a verdict is read: the class by thresholds of win chance lost, the
//! accuracy figures, and what the decision was about (its category).

use crate::bots::hard::Weighed;
use crate::engine::{Action, Bid, Decision, PlayerView};

use super::{Category, Class};

/// Win chance lost (0 to 1) from which a choice is an inaccuracy, a
/// mistake or a blunder. Chosen so `hard`'s own games show few: see
/// docs/analysis.md for the measurement.
pub const INACCURACY: f64 = 0.03;
pub const MISTAKE: f64 = 0.05;
pub const BLUNDER: f64 = 0.10;

/// The class of a choice that lost `lost` of the chance of winning;
/// none unless `faulted`: `hard` itself, had its rules proposed the
/// choice, would have made another (the search sure another wins more,
/// `bots::hard::judge::Judgement`). A choice the bots' own rules keep is
/// never a mistake, however its mean figure falls.
pub fn class_of(lost: f64, faulted: bool) -> Option<Class> {
    match lost {
        _ if !faulted => None,
        l if l >= BLUNDER => Some(Class::Blunder),
        l if l >= MISTAKE => Some(Class::Mistake),
        l if l >= INACCURACY => Some(Class::Inaccuracy),
        _ => None,
    }
}

/// Points lost at which a decision's accuracy falls by a factor of e: a
/// trick of a contract (10 points a trick bid). See docs/analysis.md.
pub const POINTS_SCALE: f64 = 10.0;

/// Points counted against a choice the search ranked below the best, on
/// top of those it lost: a trick's worth. Where the game or the contract
/// is already decided every choice keeps about the same points, and only
/// whether the best was found still tells good play from bad.
pub const MISSED_BEST: f64 = 10.0;

/// One decision's accuracy, 0 to 100: `100 e^(-(p + m) / 10)`, `p` the
/// side's points for the hand it lost against the best choice (never
/// below 0), `m` 10 when it was not the best (or as good), else 0. So the
/// best is 100, a choice that lost nothing but was not the best 37.
pub fn decision_accuracy(points_lost: f64, was_best: bool) -> f64 {
    let missed = if was_best { 0.0 } else { MISSED_BEST };
    100.0 * (-(points_lost.max(0.0) + missed) / POINTS_SCALE).exp()
}

/// One decision's accuracy, 0 to 100, from the win chance it lost: the
/// curve lichess uses for a move (`103.1668 e^(-0.04354 d) - 3.1669`, `d`
/// in percentage points), so no loss is 100, 2 points 94, 10 points 64.
pub fn chance_accuracy(lost: f64) -> f64 {
    let d = (lost * 100.0).max(0.0);
    (103.1668 * (-0.04354 * d).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A difference in a share (contract made, contract set) that says where
/// the loss lies: below it the two choices are alike there.
const TELLS: f64 = 0.02;

/// What a decision was about, from the situation and where the chosen
/// choice fell short of the best:
/// - a bid, or blind nil or not: bidding;
/// - the seat on a nil not yet broken (its play, or its pass): nil play;
/// - the partner on such a nil: covering it;
/// - else a card that set the opponents less often: setting; one that
///   made the side's contract less often: play; one that changed neither
///   (the contracts as sure either way, so the points went on bags and
///   overtricks): bags.
pub fn category(
    view: &PlayerView,
    decision: Decision,
    chosen: &Weighed<Action>,
    best: &Weighed<Action>,
) -> Category {
    if matches!(decision, Decision::Bid | Decision::BlindNil) {
        return Category::Bidding;
    }
    let on_nil =
        |seat| view.bids()[seat].is_some_and(Bid::is_nil) && view.play.tricks_won[seat] == 0;
    if on_nil(view.seat) {
        return Category::NilPlay;
    }
    if view.partner().is_some_and(on_nil) {
        return Category::NilCover;
    }
    let short = |of: fn(&Weighed<Action>) -> Option<f64>| {
        (of(best).unwrap_or(0.0) - of(chosen).unwrap_or(0.0)).max(0.0)
    };
    let set_lost = short(|w| w.set);
    let contract_lost = short(|w| w.contract);
    if set_lost >= TELLS && set_lost > contract_lost {
        Category::Setting
    } else if contract_lost >= TELLS {
        Category::Play
    } else if best.points > chosen.points {
        Category::Bags
    } else {
        Category::Play
    }
}
