//! The guard after a pause: for a moment after a trick is lifted, a
//! summary read or a new decision begun, a key that would act is taken as
//! meant for what just ended and does nothing; the key bar shows it was
//! seen, so it is not thought lost.

use std::time::{Duration, Instant};

/// Until when keys that act are held back, and whether one was.
#[derive(Debug, Default)]
pub(super) struct Guard {
    until: Option<Instant>,
    /// The guard's end, when a key was held back by it.
    held_back: Option<Instant>,
}

impl Guard {
    /// A pause ends at `now`: the guard runs for `length` from it.
    pub(super) fn start(&mut self, now: Instant, length: Duration) {
        self.until = Some(now + length);
    }

    /// A decision begins at `now`: the guard runs for `length` from it, or
    /// longer if one already does.
    pub(super) fn extend(&mut self, now: Instant, length: Duration) {
        let guard = now + length;
        self.until = Some(self.until.map_or(guard, |g| g.max(guard)));
    }

    pub(super) fn is_on(&self, now: Instant) -> bool {
        self.until.is_some_and(|until| now < until)
    }

    /// A key the guard holds back: it does nothing, but is seen.
    pub(super) fn hold_back(&mut self) {
        self.held_back = self.until;
    }

    /// Was a key held back by the guard still on at `now`?
    pub(super) fn held_back(&self, now: Instant) -> bool {
        self.is_on(now) && self.held_back.is_some() && self.held_back == self.until
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_held_back_is_shown_until_the_guard_ends_and_not_after_a_new_one() {
        let (now, second) = (Instant::now(), Duration::from_secs(1));
        let mut guard = Guard::default();
        assert!(!guard.is_on(now));
        guard.start(now, second);
        assert!(guard.is_on(now) && !guard.held_back(now));
        guard.hold_back();
        assert!(guard.held_back(now));
        assert!(!guard.held_back(now + second), "the guard is over");
        guard.extend(now, 2 * second);
        assert!(!guard.held_back(now), "a new guard holds nothing back yet");
        guard.extend(now, second);
        assert!(guard.is_on(now + second), "never shortened by extending");
    }
}
