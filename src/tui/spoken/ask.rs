//! The questions a player may ask at any time, each on a single key and
//! answered in one line: whose turn, the hand, the cards that may be
//! played, the trick, the bids, the score, the last trick, the cards gone
//! in a suit, the rules. (`h`, the hint, and `?`, the keys, are answered
//! by the table's loop: the hint is worked out on a thread of its own.)

use crate::engine::Suit;

use super::super::App;
use super::Speech;

/// A question on a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// `w`: whose turn it is, and what for.
    Turn,
    /// `m`: my hand, by suit.
    Hand,
    /// `o`: the cards I may play now (or the bids I may make).
    Options,
    /// `t`: the trick on the table.
    Trick,
    /// `b`: every seat's bid and tricks taken.
    Bids,
    /// `s`: the score, bags and the target.
    Score,
    /// `l`: the last trick.
    LastTrick,
    /// `g`: the cards gone so far, by suit; `g h` (or `gh`) in one suit.
    Gone(Option<Suit>),
    /// `r`: the rules in force.
    Rules,
}

impl Query {
    /// Every question with its key and what it asks, for `?`.
    pub const KEYS: [(&'static str, &'static str); 9] = [
        ("w", "whose turn"),
        ("m", "my hand"),
        ("o", "what I may play or bid"),
        ("t", "the trick"),
        ("b", "bids and tricks"),
        ("s", "score, bags and target"),
        ("l", "the last trick"),
        ("g", "cards gone, g h for hearts"),
        ("r", "the rules"),
    ];

    /// The question a typed line asks, if it is one: a key alone, or `g`
    /// with a suit's letter.
    pub fn from_line(line: &str) -> Option<Query> {
        let line = line.trim().to_ascii_lowercase();
        let compact: String = line.split_whitespace().collect();
        Some(match compact.as_str() {
            "w" => Query::Turn,
            "m" => Query::Hand,
            "o" => Query::Options,
            "t" => Query::Trick,
            "b" => Query::Bids,
            "s" => Query::Score,
            "l" => Query::LastTrick,
            "r" => Query::Rules,
            "g" => Query::Gone(None),
            "gs" => Query::Gone(Some(Suit::Spades)),
            "gh" => Query::Gone(Some(Suit::Hearts)),
            "gd" => Query::Gone(Some(Suit::Diamonds)),
            "gc" => Query::Gone(Some(Suit::Clubs)),
            _ => return None,
        })
    }
}

/// The one-line answer to `query` at the table as `app` shows it.
pub fn answer(query: Query, app: &App, speech: &Speech) -> String {
    // PLACEHOLDER (issue 39 part "ask" replaces this): never lands as is.
    let _ = (app, speech);
    format!("{query:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_listed_is_a_question_and_words_are_not() {
        for (key, _) in Query::KEYS {
            assert!(Query::from_line(key).is_some(), "{key}");
        }
        assert_eq!(
            Query::from_line(" g H "),
            Some(Query::Gone(Some(Suit::Hearts)))
        );
        for word in [
            "bid 4", "nil", "look", "play qh", "hint", "quit", "h", "?", "",
        ] {
            assert_eq!(Query::from_line(word), None, "{word}");
        }
    }
}
