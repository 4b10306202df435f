//! Before a new game: the offer to take up the game left undecided, one
//! key away, and word of any save that could not be read.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::save::Saved;

use super::input::Key;
use super::layout;
use super::theme::Theme;
use super::view::framed;

/// What the player chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Resume,
    NewGame,
    Quit,
}

/// The offer on screen: the newest saved game, and saves set aside.
pub struct Offer<'a> {
    pub saved: Option<&'a Saved>,
    /// Where the game stands: hand and scores by side.
    pub standing: Option<(u32, Vec<i32>)>,
    /// Saves that could not be read, and where they were kept.
    pub set_aside: &'a [String],
}

impl Offer<'_> {
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
        let mut lines = Vec::new();
        if let Some(saved) = self.saved {
            lines.push(Line::styled(
                "A game is waiting where you left it:",
                theme.accent(),
            ));
            let mode = saved.header.rules.mode;
            let mut about = format!("{mode}, to {}", saved.header.rules.target_score);
            if let Some((hand, scores)) = &self.standing {
                let scores: Vec<String> = scores.iter().map(|&s| theme.number(s)).collect();
                about.push_str(&format!(", hand {hand}, scores {}", scores.join(" / ")));
            }
            if saved.header.practice {
                about.push_str(" (practice)");
            }
            lines.push(Line::from(about));
            lines.push(Line::from(""));
            lines.push(Line::from("Enter or r  resume it"));
            lines.push(Line::from("n          start a new game (it stays saved)"));
        } else {
            lines.push(Line::from("Enter  start a new game"));
        }
        lines.push(Line::from("q          quit"));
        for note in self.set_aside {
            lines.push(Line::from(""));
            lines.push(Line::styled(note.clone(), theme.error()));
        }
        let window = layout::window(area, 70, lines.len() as u16 + 2);
        let inner = framed("Spades", window, buf, theme);
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
    }
}
