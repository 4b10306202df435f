//! A choice already made, weighed by `hard`'s search beside the choices it
//! would have tried instead: what the game review judges a decision by.
//! The seat's view is all it is given, so the verdict uses no card the
//! player could not see. What `hard` itself would have made of the choice
//! comes with the figures: the review faults only what `hard` would not
//! have done, so it never faults `hard`'s own rules.

use crate::engine::{Action, Bid, Decision, PlayerView};

use super::super::normal::NormalBot;
use super::super::{BotRng, Effort};
use super::{
    Budget, Weighing, best_bid, best_pass, blind_or_look, candidates, card_trials, standing_for,
};

/// A choice weighed beside the alternatives, and `hard`'s word on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// Every choice weighed, best first; `chosen` is the ranked choice
    /// that stands for the one taken (a card is tried through the lowest
    /// card equal to it in play).
    pub weighing: Weighing<Action>,
    /// What `hard` would have chosen had its own rules proposed the
    /// choice taken: that choice itself unless the search is sure
    /// (`SURE` standard errors, deal for deal, with a partner's guard:
    /// `Trials::verdict`) another wins more. At a blind-nil offer, what
    /// the blind-nil rule chooses, whatever was taken.
    pub hard_choice: Action,
}

/// `taken` weighed with the alternatives at `decision`, every choice on
/// the same guessed deals. `None` when there was no choice to weigh (one
/// card, or one bid, allowed), when the search cannot weigh `taken` (a
/// blind number, a game with a dummy, a pass of more than four cards, a
/// blind nil with no partner) or when the view cannot be guessed from.
pub fn judge(
    view: &PlayerView,
    decision: Decision,
    taken: Action,
    effort: Effort,
    rng: &mut BotRng,
) -> Option<Judgement> {
    // The search does not know a dummy's changing teams and shown cards.
    if view.mode().dummy().is_some() {
        return None;
    }
    let budget = Budget::of(effort);
    // Each choice weighed (its `chosen` what hard makes of `taken`), and
    // the one among them that stands for `taken`.
    let (weighed, chosen) = match (decision, taken) {
        (Decision::Play, Action::Play(card)) => {
            let cards = candidates(view);
            if cards.len() < 2 {
                return None;
            }
            let at = standing_for(&cards, card)?;
            let trials = card_trials(view, &cards, budget, rng)?;
            let weighed = Weighing {
                chosen: cards[trials.verdict(Some(at), view)],
                ranked: trials.ranked(&cards),
            };
            (weighed.map(Action::Play), Action::Play(cards[at]))
        }
        (Decision::Bid, Action::Bid(bid)) => {
            let tuning = NormalBot::default().tuning;
            let w = best_bid(view, bid, &tuning, budget, rng)?;
            (w.map(Action::Bid), taken)
        }
        (Decision::BlindNil, Action::Look | Action::Bid(Bid::BlindNil)) => {
            let w = blind_or_look(view, budget, rng)?;
            let weighed = w.map(|blind| {
                if blind {
                    Action::Bid(Bid::BlindNil)
                } else {
                    Action::Look
                }
            });
            (weighed, taken)
        }
        (Decision::Exchange, Action::Exchange(cards)) => {
            let w = best_pass(view, cards, budget, rng)?;
            (w.map(Action::Exchange), taken)
        }
        _ => return None,
    };
    let ranked = weighed.ranked;
    (ranked.len() >= 2 && ranked.iter().any(|w| w.choice == chosen)).then_some(Judgement {
        weighing: Weighing { chosen, ranked },
        hard_choice: weighed.chosen,
    })
}
