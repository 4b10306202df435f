//! The player's rating: Glicko-2 (Glickman's system, as the `skillratings`
//! crate computes it), worked out afresh from the history each time, game by
//! game in the order the games started. Each game is one rating period; the
//! computer players of each level are opponents of a fixed rating, measured
//! by playing the levels against one another (`LEVEL_RATINGS`).
//!
//! A new player starts where Glicko-2 starts everyone: 1500 with a
//! deviation of 350, which says the rating does not yet reflect the
//! player's skill; it narrows as games are played. Time away does not widen
//! it again.
//!
//! What a game counts as:
//!
//! - partnership: one result against the level, the side's win or loss
//!   (the player's partner is a bot of that level too, as it was when the
//!   level's rating was measured);
//! - cutthroat and individual: one result against each opponent, by final
//!   score: a win above them, a loss below, a draw level with them;
//! - a game left before it was decided: a loss against every opponent, so
//!   leaving a game that is going badly does not save a rating. A game left
//!   before its first hand was over is not rated (nothing was played);
//! - not rated: practice games, games with no closing line (the program was
//!   killed, or the game is still going on), and games against a level this
//!   version has no rating for.

use std::path::Path;

use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use crate::engine::Mode;
use crate::history::{History, Outcome, PlayedGame};

/// Easy's rating in every mode, and where a new player starts: Glicko-2's
/// default. A newcomer is taken to play about as well as the level that
/// counts plain tricks and slips now and then.
pub const ANCHOR: f64 = 1500.0;

/// Each level's fixed rating and deviation, per mode.
///
/// Measured by `tests/rating_calibration.rs` (release build, two threads,
/// 2,000 deals per pair of levels from seed 1, every deal played with the
/// measured bot in each seat): a bot of level X where the player sits and
/// level L in every other seat, counted as the rating counts a player's
/// games (partnership: the wins of X's side, X with an L partner;
/// cutthroat and individual: X against each L by final score). Each score
/// p is a gap of 400 log10(p / (1 - p)); a weighted least-squares fit of
/// the six gaps of a mode, with easy held at `ANCHOR`, gives these. A clean
/// sweep (easy or normal never losing to random) says no gap and is left
/// out.
///
/// The levels do not lie on one line, least of all in partnership: easy
/// with a normal partner against two normals scores 39% (a gap of 76),
/// while normal with an easy partner against two easys scores 86% (313),
/// because the partner covers for the player. So one number per level is a
/// compromise, and its deviation is the fit's standard error widened by the
/// misfit: a rating earned against one level may read that much
/// differently against another.
///
/// | mode        | random     | easy | normal     |
/// | ----------- | ---------- | ---- | ---------- |
/// | partnership |  980 ± 137 | 1500 | 1641 ± 66  |
/// | cutthroat   |  424 ± 110 | 1500 | 2055 ± 22  |
/// | individual  |  483 ± 183 | 1500 | 1585 ± 16  |
pub const LEVEL_RATINGS: [(Mode, &str, f64, f64); 9] = [
    (Mode::Partnership, "random", 980.0, 137.0),
    (Mode::Partnership, "easy", ANCHOR, 0.0),
    (Mode::Partnership, "normal", 1641.0, 66.0),
    (Mode::Cutthroat, "random", 424.0, 110.0),
    (Mode::Cutthroat, "easy", ANCHOR, 0.0),
    (Mode::Cutthroat, "normal", 2055.0, 22.0),
    (Mode::Individual, "random", 483.0, 183.0),
    (Mode::Individual, "easy", ANCHOR, 0.0),
    (Mode::Individual, "normal", 1585.0, 16.0),
];

/// The fixed rating of the computer players of `level` in `mode`.
pub fn level_rating(mode: Mode, level: &str) -> Option<Glicko2Rating> {
    LEVEL_RATINGS
        .iter()
        .find(|&&(m, name, ..)| m == mode && name == level)
        .map(|&(_, _, rating, deviation)| Glicko2Rating {
            rating,
            deviation,
            ..Glicko2Rating::new()
        })
}

/// A Glicko-2 rating: the estimate, its deviation (about two in three
/// players of that rating lie within one deviation of it) and volatility.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Where every new player starts.
    pub fn new_player() -> Rating {
        Glicko2Rating::new().into()
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// What one rated game did to the rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingChange {
    /// The game's id.
    pub game: String,
    pub before: Rating,
    pub after: Rating,
}

impl RatingChange {
    /// Points gained (or lost, below zero).
    pub fn change(&self) -> f64 {
        self.after.rating - self.before.rating
    }
}

