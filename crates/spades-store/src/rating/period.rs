//! One Glicko-2 rating period for the players at a table: the one path by
//! which both the player's rating against the computer (`crate::rating`)
//! and a server's ladder (`crate::ladder`) rate a game. Glicko-2 is
//! Glickman's system, as the `skillratings` crate computes it, with the
//! paper's system constant (tau 0.5); each game is one rating period.
//!
//! What a game counts as:
//!
//! - **partnership**: each player is rated against the other side as one
//!   opponent, whose rating is the mean of the two opponents' ratings and
//!   whose deviation is the root-mean-square of their deviations; the
//!   result is the side's: a win for the side the game names its winner, a
//!   loss for the other (a Boston that wins the game outright wins it even
//!   from behind), or by final score where no winner is named. The side won
//!   or lost as one, so the player meets one result, not two: rating them
//!   against each opponent apart would count the one game twice and move
//!   them twice as far. The mean is the side's strength on the rating's
//!   scale; the root-mean-square keeps what each opponent's deviation says
//!   of its uncertainty (a plain mean of deviations would let one sure
//!   opponent hide an unknown one). The partner does not count: partners
//!   share the result whatever their strengths.
//! - **cutthroat and individual**: each player against each other player,
//!   by final score (above a win, level a draw, below a loss).
//!
//! A computer player sits at its level's fixed rating (`level_rating`) and
//! is not rated. A player who left before the end loses, whatever the
//! score: against the other side, or against each other player. The
//! others' results, against each other and against the leaver's seat
//! (played on by a bot to the end), stand as the score says.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use crate::bots::Level;
use crate::engine::{Mode, Seat, Side};

use super::{Rating, level_rating};

/// Who sat in a seat of a rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sitter<P> {
    /// A rated player and their rating in the mode before the game.
    Player(P, Rating),
    /// A computer player of a fixed level.
    Bot(Level),
}

/// One seat of a finished game: who sat there, their side's final score
/// and whether they left before the end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatResult<P> {
    pub sitter: Sitter<P>,
    pub score: i32,
    pub left: bool,
}

/// What a rated game did to one player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewRating<P> {
    pub player: P,
    pub seat: Seat,
    pub before: Rating,
    pub after: Rating,
}

/// Why a game cannot be rated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unratable {
    #[error("a {0} game has {1} seats, not {2}")]
    Seats(Mode, usize, usize),
    #[error("{0} has no fixed rating in {1}: a game with it is not rated")]
    NoLevelRating(Level, Mode),
}

/// The new rating of every player at the table (in seat order); bots keep
/// theirs. `winner` is the side the game names its winner, if it names
/// one (see the module's documentation).
pub fn rate<P: Copy>(
    mode: Mode,
    winner: Option<Side>,
    seats: &[SeatResult<P>],
) -> Result<Vec<NewRating<P>>, Unratable> {
    let opponents = opponents(mode, seats)?;
    let mut rated = Vec::new();
    for (i, seat) in seats.iter().enumerate() {
        let Sitter::Player(player, before) = seat.sitter else {
            continue;
        };
        let results = results(mode, winner, i, seats, &opponents);
        rated.push(NewRating {
            player,
            seat: Seat::new(i),
            before,
            after: after_period(before, &results),
        });
    }
    Ok(rated)
}

/// The seats' ratings as opponents: a player's own, a bot's fixed one.
pub fn opponents<P>(mode: Mode, seats: &[SeatResult<P>]) -> Result<Vec<Rating>, Unratable> {
    if seats.len() != mode.seats() {
        return Err(Unratable::Seats(mode, seats.len(), mode.seats()));
    }
    seats
        .iter()
        .map(|seat| match seat.sitter {
            Sitter::Player(_, rating) => Ok(rating),
            Sitter::Bot(level) => {
                level_rating(mode, level).ok_or(Unratable::NoLevelRating(level, mode))
            }
        })
        .collect()
}

/// Seat `i`'s results against its opponents (see the module's
/// documentation), `opponents` being every seat's (`opponents`).
pub fn results<P>(
    mode: Mode,
    winner: Option<Side>,
    i: usize,
    seats: &[SeatResult<P>],
    opponents: &[Rating],
) -> Vec<(Rating, Outcomes)> {
    if mode.has_partners() {
        against_the_other_side(mode, winner, i, seats, opponents)
    } else {
        against_each_other(i, seats, opponents)
    }
}

