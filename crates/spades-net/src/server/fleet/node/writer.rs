//! The writer: puts this node's public tables in the store as the table
//! tasks hand them over, beats the node's heart, and removes the node's
//! rows when it stops. It keeps its own copy of what it published, so a
//! node the others swept (silent too long) or a database that lost its
//! unlogged tables gets the whole of it again.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{Change, MAX_NODE_TABLES, Outage, Shared, Stop, lock};
use crate::ladder::fleet::{FleetStore, TableChange, Written};
use crate::ladder::store::PostgresUrl;

/// The least time between two writes: the changes of the meantime are
/// written together, so a busy node announces a few times a second, not
/// at every seat taken.
const GAP: Duration = Duration::from_millis(100);
/// How long to wait before connecting again to a database that failed.
const RETRY: Duration = Duration::from_secs(1);

/// This node's tables as the store has them (or will, once written): id
/// to when it opened and its listing in JSON.
type Published = HashMap<String, (i64, String)>;

/// Runs until the node stops; says `done` once its rows are removed (or
/// it gave up on that).
pub(super) fn run(shared: &Shared, url: &PostgresUrl, server: &str, done: &mpsc::Sender<()>) {
    let node = shared.node.as_str();
    let mut published = Published::new();
    let mut store: Option<FleetStore> = None;
    let mut joined = false;
    let mut beat_at = Instant::now();
    let mut outage = Outage::default();
    loop {
        let (changes, stop) = take(shared, beat_at);
        let written = apply(&mut published, changes);
        match stop {
            Some(Stop::Silent) => return,
            Some(Stop::Leave) => {
                if let Some(store) = store.as_mut() {
                    let _ = store.leave(node);
                } else if let Ok(mut store) = FleetStore::open(url) {
                    let _ = store.leave(node);
                }
                let _ = done.send(());
                return;
            }
            None => {}
        }
        let outcome = (|| {
            let open = match store.take() {
                Some(open) if !open.is_closed() => open,
                _ => {
                    joined = false;
                    FleetStore::open(url)?
                }
            };
            let open = store.insert(open);
            if joined {
                joined = open.write(node, &written)? == Written::Done;
            }
            if joined && Instant::now() >= beat_at {
                joined = open.beat(node)? == Written::Done;
            }
            if !joined {
                open.join(node, server, &all(&published))?;
                joined = true;
            }
            Ok::<(), crate::ladder::store::StoreError>(())
        })();
        match outcome {
            Ok(()) => {
                outage.over("writer");
                beat_at = Instant::now() + shared.options.heartbeat;
                pause(shared, GAP);
            }
            Err(e) => {
                outage.began("writer", &e);
                store = None;
                joined = false;
                pause(shared, RETRY);
            }
        }
    }
}

/// Waits for a change, a stop, or the time of the next beat; takes the
/// changes waiting.
fn take(shared: &Shared, beat_at: Instant) -> (HashMap<String, Change>, Option<Stop>) {
    let mut outbox = lock(&shared.outbox);
    loop {
        let now = Instant::now();
        if !outbox.pending.is_empty() || outbox.stop.is_some() || now >= beat_at {
            return (std::mem::take(&mut outbox.pending), outbox.stop);
        }
        outbox = shared
            .wake
            .wait_timeout(outbox, beat_at - now)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Waits `gap`, unless the node stops meanwhile.
fn pause(shared: &Shared, gap: Duration) {
    let outbox = lock(&shared.outbox);
    if outbox.stop.is_none() {
        let _ = shared
            .wake
            .wait_timeout_while(outbox, gap, |o| o.stop.is_none());
    }
}

/// The changes taken into `published`, and as the store is to write
/// them. A node's tables past `MAX_NODE_TABLES` are not published (the
/// others would not list them): its own lobby still lists them.
fn apply(
    published: &mut Published,
    changes: HashMap<String, Change>,
) -> Vec<(String, TableChange)> {
    let mut written = Vec::new();
    for (id, change) in changes {
        match change {
            Some((opened, table)) => {
                if !published.contains_key(&id) && published.len() >= MAX_NODE_TABLES {
                    continue;
                }
                let Ok(listing) = serde_json::to_string(&table) else {
                    continue;
                };
                let opened = i64::try_from(opened).unwrap_or(i64::MAX);
                published.insert(id.clone(), (opened, listing.clone()));
                written.push((id, TableChange::Listed { opened, listing }));
            }
            None => {
                if published.remove(&id).is_some() {
                    written.push((id, TableChange::Gone));
                }
            }
        }
    }
    written
}

fn all(published: &Published) -> Vec<(String, i64, String)> {
    published
        .iter()
        .map(|(id, (opened, listing))| (id.clone(), *opened, listing.clone()))
        .collect()
}
