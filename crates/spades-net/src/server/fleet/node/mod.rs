//! A node's part in its fleet: the writer's and the listener's threads,
//! what they share with the server, and the fleet's view.

mod listener;
#[cfg(test)]
mod tests;
mod view;
mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use view::View;

use super::{FleetOptions, Membership};
use crate::code::ServerAddress;
use crate::ladder::store::PostgresUrl;
use crate::protocol::lobby::ListedTable;

/// The most nodes a fleet's lobby lists tables of.
pub(crate) const MAX_NODES: usize = 32;
/// The most tables of one node the others list.
pub(crate) const MAX_NODE_TABLES: usize = 1000;
/// The most tables of other nodes one node lists, in all.
pub(crate) const MAX_FLEET_TABLES: usize = 10_000;
/// The longest a table's listing may be, in JSON: an honest one is
/// under 1,000 bytes.
pub(crate) const MAX_LISTING_BYTES: usize = 2048;
/// The longest a node's server address may be.
pub(crate) const MAX_SERVER_BYTES: usize = 300;
/// How long stopping waits for the node's rows to be removed.
const LEAVE_WAIT: Duration = Duration::from_secs(3);

/// A table of this node's, as the writer is to put it in the store:
/// listed (opened at, in milliseconds since the epoch), or gone.
type Change = Option<(u64, ListedTable)>;

/// What the table tasks hand the writer, and how it is told to stop.
#[derive(Default)]
struct Outbox {
    /// The latest change of each table not yet written: a table that
    /// changes ten times while the store is busy is written once.
    pending: HashMap<String, Change>,
    stop: Option<Stop>,
}

/// How the writer stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Cleanly: the node's rows are removed, and that is announced.
    Leave,
    /// As a process killed would: nothing more is written (for tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Silent,
}

/// What the threads and the server share.
struct Shared {
    /// This node's id in the store: random, new at each start.
    node: String,
    outbox: Mutex<Outbox>,
    wake: Condvar,
    view: Mutex<View>,
    /// The hook "the fleet's tables changed": bumped each time the view
    /// changes, for whoever pushes the listing to lobby screens.
    changed: watch::Sender<u64>,
    /// The lobby's own "changed" signal, woken with the hook.
    lobby: Mutex<Option<watch::Sender<()>>>,
    options: FleetOptions,
}

/// A node's part in its fleet.
pub(crate) struct Fleet {
    shared: Arc<Shared>,
    membership: Membership,
    /// Told once the writer has left (or given up).
    left: Mutex<Option<std::sync::mpsc::Receiver<()>>>,
}

