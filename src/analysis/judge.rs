//! One decision judged: the seat's choice weighed beside the alternatives
//! by `hard`'s search, from the seat's view alone.

use crate::bots::hard::judge::judge;
use crate::bots::hard::search_trusted;
use crate::bots::{BotRng, Effort};
use crate::engine::Decision;

use super::class::{category, class_of};
use super::replay::Moment;
use super::{NotJudged, Verdict};

/// The verdict on `moment`, or `None` when there was nothing to weigh (a
/// forced card, one bid allowed) or the search cannot weigh the choice.
/// The best choice is the one with the highest mean win chance; where
/// the search is not trusted (`not_judged`) it is the choice itself.
pub(super) fn verdict(moment: &Moment, effort: Effort, rng: &mut BotRng) -> Option<Verdict> {
    let weighing = judge(&moment.view, moment.decision, moment.taken, effort, rng)?;
    let top = weighing.ranked.first()?;
    let chosen = weighing
        .ranked
        .iter()
        .find(|w| w.choice == weighing.chosen)?;
    let not_judged = not_judged(moment);
    // On a tie the player's choice is as good as the best.
    let best = if chosen.win >= top.win || not_judged.is_some() {
        chosen
    } else {
        top
    };
    let lost = (best.win - chosen.win).max(0.0);
    let trick = (moment.decision == Decision::Play)
        .then(|| u8::try_from(moment.view.play.tricks_done + 1).unwrap_or(u8::MAX));
    Some(Verdict {
        hand: moment.hand,
        trick,
        decision: moment.decision,
        chosen: moment.taken,
        // The player's own card, rather than the equal one tried for it.
        best: if best.choice == chosen.choice {
            moment.taken
        } else {
            best.choice
        },
        win_chosen: chosen.win,
        win_best: best.win,
        points_chosen: chosen.points,
        points_best: best.points,
        class: class_of(lost),
        category: category(&moment.view, moment.decision, chosen, best),
        not_judged,
    })
}

/// Why `moment` is not judged, if it is not: a card where the hint would
/// keep `normal`'s (the one rule both follow, `search_trusted`), as the
/// playouts' habits there are cruder than the rules they would fault.
fn not_judged(moment: &Moment) -> Option<NotJudged> {
    (moment.decision == Decision::Play && !search_trusted(&moment.view))
        .then_some(NotJudged::SideNil)
}
