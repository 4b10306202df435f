//! Bids: a number of tricks, nil, or blind nil.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bid {
    /// Take at least this many tricks (1 to the hand size).
    Tricks(u8),
    /// Take no trick.
    Nil,
    /// Take no trick, chosen before looking at the cards.
    BlindNil,
}

impl Bid {
    pub const fn is_nil(self) -> bool {
        matches!(self, Bid::Nil | Bid::BlindNil)
    }

    /// What the bid adds to its side's contract (nil adds nothing).
    pub const fn tricks(self) -> u8 {
        match self {
            Bid::Tricks(n) => n,
            _ => 0,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Tricks(n) => write!(f, "{n}"),
            Bid::Nil => f.write_str("nil"),
            Bid::BlindNil => f.write_str("blind nil"),
        }
    }
}

/// In records a bid is a JSON integer, `"nil"` or `"blind_nil"`.
impl Serialize for Bid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Bid::Tricks(n) => s.serialize_u8(*n),
            Bid::Nil => s.serialize_str("nil"),
            Bid::BlindNil => s.serialize_str("blind_nil"),
        }
    }
}

impl<'de> Deserialize<'de> for Bid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bid, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u8),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(0) => Err(serde::de::Error::custom("a bid of 0 is written \"nil\"")),
            Raw::Number(n) => Ok(Bid::Tricks(n)),
            Raw::Word(w) if w == "nil" => Ok(Bid::Nil),
            Raw::Word(w) if w == "blind_nil" => Ok(Bid::BlindNil),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "`{w}` is not a bid: use a number, \"nil\" or \"blind_nil\""
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_notation_round_trips() {
        for (bid, json) in [
            (Bid::Tricks(4), "4"),
            (Bid::Nil, "\"nil\""),
            (Bid::BlindNil, "\"blind_nil\""),
        ] {
            assert_eq!(serde_json::to_string(&bid).unwrap(), json);
            assert_eq!(serde_json::from_str::<Bid>(json).unwrap(), bid);
        }
        assert!(serde_json::from_str::<Bid>("0").is_err());
        assert!(serde_json::from_str::<Bid>("\"pass\"").is_err());
    }
}