impl Fleet {
    /// Starts the node's threads on the database at `url`. `server`: where
    /// players reach this node, or `None` (its tables are not published).
    pub(crate) fn start(
        url: &PostgresUrl,
        server: Option<ServerAddress>,
        options: FleetOptions,
    ) -> Result<Fleet, String> {
        let node = crate::code::table_id()?;
        let (changed, _) = watch::channel(0);
        let shared = Arc::new(Shared {
            view: Mutex::new(View::new(node.clone())),
            node,
            outbox: Mutex::new(Outbox::default()),
            wake: Condvar::new(),
            changed,
            lobby: Mutex::new(None),
            options,
        });
        let spawn = |name: &str, run: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name.into())
                .spawn(run)
                .map(|_| ())
                .map_err(|e| format!("cannot start the fleet's threads: {e}"))
        };
        let (membership, left) = match server {
            Some(server) => {
                let text = server.target().server();
                let (done, left) = std::sync::mpsc::channel();
                let (shared, url, said) = (Arc::clone(&shared), url.clone(), text.clone());
                spawn(
                    "spades-fleet-writer",
                    Box::new(move || writer::run(&shared, &url, &said, &done)),
                )?;
                (Membership::Listed(text), Some(left))
            }
            None => (Membership::Unlisted, None),
        };
        let (listening, url) = (Arc::clone(&shared), url.clone());
        spawn(
            "spades-fleet-listener",
            Box::new(move || listener::run(&listening, &url)),
        )?;
        Ok(Fleet {
            shared,
            membership,
            left: Mutex::new(left),
        })
    }

    pub(crate) fn membership(&self) -> &Membership {
        &self.membership
    }

    /// A public table of this node's opened or changed.
    pub(crate) fn publish(&self, opened: u64, table: &ListedTable) {
        self.hand_over(&table.table, || Some((opened, table.clone())));
    }

    /// A public table of this node's is gone.
    pub(crate) fn withdraw(&self, id: &str) {
        self.hand_over(id, || None);
    }

    /// Hands a change to the writer, unless nothing is published.
    fn hand_over(&self, id: &str, change: impl FnOnce() -> Change) {
        if self.membership == Membership::Unlisted {
            return;
        }
        let (id, change) = (id.to_string(), change());
        let mut outbox = lock(&self.shared.outbox);
        outbox.pending.insert(id, change);
        self.shared.wake.notify_all();
    }

    /// The other nodes' tables, locked while they are read.
    pub(crate) fn tables(&self) -> OtherTables<'_> {
        OtherTables(lock(&self.shared.view))
    }

    /// The hook "the fleet's tables changed": the value changes each time
    /// another node's table opens, changes or goes, or a node does. The
    /// lobby's push of the listing waits on it beside the node's own
    /// changes.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.shared.changed.subscribe()
    }

    /// How many times the other nodes' tables have changed: a listing made
    /// at another version is stale.
    pub(crate) fn version(&self) -> u64 {
        *self.shared.changed.borrow()
    }

    /// Wakes `lobby` too whenever the other nodes' tables change, so the
    /// lobbies that follow this node hear of them.
    pub(crate) fn wake_on_change(&self, lobby: watch::Sender<()>) {
        *lock(&self.shared.lobby) = Some(lobby);
    }

    /// The node stops: its rows are removed from the store (waited for a
    /// little, not longer: a database gone must not hold the stop).
    pub(crate) fn leave(&self) {
        self.stop(Stop::Leave);
        if let Some(left) = lock(&self.left).take() {
            let _ = left.recv_timeout(LEAVE_WAIT);
        }
    }

    fn stop(&self, how: Stop) {
        let mut outbox = lock(&self.shared.outbox);
        outbox.stop.get_or_insert(how);
        self.shared.wake.notify_all();
    }

    /// Writes nothing more, leaving its rows as a killed process would.
    #[cfg(test)]
    pub(crate) fn fall_silent(&self) {
        self.stop(Stop::Silent);
    }
}

/// The other nodes' tables, held while a listing is made.
pub(crate) struct OtherTables<'a>(std::sync::MutexGuard<'a, View>);

impl OtherTables<'_> {
    /// Every table, with when it opened.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, &ListedTable)> {
        self.0.tables()
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        self.leave();
    }
}

impl Shared {
    fn stopping(&self) -> Option<Stop> {
        lock(&self.outbox).stop
    }

    /// The view changed: the hook is bumped and the lobby woken.
    fn tables_changed(&self) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
        if let Some(lobby) = &*lock(&self.lobby) {
            lobby.send_replace(());
        }
    }
}

/// A thread's trouble with the database, said once when it starts and
/// once when it is over, not at every try between.
#[derive(Default)]
struct Outage {
    down: bool,
}

impl Outage {
    fn began(&mut self, thread: &str, e: &crate::ladder::store::StoreError) {
        if !self.down {
            eprintln!(
                "spades serve: the fleet's {thread} cannot use the database ({e}): the fleet's lobby may lag until it can"
            );
            self.down = true;
        }
    }

    fn over(&mut self, thread: &str) {
        if self.down {
            eprintln!("spades serve: the fleet's {thread} uses the database again");
            self.down = false;
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
