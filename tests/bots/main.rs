//! The computer players: the blunder suite, whole games between the
//! levels, the hint, the engine support a search leans on, and the
//! calibration of the levels' ratings.
//!
//! One test binary (`cargo test --test bots`); each module is one area.

mod blunders;
mod hint;
mod levels;
mod rating_calibration;
mod search_support;
