//! A game at the table in lines: the loop that says what happens, answers
//! questions and turns words into the player's actions.

use crate::signals::StopSignals;

use super::super::run::Start;
use super::super::{App, Outcome, PlayConfig, TuiError};
use super::Lines;

/// Plays local games in lines until the player quits, as `tui::run` does
/// on the full screen: the same saves, records and endings.
pub fn run(config: PlayConfig, start: Start) -> Result<Outcome, TuiError> {
    // PLACEHOLDER (issue 39 part "table" replaces this): never lands as is.
    let _ = (config, start);
    unimplemented!("the spoken table")
}

/// Plays at `app`'s table (local, or a seat on a server) until the player
/// leaves, the input closes or a stop comes; then closes the session as
/// the full screen does (a game left is saved, or given up) and says how
/// it went.
pub fn play_to_the_end(app: &mut App, lines: &mut Lines, signals: &StopSignals) -> Outcome {
    // PLACEHOLDER (issue 39 part "table" replaces this): never lands as is.
    let _ = (app, lines, signals);
    unimplemented!("the spoken table")
}
