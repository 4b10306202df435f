//! The flood limits: how many messages a connection may send in a second,
//! how many chat lines a person, and a whole table, may say in a few
//! seconds, and how often a connection may ask for the list of tables.

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
/// Chat lines everyone at one table may send together in any `CHAT_SPAN`:
/// four people each under their own limit must not flood the notices
/// either. Far below the flood limit.
pub(super) const TABLE_CHAT_LIMIT: usize = 12;
pub(super) const CHAT_SPAN: Duration = Duration::from_secs(10);
/// `tables` requests one connection may make in any `CHAT_SPAN`: a lobby
/// screen refreshing every few seconds is well under it; each answer can
/// be a long line, so a client may not ask for one many times a second.
pub(super) const LISTING_LIMIT: usize = 10;

/// Forgets the times `span` or more before `now`.
pub(super) fn forget_before(times: &mut VecDeque<Instant>, now: Instant, span: Duration) {
    while times
        .front()
        .is_some_and(|&t| now.duration_since(t) >= span)
    {
        times.pop_front();
    }
}

/// Lines (chat, or `tables` requests) over the last `CHAT_SPAN`, at most
/// `LIMIT` of them.
#[derive(Debug, Default)]
pub(super) struct Rate<const LIMIT: usize> {
    times: VecDeque<Instant>,
}

/// A person's chat lines.
pub(super) type ChatRate = Rate<CHAT_LIMIT>;
/// A table's chat lines, everyone's together.
pub(super) type TableChatRate = Rate<TABLE_CHAT_LIMIT>;
/// A connection's `tables` requests.
pub(super) type ListingRate = Rate<LISTING_LIMIT>;

impl<const LIMIT: usize> Rate<LIMIT> {
    /// Have `LIMIT` lines been said within the span already?
    pub(super) fn full(&mut self, now: Instant) -> bool {
        forget_before(&mut self.times, now, CHAT_SPAN);
        self.times.len() >= LIMIT
    }

    /// A line said now.
    pub(super) fn count(&mut self, now: Instant) {
        self.times.push_back(now);
    }

    /// How long after `now` a full rate has room for one more line: when
    /// the oldest line beyond its room leaves the span. Said to whoever
    /// is refused, so they know when to try again.
    pub(super) fn again_in(&self, now: Instant) -> Duration {
        let over = self.times.len().saturating_sub(LIMIT);
        self.times.get(over).map_or(Duration::ZERO, |&t| {
            (t + CHAT_SPAN).saturating_duration_since(now)
        })
    }
}

/// A wait in whole seconds, rounded up and at least one: trying again
/// after it is never too soon (nor "in 0 seconds", at once, refused again).
pub(super) fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// A refusal's "try again" for a wait, in seconds.
pub(super) fn try_again(wait: Duration) -> String {
    let seconds = whole_seconds(wait);
    let unit = if seconds == 1 { "second" } else { "seconds" };
    format!("try again in {seconds} {unit}")
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

    /// Another line now, counted unless the rate is full.
    fn allows(chat: &mut ChatRate, now: Instant) -> bool {
        let full = chat.full(now);
        if !full {
            chat.count(now);
        }
        !full
    }

    #[test]
    fn a_sixth_chat_line_within_ten_seconds_is_held_back() {
        let mut chat = ChatRate::default();
        let start = Instant::now();
        for i in 0..CHAT_LIMIT {
            assert!(allows(&mut chat, start + Duration::from_secs(i as u64)));
        }
        assert!(!allows(&mut chat, start + Duration::from_secs(9)));
        // A line held back is not counted: once the first is ten seconds
        // old, one more goes.
        assert!(allows(&mut chat, start + CHAT_SPAN));
        assert!(!allows(&mut chat, start + CHAT_SPAN));
    }

    #[test]
    fn a_table_takes_twelve_lines_in_ten_seconds_from_everyone() {
        let mut table = TableChatRate::default();
        let start = Instant::now();
        for _ in 0..TABLE_CHAT_LIMIT {
            assert!(!table.full(start));
            table.count(start);
        }
        assert!(table.full(start + Duration::from_secs(9)));
        // Full at 9 s with its first line at 0: room again at 10 s.
        let wait = table.again_in(start + Duration::from_millis(9_500));
        assert_eq!(wait, Duration::from_millis(500));
        assert_eq!(try_again(wait), "try again in 1 second");
        assert_eq!(try_again(Duration::from_secs(4)), "try again in 4 seconds");
        assert!(!table.full(start + CHAT_SPAN));
    }
}
