//! The ladder window: a mode's ranks as the server sent them, and the
//! player's own rated games in that mode, before → after.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::Mode;
use crate::outside::{clean_name, pad};
use crate::protocol::account::{Rated, Rung};

use super::super::input::Key;
use super::super::layout::window;
use super::super::theme::Theme;
use super::super::widgets::{framed, padded};
use super::draw::{arrows, rating_text};
use super::forms::cycle;

/// The widest the ladder's window grows.
const WIDTH: u16 = 64;
/// The columns a name takes in the ladder.
const NAME_COLUMNS: usize = 16;

/// The ladder of one mode, once the server has sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderWindow {
    pub mode: Mode,
    /// `None` until the server answers.
    rows: Option<Vec<Rung>>,
    /// The player's rated games, newest last as the server sends them;
    /// `None` when not signed in.
    you: Option<Vec<Rated>>,
    /// Lines scrolled past.
    scroll: usize,
}

/// What a key in the ladder window asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LadderKey {
    Nothing,
    Close,
    /// Another mode's ladder.
    Ask(Mode),
}

impl LadderWindow {
    pub fn new(mode: Mode) -> LadderWindow {
        LadderWindow {
            mode,
            rows: None,
            you: None,
            scroll: 0,
        }
    }

    pub(super) fn fill(&mut self, rows: Vec<Rung>, you: Option<Vec<Rated>>) {
        self.rows = Some(rows);
        self.you = you;
        self.scroll = 0;
    }

    pub fn key(&mut self, key: Key) -> LadderKey {
        let step = match key {
            Key::Esc | Key::Char('l') => return LadderKey::Close,
            Key::Up | Key::Char('k') => {
                self.scroll = self.scroll.saturating_sub(1);
                return LadderKey::Nothing;
            }
            Key::Down | Key::Char('j') => {
                // Drawing stops it sooner, where the last line shows.
                self.scroll = (self.scroll + 1).min(self.body_lines());
                return LadderKey::Nothing;
            }
            Key::Left | Key::Char('h') => -1,
            Key::Right | Key::Char('m') | Key::Tab => 1,
            _ => return LadderKey::Nothing,
        };
        *self = LadderWindow::new(cycle(&Mode::ALL, self.mode, step));
        LadderKey::Ask(self.mode)
    }

    /// How many lines the window has above its help line, at most.
    fn body_lines(&self) -> usize {
        let rows = self.rows.as_ref().map_or(1, |r| r.len() + 1);
        let games = self.you.as_ref().map_or(0, |g| g.len().max(1) + 2);
        rows + games
    }

    /// The window in the middle of `area`; `you` is the player's name,
    /// picked out among the ranks.
    pub fn render(&self, you: &str, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let lines = self.lines(you, theme);
        let width = WIDTH.min(area.width);
        let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(2));
        let inner = framed(
            &format!("Ladder: {}", self.mode),
            window(area, width, height),
            buf,
            theme,
        );
        // The help line stays at the bottom however far it scrolls.
        let room = usize::from(inner.height.saturating_sub(1));
        let (body, help) = lines.split_at(lines.len() - 1);
        let scroll = self.scroll.min(body.len().saturating_sub(room));
        let shown: Vec<Line> = body.iter().skip(scroll).take(room).cloned().collect();
        Paragraph::new(shown).render(padded(inner), buf);
        let help_row = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
        Paragraph::new(help.to_vec()).render(padded(help_row), buf);
    }

    fn lines(&self, you: &str, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        match &self.rows {
            None => lines.push(Line::from("Asking the server...")),
            Some(rows) if rows.is_empty() => {
                lines.push(Line::from(format!("No rated {} games yet.", self.mode)));
            }
            Some(rows) => {
                lines.push(Line::styled(
                    format!(
                        "{:>4}  {}  {:>13}  {:>5}",
                        "rank",
                        pad("name", NAME_COLUMNS),
                        "rating",
                        "games"
                    ),
                    theme.dim(),
                ));
                for row in rows {
                    lines.push(rung_line(row, you, theme));
                }
            }
        }
        if let Some(games) = &self.you {
            lines.push(Line::from(""));
            lines.extend(history_lines(games, theme));
        }
        let (up_down, left_right) = arrows(theme);
        lines.push(Line::styled(
            format!("{left_right} mode   {up_down} scroll   Esc close"),
            theme.dim(),
        ));
        lines
    }
}

fn rung_line(row: &Rung, you: &str, theme: &Theme) -> Line<'static> {
    let name = clean_name(&row.name, NAME_COLUMNS);
    let rating = rating_text(row.rating, row.deviation, row.provisional, theme);
    let text = format!(
        "{:>4}  {}  {:>13}  {:>5}",
        row.rank,
        pad(&name, NAME_COLUMNS),
        rating,
        row.games
    );
    if row.name == you {
        Line::styled(text, theme.accent())
    } else {
        Line::from(text)
    }
}

/// The player's rated games, newest first.
fn history_lines(games: &[Rated], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("Your rated games", theme.accent())];
    if games.is_empty() {
        lines.push(Line::from("None yet in this mode."));
    }
    let arrow = if theme.ascii { "->" } else { "→" };
    for game in games.iter().rev() {
        let when = u64::try_from(game.finished)
            .map_or_else(|_| "-".to_string(), crate::history::utc_minute);
        let change = game.after - game.before;
        let sign = if change >= 0 { "+" } else { "" };
        lines.push(Line::from(vec![
            Span::styled(format!("{when} UTC  "), theme.dim()),
            Span::raw(format!(
                "{:>5} {arrow} {:>5}  ({sign}{})",
                game.before,
                game.after,
                theme.number(change)
            )),
        ]));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolling_down_stops_at_the_last_line() {
        let mut window = LadderWindow::new(Mode::Partnership);
        let rung = Rung {
            rank: 1,
            name: "Bo".into(),
            rating: 1500,
            deviation: 80,
            games: 3,
            provisional: false,
        };
        window.fill(vec![rung; 3], None);
        for _ in 0..50 {
            window.key(Key::Down);
        }
        assert_eq!(window.scroll, 4, "a header and three rows");
        window.key(Key::Up);
        assert_eq!(window.scroll, 3);
    }
}
