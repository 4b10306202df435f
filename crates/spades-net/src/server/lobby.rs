//! The server's public lobby: a summary of each public table, kept up to
//! date by the table's own task whenever its seats change, so a `tables`
//! request reads one map instead of asking every table (a thousand tables
//! answer as fast as ten). A private table is never listed: its summary
//! is kept apart, only for its seats' holders to find it by id (`mine`).
//! A node of a fleet lists the other nodes' tables too (`fleet`), and
//! hands its own to them (never a private one).
//!
//! It also holds how many wait in each quick-match queue, and the one
//! signal of "the lobby changed" (`poke`, heard through `changes`): every
//! connection following the lobby (`conn::follow`) wakes on it and sends
//! its client the latest state, at its own pace. Whatever changes what a
//! lobby shows (a table here, the queue, tables another node lists) pokes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use super::fleet::Fleet;
use super::link::encode;
use crate::engine::Mode;
use crate::protocol::lobby::{ListedTable, MAX_LISTED, QueueCount};
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

/// The public tables by id, each with when it was opened, and the
/// quick-match queues' counts.
pub(crate) struct Lobby {
    tables: Mutex<Listed>,
    /// Bumped on every change a follower must hear of.
    changed: watch::Sender<()>,
    /// The fleet this server is a node of, when it shares a PostgreSQL
    /// ladder with others.
    fleet: Option<Arc<Fleet>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tables: Mutex::default(),
            changed: watch::Sender::new(()),
            fleet: None,
        }
    }
}

#[derive(Default)]
struct Listed {
    by_id: HashMap<String, (u64, ListedTable)>,
    /// The private tables' summaries: never listed, nor handed to the
    /// fleet; read only to answer `mine`, a seat's holder asking by id.
    unlisted: HashMap<String, ListedTable>,
    opened: u64,
    /// How many wait in each quick-match queue (every mode quick match
    /// takes, zeros included).
    waiting: Vec<QueueCount>,
    /// `tables` and `queues` lines as followers are sent them, made once
    /// for all of them until the next change.
    lines: HashMap<Option<Mode>, Line>,
    queues_line: Option<Line>,
    /// The fleet's version the `tables` lines were made at: another
    /// node's change makes them again.
    fleet_seen: u64,
}

impl Lobby {
    /// The lobby of a node of `fleet`: another node's change wakes its
    /// followers as one here does.
    pub(crate) fn of_fleet(fleet: Arc<Fleet>) -> Lobby {
        let lobby = Lobby::default();
        fleet.wake_on_change(lobby.changed.clone());
        Lobby {
            fleet: Some(fleet),
            ..lobby
        }
    }

    /// Puts a public table's summary in the lobby, or brings it up to date.
    pub(crate) fn put(&self, table: ListedTable) {
        let mut listed = self.lock();
        // When it opened, in milliseconds since the epoch (a node's
        // tables and the fleet's are ordered together), and later than
        // the table before, so that order holds whatever the clock does.
        let next = now_ms().max(listed.opened + 1);
        let opened = match listed.by_id.get(&table.table) {
            Some((_, kept)) if *kept == table => return,
            Some((opened, _)) => *opened,
            None => {
                listed.opened = next;
                next
            }
        };
        if let Some(fleet) = &self.fleet {
            fleet.publish(opened, &table);
        }
        listed.by_id.insert(table.table.clone(), (opened, table));
        drop(listed);
        self.poke();
    }

    /// Keeps a private table's summary, or brings it up to date: never
    /// listed, only found by `held_by`.
    pub(crate) fn put_unlisted(&self, table: ListedTable) {
        self.lock().unlisted.insert(table.table.clone(), table);
    }

