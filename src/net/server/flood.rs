//! The flood limits: how many messages a connection may send in a second,
//! and how many chat lines a person may say in a few seconds.

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
        forget_before(&mut self.times, now, Duration::from_secs(1));
        self.times.push_back(now);
        self.times.len() <= FLOOD_LIMIT
    }
}

/// Chat lines one person may send in any `CHAT_SPAN`: more are refused,
/// so that one person cannot push everyone else's lines off the screen.
pub(super) const CHAT_LIMIT: usize = 5;
pub(super) const CHAT_SPAN: Duration = Duration::from_secs(10);

/// Forgets the times `span` or more before `now`.
fn forget_before(times: &mut VecDeque<Instant>, now: Instant, span: Duration) {
    while times
        .front()
        .is_some_and(|&t| now.duration_since(t) >= span)
    {
        times.pop_front();
    }
}

/// A person's chat lines over the last `CHAT_SPAN`.
#[derive(Debug, Default)]
pub(super) struct ChatRate {
    times: VecDeque<Instant>,
}

impl ChatRate {
    /// Another chat line now: false, and not counted, when the person has
    /// said `CHAT_LIMIT` lines within the span already.
    pub(super) fn allows(&mut self, now: Instant) -> bool {
        forget_before(&mut self.times, now, CHAT_SPAN);
        let allowed = self.times.len() < CHAT_LIMIT;
        if allowed {
            self.times.push_back(now);
        }
        allowed
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

    #[test]
    fn a_sixth_chat_line_within_ten_seconds_is_held_back() {
        let mut chat = ChatRate::default();
        let start = Instant::now();
        for i in 0..CHAT_LIMIT {
            assert!(chat.allows(start + Duration::from_secs(i as u64)));
        }
        assert!(!chat.allows(start + Duration::from_secs(9)));
        // A line held back is not counted: once the first is ten seconds
        // old, one more goes.
        assert!(chat.allows(start + CHAT_SPAN));
        assert!(!chat.allows(start + CHAT_SPAN));
    }
}
