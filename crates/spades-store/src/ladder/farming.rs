//! What keeps a rating from being farmed: one person with spare accounts
//! who lets them lose (leave at once, score nothing) to a main account.
//! Glicko-2 alone rewards that well (three new accounts beaten in each of
//! three short games took a main account from 1500 to 1920), because a
//! new account's wide deviation makes beating it count for much, and
//! nothing tells accounts of one person from people.
//!
//! Two rules, both about who the opponents were:
//!
//! - **Provisional**: an account is provisional in a mode (shown with a
//!   `?`) until it has played `ESTABLISHED_GAMES` rated games there,
//!   against at least `ESTABLISHED_OPPONENTS` different people (bots do not
//!   count), and its deviation is at most `glicko::PROVISIONAL_DEVIATION`.
//! - **Damped results**: a game moves a rating by its *weight*, from 0 to
//!   1, times what Glicko-2 gives. Each opponent (the other side's two
//!   seats in partnership, every other seat otherwise) has a weight, and
//!   the game's is their mean:
//!   - a bot: 1;
//!   - a person: `min(1, e / ESTABLISHED_OPPONENTS)`, where `e` counts the
//!     different people that person has met as opponents in the mode who
//!     are not at this table (someone known only to the accounts at the
//!     table vouches for nothing, whichever way the game went); and when
//!     the rating would rise, that divided by `n`, the games in the mode
//!     within `REPEAT_WINDOW` before this one in which the player met that
//!     person as an opponent, plus this game.
//!
//!   A loss is never damped for meeting the same people again, and a
//!   player who left is charged their loss whole, whoever the opponents
//!   were; the deviation and volatility are Glicko-2's as they are.
//!
//! Spare accounts that have met no one else weigh 0, so a main account
//! gains nothing from them however often it beats them. An honest
//! newcomer's opponents weigh 1 once each has met five other people, and
//! a first meeting is not damped. A result against an unknown person is
//! damped both ways because it says as little either way: damping only the
//! gains would sink a new ladder (32 newcomers, 15 games each: a mean of
//! 1091 instead of 1496), where damping both sinks it by about a hundred,
//! what the repeat rule costs people who meet often (1401).
//!
//! Bots are not damped: a bot of a fixed level is no one's spare account,
//! plays to win, and its rating was measured; Glicko-2's expected score
//! already makes each further win over a weaker bot worth less (see
//! docs/network.md, "Accounts and the ladder", for what ten wins over
//! `easy` bots give).

use crate::engine::Seat;
use crate::rating::Rating;

use super::glicko;
use super::store::{AccountId, Occupant, Standing, Store, StoreError};
use super::{FinishedGame, UnixTime};
use crate::rating::period::NewRating;

/// Rated games an account plays in a mode before it is no longer
/// provisional. Ten is where a newcomer's deviation comes down to
/// `glicko::PROVISIONAL_DEVIATION` against players of known strength, so
/// the count rarely keeps an honest player provisional longer than the
/// deviation alone would.
pub const ESTABLISHED_GAMES: u32 = 10;

/// Different people an account must have met as opponents in a mode
/// before it is no longer provisional. Five: a person with spare accounts
/// needs six accounts, each playing ten games, before any of them counts
/// as an opponent worth beating (and every one of those games' losses
/// counts in full); an honest player meets five people in two or three
/// games at a busy server. A circle of fewer than six people who only
/// ever play one another stays provisional, and its wins do not raise
/// anyone: from the ladder's side it cannot be told from one person's
/// accounts.
pub const ESTABLISHED_OPPONENTS: u32 = 5;

/// How far back a repeated opponent is remembered: 30 days, in seconds.
pub const REPEAT_WINDOW: i64 = 30 * 24 * 60 * 60;

/// Whether an account's standing in a mode is still provisional (see the
/// module's documentation).
pub fn provisional(standing: &Standing) -> bool {
    glicko::provisional(&standing.rating)
        || standing.games < ESTABLISHED_GAMES
        || standing.opponents < ESTABLISHED_OPPONENTS
}

/// One opponent in a rated game, as the damping sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// A computer player of a fixed level.
    Bot,
    /// A person: how many different people not at this table they have
    /// met as opponents, and in how many earlier games within the window
    /// the player met them.
    Person { met_elsewhere: u32, met_before: u32 },
}

/// Which way Glicko-2 moved a rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Gain,
    Loss,
}

impl Opponent {
    fn weight(self, way: Move) -> f64 {
        match self {
            Opponent::Bot => 1.0,
            Opponent::Person {
                met_elsewhere,
                met_before,
            } => {
                let known = f64::from(met_elsewhere) / f64::from(ESTABLISHED_OPPONENTS);
                match way {
                    Move::Gain => known.min(1.0) / (f64::from(met_before) + 1.0),
                    Move::Loss => known.min(1.0),
                }
            }
        }
    }
}

/// The share of a game's move a player keeps: the mean of its opponents'
/// weights (1 for a game with none, which Glicko-2 does not move anyway).
pub fn weight(opponents: &[Opponent], way: Move) -> f64 {
    if opponents.is_empty() {
        return 1.0;
    }
    let sum: f64 = opponents.iter().map(|o| o.weight(way)).sum();
    sum / opponents.len() as f64
}