/// The rating after every rated game, and what each game did to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    pub rating: Rating,
    /// One per rated game, oldest first.
    pub changes: Vec<RatingChange>,
}

impl Ledger {
    /// Rates `games`, oldest first.
    pub fn of(games: &[PlayedGame]) -> Ledger {
        let config = Glicko2Config::new();
        let mut ledger = Ledger {
            rating: Rating::new_player(),
            changes: Vec::new(),
        };
        for game in games {
            let Some(results) = results(game) else {
                continue;
            };
            let before = ledger.rating;
            let after = glicko2_rating_period(&before.into(), &results, &config).into();
            ledger.rating = after;
            ledger.changes.push(RatingChange {
                game: game.id.clone(),
                before,
                after,
            });
        }
        ledger
    }

    pub fn last(&self) -> Option<&RatingChange> {
        self.changes.last()
    }
}

/// The game's results against its opponents, or `None` when it is not
/// rated (see the module's comment).
pub fn results(game: &PlayedGame) -> Option<Vec<(Glicko2Rating, Outcomes)>> {
    if game.info.practice {
        return None;
    }
    let level = level_rating(game.mode, game.info.difficulty.as_deref()?)?;
    let mine = game.side();
    let against_each = |outcome: &dyn Fn(i32) -> Outcomes| {
        let others = game.mode.each_side().filter(|&s| s != mine);
        others
            .map(|s| (level, outcome(game.scores[s.index()])))
            .collect::<Vec<_>>()
    };
    let mine_score = *game.scores.get(mine.index())?;
    let by_score = |theirs: i32| match mine_score.cmp(&theirs) {
        std::cmp::Ordering::Greater => Outcomes::WIN,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
        std::cmp::Ordering::Less => Outcomes::LOSS,
    };
    match game.outcome {
        Outcome::Unfinished => None,
        Outcome::Left if game.results.is_empty() => None,
        Outcome::Left => Some(against_each(&|_| Outcomes::LOSS)),
        Outcome::Won | Outcome::Lost if game.mode.has_partners() => {
            let won = game.outcome == Outcome::Won;
            Some(vec![(
                level,
                if won { Outcomes::WIN } else { Outcomes::LOSS },
            )])
        }
        Outcome::Won | Outcome::Lost => Some(against_each(&by_score)),
    }
}

/// The rating change the game `id` made, read from the records in `dir`:
/// for the table to show after a game. `None` when the game was not rated
/// (practice, left before a hand was over, ...) or cannot be found.
pub fn after_game(dir: &Path, id: &str) -> Option<RatingChange> {
    let history = History::read(dir).ok()?;
    Ledger::of(&history.games)
        .changes
        .into_iter()
        .find(|c| c.game == id)
}

/// The rating as `spades stats --json` gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary<'a> {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub rated_games: usize,
    /// What the last rated game did.
    pub last: Option<&'a RatingChange>,
}

impl<'a> From<&'a Ledger> for Summary<'a> {
    fn from(l: &'a Ledger) -> Summary<'a> {
        Summary {
            rating: l.rating.rating,
            deviation: l.rating.deviation,
            volatility: l.rating.volatility,
            rated_games: l.changes.len(),
            last: l.last(),
        }
    }
}

