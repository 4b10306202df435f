//! The hand the player holds (or plays for the dummy): a strip of cards,
//! face down until the player looks, marked for what may be played, chosen
//! to pass, or received.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::{CardSet, Decision, Phase, PlayerView};

use super::super::app::App;
use super::super::hand::hand_order;
use super::super::hits::Hits;
use super::super::widgets::{HandCard, hand_strip};

pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let turn = app.human_turn().map(|t| t.decision);
    let cards: Vec<HandCard> = match view.hand {
        None => (0..view.mode().hand_size())
            .map(|_| HandCard {
                card: None,
                playable: false,
                cursor: false,
                lifted: false,
                received: false,
                keyed: false,
            })
            .collect(),
        Some(held_cards) => {
            let legal = view.legal_plays();
            let choosing = app.overlay().is_none() && app.held_trick().is_none();
            // The partner's cards stay marked until the first trick is over.
            let received = match view.exchange {
                Some(e) if view.play.tricks_done == 0 => e.received.unwrap_or_default(),
                _ => CardSet::EMPTY,
            };
            // In the bidding, digits are bids, not cards: no card keys then.
            let keyed = view.phase != Phase::Bidding;
            hand_order(held_cards)
                .into_iter()
                .enumerate()
                .map(|(i, card)| HandCard {
                    card: Some(card),
                    playable: turn != Some(Decision::Play) || legal.contains(card),
                    cursor: choosing
                        && matches!(turn, Some(Decision::Play | Decision::Exchange) | None)
                        && view.phase != Phase::Bidding
                        && i == app.hand_cursor(),
                    // Lifted: chosen to pass, or playable now. Never
                    // both: the exchange is over before the play.
                    lifted: app.to_pass().contains(card)
                        || (turn == Some(Decision::Play) && legal.contains(card)),
                    received: received.contains(card),
                    keyed,
                })
                .collect()
        }
    };
    hand_strip(buf, area, &cards, theme, hits);
}
