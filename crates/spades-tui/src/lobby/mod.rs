//! A server's lobby on screen: its public tables, the player's ratings, and
//! windows to see the ladder, open a table or ask for a quick match. It
//! only shows what the server listed and turns keys into requests
//! (`Outcome`); the program around it talks to the server and feeds the
//! answers back (`set_tables`, `set_ladder`, `set_status`).

mod draw;
mod forms;
mod ladder;
mod yours;

use std::time::Duration;

use ratatui::layout::{Position, Rect};

use crate::engine::Mode;
use crate::protocol::account::{ModeRating, Rated, Rung};
use crate::protocol::lobby::{ListedTable, QueueCount};

use super::input::{Input, Key};

pub(crate) use draw::rating_text;
pub use draw::render;
pub use forms::{NewTable, QuickMatch, Wait};
pub use ladder::LadderWindow;

/// What the player asks for from the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Nothing,
    /// Sit at the table with this id (it had a free seat when listed).
    Join(String),
    /// Watch the table with this id.
    Watch(String),
    /// Open a new table of `mode`, listed for all when `public`.
    Open {
        mode: Mode,
        public: bool,
    },
    /// Wait for players of `mode`; bots fill the seats still empty after
    /// `wait`.
    Queue {
        mode: Mode,
        wait: Duration,
    },
    /// The ladder of a mode, for the ladder window (`set_ladder`).
    AskLadder(Mode),
    /// The list again, of one mode or all (`set_tables`).
    Refresh(Option<Mode>),
    Quit,
}

/// The window open over the list, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Window {
    None,
    Ladder(LadderWindow),
    NewTable(NewTable),
    QuickMatch(QuickMatch),
    /// Quit, while the player holds a seat at a table that plays on?
    ConfirmQuit,
}

/// The signed-in player as the lobby shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// One a mode the player has a rating in (none on a server without a
    /// ladder).
    pub ratings: Vec<ModeRating>,
}

/// Where each table's rows were drawn in the last frame, for clicks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowHits(Vec<(Rect, usize)>);

impl RowHits {
    pub fn add(&mut self, area: Rect, row: usize) {
        self.0.push((area, row));
    }

    pub fn at(&self, column: u16, row: u16) -> Option<usize> {
        let pos = Position::new(column, row);
        self.0
            .iter()
            .find(|(r, _)| r.contains(pos))
            .map(|&(_, i)| i)
    }
}

/// The lobby as the player's program knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LobbyState {
    /// The server as the player named it (its address).
    pub server: String,
    tables: Vec<ListedTable>,
    /// How many tables the server has of the filter's modes; more than
    /// `tables` when it lists only the first.
    total: usize,
    selected: usize,
    /// A list has come from the server: an empty one means no tables.
    listed: bool,
    filter: Option<Mode>,
    pub player: Player,
    status: Option<String>,
    window: Window,
    hits: RowHits,
    /// How many wait in each quick-match queue, as the server last said
    /// (nothing from a server that does not tell).
    queues: Vec<QueueCount>,
    /// The tables this machine keeps a seat token for: those listed where
    /// the player holds a seat are theirs, and come first.
    kept: Vec<String>,
}

