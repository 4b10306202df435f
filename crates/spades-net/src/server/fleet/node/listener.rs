//! The listener: waits on `LISTEN` for the other nodes' announcements and
//! reads again only what they name; sweeps the nodes gone silent each
//! heartbeat; and reads the whole fleet again at each connection and
//! once a minute, in case an announcement was missed. The view is locked
//! only to be changed, never while the database is asked.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::view::{Announced, announced};
use super::{
    MAX_LISTING_BYTES, MAX_NODE_TABLES, MAX_NODES, MAX_SERVER_BYTES, Outage, Shared, lock,
};
use crate::ladder::fleet::FleetStore;
use crate::ladder::store::{PostgresUrl, StoreError};

/// The longest the listener waits on the database before it looks
/// whether the node is stopping.
const POLL: Duration = Duration::from_millis(500);
/// The most announcements read in one round: more wait for the next.
const MOST_ANNOUNCED: usize = 1000;
/// The least time between two rounds: what is announced meanwhile is
/// read together, so a flood of announcements costs a few reads a second.
const GAP: Duration = Duration::from_millis(100);
/// How often the whole fleet is read again.
const RESYNC: Duration = Duration::from_secs(60);
const RETRY: Duration = Duration::from_secs(1);

/// When the next sweep and the next whole reading are due.
struct Due {
    sweep: Instant,
    resync: Instant,
}

/// Runs until the node stops.
pub(super) fn run(shared: &Shared, url: &PostgresUrl) {
    let mut store: Option<FleetStore> = None;
    let mut lost_since: Option<Instant> = None;
    let mut outage = Outage::default();
    let mut due = Due {
        sweep: Instant::now(),
        resync: Instant::now(),
    };
    while shared.stopping().is_none() {
        let open = match store.take() {
            Some(open) if !open.is_closed() => Ok(open),
            _ => FleetStore::open(url).and_then(|mut open| {
                open.listen()?;
                // Listening before reading: nothing changes unseen between.
                due.resync = Instant::now();
                Ok(open)
            }),
        };
        let outcome = open.and_then(|mut open| round(shared, &mut open, &mut due).map(|()| open));
        match outcome {
            Ok(open) => {
                store = Some(open);
                lost_since = None;
                outage.over("listener");
            }
            Err(e) => {
                outage.began("listener", &e);
                // Tables that may have ended are not listed for long.
                let since = *lost_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= shared.options.expiry && lock(&shared.view).clear() {
                    shared.tables_changed();
                }
                std::thread::sleep(RETRY);
            }
        }
    }
}

/// One round: what is due, then the announcements of up to `POLL`. The
/// hook is called for what changed, even when the round then failed.
fn round(shared: &Shared, store: &mut FleetStore, due: &mut Due) -> Result<(), StoreError> {
    let mut changed = false;
    let outcome = steps(shared, store, due, &mut changed);
    if changed {
        shared.tables_changed();
    }
    if outcome? {
        std::thread::sleep(GAP);
    }
    Ok(())
}

/// What is due, then the announcements; whether any came.
fn steps(
    shared: &Shared,
    store: &mut FleetStore,
    due: &mut Due,
    changed: &mut bool,
) -> Result<bool, StoreError> {
    let now = Instant::now();
    if now >= due.resync {
        let (went, new) = refresh_nodes(shared, store)?;
        *changed |= went;
        let known: Vec<String> = lock(&shared.view).nodes();
        for node in known.iter().filter(|node| !new.contains(node)) {
            *changed |= read_node(shared, store, node, None)?;
        }
        due.resync = now + RESYNC;
    }
    if now >= due.sweep {
        store.sweep(shared.options.expiry)?;
        *changed |= refresh_nodes(shared, store)?.0;
        due.sweep = now + shared.options.heartbeat;
    }
    let wait = POLL.min(due.sweep.saturating_duration_since(Instant::now()));
    let payloads = store.announcements(wait, MOST_ANNOUNCED)?;
    *changed |= read_announced(shared, store, &payloads)?;
    Ok(!payloads.is_empty())
}

/// Reads again what the announcements name; whether the view changed.
fn read_announced(
    shared: &Shared,
    store: &mut FleetStore,
    payloads: &[String],
) -> Result<bool, StoreError> {
    let mut whole: HashSet<String> = HashSet::new();
    let mut tables: HashMap<String, Vec<String>> = HashMap::new();
    for payload in payloads {
        match announced(payload) {
            Some(Announced::Node(node)) if node != shared.node => {
                whole.insert(node);
            }
            Some(Announced::Table(node, table)) if node != shared.node => {
                tables.entry(node).or_default().push(table);
            }
            _ => {}
        }
    }
    let mut changed = false;
    let unknown = tables.keys().any(|n| !lock(&shared.view).knows(n));
    if !whole.is_empty() || unknown {
        let (went, new) = refresh_nodes(shared, store)?;
        changed |= went;
        // Read whole already: the new ones.
        for node in new {
            whole.remove(&node);
            tables.remove(&node);
        }
    }
    for node in &whole {
        tables.remove(node);
        changed |= read_node(shared, store, node, None)?;
    }
    for (node, mut ids) in tables {
        ids.sort_unstable();
        ids.dedup();
        changed |= read_node(shared, store, &node, Some(&ids))?;
    }
    Ok(changed)
}

/// The nodes alive read again, and the tables of those new to the view;
/// whether the view changed, and which nodes were new.
fn refresh_nodes(
    shared: &Shared,
    store: &mut FleetStore,
) -> Result<(bool, Vec<String>), StoreError> {
    // One more than the most listed: this node's own row is among them.
    let rows = store.nodes(shared.options.expiry, MAX_NODES + 1, MAX_SERVER_BYTES)?;
    let (new, went) = lock(&shared.view).alive(&rows);
    let mut changed = went;
    for node in &new {
        changed |= read_node(shared, store, node, None)?;
    }
    Ok((changed, new))
}

/// The tables of `node` read again (those of `only`, or all); whether the
/// view changed. A node the view does not know is not read.
fn read_node(
    shared: &Shared,
    store: &mut FleetStore,
    node: &str,
    only: Option<&[String]>,
) -> Result<bool, StoreError> {
    if !lock(&shared.view).knows(node) {
        return Ok(false);
    }
    let only = only.map(|ids| &ids[..ids.len().min(MAX_NODE_TABLES)]);
    let rows = store.tables(node, only, MAX_NODE_TABLES, MAX_LISTING_BYTES)?;
    Ok(lock(&shared.view).read(node, only, &rows))
}
