//! The turn timer as the protocol tells a seat of it: how long an `ask`
//! has before a bot of the table answers it (`time_left_ms`), and, on the
//! `view` that follows, what that bot did (`timed_out`). Both are keys a
//! client before them ignores; both are read leniently, since a server's
//! word on time is only advice: a value that is not what the protocol
//! says is dropped, never taken for the whole message being unreadable.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use crate::engine::{Action, Decision, Seat};

/// The longest time an ask is given, the longest turn timer a server
/// takes (`--turn-timer 3600`): more from a server is read as this, so a
/// hostile number can neither overflow a clock nor stall the countdown.
pub const MAX_TIME_LEFT: Duration = Duration::from_secs(3600);

/// How long an ask has before a bot answers it, in milliseconds as sent;
/// counted by the receiver from when it read the ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TimeLeft(u64);

impl TimeLeft {
    pub fn new(left: Duration) -> TimeLeft {
        TimeLeft(u64::try_from(left.as_millis()).unwrap_or(u64::MAX))
    }

    /// The time left, never more than `MAX_TIME_LEFT`.
    pub fn duration(self) -> Duration {
        Duration::from_millis(self.0).min(MAX_TIME_LEFT)
    }
}

/// The turn timer ran out on an ask: a bot of the table answered it with
/// `action`, for `seat` (the player's own, or the dummy's when they
/// declare), the decision being `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedOut {
    pub seat: Seat,
    pub decision: Decision,
    pub action: Action,
}

/// A key read as `T` when it is one, and as absent when it is anything
/// else: the rest of the message still reads.
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}