impl LobbyState {
    pub fn new(server: String, player: Player) -> LobbyState {
        LobbyState {
            server,
            tables: Vec::new(),
            total: 0,
            selected: 0,
            listed: false,
            filter: None,
            player,
            status: None,
            window: Window::None,
            hits: RowHits::default(),
            queues: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// How many wait in each quick-match queue now.
    pub fn set_queues(&mut self, queues: Vec<QueueCount>) {
        self.queues = queues;
    }

    pub fn queues(&self) -> &[QueueCount] {
        &self.queues
    }

    /// The tables the server listed, and how many it has in all. The same
    /// table stays selected when it is still listed.
    pub fn set_tables(&mut self, tables: Vec<ListedTable>, total: usize) {
        let old = self.selected_table().map(|t| t.table.clone());
        self.total = total.max(tables.len());
        self.tables = tables;
        self.listed = true;
        self.yours_first();
        let kept = old.and_then(|old| self.tables.iter().position(|t| t.table == old));
        self.selected = kept.unwrap_or(0).min(self.tables.len().saturating_sub(1));
    }

    /// The ladder the open ladder window asked for, and the player's own
    /// rated games in its mode (`None` when not signed in).
    pub fn set_ladder(&mut self, rows: Vec<Rung>, you: Option<Vec<Rated>>) {
        if let Window::Ladder(window) = &mut self.window {
            window.fill(rows, you);
        }
    }

    /// One line under the list: what happened, or why a key did nothing.
    pub fn set_status(&mut self, status: impl Into<String>) {
        self.status = Some(status.into());
    }

    pub fn clear_status(&mut self) {
        self.status = None;
    }

    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    pub fn tables(&self) -> &[ListedTable] {
        &self.tables
    }

    pub fn total(&self) -> usize {
        self.total
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    pub fn selected_table(&self) -> Option<&ListedTable> {
        self.tables.get(self.selected)
    }

    /// Whether any list has come from the server yet.
    pub fn listed(&self) -> bool {
        self.listed
    }

    pub fn filter(&self) -> Option<Mode> {
        self.filter
    }

    pub fn window(&self) -> &Window {
        &self.window
    }

    /// Where the rows were drawn, as `render` says.
    pub fn set_hits(&mut self, hits: RowHits) {
        self.hits = hits;
    }

    /// The mode a new window starts at: the list's filter, else the mode
    /// the player has played most rated games in, else partnership.
    pub fn usual_mode(&self) -> Mode {
        self.filter.unwrap_or_else(|| {
            self.player
                .ratings
                .iter()
                .filter(|r| r.games > 0)
                .max_by_key(|r| r.games)
                .map_or(Mode::Partnership, |r| r.mode)
        })
    }

    pub fn update(&mut self, input: Input) -> Outcome {
        match input {
            Input::Key(key) => self.key(key),
            Input::Click { column, row } => self.click(column, row),
            Input::Tick(_) | Input::Resize => Outcome::Nothing,
        }
    }

    pub fn key(&mut self, key: Key) -> Outcome {
        if key == Key::Interrupt {
            return Outcome::Quit;
        }
        match &mut self.window {
            Window::None => self.list_key(key),
            Window::Ladder(window) => match window.key(key) {
                ladder::LadderKey::Close => self.close(),
                ladder::LadderKey::Ask(mode) => Outcome::AskLadder(mode),
                ladder::LadderKey::Nothing => Outcome::Nothing,
            },
            Window::NewTable(form) => match forms::key(form, key) {
                forms::FormKey::Close => self.close(),
                forms::FormKey::Done => {
                    let (mode, public) = (form.mode, form.public);
                    self.window = Window::None;
                    Outcome::Open { mode, public }
                }
                forms::FormKey::Nothing => Outcome::Nothing,
            },
            Window::ConfirmQuit => match key {
                Key::Char('y' | 'Y' | 'Q') => Outcome::Quit,
                Key::Char('n' | 'N') | Key::Esc => self.close(),
                _ => Outcome::Nothing,
            },
            Window::QuickMatch(form) => match forms::key(form, key) {
                forms::FormKey::Close => self.close(),
                forms::FormKey::Done => {
                    let (mode, wait) = (form.mode, form.wait.duration());
                    self.window = Window::None;
                    Outcome::Queue { mode, wait }
                }
                forms::FormKey::Nothing => Outcome::Nothing,
            },
        }
    }

    fn close(&mut self) -> Outcome {
        self.window = Window::None;
        Outcome::Nothing
    }

    fn list_key(&mut self, key: Key) -> Outcome {
        let last = self.tables.len().saturating_sub(1);
        match key {
            Key::Up | Key::Char('k') => self.selected = self.selected.saturating_sub(1),
            Key::Down | Key::Char('j') => self.selected = (self.selected + 1).min(last),
            Key::Home => self.selected = 0,
            Key::End => self.selected = last,
            Key::Enter => return self.join(),
            Key::Char('w') => return self.watch(),
            Key::Char('n') => self.window = Window::NewTable(NewTable::new(self.usual_mode())),
            Key::Char('q') => self.window = Window::QuickMatch(QuickMatch::new(self.usual_mode())),
            Key::Char('l') => {
                let mode = self.usual_mode();
                self.window = Window::Ladder(LadderWindow::new(mode));
                return Outcome::AskLadder(mode);
            }
            Key::Char('m') => {
                self.filter = next_filter(self.filter);
                return Outcome::Refresh(self.filter);
            }
            Key::Char('r') => return Outcome::Refresh(self.filter),
            Key::Char('Q') | Key::Esc => return self.quit(),
            _ => {}
        }
        Outcome::Nothing
    }

    /// Sits at the selected table, or says why not.
    fn join(&mut self) -> Outcome {
        let Some(table) = self.selected_table() else {
            self.set_status("No table to join: n opens one, q finds a quick match.");
            return Outcome::Nothing;
        };
        // The player's own seat is taken back as `spades join` does.
        if table.free_seats() > 0 || self.is_yours(table) {
            return Outcome::Join(table.table.clone());
        }
        let why = if table.started {
            "That table's game has started: w watches it."
        } else {
            "That table is full: w watches it, n opens another."
        };
        self.set_status(why);
        Outcome::Nothing
    }

    fn watch(&mut self) -> Outcome {
        match self.selected_table() {
            Some(table) => Outcome::Watch(table.table.clone()),
            None => {
                self.set_status("No table to watch.");
                Outcome::Nothing
            }
        }
    }

    /// A click on a row selects it; on the row already selected, joins it.
    fn click(&mut self, column: u16, row: u16) -> Outcome {
        if self.window != Window::None {
            return Outcome::Nothing;
        }
        match self.hits.at(column, row) {
            Some(i) if i == self.selected => self.join(),
            Some(i) if i < self.tables.len() => {
                self.selected = i;
                Outcome::Nothing
            }
            _ => Outcome::Nothing,
        }
    }
}

/// All modes, then each mode alone, round again.
fn next_filter(filter: Option<Mode>) -> Option<Mode> {
    let all: Vec<Option<Mode>> = std::iter::once(None)
        .chain(Mode::ALL.into_iter().map(Some))
        .collect();
    forms::cycle(&all, filter, 1)
}

#[cfg(test)]
mod tests;
