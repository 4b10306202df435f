//! The memory panel (`m`): shown or hidden at the player's word, for the
//! rest of the session. It shows the cards played this hand, suit by suit,
//! and the suits each seat has shown out of, in the place of the score
//! bar's columns (its title row stays), so the trick and the hand stay in
//! sight at the smallest size. The facts are the engine's `Memory`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use crate::engine::{CardSet, Memory, PlayerView};
use crate::naming::Names;

use super::super::hand::HAND_SUITS;
use super::super::theme::Theme;
use super::super::widgets::suit_spans;

/// Where the first suit of a row starts, after the row's label; the
/// second starts half way across the rest: a suit of thirteen ranks fits
/// in either at 80 columns.
const LABEL: u16 = 9;

/// Whether the panel is shown.
#[derive(Debug, Default)]
pub struct MemoryPanel {
    shown: bool,
}

impl MemoryPanel {
    /// `m`: shows the panel, or hides it.
    pub fn toggle(&mut self) {
        self.shown = !self.shown;
    }

    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// Draws the panel, when it is shown, over the score bar `area`, below
    /// its title row: what `view` has seen, the seats called by `names`.
    pub fn draw(
        &self,
        view: &PlayerView,
        names: &Names,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        if !self.shown {
            return;
        }
        let rows = Rect::new(
            area.x,
            area.y + 1,
            area.width,
            area.height.saturating_sub(1),
        );
        Clear.render(rows, buf);
        buf.set_style(rows, theme.base());
        let memory = Memory::of(view);
        let half = rows.width.saturating_sub(LABEL) / 2;
        let label = |text: &str, y: u16, buf: &mut Buffer| {
            buf.set_string(rows.x + 1, y, text, theme.accent());
        };
        for (row, pair) in HAND_SUITS.chunks(2).enumerate() {
            let y = rows.y + row as u16;
            if y >= rows.bottom() {
                return;
            }
            if row == 0 {
                label("Played", y, buf);
            }
            for (k, &suit) in pair.iter().enumerate() {
                let x = rows.x + LABEL + k as u16 * half;
                let spans = suit_spans(memory.played_in(suit), suit, CardSet::EMPTY, theme);
                buf.set_line(x, y, &Line::from(spans), half.saturating_sub(1));
            }
        }
        let y = rows.y + 2;
        if y >= rows.bottom() {
            return;
        }
        label("Voids", y, buf);
        let mut spans: Vec<Span> = Vec::new();
        for (seat, suits) in memory.seats_void(HAND_SUITS) {
            if !spans.is_empty() {
                spans.push(Span::raw("   "));
            }
            spans.push(Span::raw(names.seat(seat).to_string()));
            for suit in suits {
                spans.push(Span::raw(" "));
                let sign = theme.suit(suit).to_string();
                spans.push(Span::styled(sign, theme.suit_style(suit)));
            }
        }
        if spans.is_empty() {
            spans.push(Span::styled("none shown yet", theme.dim()));
        }
        let width = rows.width.saturating_sub(LABEL);
        buf.set_line(rows.x + LABEL, y, &Line::from(spans), width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::normal::NormalBot;
    use crate::engine::{Mode, Rules, Seat};
    use crate::fairness::Dealing;
    use crate::table::{Player, Table};

    /// The player's view after `cards` cards of the first hand, every seat
    /// played by a computer player.
    fn after(cards: u32) -> PlayerView {
        let players = Mode::Partnership
            .each_seat()
            .map(|_| Player::Bot(Box::new(NormalBot::default())))
            .collect();
        let mut table = Table::new(Rules::classic(Mode::Partnership), Dealing::Open(3), players);
        while table.view(Seat::new(0)).play.played.len() < cards {
            table
                .step_bot()
                .expect("a bot's turn")
                .expect("a legal move");
        }
        table.view(Seat::new(0))
    }

    /// What the panel draws over a score bar of 80 by 4.
    fn drawn(panel: &MemoryPanel, view: &PlayerView) -> String {
        let area = Rect::new(0, 0, 80, 4);
        let mut buf = Buffer::empty(area);
        let names = Names::new(Mode::Partnership, "You");
        panel.draw(view, &names, area, &mut buf, &Theme::PLAIN);
        let rows = (0..area.height).map(|y| {
            let row = (0..area.width).map(|x| buf[(x, y)].symbol());
            row.collect::<String>().trim_end().to_string()
        });
        rows.collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn m_shows_the_panel_and_hides_it_again() {
        let mut panel = MemoryPanel::default();
        assert!(!panel.is_shown());
        panel.toggle();
        assert!(panel.is_shown());
        panel.toggle();
        assert!(!panel.is_shown());
    }

    #[test]
    fn hidden_it_draws_nothing_and_shown_it_says_the_cards_played_and_voids() {
        let mut panel = MemoryPanel::default();
        let start = after(0);
        assert_eq!(drawn(&panel, &start).trim(), "", "hidden, nothing");
        panel.toggle();
        let fresh = drawn(&panel, &start);
        assert!(fresh.lines().nth(1).unwrap().starts_with(" Played"));
        assert!(fresh.contains(" Voids   none shown yet"), "{fresh}");
        let late = drawn(&panel, &after(40));
        assert!(!late.contains("none shown yet"), "{late}");
        assert_ne!(late.lines().nth(1), fresh.lines().nth(1), "cards played");
    }
}
