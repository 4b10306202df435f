//! The player's own table in the lobby: one where they hold a seat (they
//! left it, or lost the connection, and a bot plays it meanwhile) is
//! listed first, Enter takes the seat back, and quitting the program
//! while it plays on is asked first.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::protocol::lobby::ListedTable;

use super::super::layout::window;
use super::super::theme::Theme;
use super::super::widgets::{framed, padded};
use super::{LobbyState, Outcome, Window};

impl LobbyState {
    /// The tables this machine keeps a seat token for (`net::client::seats_kept`);
    /// those listed where the player holds a seat come first.
    pub fn set_kept(&mut self, tables: Vec<String>) {
        self.kept = tables;
        self.yours_first();
    }

    /// Does the player hold a seat at `table`? A token is kept for it
    /// here, and the server lists a seat of its game under their name.
    pub fn is_yours(&self, table: &ListedTable) -> bool {
        self.kept.contains(&table.table) && table.seat_held_by(&self.player.name)
    }

    /// The player's own tables, listed: the first of them first.
    pub fn yours(&self) -> impl Iterator<Item = &ListedTable> {
        self.tables.iter().filter(|t| self.is_yours(t))
    }

    /// The player's own tables before the others, in the server's order
    /// otherwise.
    pub(super) fn yours_first(&mut self) {
        let mut tables = std::mem::take(&mut self.tables);
        tables.sort_by_key(|t| !self.is_yours(t));
        self.tables = tables;
    }

    /// Quits, unless the player holds a seat at a table that plays on:
    /// then asks first.
    pub(super) fn quit(&mut self) -> Outcome {
        if self.yours().next().is_some() {
            self.window = Window::ConfirmQuit;
            return Outcome::Nothing;
        }
        Outcome::Quit
    }
}

/// The question before quitting with a seat still held, and what it costs.
pub(super) fn confirm_quit(state: &LobbyState, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let rated = state.yours().any(|t| t.rated);
    let mut lines = vec![
        Line::from("You hold a seat at a table that plays on:"),
        Line::from("a bot plays it until you take it back."),
    ];
    if rated {
        lines.push(Line::from("This rated game counts as your loss, unless"));
        lines.push(Line::from("you are back in your seat when it ends."));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled("y  quit    n  stay", theme.accent()));
    let height = lines.len() as u16 + 2;
    let inner = framed("Quit?", window(area, 50, height), buf, theme);
    Paragraph::new(lines).render(padded(inner), buf);
}
