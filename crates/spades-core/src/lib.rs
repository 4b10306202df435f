//! Spades' rules, search and computer players: the pure core the rest of
//! the program is built on, with no I/O but a bot's own thinking.
//!
//! - [`engine`]: the rules. A [`engine::Game`] is dealt from a seed under
//!   [`engine::Rules`], takes [`engine::Action`]s and says who may do what;
//!   each seat sees only its [`engine::PlayerView`].
//! - [`search`]: what the `hard` level needs: guessed deals, fast playouts,
//!   exact endgames and the double-dummy solver.
//! - [`bots`]: the [`bots::Bot`] trait and the levels (`easy`, `normal`,
//!   `hard`, `random`); a bot of your own implements `Bot`.

pub mod bots;
pub mod engine;
pub mod search;
