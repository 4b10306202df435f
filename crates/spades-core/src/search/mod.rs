//! What a searching bot needs on top of the rules: guessing the deals a
//! seat's view allows (`deal_guess`), playing hands out fast on bit sets
//! (`playout`, `policy`), solving the last tricks exactly (`endgame`), the
//! most tricks each side takes with every card seen (`double_dummy`), and
//! what a hand's outcome is worth in the game (`stakes`). Pure, like the
//! engine: no I/O, no clock, randomness only from the generator given.

pub(crate) mod deal_guess;
pub mod double_dummy;
pub mod endgame;
pub(crate) mod playout;
pub mod policy;
pub(crate) mod stakes;

pub use deal_guess::{DealGuess, GuessError};
pub use playout::Playout;
pub use policy::Policy;
pub use stakes::{HandOutcome, hand_outcome, win_chances};