/// Seat `i`'s one result against the other side, as one opponent.
fn against_the_other_side<P>(
    mode: Mode,
    winner: Option<Side>,
    i: usize,
    seats: &[SeatResult<P>],
    opponents: &[Rating],
) -> Vec<(Rating, Outcomes)> {
    let mine = mode.side_of(Seat::new(i));
    let theirs: Vec<usize> = (0..seats.len())
        .filter(|&j| mode.side_of(Seat::new(j)) != mine)
        .collect();
    let n = theirs.len() as f64;
    let side = Rating {
        rating: theirs.iter().map(|&j| opponents[j].rating).sum::<f64>() / n,
        deviation: (theirs
            .iter()
            .map(|&j| opponents[j].deviation.powi(2))
            .sum::<f64>()
            / n)
            .sqrt(),
        ..Rating::new_player()
    };
    let outcome = match winner {
        _ if seats[i].left => Outcomes::LOSS,
        Some(side) if side == mine => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => {
            let their_score = theirs.first().map_or(0, |&j| seats[j].score);
            by_score(seats[i].score, their_score)
        }
    };
    vec![(side, outcome)]
}

/// Seat `i`'s result against each other seat.
fn against_each_other<P>(
    i: usize,
    seats: &[SeatResult<P>],
    opponents: &[Rating],
) -> Vec<(Rating, Outcomes)> {
    (0..seats.len())
        .filter(|&j| j != i)
        .map(|j| {
            // Against a leaver's seat, played on by a bot to the end, the
            // score stands: leaving charges the leaver, it gives no one a win.
            let outcome = match (seats[i].left, seats[j].left) {
                (true, false) => Outcomes::LOSS,
                _ => by_score(seats[i].score, seats[j].score),
            };
            (opponents[j], outcome)
        })
        .collect()
}

/// A result by final score: above is a win, level a draw, below a loss.
fn by_score(mine: i32, theirs: i32) -> Outcomes {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Outcomes::WIN,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
        std::cmp::Ordering::Less => Outcomes::LOSS,
    }
}

/// The rating after one rating period with these results.
fn after_period(before: Rating, results: &[(Rating, Outcomes)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|&(opponent, outcome)| (opponent.into(), outcome))
        .collect();
    glicko2_rating_period(&before.into(), &results, &Glicko2Config::new()).into()
}

