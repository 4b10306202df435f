//! The hand the player chooses from: the cursor over its cards, moved by
//! the arrows or put on a card by its key, and the strip of cards drawn
//! face down until the player looks, marked for what may be played,
//! chosen to pass, or received.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::engine::{Card, CardSet, Decision, Phase, PlayerView};

use super::super::hand::{CARD_KEYS, hand_order};
use super::super::hits::Hits;
use super::super::input::Key;
use super::super::theme::Theme;
use super::super::widgets::{HandCard, hand_strip};

/// Where the hand's cursor is: a place in the hand as shown.
#[derive(Debug, Default)]
pub struct Hand {
    cursor: usize,
}

/// What the hand shows besides its cards: the player's decision, whether
/// they may choose now (no window, no trick held), the cards chosen to pass.
#[derive(Debug, Clone, Copy)]
pub struct Marks {
    pub turn: Option<Decision>,
    pub choosing: bool,
    pub to_pass: CardSet,
}

impl Hand {
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// A new deal: the cursor starts at the first card.
    pub fn reset(&mut self) {
        self.cursor = 0;
    }

    /// Keeps the cursor on a card of a hand of `len`.
    pub fn keep_within(&mut self, len: usize) {
        self.cursor = self.cursor.min(len.saturating_sub(1));
    }

    /// Puts the cursor on `card`, if `hand` (as shown) holds it.
    pub fn place_on(&mut self, card: Card, hand: &[Card]) {
        if let Some(place) = hand.iter().position(|&c| c == card) {
            self.cursor = place;
        }
    }

    /// The card under the cursor in `hand` (as shown).
    pub fn card(&self, hand: &[Card]) -> Option<Card> {
        hand.get(self.cursor).copied()
    }

    /// Moves the cursor on an arrow, or returns the card whose key was
    /// pressed (the cursor going to it).
    pub fn key(&mut self, key: Key, hand: &[Card]) -> Option<Card> {
        match key {
            Key::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                None
            }
            Key::Right => {
                self.cursor = (self.cursor + 1).min(hand.len().saturating_sub(1));
                None
            }
            Key::Char(c) => {
                let place = CARD_KEYS.iter().position(|&k| char::from(k) == c)?;
                let card = *hand.get(place)?;
                self.cursor = place;
                Some(card)
            }
            _ => None,
        }
    }

    /// The strip of the cards `view` holds (the acting seat's), as `marks`
    /// says; each card's place is kept in `hits`.
    pub fn draw(
        &self,
        view: &PlayerView,
        marks: Marks,
        area: Rect,
        buf: &mut Buffer,
        hits: &mut Hits,
        theme: &Theme,
    ) {
        let turn = marks.turn;
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
                        cursor: marks.choosing
                            && matches!(turn, Some(Decision::Play | Decision::Exchange) | None)
                            && view.phase != Phase::Bidding
                            && i == self.cursor,
                        // Lifted: chosen to pass, or playable now. Never
                        // both: the exchange is over before the play.
                        lifted: marks.to_pass.contains(card)
                            || (turn == Some(Decision::Play) && legal.contains(card)),
                        received: received.contains(card),
                        keyed,
                    })
                    .collect()
            }
        };
        hand_strip(buf, area, &cards, theme, hits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_move_within_the_hand_and_a_cards_key_picks_it() {
        let hand = hand_order("AS KS 2H 3C".parse().unwrap());
        let mut at = Hand::default();
        assert_eq!(at.key(Key::Left, &hand), None);
        assert_eq!(at.cursor(), 0);
        for _ in 0..6 {
            at.key(Key::Right, &hand);
        }
        assert_eq!(at.cursor(), 3, "no further than the last card");
        assert_eq!(at.key(Key::Char('2'), &hand), Some(hand[1]));
        assert_eq!(at.card(&hand), Some(hand[1]));
        assert_eq!(at.key(Key::Char('9'), &hand), None, "no ninth card");
        at.keep_within(1);
        assert_eq!(at.cursor(), 0);
    }
}
