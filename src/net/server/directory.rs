//! The server's public lobby: a summary of each public table, kept up to
//! date by the table's own task whenever its seats change, so a `tables`
//! request reads one map instead of asking every table (a thousand tables
//! answer as fast as ten). A private table is never put here.
//!
//! It also holds how many wait in each quick-match queue, and the one
//! signal of "the lobby changed" (`poke`, heard through `changes`): every
//! connection following the lobby (`conn::follow`) wakes on it and sends
//! its client the latest state, at its own pace. Whatever changes what a
//! lobby shows (a table here, the queue, tables another node lists) pokes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use super::link::encode;
use crate::engine::Mode;
use crate::protocol::directory::{ListedTable, MAX_LISTED, QueueCount};
use crate::protocol::{ServerMessage, within_line};

/// A line ready to send, with a sum of its text: a follower keeps the sum
/// of what it was sent, not the line.
pub(crate) type Line = (u64, Arc<str>);

fn line(message: &ServerMessage) -> Line {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let line = encode(message);
    let mut sum = DefaultHasher::new();
    line.hash(&mut sum);
    (sum.finish(), line)
}

/// The public tables by id, each with the order it was opened in, and the
/// quick-match queues' counts.
pub(crate) struct Directory {
    tables: Mutex<Listed>,
    /// Bumped on every change a follower must hear of.
    changed: watch::Sender<()>,
}

impl Default for Directory {
    fn default() -> Directory {
        Directory {
            tables: Mutex::default(),
            changed: watch::Sender::new(()),
        }
    }
}

#[derive(Default)]
struct Listed {
    by_id: HashMap<String, (u64, ListedTable)>,
    opened: u64,
    /// How many wait in each quick-match queue (every mode quick match
    /// takes, zeros included).
    waiting: Vec<QueueCount>,
    /// `tables` and `queues` lines as followers are sent them, made once
    /// for all of them until the next change.
    lines: HashMap<Option<Mode>, Line>,
    queues_line: Option<Line>,
}

impl Directory {
    /// Puts a public table's summary in the lobby, or brings it up to date.
    pub(crate) fn put(&self, table: ListedTable) {
        let mut listed = self.lock();
        let next = listed.opened;
        match listed.by_id.get_mut(&table.table) {
            Some((_, kept)) if *kept == table => return,
            Some((_, kept)) => *kept = table,
            None => {
                listed.opened += 1;
                listed.by_id.insert(table.table.clone(), (next, table));
            }
        }
        drop(listed);
        self.poke();
    }

    /// The table is gone: no longer listed.
    pub(crate) fn remove(&self, id: &str) {
        let removed = self.lock().by_id.remove(id).is_some();
        if removed {
            self.poke();
        }
    }

    /// How many wait in each quick-match queue now.
    pub(crate) fn set_waiting(&self, waiting: Vec<QueueCount>) {
        let mut listed = self.lock();
        if listed.waiting != waiting {
            listed.waiting = waiting;
            drop(listed);
            self.poke();
        }
    }

    /// Something a lobby shows has changed: the lines made are made
    /// again, and every follower is woken to send the latest state.
    /// Anything that changes what the lobby lists calls it (the tables
    /// here and the queue do; so would tables listed from elsewhere).
    pub(crate) fn poke(&self) {
        let mut listed = self.lock();
        listed.lines.clear();
        listed.queues_line = None;
        drop(listed);
        self.changed.send_replace(());
    }

    /// Wakes on every `poke` from now on.
    pub(crate) fn changes(&self) -> watch::Receiver<()> {
        self.changed.subscribe()
    }

    /// The tables of `mode` (every mode when `None`) as `tables` answers:
    /// the first `MAX_LISTED` in order, and how many match.
    #[cfg(test)]
    pub(crate) fn list(&self, mode: Option<Mode>) -> (Vec<ListedTable>, usize) {
        self.lock().list(mode)
    }

