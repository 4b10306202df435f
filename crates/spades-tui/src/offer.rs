//! Before a new game: the offer to take up the game left undecided, one
//! key away, and word of any save that could not be read.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::save::{Saved, SetAside};

use super::input::Key;
use super::layout;
use super::text::{home_relative, wrap};
use super::theme::Theme;
use super::widgets::framed;

/// The widest the offer's window grows.
const WIDTH: u16 = 72;

/// What the player chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Resume,
    NewGame,
    Quit,
}

/// The offer on screen: the newest saved game, saves open in another
/// window, and saves set aside.
pub struct Offer<'a> {
    /// The game offered, in a line (worked out once: it replays the save).
    saved: Option<String>,
    /// Saves another spades is playing, a line each: said, not offered.
    busy: Vec<String>,
    /// Saves that could not be read, and where they were kept.
    set_aside: &'a [SetAside],
}

impl<'a> Offer<'a> {
    pub fn new(
        saved: Option<&Saved>,
        busy: &[Saved],
        set_aside: &'a [SetAside],
        theme: &Theme,
    ) -> Self {
        Offer {
            saved: saved.map(|s| about(s, theme)),
            busy: busy.iter().map(|s| about(s, theme)).collect(),
            set_aside,
        }
    }

    /// The choice a key makes, if it makes one.
    pub fn choice(&self, key: Key) -> Option<Choice> {
        match key {
            Key::Char('r') | Key::Enter if self.saved.is_some() => Some(Choice::Resume),
            Key::Char('n') | Key::Esc => Some(Choice::NewGame),
            Key::Enter => Some(Choice::NewGame),
            Key::Char('q') | Key::Interrupt => Some(Choice::Quit),
            _ => None,
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.min(WIDTH);
        // Inside the frame and a margin of one on each side.
        let text_width = usize::from(width.saturating_sub(4)).max(20);
        let mut lines = Vec::new();
        if let Some(saved) = &self.saved {
            lines.push(Line::styled(
                "A game is waiting where you left it:",
                theme.accent(),
            ));
            lines.push(Line::from(saved.as_str()));
            lines.push(Line::from(""));
        }
        if !self.busy.is_empty() {
            lines.push(Line::styled(
                "Open in another window (take it up there):",
                theme.dim(),
            ));
            for busy in &self.busy {
                lines.push(Line::styled(format!("  {busy}"), theme.dim()));
            }
            lines.push(Line::from(""));
        }
        if self.saved.is_some() {
            lines.push(Line::from("Enter or r  resume it"));
            lines.push(Line::from("n           start a new game (it stays saved)"));
        } else {
            lines.push(Line::from("Enter       start a new game"));
        }
        lines.push(Line::from("q           quit"));
        if !self.set_aside.is_empty() {
            lines.push(Line::from(""));
            let notes =
                self.set_aside_notes(usize::from(area.height).saturating_sub(lines.len() + 2));
            for line in wrap(&notes, text_width) {
                lines.push(Line::styled(line, theme.error()));
            }
        }
        let window = layout::window(area, width, lines.len() as u16 + 2);
        let inner = framed("Spades", window, buf, theme);
        Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
    }
}

/// A saved game in a line: mode, course, where it stands.
pub fn about(saved: &Saved, theme: &Theme) -> String {
    let mode = saved.header.rules.mode;
    let mut about = format!("{mode}, {}", crate::config::course(&saved.header.rules));
    if let Ok((hand, scores)) = saved.standing() {
        let scores: Vec<String> = scores.iter().map(|&s| theme.number(s)).collect();
        about.push_str(&format!(", hand {hand}, scores {}", scores.join(" / ")));
    }
    if saved.header.practice {
        about.push_str(" (practice)");
    }
    about
}

impl Offer<'_> {
    /// Word of the saves set aside, one line each and as many as `room`
    /// allows before wrapping: the folder once, each file by name.
    fn set_aside_notes(&self, room: usize) -> Vec<String> {
        let mut notes = vec!["Saved games that cannot be resumed:".to_string()];
        let shown = self.set_aside.len().min(room.saturating_sub(3).max(1));
        for aside in &self.set_aside[..shown] {
            let mut note = format!("  {}: {}", aside.name, aside.why);
            if let Err(e) = &aside.kept {
                note.push_str(&format!(" (it could not be moved aside: {e})"));
            }
            notes.push(note);
        }
        if shown < self.set_aside.len() {
            notes.push(format!("  and {} more", self.set_aside.len() - shown));
        }
        if let Some(Ok(aside)) = self.set_aside.iter().map(|a| &a.kept).find(|k| k.is_ok())
            && let Some(folder) = aside.parent()
        {
            notes.push(format!(
                "Each is kept as NAME.bad in {}",
                home_relative(folder)
            ));
        }
        notes
    }
}
