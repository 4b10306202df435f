//! The lobby's two small forms: a new table (its mode, listed or private)
//! and a quick match (its mode, how long to wait for players before bots
//! fill the seats). Each field is a choice stepped through with ←/→; one
//! set of keys and one drawing serve both.

use std::time::Duration;

use crate::engine::Mode;

use super::super::input::Key;

/// How long a quick match waits for players before bots fill the seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    HalfMinute,
    Minute,
    TwoMinutes,
    FiveMinutes,
}

impl Wait {
    pub const ALL: [Wait; 4] = [
        Wait::HalfMinute,
        Wait::Minute,
        Wait::TwoMinutes,
        Wait::FiveMinutes,
    ];

    pub fn duration(self) -> Duration {
        Duration::from_secs(match self {
            Wait::HalfMinute => 30,
            Wait::Minute => 60,
            Wait::TwoMinutes => 120,
            Wait::FiveMinutes => 300,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Wait::HalfMinute => "30 s",
            Wait::Minute => "1 min",
            Wait::TwoMinutes => "2 min",
            Wait::FiveMinutes => "5 min",
        }
    }
}

/// The form to open a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTable {
    pub mode: Mode,
    /// Listed in the lobby for anyone; else joined by its code alone.
    pub public: bool,
    focus: usize,
}

impl NewTable {
    pub fn new(mode: Mode) -> NewTable {
        NewTable {
            mode,
            public: true,
            focus: 0,
        }
    }
}

/// The form to ask for a quick match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickMatch {
    pub mode: Mode,
    pub wait: Wait,
    focus: usize,
}

impl QuickMatch {
    pub fn new(mode: Mode) -> QuickMatch {
        QuickMatch {
            mode,
            wait: Wait::Minute,
            focus: 0,
        }
    }
}

/// One line of a form as drawn: its label, its value, and a word on what
/// the value means.
pub struct Field {
    pub label: &'static str,
    pub value: String,
    pub about: &'static str,
    pub focused: bool,
}

/// What the two forms share: fields to step through, and a title and a
/// key that confirms.
pub trait Form {
    const TITLE: &'static str;
    /// What Enter does, as the help line says it.
    const CONFIRM: &'static str;
    fn focus(&mut self) -> &mut usize;
    /// Steps the value of `field` by `step` (±1).
    fn change(&mut self, field: usize, step: isize);
    fn fields(&self) -> Vec<Field>;
}

impl Form for NewTable {
    const TITLE: &'static str = "Open a table";
    const CONFIRM: &'static str = "open";

    fn focus(&mut self) -> &mut usize {
        &mut self.focus
    }

    fn change(&mut self, field: usize, step: isize) {
        match field {
            0 => self.mode = cycle(&Mode::ALL, self.mode, step),
            _ => self.public = !self.public,
        }
    }

    fn fields(&self) -> Vec<Field> {
        vec![
            Field {
                label: "Mode",
                value: self.mode.to_string(),
                about: "",
                focused: self.focus == 0,
            },
            Field {
                label: "Table",
                value: if self.public { "public" } else { "private" }.into(),
                about: if self.public {
                    "listed here: anyone may sit"
                } else {
                    "not listed: joined by its code"
                },
                focused: self.focus == 1,
            },
        ]
    }
}

impl Form for QuickMatch {
    const TITLE: &'static str = "Quick match";
    const CONFIRM: &'static str = "wait for players";

    fn focus(&mut self) -> &mut usize {
        &mut self.focus
    }

    fn change(&mut self, field: usize, step: isize) {
        match field {
            0 => self.mode = cycle(&Mode::ALL, self.mode, step),
            _ => self.wait = cycle(&Wait::ALL, self.wait, step),
        }
    }

    fn fields(&self) -> Vec<Field> {
        vec![
            Field {
                label: "Mode",
                value: self.mode.to_string(),
                about: "players near your rating",
                focused: self.focus == 0,
            },
            Field {
                label: "Wait",
                value: self.wait.label().into(),
                about: "then bots fill the empty seats",
                focused: self.focus == 1,
            },
        ]
    }
}

/// What a key did to a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKey {
    Nothing,
    Close,
    /// Confirmed as it stands.
    Done,
}

pub fn key<F: Form>(form: &mut F, key: Key) -> FormKey {
    let at = *form.focus();
    match key {
        Key::Esc => return FormKey::Close,
        Key::Enter => return FormKey::Done,
        Key::Up | Key::Char('k') => *form.focus() = at.saturating_sub(1),
        Key::Down | Key::Char('j') | Key::Tab => *form.focus() = (at + 1) % form.fields().len(),
        Key::Left | Key::Char('h') => form.change(at, -1),
        Key::Right | Key::Char('l') | Key::Space => form.change(at, 1),
        _ => {}
    }
    FormKey::Nothing
}

/// The choice `step` places from `now` in `all`, round at either end.
pub fn cycle<T: Copy + PartialEq>(all: &[T], now: T, step: isize) -> T {
    let at = all.iter().position(|&x| x == now).unwrap_or(0) as isize;
    let len = all.len() as isize;
    all[(at + step).rem_euclid(len) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_goes_round_both_ways() {
        assert_eq!(cycle(&Mode::ALL, Mode::Dummy, 1), Mode::Partnership);
        assert_eq!(cycle(&Mode::ALL, Mode::Partnership, -1), Mode::Dummy);
        assert_eq!(cycle(&Wait::ALL, Wait::Minute, 1), Wait::TwoMinutes);
    }

    #[test]
    fn keys_move_between_fields_and_change_the_focused_one() {
        let mut form = QuickMatch::new(Mode::Cutthroat);
        assert_eq!(key(&mut form, Key::Right), FormKey::Nothing);
        assert_eq!(form.mode, Mode::Individual);
        key(&mut form, Key::Down);
        key(&mut form, Key::Left);
        assert_eq!(form.wait, Wait::HalfMinute);
        assert_eq!(form.mode, Mode::Individual, "only the focused field moves");
        key(&mut form, Key::Down);
        key(&mut form, Key::Right);
        assert_eq!(form.mode, Mode::Dummy, "Down from the last field wraps");
        assert_eq!(key(&mut form, Key::Enter), FormKey::Done);
        assert_eq!(key(&mut form, Key::Esc), FormKey::Close);
    }
}
