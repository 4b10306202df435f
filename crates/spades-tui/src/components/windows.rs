//! The windows a key opens over the table (the keys, the rules, the last
//! trick, the player's statistics) and the question before quitting: which
//! one is open, and what each keeps of its own (the statistics' lines and
//! how far down they are scrolled, the quit question's focused button).
//! Their keys and clicks are answered here; what only the app can do
//! (leave, read the records) is asked of it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::super::hits::{Hits, Target};
use super::super::input::Key;
use super::super::layout;
use super::super::theme::Theme;
use super::super::widgets::{button, centered_line, framed};
use super::aside::Aside;

/// A window over the table that waits for the player to close it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Rules,
    LastTrick,
    /// The player's statistics and rating, from their records.
    Stats,
    ConfirmQuit,
}

/// The two buttons of the quit window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuitChoice {
    Stay,
    Quit,
}

/// What a key or a click on a window asks of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    Nothing,
    /// The player answered "leave this game?" with yes.
    Leave,
    /// The statistics window is wanted: its lines are the app's to read.
    Stats,
}

/// The window open over the table, if any, and what the windows keep.
#[derive(Debug)]
pub struct Windows {
    open: Option<Overlay>,
    quit_focus: QuitChoice,
    /// The statistics' lines, read from the records aside.
    stats: Aside<Vec<String>>,
    stats_scroll: usize,
}

impl Default for Windows {
    fn default() -> Self {
        Windows {
            open: None,
            quit_focus: QuitChoice::Stay,
            stats: Aside::Done(Vec::new()),
            stats_scroll: 0,
        }
    }
}

impl Windows {
    pub fn open(&self) -> Option<Overlay> {
        self.open
    }

    /// Opens a window that keeps nothing of its own.
    pub fn show(&mut self, overlay: Overlay) {
        self.open = Some(overlay);
    }

    /// Opens the statistics window on `stats` (its lines, or their
    /// reading), scrolled to the top.
    pub fn show_stats(&mut self, stats: Aside<Vec<String>>) {
        self.stats = stats;
        self.stats_scroll = 0;
        self.open = Some(Overlay::Stats);
    }

    /// Asks "leave this game?", staying in focus.
    pub fn ask_to_quit(&mut self) {
        self.quit_focus = QuitChoice::Stay;
        self.open = Some(Overlay::ConfirmQuit);
    }

    pub fn quit_focus(&self) -> QuitChoice {
        self.quit_focus
    }

    /// The statistics' lines, once read.
    pub fn stats_lines(&self) -> &[String] {
        self.stats.answer().map_or(&[], Vec::as_slice)
    }

    /// Are the statistics still being read?
    pub fn reading_stats(&self) -> bool {
        self.stats.is_working()
    }

    /// Takes the statistics in once they have been read.
    pub fn take_stats(&mut self) {
        let lost = || vec!["The records cannot be read.".to_string()];
        self.stats.take_answer(lost);
    }

    pub fn stats_scroll(&self) -> usize {
        self.stats_scroll
    }

    /// The answer to "leave this game?", if it is asked: staying closes it.
    pub fn answer_quit(&mut self, leave: bool) -> Asked {
        if self.open != Some(Overlay::ConfirmQuit) {
            return Asked::Nothing;
        }
        if leave {
            return Asked::Leave;
        }
        self.open = None;
        Asked::Nothing
    }

