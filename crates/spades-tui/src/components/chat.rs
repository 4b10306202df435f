//! The chat at a shared table: the line being typed (`/` opens it) and,
//! over the foot of the table while it is, the chat so far, which PgUp and
//! PgDn scroll.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::super::input::Key;
use super::super::theme::Theme;
use super::super::widgets::framed;

/// Chat lines a PgUp or PgDn scrolls.
const STEP: usize = 3;
/// Chat lines shown at once over the table.
pub const SHOWN: usize = 6;
/// The widest the window grows.
const WIDTH: u16 = 78;

/// The chat line being typed, if one is, and how far back the chat shown
/// above it is scrolled.
#[derive(Debug, Default)]
pub struct Chat {
    line: Option<String>,
    scroll: usize,
}

impl Chat {
    /// Starts a new line.
    pub fn open(&mut self) {
        self.line = Some(String::new());
    }

    pub fn is_open(&self) -> bool {
        self.line.is_some()
    }

    /// The line being typed, if one is.
    pub fn line(&self) -> Option<&str> {
        self.line.as_deref()
    }

    /// How many lines back the chat shown is scrolled.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// A key while the line is open: it writes the line, and nothing else.
    /// `said` is how many lines the chat holds. Returns the line to send
    /// once Enter ends it.
    pub fn key(&mut self, key: Key, said: usize) -> Option<String> {
        let line = self.line.as_mut()?;
        match key {
            Key::Esc => self.close(),
            Key::Enter => {
                let text = line.trim().to_string();
                self.close();
                return Some(text);
            }
            Key::Backspace => {
                line.pop();
            }
            Key::Space => line.push(' '),
            // The chat above the line scrolls back a few lines at a time.
            Key::PageUp | Key::Up => {
                let most = said.saturating_sub(SHOWN);
                self.scroll = (self.scroll + STEP).min(most);
            }
            Key::PageDown | Key::Down => self.scroll = self.scroll.saturating_sub(STEP),
            Key::Char(c) if line.chars().count() < crate::protocol::MAX_CHAT => line.push(c),
            _ => {}
        }
        None
    }

    fn close(&mut self) {
        self.line = None;
        self.scroll = 0;
    }

    /// The chat so far (`log`, oldest first), over the foot of `table`.
    pub fn draw(&self, log: &[String], table: Rect, buf: &mut Buffer, theme: &Theme) {
        // Scrolled back to the first lines, the window stays full.
        let end = log
            .len()
            .saturating_sub(self.scroll)
            .max(SHOWN.min(log.len()));
        let start = end.saturating_sub(SHOWN);
        let mut lines: Vec<Line> = log[start..end]
            .iter()
            .map(|l| Line::from(l.as_str()))
            .collect();
        if lines.is_empty() {
            lines.push(Line::styled("Nothing said yet.", theme.dim()));
        }
        let title = if log.len() > SHOWN {
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
        let inner = framed(&title, area, buf, theme);
        Paragraph::new(lines).render(inner.inner(Margin::new(1, 0)), buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(chat: &mut Chat, text: &str) {
        for c in text.chars() {
            let key = if c == ' ' { Key::Space } else { Key::Char(c) };
            assert_eq!(chat.key(key, 0), None);
        }
    }

    #[test]
    fn enter_sends_the_line_trimmed_and_closes_it() {
        let mut chat = Chat::default();
        assert_eq!(
            chat.key(Key::Char('x'), 0),
            None,
            "closed, it takes nothing"
        );
        chat.open();
        typed(&mut chat, " hello  ");
        chat.key(Key::Backspace, 0);
        assert_eq!(chat.line(), Some(" hello "));
        assert_eq!(chat.key(Key::Enter, 0), Some("hello".to_string()));
        assert!(!chat.is_open());
    }

    #[test]
    fn scrolling_stops_at_the_first_lines_and_esc_forgets_it() {
        let mut chat = Chat::default();
        chat.open();
        chat.key(Key::PageUp, SHOWN + 4);
        assert_eq!(chat.scroll(), STEP);
        chat.key(Key::PageUp, SHOWN + 4);
        assert_eq!(chat.scroll(), 4, "no further back than the first line");
        chat.key(Key::PageDown, SHOWN + 4);
        assert_eq!(chat.scroll(), 1);
        assert_eq!(chat.key(Key::Esc, SHOWN + 4), None);
        assert_eq!((chat.is_open(), chat.scroll()), (false, 0));
    }
}
