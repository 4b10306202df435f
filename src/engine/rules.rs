//! The house rules: the keys of `rules.toml`, their defaults and their limits.

use serde::{Deserialize, Serialize};

use super::seat::Mode;

/// The effective rules of a game. Field names and nesting are the contract of
/// `rules.toml` (and of the `rules` object in the game record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    pub mode: Mode,
    pub target_score: i32,
    pub losing_score: Option<i32>,
    pub bags: BagRules,
    pub nil: NilRules,
    pub blind_nil: BlindNilRules,
    pub bidding: BiddingRules,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BagRules {
    pub limit: i32,
    pub penalty: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NilRules {
    pub allowed: bool,
    pub value: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BlindNilRules {
    pub allowed: bool,
    pub value: i32,
    pub min_deficit: i32,
    pub one_per_side: bool,
    pub exchange: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct BiddingRules {
    pub forbid_exact_total: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            mode: Mode::Partnership,
            target_score: 500,
            losing_score: None,
            bags: BagRules::default(),
            nil: NilRules::default(),
            blind_nil: BlindNilRules::default(),
            bidding: BiddingRules::default(),
        }
    }
}

impl Default for BagRules {
    fn default() -> BagRules {
        BagRules {
            limit: 10,
            penalty: 100,
        }
    }
}

impl Default for NilRules {
    fn default() -> NilRules {
        NilRules {
            allowed: true,
            value: 100,
        }
    }
}

impl Default for BlindNilRules {
    fn default() -> BlindNilRules {
        BlindNilRules {
            allowed: true,
            value: 200,
            min_deficit: 100,
            one_per_side: true,
            exchange: 2,
        }
    }
}

/// A value outside what the game can be played with, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{key}` {problem}")]
pub struct InvalidRule {
    /// Dotted key as written in rules.toml, e.g. `bags.limit`.
    pub key: &'static str,
    pub problem: String,
}

impl Rules {
    /// The classic game for a mode.
    pub fn classic(mode: Mode) -> Rules {
        Rules {
            mode,
            ..Rules::default()
        }
    }

    /// Checks every value a game needs to make sense.
    pub fn validate(&self) -> Result<(), InvalidRule> {
        let bad = |key, problem: String| Err(InvalidRule { key, problem });
        if self.target_score <= 0 {
            return bad(
                "target_score",
                format!("must be more than 0, got {}", self.target_score),
            );
        }
        if let Some(losing) = self.losing_score
            && losing >= self.target_score
        {
            return bad(
                "losing_score",
                format!(
                    "must be below target_score ({}), got {losing}",
                    self.target_score
                ),
            );
        }
        if self.bags.limit < 1 {
            return bad(
                "bags.limit",
                format!("must be at least 1, got {}", self.bags.limit),
            );
        }
        if self.bags.penalty < 0 {
            return bad(
                "bags.penalty",
                format!(
                    "must be 0 or more (it is taken off the score), got {}",
                    self.bags.penalty
                ),
            );
        }
        if self.nil.value < 0 {
            return bad(
                "nil.value",
                format!("must be 0 or more, got {}", self.nil.value),
            );
        }
        if self.blind_nil.value < 0 {
            return bad(
                "blind_nil.value",
                format!("must be 0 or more, got {}", self.blind_nil.value),
            );
        }
        if self.blind_nil.min_deficit < 0 {
            return bad(
                "blind_nil.min_deficit",
                format!("must be 0 or more, got {}", self.blind_nil.min_deficit),
            );
        }
        if self.blind_nil.exchange > 13 {
            return bad(
                "blind_nil.exchange",
                format!(
                    "must be between 0 and 13 (a hand has 13 cards), got {}",
                    self.blind_nil.exchange
                ),
            );
        }
        Ok(())
    }

    /// Cards swapped each way after a blind nil (the exchange is a partnership rule).
    pub fn exchange_size(&self) -> u8 {
        if self.mode.has_partners() {
            self.blind_nil.exchange
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_classic_game() {
        let r = Rules::default();
        assert_eq!(r.target_score, 500);
        assert_eq!((r.bags.limit, r.bags.penalty), (10, 100));
        assert_eq!((r.nil.allowed, r.nil.value), (true, 100));
        assert_eq!(r.blind_nil.value, 200);
        assert_eq!(r.blind_nil.min_deficit, 100);
        assert!(r.blind_nil.one_per_side);
        assert_eq!(r.blind_nil.exchange, 2);
        assert!(!r.bidding.forbid_exact_total);
        assert!(r.validate().is_ok());
    }

    #[test]
    fn out_of_range_values_name_their_key() {
        let mut r = Rules::default();
        r.bags.limit = 0;
        assert_eq!(r.validate().unwrap_err().key, "bags.limit");
        let r = Rules {
            losing_score: Some(500),
            ..Rules::default()
        };
        assert_eq!(r.validate().unwrap_err().key, "losing_score");
        let mut r = Rules::default();
        r.blind_nil.exchange = 14;
        assert_eq!(r.validate().unwrap_err().key, "blind_nil.exchange");
        let r = Rules {
            target_score: 0,
            ..Rules::default()
        };
        assert_eq!(r.validate().unwrap_err().key, "target_score");
    }
}
