//! The player's rating: Glicko-2, worked out afresh from the history each
//! time, game by game in the order the games started, by the one path a
//! server's ladder rates its games by too (`period`). Each game is one
//! rating period; the computer players of each level are opponents of a
//! fixed rating, measured by playing the levels against one another
//! (`LEVEL_RATINGS`).
//!
//! Every player starts at the same rating, 1500, with a deviation of 350:
//! the deviation says how far the rating may be from the player's real
//! strength, and a new player's is wide because their rating does not yet
//! reflect their skill. Each win raises the rating and each loss lowers it,
//! by more while the deviation is wide, and the deviation narrows game by
//! game. Time away does not widen it again.
//!
//! What a game counts as:
//!
//! - partnership: one result against the level, the side's win or loss
//!   (the other side is two bots of the level, so one opponent at the
//!   level's rating; the player's partner is a bot of that level too, as it
//!   was when the level's rating was measured);
//! - cutthroat and individual: one result against each opponent, by final
//!   score: a win above them, a loss below, a draw level with them.
//!
//! Rated: finished games, whose record closes with the game's `end` line,
//! and games given up once a hand was played (`abandoned`: `spades resume
//! --abandon`, or a game left when it could not be saved), which count as
//! lost against every opponent, so that giving up a game going badly never
//! saves a rating. Not rated: practice games, Quick Play runs (they are
//! played for a total, not won), games with open deals (a seed given with
//! `--seed`, written in the record's `game` line: the deals could be known
//! in advance and the game replayed until won; only secret seeds count), a
//! game given up before its first hand was scored (nothing was played),
//! games with no closing line (the program was killed, or the game waits
//! to be resumed: a game left is saved, not given up), and games against a
//! level this version has no rating for.
//!
//! # Calibration
//!
//! Each level's rating is measured, not guessed, by the ignored test
//! `tests/bots/rating_calibration.rs`:
//!
//! ```sh
//! cargo test --release --test rating_calibration -- --ignored --nocapture
//! ```
//!
//! For every mode and every ordered pair of levels (X, L) it seats a bot of
//! level X where the player sits and level L in every other seat, and plays
//! 2,000 deals (seeds 1 to 2,000, open), each deal once with X in each seat,
//! under the classic rules; a game still undecided after 200 hands is left
//! out. A pair with `hard` on either side plays 40 deals (seeds 1 to 40)
//! instead: `hard` searches, far slower per decision than `normal`. It
//! counts X's
//! results as the rating counts a player's (partnership: the wins of X's
//! side; cutthroat and individual: X against each L by final score). A
//! score p is a rating gap of 400 log10(p / (1 - p)), the Glicko-2
//! expectation against an opponent of known strength turned round; a
//! weighted least-squares fit of the twelve gaps of a mode (weights
//! n p (1 - p), the gap's inverse variance), with easy held at `ANCHOR`,
//! gives each level's rating and standard error. A clean sweep (a score
//! of 0 or 1) says no gap and is left out. Nearly all its time goes to the
//! eighteen pairs with `hard`. It fails when a constant below is more than
//! three standard errors (and 25 points) from what it measures, or a level
//! has none.
//!
//! Measured on this version (scores of X against L; `*` a clean sweep):
//!
//! | mode        | X vs L          | results | score  | gap   |
//! | ----------- | --------------- | ------- | ------ | ----- |
//! | partnership | random vs easy  |   8,000 | 0.0283 |  -615 |
//! | partnership | random vs normal|   8,000 | 0.0490 |  -515 |
//! | partnership | random vs hard  |     160 | 0.0625 |  -470 |
//! | partnership | easy vs random  |   7,800 | 0.9860 |   739 |
//! | partnership | easy vs normal  |   8,000 | 0.3926 |   -76 |
//! | partnership | easy vs hard    |     160 | 0.3563 |  -103 |
//! | partnership | normal vs random|   7,271 | 0.9901 |   800 |
//! | partnership | normal vs easy  |   8,000 | 0.8586 |   313 |
//! | partnership | normal vs hard  |     160 | 0.4625 |   -26 |
//! | partnership | hard vs random  |     144 | 0.9931 |   862 |
//! | partnership | hard vs easy    |     160 | 0.9187 |   421 |
//! | partnership | hard vs normal  |     160 | 0.6062 |    75 |
//! | cutthroat   | random vs easy  |  12,000 | 0.0026 | -1035 |
//! | cutthroat   | random vs normal|  12,000 | 0.0001 | -1632 |
//! | cutthroat   | random vs hard  |     240 | 0.0000*|       |
//! | cutthroat   | easy vs random  |  11,972 | 0.9996 |  1352 |
//! | cutthroat   | easy vs normal  |  12,000 | 0.0319 |  -593 |
//! | cutthroat   | easy vs hard    |     240 | 0.0458 |  -527 |
//! | cutthroat   | normal vs random|  12,000 | 1.0000*|       |
//! | cutthroat   | normal vs easy  |  12,000 | 0.9543 |   528 |
//! | cutthroat   | normal vs hard  |     240 | 0.2167 |  -223 |
//! | cutthroat   | hard vs random  |     240 | 1.0000*|       |
//! | cutthroat   | hard vs easy    |     240 | 1.0000*|       |
//! | cutthroat   | hard vs normal  |     240 | 0.8625 |   319 |
//! | individual  | random vs easy  |  24,000 | 0.0008 | -1236 |
//! | individual  | random vs normal|  24,000 | 0.0026 | -1036 |
//! | individual  | random vs hard  |     480 | 0.0021 | -1072 |
//! | individual  | easy vs random  |  24,000 | 1.0000*|       |
//! | individual  | easy vs normal  |  24,000 | 0.4057 |   -66 |
//! | individual  | easy vs hard    |     480 | 0.1938 |  -248 |
//! | individual  | normal vs random|  24,000 | 1.0000*|       |
//! | individual  | normal vs easy  |  24,000 | 0.6467 |   105 |
//! | individual  | normal vs hard  |     480 | 0.2625 |  -179 |
//! | individual  | hard vs random  |     480 | 1.0000*|       |
//! | individual  | hard vs easy    |     480 | 0.9146 |   412 |
//! | individual  | hard vs normal  |     480 | 0.7562 |   197 |
//!
//! The misfit (chi-squared per degree of freedom) is 202 in partnership, 15
//! in cutthroat and 34 in individual: the levels do not lie on one line.
//! Least of all in partnership, where easy with a normal partner against two
//! normals scores 39% (a gap of 76) while normal with an easy partner against
//! two easys scores 86% (313), because the partner covers for the player. So
//! one number per level is a compromise, and its deviation is the fit's
//! standard error widened by the square root of the misfit: a rating earned
//! against one level may read that much differently against another.
//! `hard`'s deviations are the widest, its few deals giving its gaps little
//! weight (partnership's ± 213 most of all). The fit of the other levels
//! moved by no more than 3 points with `hard` in it, so their constants
//! were kept (what the fit now gives them: partnership random 982 ± 92 and
//! normal 1640 ± 44, cutthroat 421 ± 111 and 2052 ± 22, individual 483 ±
//! 113 and 1585 ± 10). The fitted ratings are `LEVEL_RATINGS`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::bots::{BotSpec, Effort, Level};
use crate::engine::{Mode, Side};
use crate::history::{FolderError, History, Outcome, PlayedGame, Unreadable};