    /// A key while a window is open. `scroll_limit` is how far down the
    /// window last drawn could scroll; `last_trick` whether there is one
    /// to show.
    pub fn key(&mut self, key: Key, scroll_limit: usize, last_trick: bool) -> Asked {
        let Some(overlay) = self.open else {
            return Asked::Nothing;
        };
        match (overlay, key) {
            (Overlay::ConfirmQuit, Key::Char('y' | 'Y' | 'q')) => return self.answer_quit(true),
            (Overlay::ConfirmQuit, Key::Char('n' | 'N') | Key::Esc) => {
                return self.answer_quit(false);
            }
            (
                Overlay::ConfirmQuit,
                Key::Left | Key::Right | Key::Up | Key::Down | Key::Tab | Key::Char('h' | 'l'),
            ) => {
                self.quit_focus = match self.quit_focus {
                    QuitChoice::Stay => QuitChoice::Quit,
                    QuitChoice::Quit => QuitChoice::Stay,
                }
            }
            (Overlay::ConfirmQuit, Key::Enter | Key::Space) => {
                return self.answer_quit(self.quit_focus == QuitChoice::Quit);
            }
            (Overlay::ConfirmQuit, _) => {}
            (Overlay::Stats, Key::Up | Key::Char('k')) => {
                self.stats_scroll = self.stats_scroll.saturating_sub(1);
            }
            // No further than the window drawn lets the last line rise.
            (Overlay::Stats, Key::Down | Key::Char('j')) => {
                self.stats_scroll = (self.stats_scroll + 1).min(scroll_limit);
            }
            (Overlay::Help, Key::Char('?'))
            | (Overlay::Rules, Key::Char('r'))
            | (Overlay::Stats, Key::Char('s'))
            | (Overlay::LastTrick, Key::Char('t'))
            | (_, Key::Esc | Key::Enter | Key::Space | Key::Char('q')) => self.open = None,
            // Another window's key goes straight to that window.
            (_, Key::Char('?')) => self.open = Some(Overlay::Help),
            (_, Key::Char('r')) => self.open = Some(Overlay::Rules),
            (_, Key::Char('s')) => return Asked::Stats,
            (_, Key::Char('t')) if last_trick => self.open = Some(Overlay::LastTrick),
            _ => {}
        }
        Asked::Nothing
    }

    /// A click while a window is open, on `target` (`None`: on nothing).
    pub fn click(&mut self, target: Option<Target>) -> Asked {
        match (self.open, target) {
            (None, _) => Asked::Nothing,
            (Some(Overlay::ConfirmQuit), Some(Target::Quit)) => self.answer_quit(true),
            (Some(Overlay::ConfirmQuit), Some(Target::Continue)) => self.answer_quit(false),
            (Some(Overlay::ConfirmQuit), _) => Asked::Nothing,
            // A click outside the window closes it, as Esc does.
            (_, None) => {
                self.open = None;
                Asked::Nothing
            }
            (_, Some(_)) => Asked::Nothing,
        }
    }

    /// The player's statistics, scrolled when taller than the screen.
    pub fn draw_stats(&self, area: Rect, buf: &mut Buffer, hits: &mut Hits, theme: &Theme) {
        let reading = ["Reading your records...".to_string()];
        let all = if self.stats.is_working() {
            &reading[..]
        } else {
            self.stats_lines()
        };
        // Taller than the screen: the window scrolls (Up/Down).
        let room = usize::from(area.height.saturating_sub(4)).max(1);
        let limit = all.len().saturating_sub(room);
        hits.scrolls(limit);
        let first = self.stats_scroll.min(limit);
        let shown = &all[first..all.len().min(first + room)];
        let mut lines: Vec<Line> = shown.iter().map(|l| Line::from(l.as_str())).collect();
        let keys = if all.len() > room {
            "Up/Down scroll; Esc or s closes."
        } else {
            "Esc or s closes."
        };
        lines.push(Line::styled(keys, theme.dim()));
        let window = layout::window(area, 74, lines.len() as u16 + 2);
        let inner = framed("Your statistics", window, buf, theme);
        Paragraph::new(lines).render(inner.inner(Margin::new(1, 0)), buf);
    }

