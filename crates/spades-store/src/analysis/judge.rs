//! One decision judged: the seat's choice weighed beside the alternatives
//! by `hard`'s search, from the seat's view alone, and classed only where
//! `hard` itself would not have made it.

use crate::bots::hard::judge::judge;
use crate::bots::hard::search_trusted;
use crate::bots::{BotRng, Effort};
use crate::engine::Decision;

use super::class::{category, class_of};
use super::replay::Moment;
use super::{NotJudged, Verdict};

/// The verdict on `moment`, or `None` when there was nothing to weigh (a
/// forced card, one bid allowed) or the search cannot weigh the choice.
///
/// The best choice is the one with the highest mean win chance, except at
/// a blind-nil offer, where it is the blind-nil rule's choice (`hard`'s,
/// measured to win more games than the search's mean alone would); where
/// the search is not trusted (`not_judged`), or the choice did as well,
/// it is the choice itself. A choice is classed only where `hard`, had
/// its own rules proposed it, would have made another (the search sure
/// another wins more): the review never faults the bots' own rules.
pub(super) fn verdict(moment: &Moment, effort: Effort, rng: &mut BotRng) -> Option<Verdict> {
    let judged = judge(&moment.view, moment.decision, moment.taken, effort, rng)?;
    let ranked = &judged.weighing.ranked;
    let find = |choice| ranked.iter().find(|w| w.choice == choice);
    let chosen = find(judged.weighing.chosen)?;
    let not_judged = not_judged(moment);
    let reference = match moment.decision {
        Decision::BlindNil => find(judged.hard_choice)?,
        _ => ranked.first()?,
    };
    // On a tie the player's choice is as good as the best.
    let best = if chosen.win >= reference.win || not_judged.is_some() {
        chosen
    } else {
        reference
    };
    let lost = (best.win - chosen.win).max(0.0);
    let faulted = judged.hard_choice != chosen.choice && not_judged.is_none();
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
        class: class_of(lost, faulted),
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
