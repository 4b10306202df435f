//! The server's public lobby: a summary of each public table, kept up to
//! date by the table's own task whenever its seats change, so a `tables`
//! request reads one map instead of asking every table (a thousand tables
//! answer as fast as ten). A private table is never put here. A node of
//! a fleet lists the other nodes' tables too (`fleet`), and hands its own
//! to them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::fleet::Fleet;
use crate::engine::Mode;
use crate::protocol::directory::{ListedTable, MAX_LISTED};

/// The public tables by id, each with when it was opened.
#[derive(Default)]
pub(crate) struct Directory {
    tables: Mutex<Listed>,
    /// The fleet this server is a node of, when it shares a PostgreSQL
    /// ladder with others.
    fleet: Option<Arc<Fleet>>,
}

#[derive(Default)]
struct Listed {
    by_id: HashMap<String, (u64, ListedTable)>,
    opened: u64,
}

impl Directory {
    /// The lobby of a node of `fleet`.
    pub(crate) fn of_fleet(fleet: Arc<Fleet>) -> Directory {
        Directory {
            fleet: Some(fleet),
            ..Directory::default()
        }
    }

    /// The fleet, whose `changes` is the hook "the fleet's tables
    /// changed", for the push of the listing to lobby screens to wait on
    /// (not connected yet: nothing pushes the listing).
    #[allow(dead_code)]
    pub(crate) fn fleet(&self) -> Option<&Arc<Fleet>> {
        self.fleet.as_ref()
    }

    /// Puts a public table's summary in the lobby, or brings it up to date.
    pub(crate) fn put(&self, table: ListedTable) {
        let mut listed = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        // When it opened, in milliseconds since the epoch (a node's
        // tables and the fleet's are ordered together), and later than
        // the table before, so that order holds whatever the clock does.
        let next = now_ms().max(listed.opened + 1);
        let opened = match listed.by_id.get(&table.table) {
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
    }

    /// The table is gone: no longer listed.
    pub(crate) fn remove(&self, id: &str) {
        let mut listed = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if listed.by_id.remove(id).is_some()
            && let Some(fleet) = &self.fleet
        {
            fleet.withdraw(id);
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

    /// The tables of `mode` (every mode when `None`) as `tables` answers,
    /// the fleet's other nodes' with this node's: the first `MAX_LISTED`
    /// in order, and how many match.
    pub(crate) fn list(&self, mode: Option<Mode>) -> (Vec<ListedTable>, usize) {
        let listed = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let own = listed
            .by_id
            .values()
            .map(|(opened, table)| (*opened, table));
        let fleet = self.fleet.as_ref().map(|fleet| fleet.tables());
        let others = fleet.iter().flat_map(|tables| tables.iter());
        let (first, total) = ordered(own.chain(others), mode);
        (first.into_iter().cloned().collect(), total)
    }
}

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
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
            code: None,
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
}
