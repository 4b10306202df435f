//! How the ladder shows a Glicko-2 rating: a number with its deviation,
//! marked while the deviation says it is still a guess. The ladder rates
//! its games by the one path the local rating takes too
//! (`crate::rating::period`).

use crate::rating::Rating;

/// A deviation above this says the rating is still a guess: the player is
/// shown as provisional (a `?` beside the rating). 110 is about a third of
/// a new player's 350, reached after some ten to fifteen games against
/// players of known strength; a stranger's rating within ± 220 (two
/// deviations) of the truth is worth a seat at the table, not before.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Whether a rating's deviation still makes it provisional (see
/// `PROVISIONAL_DEVIATION`); the ladder also asks for enough games against
/// enough people (`farming::provisional`).
pub fn provisional(rating: &Rating) -> bool {
    rating.deviation > PROVISIONAL_DEVIATION
}

/// A rating as the ladder shows it: `1623 ± 48`, or `1500? ± 350` while
/// provisional.
pub fn shown(rating: &Rating) -> String {
    let mark = if provisional(rating) { "?" } else { "" };
    format!("{:.0}{mark} ± {:.0}", rating.rating, rating.deviation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Level;
    use crate::engine::Mode;
    use crate::rating::period::{SeatResult, Sitter, rate};

    #[test]
    fn a_new_player_is_provisional_until_the_deviation_narrows() {
        let mut me = Rating::new_player();
        assert!(provisional(&me));
        assert_eq!(shown(&me), "1500? ± 350");
        let mut games = 0;
        while provisional(&me) {
            let seats = [
                SeatResult {
                    sitter: Sitter::Player(0, me),
                    score: 300,
                    left: false,
                },
                SeatResult {
                    sitter: Sitter::Bot(Level::Normal),
                    score: 200,
                    left: false,
                },
                SeatResult {
                    sitter: Sitter::Bot(Level::Easy),
                    score: 300,
                    left: false,
                },
                SeatResult {
                    sitter: Sitter::Bot(Level::Normal),
                    score: 200,
                    left: false,
                },
            ];
            me = rate(Mode::Partnership, None, &seats).unwrap()[0].after;
            games += 1;
            assert!(games < 100, "never narrowed: {me:?}");
        }
        assert!((5..=30).contains(&games), "{games} games");
        assert!(!shown(&me).contains('?'), "{}", shown(&me));
    }
}
