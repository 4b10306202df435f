//! Quick match, decided: which of the players waiting for a mode sit down
//! together now. A pure function of the queue and the time, so every rule
//! is tested without a server.
//!
//! The player who has waited longest is matched first, with the players
//! nearest their rating, within a window that widens the longer they have
//! waited. A full table forms as soon as enough are near; otherwise, once
//! that player's own chosen wait has passed, those near enough sit down
//! and the table's bots fill the rest.
//!
//! Partnership: matched players sit as opponents first (seats 0 and 1,
//! each with a bot partner when two are matched), so two players of like
//! rating play each other, not the bots together; four are paired
//! strongest with weakest.

use std::time::{Duration, Instant};

use crate::engine::{Mode, Seat};
use crate::ladder::store::AccountId;

/// Ratings this close match at once.
pub(super) const FIRST_WINDOW: u32 = 100;
/// The window widens by this many points a second waited.
pub(super) const WIDENING: u32 = 5;

/// One player in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Waiting {
    pub rating: i32,
    pub since: Instant,
    /// How long they will wait for players before bots fill the table.
    pub wait: Duration,
    /// Their account: one account takes one seat at a table, however
    /// many of its connections wait.
    pub account: Option<AccountId>,
}

/// How far from a rating another may be, after waiting `waited`.
pub(super) fn window(waited: Duration) -> u32 {
    let seconds = u32::try_from(waited.as_secs()).unwrap_or(u32::MAX);
    FIRST_WINDOW.saturating_add(WIDENING.saturating_mul(seconds))
}

/// The tables that form now from `queue` (players waiting for one mode,
/// `seats` players a table): each a list of indices into `queue`, the
/// player who waited longest first. Players in no group go on waiting.
pub(super) fn groups(queue: &[Waiting], seats: usize, now: Instant) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..queue.len()).collect();
    order.sort_by_key(|&i| queue[i].since);
    let mut taken = vec![false; queue.len()];
    let mut formed = Vec::new();
    for &first in &order {
        if taken[first] {
            continue;
        }
        let anchor = queue[first];
        // The longest waiter left has the widest window of those left.
        let reach = window(now.saturating_duration_since(anchor.since));
        let mut near: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| j != first && !taken[j])
            .filter(|&j| queue[j].rating.abs_diff(anchor.rating) <= reach)
            .collect();
        near.sort_by_key(|&j| (queue[j].rating.abs_diff(anchor.rating), queue[j].since));
        let mut group = vec![first];
        for j in near {
            let again = queue[j].account.is_some()
                && group.iter().any(|&g| queue[g].account == queue[j].account);
            if group.len() < seats && !again {
                group.push(j);
            }
        }
        let waited_out = now >= anchor.since + anchor.wait;
        if group.len() < seats && !waited_out {
            continue;
        }
        for &i in &group {
            taken[i] = true;
        }
        formed.push(group);
    }
    formed
}

/// The seats a matched group's players take, the highest rated first:
/// in partnership 0 and 1 face each other, then 3 partners 1 and 2
/// partners 0, so four players split strongest-and-weakest against the
/// middle two.
pub(super) fn seats_for(mode: Mode) -> Vec<Seat> {
    match mode {
        Mode::Partnership => [0, 1, 3, 2].into_iter().map(Seat::new).collect(),
        _ => mode.each_seat().filter(|&s| mode.is_player(s)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn waiting(start: Instant, rating: i32, arrived: u64, wait: u64) -> Waiting {
        Waiting {
            rating,
            since: start + SECOND * u32::try_from(arrived).unwrap(),
            wait: SECOND * u32::try_from(wait).unwrap(),
            account: None,
        }
    }

    /// One account queued from three connections, with one other player:
    /// never two of its seats at one table, even once bots fill the rest.
    #[test]
    fn one_account_waiting_twice_takes_one_seat() {
        let start = Instant::now();
        let ann = |arrived| Waiting {
            account: Some(AccountId(1)),
            ..waiting(start, 1500, arrived, 10)
        };
        let bob = Waiting {
            account: Some(AccountId(2)),
            ..waiting(start, 1500, 3, 10)
        };
        let queue = [ann(0), ann(1), ann(2), bob];
        assert!(groups(&queue, 3, start + SECOND * 4).is_empty());
        let late = groups(&queue, 3, start + SECOND * 60);
        assert!(!late.is_empty());
        for group in late {
            let anns = group.iter().filter(|&&i| i < 3).count();
            assert_eq!(anns, 1, "{group:?}");
        }
    }

    #[test]
    fn similar_ratings_are_matched_first() {
        let start = Instant::now();
        let queue = [
            waiting(start, 1500, 0, 60),
            waiting(start, 1900, 1, 60),
            waiting(start, 1520, 2, 60),
            waiting(start, 1480, 3, 60),
            waiting(start, 1560, 4, 60),
            waiting(start, 1910, 5, 60),
        ];
        let formed = groups(&queue, 4, start + SECOND * 5);
        assert_eq!(formed, vec![vec![0, 2, 3, 4]]);
        // Three seats: the nearest two join the first player.
        let formed = groups(&queue, 3, start + SECOND * 5);
        assert_eq!(formed, vec![vec![0, 2, 3]]);
    }

    #[test]
    fn a_wide_gap_waits_until_the_window_widens() {
        let start = Instant::now();
        let queue = [waiting(start, 1500, 0, 300), waiting(start, 1800, 0, 300)];
        // Two seats a table, long waits: only the ratings decide.
        assert!(groups(&queue, 2, start + SECOND * 10).is_empty());
        // 300 points apart: within 100 + 5 a second after 40 seconds.
        assert!(window(SECOND * 39) < 300);
        assert!(groups(&queue, 2, start + SECOND * 39).is_empty());
        assert_eq!(groups(&queue, 2, start + SECOND * 40), vec![vec![0, 1]]);
    }

    #[test]
    fn bots_fill_only_after_the_first_players_wait() {
        let start = Instant::now();
        let queue = [waiting(start, 1500, 0, 20), waiting(start, 1550, 3, 200)];
        assert!(groups(&queue, 4, start + SECOND * 19).is_empty());
        // The first player's wait is over: both sit, bots fill two seats.
        assert_eq!(groups(&queue, 4, start + SECOND * 20), vec![vec![0, 1]]);
        // A player too far off is not taken along, and waits on alone.
        let apart = [waiting(start, 1500, 0, 20), waiting(start, 2100, 3, 200)];
        assert_eq!(groups(&apart, 4, start + SECOND * 20), vec![vec![0]]);
    }

    #[test]
    fn a_full_table_forms_among_later_players_while_an_outlier_waits() {
        let start = Instant::now();
        let queue = [
            waiting(start, 2400, 0, 100),
            waiting(start, 1500, 1, 100),
            waiting(start, 1510, 2, 100),
            waiting(start, 1490, 3, 100),
        ];
        assert_eq!(groups(&queue, 3, start + SECOND * 4), vec![vec![1, 2, 3]]);
    }

    #[test]
    fn partners_face_each_other_first() {
        let seats = seats_for(Mode::Partnership);
        assert_ne!(
            Mode::Partnership.side_of(seats[0]),
            Mode::Partnership.side_of(seats[1])
        );
        assert_eq!(
            Mode::Partnership.side_of(seats[0]),
            Mode::Partnership.side_of(seats[3])
        );
        assert_eq!(seats_for(Mode::Cutthroat).len(), 3);
    }
}
