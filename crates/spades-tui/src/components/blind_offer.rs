//! The blind offer, before the player's cards are seen: blind nil, a blind
//! number, or looking, as buttons; the one in focus and the blind number
//! chosen, moved by the arrows or typed.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::engine::{Action, Bid, PlayerView};

use super::super::hits::{Hits, OfferChoice, Target};
use super::super::input::Key;
use super::super::theme::Theme;
use super::super::widgets::button;
use super::digits::Digits;
use super::panel_row;

/// The answer in focus, the blind number last chosen (0: none yet), and
/// the digits typed toward one.
#[derive(Debug)]
pub struct BlindOffer {
    cursor: OfferChoice,
    number: u8,
    digits: Digits,
}

impl Default for BlindOffer {
    fn default() -> Self {
        BlindOffer {
            cursor: OfferChoice::Look,
            number: 0,
            digits: Digits::default(),
        }
    }
}

/// The answers the blind offer has now, in the panel's order: blind nil
/// and a blind number where the engine would take them, and looking.
pub fn choices(view: &PlayerView) -> Vec<OfferChoice> {
    let blind = view.blind_bids();
    let mut choices = Vec::new();
    if blind.contains(&Bid::BlindNil) {
        choices.push(OfferChoice::BlindNil);
    }
    if blind.iter().any(|b| b.is_numeric()) {
        choices.push(OfferChoice::BlindNumber);
    }
    choices.push(OfferChoice::Look);
    choices
}

impl BlindOffer {
    /// A new deal: the focus on looking, no number chosen.
    pub fn reset(&mut self) {
        self.cursor = OfferChoice::Look;
        self.number = 0;
    }

    pub fn cursor(&self) -> OfferChoice {
        self.cursor
    }

    /// The blind number the offer shows: the one chosen, else the
    /// smallest the engine would take; `None` when none is on offer.
    pub fn number(&self, view: &PlayerView) -> Option<u8> {
        let numbers = view.blind_numbers();
        numbers
            .iter()
            .copied()
            .find(|&n| n == self.number)
            .or(numbers.first().copied())
    }

    /// What answering `choice` does.
    pub fn choose(&self, choice: OfferChoice, view: &PlayerView) -> Option<Action> {
        match choice {
            OfferChoice::BlindNil => Some(Action::Bid(Bid::BlindNil)),
            OfferChoice::BlindNumber => self.number(view).map(|n| Action::Bid(Bid::Blind(n))),
            OfferChoice::Look => Some(Action::Look),
        }
    }

    /// Puts the focus on `action` (a hint's answer to the offer).
    pub fn select(&mut self, action: Action) {
        self.cursor = match action {
            Action::Bid(Bid::Blind(n)) => {
                self.number = n;
                OfferChoice::BlindNumber
            }
            Action::Bid(_) => OfferChoice::BlindNil,
            _ => OfferChoice::Look,
        };
    }

    /// A key at the offer, typed at `now`; returns the answer it makes.
    pub fn key(&mut self, key: Key, view: &PlayerView, now: Instant) -> Option<Action> {
        if !matches!(key, Key::Char('0'..='9')) {
            self.digits.clear();
        }
        let choices = choices(view);
        let at = choices.iter().position(|&c| c == self.cursor).unwrap_or(0);
        let step = |by: usize| choices[(at + by) % choices.len()];
        match key {
            Key::Char('b') => return Some(Action::Bid(Bid::BlindNil)),
            Key::Char('c') => return Some(Action::Look),
            Key::Up | Key::Down if self.cursor == OfferChoice::BlindNumber => {
                self.step_number(view, key == Key::Up);
            }
            Key::Right | Key::Down => self.cursor = step(1),
            Key::Left | Key::Up => self.cursor = step(choices.len() - 1),
            Key::Char(d @ '0'..='9') => {
                let max = view.mode().hand_size();
                if let Some(n) = self.digits.push(d, max, now)
                    && view.blind_bids().contains(&Bid::Blind(n))
                {
                    self.number = n;
                    self.cursor = OfferChoice::BlindNumber;
                }
            }
            Key::Enter | Key::Space => return self.choose(self.cursor, view),
            _ => {}
        }
        None
    }

    /// The blind number one place up or down from the one shown.
    fn step_number(&mut self, view: &PlayerView, up: bool) {
        let Some(now) = self.number(view) else {
            return;
        };
        let numbers = view.blind_bids().into_iter().filter(|b| b.is_numeric());
        let next = if up {
            numbers.map(Bid::tricks).find(|&n| n > now)
        } else {
            numbers.map(Bid::tricks).rfind(|&n| n < now)
        };
        self.number = next.unwrap_or(now);
    }

    /// The choices as buttons, and what the one in focus is worth. A
    /// notice of two lines (`two_lines`, a hint) needs both rows under the
    /// buttons: in a panel of three the line that says the cards stay face
    /// down gives way, the buttons moving up. Returns the first row a
    /// notice may take.
    pub fn draw(
        &self,
        view: &PlayerView,
        two_lines: bool,
        inner: Rect,
        buf: &mut Buffer,
        hits: &mut Hits,
        theme: &Theme,
    ) -> u16 {
        let row = |i| panel_row(inner, i);
        let value = view.rules.blind_nil.value;
        let minus = theme.minus();
        let top = u16::from(!(two_lines && inner.height < 4));
        if top > 0 {
            buf.set_string(
                row(0).x,
                row(0).y,
                "Your cards stay face down until you decide.",
                Style::new(),
            );
        }
        let number = self.number(view);
        let choices = choices(view);
        let line = match number {
            Some(n)
                if self.cursor == OfferChoice::BlindNumber
                    || !choices.contains(&OfferChoice::BlindNil) =>
            {
                format!(
                    "Blind {n}: your side's contract counts double, made or set; up/down changes."
                )
            }
            _ => {
                format!("Blind nil: +{value} if you take no trick, {minus}{value} if you take any.")
            }
        };
        let under = row(top + 1);
        buf.set_stringn(under.x, under.y, line, under.width as usize, theme.dim());
        let mut x = row(top).x;
        for choice in choices {
            let text = match choice {
                OfferChoice::BlindNil => "b  Bid blind nil".to_string(),
                OfferChoice::BlindNumber => format!("Bid blind {}", number.unwrap_or(0)),
                OfferChoice::Look => "c  Look at my cards".to_string(),
            };
            let focused = self.cursor == choice;
            let (y, target) = (row(top).y, Target::Offer(choice));
            x += button(buf, x, y, &text, focused, theme, target, hits) + 2;
        }
        top + 1
    }
}
