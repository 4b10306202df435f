//! The search workers of the whole process: as many at once as the
//! machine has cores, shared by every decision of every table and every
//! `spades sim` worker. A decision's own thread waits for a place before
//! it weighs; helpers join it only while places are free. So many tables
//! thinking at once share the cores instead of each taking all of them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};

/// Places for search workers, with the count of those running.
pub(super) struct Pool {
    size: usize,
    free: Mutex<usize>,
    freed: Condvar,
    live: AtomicUsize,
    peak: AtomicUsize,
}

/// A worker's place in the pool, given back when it is dropped.
pub(super) struct Place(&'static Pool);

/// The process's pool, sized to the machine's cores.
pub(super) fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool::new(super::cores()))
}

impl Pool {
    fn new(size: usize) -> Pool {
        let size = size.max(1);
        Pool {
            size,
            free: Mutex::new(size),
            freed: Condvar::new(),
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// How many workers may search at once.
    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// The most workers that have searched at once so far.
    #[cfg(test)]
    pub(super) fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// A place, waiting for one to be free: a decision's own thread.
    pub(super) fn wait(&'static self) -> Place {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        drop(free);
        self.started()
    }

    /// A place if one is free now: a helper, who is only extra speed.
    pub(super) fn try_take(&'static self) -> Option<Place> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        if *free == 0 {
            return None;
        }
        *free -= 1;
        drop(free);
        Some(self.started())
    }

    fn started(&'static self) -> Place {
        let live = self.live.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(live, Ordering::SeqCst);
        Place(self)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let pool = self.0;
        pool.live.fetch_sub(1, Ordering::SeqCst);
        *pool.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        pool.freed.notify_one();
    }
}
