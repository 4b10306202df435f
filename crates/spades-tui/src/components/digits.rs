//! Numbers typed a digit at a time, for a bid: `1` then `3` within a
//! second is 13 when 13 can be bid.

use std::time::{Duration, Instant};

/// How long typed digits make one number.
const PAUSE: Duration = Duration::from_secs(1);

/// The digits typed so far toward a number, and when the last came.
#[derive(Debug, Default)]
pub struct Digits {
    typed: String,
    at: Option<Instant>,
}

impl Digits {
    /// A key other than a digit ends the number.
    pub fn clear(&mut self) {
        self.typed.clear();
    }

    /// A digit typed at `now` toward a number up to `max`: "1" then "2"
    /// within the pause is 12 when 12 fits; after a pause a digit starts
    /// anew. `None` for a lone 0.
    pub fn push(&mut self, d: char, max: usize, now: Instant) -> Option<u8> {
        if self.at.is_some_and(|at| now >= at + PAUSE) {
            self.typed.clear();
        }
        self.at = Some(now);
        let mut typed = format!("{}{d}", self.typed);
        if typed.parse::<usize>().map_or(true, |n| n > max) {
            typed = d.to_string();
        }
        let n = typed.parse::<u8>().ok()?;
        if n == 0 {
            self.typed.clear();
            return None;
        }
        self.typed = typed;
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_within_the_pause_make_one_number_that_fits() {
        let now = Instant::now();
        let mut digits = Digits::default();
        assert_eq!(digits.push('1', 13, now), Some(1));
        assert_eq!(digits.push('2', 13, now), Some(12));
        assert_eq!(digits.push('4', 13, now), Some(4), "124 does not fit");
        assert_eq!(digits.push('1', 13, now + PAUSE), Some(1), "after a pause");
        digits.clear();
        assert_eq!(digits.push('0', 13, now + PAUSE), None, "a lone 0");
    }
}
