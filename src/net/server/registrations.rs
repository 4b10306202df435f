//! How many accounts the server registers: per address in an hour, and
//! for the whole server in an hour and in a day. The per-address limit
//! alone lets whoever has many addresses make accounts without end; the
//! server-wide ones bound what any number of addresses can make.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::flood::forget_before;

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
pub enum Full {
    Address(usize),
    ServerHour(usize),
    ServerDay(usize),
}

impl Full {
    pub fn message(self) -> String {
        match self {
            Full::Address(most) => {
                format!("at most {most} accounts an hour are registered from one address")
            }
            Full::ServerHour(most) => format!(
                "this server registers at most {most} accounts an hour in all: try again later"
            ),
            Full::ServerDay(most) => format!(
                "this server registers at most {most} accounts a day in all: try again tomorrow"
            ),
        }
    }
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
        let from_address = self.by_address.get(&address).map_or(0, Vec::len);
        let in_hour = self
            .all
            .iter()
            .filter(|&&t| now.duration_since(t) < HOUR)
            .count();
        if from_address >= limits.per_address_hour {
            Some(Full::Address(limits.per_address_hour))
        } else if self.all.len() >= limits.all_day {
            Some(Full::ServerDay(limits.all_day))
        } else if in_hour >= limits.all_hour {
            Some(Full::ServerHour(limits.all_hour))
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

    #[test]
    fn each_limit_refuses_in_its_window_and_forgets_after() {
        let mut made = Registrations::default();
        let start = Instant::now();
        let at = |minutes: u64| start + Duration::from_secs(minutes * 60);
        made.count(from(1), at(0));
        made.count(from(1), at(1));
        assert_eq!(made.full(&LIMITS, from(1), at(2)), Some(Full::Address(2)));
        made.count(from(2), at(2));
        // Three in the hour from two addresses: the server's hour is full.
        assert_eq!(
            made.full(&LIMITS, from(3), at(3)),
            Some(Full::ServerHour(3))
        );
        assert_eq!(made.full(&LIMITS, from(1), at(61)), None, "an hour on");
        made.count(from(3), at(61));
        made.count(from(4), at(62));
        // Five in the day, two of them in this hour.
        assert_eq!(
            made.full(&LIMITS, from(5), at(63)),
            Some(Full::ServerDay(5))
        );
        assert_eq!(
            made.full(&LIMITS, from(5), at(24 * 60 + 2)),
            None,
            "a day on"
        );
        assert!(Full::ServerDay(5).message().contains("5 accounts a day"));
    }
}
