//! The memory panel (`m`): the cards played this hand, suit by suit, and
//! the suits each seat has shown out of. It takes the place of the score
//! bar's columns (its title row stays), so the trick and the hand stay in
//! sight at the smallest size. The facts are the engine's `Memory`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use crate::engine::{CardSet, Memory, PlayerView};

use super::super::app::App;
use super::super::hand::HAND_SUITS;
use super::super::widgets::suit_spans;

/// Where the first suit of a row starts, after the row's label; the
/// second starts half way across the rest: a suit of thirteen ranks fits
/// in either at 80 columns.
const LABEL: u16 = 9;

/// Draws the panel over the score bar `area`, below its title row.
pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
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
        spans.push(Span::raw(app.names().seat(seat).to_string()));
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
