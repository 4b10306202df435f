//! Mistakes per game and accuracy over time, read from the analyses kept
//! beside the records (`spades analyze`, or `a` in a review screen): the
//! search never runs here, so a game nobody analysed is simply not in it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::analysis::cache;
use crate::analysis::{Class, GameReview};
use crate::history::PlayedGame;

/// How many of the newest analysed games the accuracy line shows.
const SHOWN: usize = 10;

/// One analysed game of the player's, from its kept review.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reviewed {
    pub id: String,
    pub started: Option<u64>,
    /// The player's decisions judged.
    pub decisions: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// 0 to 100 (docs/analysis.md).
    pub accuracy: Option<f64>,
}

/// The player's analysed games, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Analyses {
    pub games: Vec<Reviewed>,
    /// Mistakes and blunders per analysed game.
    pub mistakes_per_game: Option<f64>,
    /// The analysed games' accuracy, averaged.
    pub accuracy: Option<f64>,
}

impl Analyses {
    /// The analyses kept for `games` (oldest first), for the player's own
    /// seat and the record as it is now; of several (other budgets or
    /// seeds) the one with the most guessed deals.
    pub fn of(games: &[PlayedGame]) -> Analyses {
        let mut texts: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
        let mut in_file: BTreeMap<PathBuf, u32> = BTreeMap::new();
        let mut reviewed = Vec::new();
        for game in games {
            // Games of one file are numbered as `--game` numbers them.
            let number = in_file.entry(game.file.clone()).or_insert(0);
            *number += 1;
            let text = texts
                .entry(game.file.clone())
                .or_insert_with(|| std::fs::read_to_string(&game.file).ok());
            let Some(text) = text else { continue };
            let kept = cache::current(&game.file, text)
                .into_iter()
                .filter(|e| e.key.game == *number && e.key.seat == game.seat)
                .max_by_key(|e| e.key.deals);
            if let Some(entry) = kept {
                reviewed.push(Reviewed::of(game, &entry.review));
            }
        }
        let n = reviewed.len() as f64;
        let accuracies: Vec<f64> = reviewed.iter().filter_map(|r| r.accuracy).collect();
        Analyses {
            mistakes_per_game: (n > 0.0).then(|| {
                reviewed
                    .iter()
                    .map(|r| (r.mistakes + r.blunders) as f64)
                    .sum::<f64>()
                    / n
            }),
            accuracy: (!accuracies.is_empty())
                .then(|| accuracies.iter().sum::<f64>() / accuracies.len() as f64),
            games: reviewed,
        }
    }
}

impl Reviewed {
    fn of(game: &PlayedGame, review: &GameReview) -> Reviewed {
        let counts = review.counts();
        let count = |c| counts.get(&c).copied().unwrap_or(0);
        Reviewed {
            id: game.id.clone(),
            started: game.info.started,
            decisions: review.decisions.len(),
            inaccuracies: count(Class::Inaccuracy),
            mistakes: count(Class::Mistake),
            blunders: count(Class::Blunder),
            accuracy: review.accuracy(),
        }
    }
}

/// The lines `spades stats` shows: none until a game has been analysed.
pub fn render(a: &Analyses) -> Vec<String> {
    let (Some(per_game), Some(accuracy)) = (a.mistakes_per_game, a.accuracy) else {
        return Vec::new();
    };
    let n = a.games.len();
    let newest: Vec<String> = a.games[n.saturating_sub(SHOWN)..]
        .iter()
        .map(|r| r.accuracy.map_or("-".into(), |x| format!("{x:.0}")))
        .collect();
    vec![
        format!(
            "Analysed  {n} game{} (spades analyze): {per_game:.1} mistakes a game, accuracy {accuracy:.1}",
            if n == 1 { "" } else { "s" }
        ),
        format!(
            "          accuracy over time, oldest first: {}",
            newest.join(" ")
        ),
    ]
}
