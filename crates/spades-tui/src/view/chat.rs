//! The chat so far, over the foot of the table while a chat line is typed
//! at a shared table; PgUp and PgDn scroll it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::super::app::{App, CHAT_SHOWN};
use super::super::widgets::framed;
/// The widest the window grows.
const WIDTH: u16 = 78;

pub(super) fn draw(app: &App, table: Rect, buf: &mut Buffer) {
    let (log, back) = app.chat_log();
    // Scrolled back to the first lines, the window stays full.
    let end = log
        .len()
        .saturating_sub(back)
        .max(CHAT_SHOWN.min(log.len()));
    let start = end.saturating_sub(CHAT_SHOWN);
    let mut lines: Vec<Line> = log[start..end]
        .iter()
        .map(|l| Line::from(l.as_str()))
        .collect();
    if lines.is_empty() {
        lines.push(Line::styled("Nothing said yet.", app.theme().dim()));
    }
    let title = if log.len() > CHAT_SHOWN {
        format!(
            "Chat, lines {}-{end} of {}   PgUp/PgDn scroll",
            start + 1,
            log.len()
        )
    } else {
        "Chat".to_string()
    };
    let height = (lines.len() as u16 + 2).min(table.height);
    let width = table.width.min(WIDTH);
    let area = Rect {
        x: table.x + (table.width - width) / 2,
        y: table.bottom() - height,
        width,
        height,
    };
    let inner = framed(&title, area, buf, app.theme());
    Paragraph::new(lines).render(inner.inner(Margin::new(1, 0)), buf);
}
