//! The exchange (blind nil's pass): the cards chosen to pass to the
//! partner, chosen with the hand's cursor or a card's key, and the panel's
//! lines saying how many are chosen of how many.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::engine::{Card, CardSet, PlayerView};

use super::super::hand::faces;
use super::super::input::Key;
use super::super::theme::Theme;
use super::hand::Hand;
use super::panel_row;

/// The cards chosen to pass so far.
#[derive(Debug, Default)]
pub struct Exchange {
    to_pass: CardSet,
}

/// What a key at the exchange comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Passing {
    /// Only the cursor moved.
    Nothing,
    /// The choice changed: an earlier refusal no longer applies.
    Chosen,
    /// A card more than the pass takes: why not, in a sentence.
    Refused(String),
    /// Enter: these cards go to the partner.
    Pass(CardSet),
}

impl Exchange {
    pub fn to_pass(&self) -> CardSet {
        self.to_pass
    }

    /// Chooses `cards` (a hint's, or what the table took).
    pub fn set(&mut self, cards: CardSet) {
        self.to_pass = cards;
    }

    pub fn clear(&mut self) {
        self.to_pass = CardSet::EMPTY;
    }

    /// Chooses `card`, or takes it back, for a pass of `count` cards.
    pub fn toggle(&mut self, card: Card, count: u8) -> Passing {
        if self.to_pass.contains(card) {
            self.to_pass.remove(card);
        } else if self.to_pass.len() >= u32::from(count) {
            return Passing::Refused(format!(
                "You pass exactly {count} cards: take one back before choosing another."
            ));
        } else {
            self.to_pass.insert(card);
        }
        Passing::Chosen
    }

    /// A key at the player's turn to pass `count` cards from `cards` (the
    /// hand as shown), whose cursor is `hand`.
    pub fn key(&mut self, key: Key, hand: &mut Hand, cards: &[Card], count: u8) -> Passing {
        let card = match key {
            Key::Enter => return Passing::Pass(self.to_pass),
            Key::Space => hand.card(cards),
            _ => hand.key(key, cards),
        };
        card.map_or(Passing::Nothing, |card| self.toggle(card, count))
    }

    /// How to choose the cards to pass, and the ones chosen so far; returns
    /// the first row a notice may take.
    pub fn draw(&self, view: &PlayerView, inner: Rect, buf: &mut Buffer, theme: &Theme) -> u16 {
        let row = |i| panel_row(inner, i);
        buf.set_stringn(
            row(0).x,
            row(0).y,
            "Choose with arrows and space, or a card's key or a click; Enter passes them.",
            row(0).width as usize,
            Style::new(),
        );
        let count = view.exchange.map_or(0, |e| e.count);
        let chosen = self.to_pass;
        let line = format!(
            "To pass ({} of {count}): {}",
            chosen.len(),
            if chosen.is_empty() {
                "none yet".to_string()
            } else {
                faces(chosen, theme)
            }
        );
        buf.set_string(row(1).x, row(1).y, line, Style::new());
        // Choosing a card clears a notice, so a long one hides this only until then.
        1
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::hand::hand_order;
    use super::*;

    #[test]
    fn the_pass_takes_its_count_and_no_more() {
        let cards = hand_order("AS KS 2H 3C".parse().unwrap());
        let (mut exchange, mut hand) = (Exchange::default(), Hand::default());
        assert_eq!(
            exchange.key(Key::Space, &mut hand, &cards, 2),
            Passing::Chosen
        );
        assert_eq!(
            exchange.key(Key::Char('2'), &mut hand, &cards, 2),
            Passing::Chosen
        );
        let third = exchange.key(Key::Char('3'), &mut hand, &cards, 2);
        assert!(matches!(third, Passing::Refused(_)), "{third:?}");
        assert_eq!(
            exchange.key(Key::Char('1'), &mut hand, &cards, 2),
            Passing::Chosen
        );
        assert_eq!(exchange.to_pass().len(), 1, "a chosen card is taken back");
        assert_eq!(
            exchange.key(Key::Right, &mut hand, &cards, 2),
            Passing::Nothing
        );
        let passed: CardSet = [cards[1]].into_iter().collect();
        assert_eq!(
            exchange.key(Key::Enter, &mut hand, &cards, 2),
            Passing::Pass(passed)
        );
    }
}
