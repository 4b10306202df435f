//! A recorded game read hand by hand in lines, with its review when the
//! analysis runs: `spades replay --screen-reader`, and the game just
//! played from the game-over lines.

use crate::signals::StopSignals;

use super::super::replay::Viewer;
use super::super::{Ending, TuiError};
use super::Lines;

/// Reads `viewer`'s game to the player until they leave it (`q`), the
/// input closes, or a stop signal comes.
pub fn read(
    viewer: &mut Viewer,
    lines: &mut Lines,
    signals: &StopSignals,
) -> Result<Ending, TuiError> {
    // PLACEHOLDER (issue 39 part "replay" replaces this): never lands as is.
    let _ = (viewer, lines, signals);
    unimplemented!("the spoken replay")
}