pub mod period;

use period::{SeatResult, Sitter};

/// Easy's rating in every mode, and where a new player starts: Glicko-2's
/// default. A newcomer is taken to play about as well as the level that
/// counts plain tricks and slips now and then.
pub const ANCHOR: f64 = 1500.0;

/// Each level's fixed rating and deviation, per mode, as the calibration
/// (see the module's documentation) fitted them:
///
/// | mode        | random     | easy | normal     | hard       |
/// | ----------- | ---------- | ---- | ---------- | ---------- |
/// | partnership |  980 ± 137 | 1500 | 1641 ± 66  | 1672 ± 213 |
/// | cutthroat   |  421 ± 110 | 1500 | 2055 ± 22  | 2277 ± 78  |
/// | individual  |  480 ± 183 | 1500 | 1585 ± 15  | 1783 ± 60  |
const LEVEL_RATINGS: [(Mode, Level, f64, f64); 12] = [
    (Mode::Partnership, Level::Random, 980.0, 137.0),
    (Mode::Partnership, Level::Easy, ANCHOR, 0.0),
    (Mode::Partnership, Level::Normal, 1641.0, 66.0),
    (Mode::Partnership, Level::Hard, 1672.0, 213.0),
    (Mode::Cutthroat, Level::Random, 421.0, 110.0),
    (Mode::Cutthroat, Level::Easy, ANCHOR, 0.0),
    (Mode::Cutthroat, Level::Normal, 2055.0, 22.0),
    (Mode::Cutthroat, Level::Hard, 2277.0, 78.0),
    (Mode::Individual, Level::Random, 480.0, 183.0),
    (Mode::Individual, Level::Easy, ANCHOR, 0.0),
    (Mode::Individual, Level::Normal, 1585.0, 15.0),
    (Mode::Individual, Level::Hard, 1783.0, 60.0),
];