    /// Those of the tables `ids` of this server, public or private, where
    /// `name` holds a seat (playing it or away), each once.
    pub(crate) fn held_by(&self, ids: &[String], name: &str) -> Vec<ListedTable> {
        let listed = self.lock();
        let mut held: Vec<ListedTable> = Vec::new();
        for id in ids {
            let table = listed.by_id.get(id).map(|(_, t)| t);
            let table = table.or_else(|| listed.unlisted.get(id));
            if let Some(table) = table.filter(|t| t.seat_held_by(name))
                && !held.iter().any(|h| h.table == table.table)
            {
                held.push(table.clone());
            }
        }
        held
    }

    /// The table is gone: no longer listed.
    pub(crate) fn remove(&self, id: &str) {
        let mut listed = self.lock();
        listed.unlisted.remove(id);
        let removed = listed.by_id.remove(id).is_some();
        drop(listed);
        if removed {
            if let Some(fleet) = &self.fleet {
                fleet.withdraw(id);
            }
            self.poke();
        }
    }

    /// Why no table of this server has the id `id` (`shown`: as the
    /// client is told it): another server of the fleet may hold it.
    pub(crate) fn why_missing(&self, id: &str, shown: &str) -> String {
        let code = self.fleet.as_ref().and_then(|fleet| {
            let tables = fleet.tables();
            let found = tables.iter().find(|(_, t)| t.table == id);
            found.and_then(|(_, t)| t.code.clone())
        });
        match code {
            Some(code) => format!(
                "the table {shown} is on another server of this fleet: join or watch it there, by its code {code}"
            ),
            None => format!("no table has the id {shown}"),
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

    /// The tables of `mode` (every mode when `None`) as `tables` answers,
    /// the fleet's other nodes' with this node's: the first `MAX_LISTED`
    /// in order, and how many match.
    #[cfg(test)]
    pub(crate) fn list(&self, mode: Option<Mode>) -> (Vec<ListedTable>, usize) {
        let listed = self.lock();
        self.list_in(&listed, mode)
    }

    fn list_in(&self, listed: &Listed, mode: Option<Mode>) -> (Vec<ListedTable>, usize) {
        let own = listed
            .by_id
            .values()
            .map(|(opened, table)| (*opened, table));
        let fleet = self.fleet.as_ref().map(|fleet| fleet.tables());
        let others = fleet.iter().flat_map(|tables| tables.iter());
        let (first, total) = ordered(own.chain(others), mode);
        (first.into_iter().cloned().collect(), total)
    }

    /// The `tables` message of `mode` (cut to one line), as a line ready
    /// to send: made once a change, however many follow it. Made under
    /// the lock, so no change slips between making and keeping it.
    pub(crate) fn tables_line(&self, mode: Option<Mode>) -> Line {
        let mut listed = self.lock();
        let fleet_now = self.fleet.as_ref().map_or(0, |fleet| fleet.version());
        if listed.fleet_seen != fleet_now {
            listed.lines.clear();
            listed.fleet_seen = fleet_now;
        }
        if let Some(line) = listed.lines.get(&mode) {
            return line.clone();
        }
        let (tables, total) = self.list_in(&listed, mode);
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

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
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
    use crate::protocol::lobby::ListedSeat;

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
            code: None,
        }
    }

    fn ids(tables: &[ListedTable]) -> Vec<&str> {
        tables.iter().map(|t| t.table.as_str()).collect()
    }

    #[test]
    fn open_tables_come_first_then_the_newest() {
        let lobby = Lobby::default();
        lobby.put(table("OLD1", Mode::Partnership, 1, false));
        lobby.put(table("PLAY", Mode::Partnership, 0, true));
        lobby.put(table("TWO", Mode::Partnership, 2, false));
        lobby.put(table("NEW1", Mode::Partnership, 1, false));
        lobby.put(table("CUT", Mode::Cutthroat, 2, false));
        let (all, total) = lobby.list(Some(Mode::Partnership));
        assert_eq!(ids(&all), ["TWO", "NEW1", "OLD1", "PLAY"]);
        assert_eq!(total, 4);
        // A table brought up to date keeps its place in time: as free as
        // TWO now, and older.
        lobby.put(table("OLD1", Mode::Partnership, 2, false));
        let (all, _) = lobby.list(Some(Mode::Partnership));
        assert_eq!(ids(&all), ["TWO", "OLD1", "NEW1", "PLAY"]);
        lobby.remove("TWO");
        let (all, total) = lobby.list(None);
        assert_eq!(ids(&all), ["CUT", "OLD1", "NEW1", "PLAY"]);
        assert_eq!(total, 4);
    }

    #[test]
    fn a_long_list_is_cut_to_its_best_tables() {
        let lobby = Lobby::default();
        for i in 0..1000 {
            lobby.put(table(&format!("T{i}"), Mode::Individual, i % 3, false));
        }
        let (first, total) = lobby.list(Some(Mode::Individual));
        assert_eq!(total, 1000);
        assert_eq!(first.len(), MAX_LISTED);
        assert!(first.iter().all(|t| t.free_seats() == 2));
        // The newest of those with two free seats: i = 998, 995, ...
        assert_eq!(first[0].table, "T998");
        assert_eq!(first[1].table, "T995");
    }

    #[test]
    fn every_change_pokes_the_followers_and_nothing_else_does() {
        let lobby = Lobby::default();
        let mut changes = lobby.changes();
        let poked = |changes: &mut watch::Receiver<()>| {
            let seen = changes.has_changed().unwrap();
            changes.mark_unchanged();
            seen
        };
        lobby.put(table("ONE", Mode::Partnership, 3, false));
        assert!(poked(&mut changes), "a table opened");
        lobby.put(table("ONE", Mode::Partnership, 3, false));
        assert!(!poked(&mut changes), "the same summary again is no change");
        lobby.put(table("ONE", Mode::Partnership, 2, false));
        assert!(poked(&mut changes), "a seat taken");
        lobby.remove("NONE");
        assert!(!poked(&mut changes), "no such table: nothing gone");
        lobby.remove("ONE");
        assert!(poked(&mut changes), "a table gone");
        let two = quick_modes(|m| usize::from(m == Mode::Cutthroat) * 2);
        lobby.set_waiting(two.clone());
        assert!(poked(&mut changes), "two queued");
        lobby.set_waiting(two);
        assert!(!poked(&mut changes), "the same counts");
        lobby.poke();
        assert!(poked(&mut changes), "poked from elsewhere");
    }

    #[test]
    fn the_lines_sent_are_made_once_and_again_after_a_change() {
        let lobby = Lobby::default();
        let (sum, empty) = lobby.tables_line(Some(Mode::Partnership));
        assert_eq!(
            &*empty,
            "{\"type\":\"tables\",\"tables\":[],\"total\":0,\"mode\":\"partnership\"}\n"
        );
        let (again, same) = lobby.tables_line(Some(Mode::Partnership));
        assert!(
            Arc::ptr_eq(&empty, &same) && sum == again,
            "kept, not made again"
        );
        lobby.put(table("ONE", Mode::Partnership, 3, false));
        let (changed, one) = lobby.tables_line(Some(Mode::Partnership));
        assert_ne!(changed, sum);
        assert!(
            one.contains("\"ONE\"") && one.contains("\"total\":1"),
            "{one}"
        );
        // A cutthroat table changes no partnership list's text.
        lobby.put(table("CUT", Mode::Cutthroat, 2, false));
        assert_eq!(lobby.tables_line(Some(Mode::Partnership)).0, changed);
        let (_, queues) = lobby.queues_line();
        assert!(
            queues.contains("{\"mode\":\"individual\",\"waiting\":0}"),
            "{queues}"
        );
        assert!(!queues.contains("dummy"), "no quick match with the dummy");
        lobby.set_waiting(quick_modes(|m| usize::from(m == Mode::Individual)));
        let (_, queues) = lobby.queues_line();
        assert!(
            queues.contains("{\"mode\":\"individual\",\"waiting\":1}"),
            "{queues}"
        );
    }
}
