//! A choice already made, weighed by `hard`'s search beside the choices it
//! would have tried instead: what the game review judges a decision by.
//! The seat's view is all it is given, so the verdict uses no card the
//! player could not see.

use crate::engine::{Action, Bid, Decision, PlayerView};

use super::super::normal::NormalBot;
use super::super::{BotRng, Effort};
use super::{
    Budget, Gamble, Weighing, best_bid, best_pass, blind_or_look, candidates, card_trials,
    standing_for,
};

/// `taken` weighed with the alternatives at `decision`, every choice on the
/// same guessed deals. The answer's `chosen` is the ranked choice that
/// stands for `taken` (a card is tried through the lowest card equal to it
/// in play). `None` when there was no choice to weigh (one card, or one
/// bid, allowed), when the search cannot weigh `taken` (a blind number, a
/// game with a dummy, a pass of more than four cards) or when the view
/// cannot be guessed from.
pub fn judge(
    view: &PlayerView,
    decision: Decision,
    taken: Action,
    effort: Effort,
    rng: &mut BotRng,
) -> Option<Weighing<Action>> {
    // The search does not know a dummy's changing teams and shown cards.
    if view.mode().dummy().is_some() {
        return None;
    }
    let budget = Budget::of(effort);
    // Each choice weighed, and the one among them that stands for `taken`.
    let (ranked, chosen) = match (decision, taken) {
        (Decision::Play, Action::Play(card)) => {
            let cards = candidates(view);
            if cards.len() < 2 {
                return None;
            }
            let at = standing_for(&cards, card)?;
            let trials = card_trials(view, &cards, budget, rng)?;
            let ranked = Weighing {
                chosen: card,
                ranked: trials.ranked(&cards),
            };
            (ranked.map(Action::Play), Action::Play(cards[at]))
        }
        (Decision::Bid, Action::Bid(bid)) => {
            let tuning = NormalBot::default().tuning;
            let w = best_bid(view, bid, &tuning, budget, rng)?;
            (w.map(Action::Bid), taken)
        }
        (Decision::BlindNil, Action::Look | Action::Bid(Bid::BlindNil)) => {
            let w = blind_or_look(view, budget, rng, Gamble::Whenever)?;
            let ranked = w.map(|blind| {
                if blind {
                    Action::Bid(Bid::BlindNil)
                } else {
                    Action::Look
                }
            });
            (ranked, taken)
        }
        (Decision::Exchange, Action::Exchange(cards)) => {
            let w = best_pass(view, cards, budget, rng)?;
            (w.map(Action::Exchange), taken)
        }
        _ => return None,
    };
    let ranked = ranked.ranked;
    (ranked.len() >= 2 && ranked.iter().any(|w| w.choice == chosen))
        .then_some(Weighing { chosen, ranked })
}