/// The fixed rating of the computer players of `level` in `mode`.
pub fn level_rating(mode: Mode, level: Level) -> Option<Rating> {
    LEVEL_RATINGS
        .iter()
        .find(|&&(m, name, ..)| m == mode && name == level)
        .map(|&(_, _, rating, deviation)| Rating {
            rating,
            deviation,
            ..Rating::new_player()
        })
}

/// A Glicko-2 rating: the estimate, its deviation (about two in three
/// players of that rating lie within one deviation of it) and volatility.
/// A new player's is `Rating::new_player` (see `period`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
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
        let mut ledger = Ledger {
            rating: Rating::new_player(),
            changes: Vec::new(),
        };
        for game in games {
            let before = ledger.rating;
            let Ok(after) = after(game, before) else {
                continue;
            };
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

/// Why a game is not rated (see the module's comment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unrated {
    /// A practice game: moves could be taken back.
    Practice,
    /// A Quick Play run: played for a total, not won.
    QuickPlay,
    /// Deals from a seed given in the open (`--seed`): they could be known
    /// in advance, and the game replayed until won.
    OpenDeals(u64),
    /// Computer players with no rating: a level at a budget of its own, a
    /// program, or a level not measured in the mode. The record's level.
    NoRating(Option<BotSpec>),
    /// Given up before a hand was scored, or never closed.
    NotPlayedOut,
}

impl fmt::Display for Unrated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unrated::Practice => f.write_str("A practice game: not rated."),
            Unrated::QuickPlay => f.write_str("A Quick Play run: not rated."),
            Unrated::OpenDeals(seed) => write!(f, "Open deals (seed {seed}): not rated."),
            Unrated::NoRating(Some(level)) => {
                // A program's command comes from the record: nothing in
                // it reaches the screen that the screen would obey.
                let level = crate::outside::clean(&level.to_string());
                write!(f, "Not rated: {level} has no rating.")
            }
            Unrated::NoRating(None) => f.write_str("Not rated: no level is named."),
            Unrated::NotPlayedOut => f.write_str("Not rated: the game was not played out."),
        }
    }
}

/// The games counted apart from the rest, in the statistics as in the
/// rating: practice games, Quick Play runs, and games with open deals,
/// in that order when a game is more than one.
pub fn apart(game: &PlayedGame) -> Option<Unrated> {
    if game.info.practice {
        Some(Unrated::Practice)
    } else if game.quick {
        Some(Unrated::QuickPlay)
    } else {
        game.open_seed.map(Unrated::OpenDeals)
    }
}

