//! The window at a hand's end, as the table and the replay both draw it:
//! each side's summary (`summary::hand_summary`) under its name, the card
//! out of play, in a framed window named for the hand.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::Card;

use super::layout;
use super::theme::Theme;
use super::widgets::{framed, padded};

/// A side's part: its name, then each line of its summary indented.
pub fn side_lines(title: String, lines: &[String], theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled(title, theme.accent())];
    for l in lines {
        out.push(Line::from(format!("  {l}")));
    }
    out
}

/// The card dealt to no one (cutthroat), once the hand is over.
pub fn out_of_play(card: Card, theme: &Theme) -> Line<'static> {
    Line::from(format!("Card out of play: {}", theme.card(card)))
}

/// Draws `lines` in the window of hand `hand`, with `below` rows left
/// under them; returns the room inside the window's border.
pub fn window(
    hand: u32,
    lines: Vec<Line>,
    below: u16,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) -> Rect {
    let height = lines.len() as u16 + 2 + below;
    let window = layout::window(area, 66, height);
    let inner = framed(&format!("Hand {hand} scored"), window, buf, theme);
    Paragraph::new(lines).render(padded(inner), buf);
    inner
}
