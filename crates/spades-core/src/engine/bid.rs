//! Bids: a number of tricks, nil, blind nil, or a blind number of tricks.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a seat says in the auction: the tricks it means to take, or nil.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bid {
    /// Take at least this many tricks (1 to the hand size).
    Tricks(u8),
    /// Take no trick.
    Nil,
    /// Take no trick, chosen before looking at the cards.
    BlindNil,
    /// Take at least this many tricks, chosen before looking at the cards
    /// (`[blind_bid]`; the contract is scored double).
    Blind(u8),
}

impl Bid {
    /// Is it a nil, seen or blind (a bid to take no trick)?
    pub const fn is_nil(self) -> bool {
        matches!(self, Bid::Nil | Bid::BlindNil)
    }

    /// Is it a number of tricks (seen or blind), adding to a contract?
    pub const fn is_numeric(self) -> bool {
        matches!(self, Bid::Tricks(_) | Bid::Blind(_))
    }

    /// Was it chosen before looking at the cards?
    pub const fn is_blind(self) -> bool {
        matches!(self, Bid::BlindNil | Bid::Blind(_))
    }

    /// What the bid adds to its side's contract (nil adds nothing).
    pub const fn tricks(self) -> u8 {
        match self {
            Bid::Tricks(n) | Bid::Blind(n) => n,
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
            Bid::Blind(n) => write!(f, "blind {n}"),
        }
    }
}

/// In records a bid is a JSON integer, `"nil"`, `"blind_nil"` or, for a
/// blind numeric bid, `"blind_6"` (`"blind_"` and the number).
impl Serialize for Bid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Bid::Tricks(n) => s.serialize_u8(*n),
            Bid::Nil => s.serialize_str("nil"),
            Bid::BlindNil => s.serialize_str("blind_nil"),
            Bid::Blind(n) => s.serialize_str(&format!("blind_{n}")),
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
            Raw::Word(w) => match w.strip_prefix("blind_").map(str::parse::<u8>) {
                Some(Ok(n)) if n > 0 => Ok(Bid::Blind(n)),
                _ => Err(serde::de::Error::custom(format!(
                    "`{w}` is not a bid: use a number, \"nil\", \"blind_nil\" or \"blind_6\" style"
                ))),
            },
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
            (Bid::Blind(6), "\"blind_6\""),
            (Bid::Blind(13), "\"blind_13\""),
        ] {
            assert_eq!(serde_json::to_string(&bid).unwrap(), json);
            assert_eq!(serde_json::from_str::<Bid>(json).unwrap(), bid);
        }
        assert!(serde_json::from_str::<Bid>("0").is_err());
        assert!(serde_json::from_str::<Bid>("\"pass\"").is_err());
        for bad in ["blind_0", "blind_", "blind_x", "blind_-1", "blind_300"] {
            assert!(
                serde_json::from_str::<Bid>(&format!("\"{bad}\"")).is_err(),
                "{bad}"
            );
        }
    }
}
