//! What a decision accepts, as the protocol lists it with each ask, and
//! why an action outside it is refused: the words a network client and a
//! bot in another process are both given.

use serde::{Deserialize, Serialize};

use crate::engine::{Action, Bid, CardSet, Decision, PlayerView};

/// The actions a decision accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Legal {
    /// The bids allowed now (and, before the cards are seen, `look`).
    Bids {
        bids: Vec<Bid>,
        look: bool,
    },
    /// Exactly `count` cards from the hand.
    Exchange {
        count: u8,
    },
    Cards {
        cards: CardSet,
    },
}

impl Legal {
    /// The actions `view`'s seat may take for `decision`, as the engine
    /// allows them.
    pub fn of(view: &PlayerView, decision: Decision) -> Legal {
        match decision {
            Decision::BlindNil => Legal::Bids {
                bids: view.blind_bids(),
                look: true,
            },
            Decision::Bid => Legal::Bids {
                bids: view.allowed_bids(),
                look: false,
            },
            Decision::Exchange => Legal::Exchange {
                count: view.exchange.map_or(0, |e| e.count),
            },
            Decision::Play => Legal::Cards {
                cards: view.legal_plays(),
            },
        }
    }

    /// Does this list accept `action` (from a hand of `hand`)?
    pub fn allows(&self, action: &Action, hand: CardSet) -> bool {
        match (self, action) {
            (Legal::Bids { look, .. }, Action::Look) => *look,
            (Legal::Bids { bids, .. }, Action::Bid(bid)) => bids.contains(bid),
            (Legal::Exchange { count }, Action::Exchange(cards)) => {
                cards.len() == u32::from(*count) && cards.is_subset(hand)
            }
            (Legal::Cards { cards }, Action::Play(card)) => cards.contains(*card),
            _ => false,
        }
    }

    /// Why `action` is not among those asked for by `decision`, in the
    /// engine's words where it has them (`PlayerView::refusal`): what the
    /// server says to a client and the table to a program at a seat.
    pub fn refusal(view: &PlayerView, decision: Decision, action: &Action) -> String {
        let asked_for = match action {
            Action::Play(_) => decision == Decision::Play,
            Action::Bid(_) => matches!(decision, Decision::Bid | Decision::BlindNil),
            Action::Exchange(_) => decision == Decision::Exchange,
            Action::Look => decision == Decision::BlindNil,
        };
        let engine = asked_for
            .then(|| view.refusal(*action))
            .flatten()
            .map(|e| e.to_string());
        engine.unwrap_or_else(|| match (decision, Legal::of(view, decision)) {
            (_, Legal::Exchange { count }) => {
                format!("pass exactly {count} cards of your hand")
            }
            (Decision::BlindNil, _) => "bid blind or look at your cards".to_string(),
            (Decision::Bid, _) => "a bid is asked for".to_string(),
            (Decision::Play, Legal::Cards { cards }) => {
                let cards: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
                format!("play one of {}", cards.join(" "))
            }
            _ => "that is not one of the actions asked for".to_string(),
        })
    }

    /// One action this list accepts, for a bot with nothing better.
    pub fn first(&self, hand: CardSet) -> Option<Action> {
        match self {
            Legal::Bids { look: true, .. } => Some(Action::Look),
            Legal::Bids { bids, .. } => bids.first().map(|&b| Action::Bid(b)),
            Legal::Exchange { count } => {
                let cards: CardSet = hand.iter().take(usize::from(*count)).collect();
                Some(Action::Exchange(cards))
            }
            Legal::Cards { cards } => cards.lowest().map(Action::Play),
        }
    }
}