    /// The `tables` message of `mode` (cut to one line), as a line ready
    /// to send: made once a change, however many follow it. Made under
    /// the lock, so no change slips between making and keeping it.
    pub(crate) fn tables_line(&self, mode: Option<Mode>) -> Line {
        let mut listed = self.lock();
        if let Some(line) = listed.lines.get(&mode) {
            return line.clone();
        }
        let (tables, total) = listed.list(mode);
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        let message = within_line(tables, |tables| ServerMessage::Tables {
            tables,
            total,
            mode,
        });
        let line = line(&message);
        listed.lines.insert(mode, line.clone());
        line
    }

    /// The `queues` message as a line ready to send.
    pub(crate) fn queues_line(&self) -> Line {
        let mut listed = self.lock();
        if let Some(line) = &listed.queues_line {
            return line.clone();
        }
        let queues = if listed.waiting.is_empty() {
            quick_modes(|_| 0)
        } else {
            listed.waiting.clone()
        };
        let line = line(&ServerMessage::Queues { queues });
        listed.queues_line = Some(line.clone());
        line
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Listed {
    fn list(&self, mode: Option<Mode>) -> (Vec<ListedTable>, usize) {
        let all = self.by_id.values().map(|(opened, table)| (*opened, table));
        let (first, total) = ordered(all, mode);
        (first.into_iter().cloned().collect(), total)
    }
}

/// Each mode quick match takes (not the dummy's: never rated), with its
/// count.
pub(crate) fn quick_modes(count: impl Fn(Mode) -> usize) -> Vec<QueueCount> {
    Mode::ALL
        .into_iter()
        .filter(|m| m.dummy().is_none())
        .map(|mode| QueueCount {
            mode,
            waiting: u32::try_from(count(mode)).unwrap_or(u32::MAX),
        })
        .collect()
}

/// The tables of `mode` in the lobby's order: most free seats first (so
/// open tables before started ones), then the newest; cut to
/// `MAX_LISTED`, with how many matched.
fn ordered<'a>(
    tables: impl Iterator<Item = (u64, &'a ListedTable)>,
    mode: Option<Mode>,
) -> (Vec<&'a ListedTable>, usize) {
    let mut matching: Vec<(u64, &ListedTable)> = tables
        .filter(|(_, t)| mode.is_none_or(|m| t.mode == m))
        .collect();
    let total = matching.len();
    let key = |&(opened, table): &(u64, &ListedTable)| {
        (
            std::cmp::Reverse(table.free_seats()),
            std::cmp::Reverse(opened),
        )
    };
    // Only the first MAX_LISTED need their order: picked out, then sorted.
    if matching.len() > MAX_LISTED {
        matching.select_nth_unstable_by_key(MAX_LISTED - 1, key);
        matching.truncate(MAX_LISTED);
    }
    matching.sort_unstable_by_key(key);
    (matching.into_iter().map(|(_, t)| t).collect(), total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SeatPlayer;
    use crate::protocol::directory::ListedSeat;

    fn table(id: &str, mode: Mode, empty: usize, started: bool) -> ListedTable {
        let seats = (0..mode.players())
            .map(|i| ListedSeat {
                name: None,
                player: if i < empty {
                    SeatPlayer::Empty
                } else {
                    SeatPlayer::Person
                },
                rating: None,
                guest: false,
            })
            .collect();
        ListedTable {
            table: id.into(),
            mode,
            rules: String::new(),
            seats,
            started,
            rated: false,
            unrated: None,
            watchers: 0,
        }
    }

    fn ids(tables: &[ListedTable]) -> Vec<&str> {
        tables.iter().map(|t| t.table.as_str()).collect()
    }

    #[test]
    fn open_tables_come_first_then_the_newest() {
        let directory = Directory::default();
        directory.put(table("OLD1", Mode::Partnership, 1, false));
        directory.put(table("PLAY", Mode::Partnership, 0, true));
        directory.put(table("TWO", Mode::Partnership, 2, false));
        directory.put(table("NEW1", Mode::Partnership, 1, false));
        directory.put(table("CUT", Mode::Cutthroat, 2, false));
        let (all, total) = directory.list(Some(Mode::Partnership));
        assert_eq!(ids(&all), ["TWO", "NEW1", "OLD1", "PLAY"]);
        assert_eq!(total, 4);
        // A table brought up to date keeps its place in time: as free as
        // TWO now, and older.
        directory.put(table("OLD1", Mode::Partnership, 2, false));
        let (all, _) = directory.list(Some(Mode::Partnership));
        assert_eq!(ids(&all), ["TWO", "OLD1", "NEW1", "PLAY"]);
        directory.remove("TWO");
        let (all, total) = directory.list(None);
        assert_eq!(ids(&all), ["CUT", "OLD1", "NEW1", "PLAY"]);
        assert_eq!(total, 4);
    }

    #[test]
    fn a_long_list_is_cut_to_its_best_tables() {
        let directory = Directory::default();
        for i in 0..1000 {
            directory.put(table(&format!("T{i}"), Mode::Individual, i % 3, false));
        }
        let (first, total) = directory.list(Some(Mode::Individual));
        assert_eq!(total, 1000);
        assert_eq!(first.len(), MAX_LISTED);
        assert!(first.iter().all(|t| t.free_seats() == 2));
        // The newest of those with two free seats: i = 998, 995, ...
        assert_eq!(first[0].table, "T998");
        assert_eq!(first[1].table, "T995");
    }

    #[test]
    fn every_change_pokes_the_followers_and_nothing_else_does() {
        let directory = Directory::default();
        let mut changes = directory.changes();
        let poked = |changes: &mut watch::Receiver<()>| {
            let seen = changes.has_changed().unwrap();
            changes.mark_unchanged();
            seen
        };
        directory.put(table("ONE", Mode::Partnership, 3, false));
        assert!(poked(&mut changes), "a table opened");
        directory.put(table("ONE", Mode::Partnership, 3, false));
        assert!(!poked(&mut changes), "the same summary again is no change");
        directory.put(table("ONE", Mode::Partnership, 2, false));
        assert!(poked(&mut changes), "a seat taken");
        directory.remove("NONE");
        assert!(!poked(&mut changes), "no such table: nothing gone");
        directory.remove("ONE");
        assert!(poked(&mut changes), "a table gone");
        let two = quick_modes(|m| usize::from(m == Mode::Cutthroat) * 2);
        directory.set_waiting(two.clone());
        assert!(poked(&mut changes), "two queued");
        directory.set_waiting(two);
        assert!(!poked(&mut changes), "the same counts");
        directory.poke();
        assert!(poked(&mut changes), "poked from elsewhere");
    }

    #[test]
    fn the_lines_sent_are_made_once_and_again_after_a_change() {
        let directory = Directory::default();
        let (sum, empty) = directory.tables_line(Some(Mode::Partnership));
        assert_eq!(
            &*empty,
            "{\"type\":\"tables\",\"tables\":[],\"total\":0,\"mode\":\"partnership\"}\n"
        );
        let (again, same) = directory.tables_line(Some(Mode::Partnership));
        assert!(
            Arc::ptr_eq(&empty, &same) && sum == again,
            "kept, not made again"
        );
        directory.put(table("ONE", Mode::Partnership, 3, false));
        let (changed, one) = directory.tables_line(Some(Mode::Partnership));
        assert_ne!(changed, sum);
        assert!(
            one.contains("\"ONE\"") && one.contains("\"total\":1"),
            "{one}"
        );
        // A cutthroat table changes no partnership list's text.
        directory.put(table("CUT", Mode::Cutthroat, 2, false));
        assert_eq!(directory.tables_line(Some(Mode::Partnership)).0, changed);
        let (_, queues) = directory.queues_line();
        assert!(
            queues.contains("{\"mode\":\"individual\",\"waiting\":0}"),
            "{queues}"
        );
        assert!(!queues.contains("dummy"), "no quick match with the dummy");
        directory.set_waiting(quick_modes(|m| usize::from(m == Mode::Individual)));
        let (_, queues) = directory.queues_line();
        assert!(
            queues.contains("{\"mode\":\"individual\",\"waiting\":1}"),
            "{queues}"
        );
    }
}
