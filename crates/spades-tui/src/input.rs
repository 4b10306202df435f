//! Terminal events turned into the few inputs the game understands. Which
//! game action a key means depends on the moment, and is `App`'s business.

use std::time::Instant;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// A key, reduced to what the game distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Left,
    Right,
    Up,
    Down,
    Enter,
    Space,
    Esc,
    Tab,
    Backspace,
    Home,
    End,
    PageUp,
    PageDown,
    /// Ctrl-C: leave at once, no questions.
    Interrupt,
    Char(char),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Key(Key),
    /// A left click at a terminal cell.
    Click {
        column: u16,
        row: u16,
    },
    /// Time has passed: bots may act and paused tricks may clear.
    Tick(Instant),
    /// The terminal changed size; the next frame is laid out anew.
    Resize,
}

impl Input {
    /// The input a terminal event stands for, if any.
    pub fn from_event(event: &Event) -> Option<Input> {
        match event {
            Event::Key(key) => from_key(key).map(Input::Key),
            Event::Mouse(mouse) => from_mouse(mouse),
            Event::Resize(..) => Some(Input::Resize),
            _ => None,
        }
    }
}

fn from_key(key: &KeyEvent) -> Option<Key> {
    // Key releases (reported by some terminals) would act twice.
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c' | 'C')).then_some(Key::Interrupt);
    }
    Some(match key.code {
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab | KeyCode::BackTab => Key::Tab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Char(' ') => Key::Space,
        KeyCode::Char(c) => Key::Char(c),
        _ => return None,
    })
}

fn from_mouse(mouse: &MouseEvent) -> Option<Input> {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Input::Click {
            column: mouse.column,
            row: mouse.row,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<Input> {
        Input::from_event(&Event::Key(KeyEvent::new(code, modifiers)))
    }

    #[test]
    fn ctrl_c_interrupts_and_other_chords_are_ignored() {
        assert_eq!(
            key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Input::Key(Key::Interrupt))
        );
        assert_eq!(key(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
        assert_eq!(
            key(KeyCode::Char(' '), KeyModifiers::NONE),
            Some(Input::Key(Key::Space))
        );
        assert_eq!(
            key(KeyCode::Char('Q'), KeyModifiers::SHIFT),
            Some(Input::Key(Key::Char('Q')))
        );
    }

    #[test]
    fn only_left_presses_click() {
        let mouse = |kind| {
            Input::from_event(&Event::Mouse(MouseEvent {
                kind,
                column: 3,
                row: 4,
                modifiers: KeyModifiers::NONE,
            }))
        };
        assert_eq!(
            mouse(MouseEventKind::Down(MouseButton::Left)),
            Some(Input::Click { column: 3, row: 4 })
        );
        assert_eq!(mouse(MouseEventKind::Up(MouseButton::Left)), None);
        assert_eq!(mouse(MouseEventKind::Moved), None);
    }
}