/// The rating after `game`, from `before`: by the one path (`period`), or
/// why the game is not rated (see the module's comment).
pub fn after(game: &PlayedGame, before: Rating) -> Result<Rating, Unrated> {
    let (winner, seats) = seats(game, before)?;
    let rated = period::rate(game.mode, winner, &seats)
        .map_err(|_| Unrated::NoRating(game.info.difficulty.clone()))?;
    // The player is the one rated seat.
    rated
        .first()
        .map(|new| new.after)
        .ok_or(Unrated::NotPlayedOut)
}

/// The game as the one path rates it: the player in their seat at
/// `before`, a computer player of the game's level in every other, the
/// sides' final scores, and the side the game names its winner; or why it
/// is not rated (see the module's comment).
pub fn seats(
    game: &PlayedGame,
    before: Rating,
) -> Result<(Option<Side>, Vec<SeatResult<()>>), Unrated> {
    if let Some(why) = apart(game) {
        return Err(why);
    }
    let no_rating = || Unrated::NoRating(game.info.difficulty.clone());
    // A level at its own budget (`hard@1200`) or a program has no rating.
    let Some(BotSpec::Level(level, Effort::Usual)) = game.info.difficulty else {
        return Err(no_rating());
    };
    level_rating(game.mode, level).ok_or_else(no_rating)?;
    let mine = game.side();
    let winner = match game.outcome {
        Outcome::Won => Some(mine),
        // With partners the other side won; without, the outcome does not
        // say who, and the results are by score.
        Outcome::Lost if game.mode.has_partners() => game.mode.each_side().find(|&s| s != mine),
        Outcome::Lost => None,
        // Given up once a hand was played: lost against every opponent.
        Outcome::Left if !game.results.is_empty() => None,
        Outcome::Left | Outcome::Unfinished => return Err(Unrated::NotPlayedOut),
    };
    let left = game.outcome == Outcome::Left;
    // Without partners the results are by score: every side's is needed.
    if !left && !game.mode.has_partners() && game.scores.len() < game.mode.sides() {
        return Err(Unrated::NotPlayedOut);
    }
    let seats = game
        .mode
        .each_seat()
        .map(|seat| {
            let score = game.scores.get(game.mode.side_of(seat).index());
            SeatResult {
                sitter: if seat == game.seat {
                    Sitter::Player((), before)
                } else {
                    Sitter::Bot(level)
                },
                score: score.copied().unwrap_or(0),
                left: left && seat == game.seat,
            }
        })
        .collect();
    Ok((winner, seats))
}

/// A rating and its deviation, rounded to whole points where shown.
type RatingAndDeviation = (f64, f64);

/// What one game did to the player's rating, for the table to show when
/// the game is over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub before: RatingAndDeviation,
    pub after: RatingAndDeviation,
}

/// Why the rating change of a game cannot be told.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    #[error(transparent)]
    Folder(#[from] FolderError),
    #[error("{}", not_found(.id, .dir, .unreadable))]
    NotFound {
        id: String,
        dir: PathBuf,
        /// Records that could not be read: the game may be one of them.
        unreadable: Vec<Unreadable>,
    },
}

fn not_found(id: &str, dir: &Path, unreadable: &[Unreadable]) -> String {
    let mut why = format!("no game {id} in the records folder {}", dir.display());
    for u in unreadable {
        why.push_str(&format!("\n  could not be read: {u}"));
    }
    why
}

