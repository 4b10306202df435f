//! What each player in the quick-match queue is told while they wait:
//! how many wait for their mode, the names of the first of them, and the
//! seconds left before their own wait is over (when bots fill the seats
//! no player took). Told again whenever who waits changes, at most once
//! a `SPACING` a connection, so a flood of players coming and going
//! cannot flood those who wait.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::ConnId;
use super::link::{Link, encode};
use crate::engine::Mode;
use crate::protocol::ServerMessage;
use crate::protocol::lobby::MAX_QUEUED_NAMES;

/// The least time between two `queued` to one connection.
pub(super) const SPACING: Duration = Duration::from_millis(200);

/// One player waiting, as the queue holds them.
pub(super) struct Waiter<'a> {
    pub link: &'a Link,
    pub mode: Mode,
    pub name: &'a str,
    pub since: Instant,
    /// How long they wait for players before bots fill the table.
    pub wait: Duration,
}

/// What a waiting player was last told, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Told {
    at: Instant,
    waiting: u32,
    names: Vec<String>,
}

/// The players told so far, by connection.
#[derive(Debug, Default)]
pub(super) struct Tellings {
    told: HashMap<ConnId, Told>,
}

impl Tellings {
    /// Tells each player in `waiting` what changed since they were last
    /// told (everything, to one who just came), unless they were told
    /// within `SPACING`: the next round tells them the latest.
    pub(super) fn tell(&mut self, waiting: &[Waiter], now: Instant) {
        self.told
            .retain(|conn, _| waiting.iter().any(|e| e.link.id == *conn));
        for mode in Mode::ALL {
            let of_mode: Vec<&Waiter> = waiting.iter().filter(|e| e.mode == mode).collect();
            if of_mode.is_empty() {
                continue;
            }
            let count = u32::try_from(of_mode.len()).unwrap_or(u32::MAX);
            let names = first_names(of_mode.iter().map(|e| (e.since, e.name)));
            for entry in of_mode {
                let told = self.told.get(&entry.link.id);
                let same = told.is_some_and(|t| t.waiting == count && t.names == names);
                let recent = told.is_some_and(|t| now.saturating_duration_since(t.at) < SPACING);
                if same || recent {
                    continue;
                }
                let message = ServerMessage::Queued {
                    mode,
                    waiting: count,
                    names: names.clone(),
                    bots_in: Some(bots_in(entry, now)),
                };
                entry.link.send(encode(&message));
                let told = Told {
                    at: now,
                    waiting: count,
                    names: names.clone(),
                };
                self.told.insert(entry.link.id, told);
            }
        }
    }
}

/// The names of the first `MAX_QUEUED_NAMES` waiting (when each came,
/// and their name), longest waiting first; an account queued from
/// several connections is named once.
fn first_names<'a>(waiting: impl Iterator<Item = (Instant, &'a str)>) -> Vec<String> {
    let mut by_arrival: Vec<(Instant, &str)> = waiting.collect();
    by_arrival.sort_by_key(|&(since, _)| since);
    let mut names: Vec<String> = Vec::new();
    for (_, name) in by_arrival {
        if names.len() == MAX_QUEUED_NAMES {
            break;
        }
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// Whole seconds, rounded up, until `entry`'s own wait is over: the
/// queue seats them then at the latest (`matching::groups`).
fn bots_in(entry: &Waiter, now: Instant) -> u32 {
    let left = (entry.since + entry.wait).saturating_duration_since(now);
    let whole = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    u32::try_from(whole).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However many wait, the first `MAX_QUEUED_NAMES` are named, longest
    /// waiting first, each account once.
    #[test]
    fn the_first_names_are_told_each_once() {
        let start = Instant::now();
        let names: Vec<String> = (0..20).map(|i| format!("P{i}")).collect();
        // Came in reverse order: P19 first.
        let waiting = names.iter().enumerate().map(|(i, name)| {
            let since = start + Duration::from_secs(100 - i as u64);
            (since, name.as_str())
        });
        let told = first_names(waiting);
        assert_eq!(told.len(), MAX_QUEUED_NAMES);
        assert_eq!(told[0], "P19");
        assert_eq!(told[MAX_QUEUED_NAMES - 1], "P12");
        let twice = [(start, "Ann"), (start, "Ann"), (start, "Bob")];
        assert_eq!(first_names(twice.into_iter()), ["Ann", "Bob"]);
    }
}
