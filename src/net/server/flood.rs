//! The flood limit: how many messages a connection may send in a second.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Messages allowed in any one second.
pub(super) const FLOOD_LIMIT: usize = 50;

/// Counts a connection's messages over the last second.
#[derive(Debug, Default)]
pub(super) struct Flood {
    times: VecDeque<Instant>,
}

impl Flood {
    /// Another message now: false when it makes more than `FLOOD_LIMIT`
    /// in a second.
    pub(super) fn allows(&mut self, now: Instant) -> bool {
        while self
            .times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= Duration::from_secs(1))
        {
            self.times.pop_front();
        }
        self.times.push_back(now);
        self.times.len() <= FLOOD_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_fifty_messages_in_a_second_is_a_flood() {
        let mut flood = Flood::default();
        let start = Instant::now();
        for i in 0..FLOOD_LIMIT {
            assert!(flood.allows(start + Duration::from_millis(i as u64)));
        }
        assert!(!flood.allows(start + Duration::from_millis(900)));
        let mut steady = Flood::default();
        for i in 0..500 {
            assert!(steady.allows(start + Duration::from_millis(25 * i)));
        }
    }
}
