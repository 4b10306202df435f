//! `spades verify`: proves from a record alone that a game's deals were
//! fixed before the first card and that every bid, card and score followed
//! the rules. See docs/game-record.md for doing the same by hand.

use std::fmt::Write as _;

use crate::engine::{Event, Side};
use crate::record::{DealProof, RecordError, read_games, replay};

/// What checking one game of a record found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The game's place in the file, from 1.
    pub game: usize,
    pub mode: crate::engine::Mode,
    pub hands: usize,
    pub winner: Option<Side>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Replayed through the rules, with every deal proved to come from a
    /// seed fixed at the start.
    Verified(DealProof),
    /// Replayed through the rules, but no seed was revealed: the game was
    /// cut short, so where its deals came from cannot be shown.
    Unproven,
    /// Something in the game does not check, at a line.
    Failed(RecordError),
}

impl Verdict {
    pub fn is_verified(&self) -> bool {
        matches!(self.outcome, Outcome::Verified(_))
    }
}

/// Checks every game of a record's text. An unreadable record is an error;
/// a readable one gives a verdict per game.
pub fn verify(text: &str) -> Result<Vec<Verdict>, RecordError> {
    let games = read_games(text)?;
    Ok(games
        .iter()
        .enumerate()
        .map(|(i, recorded)| {
            let hands = recorded
                .events
                .iter()
                .filter(|(_, e)| matches!(e, Event::Score { .. }))
                .count();
            let (winner, outcome) = match replay(recorded) {
                Ok(replayed) => {
                    let outcome = match replayed.deals {
                        DealProof::Unproven => Outcome::Unproven,
                        proof => Outcome::Verified(proof),
                    };
                    (replayed.game.winner(), outcome)
                }
                Err(e) => (None, Outcome::Failed(e)),
            };
            Verdict {
                game: i + 1,
                mode: recorded.header.mode,
                hands,
                winner,
                outcome,
            }
        })
        .collect())
}

/// The verdicts in words, one paragraph per game.
pub fn describe(file: &str, verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    if verdicts.is_empty() {
        let _ = writeln!(out, "{file}: holds no game");
    }
    for v in verdicts {
        let result = match v.winner {
            Some(side) => format!("won by side {side}"),
            None => "not decided".to_string(),
        };
        let _ = write!(
            out,
            "{file}: game {}, {} spades, {} hand{}, {result}: ",
            v.game,
            v.mode,
            v.hands,
            if v.hands == 1 { "" } else { "s" }
        );
        let _ = match &v.outcome {
            Outcome::Verified(DealProof::Committed { seed, commitment }) => writeln!(
                out,
                "verified\n  the seed {seed} and salt revealed at the end hash to the commitment \
                 {commitment} made at the start,\n  every hand is the deal that seed gives, and \
                 every bid, card, trick and score follows the rules"
            ),
            Outcome::Verified(DealProof::OpenSeed(seed)) => writeln!(
                out,
                "verified\n  dealt from seed {seed}, given openly at the start (the deals were \
                 known), and every bid, card, trick and score follows the rules"
            ),
            Outcome::Verified(DealProof::Unproven) | Outcome::Unproven => writeln!(
                out,
                "NOT verified\n  every bid, card, trick and score follows the rules, but the \
                 game was cut short before its seed was revealed,\n  so where the deals came \
                 from cannot be shown"
            ),
            Outcome::Failed(e) => {
                writeln!(out, "does NOT verify\n  line {}: {}", e.line, e.message)
            }
        };
    }
    out
}
