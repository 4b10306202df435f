//! A connection's place in the server's counts: taken when it is
//! accepted and given back however its task ends, a panic included (the
//! guard's `Drop` gives it back, not code after the task's future).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::Shared;

/// How many connections are open, in all and from each address.
#[derive(Default)]
pub(super) struct Counts {
    all: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

impl Counts {
    #[cfg(test)]
    /// Connections open now.
    pub(super) fn open(&self) -> usize {
        self.all.load(Ordering::SeqCst)
    }
}

/// One connection's place; given back when dropped.
pub(super) struct Slot {
    shared: Arc<Shared>,
    address: IpAddr,
}

/// Why a connection was given no place: it is closed at once, holding
/// none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoRoom {
    /// The server holds as many connections as it takes.
    Full,
    /// Its address holds as many as one address may.
    Crowded,
}

impl Slot {
    /// A place for a connection from `address`, or why there is none. One
    /// over its address's limit takes no place in all: a flood from one
    /// address crowds only itself.
    pub(super) fn take(shared: &Arc<Shared>, address: IpAddr) -> Result<Slot, NoRoom> {
        let counts = &shared.counts;
        let mut by_address = counts.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let here = by_address.entry(address).or_insert(0);
        if *here >= shared.options.per_address {
            return Err(NoRoom::Crowded);
        }
        if counts.all.fetch_add(1, Ordering::SeqCst) >= shared.options.max_connections {
            counts.all.fetch_sub(1, Ordering::SeqCst);
            if *here == 0 {
                by_address.remove(&address);
            }
            return Err(NoRoom::Full);
        }
        *here += 1;
        Ok(Slot {
            shared: Arc::clone(shared),
            address,
        })
    }
}

impl Slot {
    /// The address the connection comes from.
    pub(super) fn address(&self) -> IpAddr {
        self.address
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let counts = &self.shared.counts;
        counts.all.fetch_sub(1, Ordering::SeqCst);
        let mut by_address = counts.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(here) = by_address.get_mut(&self.address) {
            *here -= 1;
            if *here == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

/// Descriptors kept back for the listener, certificates, bots' programs
/// and the runtime itself.
const SPARE_DESCRIPTORS: u64 = 64;

/// The most connections this process can hold: its descriptor limit
/// (the soft limit raised to the hard one where allowed) less a spare.
#[cfg(unix)]
pub(super) fn descriptor_room() -> usize {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            limit = getrlimit(Resource::Nofile);
        }
    }
    match limit.current {
        None => usize::MAX,
        Some(n) => usize::try_from(n.saturating_sub(SPARE_DESCRIPTORS)).unwrap_or(usize::MAX),
    }
}

#[cfg(not(unix))]
pub(super) fn descriptor_room() -> usize {
    usize::MAX
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::ServerOptions;

    fn shared(max_connections: usize, per_address: usize) -> Arc<Shared> {
        Shared::new(ServerOptions {
            max_connections,
            per_address,
            ..ServerOptions::default()
        })
    }

    #[test]
    fn a_task_that_panics_gives_its_place_back() {
        let shared = shared(10, 10);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let slot = Slot::take(&shared, IpAddr::from([127, 0, 0, 1])).unwrap();
        assert_eq!(shared.counts.open(), 1);
        let task = runtime.spawn(async move {
            let _slot = slot;
            panic!("a connection's task fails");
        });
        assert!(runtime.block_on(task).is_err());
        assert_eq!(shared.counts.open(), 0);
        assert!(shared.counts.by_address.lock().unwrap().is_empty());
    }

    #[test]
    fn connections_are_counted_in_all_and_by_address() {
        let shared = shared(3, 2);
        let here = IpAddr::from([127, 0, 0, 1]);
        let there = IpAddr::from([127, 0, 0, 2]);
        let a = Slot::take(&shared, here).unwrap();
        let _b = Slot::take(&shared, here).unwrap();
        // A third from one address takes no place, however many come.
        for _ in 0..10 {
            assert_eq!(Slot::take(&shared, here).err(), Some(NoRoom::Crowded));
        }
        assert_eq!(shared.counts.open(), 2);
        let _c = Slot::take(&shared, there).unwrap();
        let elsewhere = IpAddr::from([127, 0, 0, 3]);
        assert_eq!(Slot::take(&shared, elsewhere).err(), Some(NoRoom::Full));
        assert!(
            !shared
                .counts
                .by_address
                .lock()
                .unwrap()
                .contains_key(&elsewhere)
        );
        drop(a);
        assert!(Slot::take(&shared, here).is_ok());
    }
}