/// The player's rating before and after the game `id`, read from the
/// records in `dir` (`crate::paths::records()`): for the table to show
/// once a game is over; or why that game is not rated (see the module's
/// documentation). Records elsewhere in the folder that cannot be read
/// are left out, as `spades stats` leaves them out.
pub fn change_for(dir: &Path, id: &str) -> Result<Result<Change, Unrated>, ChangeError> {
    let history = History::read(dir)?;
    let Some(game) = history.games.iter().find(|g| g.id == id) else {
        return Err(ChangeError::NotFound {
            id: id.to_string(),
            dir: dir.to_path_buf(),
            unreadable: history.unreadable,
        });
    };
    if let Err(why) = after(game, Rating::new_player()) {
        return Ok(Err(why));
    }
    let ledger = Ledger::of(&history.games);
    let change = ledger.changes.iter().find(|c| c.game == id);
    // Every game with results is in the ledger.
    Ok(change
        .map(|c| Change {
            before: (c.before.rating, c.before.deviation),
            after: (c.after.rating, c.after.deviation),
        })
        .ok_or(Unrated::NotPlayedOut))
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

/// The rating as `spades stats` prints it: lines of at most 70 columns.
pub fn render(ledger: &Ledger) -> Vec<String> {
    let r = &ledger.rating;
    // Named, so it is never taken for a server's ladder rating.
    let now = format!(
        "Rating    {AGAINST_THE_COMPUTER}: {:.0} ± {:.0}",
        r.rating, r.deviation
    );
    let mut lines = match ledger.last() {
        None => vec![
            format!("{now}, no rated game yet"),
            "          (a new player's rating says little of their skill)".into(),
        ],
        Some(last) => {
            let n = ledger.changes.len();
            vec![
                format!(
                    "{now} after {n} rated game{}",
                    if n == 1 { "" } else { "s" }
                ),
                format!(
                    "          {} in the last (± the deviation: it narrows as you play)",
                    signed(last.change()),
                ),
            ]
        }
    };
    lines.push("          (a server's ladder rates its own games: spades ladder)".into());
    lines
}

/// What the rating worked out from the player's records is: the one
/// against the computer, never a server's.
pub const AGAINST_THE_COMPUTER: &str = "against the computer";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use skillratings::Outcomes;

    use crate::engine::Seat;
    use crate::record::GameInfo;

    fn game(mode: Mode, outcome: Outcome, scores: Vec<i32>, hands: usize) -> PlayedGame {
        let result = crate::engine::HandResult {
            hand: 1,
            dealer: Seat::new(0),
            bids: crate::engine::PerSeat::filled(mode, crate::engine::Bid::Tricks(3)),
            declarer: None,
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
            lives_left: None,
        };
        PlayedGame {
            id: format!("g{}", scores[0]),
            file: PathBuf::from("g.jsonl"),
            mode,
            info: GameInfo {
                difficulty: Some(Level::Normal.into()),
                ..GameInfo::default()
            },
            seat: Seat::new(0),
            outcome,
            scores,
            results: vec![result; hands],
            quick: false,
            open_seed: None,
        }
    }

    /// The player's results against their opponents, if the game is rated.
    fn outcomes(game: &PlayedGame) -> Option<Vec<Outcomes>> {
        let (winner, seats) = seats(game, Rating::new_player()).ok()?;
        let opponents = period::opponents(game.mode, &seats).ok()?;
        let i = game.seat.index();
        let results = period::results(game.mode, winner, i, &seats, &opponents);
        Some(results.into_iter().map(|(_, o)| o).collect())
    }

    #[test]
    fn every_level_of_every_mode_has_a_rating_in_order() {
        // Dummy games are not rated: its levels have no fitted ratings yet.
        assert!(level_rating(Mode::Dummy, Level::Easy).is_none());
        for mode in Mode::ALL.into_iter().filter(|&m| m != Mode::Dummy) {
            let ratings: Vec<f64> = Level::ALL
                .iter()
                .map(|&l| level_rating(mode, l).expect("rated").rating)
                .collect();
            assert!(
                ratings.windows(2).all(|w| w[0] < w[1]),
                "{mode}: {ratings:?}"
            );
            assert_eq!(level_rating(mode, Level::Easy).unwrap().rating, ANCHOR);
        }
    }

    #[test]
    fn a_game_counts_once_in_partnership_and_against_each_opponent_otherwise() {
        use Outcomes::{DRAW, LOSS, WIN};
        let p = |o, hands| outcomes(&game(Mode::Partnership, o, vec![300, 510], hands));
        assert_eq!(p(Outcome::Lost, 9), Some(vec![LOSS]));
        assert_eq!(p(Outcome::Won, 9), Some(vec![WIN]));
        // A game given up after a hand is lost; one given up before any
        // hand, or one not finished, is not rated.
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
        let mut run = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        run.quick = true;
        assert_eq!(outcomes(&run), None);
        let mut unknown = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        unknown.info.difficulty = Some("hard@1200".parse().unwrap());
        assert_eq!(outcomes(&unknown), None);
        // Open deals could be known in advance: a win there is not rated.
        let mut open = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        open.open_seed = Some(1);
        assert_eq!(
            after(&open, Rating::new_player()),
            Err(Unrated::OpenDeals(1))
        );
        assert_eq!(
            Unrated::OpenDeals(1).to_string(),
            "Open deals (seed 1): not rated."
        );
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

    /// What the ledger gives for these games, written down before the
    /// local rating and the ladder were put on one path: the figures stay.
    #[test]
    fn the_ledger_gives_the_figures_it_always_gave() {
        let mut left = game(Mode::Cutthroat, Outcome::Left, vec![100, 300, 200], 2);
        left.info.difficulty = Some(Level::Hard.into());
        let mut random = game(Mode::Individual, Outcome::Won, vec![520, 300, 300, 90], 9);
        random.info.difficulty = Some(Level::Random.into());
        let games = [
            game(Mode::Partnership, Outcome::Won, vec![510, 300], 9),
            game(Mode::Partnership, Outcome::Lost, vec![300, 510], 9),
            // Won behind on points: a Boston that wins the game outright.
            game(Mode::Partnership, Outcome::Won, vec![400, 450], 9),
            game(Mode::Cutthroat, Outcome::Lost, vec![300, 510, 120], 9),
            game(Mode::Individual, Outcome::Lost, vec![300, 510, 300, 90], 9),
            left,
            random,
        ];
        let got: Vec<[f64; 3]> = Ledger::of(&games)
            .changes
            .iter()
            .map(|c| [c.after.rating, c.after.deviation, c.after.volatility])
            .collect();
        assert_eq!(
            got,
            [
                [1759.3928302251804, 258.5372535890775, 0.06000031213646669],
                [1590.5452093565075, 212.95265834233214, 0.0600009400533824],
                [1698.5108732125323, 183.25838601191654, 0.06000089721760645],
                [1820.3303210480228, 165.84125444144402, 0.06000400251887313],
                [1723.3389313113164, 138.1422349337891, 0.06000447211886293],
                [1714.4782870138226, 135.214336171882, 0.060003553343403175],
                [1715.0642099368067, 135.4180316485172, 0.06000348927637759],
            ]
        );
    }

    #[test]
    fn the_rating_reads_with_its_deviation_and_last_change() {
        assert_eq!(signed(41.4), "+41");
        assert_eq!(signed(-12.6), "-13");
        assert_eq!(signed(0.2), "0");
        let none = render(&Ledger::of(&[]));
        assert_eq!(
            none[0],
            "Rating    against the computer: 1500 ± 350, no rated game yet"
        );
        let win = game(Mode::Partnership, Outcome::Won, vec![510, 300], 9);
        let some = render(&Ledger::of(&vec![win; 12]));
        assert!(
            some[0].starts_with("Rating    against the computer: ")
                && some[0].ends_with("after 12 rated games")
                && some[1].contains("+"),
            "{some:?}"
        );
        assert!(some.iter().chain(&none).all(|l| l.chars().count() <= 70));
    }
}