    /// Leave or stay, and what becomes of the game (`said`, a line each);
    /// at a shared table (`shared`) the player leaves rather than quits.
    pub fn draw_quit(
        &self,
        said: &[&str],
        shared: bool,
        area: Rect,
        buf: &mut Buffer,
        hits: &mut Hits,
        theme: &Theme,
    ) {
        let lines = said.len() as u16;
        // As wide as its longest line, and never narrower than its buttons.
        let widest = said.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let width = u16::try_from(widest + 4).unwrap_or(u16::MAX).max(46);
        let window = layout::window(area, width, 5 + lines);
        let inner = framed("Quit?", window, buf, theme);
        centered_line(buf, inner, inner.y, Line::from("Leave this game?"));
        for (y, line) in (inner.y + 1..).zip(said) {
            centered_line(buf, inner, y, Line::styled(*line, theme.dim()));
        }
        let y = inner.y + 2 + lines;
        let quit = self.quit_focus == QuitChoice::Quit;
        let go = if shared { "y  Leave" } else { "y  Quit" };
        // The two buttons, their brackets and the gap between them.
        let buttons = go.chars().count() as u16 + 21;
        let mut x = inner.x + inner.width.saturating_sub(buttons) / 2;
        x += button(buf, x, y, go, quit, theme, Target::Quit, hits) + 2;
        button(buf, x, y, "n  Stay", !quit, theme, Target::Continue, hits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quit_question_toggles_its_focus_and_enter_answers_it() {
        let mut windows = Windows::default();
        windows.ask_to_quit();
        assert_eq!(windows.key(Key::Enter, 0, false), Asked::Nothing);
        assert_eq!(windows.open(), None, "Enter on Stay closes it");
        windows.ask_to_quit();
        windows.key(Key::Right, 0, false);
        assert_eq!(windows.quit_focus(), QuitChoice::Quit);
        assert_eq!(windows.key(Key::Enter, 0, false), Asked::Leave);
        windows.ask_to_quit();
        assert_eq!(windows.quit_focus(), QuitChoice::Stay, "asked anew, stay");
        assert_eq!(windows.key(Key::Char('x'), 0, false), Asked::Nothing);
        assert_eq!(windows.open(), Some(Overlay::ConfirmQuit));
    }

    #[test]
    fn stats_scroll_no_further_than_the_window_allows() {
        let mut windows = Windows::default();
        windows.show_stats(Aside::Done(vec!["a".into(); 10]));
        windows.key(Key::Down, 2, false);
        windows.key(Key::Down, 2, false);
        windows.key(Key::Down, 2, false);
        assert_eq!(windows.stats_scroll(), 2);
        windows.key(Key::Up, 2, false);
        assert_eq!(windows.stats_scroll(), 1);
        assert_eq!(windows.key(Key::Char('s'), 2, false), Asked::Nothing);
        assert_eq!(windows.open(), None, "its own key closes it");
    }

    #[test]
    fn another_windows_key_opens_that_window() {
        let mut windows = Windows::default();
        windows.show(Overlay::Help);
        windows.key(Key::Char('r'), 0, false);
        assert_eq!(windows.open(), Some(Overlay::Rules));
        windows.key(Key::Char('t'), 0, false);
        assert_eq!(windows.open(), Some(Overlay::Rules), "no trick to show");
        windows.key(Key::Char('t'), 0, true);
        assert_eq!(windows.open(), Some(Overlay::LastTrick));
        assert_eq!(windows.key(Key::Char('s'), 0, true), Asked::Stats);
        assert_eq!(windows.click(None), Asked::Nothing);
        assert_eq!(windows.open(), None, "a click outside closes it");
    }

    #[test]
    fn the_statistics_say_they_are_read_until_they_come() {
        let (send, lines) = std::sync::mpsc::channel();
        let mut windows = Windows::default();
        windows.show_stats(Aside::Working(lines));
        let text = |windows: &Windows| {
            let area = Rect::new(0, 0, 80, 12);
            let mut buf = Buffer::empty(area);
            windows.draw_stats(area, &mut buf, &mut Hits::default(), &Theme::PLAIN);
            buf.content().iter().map(|c| c.symbol()).collect::<String>()
        };
        windows.take_stats();
        assert!(windows.reading_stats());
        assert!(text(&windows).contains("Reading your records..."));
        send.send(vec!["Games 3".to_string()]).unwrap();
        windows.take_stats();
        assert!(!windows.reading_stats());
        let shown = text(&windows);
        assert!(
            shown.contains("Games 3") && !shown.contains("Reading"),
            "{shown}"
        );
    }
}