impl Rating {
    /// Where every new player starts: 1500 ± 350, volatility 0.06.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: u32, rating: f64, deviation: f64, score: i32) -> SeatResult<u32> {
        SeatResult {
            sitter: Sitter::Player(
                id,
                Rating {
                    rating,
                    deviation,
                    volatility: 0.06,
                },
            ),
            score,
            left: false,
        }
    }

    /// A table rated as the ladder rates it: no winner named, so a
    /// partnership's result is by the final score.
    fn rate_by_score(
        mode: Mode,
        seats: &[SeatResult<u32>],
    ) -> Result<Vec<NewRating<u32>>, Unratable> {
        rate(mode, None, seats)
    }

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's own example ("Example of the Glicko-2 system", 2013):
    /// 1500 ± 200 (σ 0.06, τ 0.5) beats 1400 ± 30, loses to 1550 ± 100
    /// and to 1700 ± 300. On the Glicko-2 scale (÷ 173.7178): μ = 0,
    /// φ = 1.1513; the opponents' g(φⱼ) = 0.9955, 0.9531, 0.7242 and
    /// E = 0.6395, 0.4318, 0.3028; v = 1.7790, Δ = -0.4839; the Illinois
    /// iteration gives σ' = 0.05999; φ* = 1.1529, φ' = 0.8722, μ' = -0.2069:
    /// 1464.05 ± 151.52 (the paper, rounding as it goes, prints 1464.06).
    #[test]
    fn glickmans_example_is_worked_as_the_paper_does() {
        let rating = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = after_period(
            rating(1500.0, 200.0),
            &[
                (rating(1400.0, 30.0), Outcomes::WIN),
                (rating(1550.0, 100.0), Outcomes::LOSS),
                (rating(1700.0, 300.0), Outcomes::LOSS),
            ],
        );
        assert!(close(after.rating, 1464.05, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    /// A partnership game: A and B (each 1500 ± 200) beat C and D (each
    /// 1400 ± 30), 520 to 310. The other side as one opponent: for A and B,
    /// mean 1400, root-mean-square deviation 30; for C and D, 1500 ± 200.
    ///
    /// A (and B): μ = 0, φ = 1.1513; the opponent μⱼ = -0.5756,
    /// φⱼ = 0.1727, g = 1/√(1 + 3φⱼ²/π²) = 0.9955,
    /// E = 1/(1 + exp(-g(μ - μⱼ))) = 0.6395; v = 1/(g²E(1-E)) = 4.3768;
    /// Δ = v g (1 - E) = 1.5709; σ' = 0.059999 (Δ² < φ² + v, so the
    /// iteration's B starts at a - kτ); φ* = √(φ² + σ'²) = 1.1529;
    /// φ' = 1/√(1/φ*² + 1/v) = 1.0097; μ' = μ + φ'² g (1 - E) = 0.3659:
    /// 1563.56 ± 175.40.
    ///
    /// C (and D): μ = -0.5756, φ = 0.1727; the opponent μⱼ = 0, φⱼ = 1.1513,
    /// g = 0.8443, E = 0.3808; v = 5.9495, Δ = -1.9130; σ' = 0.059999;
    /// φ* = 0.1828, φ' = 0.1823, μ' = -0.5863: 1398.14 ± 31.67.
    #[test]
    fn a_partnership_game_moves_both_sides_as_worked_by_hand() {
        let seats = [
            player(1, 1500.0, 200.0, 520),
            player(3, 1400.0, 30.0, 310),
            player(2, 1500.0, 200.0, 520),
            player(4, 1400.0, 30.0, 310),
        ];
        let rated = rate_by_score(Mode::Partnership, &seats).unwrap();
        assert_eq!(rated.len(), 4);
        for new in &rated {
            let (rating, deviation) = if new.player <= 2 {
                (1563.56, 175.40)
            } else {
                (1398.14, 31.67)
            };
            assert!(close(new.after.rating, rating, 0.01), "{new:?}");
            assert!(close(new.after.deviation, deviation, 0.01), "{new:?}");
        }
        // Two opponents of unequal deviations: the side's is their
        // root-mean-square, √((30² + 350²)/2) = 248.4, not their mean.
        let mixed = [
            player(1, 1500.0, 200.0, 520),
            player(3, 1400.0, 30.0, 310),
            player(2, 1500.0, 200.0, 520),
            player(4, 1400.0, 350.0, 310),
        ];
        let opponents = opponents(Mode::Partnership, &mixed).unwrap();
        let side = results(Mode::Partnership, None, 0, &mixed, &opponents);
        assert!(close(side[0].0.deviation, 248.39, 0.01), "{side:?}");
        assert_eq!(side[0].1, Outcomes::WIN);
    }

    /// What the ladder gives for these tables, written down before the
    /// local rating and the ladder were put on one path: the figures stay.
    #[test]
    fn the_ladder_gives_the_figures_it_always_gave() {
        let bot = |level, score| SeatResult {
            sitter: Sitter::Bot(level),
            score,
            left: false,
        };
        let mut leaver = player(5, 1620.0, 80.0, 250);
        leaver.left = true;
        let tables = [
            (
                Mode::Partnership,
                vec![
                    player(1, 1500.0, 200.0, 520),
                    player(3, 1400.0, 30.0, 310),
                    player(2, 1500.0, 200.0, 520),
                    player(4, 1400.0, 350.0, 310),
                ],
            ),
            (
                Mode::Partnership,
                vec![
                    player(1, 1710.0, 90.0, 300),
                    bot(Level::Hard, 480),
                    bot(Level::Normal, 300),
                    bot(Level::Hard, 480),
                ],
            ),
            (
                Mode::Cutthroat,
                vec![
                    leaver,
                    player(6, 1450.0, 120.0, 250),
                    bot(Level::Normal, 100),
                ],
            ),
            (
                Mode::Individual,
                vec![
                    player(7, 1800.0, 60.0, 300),
                    bot(Level::Random, 510),
                    player(8, 1300.0, 300.0, 300),
                    bot(Level::Hard, 90),
                ],
            ),
        ];
        let got: Vec<Vec<[f64; 3]>> = tables
            .iter()
            .map(|(mode, seats)| {
                let rated = rate_by_score(*mode, seats).unwrap();
                rated
                    .iter()
                    .map(|n| [n.after.rating, n.after.deviation, n.after.volatility])
                    .collect()
            })
            .collect();
        let want: [&[[f64; 3]]; 4] = [
            &[
                [1559.013321775995, 183.21969296316314, 0.05999922593945593],
                [1398.1435582337338, 31.67021528115062, 0.05999912372888531],
                [1559.013321775995, 183.21969296316314, 0.05999922593945593],
                [1265.1518701274813, 269.9186009216031, 0.059999144495461725],
            ],
            &[[1689.6019084584352, 88.57458111653285, 0.060000319828456786]],
            &[
                [1593.5771366316121, 78.59949490139564, 0.06000353376385955],
                [1539.3222794546355, 114.59468543331081, 0.06001278364897363],
            ],
            &[
                [1786.0302198518866, 59.82979857394144, 0.06000195842887991],
                [1494.7079971550681, 257.9882532462693, 0.06000072056325541],
            ],
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn one_who_leaves_loses_and_the_others_stand_by_the_score() {
        let mut seats = [
            player(1, 1500.0, 350.0, 200),
            player(2, 1500.0, 350.0, 150),
            player(3, 1500.0, 350.0, 100),
        ];
        seats[0].left = true;
        let rated = rate_by_score(Mode::Cutthroat, &seats).unwrap();
        assert!(rated[0].after.rating < 1500.0, "{rated:?}");
        // The leaver's seat scored most: it beat 2 and 3 on the score,
        // as 2 beat 3, though the leaver lost to both.
        assert!(rated[1].after.rating > rated[2].after.rating);
        assert!(close(rated[1].after.rating, 1500.0, 0.01), "{rated:?}");
        assert!(rated[2].after.rating < 1500.0, "{rated:?}");
        let mut partnership = [
            player(1, 1500.0, 350.0, 400),
            SeatResult {
                sitter: Sitter::Bot(Level::Normal),
                score: 100,
                left: false,
            },
            player(2, 1500.0, 350.0, 400),
            SeatResult {
                sitter: Sitter::Bot(Level::Normal),
                score: 100,
                left: false,
            },
        ];
        partnership[0].left = true;
        let rated = rate_by_score(Mode::Partnership, &partnership).unwrap();
        assert_eq!(rated.len(), 2, "bots are not rated");
        assert!(rated[0].after.rating < 1500.0 && rated[1].after.rating > 1500.0);
        assert_eq!(
            rate_by_score(Mode::Dummy, &[partnership[1]; 4]),
            Err(Unratable::NoLevelRating(Level::Normal, Mode::Dummy))
        );
        assert_eq!(
            rate_by_score(Mode::Partnership, &seats),
            Err(Unratable::Seats(Mode::Partnership, 3, 4))
        );
    }

    /// A side the game names its winner wins, even behind on points (a
    /// Boston that wins the game outright); a leaver still loses.
    #[test]
    fn the_named_winner_wins_whatever_the_score() {
        let seats = [
            player(1, 1500.0, 200.0, 400),
            player(3, 1500.0, 200.0, 450),
            player(2, 1500.0, 200.0, 400),
            player(4, 1500.0, 200.0, 450),
        ];
        let opponents = opponents(Mode::Partnership, &seats).unwrap();
        let outcome = |winner, i, seats: &[SeatResult<u32>]| {
            results(Mode::Partnership, winner, i, seats, &opponents)[0].1
        };
        let behind = Some(Side::new(0));
        assert_eq!(outcome(behind, 0, &seats), Outcomes::WIN);
        assert_eq!(outcome(behind, 1, &seats), Outcomes::LOSS);
        assert_eq!(outcome(None, 0, &seats), Outcomes::LOSS);
        let mut left = seats;
        left[0].left = true;
        assert_eq!(outcome(behind, 0, &left), Outcomes::LOSS);
        assert_eq!(outcome(behind, 2, &left), Outcomes::WIN);
        let rated = rate(Mode::Partnership, behind, &seats).unwrap();
        assert!(rated[0].after.rating > 1500.0 && rated[1].after.rating < 1500.0);
    }
}
