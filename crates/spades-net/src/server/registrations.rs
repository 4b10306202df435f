//! How many accounts the server registers: per address in an hour, and
//! for the whole server in an hour and in a day. The per-address limit
//! alone lets whoever has many addresses make accounts without end; the
//! server-wide ones bound what any number of addresses can make.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::flood::{forget_before, whole_seconds};

const HOUR: Duration = Duration::from_secs(60 * 60);
const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// The most accounts registered, the operator's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegistrationLimits {
    /// From one address in an hour.
    pub per_address_hour: usize,
    /// For the whole server in an hour.
    pub all_hour: usize,
    /// For the whole server in a day.
    pub all_day: usize,
}

impl Default for RegistrationLimits {
    fn default() -> RegistrationLimits {
        RegistrationLimits {
            per_address_hour: 5,
            all_hour: 60,
            all_day: 500,
        }
    }
}

/// Which limit a registration met, and so what the player is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Address(usize),
    ServerHour(usize),
    ServerDay(usize),
}

/// A registration refused: the limit it met, and how long until that
/// limit's window has room again (its oldest registration counted
/// leaves it), so the player is told when to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full {
    pub limit: Limit,
    pub again_in: Duration,
}

impl Full {
    pub fn message(self) -> String {
        let again = in_words(self.again_in);
        let accounts = |n: usize| format!("{n} account{}", if n == 1 { "" } else { "s" });
        match self.limit {
            Limit::Address(most) => format!(
                "this server registers at most {} an hour from one address: try again in {again}",
                accounts(most)
            ),
            Limit::ServerHour(most) => format!(
                "this server registers at most {} an hour in all: try again in {again}",
                accounts(most)
            ),
            Limit::ServerDay(most) => format!(
                "this server registers at most {} a day in all: try again in {again}",
                accounts(most)
            ),
        }
    }
}

/// A wait as a player reads it, rounded up so that trying again then
/// is never too soon: "40 seconds", "12 minutes", "3 hours".
fn in_words(wait: Duration) -> String {
    let seconds = whole_seconds(wait);
    let (n, unit) = match seconds {
        0..=119 => (seconds, "second"),
        120..=7199 => (seconds.div_ceil(60), "minute"),
        _ => (seconds.div_ceil(3600), "hour"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// When the window of `span` holding `times` (oldest first, all within
/// it) has room for one more under `most`: once the oldest beyond the
/// limit's room has left it.
fn room_in(times: &[Instant], most: usize, span: Duration, now: Instant) -> Duration {
    let over = times.len().saturating_sub(most);
    times.get(over).map_or(Duration::ZERO, |&t| {
        (t + span).saturating_duration_since(now)
    })
}

/// When the latest accounts were registered: each address's within the
/// hour, and the server's within the day (never more than its limit, as
/// no more are let in).
#[derive(Debug, Default)]
pub struct Registrations {
    by_address: HashMap<IpAddr, Vec<Instant>>,
    all: VecDeque<Instant>,
}

impl Registrations {
    /// Which limit, if any, a registration from `address` at `now` meets.
    /// Registrations older than the limits' windows are forgotten.
    pub fn full(
        &mut self,
        limits: &RegistrationLimits,
        address: IpAddr,
        now: Instant,
    ) -> Option<Full> {
        self.by_address.retain(|_, times| {
            times.retain(|&t| now.duration_since(t) < HOUR);
            !times.is_empty()
        });
        forget_before(&mut self.all, now, DAY);
        let from_address = self.by_address.get(&address).map_or(&[][..], Vec::as_slice);
        let all: Vec<Instant> = self.all.iter().copied().collect();
        let in_hour: Vec<Instant> = all
            .iter()
            .copied()
            .filter(|&t| now.duration_since(t) < HOUR)
            .collect();
        let full = |limit, times: &[Instant], most, span| Full {
            limit,
            again_in: room_in(times, most, span, now),
        };
        let (address_most, hour_most, day_most) =
            (limits.per_address_hour, limits.all_hour, limits.all_day);
        if from_address.len() >= address_most {
            Some(full(
                Limit::Address(address_most),
                from_address,
                address_most,
                HOUR,
            ))
        } else if all.len() >= day_most {
            Some(full(Limit::ServerDay(day_most), &all, day_most, DAY))
        } else if in_hour.len() >= hour_most {
            Some(full(
                Limit::ServerHour(hour_most),
                &in_hour,
                hour_most,
                HOUR,
            ))
        } else {
            None
        }
    }

    /// `address` registered an account at `now`.
    pub fn count(&mut self, address: IpAddr, now: Instant) {
        self.by_address.entry(address).or_default().push(now);
        self.all.push_back(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: RegistrationLimits = RegistrationLimits {
        per_address_hour: 2,
        all_hour: 3,
        all_day: 5,
    };

    fn from(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    /// The limit a registration meets at `now`, if any.
    fn met(made: &mut Registrations, address: IpAddr, now: Instant) -> Option<Limit> {
        made.full(&LIMITS, address, now).map(|full| full.limit)
    }

    #[test]
    fn each_limit_refuses_in_its_window_and_forgets_after() {
        let mut made = Registrations::default();
        let start = Instant::now();
        let at = |minutes: u64| start + Duration::from_secs(minutes * 60);
        made.count(from(1), at(0));
        made.count(from(1), at(1));
        assert_eq!(met(&mut made, from(1), at(2)), Some(Limit::Address(2)));
        made.count(from(2), at(2));
        // Three in the hour from two addresses: the server's hour is full.
        assert_eq!(met(&mut made, from(3), at(3)), Some(Limit::ServerHour(3)));
        assert_eq!(met(&mut made, from(1), at(61)), None, "an hour on");
        made.count(from(3), at(61));
        made.count(from(4), at(62));
        // Five in the day, two of them in this hour.
        assert_eq!(met(&mut made, from(5), at(63)), Some(Limit::ServerDay(5)));
        assert_eq!(met(&mut made, from(5), at(24 * 60 + 2)), None, "a day on");
    }

    /// A refusal says when the limit it met has room again: when the
    /// oldest registration it counts leaves its window.
    #[test]
    fn a_refusal_says_when_to_try_again() {
        let mut made = Registrations::default();
        let start = Instant::now();
        let at = |minutes: u64| start + Duration::from_secs(minutes * 60);
        made.count(from(1), at(0));
        made.count(from(1), at(10));
        let full = made.full(&LIMITS, from(1), at(18)).unwrap();
        assert_eq!(full.again_in, Duration::from_secs(42 * 60));
        let said = full.message();
        assert!(said.ends_with("try again in 42 minutes"), "{said}");
        made.count(from(2), at(20));
        let full = made.full(&LIMITS, from(3), at(59)).unwrap();
        assert_eq!(full.limit, Limit::ServerHour(3));
        assert_eq!(full.again_in, Duration::from_secs(60));
        assert!(
            full.message().ends_with("in 60 seconds"),
            "{}",
            full.message()
        );
        made.count(from(4), at(70));
        made.count(from(5), at(80));
        let full = made.full(&LIMITS, from(6), at(90)).unwrap();
        assert_eq!(full.limit, Limit::ServerDay(5));
        assert_eq!(full.again_in, Duration::from_secs(24 * 3600 - 90 * 60));
        assert!(full.message().contains("5 accounts a day"));
        assert!(
            full.message().ends_with("try again in 23 hours"),
            "{}",
            full.message()
        );
        assert_eq!(in_words(Duration::from_millis(1)), "1 second");
        assert_eq!(in_words(Duration::from_secs(121)), "3 minutes");
    }
}