/// The rating after a game, its move from `before` scaled by `weight`.
pub fn damped(before: Rating, after: Rating, weight: f64) -> Rating {
    Rating {
        rating: before.rating + weight.clamp(0.0, 1.0) * (after.rating - before.rating),
        ..after
    }
}

/// Damps a game's new ratings (see the module's documentation), reading
/// from the store whom each player and each opponent met before.
pub(crate) fn damp<S: Store + ?Sized>(
    store: &mut S,
    game: &FinishedGame,
    rated: &mut [NewRating<AccountId>],
) -> Result<(), StoreError> {
    let known = known_elsewhere(store, game)?;
    let since = game.finished.plus(-REPEAT_WINDOW);
    for new in rated.iter_mut() {
        let left = game
            .seats
            .get(new.seat.index())
            .is_some_and(|&(.., left)| left);
        if left {
            // Leaving is a penalty for leaving, not a result to weigh.
            continue;
        }
        let way = if new.after.rating > new.before.rating {
            Move::Gain
        } else {
            Move::Loss
        };
        let met = match way {
            Move::Gain => store.meetings(new.player, game.mode, since)?,
            Move::Loss => Vec::new(),
        };
        let mine = game.mode.side_of(new.seat);
        let opponents: Vec<Opponent> = game
            .seats
            .iter()
            .enumerate()
            .filter(|&(j, _)| game.mode.side_of(Seat::new(j)) != mine)
            .map(|(_, &(occupant, ..))| match occupant {
                Occupant::Bot(_) => Opponent::Bot,
                Occupant::Player(them) => Opponent::Person {
                    met_elsewhere: known
                        .iter()
                        .find(|(a, _)| *a == them)
                        .map_or(0, |&(_, e)| e),
                    met_before: met
                        .iter()
                        .find(|m| m.opponent == them)
                        .map_or(0, |m| m.games),
                },
            })
            .collect();
        new.after = damped(new.before, new.after, weight(&opponents, way));
    }
    Ok(())
}

/// For each person at the table, how many different people they have
/// met as opponents in the game's mode, ever, leaving out everyone at
/// this table.
fn known_elsewhere<S: Store + ?Sized>(
    store: &mut S,
    game: &FinishedGame,
) -> Result<Vec<(AccountId, u32)>, StoreError> {
    let at_table: Vec<AccountId> = game
        .seats
        .iter()
        .filter_map(|&(occupant, ..)| match occupant {
            Occupant::Player(account) => Some(account),
            Occupant::Bot(_) => None,
        })
        .collect();
    let mut known = Vec::with_capacity(at_table.len());
    for &who in &at_table {
        let ever = store.meetings(who, game.mode, UnixTime(i64::MIN))?;
        let elsewhere = ever
            .iter()
            .filter(|m| !at_table.contains(&m.opponent))
            .count();
        known.push((who, u32::try_from(elsewhere).unwrap_or(u32::MAX)));
    }
    Ok(known)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(deviation: f64, games: u32, opponents: u32) -> Standing {
        Standing {
            rating: Rating {
                rating: 1500.0,
                deviation,
                volatility: 0.06,
            },
            games,
            opponents,
        }
    }

    #[test]
    fn provisional_until_enough_games_against_enough_people() {
        assert!(provisional(&Standing::new_player()));
        assert!(!provisional(&standing(100.0, 10, 5)));
        assert!(provisional(&standing(100.0, 9, 5)), "nine games");
        assert!(provisional(&standing(100.0, 200, 4)), "four people");
        assert!(provisional(&standing(111.0, 200, 50)), "a wide deviation");
    }

    #[test]
    fn a_result_is_weighted_by_who_was_met_and_a_repeat_damps_only_gains() {
        let person = |met_elsewhere, met_before| Opponent::Person {
            met_elsewhere,
            met_before,
        };
        for way in [Move::Gain, Move::Loss] {
            assert_eq!(weight(&[person(0, 0); 3], way), 0.0, "known to no one");
            assert_eq!(weight(&[Opponent::Bot; 3], way), 1.0);
            assert_eq!(weight(&[person(5, 0); 3], way), 1.0);
            assert_eq!(weight(&[person(50, 0)], way), 1.0);
            assert_eq!(weight(&[person(2, 0)], way), 0.4);
            assert_eq!(weight(&[Opponent::Bot, person(0, 0)], way), 0.5);
        }
        // Met once, three times, never: (1/2 + 1/4 + 1) / 3 for a gain.
        let mixed = [person(5, 1), person(9, 3), person(5, 0)];
        assert!((weight(&mixed, Move::Gain) - 1.75 / 3.0).abs() < 1e-12);
        assert_eq!(weight(&mixed, Move::Loss), 1.0);

        let at = |rating| Rating {
            rating,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert_eq!(damped(at(1500.0), at(1540.0), 0.25).rating, 1510.0);
        assert_eq!(damped(at(1500.0), at(1540.0), 0.0).rating, 1500.0);
        assert_eq!(damped(at(1500.0), at(1460.0), 0.5).rating, 1480.0);
        assert_eq!(damped(at(1500.0), at(1540.0), 1.0), at(1540.0));
    }
}