/// A change in points with its sign: `+41`, `-12`, `0`.
pub fn signed(change: f64) -> String {
    let n = change.round() as i64;
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The rating as `spades stats` prints it.
pub fn render(ledger: &Ledger) -> String {
    let r = &ledger.rating;
    let now = format!("Rating    {:.0} ± {:.0}", r.rating, r.deviation);
    match ledger.last() {
        None => format!(
            "{now}: no rated game yet (a new player's rating says little until some games are played)\n"
        ),
        Some(last) => {
            let n = ledger.changes.len();
            format!(
                "{now} after {n} rated game{}; {} in the last ({})\n",
                if n == 1 { "" } else { "s" },
                signed(last.change()),
                last.game
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use crate::engine::Seat;
    use crate::record::GameInfo;

    fn game(mode: Mode, outcome: Outcome, scores: Vec<i32>, hands: usize) -> PlayedGame {
        let result = crate::engine::HandResult {
            hand: 1,
            dealer: Seat::new(0),
            bids: crate::engine::PerSeat::filled(mode, crate::engine::Bid::Tricks(3)),
            tricks: crate::engine::PerSeat::filled(mode, 3),
            sides: crate::engine::PerSide::from_fn(mode, |_| crate::engine::SideScore {
                nils: [None; 2],
                contract: None,
                bags_added: 0,
                penalties: 0,
                penalty: 0,
                points: 0,
                score: 0,
                bags: 0,
            }),
        };
        PlayedGame {
            id: format!("g{}", scores[0]),
            file: PathBuf::from("g.jsonl"),
            mode,
            info: GameInfo {
                difficulty: Some("normal".into()),
                ..GameInfo::default()
            },
            seat: Seat::new(0),
            outcome,
            scores,
            results: vec![result; hands],
        }
    }

    fn outcomes(game: &PlayedGame) -> Option<Vec<Outcomes>> {
        results(game).map(|r| r.into_iter().map(|(_, o)| o).collect())
    }

    #[test]
    fn every_level_of_every_mode_has_a_rating_in_order() {
        for mode in Mode::ALL {
            let ratings: Vec<f64> = crate::bots::LEVELS
                .iter()
                .map(|l| level_rating(mode, l).expect("rated").rating)
                .collect();
            assert!(
                ratings.windows(2).all(|w| w[0] < w[1]),
                "{mode}: {ratings:?}"
            );
            assert_eq!(level_rating(mode, "easy").unwrap().rating, ANCHOR);
        }
        assert!(level_rating(Mode::Partnership, "grandmaster").is_none());
    }

    #[test]
    fn a_game_counts_once_in_partnership_and_against_each_opponent_otherwise() {
        use Outcomes::{DRAW, LOSS, WIN};
        let p = |o, hands| outcomes(&game(Mode::Partnership, o, vec![300, 510], hands));
        assert_eq!(p(Outcome::Lost, 9), Some(vec![LOSS]));
        assert_eq!(p(Outcome::Won, 9), Some(vec![WIN]));
        assert_eq!(p(Outcome::Left, 3), Some(vec![LOSS]));
        assert_eq!(p(Outcome::Left, 0), None);
        assert_eq!(p(Outcome::Unfinished, 5), None);
        // Second of three: above one opponent, below the winner.
        let second = game(Mode::Cutthroat, Outcome::Lost, vec![300, 510, 120], 9);
        assert_eq!(outcomes(&second), Some(vec![LOSS, WIN]));
        let level = game(Mode::Individual, Outcome::Lost, vec![300, 510, 300, 90], 9);
        assert_eq!(outcomes(&level), Some(vec![LOSS, DRAW, WIN]));
        let left = game(Mode::Individual, Outcome::Left, vec![300, 10, 20, 30], 2);
        assert_eq!(outcomes(&left), Some(vec![LOSS, LOSS, LOSS]));
        let mut practice = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        practice.info.practice = true;
        assert_eq!(outcomes(&practice), None);
        let mut unknown = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        unknown.info.difficulty = Some("grandmaster".into());
        assert_eq!(outcomes(&unknown), None);
    }

    #[test]
    fn a_new_player_moves_far_and_grows_surer_game_by_game() {
        let win = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        let loss = game(Mode::Partnership, Outcome::Lost, vec![300, 510], 9);
        let ledger = Ledger::of(std::slice::from_ref(&win));
        let first = ledger.last().unwrap();
        assert_eq!(first.before, Rating::new_player());
        // Beating a level rated far above gains a lot at first.
        assert!(first.change() > 100.0, "{first:?}");
        assert!(first.after.deviation < first.before.deviation);
        // The same result the other way round loses less than it gained:
        // losing to a stronger level was expected.
        let ledger = Ledger::of(&[win.clone(), loss.clone()]);
        assert!(ledger.last().unwrap().change() < 0.0);
        assert!(-ledger.last().unwrap().change() < first.change());
        let many: Vec<PlayedGame> = (0..20).map(|_| loss.clone()).collect();
        let after = Ledger::of(&many);
        let d: Vec<f64> = after.changes.iter().map(|c| c.after.deviation).collect();
        assert!(d.windows(2).all(|w| w[1] < w[0]), "{d:?}");
        // Unrated games leave the rating where it was.
        let mut practice = win.clone();
        practice.info.practice = true;
        assert_eq!(Ledger::of(&[practice]).rating, Rating::new_player());
    }

    #[test]
    fn the_rating_reads_with_its_deviation_and_last_change() {
        assert_eq!(signed(41.4), "+41");
        assert_eq!(signed(-12.6), "-13");
        assert_eq!(signed(0.2), "0");
        let none = render(&Ledger::of(&[]));
        assert!(
            none.starts_with("Rating    1500 ± 350: no rated game yet"),
            "{none}"
        );
    }
}
